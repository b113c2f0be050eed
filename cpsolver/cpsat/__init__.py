"""The README's path to the CP-SAT engine, kept since 0.1; it lives in :mod:`cpsolver.spring.cpsat`.

Nothing inside cpsolver imports this alias (an import-linter contract says so).
"""

from cpsolver.spring.cpsat import DEFAULT_STRATEGY, STRATEGIES, Strategy, solve

__all__ = ["DEFAULT_STRATEGY", "STRATEGIES", "Strategy", "solve"]
