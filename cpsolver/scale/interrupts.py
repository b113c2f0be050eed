"""Holding Ctrl-C and SIGTERM back over a few statements that must happen together.

A batch writes a chunk's records and then counts them. An interrupt landing
between the two left records in the file that the summary did not count, so
the summary and the output disagreed. Within :func:`held_interrupts` the two
signals are only noted; the first is acted on, as it would have been, the
moment the block ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def held_interrupts() -> Iterator[None]:
    """Run the block whole, then act on a SIGINT or SIGTERM that came during it.

    Acting means what the handler in place before the block would have done:
    Python's own SIGINT handler (or a SIGTERM mapped to it) raises
    ``KeyboardInterrupt`` there; a default disposition is re-delivered; an
    ignored signal stays ignored. Outside the main thread, where handlers
    cannot be set, the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[signal.Signals] = []

    def note(signum: int, frame: FrameType | None) -> None:
        came.append(signal.Signals(signum))

    previous = {signum: signal.signal(signum, note) for signum in HELD}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if came:
            _act_on(came[0], previous[came[0]])


def _act_on(signum: int, handler: Any) -> None:
    """Do what ``handler`` (a signal disposition) does for ``signum``, now."""
    if handler is signal.SIG_IGN or handler is None:
        return
    if handler is signal.SIG_DFL:
        os.kill(os.getpid(), signum)
        return
    handler(signum, None)
