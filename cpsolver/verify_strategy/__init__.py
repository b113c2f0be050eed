"""The README's path to the strategy checker, kept since 0.1; it is :mod:`cpsolver.verify.strategy`.

Nothing inside cpsolver imports this alias (an import-linter contract says so).
"""

from cpsolver.verify.strategy import check_strategy

__all__ = ["check_strategy"]
