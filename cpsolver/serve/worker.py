"""The worker program: one job read as JSON from stdin, its answer written as JSON to stdout.

Run as ``python -m cpsolver.serve.worker`` by :mod:`cpsolver.serve.jobs`, in
a process group under a watchdog; it also ends itself when the server that
started it is gone. The answer is ``{"answer": ...}``, or ``{"error": LINE}``
for input the library refused.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from cpsolver.io.reading import loads_json
from cpsolver.rules.errors import CpsolverError
from cpsolver.scale.watchdog import exit_with_parent
from cpsolver.serve.questions import answer


def run(text: str) -> dict[str, Any]:
    """The worker's reply to the job ``text``."""
    try:
        return {"answer": answer(loads_json(text, "job"))}
    except CpsolverError as error:
        return {"error": str(error)}


def main() -> None:
    """Read the job, answer it, write the reply."""
    exit_with_parent(os.getppid())
    reply = run(sys.stdin.buffer.read().decode("utf-8"))
    sys.stdout.write(json.dumps(reply))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
