"""Where a benchmark ran: the machine and its load, as every results file records them."""

from __future__ import annotations

import os
import platform
from typing import Any


def where_measured() -> dict[str, Any]:
    """The machine (architecture, cores, Python) and the 1-minute load average now."""
    return {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }
