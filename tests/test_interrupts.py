"""Interrupts held back over a batch's write-and-count, so its summary counts what it wrote."""

from __future__ import annotations

import io
import json
import os
import signal
from collections.abc import Iterator

import pytest

from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.rulefiles import read_rules_text
from cpsolver.rules.cards import Deal
from cpsolver.scale.batch import BatchOptions, run_batch
from cpsolver.scale.interrupts import held_interrupts
from cpsolver.scale.parallel import InProcess


def test_ctrl_c_inside_the_block_lets_it_finish_then_raises() -> None:
    steps = []
    with pytest.raises(KeyboardInterrupt), held_interrupts():
        os.kill(os.getpid(), signal.SIGINT)
        steps.append("after the signal")
    assert steps == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_handler_in_place_before_the_block_is_the_one_run_once() -> None:
    seen: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with held_interrupts():
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGTERM)
            assert seen == []
        assert seen == [signal.SIGTERM]
        os.kill(os.getpid(), signal.SIGTERM)  # and it is back in place afterwards
        assert seen == [signal.SIGTERM, signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_an_ignored_signal_stays_ignored() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with held_interrupts():
            os.kill(os.getpid(), signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_nothing_held_nothing_done() -> None:
    with held_interrupts():
        pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


class _InterruptedWhileWriting(io.StringIO):
    """An output that takes each write, then is hit by Ctrl-C before the write returns.

    That is the window CI once caught: the records were in the file, the
    summary had not counted them yet.
    """

    def write(self, text: str) -> int:
        written = super().write(text)
        os.kill(os.getpid(), signal.SIGINT)
        return written

    def fileno(self) -> int:
        raise OSError("not a file")


def _deals() -> Iterator[str]:
    for i, cards in enumerate(["3", "KK", "2"]):
        yield json.dumps({"id": i, **deal_as_dict(Deal.parse(cards, "4", "5"))})


def test_ctrl_c_mid_write_still_counts_what_was_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cpsolver.scale.batch._sync", lambda output: None)
    text, source = read_rules_text("standard")
    options = BatchOptions("search", "spring", "eager", text, source)
    output = _InterruptedWhileWriting()
    summary = run_batch(_deals(), output, options, InProcess(), set())
    assert summary.interrupted
    written = output.getvalue().splitlines()
    assert len(written) == summary.solved == 3  # one chunk: written, counted, then stopped
