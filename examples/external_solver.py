"""A deliberately naive spring solver that speaks cpsolver's line protocol.

    cpsolver crosscheck --generate endgame --count 100 --against 'python examples/external_solver.py'

It reads one JSON request per line on stdin ({"protocol": 2, "id": ...,
"landlord": ..., "peasants": [...]}) and writes one JSON answer per line on
stdout, echoing the id ({"id": ..., "verdict": "spring" | "no_spring",
"plan": [cards, ...]}), flushing after each (protocol version 2). Its method is the
naive one: try every split of the landlord's hand (always covering the lowest
card left), counting the plays a peasant can answer. It is exact, and slow on
full deals; a template for wiring your own solver to `cpsolver crosscheck`.
"""

from __future__ import annotations

import json
import sys
from functools import cache

from cpsolver.rules.cards import Deal
from cpsolver.rules.movegen import can_answer, plays


def solve(deal: Deal) -> list[str] | None:
    """A spring plan (cards of each play, the answerable one last), or None."""

    @cache
    def split(hand, budget):
        if not hand:
            return ()
        lowest = next(hand.ranks())
        for play in plays(hand):
            if not play.cards[lowest]:
                continue
            unsafe = any(can_answer(peasant, play) for peasant in deal.peasants)
            if unsafe and not budget:
                continue
            rest = split(hand - play.cards, budget - unsafe)
            if rest is not None:
                return (*rest, str(play)) if unsafe else (str(play), *rest)
        return None

    found = split(deal.landlord, 1)
    return list(found) if found is not None else None


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        deal = Deal.parse(request["landlord"], *request["peasants"])
        plan = solve(deal)
        answer = {"id": request["id"], "verdict": "spring" if plan is not None else "no_spring"}
        if plan is not None:
            answer["plan"] = plan
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
