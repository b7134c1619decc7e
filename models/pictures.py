"""The drawing kit every family's picture (``models/<family>/picture.py``) is made with, and saving pictures.

The drawing library (drawsvg) is imported inside the functions, so importing
the models stays light; a picture is returned as SVG text, which notebooks
(``_repr_svg_`` of the library's levels and solutions), browsers and ``save``
all take.  Text goes through the library, which escapes it: names from a
level file are never written as XML.  This module knows no family.
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import UsageError

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
MUTED = "#6b6b6b"
PAPER = "#ffffff"
#: average advance of a character of FONT, in font sizes (DejaVu Sans is wide; erring wide keeps text inside)
CHAR_WIDTH = 0.62
MARGIN = 14
CAPTION_SIZE = 13
#: an empty cell of a board or frame
EMPTY_CELL = "#f5f2eb"


def library() -> Any:
    """The drawing library (drawsvg), imported on first use."""
    import drawsvg

    return drawsvg


def draw_text(draw: Any, text: str, size: float, x: float, y: float, anchor: str = "middle", **style: Any) -> Any:
    """Text centred vertically on y (a baseline shift, since renderers differ on dominant-baseline)."""
    return draw.Text(
        text, size, x, y + 0.36 * size, text_anchor=anchor, font_family=FONT, fill=style.pop("fill", INK), **style
    )


def text_width(text: str, size: float, bold: bool = False) -> float:
    return CHAR_WIDTH * size * len(text) * (1.12 if bold else 1.0)


def _caption_lines(lines: Sequence[str], width: float) -> list[str]:
    """Wrap caption lines to the picture's width."""
    columns = max(20, int(width / (CHAR_WIDTH * CAPTION_SIZE)))
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(textwrap.wrap(line, columns) or [""])
    return wrapped


class Canvas:
    """Elements placed in picture coordinates; the drawing's size is known only at the end."""

    def __init__(self) -> None:
        self.draw = library()
        self.elements: list[Any] = []
        self.right = 0.0
        self.bottom = 0.0

    def add(self, element: Any, right: float, bottom: float) -> None:
        self.elements.append(element)
        self.right = max(self.right, right)
        self.bottom = max(self.bottom, bottom)

    def caption(self, lines: Sequence[str], left: float = MARGIN, fill: str = MUTED, least: float = 240.0) -> None:
        """Lines of small text under everything drawn so far, wrapped to its width (at least ``least``)."""
        width = max(self.right - left, least)
        y = self.bottom + 10
        for line in _caption_lines(lines, width):
            y += CAPTION_SIZE * 1.4
            self.add(
                draw_text(self.draw, line, CAPTION_SIZE, left, y - CAPTION_SIZE * 0.5, anchor="start", fill=fill),
                left + text_width(line, CAPTION_SIZE),
                y,
            )

    def svg(self, title: str) -> str:
        width, height = math.ceil(self.right + MARGIN), math.ceil(self.bottom + MARGIN)
        drawing = self.draw.Drawing(width, height)
        drawing.append(self.draw.Rectangle(0, 0, width, height, fill=PAPER))
        drawing.extend(self.elements)
        drawing.append_title(title)
        return drawing.as_svg()


# ------------------------------------------------------------------ one step of an explanation


@dataclass(frozen=True)
class StepMarks:
    """What the picture of one step of an explanation (``Family.step_picture``) shows and highlights, over the
    variables of the family's constraint model: the board as known after the step, the one new fact, the
    known facts the step used, and what the constraints it used read (a family draws their cells or clues)."""

    #: the step's number, from 1, and the explanation's length
    number: int
    steps: int
    #: the new fact: a literal of one of the model's own variables
    fact: int
    #: the known facts the step used
    facts: tuple[int, ...]
    #: every fact known after the step, the new one included
    known: frozenset[int]
    #: per unit the step used: its label and every variable its constraints read (auxiliaries too)
    units: tuple[tuple[str, frozenset[int]], ...]
    #: the step in words, for the caption
    lines: tuple[str, ...]

    def state(self, literal: int) -> bool | None:
        """Whether ``literal`` is known true (True), known false (False) or not known after the step."""
        if literal in self.known:
            return True
        if -literal in self.known:
            return False
        return None

    def read(self) -> frozenset[int]:
        """Every variable read by the constraints the step used."""
        return frozenset().union(*(read for _, read in self.units))

    def class_of(self, literals: Iterable[int]) -> str:
        """The class a family gives the element drawing these literals: "new-fact" when one of their variables
        is the new fact's, "used-fact" when one is a fact the step used, both (space-separated) or "" (the new
        fact's highlight wins where both fall on one cell; tests find the marks by class)."""
        variables = {abs(lit) for lit in literals}
        kinds = []
        if abs(self.fact) in variables:
            kinds.append("new-fact")
        if variables & {abs(f) for f in self.facts}:
            kinds.append("used-fact")
        return " ".join(kinds)


@dataclass(frozen=True)
class StepStyle:
    """How every family's step picture marks a step alike: the fact it derives (``new_fact``), the facts it used
    (``used_fact``), the cells and clues of the constraints it used (``used_unit``), and the least width its
    caption wraps to (``caption``: the step's words are long)."""

    new_fact: str = "#f5b400"
    used_fact: str = "#d32f2f"
    used_unit: str = "#cfe3ff"
    caption: float = 460.0


STEP = StepStyle()


def keys_read(marks: StepMarks, keys: Sequence[Hashable]) -> list[list[Hashable]]:
    """Per unit the step used, the keys (``Model.keys``) of the variables it reads."""
    return [[keys[var - 1] for var in sorted(read)] for _, read in marks.units]


# ------------------------------------------------------------------ files


def save(svg: str, path: str) -> None:
    """Write a picture as .svg, or as .png (needs cairosvg: ``pip install 'trisolve[png]'``)."""
    from .files import write_bytes

    kind = os.path.splitext(path)[1].lower()
    if kind == ".svg":
        write_bytes(path, svg.encode("utf-8"), what="picture")
    elif kind == ".png":
        write_bytes(path, to_png(svg), what="picture")
    else:
        raise ValueError(f"{path}: pictures are .svg or .png files")


def to_png(svg: str, scale: float = 2.0) -> bytes:
    """The picture rasterised by cairosvg (crisp at twice the SVG's size by default)."""
    try:
        import cairosvg
    except (ImportError, OSError) as missing:  # OSError: the cairo C library itself is missing
        raise PngUnavailable(
            f"PNG output needs cairosvg and the cairo library ({missing}); "
            "install them with pip install 'trisolve[png]' (and Debian's libcairo2), "
            "or write .svg"
        ) from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)


class PngUnavailable(UsageError):
    """cairosvg (or the cairo library under it) is not installed."""
