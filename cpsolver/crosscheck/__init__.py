"""Cross-checking: our engines against each other and against other people's, for both questions.

Disagreements are shrunk to small reproducers; other programs are spoken to over
a line protocol (:mod:`cpsolver.crosscheck.external`), each supervised so that it
ends with cpsolver.
"""
