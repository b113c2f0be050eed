"""Pictures: deals, positions, plans, explanations and recorded hands as SVG, HTML and text.

The rules core draws nothing: its notebook hooks ask :mod:`cpsolver.rules.notebook`,
which the package's front hands :func:`cpsolver.pictures.notebook.draw` to load
on a notebook's first picture.
"""
