"""Sudoku as an SVG picture: the grid with its boxes, the givens in bold, the filled digits in blue; and the grid
after one step of an explanation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..pictures import INK, MARGIN, MUTED, PAPER, STEP, Canvas, draw_text

if TYPE_CHECKING:  # for annotations only: the model imports this module for its pictures
    from ..pictures import StepMarks
    from .model import Level, Solution

FILLED = "#1f5fa8"
GRID = "#9a9a9a"


def outline_boxes(canvas: Canvas, level: Level, size: float) -> None:
    """The boxes' thick outlines over the cells (``size`` each)."""
    width, height = level.box
    corner = MARGIN + level.size * size
    for top in range(0, level.size, height):
        for left in range(0, level.size, width):
            x, y = MARGIN + left * size, MARGIN + top * size
            box = canvas.draw.Rectangle(x, y, width * size, height * size, fill="none", stroke=INK, stroke_width=2)
            canvas.add(box, corner, corner)


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
    outline_boxes(canvas, level, size)
    state = ", solved" if solution is not None else ""
    title = f"Sudoku {level.name or ''} {n}x{n}{state}".replace("  ", " ")
    canvas.caption([title])
    return canvas.svg(title)


def step_picture(level: Level, model: Any, marks: StepMarks, size: float = 36.0) -> str:
    """The grid after one step of an explanation: each cell's digit where known, else its digits still
    possible (small); the new fact's cell amber (a digit ruled out struck through in red), the cells whose
    digits the step used outlined red, the rows, columns, boxes and givens it used tinted blue."""
    canvas = Canvas()
    draw = canvas.draw
    n = level.size
    right = bottom = MARGIN + n * size
    digits: dict[tuple[int, int], list[tuple[int, int]]] = {}  # cell -> (digit, literal)
    for var, key in enumerate(model.keys, start=1):
        (_, row, col), digit = key
        digits.setdefault((row, col), []).append((digit, var))
    used_cells = {key[0][1:] for _, read in marks.units for key in (model.keys[v - 1] for v in read)}
    small_w, small_h = level.box if n <= 9 else (0, 0)
    for (row, col), values in sorted(digits.items()):
        x, y = MARGIN + col * size, MARGIN + row * size
        kind = marks.class_of(var for _, var in values)
        fill = STEP.new_fact if "new-fact" in kind else STEP.used_unit if (row, col) in used_cells else PAPER
        group = draw.Group(class_=" ".join(filter(None, ["cell", kind, "unit" if (row, col) in used_cells else ""])))
        group.append(draw.Rectangle(x, y, size, size, fill=fill, stroke=GRID, stroke_width=1))
        if kind == "used-fact":
            group.append(
                draw.Rectangle(x + 2, y + 2, size - 4, size - 4, fill="none", stroke=STEP.used_fact, stroke_width=2.5)
            )
        known = [digit for digit, var in values if marks.state(var)]
        if known:
            style = {"font_weight": "bold"} if level.givens[row * n + col] is not None else {"fill": FILLED}
            group.append(draw_text(draw, str(known[0]), size * 0.55, x + size / 2, y + size / 2, **style))
        if small_w and (not known or "new-fact" in kind and marks.fact < 0):
            for digit, var in values:
                if (marks.state(var) is False or known) and abs(marks.fact) != var:
                    continue
                r, c = divmod(digit - 1, small_w)
                cx, cy = x + (c + 0.5) * size / small_w, y + (r + 0.5) * size / small_h
                group.append(draw_text(draw, str(digit), size / (small_h + 1.2), cx, cy, fill=MUTED))
                if abs(marks.fact) == var and marks.fact < 0:
                    arm = size / (2.5 * small_w)
                    group.append(
                        draw.Line(cx - arm, cy + arm, cx + arm, cy - arm, stroke=STEP.used_fact, stroke_width=2)
                    )
        canvas.add(group, right, bottom)
    outline_boxes(canvas, level, size)
    canvas.caption(marks.lines, least=STEP.caption)
    return canvas.svg(marks.lines[0])
