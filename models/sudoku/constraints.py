"""Sudoku's rules as a constraint model, for every backend that compiles one (``trisolve.constraints``).

Each cell holds a digit 1..N: one integer per cell, the puzzle's own
variables.  The rules, each labelled in the puzzle's words:

* every row, every column and every box holds each digit once
  (all-different over N cells and N digits);
* a given digit stays (a given).

Nothing but exactly-ones, units and all-different: exact cover takes the
model too.  The level's turns and mirrors that map boxes onto boxes and
keep every given are stated as permutations of the cells' digits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import Level, Solution

if TYPE_CHECKING:
    from ...constraints import Assignment, Model

#: The kinds of constraint the model uses (the registry reads this without building a model).
KINDS = frozenset({"unit", "exactly_one", "all_different"})


def cell_name(row: int, col: int) -> str:
    """A cell as a player names it, from 1."""
    return f"row {row + 1}, column {col + 1}"


def constraints(level: Level) -> Model:
    from ...constraints import Model

    n = level.size
    model = Model(f"sudoku {level.name}".strip())
    digits = range(1, n + 1)
    cell = {
        (r, c): model.integer(("cell", r, c), digits, own=True, label=f"the cell at {cell_name(r, c)} holds one digit")
        for r in range(n)
        for c in range(n)
    }
    for (r, c), variable in cell.items():
        for digit, literal in zip(variable.values, variable.literals):
            name = f"the cell at {cell_name(r, c)}"
            model.say(literal, f"{name} holds {digit}", f"{name} does not hold {digit}")
        model.named(variable.key, f"the cell at {cell_name(r, c)}")

    # A given digit stays.
    for row, col, digit in level.given_cells:
        model.fix(cell[row, col].eq(digit), label=f"the given {digit} at {cell_name(row, col)}", role="given")

    # Each row, column and box holds each digit once.
    for r in range(n):
        model.all_different([cell[r, c] for c in range(n)], label=f"row {r + 1} holds each digit once")
    for c in range(n):
        model.all_different([cell[r, c] for r in range(n)], label=f"column {c + 1} holds each digit once")
    boxes: dict[int, list] = {}
    for (r, c), variable in cell.items():
        boxes.setdefault(level.box_of(r, c), []).append(variable)
    for box, members in sorted(boxes.items()):
        model.all_different(members, label=f"box {box + 1} holds each digit once")

    # The turns and mirrors that map boxes onto boxes and keep every given.
    for perm in level.symmetries[1:]:
        model.symmetry({cell[divmod(i, n)].eq(d): cell[divmod(perm[i], n)].eq(d) for i in range(n * n) for d in digits})

    def decode(values: Assignment) -> Solution:
        return Solution(tuple(tuple(values.value(cell[r, c]) for c in range(n)) for r in range(n)))

    model.decode_with(decode)
    return model
