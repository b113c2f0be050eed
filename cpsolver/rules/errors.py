"""The package's exceptions: one ``ValueError`` subclass per cause.

Every message names the offending input, so the command line can print it
as a one-line diagnosis without adding anything.
"""


class CpsolverError(ValueError):
    """Base class of every input error cpsolver raises."""


class CardSyntaxError(CpsolverError):
    """Text that is not card notation (``unknown card symbol 'Z' at position 7``)."""


class HandError(CpsolverError):
    """Cards that no hand from one deck can hold (``five 9s in one hand``)."""


class DealError(CpsolverError):
    """Three hands that do not form a deal (``five 9s across the deal``)."""


class InvalidPlayError(CpsolverError):
    """Cards that form no play under the rule set; the message says why."""


class AmbiguousPlayError(CpsolverError):
    """Cards with more than one reading under a (non-standard) rule set."""


class RulesError(CpsolverError):
    """A rule set file that is malformed or describes impossible rules."""


class PositionError(CpsolverError):
    """Hands, turn and table play that do not form an open-hand position."""
