"""Nurikabe as an SVG picture: the grid, the clues, the shaded cells filled dark; and the grid after one step of an
explanation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..pictures import INK, MARGIN, PAPER, STEP, Canvas, draw_text, keys_read
from ..puzzlink import UNKNOWN

if TYPE_CHECKING:  # for annotations only: the model imports this module for its pictures
    from ..pictures import StepMarks
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


def step_picture(level: Level, model: Any, marks: StepMarks, size: float = 32.0) -> str:
    """The grid after one step of an explanation: shaded cells dark, cells known unshaded with a dot, the rest
    blank; the new fact's cell amber, the cells whose shading the step used outlined red, the clues and cells
    the step's constraints are about tinted blue (a rule about the whole grid is named below it only)."""
    canvas = Canvas()
    draw = canvas.draw
    right, bottom = MARGIN + level.width * size, MARGIN + level.height * size
    literal_of = {(key[1], key[2]): var for var, key in enumerate(model.keys, start=1) if key[0] == "shaded"}
    tinted: set[tuple[int, int]] = set()
    for cells in keys_read(marks, model.keys):
        about = {(key[-2], key[-1]) for key in cells} | {(key[1], key[2]) for key in cells if key[0] == "island of"}
        if len(about) <= level.cell_count // 2:
            tinted |= about
    for cell, clue in enumerate(level.clues):
        row, col = divmod(cell, level.width)
        x, y = MARGIN + col * size, MARGIN + row * size
        var = literal_of.get((row, col))
        kind = marks.class_of([var]) if var else ""
        state = marks.state(var) if var else False
        fill = (
            STEP.new_fact
            if "new-fact" in kind
            else SHADE
            if state
            else STEP.used_unit
            if (row, col) in tinted
            else PAPER
        )
        group = draw.Group(class_=" ".join(filter(None, ["cell", kind, "unit" if (row, col) in tinted else ""])))
        group.append(draw.Rectangle(x, y, size, size, fill=fill, stroke=GRID, stroke_width=1))
        if "new-fact" in kind and state:
            group.append(draw.Rectangle(x + size * 0.25, y + size * 0.25, size * 0.5, size * 0.5, fill=SHADE))
        if kind == "used-fact":
            group.append(
                draw.Rectangle(x + 2, y + 2, size - 4, size - 4, fill="none", stroke=STEP.used_fact, stroke_width=2.5)
            )
        if var and state is False:
            group.append(draw.Circle(x + size / 2, y + size / 2, size * 0.08, fill=INK))
        if clue is not None:
            text = "?" if clue == UNKNOWN else str(clue)
            scale = 0.55 if len(text) < 3 else 0.4
            group.append(draw_text(draw, text, size * scale, x + size / 2, y + size / 2, font_weight="bold"))
        canvas.add(group, right, bottom)
    canvas.add(
        draw.Rectangle(
            MARGIN, MARGIN, level.width * size, level.height * size, fill="none", stroke=INK, stroke_width=2
        ),
        right,
        bottom,
    )
    canvas.caption(marks.lines, least=STEP.caption)
    return canvas.svg(marks.lines[0])
