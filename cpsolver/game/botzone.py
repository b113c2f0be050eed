"""Botzone's FightTheLandlord protocol, both ways: our bot as a Botzone bot, a Botzone bot in our seats.

The wire format, as Botzone's wiki documents it for FightTheLandlord (the
version with bidding). Cards are ids 0-53 (:mod:`cpsolver.game.cardids`).
Seats are Botzone's positions 0-2; the landlord plays first, then the next
position. A bot gets one *request* a turn:

- bidding: ``{"own": [17 ids], "bid": [the bids before it, 0 = pass]}``,
  answered by a number 0-3;
- its first play: ``{"own": [17 ids as dealt], "publiccard": [3 ids],
  "landlord": pos, "pos": pos, "finalbid": 1-3, "history": [[...], [...]]}``,
  later plays ``{"history": [[...], [...]]}``; ``history`` holds what the
  player two seats back and then the one just before did since this bot's
  last turn (``[]`` for a pass, or when they have not played yet: the landlord
  first gets ``[[], []]``). The answer is a list of ids, ``[]`` to pass.

Two interaction modes, as on Botzone. In the ordinary one the program is
started for every turn and reads one line, ``{"requests": [...],
"responses": [...]}`` (all requests so far and all its earlier answers); it
writes one line, ``{"response": ...}``, and exits. A program that writes the
line ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its answer is kept running
instead, and from then on reads only each new request, one JSON line a turn.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from typing import IO, Any

from cpsolver.cards import Hand
from cpsolver.game.agents import AgentFailure
from cpsolver.game.bots import ENDGAME_CARDS, Bot
from cpsolver.game.cardids import deal_ids, hand_of_ids, take
from cpsolver.game.engine import Game
from cpsolver.game.view import View, last_play
from cpsolver.plays import Kind, Play, beats, readings
from cpsolver.reading import InputError, describe_size, limit, loads_json
from cpsolver.rules import RuleSet, standard_rules
from cpsolver.watchdog import GuardedGroup

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
MAX_LINE = 1 << 20
_WITH_KICKERS = {
    Kind.TRIPLET_SINGLE,
    Kind.TRIPLET_PAIR,
    Kind.TRIPLET_SEQUENCE_SINGLES,
    Kind.TRIPLET_SEQUENCE_PAIRS,
    Kind.QUADPLEX,
}


def read_play(cards: Hand, last: Play | None, rules: RuleSet) -> Play:
    """The play ``cards`` make now, read as the engine reads them; ValueError if they make none."""
    found = readings(cards, rules)
    if not found:
        raise ValueError(f"{cards} is no combination")
    if last is None:
        return min(found, key=lambda p: (p.kind in _WITH_KICKERS, -p.rank))
    for play in found:
        if beats(play, last):
            return play
    raise ValueError(f"{cards} does not beat {last}")


# -- our bot behind the protocol -------------------------------------------------


def view_from_requests(
    requests: list[Any], responses: list[Any], rules: RuleSet | None = None
) -> View:
    """What our seat sees, rebuilt from a Botzone transcript (the last request unanswered)."""
    rules = rules or standard_rules()
    if not requests or len(responses) != len(requests) - 1:
        raise ValueError("a transcript has one more request than responses")
    current = requests[-1]
    if not isinstance(current, dict):
        raise ValueError("a request is a JSON object")
    if "history" not in current and "bid" in current:
        bids = [int(b) for b in current["bid"]]
        return View(
            seat=len(bids),
            hand=hand_of_ids(current["own"]),
            rules=rules,
            auction=tuple(enumerate(bids)),
            bid=max(bids, default=0),
            landlord=None,
            bottom=None,
            actions=(),
            counts=(17, 17, 17),
        )
    first = next(
        (i for i, r in enumerate(requests) if isinstance(r, dict) and "publiccard" in r), None
    )
    if first is None:
        raise ValueError("no play request carries 'publiccard'")
    setup = requests[first]
    pos, landlord = int(setup["pos"]), int(setup["landlord"])
    bottom = hand_of_ids(setup["publiccard"])
    hand = hand_of_ids(setup["own"])
    if pos == landlord and len(hand) == 17:
        hand = hand + bottom
    counts = [17, 17, 17]
    counts[landlord] = 20
    actions: list[tuple[int, Play | None]] = []

    def act(seat: int, ids: Any) -> None:
        if not isinstance(ids, list):
            raise ValueError(f"a play is a list of card ids, not {ids!r}")
        if not ids:
            actions.append((seat, None))
            return
        cards = hand_of_ids(ids)
        last = last_play(actions)
        actions.append((seat, read_play(cards, last[1] if last else None, rules)))
        counts[seat] -= len(cards)

    for index in range(first, len(requests)):
        history = requests[index].get("history") if isinstance(requests[index], dict) else None
        if not isinstance(history, list) or len(history) != 2:
            raise ValueError(f"request {index + 1}: 'history' is two lists of card ids")
        acted = (pos - landlord) % 3 if index == first else 2
        for back in range(acted, 0, -1):
            act((pos - back) % 3, history[2 - back])
        if index < len(requests) - 1:
            act(pos, responses[index])
    played = Hand.empty()
    for seat, play in actions:
        if seat == pos and play is not None:
            played = played + play.cards
    if not played <= hand:
        raise ValueError("the earlier responses play cards the bot does not hold")
    return View(
        seat=pos,
        hand=hand - played,
        rules=rules,
        auction=(),
        bid=int(setup.get("finalbid", 1)),
        landlord=landlord,
        bottom=bottom,
        actions=tuple(actions),
        counts=(counts[0], counts[1], counts[2]),
    )


def respond(requests: list[Any], responses: list[Any], rules: RuleSet | None = None) -> Any:
    """Our bot's answer to the last request of a transcript: a bid, or a list of card ids."""
    view = view_from_requests(requests, responses, rules)
    bot = Bot(view.seat, rules, ENDGAME_CARDS)  # the same bot as the agent 'cpsolver'

    if view.landlord is None:
        return bot.bid(view)
    play = bot.play(view)
    if play is None:
        return []
    setup = next(r for r in requests if "publiccard" in r)
    mine = list(setup["own"])
    if view.seat == int(setup["landlord"]) and len(mine) == 17:
        mine += list(setup["publiccard"])
    for answer in responses:
        if isinstance(answer, list):
            for card in answer:
                mine.remove(card)
    return take(mine, play.cards)


def serve(lines: IO[str], out: IO[str], keep_running: bool, rules: RuleSet | None = None) -> int:
    """Run our bot as a Botzone program on ``lines``; returns the number of answers given.

    Each input line is a whole transcript ``{"requests", "responses"}``, or
    (once this bot has asked to keep running) one new request.
    """
    requests: list[Any] = []
    responses: list[Any] = []
    answered = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if len(line) > limit("line"):
            raise InputError(f"stdin: line {number} is longer than {describe_size(limit('line'))}")
        data = loads_json(line, "stdin", number)  # bounded: digits and depth
        if isinstance(data, dict) and "requests" in data:
            requests, responses = list(data["requests"]), list(data.get("responses", []))
        elif answered:
            requests.append(data)
        else:
            raise InputError(
                "stdin: the first input is a transcript {'requests': [...], 'responses': [...]}"
            )
        answer = respond(requests, responses, rules)
        responses.append(answer)
        out.write(json.dumps({"response": answer}) + "\n")
        answered += 1
        if not keep_running:
            break
        out.write(KEEP_RUNNING + "\n")
        out.flush()
    out.flush()
    return answered


# -- a Botzone program in one of our seats -----------------------------------------


class _Program:
    """One run of the command: lines in, lines out, every wait bounded, all of it killed at the end.

    It runs in a guarded group (:mod:`cpsolver.watchdog`): killing the group
    ends its children too, and the watchdog ends them if cpsolver is killed.
    """

    def __init__(self, argv: list[str], command: str) -> None:
        try:
            self.group = GuardedGroup()
        except OSError as error:
            raise AgentFailure(f"cannot start a watchdog: {error.strerror}") from None
        try:
            self.process = self.group.start(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            self.group.kill()
            raise AgentFailure(f"cannot start {command!r}: {error.strerror}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=_pump, args=(self.process.stdout, self.lines), daemon=True).start()

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(text + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # it has gone: reading its answer will say how

    def receive(self, timeout: float) -> str | None:
        """The next line, or None at the end of its output; AgentFailure if silent too long."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            raise AgentFailure(f"no answer within {timeout:g} s") from None

    def ended(self) -> str:
        """How the program ended, once its output has."""
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.kill()
            return "closed its output without answering"
        finally:
            self.kill()  # what it started may outlive it
        return (
            f"exited (code {code}) without answering"
            if code == 0
            else f"crashed (exit code {code})"
        )

    def kill(self) -> None:
        self.group.kill()  # even once the program has ended: its children may live on
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Move the program's output lines into a queue; None marks the end (or a line too long)."""
    try:
        while line := stream.readline(MAX_LINE + 1):
            if len(line) > MAX_LINE:
                break
            if line.strip():
                lines.put(line.strip())
    except (OSError, ValueError):
        pass
    lines.put(None)


class BotzoneProgram:
    """An outside program in one seat, spoken to in Botzone's FightTheLandlord protocol."""

    def __init__(self, command: str, seat: int, rules: RuleSet | None, timeout: float) -> None:
        self.command = command.strip()
        self.argv = shlex.split(self.command)
        self.name = f"cmd:{self.command}"
        self.seat = seat
        self.rules = rules or standard_rules()
        self.timeout = timeout
        self._game: Game | None = None
        self._running: _Program | None = None

    # the transcript of the current game, as this seat sees it

    def _start_game(self, game: Game) -> None:
        self.close()
        self._game = game
        self.requests: list[Any] = []
        self.responses: list[Any] = []
        self.ids = deal_ids([*game.original, game.bottom])
        self.left = [list(ids) for ids in self.ids]  # each seat's ids not yet played
        self.seen = 0  # game.actions already turned into ids
        self.action_ids: list[tuple[int, list[int]]] = []

    def _catch_up(self, game: Game) -> None:
        if self._game is not game:
            self._start_game(game)
        if game.phase == "play" and not any("publiccard" in r for r in self.requests):
            assert game.landlord is not None
            self.left[game.landlord] += self.ids[3]
        for seat, play in game.actions[self.seen :]:
            ids = [] if play is None else take(self.left[seat], play.cards)
            self.action_ids.append((seat, ids))
        self.seen = len(game.actions)

    def _history(self) -> list[list[int]]:
        since = 0
        for index, (seat, _) in enumerate(self.action_ids):
            if seat == self.seat:
                since = index + 1
        latest: dict[int, list[int]] = {}
        for seat, ids in self.action_ids[since:]:
            latest[seat] = ids
        return [latest.get((self.seat - 2) % 3, []), latest.get((self.seat - 1) % 3, [])]

    def choose_bid(self, game: Game) -> int:
        """Ask the program for a bid."""
        self._catch_up(game)
        request = {"own": self.ids[self.seat], "bid": [amount for _, amount in game.auction]}
        answer = self._ask(request)
        if (
            not isinstance(answer, int)
            or isinstance(answer, bool)
            or answer not in game.bid_options()
        ):
            raise AgentFailure(f"illegal bid {answer!r} (allowed: {game.bid_options()})")
        return answer

    def choose_play(self, game: Game) -> Play | None:
        """Ask the program for a play; its answer is checked against the rules."""
        self._catch_up(game)
        request: dict[str, Any] = {"history": self._history()}
        if not any("publiccard" in r for r in self.requests):
            assert game.landlord is not None
            request.update(
                own=self.ids[self.seat],
                publiccard=self.ids[3],
                landlord=game.landlord,
                pos=self.seat,
                finalbid=game.bid,
            )
        answer = self._ask(request)
        if not isinstance(answer, list):
            raise AgentFailure(f"illegal answer {answer!r}: a play is a list of card ids")
        if not answer:
            if game.leading:
                raise AgentFailure("illegal pass: it leads")
            self.action_ids.append((self.seat, []))
            self.seen += 1
            return None
        try:
            cards = hand_of_ids(answer)
        except ValueError as error:
            raise AgentFailure(f"illegal answer {answer!r}: {error}") from None
        if not set(answer) <= set(self.left[self.seat]):
            raise AgentFailure(f"illegal play {answer}: cards it does not hold")
        try:
            play = read_play(cards, game.last[1] if game.last else None, self.rules)
        except ValueError as error:
            raise AgentFailure(f"illegal play {answer}: {error}") from None
        for card in answer:  # its own ids, as it named them
            self.left[self.seat].remove(card)
        self.action_ids.append((self.seat, sorted(answer)))
        self.seen += 1
        return play

    def _ask(self, request: dict[str, Any]) -> Any:
        self.requests.append(request)
        if self._running is not None and self._running.process.poll() is None:
            program = self._running
            program.send(json.dumps(request))
        else:
            program = _Program(self.argv, self.command)
            program.send(json.dumps({"requests": self.requests, "responses": self.responses}))
        self._running = None
        line = program.receive(self.timeout)
        if line is None:
            raise AgentFailure(program.ended())
        try:
            data = loads_json(line, "the bot")  # bounded: digits and depth
        except InputError as error:
            program.kill()
            raise AgentFailure(f"garbage: {error}") from None
        answer = data.get("response") if isinstance(data, dict) else data
        after = program.receive(self.timeout)
        if after == KEEP_RUNNING:
            self._running = program
        elif after is None:
            program.kill()
        else:
            program.kill()
            raise AgentFailure(f"garbage: more than one line for a turn: {after[:80]!r}")
        self.responses.append(answer)
        return answer

    def close(self) -> None:
        """End the program if it is kept running."""
        if self._running is not None:
            self._running.kill()
            self._running = None
