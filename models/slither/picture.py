"""Slitherlink as an SVG picture: the grid's points as dots, the clues, the loop as a thick line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..pictures import INK, MARGIN, MUTED, Canvas, draw_text
from ..puzzlink import UNKNOWN

if TYPE_CHECKING:  # for annotations only: the model imports this module for its pictures
    from .model import Level, Solution

LOOP = "#1f5fa8"


def picture(level: Level, solution: Solution | None = None, size: float = 32.0) -> str:
    """The grid with its clues; with a solution, the loop drawn over it (the level's name in the caption)."""
    canvas = Canvas()
    draw = canvas.draw
    right, bottom = MARGIN + level.width * size, MARGIN + level.height * size

    def at(point: tuple[int, int]) -> tuple[float, float]:
        return MARGIN + point[1] * size, MARGIN + point[0] * size

    for cell, clue in enumerate(level.clues):
        if clue is not None:
            row, col = divmod(cell, level.width)
            x, y = MARGIN + (col + 0.5) * size, MARGIN + (row + 0.5) * size
            text = "?" if clue == UNKNOWN else str(clue)
            canvas.add(draw_text(draw, text, size * 0.55, x, y, fill=MUTED if clue == UNKNOWN else INK), right, bottom)
    if solution is not None:
        for a, b in solution.edges:
            canvas.add(
                draw.Line(*at(a), *at(b), stroke=LOOP, stroke_width=size * 0.14, stroke_linecap="round"), right, bottom
            )
    for row in range(level.height + 1):
        for col in range(level.width + 1):
            canvas.add(draw.Circle(*at((row, col)), size * 0.07, fill=INK), right, bottom)
    state = ", solved" if solution is not None else ""
    title = f"Slitherlink {level.name or ''} {level.width}x{level.height}{state}".replace("  ", " ")
    canvas.caption([title])
    return canvas.svg(title)
