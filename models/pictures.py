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
from collections.abc import Sequence
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

    def caption(self, lines: Sequence[str], left: float = MARGIN, fill: str = MUTED) -> None:
        """Lines of small text under everything drawn so far, wrapped to its width."""
        width = max(self.right - left, 240.0)
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
