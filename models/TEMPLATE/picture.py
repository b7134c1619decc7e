"""A TEMPLATE row as an SVG picture: one square per cell, the chosen ones filled, the givens marked.

[GUIDELINE] Draw with the shared kit (``models/pictures.py``: a canvas that
grows as elements are added, text that the library escapes); the drawing
library loads only when a picture is drawn.
"""

from __future__ import annotations

from ..pictures import EMPTY_CELL, INK, MARGIN, Canvas, draw_text
from .model import Level, Solution

CHOSEN = "#9ecae1"


def picture(level: Level, solution: Solution | None = None, size: float = 30.0) -> str:
    """The row of cells: chosen cells filled (with a solution), given cells marked + or -."""
    canvas = Canvas()
    chosen = set(solution.chosen) if solution is not None else set()
    given = dict(level.givens)
    for cell in range(level.cells):
        x = MARGIN + cell * size
        fill = CHOSEN if cell in chosen else EMPTY_CELL
        canvas.add(canvas.draw.Rectangle(x, MARGIN, size, size, fill=fill, stroke=INK), x + size, MARGIN + size)
        if cell in given:
            mark = "+" if given[cell] else "-"
            canvas.add(
                draw_text(canvas.draw, mark, size * 0.6, x + size / 2, MARGIN + size / 2), x + size, MARGIN + size
            )
    title = f"{level.name or 'TEMPLATE'}: choose {level.chosen} of {level.cells}" + (", solved" if solution else "")
    canvas.caption([title])
    return canvas.svg(title)
