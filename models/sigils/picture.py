"""A sigil frame as an SVG picture: each piece in its type's colour, walls between pieces, the pieces to place; and
the frame after one step of an explanation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..pictures import CAPTION_SIZE, EMPTY_CELL, INK, MARGIN, PAPER, STEP, Canvas, StepMarks, draw_text, text_width
from .model import Level, Solution

#: Sigil piece colours, one per piece type (ColorBrewer Set3, 12 colours, then again).
PIECE_COLOURS = (
    "#8dd3c7",
    "#ffffb3",
    "#bebada",
    "#fb8072",
    "#80b1d3",
    "#fdb462",
    "#b3de69",
    "#fccde5",
    "#d9d9d9",
    "#bc80bd",
    "#ccebc5",
    "#ffed6f",
)


def _piece_colours(level: Level) -> dict[str, str]:
    return {piece.name: PIECE_COLOURS[i % len(PIECE_COLOURS)] for i, piece in enumerate(level.pieces)}


def _draw_pieces(
    canvas: Canvas,
    left: float,
    top: float,
    size: float,
    width: int,
    height: int,
    owner: Sequence[int | None],
    names: Sequence[str],
    colours: dict[str, str],
    letters: bool,
) -> None:
    """Cells coloured by their piece's type, thick walls between pieces, one letter per piece."""
    draw = canvas.draw
    right, bottom = left + width * size, top + height * size
    for cell, piece in enumerate(owner):
        row, col = divmod(cell, width)
        fill = colours.get(names[piece], PAPER) if piece is not None else EMPTY_CELL
        canvas.add(
            draw.Rectangle(
                left + col * size,
                top + row * size,
                size,
                size,
                fill=fill,
                stroke="#000000" if piece is not None else "#c8c0ae",
                stroke_opacity=0.2 if piece is not None else 1,
                stroke_width=1,
            ),
            right,
            bottom,
        )

    def owner_at(row: int, col: int) -> int | None:
        return owner[row * width + col] if 0 <= row < height and 0 <= col < width else -1

    wall = {"stroke": INK, "stroke_width": max(2.0, size * 0.08), "stroke_linecap": "round"}
    for row in range(height + 1):
        for col in range(width + 1):
            x, y = left + col * size, top + row * size
            if col < width and owner_at(row - 1, col) != owner_at(row, col):
                canvas.add(draw.Line(x, y, x + size, y, **wall), right, bottom)
            if row < height and owner_at(row, col - 1) != owner_at(row, col):
                canvas.add(draw.Line(x, y, x, y + size, **wall), right, bottom)
    if not letters:
        return
    cells_of: dict[int, list[int]] = {}
    for cell, piece in enumerate(owner):
        if piece is not None:
            cells_of.setdefault(piece, []).append(cell)
    for piece, cells in cells_of.items():
        rows_cols = [divmod(c, width) for c in cells]
        mid_r = sum(r for r, _ in rows_cols) / len(cells)
        mid_c = sum(c for _, c in rows_cols) / len(cells)
        r, c = min(rows_cols, key=lambda rc: ((rc[0] - mid_r) ** 2 + (rc[1] - mid_c) ** 2, rc))
        canvas.add(
            draw_text(
                draw, names[piece], size * 0.5, left + (c + 0.5) * size, top + (r + 0.5) * size, font_weight="bold"
            ),
            right,
            bottom,
        )


def picture(level: Level, solution: Solution | None = None, size: float = 36.0) -> str:
    """The frame with each piece filled in its type's colour, walls between pieces and the
    piece's letter.  Without a solution: the empty frame and the pieces to place."""
    canvas = Canvas()
    colours = _piece_colours(level)
    owner: list[int | None] = [None] * level.cell_count
    names: list[str] = []
    if solution is not None:
        for number, placement in enumerate(solution.placements):
            names.append(placement.piece)
            for cell in placement.cells:
                if 0 <= cell < level.cell_count:
                    owner[cell] = number
    _draw_pieces(canvas, MARGIN, MARGIN, size, level.width, level.height, owner, names, colours, letters=True)
    if solution is None:
        _piece_tray(canvas, level, colours, size * 0.4)
    state = "tiled" if solution is not None else "frame"
    title = f"{level.name or 'sigils'}: {level.width}x{level.height} {state}, {level.piece_total} pieces" + (
        ", mirroring allowed" if level.mirroring else ""
    )
    canvas.caption([title])
    return canvas.svg(title)


def _piece_tray(canvas: Canvas, level: Level, colours: dict[str, str], size: float) -> None:
    """Each piece type drawn small, with its count, in rows under the frame."""
    draw = canvas.draw
    row_width = max(canvas.right - MARGIN, 240.0)
    x, top, row_height = MARGIN, canvas.bottom + 14, 0.0
    for piece, count in zip(level.pieces, level.piece_counts):
        height = 1 + max(r for r, _ in piece.shape)
        width = 1 + max(c for _, c in piece.shape)
        label = piece.name + (f" ×{count}" if count > 1 else "")
        span = width * size + 4 + text_width(label, CAPTION_SIZE)
        if x > MARGIN and x + span > MARGIN + row_width:
            x, top, row_height = MARGIN, top + row_height + 12, 0.0
        cells = set(piece.shape)
        owner = [0 if (r, c) in cells else None for r in range(height) for c in range(width)]
        _draw_piece_cells(canvas, x, top, size, width, height, owner, colours[piece.name])
        canvas.add(
            draw_text(draw, label, CAPTION_SIZE, x + width * size + 4, top + height * size / 2, anchor="start"),
            x + span,
            top + height * size,
        )
        x += span + 14
        row_height = max(row_height, height * size)


def _draw_piece_cells(
    canvas: Canvas,
    left: float,
    top: float,
    size: float,
    width: int,
    height: int,
    owner: Sequence[int | None],
    colour: str,
) -> None:
    draw = canvas.draw
    for cell, piece in enumerate(owner):
        if piece is None:
            continue
        row, col = divmod(cell, width)
        canvas.add(
            draw.Rectangle(left + col * size, top + row * size, size, size, fill=colour, stroke=INK, stroke_width=1),
            left + width * size,
            top + height * size,
        )


def step_picture(level: Level, model: Any, marks: StepMarks, size: float = 36.0) -> str:
    """The frame after one step of an explanation: the placements known to be chosen, as pieces; the new
    fact's placement outlined amber (dashed when it is ruled out), the placements whose facts the step used
    outlined red (dashed: ruled out), the cells whose covering rule the step used tinted blue."""
    canvas = Canvas()
    draw = canvas.draw
    colours = _piece_colours(level)
    owner: list[int | None] = [None] * level.cell_count
    names: list[str] = []
    placement: dict[int, tuple[str, tuple[int, ...]]] = {}
    for var, key in enumerate(model.keys, start=1):
        if key[0] == "place":
            placement[var] = (key[1], key[2])
            if marks.state(var):
                names.append(key[1])
                for cell in key[2]:
                    owner[cell] = len(names) - 1
    _draw_pieces(canvas, MARGIN, MARGIN, size, level.width, level.height, owner, names, colours, letters=True)
    right, bottom = MARGIN + level.width * size, MARGIN + level.height * size
    for _, read in marks.units:
        common = set.intersection(*(set(placement[var][1]) for var in read if var in placement)) if read else set()
        for cell in sorted(common):
            row, col = level.row_col(cell)
            canvas.add(
                draw.Rectangle(
                    MARGIN + col * size + 3,
                    MARGIN + row * size + 3,
                    size - 6,
                    size - 6,
                    fill=STEP.used_unit,
                    fill_opacity=0.8,
                    class_="unit",
                ),
                right,
                bottom,
            )
    for literal, kind in [(f, "used-fact") for f in marks.facts] + [(marks.fact, "new-fact")]:
        name, cells = placement[abs(literal)]
        colour, width = (STEP.new_fact, 5) if kind == "new-fact" else (STEP.used_fact, 3)
        dashes = {} if literal > 0 else {"stroke_dasharray": "6,4"}
        group = draw.Group(class_=kind)
        for cell in cells:
            row, col = level.row_col(cell)
            group.append(
                draw.Rectangle(
                    MARGIN + col * size + width / 2,
                    MARGIN + row * size + width / 2,
                    size - width,
                    size - width,
                    fill="none",
                    stroke=colour,
                    stroke_width=width,
                    **dashes,
                )
            )
        row, col = level.row_col(cells[0])
        group.append(
            draw_text(draw, name, size * 0.3, MARGIN + (col + 0.8) * size, MARGIN + (row + 0.25) * size, fill=colour)
        )
        canvas.add(group, right, bottom)
    canvas.caption(marks.lines, least=STEP.caption)
    return canvas.svg(marks.lines[0])
