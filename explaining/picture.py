"""A step as an SVG picture: the table of facts after it (one row per variable of the puzzle, one column per
value), the new fact highlighted, the facts it used outlined, and the units it used named above.

It is a table of the model's own variables, the same for every family (a
logic grid's classic grid of ticks and crosses; for a board, one row per
cell): what is known after the step, and why the step holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from ..constraints import Model
from .steps import Step
from .units import Words, key_text

CELL = 22
LEFT = 220


def _rows(model: Model) -> list[tuple[str, list[tuple[str, int]]]]:
    """(variable name, [(value text, literal)]) for each integer of own literals, then each own Boolean."""
    own = set(model.own)
    rows = []
    covered: set[int] = set()
    for variable in model.ints:
        if all(lit in own for lit in variable.literals):
            rows.append((key_text(variable.key), [(str(v), lit) for v, lit in zip(variable.values, variable.literals)]))
            covered |= set(variable.literals)
    for var in model.own:
        if var not in covered:
            rows.append((key_text(model.keys[var - 1]), [("", var)]))
    return rows


def step_svg(model: Model, steps: Sequence[Step], number: int, start: Iterable[int] = ()) -> str:
    """The picture of step ``number`` (1-based) of ``steps``: every fact known after it (``start``: the facts
    known before the first step)."""
    step = steps[number - 1]
    known = set(start) | {s.fact for s in steps[:number]}
    used = set(step.facts)
    rows = _rows(model)
    width = LEFT + CELL * max((len(values) for _, values in rows), default=1) + 20
    words = Words(model)
    header = [f"step {number}: {words.fact(step.fact)}", *(f"by: {unit.label}" for unit in step.units)]
    if step.facts:
        header.append(f"with {len(step.facts)} known fact{'s' if len(step.facts) > 1 else ''} (outlined)")
    width = max(width, 20 + 7 * max(len(line) for line in header))
    top = 20 + 18 * len(header) + 20
    height = top + CELL * len(rows) + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
        'font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for i, line in enumerate(header):
        parts.append(f'<text x="10" y="{24 + 18 * i}" font-weight="bold">{escape(line[:200])}</text>')
    for r, (name, values) in enumerate(rows):
        y = top + r * CELL
        parts.append(f'<text x="10" y="{y + 15}">{escape(name[:34])}</text>')
        for c, (text, literal) in enumerate(values):
            x = LEFT + c * CELL
            mark, fill = "", "white"
            if literal in known:
                mark = "✓"
            elif -literal in known:
                mark = "✗"
            if abs(step.fact) == literal:
                fill = "#ffd54f"  # the fact this step derives
            stroke = "#d32f2f" if (literal in used or -literal in used) else "#999"
            width_ = 3 if stroke != "#999" else 1
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="{stroke}" '
                f'stroke-width="{width_}"/>'
            )
            if mark:
                parts.append(f'<text x="{x + CELL / 2}" y="{y + 16}" text-anchor="middle">{mark}</text>')
            elif text:
                parts.append(
                    f'<text x="{x + CELL / 2}" y="{y + 15}" text-anchor="middle" font-size="9" fill="#999">'
                    f"{escape(text)}</text>"
                )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
