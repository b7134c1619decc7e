"""Sudoku as an SVG picture: the grid with its boxes, the givens in bold, the filled digits in blue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..pictures import INK, MARGIN, Canvas, draw_text

if TYPE_CHECKING:  # for annotations only: the model imports this module for its pictures
    from .model import Level, Solution

FILLED = "#1f5fa8"
GRID = "#9a9a9a"


def picture(level: Level, solution: Solution | None = None, size: float = 30.0) -> str:
    """The grid, boxes outlined; givens bold, and with a solution every other digit in blue."""
    canvas = Canvas()
    draw = canvas.draw
    n = level.size
    right = bottom = MARGIN + n * size
    for cell, given in enumerate(level.givens):
        row, col = divmod(cell, n)
        x, y = MARGIN + col * size, MARGIN + row * size
        canvas.add(draw.Rectangle(x, y, size, size, fill="none", stroke=GRID, stroke_width=1), right, bottom)
        value = given if given is not None or solution is None else solution.grid[row][col]
        if value is not None:
            style = {"font_weight": "bold"} if given is not None else {"fill": FILLED}
            canvas.add(draw_text(draw, str(value), size * 0.55, x + size / 2, y + size / 2, **style), right, bottom)
    width, height = level.box
    for top in range(0, n, height):
        for left in range(0, n, width):
            canvas.add(
                draw.Rectangle(
                    MARGIN + left * size,
                    MARGIN + top * size,
                    width * size,
                    height * size,
                    fill="none",
                    stroke=INK,
                    stroke_width=2,
                ),
                right,
                bottom,
            )
    state = ", solved" if solution is not None else ""
    title = f"Sudoku {level.name or ''} {n}x{n}{state}".replace("  ", " ")
    canvas.caption([title])
    return canvas.svg(title)
