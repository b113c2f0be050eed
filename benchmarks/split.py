"""One open-hand position on one core against several: CPU and wall seconds, side by side.

    python benchmarks/split.py [POSITIONS] [WORKERS] [SECONDS]

Draws POSITIONS (8 by default) seeded positions of each of two kinds
(two players 12-14 cards each; three players 7-9 cards each), and solves
each with `cpsolver endgame --all` alone and with `--workers WORKERS` (2 by
default), each run its own process, SECONDS (60) a run. Reports, per kind,
the median wall seconds of each, their ratio, the CPU seconds of each
(children included), and whether the verdicts and winning moves agree.
Writes benchmarks/results/split.json. Take it on a quiet machine: the
workers need the cores to themselves.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

from timed import children_end_with_us, timed_run

from cpsolver.io.positionformat import position_as_dict
from cpsolver.io.positiongen import random_position

KINDS = {"two 12-14": ((12, 14), (12, 14)), "three 7-9": ((7, 9), (7, 9), (7, 9))}
RESULTS = Path(__file__).resolve().parent / "results" / "split.json"


def run(path: Path, extra: list[str], seconds: float) -> tuple[float, float, dict[str, object]]:
    """Wall seconds, CPU seconds (this child and its workers) and the JSON answer of one run."""
    argv = [sys.executable, "-m", "cpsolver", "endgame", str(path), "--all", "--json"]
    wall, cpu, done = timed_run(argv + ["--timeout", str(seconds), *extra])
    return wall, cpu, json.loads(done.stdout)


def main() -> None:
    children_end_with_us()
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 60.0
    report: dict[str, object] = {"workers": workers, "seconds": seconds, "kinds": {}}
    with tempfile.TemporaryDirectory() as folder:
        for name, sizes in KINDS.items():
            rng = random.Random(2026)
            rows = []
            for number in range(count):
                path = Path(folder) / f"{number}.json"
                path.write_text(json.dumps(position_as_dict(random_position(rng, sizes, 0.0))))
                alone = run(path, [], seconds)
                split = run(path, ["--workers", str(workers)], seconds)
                same = (alone[2]["winner"], sorted(alone[2]["moves"])) == (
                    split[2]["winner"],
                    sorted(split[2]["moves"]),
                )
                rows.append(
                    {
                        "alone_wall": alone[0],
                        "alone_cpu": alone[1],
                        "split_wall": split[0],
                        "split_cpu": split[1],
                        "agree": same or None in (alone[2]["winner"], split[2]["winner"]),
                    }
                )
                print(
                    f"{name} #{number}: alone {alone[0]:.2f} s, {workers} workers {split[0]:.2f} s",
                    flush=True,
                )
            summary = {
                key: round(statistics.median(r[key] for r in rows), 3)
                for key in ("alone_wall", "alone_cpu", "split_wall", "split_cpu")
            }
            summary["wall_ratio_split_over_alone"] = round(
                summary["split_wall"] / summary["alone_wall"], 2
            )
            summary["all_agree"] = all(r["agree"] for r in rows)
            report["kinds"][name] = {"median": summary, "runs": rows}  # type: ignore[index]
            print(
                f"{name}: median wall alone {summary['alone_wall']} s, split {summary['split_wall']} s "
                f"(x{summary['wall_ratio_split_over_alone']}); CPU {summary['alone_cpu']} vs {summary['split_cpu']}; "
                f"agree: {summary['all_agree']}",
                flush=True,
            )
    RESULTS.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
