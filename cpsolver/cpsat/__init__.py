"""The CP-SAT spring engine: a model of the landlord's split, cut by the peasants' answers."""

from cpsolver.cpsat.solver import DEFAULT_STRATEGY, STRATEGIES, solve

__all__ = ["DEFAULT_STRATEGY", "STRATEGIES", "solve"]
