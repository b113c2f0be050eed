"""Batch throughput on local workers and a local Dask cluster, and the client's memory.

    python benchmarks/batch.py [--deals 10000] [--memory-lines 1000000]
                               [--json benchmarks/results/batch.json]

Writes a corpus of planted full deals and times ``cpsolver batch`` on it with
1 and 2 local workers and with a 2-worker Dask LocalCluster (deals per second
and scaling efficiency against one worker). Then streams a corpus of
``--memory-lines`` tiny endgames through one worker with the search engine and
reports the client's peak memory next to that of a run on a hundredth of it:
streaming keeps it flat. ``--json`` writes the figures for
``benchmarks/speed_section.py``, which renders the Speed page's paragraph (``docs/speed.md``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from timed import children_end_with_us

from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.dealgen import generate
from cpsolver.spring.engines import DEFAULT_ENGINE


def write_corpus(path: Path, kind: str, count: int, sizes: str | None = None) -> None:
    from cpsolver.io.dealgen import parse_sizes

    extra = (parse_sizes(sizes),) if sizes else ()
    with path.open("w") as file:
        for entry in generate(kind, count, 1, *extra):
            file.write(json.dumps({"id": entry.id, **deal_as_dict(entry.deal)}) + "\n")


def batch(corpus: Path, *options: str) -> dict[str, object]:
    out = corpus.with_suffix(".out")
    out.unlink(missing_ok=True)
    command = [
        sys.executable,
        "-m",
        "cpsolver",
        "batch",
        str(corpus),
        "-o",
        str(out),
        "--json",
        "--quiet",
        *options,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 3):
        raise SystemExit(done.stderr)
    summary: dict[str, object] = json.loads(done.stdout)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--memory-lines", type=int, default=1_000_000)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    options = parser.parse_args()
    children_end_with_us()
    report: dict[str, Any] = {"deals": options.deals, "engine": DEFAULT_ENGINE, "throughput": {}}
    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "planted.jsonl"
        write_corpus(corpus, "planted", options.deals)
        print(f"{options.deals} planted full deals, {DEFAULT_ENGINE} engine (the default)")
        base = None
        for key, label, flags in [
            ("workers_1", "1 worker", ["--workers", "1"]),
            ("workers_2", "2 workers", ["--workers", "2"]),
            ("dask_2", "Dask LocalCluster, 2 workers", ["--local-cluster", "2"]),
        ]:
            summary = batch(corpus, *flags)
            rate = float(summary["deals_per_second"])  # type: ignore[arg-type]
            base = base or rate
            efficiency = rate / base / (1 if key == "workers_1" else 2)
            report["throughput"][key] = {"deals_per_second": rate, "efficiency": efficiency}
            print(f"  {label:<30}{rate:>8.1f} deals/s  efficiency {efficiency:.0%}")
        report["memory"] = []
        for lines in (options.memory_lines // 100, options.memory_lines):
            tiny = Path(folder) / f"tiny-{lines}.jsonl"
            write_corpus(tiny, "endgame", lines, "1-3,1-3,1-3")
            summary = batch(tiny, "--workers", "1", "--engine", "search")
            report["memory"].append({"lines": lines, "peak_memory_mb": summary["peak_memory_mb"]})
            print(
                f"  {lines:>9} endgame lines: client peak memory {summary['peak_memory_mb']} MB, "
                f"{summary['deals_per_second']} deals/s"
            )
    if options.json:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
