"""How the core's values look in a notebook: a hand or a play as tiles, a deal around a table.

:func:`draw` is what :mod:`cpsolver.rules.notebook` calls for the core's
``_repr_svg_`` and ``_repr_html_`` (the package's front hands it over); the
other wings' values draw themselves with :mod:`cpsolver.pictures.svg` directly.
"""

from __future__ import annotations

from cpsolver.io.words import counted
from cpsolver.pictures import svg
from cpsolver.rules.cards import Deal, Hand
from cpsolver.rules.notebook import Form
from cpsolver.rules.plays import Play


def draw(value: object, form: Form) -> str:
    """``value`` (a hand, a deal or a play) as SVG, or as an HTML figure with a caption."""
    if isinstance(value, Play):
        picture, caption = (
            svg.hand(value, f"{value} ({value.kind.value})"),
            f"{value}: {value.kind.value}",
        )
    elif isinstance(value, Hand):
        picture, caption = svg.hand(value), f"{counted(len(value), 'card')}: {value}"
    elif isinstance(value, Deal):
        picture, caption = svg.deal(value), "landlord below, peasant 1 right, peasant 2 left"
    else:
        raise TypeError(f"no notebook picture of a {type(value).__name__}")
    return picture if form == "svg" else svg.html_fragment(picture, caption)
