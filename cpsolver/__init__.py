"""cpsolver: exact answers, proofs and explanations for Dou Dizhu deals.

The rules core is :mod:`cpsolver.rules` (ranks, hands, deals, rule sets, the
thirteen combinations and beating, the move generator). It does no I/O: rule
files are read by :mod:`cpsolver.io.rulefiles`. The other wings stand on it;
CONTRIBUTING.md draws the house.
"""

from __future__ import annotations

__version__ = "0.1.0"  # the one place: pyproject.toml and cpsolver --version read it

from typing import TYPE_CHECKING, Any

from cpsolver.io.rulefiles import load_rules
from cpsolver.rules import notebook
from cpsolver.rules.cards import Deal, Hand
from cpsolver.rules.movegen import answers, can_answer, plays
from cpsolver.rules.notebook import Form
from cpsolver.rules.plays import Kind, Play, beats, classify
from cpsolver.rules.ruleset import RuleSet, standard_rules

if TYPE_CHECKING:
    from cpsolver.analysis import Analysis


def _draw(value: object, form: Form) -> str:
    """The core's notebook pictures: the pictures wing loads on the first one, never at start-up."""
    from cpsolver.pictures.notebook import draw

    return draw(value, form)


notebook.set_drawer(_draw)


def analyse(
    record: Any,
    rules: RuleSet | None = None,
    timeout: float | None = None,
    total_timeout: float | None = None,
    max_cards: int | None = None,
    id: str | None = None,
) -> Analysis:
    """A recorded hand annotated action by action: who wins before and after each, the blunders.

    ``record`` is a game record of cpsolver's (a dict, as ``play --record``
    writes it), an rlcard-showdown replay, a Botzone match log, or a played-out ``Game``. Each
    position is given ``timeout`` seconds, the hand ``total_timeout``, and
    positions of more than ``max_cards`` cards are left undecided (None),
    never guessed. See :mod:`cpsolver.analysis`; loaded on the first call,
    so that ``import cpsolver`` stays light.
    """
    from cpsolver.analysis import analyse as annotate

    return annotate(record, rules, timeout, total_timeout, max_cards, id)


__all__ = [
    "Deal",
    "Hand",
    "Kind",
    "Play",
    "RuleSet",
    "__version__",
    "analyse",
    "answers",
    "beats",
    "can_answer",
    "classify",
    "load_rules",
    "plays",
    "standard_rules",
]
