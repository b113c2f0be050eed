"""Notebook pictures of the core's values, drawn outside the core.

Jupyter shows a value through its ``_repr_svg_`` and ``_repr_html_``. The core
draws nothing and imports nothing above it, so its values ask :func:`picture`,
and the package's front (``cpsolver/__init__.py``) hands this module the
drawing with :func:`set_drawer`. The drawing loads the pictures on a notebook's
first picture, as python-chess's ``Board._repr_svg_`` loads ``chess.svg``: a
script that draws nothing never loads them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

Form = Literal["svg", "html"]
Drawer = Callable[[object, Form], str]

_drawer: Drawer | None = None


def set_drawer(drawer: Drawer) -> None:
    """Draw the core's values in notebooks with ``drawer(value, form)`` from now on."""
    global _drawer
    _drawer = drawer


def picture(value: object, form: Form) -> str | None:
    """``value`` drawn as SVG or HTML; None while nothing draws (Jupyter then shows the repr)."""
    return None if _drawer is None else _drawer(value, form)


class Pictured:
    """Jupyter's two hooks for a value of the core, drawn by :func:`picture`."""

    __slots__ = ()

    def _repr_svg_(self) -> str | None:
        return picture(self, "svg")

    def _repr_html_(self) -> str | None:
        return picture(self, "html")
