"""What the table tells a person on request: the bot's suggestion and why, the legal plays, the analyst.

The hint is the seat's bot's own choice (the same :class:`Bot` that plays the
other seats), with the rule of its policy that picked it. The analyst sees
every hand, which no player at a real table does; the table says so whenever
it speaks.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from cpsolver.game.bots import BREAK_UP_BELOW, Bot, control, fewest_split, split_count, strength
from cpsolver.game.engine import Game
from cpsolver.game.handvalue import best_split, hand_value
from cpsolver.game.view import view_of
from cpsolver.io.words import counted
from cpsolver.rules.cards import ACE, BLACK_JOKER, RED_JOKER, TWO, Deal, Hand
from cpsolver.rules.plays import Kind, Play
from cpsolver.spring.search import solve as search

_POWER = (Kind.BOMB, Kind.ROCKET)
ANALYST = "The analyst sees every hand (no player at the table does):"


def others(game: Game, seat: int) -> tuple[Hand, Hand]:
    """The other two seats' hands, in turn order after ``seat``."""
    return game.hands[(seat + 1) % 3], game.hands[(seat + 2) % 3]


def bid_hint(game: Game, seat: int) -> tuple[int, str]:
    """The bot's bid for ``seat`` and the strength behind it."""
    hand = game.hands[seat]
    bid = Bot(seat, game.rules).choose_bid(game)
    power = strength(hand, game.rules)
    rocket = bool(hand[BLACK_JOKER] and hand[RED_JOKER])
    bombs = sum(1 for rank in range(TWO + 1) if hand[rank] == 4)
    parts = [
        counted(bombs, "bomb"),
        "the rocket" if rocket else counted(hand[BLACK_JOKER] + hand[RED_JOKER], "joker"),
        counted(hand[TWO], "two"),
        counted(hand[ACE], "ace"),
        f"{counted(split_count(hand, game.rules), 'play')} at fewest",
    ]
    action = f"bid {bid}" if bid else "pass"
    beat = f"; the bid to beat is {game.bid}" if game.bid else ""
    return bid, f"{action}: hand strength {power:g} ({', '.join(parts)}){beat}"


def play_hint(game: Game, seat: int) -> tuple[Play | None, str]:
    """The bot's play for ``seat`` (None: pass) and the rule of its policy that chose it.

    The bot is the fair one: it sees only what the seat sees.
    """
    bot = Bot(seat, game.rules)
    view = view_of(game, seat)
    play = bot.play(view)
    hand = game.hands[seat]
    if game.last is None:
        assert play is not None, "a lead is never a pass"
        if game.landlord == seat and bot.spring_step(view) == play:
            return play, (
                "a spring: no way of dealing the unseen cards that the bot tried can answer "
                "the plan this play starts"
            )
        split = best_split(hand, game.rules, control(view))[1]
        opponents = [s for s in range(3) if s != seat and game.landlord in (s, seat)]
        partner = next((s for s in range(3) if s not in (seat, *opponents)), None)
        short = min(len(game.hands[s]) for s in opponents)
        if partner is not None and len(game.hands[partner]) == 1 and short > 1:
            return play, "your partner holds one card: lead your lowest single for him to beat"
        if any(len(game.hands[s]) == 1 for s in opponents) and play.size > 1:
            return play, "not a single while an opponent holds one card"
        return play, (
            f"your hand's best split is {counted(len(split), 'play')}; lead the one the opponents can "
            "least often beat on deals of the unseen cards (aces, 2s, jokers and bombs last)"
        )
    by, last = game.last
    left = len(game.hands[by])
    if play is None:
        if game.landlord not in (by, seat):
            return None, f"seat {by} is your partner: let your partner's play stand"
        answers = game.legal_plays(seat)
        if not answers:
            return None, f"nothing in your hand beats {last}"
        if any(p.kind not in _POWER for p in answers):
            return None, (
                f"every answer would lower your hand's value, and seat {by} still has "
                f"{counted(left, 'card')} (more than {BREAK_UP_BELOW})"
            )
        return None, f"only a bomb or the rocket beats {last}; keep it while seat {by} has {left}"
    if game.landlord not in (by, seat):
        assert game.landlord is not None
        held = len(game.hands[game.landlord])
        return play, (
            f"the landlord, next, holds {counted(held, 'card')}: top your "
            "partner's play with the answer he can least often beat"
        )
    if play.kind in _POWER and last.kind not in _POWER or play.kind is Kind.ROCKET:
        if play.cards == hand:
            return play, "your last play: it wins the hand"
        return play, f"seat {by} is down to {counted(left, 'card')}: spend it now"
    worth = control(view)
    now = hand_value(hand, game.rules, worth)
    after = hand_value(hand - play.cards, game.rules, worth)
    if after >= now:
        return play, f"the answer that leaves your hand the most valuable ({after:g}, from {now:g})"
    return play, (
        f"seat {by} is down to {counted(left, 'card')}: answer even at a cost (hand value {after:g}, "
        f"from {now:g})"
    )


def plays_by_kind(plays: list[Play], shown: int = 12) -> list[tuple[str, str]]:
    """Legal plays grouped by kind, lowest first: (kind and count, the plays, some left off)."""
    groups: dict[Kind, list[Play]] = defaultdict(list)
    for play in sorted(plays, key=Play.sort_key):
        groups[play.kind].append(play)
    lines = []
    for kind in Kind:
        found = groups.get(kind)
        if found:
            listed = " ".join(str(p) for p in found[:shown])
            more = f" ... and {len(found) - shown} more" if len(found) > shown else ""
            lines.append((f"{kind.value} ({len(found)})", listed + more))
    return lines


@dataclass
class Analysis:
    """What the analyst says: the landlord's spring, the person's split, the open-hand verdict."""

    spring: list[Play]
    spring_at: str
    split: list[Play]
    verdict: str | None


def analyse(game: Game, seat: int, time_limit: float = 1.0, max_cards: int = 24) -> Analysis:
    """The analyst's view for ``seat``, with every hand known.

    The spring question is asked of the landlord's hand as it is, against the
    peasants' hands as they are: at his lead, can he play out alone? The
    open-hand solver says who wins with best play when few enough cards are
    left to answer within ``time_limit``.
    """
    assert game.landlord is not None
    landlord = game.landlord
    peasants = [game.hands[(landlord + 1) % 3], game.hands[(landlord + 2) % 3]]
    plan = search(Deal(game.hands[landlord], *peasants), game.rules).plan
    at = (
        "now, at the landlord's lead"
        if game.leading and game.turn == landlord
        else ("at the landlord's next lead")
    )
    split = fewest_split(game.hands[seat], game.rules)
    verdict = None
    if sum(len(h) for h in game.hands) <= max_cards:
        verdict = _open_hand(game, seat, time_limit)
    return Analysis([s.play for s in plan], at, split, verdict)


def _open_hand(game: Game, seat: int, time_limit: float) -> str:
    """Who wins with best play from here, and the person's winning move if any."""
    try:
        from cpsolver.endgame import Position, solve
    except ImportError:  # the open-hand solver is optional
        return "the open-hand solver is not installed"
    assert game.landlord is not None
    order = [(game.landlord + k) % 3 for k in range(3)]  # hand 0 is the landlord
    table = None if game.last is None else game.last[1]
    by = None if game.last is None else order.index(game.last[0])
    position = Position(tuple(game.hands[s] for s in order), order.index(game.turn), table, by)
    result = solve(position, game.rules, time_limit=time_limit, strategy=False)
    if result.winner is None:
        return f"too many cards to answer within {time_limit:g} s"
    side = "the landlord wins" if result.winner == 0 else "the peasants win"
    if seat != game.turn:
        return f"with best play by everyone {side}"
    if result.moves:
        return f"with best play by everyone {side}; your winning move: {result.moves[0]}"
    return f"with best play by everyone {side}; you cannot stop it"
