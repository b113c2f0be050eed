"""``python -m cpsolver``: the command line, as the ``cpsolver`` script runs it."""

from cpsolver.cli import main

main()
