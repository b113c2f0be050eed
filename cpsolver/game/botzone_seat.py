"""A Botzone program in one of our seats, spoken to in the protocol of :mod:`cpsolver.game.botzone`.

Every run of the program is bounded in time and line length, runs in a guarded
group (:mod:`cpsolver.scale.watchdog`) and is killed at the end of its turn or
game; a program that fails, hangs or answers wrongly loses its side the game.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from typing import IO, Any

from cpsolver.game.agent import AgentFailure
from cpsolver.game.botzone import KEEP_RUNNING, MAX_LINE, read_play
from cpsolver.game.botzone_log import history_for
from cpsolver.game.cardids import deal_ids, hand_of_ids, take
from cpsolver.game.engine import Game
from cpsolver.io.reading import InputError, command_argv, loads_json
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.scale.watchdog import GuardedGroup


class _Program:
    """One run of the command: lines in, lines out, every wait bounded, all of it killed at the end.

    It runs in a guarded group (:mod:`cpsolver.scale.watchdog`): killing the group
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
        self.argv = command_argv(self.command, "the agent")
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
        request: dict[str, Any] = {"history": history_for(self.action_ids, self.seat)}
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
