"""The shares of nodes :meth:`cpsolver.endgame.tree.Tree.decide` gives its narrow questions.

Each side's questions, and the peasants' two move orders
(:data:`cpsolver.endgame.searchcore.ORDER_DEFAULT`,
:data:`cpsolver.endgame.searchcore.ORDER_LEFT_PASSES`), get a share of the nodes spent; over
a split's moves, the two orders' shares follow what each has decided for its nodes
(:class:`OrderRecord`).
"""

from __future__ import annotations

from cpsolver.endgame.searchcore import ORDER_DEFAULT, ORDER_LEFT_PASSES

# The fewest nodes ``Tree.decide`` lets a narrow question cost before it may stop it short:
# below this, stopping and resuming costs more than it saves.
LEAST_BUDGET = 10_000

# How many nodes the side to move may spend on its narrow questions for each one the other side
# spends on its own (``Tree.decide``): the side to move wins most of the positions decided (a
# split decides the mover's losing moves first). 16 did better than 1, 2, 4, 8, 64 and 256 on
# the full deals of ``benchmarks/endgame.py --only deals3``.
MOVER_SHARE = 16

# Which of the two move orders (ORDER_DEFAULT, ORDER_LEFT_PASSES) proves a full deal fast varies
# by deal, by ten times either way, so ``Tree.decide`` asks the peasants' questions in both,
# the second with a quarter of the first's share of nodes (a share equal to the first's lost
# more full deals than it won). Over a split's moves, the shares then follow what each order
# decided for its nodes (:class:`OrderRecord`).
SECOND_ORDER_SHARE = 0.25
# The nodes of evidence :class:`OrderRecord` starts from (at the shares above), and the least
# weight it leaves an order, against the other's: with a sixteenth, full deal #8 took 87 s where
# it takes 8 s, its first order starved of the two hard moves it decides (a probe).
PRIOR_NODES = 1_000_000
LEAST_WEIGHT = 1 / 4


class OrderRecord:
    """What each of the peasants' two orders cost and decided over a split's moves, and the
    weights of their shares that follow.

    An order's weight is the moves it decided (past width 1, where a question costs little) for
    each node it spent, against the other order's: the faster one keeps the side's whole
    share, the other its ratio (:data:`LEAST_WEIGHT` at least). Before any evidence, the
    second order's weight is :data:`SECOND_ORDER_SHARE`. On a full deal one order often
    decides moves for several times fewer nodes than the other (the speed page's deal #2:
    past width 1, the first order decided 27 of its first moves for 85.6 million nodes, the
    second 7 for 74.9 million; #16: the first 5 for 25.0 million, the second 17 for 8.1
    million; a probe, the shares as they were before the record).
    """

    def __init__(self) -> None:
        self.spent = dict.fromkeys((ORDER_DEFAULT, ORDER_LEFT_PASSES), 0)
        self.decided = {ORDER_DEFAULT: 1.0, ORDER_LEFT_PASSES: SECOND_ORDER_SHARE}

    def weights(self) -> dict[int, float]:
        """Each order's weight: its moves decided a node, against the faster order's."""
        rate = {
            order: self.decided[order] / (self.spent[order] + PRIOR_NODES) for order in self.spent
        }
        best = max(rate.values())
        return {order: max(LEAST_WEIGHT, value / best) for order, value in rate.items()}
