"""Ways in and out: reading, writing, deal, position and rule files, corpora, seeded generators.

Every input cpsolver reads passes through :mod:`cpsolver.io.reading` (bounded,
one-line errors) and every file it writes through :mod:`cpsolver.io.writing`.
It imports the rules core and nothing else of the package.
"""
