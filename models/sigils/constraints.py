"""A sigil packing as a constraint model (``trisolve.constraints``).

One Boolean per way to put a piece *type* on the frame (never per copy:
equal pieces are interchangeable, so a tiling is one assignment).  Those
are the puzzle's own variables.  The rules: every cell of the frame is
covered by exactly one chosen placement, and each type is placed exactly as
many times as the level lists it.  A search hint: placements are decided by
their first cell, in reading order.  A level that plainly has no solution
(the areas differ, a piece fits nowhere) is one empty clause naming why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import Level, Solution, frame_placements

if TYPE_CHECKING:
    from ...constraints import Assignment, Model

#: The kinds of constraint the model uses (a type placed once is an exactly-one, more often a cardinality).
KINDS = frozenset({"exactly_one", "exactly_k"})


def cell_name(level: Level, cell: int) -> str:
    row, col = level.row_col(cell)
    return f"row {row + 1}, column {col + 1}"


def constraints(level: Level) -> Model:
    from ...constraints import Model

    model = Model(f"sigils {level.name}".strip())
    if level.obstruction:
        model.exactly(1, [], label=level.obstruction)
        model.decode_with(lambda values: Solution(()))
        return model

    place = {p: model.boolean(("place", *p), own=True) for p in frame_placements(level)}
    for (name, cells), var in place.items():
        where = ", ".join("r{}c{}".format(*(i + 1 for i in level.row_col(cell))) for cell in cells)
        said = f"the {name} on {where}"
        model.named(("place", name, cells), said)
        model.say(var, f"{said} is placed", f"{said} is not placed")

    # Every cell is covered by exactly one chosen placement.
    covering: dict[int, list[int]] = {cell: [] for cell in range(level.cell_count)}
    for (_, cells), var in place.items():
        for cell in cells:
            covering[cell].append(var)
    for cell, options in covering.items():
        model.exactly(1, options, label=f"the cell at {cell_name(level, cell)} is covered once")

    # Each piece type is placed as many times as the level lists it.
    for piece, count in zip(level.pieces, level.piece_counts):
        of_type = [var for (name, _), var in place.items() if name == piece.name]
        times = "once" if count == 1 else f"{count} times"
        model.exactly(count, of_type, label=f"the piece {piece.name} is placed {times}", role="clue")

    # A search hint, no rule: placements decided by their first cell in reading order, placing before
    # refusing, like a tiler filling the frame from its top-left corner (the hand translators' order).
    in_order = sorted(place, key=lambda p: (p[1][0], level.type_index[p[0]], p[1]))
    model.prefer([place[p] for p in in_order], rank=[-p[1][0] for p in in_order])

    where = {var: p for p, var in place.items()}

    def decode(values: Assignment) -> Solution:
        return Solution.of(where[var] for var in where if values[var])

    model.decode_with(decode)
    return model
