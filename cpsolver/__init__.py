"""cpsolver: exact answers, proofs and explanations for Dou Dizhu deals.

The rules core is :mod:`cpsolver.cards` (ranks, hands, deals),
:mod:`cpsolver.rules` (rule sets as data), :mod:`cpsolver.plays` (the thirteen
combinations and beating) and :mod:`cpsolver.movegen` (plays and answers).
It does no I/O but read its own bundled rule files.
"""

__version__ = "0.1.0"  # the one place: pyproject.toml and cpsolver --version read it

from cpsolver.cards import Deal, Hand
from cpsolver.movegen import answers, can_answer, plays
from cpsolver.plays import Kind, Play, beats, classify
from cpsolver.rules import RuleSet, load_rules, standard_rules

__all__ = [
    "Deal",
    "Hand",
    "Kind",
    "Play",
    "RuleSet",
    "__version__",
    "answers",
    "beats",
    "can_answer",
    "classify",
    "load_rules",
    "plays",
    "standard_rules",
]
