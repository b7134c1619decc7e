"""Pictures of levels and solutions as SVG: Hexiom boards as hexagons, sigil
tilings in colour, logic grids as tables.

The drawing library (drawsvg) is imported inside the functions, so importing
the models stays light; a picture is returned as SVG text, which notebooks
(``_repr_svg_``), browsers and ``save`` all take.  Text goes through the
library, which escapes it: names from a level file are never written as XML.
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .errors import UsageError

if TYPE_CHECKING:  # pragma: no cover - for annotations only
    from . import hexiom, logic, sigils

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
MUTED = "#6b6b6b"
PAPER = "#ffffff"
#: average advance of a character of FONT, in font sizes (DejaVu Sans is wide; erring wide keeps text inside)
CHAR_WIDTH = 0.62
MARGIN = 14
CAPTION_SIZE = 13

#: Hexiom tile colours by number, light enough for dark digits.
TILE_COLOURS = ("#e3e9f0", "#c6dbef", "#9ecae1", "#a1d99b", "#fdd49e", "#fdae6b", "#fc9272")
BOARD = "#d9d2c3"
EMPTY_CELL = "#f5f2eb"
BLOCKED_CELL = "#4a4a4a"

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

#: Logic grid shading: header, alternate rows, the asked-about column.
HEADER_FILL = "#e6e0d3"
STRIPE_FILL = "#f7f4ee"
ASKED_FILL = "#fff1b8"


def _library() -> Any:
    import drawsvg

    return drawsvg


def _text(draw: Any, text: str, size: float, x: float, y: float, anchor: str = "middle", **style: Any) -> Any:
    """Text centred vertically on y (a baseline shift, since renderers differ on dominant-baseline)."""
    return draw.Text(
        text, size, x, y + 0.36 * size, text_anchor=anchor, font_family=FONT, fill=style.pop("fill", INK), **style
    )


def _text_width(text: str, size: float, bold: bool = False) -> float:
    return CHAR_WIDTH * size * len(text) * (1.12 if bold else 1.0)


def _caption_lines(lines: Sequence[str], width: float) -> list[str]:
    """Wrap caption lines to the picture's width."""
    columns = max(20, int(width / (CHAR_WIDTH * CAPTION_SIZE)))
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(textwrap.wrap(line, columns) or [""])
    return wrapped


class _Canvas:
    """Elements placed in picture coordinates; the drawing's size is known only at the end."""

    def __init__(self) -> None:
        self.draw = _library()
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
                _text(self.draw, line, CAPTION_SIZE, left, y - CAPTION_SIZE * 0.5, anchor="start", fill=fill),
                left + _text_width(line, CAPTION_SIZE),
                y,
            )

    def svg(self, title: str) -> str:
        width, height = math.ceil(self.right + MARGIN), math.ceil(self.bottom + MARGIN)
        drawing = self.draw.Drawing(width, height)
        drawing.append(self.draw.Rectangle(0, 0, width, height, fill=PAPER))
        drawing.extend(self.elements)
        drawing.append_title(title)
        return drawing.as_svg()


# ------------------------------------------------------------------ Hexiom


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
    canvas: _Canvas, x: float, y: float, radius: float, value: int | None, locked: bool, blocked: bool
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
        cell.append(_text(draw, str(value), radius * 0.62, x, y + radius * 0.12, font_weight="bold"))
    else:
        cell.append(_hexagon(draw, x, y, inner, fill=TILE_COLOURS[value], stroke="#7d7768", stroke_width=1.2))
        cell.append(_text(draw, str(value), radius * 0.72, x, y, font_weight="bold"))
    canvas.add(cell, x + radius, y + radius)


def hexiom_svg(level: hexiom.Level, solution: hexiom.Solution | None = None, radius: float = 30.0) -> str:
    """The board as hexagons: tiles coloured by number, locked tiles with a dark rim and a
    padlock, blocked cells dark with a cross.  Without a solution: the locked and blocked
    cells, and the tiles still to place drawn underneath."""
    canvas = _Canvas()
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


def _tile_tray(canvas: _Canvas, level: hexiom.Level, radius: float) -> None:
    """The movable tiles of an unsolved level, one small tile per number with its count."""
    draw = canvas.draw
    y = canvas.bottom + 14 + radius
    x = MARGIN + radius
    canvas.add(_text(draw, "to place:", CAPTION_SIZE, MARGIN, y, anchor="start", fill=MUTED), MARGIN + 70, y)
    x += 70
    for number, count in enumerate(level.movable_counts):
        if not count:
            continue
        _hex_cell(canvas, x, y, radius, number, False, False)
        label = f"×{count}"
        canvas.add(
            _text(draw, label, CAPTION_SIZE, x + radius + 3, y, anchor="start"),
            x + radius + 3 + _text_width(label, CAPTION_SIZE),
            y + radius,
        )
        x += 2 * radius + 14 + _text_width(label, CAPTION_SIZE)


def _hexiom_caption(level: hexiom.Level, solution: hexiom.Solution | None) -> str:
    name = level.name or f"side {level.side}"
    marks = []
    if level.locked_tiles:
        marks.append(f"{len(level.locked_tiles)} locked (padlock)")
    if level.blocked_cells:
        marks.append(f"{len(level.blocked_cells)} blocked (dark)")
    state = ", solved" if solution is not None else ""
    return f"Hexiom {name}{state}: {level.tile_total} tiles" + (", " + ", ".join(marks) if marks else "")


# ------------------------------------------------------------------ sigils


def _piece_colours(level: sigils.Level) -> dict[str, str]:
    return {piece.name: PIECE_COLOURS[i % len(PIECE_COLOURS)] for i, piece in enumerate(level.pieces)}


def _draw_pieces(
    canvas: _Canvas,
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
            _text(draw, names[piece], size * 0.5, left + (c + 0.5) * size, top + (r + 0.5) * size, font_weight="bold"),
            right,
            bottom,
        )


def sigils_svg(level: sigils.Level, solution: sigils.Solution | None = None, size: float = 36.0) -> str:
    """The frame with each piece filled in its type's colour, walls between pieces and the
    piece's letter.  Without a solution: the empty frame and the pieces to place."""
    canvas = _Canvas()
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


def _piece_tray(canvas: _Canvas, level: sigils.Level, colours: dict[str, str], size: float) -> None:
    """Each piece type drawn small, with its count, in rows under the frame."""
    draw = canvas.draw
    row_width = max(canvas.right - MARGIN, 240.0)
    x, top, row_height = MARGIN, canvas.bottom + 14, 0.0
    for piece, count in zip(level.pieces, level.piece_counts):
        height = 1 + max(r for r, _ in piece.shape)
        width = 1 + max(c for _, c in piece.shape)
        label = piece.name + (f" ×{count}" if count > 1 else "")
        span = width * size + 4 + _text_width(label, CAPTION_SIZE)
        if x > MARGIN and x + span > MARGIN + row_width:
            x, top, row_height = MARGIN, top + row_height + 12, 0.0
        cells = set(piece.shape)
        owner = [0 if (r, c) in cells else None for r in range(height) for c in range(width)]
        _draw_piece_cells(canvas, x, top, size, width, height, owner, colours[piece.name])
        canvas.add(
            _text(draw, label, CAPTION_SIZE, x + width * size + 4, top + height * size / 2, anchor="start"),
            x + span,
            top + height * size,
        )
        x += span + 14
        row_height = max(row_height, height * size)


def _draw_piece_cells(
    canvas: _Canvas,
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


# ------------------------------------------------------------------ logic grids


def _table(
    canvas: _Canvas,
    top: float,
    rows: Sequence[Sequence[str]],
    size: float,
    fills: dict[tuple[int, int], str] | None = None,
    bold: Iterable[tuple[int, int]] = (),
) -> None:
    """Rows of text cells; row 0 and column 0 are headings."""
    draw = canvas.draw
    fills = fills or {}
    bold = set(bold)
    pad, height = size * 0.7, size * 2.0
    columns = max(len(row) for row in rows)
    widths = [
        max((_text_width(row[i], size, bold=True) for row in rows if i < len(row)), default=0) + 2 * pad
        for i in range(columns)
    ]
    right = MARGIN + sum(widths)
    for r, row in enumerate(rows):
        y = top + r * height
        band = HEADER_FILL if r == 0 else STRIPE_FILL if r % 2 == 0 else PAPER
        canvas.add(draw.Rectangle(MARGIN, y, sum(widths), height, fill=band), right, y + height)
        x = MARGIN
        for c, text in enumerate(row):
            if (r, c) in fills:
                canvas.add(draw.Rectangle(x, y, widths[c], height, fill=fills[r, c]), right, y + height)
            weight = "bold" if r == 0 or c == 0 or (r, c) in bold else "normal"
            canvas.add(
                _text(draw, text, size, x + pad, y + height / 2, anchor="start", font_weight=weight),
                x + widths[c],
                y + height,
            )
            x += widths[c]
    line = {"stroke": "#b9b09d", "stroke_width": 1}
    bottom = top + len(rows) * height
    for r in range(len(rows) + 1):
        canvas.add(draw.Line(MARGIN, top + r * height, right, top + r * height, **line), right, bottom)
    x = MARGIN
    for width in [0.0] + widths:
        x += width
        canvas.add(draw.Line(x, top, x, bottom, **line), right, bottom)


def logic_svg(
    level: logic.Level, solution: logic.Solution | None = None, notes: Sequence[str] = (), size: float = 14.0
) -> str:
    """The solved grid as a table (positions as columns, categories as rows), the asked-about
    value's column shaded and the answer in bold, ``notes`` underneath (the answers).  Without a
    solution: the categories with their values, and ``notes`` (the clues).  The words come from
    ``logic.picture``, so that this module never imports the family it draws."""
    canvas = _Canvas()
    title = level.title or level.name or "logic grid"
    canvas.add(
        _text(canvas.draw, title, size * 1.15, MARGIN, MARGIN + size * 0.6, anchor="start", font_weight="bold"),
        MARGIN + _text_width(title, size * 1.15),
        MARGIN + size * 1.2,
    )
    top = canvas.bottom + size * 0.8
    if solution is None:
        rows = [["category", "values"]] + [[c.name, ", ".join(c.values)] for c in level.categories]
        _table(canvas, top, rows, size)
        canvas.caption(list(notes), fill=INK)
        return canvas.svg(f"{title}: {len(level.clues)} clues")
    n = level.positions
    rows = [[""] + [str(p) for p in range(1, n + 1)]]
    for c, category in enumerate(level.categories):
        at = {p: category.values[v] for v, p in enumerate(solution.positions[c])}
        rows.append([category.name] + [at.get(p, "?") for p in range(1, n + 1)])
    fills: dict[tuple[int, int], str] = {}
    bold: list[tuple[int, int]] = []
    for question in level.questions:
        column = solution.position(question.value)
        for r in range(len(rows)):
            fills[r, column] = ASKED_FILL
        bold.append((question.value.category + 1, column))
        if question.category is not None:
            bold.append((question.category + 1, column))
    _table(canvas, top, rows, size, fills, bold)
    if notes:
        canvas.caption(list(notes), fill=INK)
    return canvas.svg(f"{title}, solved")


# ------------------------------------------------------------------ files


def save(svg: str, path: str) -> None:
    """Write a picture as .svg, or as .png (needs cairosvg: ``pip install 'trisolve[png]'``)."""
    kind = os.path.splitext(path)[1].lower()
    if kind == ".svg":
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(svg)
    elif kind == ".png":
        png = to_png(svg)
        with open(path, "wb") as handle:
            handle.write(png)
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
