"""What the reading layer's limits cost: corpus lines and a proof, json.loads against loads_json.

    python benchmarks/reading.py

Prints the median time per call of each, side by side in one run, and the ratio.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from cpsolver.io.dealformat import deal_as_dict, parse_deal
from cpsolver.io.dealgen import generate
from cpsolver.io.reading import loads_json
from cpsolver.rules.movegen import generator
from cpsolver.rules.ruleset import standard_rules
from cpsolver.spring.proof import build_proof
from cpsolver.spring.search import solve


def median_us(call: Callable[[], object], repeat: int = 15, number: int = 200) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(number):
            call()
        times.append((time.perf_counter() - started) / number)
    return statistics.median(times) * 1e6


def main() -> None:
    lines = [json.dumps({"id": e.id, **deal_as_dict(e.deal)}) for e in generate("planted", 50, 1)]
    rules = standard_rules()
    deal = parse_deal((Path(__file__).parents[1] / "examples" / "spring.txt").read_text())
    proof = json.dumps(build_proof(deal, solve(deal, rules), rules, generator(rules)))
    for name, text in (("corpus line", lines[0]), ("proof", proof)):
        plain = median_us(lambda text=text: json.loads(text))
        layered = median_us(lambda text=text: loads_json(text, "bench"))
        print(
            f"{name:<12} {len(text):>6} bytes: json.loads {plain:7.2f} us, "
            f"loads_json {layered:7.2f} us, ratio {layered / plain:.2f}"
        )


if __name__ == "__main__":
    main()
