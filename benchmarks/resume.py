"""What reading a batch's OUT to resume costs: streamed (done_ids) against reading it whole.

    python benchmarks/resume.py [RECORDS]

Writes an OUT of RECORDS results (200,000 by default) to a temporary folder,
then reads it both ways, side by side in one run: CPU time (median of 5) and
the peak memory Python allocated (tracemalloc), beside the file's size. The
whole-file reading is how resume worked before it streamed.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from cpsolver.io.reading import InputError, loads_json
from cpsolver.scale.batch import done_ids


def read_whole(path: Path) -> set[str]:
    """The ids of OUT, read all at once (the old way; no torn-line repair, which costs nothing)."""
    ids = set()
    for raw in path.read_bytes().splitlines():
        try:
            ids.add(str(loads_json(raw, str(path))["id"]))
        except (InputError, KeyError, TypeError):
            continue
    return ids


def measure(read: Callable[[Path], object], path: Path) -> tuple[float, float]:
    """Median CPU seconds of 5 readings, and peak traced MB of one."""
    times = []
    for _ in range(5):
        started = time.process_time()
        read(path)
        times.append(time.process_time() - started)
    tracemalloc.start()
    read(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(times), peak / 1e6


def main() -> None:
    records = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.jsonl"
        with out.open("w") as file:
            for number in range(records):
                record = {
                    "id": f"planted-7-{number}",
                    "line": number + 1,
                    "verdict": "spring",
                    "plan": ["33344455", "KKK", "2"],
                    "objective": "spring",
                    "engine": "search",
                    "seconds": 0.000311,
                }
                file.write(json.dumps(record) + "\n")
        size = out.stat().st_size / 1e6
        streamed = measure(done_ids, out)
        whole = measure(read_whole, out)
    print(f"OUT: {records} results, {size:.1f} MB")
    print(f"streamed (done_ids): {streamed[0]:.3f} s CPU, peak {streamed[1]:.1f} MB")
    print(f"read whole:          {whole[0]:.3f} s CPU, peak {whole[1]:.1f} MB")
    print(
        f"ratio streamed/whole: CPU {streamed[0] / whole[0]:.2f}x, memory {streamed[1] / whole[1]:.2f}x"
    )


if __name__ == "__main__":
    main()
