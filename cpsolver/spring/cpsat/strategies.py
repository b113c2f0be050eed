"""How CP-SAT meets the peasants' answers: every cut up front (eager), or as they are found (lazy)."""

from __future__ import annotations

from typing import Literal

Strategy = Literal["eager", "lazy"]
STRATEGIES: tuple[Strategy, ...] = ("eager", "lazy")
DEFAULT_STRATEGY: Strategy = "eager"
