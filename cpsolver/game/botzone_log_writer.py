"""A hand written as a Botzone FightTheLandlord match log, the envelope :mod:`cpsolver.game.botzone_log` reads.

The requests are the ones a Botzone bot in our seats is sent
(:mod:`cpsolver.game.botzone_seat`): ``{"own", "bid"}`` to bid, then the
first play request with ``own``, ``publiccard``, ``landlord``, ``pos`` and
``finalbid``, and ``history`` in every one. Botzone's positions bid once each
from position 0, so the auction written is the one that makes the same
landlord at the same bid: the positions before the landlord pass, it bids
the final bid, and those after pass (none after a 3). A finished hand ends
with the judge's ``finish`` and our scores; a hand left in play ends with the
request its next player never answered, as a log cut mid-hand does.

>>> from cpsolver.game.simulation import bot_game
>>> log = to_botzone_log(bot_game(3, 0))
>>> sorted(log), log["log"][0]["output"]["command"], log["log"][-1]["output"]["command"]
(['initdata', 'log'], 'request', 'finish')
"""

from __future__ import annotations

from typing import Any

from cpsolver.game.botzone_log import history_for
from cpsolver.game.cardids import deal_ids, take
from cpsolver.game.engine import Game
from cpsolver.game.records import RecordError


def _judge(command: str, content: dict[str, Any]) -> dict[str, Any]:
    return {
        "output": {"command": command, "content": content, "display": ""},
        "time": 0,
        "memory": 0,
        "verdict": "OK",
    }


def _answer(player: int, response: Any) -> dict[str, Any]:
    return {str(player): {"response": response, "verdict": "OK", "time": 0, "memory": 0}}


def botzone_bids(game: Game) -> list[int]:
    """The bids of Botzone's auction (position 0 first) that make the game's landlord and bid."""
    if game.landlord is None:
        if game.phase != "thrown_in":
            raise RecordError("a hand left in the auction has no Botzone auction to write")
        return [0, 0, 0]
    bids = [game.bid if seat == game.landlord else 0 for seat in range(3)]
    return bids[: game.landlord + 1] if game.bid == 3 else bids


def to_botzone_log(game: Game) -> dict[str, Any]:
    """The hand as a Botzone match log: ``{"log": [...], "initdata": ""}``, see the module."""
    ids = deal_ids([*game.original, game.bottom])
    log: list[dict[str, Any]] = []
    bids: list[int] = []
    for seat, bid in enumerate(botzone_bids(game)):
        log += [_judge("request", {str(seat): {"own": ids[seat], "bid": list(bids)}})]
        log += [_answer(seat, bid)]
        bids.append(bid)
    if game.landlord is not None:
        left = [list(hand) for hand in ids[:3]]
        left[game.landlord] += ids[3]
        done: list[tuple[int, list[int]]] = []
        moves: list[tuple[int, Any]] = list(game.actions)
        if game.phase == "play":
            moves.append((game.turn, None))  # the request the log stops at
        for number, (seat, play) in enumerate(moves):
            request: dict[str, Any] = {"history": history_for(done, seat)}
            if all(who != seat for who, _ in done):  # its first play request
                request.update(
                    own=ids[seat],
                    publiccard=ids[3],
                    landlord=game.landlord,
                    pos=seat,
                    finalbid=game.bid,
                )
            log.append(_judge("request", {str(seat): request}))
            if number == len(game.actions):
                break
            answer = [] if play is None else take(left[seat], play.cards)
            log.append(_answer(seat, answer))
            done.append((seat, answer))
    if game.phase in ("over", "thrown_in"):
        scores = game.result()["score"]
        log.append(_judge("finish", {str(seat): scores[seat] for seat in range(3)}))
    return {"log": log, "initdata": ""}
