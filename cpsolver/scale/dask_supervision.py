"""Dask workers of a LocalCluster that end with the batch that started them.

Imported only when a LocalCluster is made (it imports Dask).
"""

from __future__ import annotations

import os
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from cpsolver.scale.watchdog import exit_with_parent


class ExitWithParent(WorkerPlugin):
    """Each worker (restarted ones too) ends within a second of its parent, the batch.

    Dask's own workers already exit when their nanny's pipe closes; this is
    the same watchdog as the pool's, so a batch's workers are supervised by
    us on every runner, whatever Dask's version does.
    """

    name = "cpsolver-exit-with-parent"

    def __init__(self, parent: int) -> None:
        self.parent = parent

    def setup(self, worker: Any) -> None:
        """Start the watchdog, in a worker this process started (never in someone else's)."""
        if os.getppid() == self.parent:
            exit_with_parent(self.parent)
