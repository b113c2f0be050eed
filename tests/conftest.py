"""Set-up shared by the whole suite, run once in the controlling process."""

from __future__ import annotations

import contextlib

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Let RLCard unpack its data files once, before pytest-xdist starts its workers.

    RLCard extracts a zip into its own package on first import; two workers
    importing it at once race on the same folder (FileExistsError).
    """
    if hasattr(config, "workerinput"):  # a worker: the controller has done it
        return
    with contextlib.suppress(ImportError):
        import rlcard.games.doudizhu.utils  # noqa: F401
