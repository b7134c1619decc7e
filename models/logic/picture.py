"""A logic grid as an SVG table: the categories and clues, or the solved grid with the question's answer."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..pictures import INK, MARGIN, PAPER, Canvas, draw_text, text_width
from .model import Level, Solution, answer, clue_words, question_words

#: Logic grid shading: header, alternate rows, the asked-about column.
HEADER_FILL = "#e6e0d3"
STRIPE_FILL = "#f7f4ee"
ASKED_FILL = "#fff1b8"


def _table(
    canvas: Canvas,
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
        max((text_width(row[i], size, bold=True) for row in rows if i < len(row)), default=0) + 2 * pad
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
                draw_text(draw, text, size, x + pad, y + height / 2, anchor="start", font_weight=weight),
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


def picture(level: Level, solution: Solution | None = None) -> str:
    """The puzzle as an SVG table: with a solution, the answers under it; without, the clues."""
    if solution is None:
        notes = [f"{i + 1}. {clue_words(level, clue)}" for i, clue in enumerate(level.clues)]
        notes += [f"? {question_words(level, q)}" for q in level.questions]
    else:
        notes = answer(level, solution).splitlines()
    return _grid(level, solution, notes)


def _grid(level: Level, solution: Solution | None, notes: Sequence[str], size: float = 14.0) -> str:
    """The solved grid as a table (positions as columns, categories as rows), the asked-about
    value's column shaded and the answer in bold, ``notes`` underneath (the answers).  Without a
    solution: the categories with their values, and ``notes`` (the clues)."""
    canvas = Canvas()
    title = level.title or level.name or "logic grid"
    canvas.add(
        draw_text(canvas.draw, title, size * 1.15, MARGIN, MARGIN + size * 0.6, anchor="start", font_weight="bold"),
        MARGIN + text_width(title, size * 1.15),
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
