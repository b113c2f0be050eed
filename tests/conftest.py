"""Set-up shared by the whole suite, run once in the controlling process."""

from __future__ import annotations

import contextlib
import signal

import pytest

# A suite started as a background job of a non-interactive shell inherits SIGINT
# ignored, and so would every cpsolver process the tests start and interrupt:
# they would wait for a Ctrl-C that never comes. A handler of our own is reset to
# the default when a child starts, so the children take Ctrl-C as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config: pytest.Config) -> None:
    """Let RLCard unpack its data files once, before pytest-xdist starts its workers.

    RLCard extracts a zip into its own package on first import; two workers
    importing it at once race on the same folder (FileExistsError).
    """
    if hasattr(config, "workerinput"):  # a worker: the controller has done it
        return
    with contextlib.suppress(ImportError):
        import rlcard.games.doudizhu.utils  # noqa: F401
