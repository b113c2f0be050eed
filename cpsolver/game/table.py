"""Hands played to the end by a person at a terminal (``play``) against two agents.

The person's side reads lines from a function and writes through a rich
Console, so the same loop runs at a terminal and under a test's scripted input.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from cpsolver.game import advice
from cpsolver.game.agent import Agent, AgentFailure
from cpsolver.game.bidding import odds_hint
from cpsolver.game.bots import Bot
from cpsolver.game.engine import Game
from cpsolver.game.seats import act, forfeit_result
from cpsolver.game.simulation import spring_at_first_lead
from cpsolver.io.words import counted
from cpsolver.pictures.annotate import unseen
from cpsolver.pictures.terminal import hand_text
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet

RULES_SUMMARY = """\
Rules: the landlord (highest bidder) plays alone against two peasants.
Lead any combination; each next player passes or beats it with the same kind
and shape ranked higher; a bomb (four of a kind) beats anything but a higher
bomb or the rocket (B R), which beats everything. After two passes the last
player leads. First out of cards wins. Stake = bid x 2 per bomb or rocket,
x 2 for a spring (peasants played nothing) or an anti-spring (the landlord
played only his first lead).
Type cards like 33, TJQKA, 777888 3 4, or: 'pass'; 'hint' (the bot's bid or
play, and why); 'plays' (your legal plays by kind); 'analyse' (the analyst,
who sees every hand); 'c' (card counter on/off); '?' (this text); 'quit'.
Arrow keys edit the line and recall earlier ones; Ctrl-C ends the session
and keeps the score and the records of finished hands (the hand in play is
recorded too, marked unfinished)."""


def breakdown(result: dict[str, Any]) -> str:
    """The stake in its factors, in words: ``bid 2, doubled for 1 bomb or rocket = 4``.

    >>> breakdown({"bid": 3, "bombs": 0, "spring": True, "anti_spring": False, "stake": 6})
    'bid 3, no bombs, doubled for the spring = 6'
    """
    again = " again" if result["bombs"] else ""
    double = (
        f", doubled{again} for the spring"
        if result["spring"]
        else f", doubled{again} for the anti-spring"
        if result["anti_spring"]
        else ""
    )
    return f"{stake_words(result['bid'], result['bombs'])}{double} = {result['stake']}"


def stake_words(bid: int, bombs: int) -> str:
    """The bid and the doublings of the bombs and rockets played: ``bid 3, no bombs``.

    >>> stake_words(3, 0), stake_words(2, 1), stake_words(1, 3)
    ('bid 3, no bombs', 'bid 2, doubled for 1 bomb or rocket', 'bid 1, doubled 3 times for 3 bombs or rockets')
    """
    if bombs == 0:
        return f"bid {bid}, no bombs"
    times = "" if bombs == 1 else f" {bombs} times"
    return f"bid {bid}, doubled{times} for {counted(bombs, 'bomb or rocket', 'bombs or rockets')}"


class Quit(Exception):
    """The person asked to stop (or the input ended)."""


@dataclass
class PersonTable:
    """A person at ``seat`` against two bots, hand after hand, with a running score."""

    seat: int
    read: Callable[[str], str]
    console: Console
    rules: RuleSet | None = None
    totals: list[int] = field(default_factory=lambda: [0, 0, 0])
    records: list[dict[str, Any]] = field(default_factory=list)
    counter: bool = False  # the card counter, toggled with 'c'
    agents: dict[int, Agent] = field(default_factory=dict)  # other seats than the quick bot's

    def name(self, seat: int) -> str:
        return "you" if seat == self.seat else f"seat {seat}"

    def who(self, game: Game, seat: int) -> str:
        """A seat's name and, once the auction is over, its role."""
        if game.landlord is None:
            return self.name(seat)
        return f"{self.name(seat)} ({'landlord' if seat == game.landlord else 'peasant'})"

    def _common(self, game: Game, answer: str) -> bool:
        """Requests answered the same in the auction and in play; True when handled."""
        word = answer.lower()
        if answer == "?":
            self.console.print(RULES_SUMMARY)
        elif word == "c":
            self.counter = not self.counter
            self.console.print(f"Card counter {'on' if self.counter else 'off'}.")
            if self.counter:
                self._show_counter(game)
        else:
            return False
        return True

    def ask(self, prompt: str) -> str:
        try:
            answer = self.read(prompt).strip()
        except EOFError:
            raise Quit from None
        if answer.lower() in ("quit", "exit"):
            raise Quit
        return answer

    def play_hand(self, seed: int, first_bidder: int) -> Game:
        """One hand from the deal to the score.

        A player who quits (or Ctrl-C) mid-hand still leaves its record in
        :attr:`records`, as far as it went and marked ``"unfinished"``.
        """
        game = Game.deal(seed, first_bidder, self.rules)
        try:
            return self._play_hand(game, seed)
        except (Quit, KeyboardInterrupt):
            if game.phase in ("auction", "play"):
                self.records.append(game.record())
            raise

    def _play_hand(self, game: Game, seed: int) -> Game:
        bots: list[Agent] = [self.agents.get(seat) or Bot(seat, self.rules) for seat in range(3)]
        self.console.print(
            Text.assemble(
                ("\nNew hand", "bold"),
                f" (seed {seed}). Your cards: ",
                hand_text(game.hands[self.seat]),
            )
        )
        while game.phase == "auction":
            if game.turn == self.seat:
                self._person_bids(game)
            elif not self._agent_acts(game, bots[game.turn]):
                return game
            else:
                amount = game.auction[-1][1]
                self.console.print(
                    f"{self.name(game.auction[-1][0])} {'bids ' + str(amount) if amount else 'passes'}"
                )
        if game.phase == "thrown_in":
            self.console.print("Everybody passed: the hand is thrown in.")
            self.records.append(game.record())
            return game
        assert game.landlord is not None
        self.console.print(
            Text.assemble(
                f"Landlord: {self.name(game.landlord)}, bid {game.bid}; the bottom cards were ",
                hand_text(game.bottom),
                ".",
            )
        )
        while game.phase == "play":
            if game.turn == self.seat:
                self._person_plays(game)
            elif not self._agent_acts(game, bots[game.turn]):
                return game
            else:
                seat, play = game.actions[-1]
                self.console.print(
                    Text.assemble(f"{self.who(game, seat)}: ", hand_text(play, "pass"))
                )
        self._score(game)
        return game

    def _agent_acts(self, game: Game, agent: Agent) -> bool:
        """The agent's bid or play; False when it forfeited the hand (then scored here)."""
        seat = game.turn
        try:
            act(game, agent)
        except AgentFailure as failure:
            result = forfeit_result(game, seat, failure.reason)
            self.console.print(
                f"\n[red]{escape(self.name(seat))} ({escape(agent.name)}) forfeits the hand: "
                f"{escape(failure.reason)}[/red]"
            )
            for other in range(3):
                self.totals[other] += result["score"][other]
            self.console.print(
                "Score: " + ", ".join(f"{self.name(s)} {self.totals[s]:+d}" for s in range(3))
            )
            return False
        return True

    def _person_bids(self, game: Game) -> None:
        options = "/".join(str(b) for b in game.bid_options()[1:])
        while True:
            answer = self.ask(f"Your bid ({options} or pass): ")
            if self._common(game, answer):
                continue
            if answer.lower() == "hint":
                _, reason = advice.bid_hint(game, self.seat)
                self.console.print(f"hint: {reason}")
                self.console.print(f"hint: {odds_hint(game.hands[self.seat], self.rules)}")
                continue
            if answer.lower() in ("plays", "analyse", "analyze"):
                self.console.print(f"'{answer}' is for the play; now the auction is on.")
                continue
            try:
                amount = 0 if answer.lower() == "pass" else int(answer)
                game.make_bid(self.seat, amount)
                return
            except ValueError:
                self.console.print(
                    f"[red]{escape(repr(answer))} is no bid: type {options} or pass[/red]"
                )
            except CpsolverError as error:
                self.console.print(f"[red]{escape(str(error))}[/red]")

    def _person_plays(self, game: Game) -> None:
        self._show(game)
        while True:
            answer = self.ask("Your play: ")
            word = answer.lower()
            if self._common(game, answer):
                continue
            if not answer:
                self.console.print(
                    "Type cards (33, TJQKA), pass, hint, plays, analyse, c, ? or quit."
                )
                continue
            if word == "hint":
                play, reason = advice.play_hint(game, self.seat)
                shown = f"{play} ({play.kind.value})" if play else "pass"
                self.console.print(f"hint: {shown}: {reason}")
                continue
            if word == "plays":
                self._list_plays(game)
                continue
            if word in ("analyse", "analyze"):
                self._analyse(game)
                continue
            try:
                game.play(self.seat, answer)
                return
            except CpsolverError as error:  # it quotes what was typed: never read as markup
                self.console.print(f"[red]{escape(str(error))}[/red]")

    def _show(self, game: Game) -> None:
        seats = " · ".join(
            f"{self.who(game, s)} {counted(len(game.hands[s]), 'card')}" for s in range(3)
        )
        stake = game.bid * 2**game.bombs
        self.console.print(f"{seats} · stake {stake}: {stake_words(game.bid, game.bombs)}")
        if game.last:
            table = Text.assemble(hand_text(game.last[1]), f" by {self.who(game, game.last[0])}")
        else:
            table = Text("nothing: you lead")
        self.console.print(Text.assemble("On the table: ", table))
        self.console.print(Text.assemble("Your hand: ", hand_text(game.hands[self.seat])))
        if self.counter:
            self._show_counter(game)

    def _show_counter(self, game: Game) -> None:
        """The card counter: every card not in your hand and not yet played."""
        unseen_cards = unseen(game.hands[self.seat], [play for _, play in game.actions])
        self.console.print(
            Text.assemble(f"Unseen by you ({len(unseen_cards)}): ", hand_text(unseen_cards))
        )

    def _list_plays(self, game: Game) -> None:
        plays = game.legal_plays(self.seat)
        if not plays:
            self.console.print("Nothing in your hand beats it: pass.")
            return
        for kind, listed in advice.plays_by_kind(plays):
            self.console.print(f"  {kind}: {listed}")

    def _analyse(self, game: Game) -> None:
        found = advice.analyse(game, self.seat)
        self.console.print(f"[bold]{advice.ANALYST}[/bold]")
        who = (
            "you"
            if game.landlord == self.seat
            else f"the landlord ({self.name(game.landlord or 0)})"
        )
        if found.spring:
            steps = ", then ".join(str(p) for p in found.spring)
            self.console.print(f"  spring: {who} can play out alone {found.spring_at}: {steps}")
        else:
            self.console.print(f"  no spring for {who} {found.spring_at}")
        split = "  ".join(str(p) for p in found.split)
        self.console.print(f"  your hand at fewest: {counted(len(found.split), 'play')}: {split}")
        if found.verdict is not None:
            self.console.print(f"  open hands: {found.verdict}")

    def _score(self, game: Game) -> None:
        result = game.result()
        assert game.landlord is not None
        side = "landlord wins" if result["winner"] == "landlord" else "peasants win"
        self.console.print(f"\n{self.name(game.winner or 0).capitalize()} went out: the {side}.")
        self.console.print(f"Stake: {breakdown(result)}.")
        plan = spring_at_first_lead(game)
        who = "you" if game.landlord == self.seat else f"the landlord ({self.name(game.landlord)})"
        if plan:
            steps = ", then ".join(str(p) for p in plan)
            self.console.print(f"At the first lead {who} had a spring: {steps}.")
        else:
            self.console.print(f"At the first lead {who} had no spring.")
        for seat in range(3):
            self.totals[seat] += result["score"][seat]
        self.console.print(
            "Score: " + ", ".join(f"{self.name(s)} {self.totals[s]:+d}" for s in range(3))
        )
        self.records.append(game.record())
