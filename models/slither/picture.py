"""Slitherlink as an SVG picture: the grid's points as dots, the clues, the loop as a thick line; and the grid after
one step of an explanation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..pictures import INK, MARGIN, MUTED, STEP, Canvas, draw_text
from ..puzzlink import UNKNOWN

if TYPE_CHECKING:  # for annotations only: the model imports this module for its pictures
    from ..pictures import StepMarks
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


def step_picture(level: Level, model: Any, marks: StepMarks, size: float = 36.0) -> str:
    """The grid after one step of an explanation: the sides known on the loop drawn, those known off it
    crossed; the new fact's side amber, the sides whose state the step used red, the clues the step used
    tinted blue (the one-loop rule, about the whole grid, is named below it only)."""
    canvas = Canvas()
    draw = canvas.draw
    right, bottom = MARGIN + level.width * size, MARGIN + level.height * size

    def at(point: tuple[int, int]) -> tuple[float, float]:
        return MARGIN + point[1] * size, MARGIN + point[0] * size

    literal_of = {(key[1], key[2]): var for var, key in enumerate(model.keys, start=1) if key[0] == "edge"}
    edges = len(literal_of)
    tinted: set[int] = set()
    for _, read in marks.units:
        sides = {model.keys[var - 1][1:] for var in read if model.keys[var - 1][0] == "edge"}
        if len(sides) <= edges // 2:
            tinted |= {
                cell
                for cell in range(level.cell_count)
                if all(side in sides for side in level.sides(*divmod(cell, level.width)))
            }
    for cell, clue in enumerate(level.clues):
        row, col = divmod(cell, level.width)
        x, y = MARGIN + col * size, MARGIN + row * size
        if cell in tinted:
            canvas.add(draw.Rectangle(x, y, size, size, fill=STEP.used_unit, class_="unit"), right, bottom)
        if clue is not None:
            text = "?" if clue == UNKNOWN else str(clue)
            canvas.add(
                draw_text(draw, text, size * 0.55, x + size / 2, y + size / 2, fill=MUTED if clue == UNKNOWN else INK),
                right,
                bottom,
            )
    for (a, b), var in literal_of.items():
        kind = marks.class_of([var])
        state = marks.state(var)
        (x1, y1), (x2, y2) = at(a), at(b)
        group = draw.Group(class_=" ".join(filter(None, ["side", kind])))
        if kind == "new-fact":
            group.append(
                draw.Line(x1, y1, x2, y2, stroke=STEP.new_fact, stroke_width=size * 0.32, stroke_linecap="round")
            )
        colour = STEP.used_fact if kind == "used-fact" else LOOP
        if state:
            group.append(draw.Line(x1, y1, x2, y2, stroke=colour, stroke_width=size * 0.14, stroke_linecap="round"))
        elif state is False:
            mx, my, arm = (x1 + x2) / 2, (y1 + y2) / 2, size * 0.08
            colour = STEP.used_fact if kind == "used-fact" else MUTED
            for dx in (-arm, arm):
                group.append(draw.Line(mx - dx, my - arm, mx + dx, my + arm, stroke=colour, stroke_width=2))
        canvas.add(group, right, bottom)
    for row in range(level.height + 1):
        for col in range(level.width + 1):
            canvas.add(draw.Circle(*at((row, col)), size * 0.07, fill=INK), right, bottom)
    canvas.caption(marks.lines, least=STEP.caption)
    return canvas.svg(marks.lines[0])
