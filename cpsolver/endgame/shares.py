"""The schedule of :meth:`cpsolver.endgame.tree.Tree.decide`'s narrow questions: which is
asked next, and within how many nodes.

Each side's questions, and the peasants' two move orders
(:data:`cpsolver.endgame.searchcore.ORDER_DEFAULT`,
:data:`cpsolver.endgame.searchcore.ORDER_LEFT_PASSES`), get a share of the nodes spent
(:class:`Schedule`); over a split's moves, the two orders' shares follow what each has decided
for its nodes (:class:`OrderRecord`).
"""

from __future__ import annotations

from cpsolver.endgame.searchcore import OPEN, ORDER_DEFAULT, ORDER_LEFT_PASSES

# A narrow question: the side that tries to prove its win, and the move order it is asked in.
Question = tuple[int, int]

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


class Schedule:
    """Which of one position's narrow questions :meth:`cpsolver.endgame.tree.Tree.decide` asks
    next, at which of the ``widths`` (each question at each width in turn), and within how many
    nodes; told what each cost and found.

    The questions are each side's in the search's order and, with ``second_order``, the
    peasants' (side 1) in :data:`ORDER_LEFT_PASSES` too. The one asked next is the one furthest
    behind its share of the nodes spent (the side to move ``mover`` :data:`MOVER_SHARE`, the
    other 1, each peasant order its side's share times its weight in ``record``; the side to
    move on a tie). Its budget is what the other side's questions have cost, times its own
    share against theirs (:data:`LEAST_BUDGET` at least); once the other side is out of widths,
    what the same side's other order has cost, times their shares' ratio; alone, no limit.
    """

    def __init__(
        self, mover: int, second_order: bool, record: OrderRecord, widths: tuple[int, ...]
    ) -> None:
        self.record = record
        self.widths = widths
        weights = record.weights()
        self.questions: list[Question] = [(mover, ORDER_DEFAULT), (1 - mover, ORDER_DEFAULT)]
        if second_order:
            self.questions.append((1, ORDER_LEFT_PASSES))
        self.side_share = {mover: MOVER_SHARE, 1 - mover: 1}
        self.share = {  # a question's share of the nodes, against the others'
            (side, order): self.side_share[side] * (weights[order] if side == 1 else 1)
            for side, order in self.questions
        }
        self.step = dict.fromkeys(self.questions, 0)  # each question's next width, its index
        self.spent = dict.fromkeys(self.questions, 0)  # the nodes each question has cost
        self.stopped_short = dict.fromkeys(self.questions, False)

    def next(self) -> tuple[Question, int, int | None] | None:
        """The question to ask next, its width, and its budget in nodes (None: no limit); None
        once every question has been asked at every width."""
        asking = [q for q in self.questions if self.step[q] < len(self.widths)]
        if not asking:
            return None
        question = min(asking, key=lambda each: self.spent[each] / self.share[each])
        other = 1 - question[0]
        budget = None
        if any(side == other for side, _ in asking):
            theirs = sum(cost for (side, _), cost in self.spent.items() if side == other)
            budget = int(theirs * self.share[question] / self.side_share[other])
        elif len(asking) > 1:  # the other side is out of widths: one order against the other
            (rival,) = (each for each in asking if each != question)
            budget = int(self.spent[rival] * self.share[question] / self.share[rival])
        width = self.widths[self.step[question]]
        return question, width, None if budget is None else max(LEAST_BUDGET, budget)

    def asked(self, question: Question, cost: int, found: int | None) -> None:
        """What asking ``question`` at its width cost and found (None: it stopped short, to be
        resumed; OPEN: no win at that width, its next width next; else the verdict)."""
        prover, order = question
        width = self.widths[self.step[question]]
        self.spent[question] += cost
        if prover == 1:
            self.record.spent[order] += cost
        self.stopped_short[question] = found is None
        if found == OPEN:
            self.step[question] += 1
        elif found is not None and prover == 1 and width > 1:
            self.record.decided[order] += 1
