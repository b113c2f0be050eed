"""What this process holds in memory: the resident size now, and its peak.

The open-hand search reads the resident size to keep its table under a cap;
the batch summary and the solver's statistics report the peak.
"""

from __future__ import annotations

import os
import sys

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """The resident memory of this process now, or None where the OS does not say cheaply.

    Linux only (``/proc/self/statm``): elsewhere only the peak is known,
    which never falls, so it cannot tell whether freeing helped.
    """
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def peak_memory_mb() -> float | None:
    """This process's peak resident memory in MB, or None where the OS does not say (Windows)."""
    try:
        import resource  # POSIX only
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # ru_maxrss is in bytes on macOS and in kilobytes on Linux and the BSDs.
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)
