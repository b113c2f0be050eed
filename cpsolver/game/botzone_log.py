"""Botzone's whole-match logs of FightTheLandlord, read as our game records.

**The envelope**, as Botzone's wiki gives it on the Judge page
(https://wiki.botzone.org.cn/index.php?title=裁判/en), the "complete Log" a
match's page gives (https://wiki.botzone.org.cn/index.php?title=特殊:移动版差异/1421)::

    {"log": [
        {"output": {"command": "request", "content": {"0": <request>}, "display": ...},
         "time": 2, "memory": 2, "verdict": "OK"},    # even index: the judge's turn
        {"0": {"response": <answer>, "verdict": "OK", "time": 9, "memory": 2}},
        ...                                             # odd index: the players' outputs
        {"output": {"command": "finish", "content": {"0": score, "1": ..., "2": ...}}}],
     "initdata": ""}

Besides OK, a bot's verdict may be TLE, MLE, OLE, NJ (not JSON) or RE
(https://wiki.botzone.org.cn/index.php?title=对局/en).

**The requests and answers** are FightTheLandlord's (:mod:`cpsolver.game.botzone`):
``{"own", "bid"}`` answered by 0-3, position 0 first, each once; then
``{"own", "publiccard", "landlord", "pos", "finalbid", "history"}`` and
``{"history"}``, answered by card ids. The wiki documents neither
FightTheLandlord's ``display`` nor its ``initdata``, so the hand is rebuilt
from requests and answers alone: each player's first request shows its 17
cards (one never shown holds what the others and ``publiccard`` leave), the
bids are the bidding answers, every play an answer, checked against the rules
and against the ``history`` the judge sends next. A player's id is its seat,
and its ``pos`` must say so.

**The record** is one of ours (``seed`` null, the deal written out) with a
``"botzone"`` object: the bids (position 0 first), the judge's final scores
(null if it never finished) and, for a bot whose verdict was not OK,
``"forfeit": {"seat", "verdict"}``. Where our engine does not run Botzone's
auction (with us a pass may bid again), the record's auction is the landlord
bidding the final bid and the others passing, as for rlcard-showdown replays.
A hand left before its end (a forfeit, a log that stops) is ``"unfinished"``,
as ``play --record`` marks a hand the player left.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from cpsolver.game.cardids import hand_of_ids
from cpsolver.game.engine import Game
from cpsolver.io.reading import InputError, is_whole
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet, standard_rules

PLAYERS = ("0", "1", "2")
_SETUP = ("own", "publiccard", "landlord", "pos", "finalbid")


class BotzoneLogError(InputError):
    """A Botzone match log that is not a FightTheLandlord match as the protocol plays it."""


def is_botzone_log(document: Any) -> bool:
    """Whether a JSON document is a Botzone match log: an object with a ``"log"``."""
    return isinstance(document, dict) and "log" in document


@dataclass
class _Turn:
    """One request of the judge and the answer to it, if the log holds one."""

    number: int  # the judge's turn, from 1
    player: int
    request: dict[str, Any]
    answered: bool = False  # False: the log stops, or the bot failed, before an answer
    answer: Any = None


@dataclass
class Match:
    """A match read: the game as far as it went, Botzone's bids and the judge's end of it."""

    game: Game
    bids: list[int]
    scores: list[Any] | None  # the judge's, seat by seat; None: it never finished
    forfeit: tuple[int, str] | None  # (seat, verdict) of a bot whose verdict was not OK

    def record(self) -> dict[str, Any]:
        """The game record of ours, with the ``"botzone"`` object the module describes."""
        botzone: dict[str, Any] = {"bids": self.bids, "scores": self.scores}
        if self.forfeit is not None:
            botzone["forfeit"] = {"seat": self.forfeit[0], "verdict": self.forfeit[1]}
        return {**self.game.record(), "botzone": botzone}


# -- the envelope ------------------------------------------------------------------------


_Forfeit = tuple[int, str]  # the seat of a bot whose verdict was not OK, and the verdict


def _turns(document: Any) -> tuple[list[_Turn], list[Any] | None, _Forfeit | None]:
    """The requests and answers, the judge's final scores (if it finished), and a forfeit."""
    if not isinstance(document, dict) or not isinstance(document.get("log"), list):
        raise BotzoneLogError(
            "a Botzone match log is an object whose 'log' is a list of turns "
            "(the judge's output, then the players', in turn)"
        )
    log = document["log"]
    turns: list[_Turn] = []
    forfeit: _Forfeit | None = None
    for index in range(0, len(log), 2):
        number = index // 2 + 1
        judge = log[index]
        output = judge.get("output") if isinstance(judge, dict) else None
        if not isinstance(output, dict) or not isinstance(output.get("content"), dict):
            raise BotzoneLogError(
                f"log entry {index}: the judge's turn {number} is no "
                "{'output': {'command', 'content'}}"
            )
        if judge.get("verdict", "OK") != "OK":
            raise BotzoneLogError(f"turn {number}: the judge itself failed ({judge['verdict']})")
        content = output["content"]
        if output.get("command") == "finish":
            if index + 1 < len(log):
                raise BotzoneLogError(f"turn {number}: the log goes on after the judge's finish")
            return turns, _scores(content, number), forfeit
        if output.get("command") != "request" or forfeit is not None:
            raise BotzoneLogError(
                f"turn {number}: the judge's command is "
                + ("'finish', after a bot failed, " if forfeit else "'request' or 'finish', ")
                + f"not {json.dumps(output.get('command'))}"
            )
        if len(content) != 1 or next(iter(content)) not in PLAYERS:
            raise BotzoneLogError(
                f"turn {number}: FightTheLandlord asks one player a turn (id 0, 1 or 2), "
                f"not {sorted(content)}"
            )
        player, request = next(iter(content.items()))
        if not isinstance(request, dict):
            raise BotzoneLogError(f"turn {number}: player {player}'s request is no JSON object")
        turn = _Turn(number, int(player), request)
        turns.append(turn)
        if index + 1 == len(log):
            break  # the log stops before the answer: an unfinished hand
        answers = log[index + 1]
        outcome = answers.get(player) if isinstance(answers, dict) else None
        if not isinstance(outcome, dict) or set(answers) != {player} or "verdict" not in outcome:
            raise BotzoneLogError(
                f"log entry {index + 1}: the players' turn {number} is "
                f"{{{json.dumps(player)}: {{'response', 'verdict'}}}}, from the player asked"
            )
        if outcome["verdict"] != "OK":
            forfeit = (turn.player, str(outcome["verdict"]))
            continue
        if "response" not in outcome:
            raise BotzoneLogError(f"turn {number}: player {player}'s output has no 'response'")
        turn.answered, turn.answer = True, outcome["response"]
    return turns, None, forfeit


def _scores(content: dict[str, Any], number: int) -> list[Any]:
    """The judge's final scores, seat by seat."""
    scores = [content.get(player) for player in PLAYERS]
    if set(content) != set(PLAYERS) or not all(
        isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores
    ):
        raise BotzoneLogError(f"turn {number}: 'finish' gives a number to each of players 0-2")
    return scores


# -- the hand --------------------------------------------------------------------------------


def _ids(value: Any, what: str, size: int | None = None) -> list[int]:
    """A list of distinct card ids 0-53 (of ``size`` of them), or BotzoneLogError naming ``what``."""
    if not isinstance(value, list) or (size is not None and len(value) != size):
        count = f"{size} " if size is not None else ""
        raise BotzoneLogError(f"{what} is a list of {count}card ids, not {json.dumps(value)[:80]}")
    try:
        hand_of_ids(value)
    except ValueError as error:
        raise BotzoneLogError(f"{what}: {error}") from None
    return list(value)


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if not is_whole(value) or not low <= value <= high:
        raise BotzoneLogError(f"{what} is a whole number {low}-{high}, not {json.dumps(value)}")
    return value


class _Reading:
    """The deal, the bids and the play, gathered from the turns and checked as they come."""

    def __init__(self, turns: list[_Turn]) -> None:
        self.dealt: list[list[int] | None] = [None, None, None]
        self.bids: list[int] = []
        self.setup: dict[str, Any] | None = None  # publiccard, landlord, finalbid
        self.plays: list[_Turn] = []
        for turn in turns:
            if "history" in turn.request:
                self._setup(turn)
                self.plays.append(turn)
            elif self.plays or "bid" not in turn.request:
                raise BotzoneLogError(
                    f"turn {turn.number}: a request has 'history' (a play) or 'bid' (a bid)"
                )
            else:
                self._bid(turn)

    def _own(self, turn: _Turn, ids: list[int]) -> None:
        where = f"turn {turn.number}: player {turn.player}'s 'own'"
        known = self.dealt[turn.player]
        if known is None:
            self.dealt[turn.player] = ids
        elif sorted(known) != sorted(ids):
            raise BotzoneLogError(f"{where} is not the cards it was dealt earlier")

    def _bid(self, turn: _Turn) -> None:
        where = f"turn {turn.number}: player {turn.player}"
        self._own(turn, _ids(turn.request.get("own"), f"{where}'s 'own'", 17))
        if turn.player != len(self.bids) or turn.request["bid"] != self.bids:
            raise BotzoneLogError(
                f"{where} is asked to bid after {json.dumps(turn.request['bid'])}, but the "
                f"bids so far are {self.bids} (position 0 bids first, each once)"
            )
        if 3 in self.bids:
            raise BotzoneLogError(f"{where} is asked to bid after a bid of 3")
        if turn.answered:
            bid = _whole(turn.answer, f"{where}'s bid", 0, 3)
            if bid and bid <= max(self.bids, default=0):
                raise BotzoneLogError(f"{where} bids {bid}, not above {max(self.bids)}")
            self.bids.append(bid)

    def _setup(self, turn: _Turn) -> None:
        """A player's first play request shows its cards and the table; later ones may not."""
        if any(earlier.player == turn.player for earlier in self.plays):
            return
        where = f"turn {turn.number}: player {turn.player}'s first play request"
        missing = [key for key in _SETUP if key not in turn.request]
        if missing:
            raise BotzoneLogError(f"{where} has no {', '.join(map(repr, missing))}")
        request = turn.request
        setup: dict[str, Any] = {
            "publiccard": sorted(_ids(request["publiccard"], f"{where}: 'publiccard'", 3)),
            "landlord": _whole(request["landlord"], f"{where}: 'landlord'", 0, 2),
            "finalbid": _whole(request["finalbid"], f"{where}: 'finalbid'", 1, 3),
        }
        if self.setup is None:
            self.setup = setup
        elif setup != self.setup:
            raise BotzoneLogError(f"{where} tells another landlord, bid or publiccard than before")
        if _whole(request["pos"], f"{where}: 'pos'", 0, 2) != turn.player:
            raise BotzoneLogError(f"{where} gives it 'pos' {request['pos']}: its id is its seat")
        own = _ids(request["own"], f"{where}: 'own'")
        if turn.player == setup["landlord"] and len(own) == 20:  # the turned cards added
            own = [card for card in own if card not in setup["publiccard"]]
        if len(own) != 17:
            raise BotzoneLogError(f"{where}: 'own' is its 17 cards as dealt")
        self._own(turn, own)

    def deal(self) -> tuple[list[list[int]], list[int]]:
        """Each seat's 17 ids and the 3 turned ones; a seat never shown holds what is left."""
        bottom = None if self.setup is None else list(self.setup["publiccard"])
        shown = [card for ids in self.dealt if ids is not None for card in ids] + (bottom or [])
        try:
            hand_of_ids(shown)
        except ValueError as error:
            raise BotzoneLogError(f"the dealt cards and 'publiccard': {error}") from None
        rest = sorted(set(range(54)) - set(shown))
        unseen = [seat for seat, ids in enumerate(self.dealt) if ids is None]
        if not unseen and bottom is None:
            bottom = rest  # a hand thrown in: nobody turned the three cards
        elif len(unseen) == 1 and bottom is not None:
            self.dealt[unseen[0]] = rest
        elif unseen:
            raise BotzoneLogError(f"the log stops before player {unseen[0]}'s cards are known")
        # 17 distinct ids each and 3 more, none twice: 54, one deck.
        return [list(ids or []) for ids in self.dealt], sorted(bottom or [])

    def _auction(self) -> tuple[int, int] | None:
        """The landlord and the final bid, once known; checked against the bids."""
        top = max(self.bids, default=0)
        if self.setup is None:
            done = top and (len(self.bids) == 3 or top == 3)
            return (self.bids.index(top), top) if done else None
        landlord, final = self.setup["landlord"], self.setup["finalbid"]
        if top and (landlord, final) != (self.bids.index(top), top):
            raise BotzoneLogError(
                f"the bids {self.bids} make player {self.bids.index(top)} landlord at {top}, "
                f"but the play requests say player {landlord} at {final}"
            )
        if self.bids and not top and len(self.bids) < 3:
            raise BotzoneLogError(f"the play starts after the bids {self.bids}, before all bid")
        return landlord, final  # with no bid, or all passes, the judge's word stands

    def game(self, hands: list[list[int]], bottom: list[int], rules: RuleSet) -> Game:
        """The hand, dealt as the log shows and bid as Botzone bid it (or as near as ours runs)."""
        made = self._auction()
        game = _dealt(hands, bottom, 0, rules)
        try:
            for seat, bid in enumerate(self.bids):
                game.make_bid(seat, bid)
            if made is None or (game.phase, game.landlord, game.bid) == ("play", *made):
                return game
        except CpsolverError:
            pass  # an auction ours does not run: told as the landlord's bid
        if made is None:
            raise BotzoneLogError(f"the bids {self.bids} are no auction")
        landlord, final = made
        game = _dealt(hands, bottom, landlord, rules)
        for step in range(1 if final == 3 else 3):
            game.make_bid((landlord + step) % 3, 0 if step else final)
        return game

    def play(self, game: Game, hands: list[list[int]], bottom: list[int]) -> None:
        """Every play request checked against the hand so far, every answer played."""
        left = [list(ids) for ids in hands]
        if game.landlord is not None:
            left[game.landlord] += bottom
        done: list[tuple[int, list[int]]] = []
        for turn in self.plays:
            where = f"turn {turn.number}: player {turn.player}"
            if game.phase != "play":
                raise BotzoneLogError(f"{where} is asked to play, but the hand is over")
            if turn.player != game.turn:
                raise BotzoneLogError(f"{where} is asked to play, but it is {game.turn}'s turn")
            history = turn.request["history"]
            if not isinstance(history, list) or len(history) != 2:
                raise BotzoneLogError(f"{where}: 'history' is two lists of card ids")
            told = [sorted(_ids(ids, f"{where}: 'history'")) for ids in history]
            if told != history_for(done, turn.player):
                raise BotzoneLogError(
                    f"{where} is told the history {told}, but the answers before make it "
                    f"{history_for(done, turn.player)}"
                )
            if not turn.answered:
                return
            ids = _ids(turn.answer, f"{where}'s answer")
            if not set(ids) <= set(left[turn.player]):
                raise BotzoneLogError(f"{where} plays {sorted(ids)}: card ids it does not hold")
            try:
                game.play(turn.player, hand_of_ids(ids) if ids else None)
            except CpsolverError as error:
                raise BotzoneLogError(f"{where} plays {sorted(ids)}: {error}") from None
            for card in ids:
                left[turn.player].remove(card)
            done.append((turn.player, sorted(ids)))


def _dealt(hands: list[list[int]], bottom: list[int], first: int, rules: RuleSet) -> Game:
    counts = [hand_of_ids(ids) for ids in hands]
    game = Game(None, first, counts, hand_of_ids(bottom), rules)
    game.original, game.turn = list(counts), first
    return game


def history_for(done: list[tuple[int, list[int]]], seat: int) -> list[list[int]]:
    """What ``seat`` is told: the seat two back's and the one before's play since its own last."""
    since = max((index + 1 for index, (who, _) in enumerate(done) if who == seat), default=0)
    latest = {who: ids for who, ids in done[since:]}
    return [latest.get((seat - 2) % 3, []), latest.get((seat - 1) % 3, [])]


def read_match(document: Any, rules: RuleSet | None = None) -> Match:
    """A Botzone match log read and checked: the hand, Botzone's bids and how the match ended."""
    rules = rules or standard_rules()
    turns, scores, forfeit = _turns(document)
    reading = _Reading(turns)
    hands, bottom = reading.deal()
    game = reading.game(hands, bottom, rules)
    reading.play(game, hands, bottom)
    if scores is not None and forfeit is None and game.phase not in ("over", "thrown_in"):
        raise BotzoneLogError("the judge finishes the match before the hand is over")
    return Match(game, reading.bids, scores, forfeit)


def from_botzone(document: Any, rules: RuleSet | None = None) -> Game:
    """The hand of a Botzone match log (see the module), as :func:`~cpsolver.game.records.from_showdown` gives a replay's."""
    return read_match(document, rules).game


def botzone_records(documents: list[Any], source: str, rules: RuleSet | None = None) -> list[Any]:
    """Documents with each Botzone match log turned into our game record; the rest as they are."""
    records = []
    for number, document in enumerate(documents, 1):
        if is_botzone_log(document):
            try:
                document = read_match(document, rules).record()
            except InputError as error:
                raise BotzoneLogError(f"{source}: match {number}: {error}") from None
        records.append(document)
    return records
