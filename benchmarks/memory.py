"""The open-hand search's memory under ``--memory``: the peak against the cap, and the cost in nodes.

    python benchmarks/memory.py [SECONDS] [DEALS]

Runs ``cpsolver endgame --json --timeout SECONDS`` (30 by default) on DEALS
seeded full deals (3 by default), each with no cap and with caps of 128, 256
and 1024 MiB (the default), one whole process a run, and reads the process's own ``stats``:
the peak resident memory, the nodes searched in the time, and the entries
evicted. Writes ``benchmarks/results/memory.json`` and prints one line a run
and the worst peak over cap, the figure the manual quotes (``docs/reliability.md``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from cpsolver.io.dealformat import deal_as_text
from cpsolver.io.dealgen import generate

CAPS = (None, 128, 256, 1024)
RESULTS = Path(__file__).resolve().parent / "results" / "memory.json"


def run(deal: Path, seconds: float, cap: int | None) -> dict[str, object]:
    """One endgame run's stats, as it reports them."""
    memory = "none" if cap is None else str(cap)
    done = subprocess.run(
        [sys.executable, "-m", "cpsolver", "endgame", str(deal), "--json"]
        + ["--timeout", str(seconds), "--memory", memory],
        capture_output=True,
        text=True,
        check=False,
    )
    stats: dict[str, object] = json.loads(done.stdout)["stats"]
    return stats


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for entry in generate("full", count, seed=7):
            deal = Path(folder) / f"{entry.id}.json"
            deal.write_text(deal_as_text(entry.deal))
            for cap in CAPS:
                stats = run(deal, seconds, cap)
                row = {"deal": entry.id, "cap_mib": cap, **stats}
                rows.append(row)
                print(
                    f"{entry.id:<10} cap {cap or 'none':>5} MiB: peak {stats['peak_memory_mb']} MB, "
                    f"{stats['nodes']} nodes, {stats['evicted']} evicted",
                    flush=True,
                )
    capped = [r for r in rows if r["cap_mib"] is not None]
    worst = max(float(r["peak_memory_mb"]) / (r["cap_mib"] * 1.048576) for r in capped)  # type: ignore[arg-type, operator]
    report = {
        "seconds": seconds,
        "deals": count,
        "runs": rows,
        "worst_peak_over_cap": round(worst, 3),
    }
    RESULTS.write_text(json.dumps(report, indent=1) + "\n")
    print(f"worst peak / cap: {worst:.3f}")


if __name__ == "__main__":
    main()
