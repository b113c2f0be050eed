"""The rules core: cards, rule sets, the thirteen combinations, beating, move generation, positions.

Pure and typed, with no I/O: every other wing depends on it, and it imports
nothing of theirs (``pyproject.toml``'s import-linter contracts say so, and the
test suite checks them). A rule set's TOML is read by :mod:`cpsolver.io.rulefiles`
and handed in as data; the bundled sets come precompiled.
"""

from cpsolver.rules.ruleset import RuleSet, standard_rules

__all__ = ["RuleSet", "standard_rules"]
