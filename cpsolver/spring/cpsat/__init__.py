"""The CP-SAT spring engine: a model of the landlord's split, cut by the peasants' answers.

OR-Tools (and the pandas and numpy it pulls in) is imported only when a model is
built: :func:`solve` loads :mod:`cpsolver.spring.cpsat.solver` on its first call, so
commands that never solve with CP-SAT start without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cpsolver.spring.cpsat.strategies import DEFAULT_STRATEGY, STRATEGIES, Strategy

if TYPE_CHECKING:
    from cpsolver.spring.cpsat.solver import solve
else:

    def solve(*args: Any, **kwargs: Any) -> Any:
        """Decide a deal's spring with CP-SAT: :func:`cpsolver.spring.cpsat.solver.solve`."""
        from cpsolver.spring.cpsat.solver import solve as solve_with_cpsat

        return solve_with_cpsat(*args, **kwargs)


__all__ = ["DEFAULT_STRATEGY", "STRATEGIES", "Strategy", "solve"]
