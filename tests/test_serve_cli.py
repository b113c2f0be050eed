"""``cpsolver serve`` without the serve extra says what to install, in one line (exit 2)."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
sys.modules["uvicorn"] = None  # as if the serve extra were not installed
sys.argv = ["cpsolver", "serve", "--port", "0"]
from cpsolver.cli import main
main()
"""


def test_serve_without_the_extra_says_what_to_install() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr == (
        "Error: the board needs the serve extra (uvicorn is missing): "
        "pip install 'cpsolver[serve]'\n"
    )


def test_serve_refuses_a_port_out_of_range() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cpsolver", "serve", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "70000 is not in the range 0<=x<=65535" in done.stderr
