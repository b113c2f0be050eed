"""A cap on the memory of one open-hand search, kept by evicting table entries.

The table is a cache of exact verdicts: dropping an entry only means the
position is searched again if it is met again, so a search under the cap
still gives the exact answer, only later. Entries are stored when their
position is finished, so the oldest are the small subtrees met first, deep
in the search; eviction drops those and keeps the newer ones, which stand
for the larger subtrees near the root (the costly ones to search again).

The compiled core keeps its own table bounded too (half the cap) and, when
evicting, keeps the entries with the most nodes searched under them instead
of the newest (:mod:`cpsolver.endgame.compiled`); its gauge is the bytes the
C search itself holds, with the most one of its tables could add by growing
next, or the process's growth since the search began, whichever is more, not
the process's whole resident size, so memory that earlier work left with the
process does not count against the search.

The gauge is read every few thousand nodes (the resident size, on Linux);
the first time it comes within a sixteenth of the cap, three quarters of the
table's size then becomes its budget, and later reads only lower the budget
if the gauge passes the cap and still grows. Where the OS gives no resident
size, the budget is the cap over a measured size an entry.
"""

from __future__ import annotations

from collections.abc import Callable

from cpsolver.io.memory import resident_bytes

DEFAULT_MEMORY = 1024 * 1024 * 1024  # bytes
# Bytes a table entry holds with its share of the caches beside it, measured
# on full deals (the budget where no resident size is known).
_BYTES_PER_ENTRY = 400
# Below this many entries, eviction cannot bring the process under the cap:
# the memory is held elsewhere, and the search stops rather than thrash.
_FEWEST_ENTRIES = 10_000


class OutOfMemory(Exception):
    """The cap was reached and evicting the table could not keep the search under it."""


class MemoryBudget:
    """When a search's table must shrink to keep the process near ``cap`` bytes.

    ``resident`` reads the process's resident bytes (None: unknown), ``every``
    is how many clock reads of the search go by between two of its reads,
    and ``fewest`` the smallest table worth cutting; tests set all three.
    """

    def __init__(
        self,
        cap: int | None = DEFAULT_MEMORY,
        resident: Callable[[], int | None] = resident_bytes,
        every: int = 64,
        fewest: int | None = None,
    ) -> None:
        self.cap = cap
        self.resident = resident
        self.every = every
        if fewest is None:
            # A table of a hundredth of the cap, or fewer entries, holds too little
            # for cutting it to matter (under small caps, fewer than _FEWEST_ENTRIES).
            fewest = _FEWEST_ENTRIES if cap is None else min(_FEWEST_ENTRIES, cap // 4096)
        self.fewest = fewest
        self.entries: int | None = None  # the table's budget, learnt at the first overflow
        self.evictions = 0
        self.evicted = 0
        self.may_stop = True  # False once the verdict is in: reading it out never gives up
        # The gauge when the budget was last set (at most the cap): freed memory
        # stays with the process, so only growth past it means the budget is high.
        self._lowered_at = 0
        if cap is not None and resident() is None:
            self.entries = max(fewest, cap // _BYTES_PER_ENTRY)

    def must_shrink(self, entries: int) -> bool:
        """Whether a table of ``entries`` entries must be cut now; raises if cutting is no use."""
        if self.cap is None:
            return False
        resident = self.resident()
        if self.entries is None:
            # A sixteenth of the cap is left to what the gauge does not see: the
            # interpreter, and what the search allocates between two reads.
            if resident is None or resident <= self.cap - self.cap // 16:
                return False
            # A quarter below the size that reached the cap: room for the
            # allocator's slack, which freeing does not give back.
            self.entries = max(entries * 3 // 4, self.fewest)
            self._lowered_at = min(resident, self.cap)
            return True
        if resident is not None and resident > max(self.cap, self._lowered_at + self.cap // 16):
            # The budget was learnt too high (the caches beside the table grew): lower it.
            if entries < self.fewest:
                if self.may_stop:
                    raise OutOfMemory
                return False  # the verdict is in: go on, nothing more to free here
            self.entries = max(entries // 2, self.fewest)
            self._lowered_at = resident
            return True
        return entries >= self.entries

    def keep(self) -> int:
        """How many entries to keep when cutting: half the budget, room to grow again."""
        assert self.entries is not None
        return self.entries // 2

    def record(self, dropped: int) -> None:
        """Count one eviction of ``dropped`` entries."""
        self.evictions += 1
        self.evicted += dropped
