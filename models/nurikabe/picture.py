"""Nurikabe as an SVG picture: the grid, the clues, the shaded cells filled dark."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..pictures import INK, MARGIN, PAPER, Canvas, draw_text
from ..puzzlink import UNKNOWN

if TYPE_CHECKING:  # for annotations only: the model imports this module for its pictures
    from .model import Level, Solution

SHADE = "#3b3b3b"
GRID = "#9a9a9a"


def picture(level: Level, solution: Solution | None = None, size: float = 30.0) -> str:
    """The grid with its clues; with a solution, the shaded cells filled (the level's name in the caption)."""
    canvas = Canvas()
    draw = canvas.draw
    right, bottom = MARGIN + level.width * size, MARGIN + level.height * size
    shaded = set(solution.shaded) if solution is not None else set()
    for cell, clue in enumerate(level.clues):
        row, col = divmod(cell, level.width)
        x, y = MARGIN + col * size, MARGIN + row * size
        fill = SHADE if (row, col) in shaded else PAPER
        canvas.add(draw.Rectangle(x, y, size, size, fill=fill, stroke=GRID, stroke_width=1), right, bottom)
        if clue is not None:
            text = "?" if clue == UNKNOWN else str(clue)
            scale = 0.55 if len(text) < 3 else 0.4
            canvas.add(
                draw_text(draw, text, size * scale, x + size / 2, y + size / 2, font_weight="bold"), right, bottom
            )
    canvas.add(
        draw.Rectangle(
            MARGIN, MARGIN, level.width * size, level.height * size, fill="none", stroke=INK, stroke_width=2
        ),
        right,
        bottom,
    )
    state = ", solved" if solution is not None else ""
    title = f"Nurikabe {level.name or ''} {level.width}x{level.height}{state}".replace("  ", " ")
    canvas.caption([title])
    return canvas.svg(title)
