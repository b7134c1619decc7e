"""A Hexiom board as an SVG picture: hexagons, tiles coloured by number, locked tiles and blocked cells marked; and
the board after one step of an explanation."""

from __future__ import annotations

import math
from typing import Any

from ..pictures import (
    CAPTION_SIZE,
    EMPTY_CELL,
    INK,
    MARGIN,
    MUTED,
    STEP,
    Canvas,
    StepMarks,
    draw_text,
    keys_read,
    text_width,
)
from .model import Level, Solution

#: Hexiom tile colours by number, light enough for dark digits.
TILE_COLOURS = ("#e3e9f0", "#c6dbef", "#9ecae1", "#a1d99b", "#fdd49e", "#fdae6b", "#fc9272")
BOARD = "#d9d2c3"
BLOCKED_CELL = "#4a4a4a"


def _hexagon(draw: Any, x: float, y: float, radius: float, **style: Any) -> Any:
    """A pointy-topped hexagon (the board's rows are horizontal, as in the level files)."""
    corners = []
    for k in range(6):
        angle = math.radians(60 * k - 30)
        corners += [x + radius * math.cos(angle), y + radius * math.sin(angle)]
    return draw.Lines(*corners, close=True, **style)


def _padlock(draw: Any, x: float, y: float, size: float) -> list[Any]:
    """A small padlock centred on (x, y): the mark of a locked tile."""
    body_w, body_h = size, size * 0.72
    top = y - body_h * 0.1
    shackle = draw.Path(stroke=INK, stroke_width=size * 0.16, fill="none", class_="padlock")
    shackle.M(x - body_w * 0.3, top).v(-size * 0.28).a(body_w * 0.3, body_w * 0.3, 0, 0, 1, body_w * 0.6, 0).v(
        size * 0.28
    )
    body = draw.Rectangle(x - body_w / 2, top, body_w, body_h, rx=size * 0.1, fill=INK)
    return [shackle, body]


def _hex_cell(
    canvas: Canvas, x: float, y: float, radius: float, value: int | None, locked: bool, blocked: bool
) -> None:
    """One cell, as a group whose class says what it holds (empty, tile, tile locked, blocked)."""
    draw = canvas.draw
    kind = "blocked" if blocked else "empty" if value is None else "tile locked" if locked else "tile"
    cell = draw.Group(class_="cell " + kind)
    cell.append(_hexagon(draw, x, y, radius, fill=BOARD))
    inner = radius * 0.9
    if blocked:
        cell.append(_hexagon(draw, x, y, inner, fill=BLOCKED_CELL))
        arm = inner * 0.38
        for dx in (-arm, arm):
            cell.append(
                draw.Line(
                    x - dx,
                    y - arm,
                    x + dx,
                    y + arm,
                    stroke="#9a9a9a",
                    stroke_width=radius * 0.1,
                    stroke_linecap="round",
                )
            )
    elif value is None:
        cell.append(_hexagon(draw, x, y, inner, fill=EMPTY_CELL, stroke="#c8c0ae", stroke_width=1))
    elif locked:
        cell.append(_hexagon(draw, x, y, inner, fill=TILE_COLOURS[value], stroke="#7d7768", stroke_width=1.2))
        cell.append(_hexagon(draw, x, y, inner * 0.84, fill="none", stroke=INK, stroke_width=radius * 0.09))
        cell.extend(_padlock(draw, x, y - radius * 0.5, radius * 0.24))
        cell.append(draw_text(draw, str(value), radius * 0.62, x, y + radius * 0.12, font_weight="bold"))
    else:
        cell.append(_hexagon(draw, x, y, inner, fill=TILE_COLOURS[value], stroke="#7d7768", stroke_width=1.2))
        cell.append(draw_text(draw, str(value), radius * 0.72, x, y, font_weight="bold"))
    canvas.add(cell, x + radius, y + radius)


def picture(level: Level, solution: Solution | None = None, radius: float = 30.0) -> str:
    """The board as hexagons: tiles coloured by number, locked tiles with a dark rim and a
    padlock, blocked cells dark with a cross.  Without a solution: the locked and blocked
    cells, and the tiles still to place drawn underneath."""
    canvas = Canvas()
    step_x, step_y = math.sqrt(3) * radius, 1.5 * radius
    n = level.side - 1
    left = MARGIN + math.sqrt(3) / 2 * radius
    for cell, (q, r) in enumerate(level.board.coordinates):
        x = left + step_x * (q + r / 2 + n)
        y = MARGIN + radius + step_y * (r + n)
        value = solution.cells[cell] if solution is not None else level.locked.get(cell)
        _hex_cell(canvas, x, y, radius, value, cell in level.locked, cell in level.blocked_cells)
    lines = [_hexiom_caption(level, solution)]
    if solution is None:
        _tile_tray(canvas, level, radius * 0.62)
    canvas.caption(lines)
    return canvas.svg(lines[0])


def _tile_tray(canvas: Canvas, level: Level, radius: float) -> None:
    """The movable tiles of an unsolved level, one small tile per number with its count."""
    draw = canvas.draw
    y = canvas.bottom + 14 + radius
    x = MARGIN + radius
    canvas.add(draw_text(draw, "to place:", CAPTION_SIZE, MARGIN, y, anchor="start", fill=MUTED), MARGIN + 70, y)
    x += 70
    for number, count in enumerate(level.movable_counts):
        if not count:
            continue
        _hex_cell(canvas, x, y, radius, number, False, False)
        label = f"×{count}"
        canvas.add(
            draw_text(draw, label, CAPTION_SIZE, x + radius + 3, y, anchor="start"),
            x + radius + 3 + text_width(label, CAPTION_SIZE),
            y + radius,
        )
        x += 2 * radius + 14 + text_width(label, CAPTION_SIZE)


def _hexiom_caption(level: Level, solution: Solution | None) -> str:
    name = level.name or f"side {level.side}"
    marks = []
    if level.locked_tiles:
        marks.append(f"{len(level.locked_tiles)} locked (padlock)")
    if level.blocked_cells:
        marks.append(f"{len(level.blocked_cells)} blocked (dark)")
    state = ", solved" if solution is not None else ""
    return f"Hexiom {name}{state}: {level.tile_total} tiles" + (", " + ", ".join(marks) if marks else "")


#: the rim of a cell a step's constraints are about
UNIT_RIM = "#4a90d9"


def step_picture(level: Level, model: Any, marks: StepMarks, radius: float = 30.0) -> str:
    """The board after one step of an explanation: each cell's tile (or emptiness) where known, else what it
    may still hold (small; "-" for empty); a rim marks the new fact's cell (amber, thick), the cells whose
    facts the step used (red) and the cells the step's constraints are about (blue; a count over the whole
    board is named below it only)."""
    from .constraints import EMPTY

    canvas = Canvas()
    draw = canvas.draw
    values: dict[int, list[tuple[int, int]]] = {}  # cell -> (value, literal)
    for var, key in enumerate(model.keys, start=1):
        (_, cell), value = key
        values.setdefault(cell, []).append((value, var))
    about: set[int] = set()
    for cells in keys_read(marks, model.keys):
        read = {key[0][1] for key in cells}
        if len(read) <= len(values) // 2:
            about |= read
    step_x, step_y = math.sqrt(3) * radius, 1.5 * radius
    n = level.side - 1
    left = MARGIN + math.sqrt(3) / 2 * radius
    for cell, (q, r) in enumerate(level.board.coordinates):
        x = left + step_x * (q + r / 2 + n)
        y = MARGIN + radius + step_y * (r + n)
        if cell not in values:
            _hex_cell(canvas, x, y, radius, None, False, True)
            continue
        known = [value for value, var in values[cell] if marks.state(var)]
        kind = marks.class_of(var for _, var in values[cell])
        group = draw.Group(class_=" ".join(filter(None, ["cell", kind, "unit" if cell in about else ""])))
        group.append(_hexagon(draw, x, y, radius, fill=BOARD))
        inner = radius * 0.9
        if known and known[0] != EMPTY:
            group.append(_hexagon(draw, x, y, inner, fill=TILE_COLOURS[known[0]], stroke="#7d7768", stroke_width=1.2))
            bold = {"font_weight": "bold"}
            group.append(
                draw_text(draw, str(known[0]), radius * (0.62 if cell in level.locked else 0.72), x, y, **bold)
            )
        else:
            group.append(_hexagon(draw, x, y, inner, fill=EMPTY_CELL, stroke="#c8c0ae", stroke_width=1))
            if not known:
                left_over = [value for value, var in values[cell] if marks.state(var) is not False]
                text = " ".join("-" if value == EMPTY else str(value) for value in left_over)
                group.append(draw_text(draw, text, radius * 0.3, x, y, fill=MUTED))
        if cell in level.locked:
            group.append(_hexagon(draw, x, y, inner * 0.84, fill="none", stroke=INK, stroke_width=radius * 0.09))
        if cell in about:
            group.append(_hexagon(draw, x, y, radius * 0.8, fill="none", stroke=UNIT_RIM, stroke_width=3))
        if kind:
            colour, width = (STEP.new_fact, 6) if "new-fact" in kind else (STEP.used_fact, 3.5)
            group.append(_hexagon(draw, x, y, radius * 0.94, fill="none", stroke=colour, stroke_width=width))
        canvas.add(group, x + radius, y + radius)
    canvas.caption(marks.lines, least=STEP.caption)
    return canvas.svg(marks.lines[0])
