"""Slitherlink's rules as a constraint model, for every backend that compiles one (``trisolve.constraints``).

An edge of the grid is on the loop or not: one Boolean per edge, the
puzzle's own variables (numbered as ``Level.edges`` lists the edges).  The
rules, each labelled in the puzzle's words:

* the chosen edges form one loop (a single cycle over the grid's points:
  every point passed twice or not at all, all of it one piece, at least one
  edge);
* a number in a cell counts the sides of the cell on the loop.

A clue without its number (``?``) states nothing.  The level's turns and
mirrors that keep every clue are stated as permutations of the edges.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import Level, Solution

if TYPE_CHECKING:
    from ...constraints import Assignment, Model

#: The kinds of constraint the model uses (the registry reads this without building a model): a clue 1 is an
#: exactly-one, any other number an exactly-k.
KINDS = frozenset({"exactly_one", "exactly_k", "single_cycle"})


def cell_name(row: int, col: int) -> str:
    """A cell as a player names it, from 1."""
    return f"row {row + 1}, column {col + 1}"


def side_name(level: Level, a: tuple[int, int], b: tuple[int, int]) -> str:
    """An edge between two points of the grid, as the side of a cell: "the top of row 1, column 2" (the cell
    below or to the right of it, where there is one)."""
    (row, col), (row2, col2) = sorted((a, b))
    if row == row2:  # across
        if row < level.height:
            return f"the top of {cell_name(row, col)}"
        return f"the bottom of {cell_name(row - 1, col)}"
    if col < level.width:
        return f"the left of {cell_name(row, col)}"
    return f"the right of {cell_name(row, col - 1)}"


def constraints(level: Level) -> Model:
    from ...constraints import Model

    model = Model(f"slither {level.name}".strip())
    edges = level.edges
    line = [model.boolean(("edge", a, b), own=True) for a, b in edges]
    for (a, b), literal in zip(edges, line):
        side = side_name(level, a, b)
        model.named(("edge", a, b), side)
        model.say(literal, f"{side} is on the loop", f"{side} is not on the loop")

    # One loop along the grid lines.
    columns = level.width + 1
    model.single_cycle(
        (level.height + 1) * columns,
        ((a[0] * columns + a[1], b[0] * columns + b[1], line[e]) for e, (a, b) in enumerate(edges)),
        label="the lines form one loop",
    )

    # A number counts the sides of its cell on the loop.
    index = level.edge_index
    for row, col, number in level.numbered:
        model.exactly(
            number,
            [line[index[side]] for side in level.sides(row, col)],
            label=f"the {number} at {cell_name(row, col)}",
            role="clue",
        )

    # The turns and mirrors that keep every clue.
    for perm in level.symmetries[1:]:
        model.symmetry({line[e]: line[perm[e]] for e in range(len(edges))})

    def decode(values: Assignment) -> Solution:
        return Solution.of(edge for edge, literal in zip(edges, line) if values[literal])

    model.decode_with(decode)
    return model
