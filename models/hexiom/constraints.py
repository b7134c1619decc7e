"""Hexiom's rules as a constraint model, for every backend that compiles one (``trisolve.constraints``).

What is on each open cell is a small integer: ``EMPTY`` or the number of
the tile there.  Those integers are the puzzle's own variables; a cell is
occupied when it is not ``EMPTY``.  The rules, each labelled in the
puzzle's words:

* every tile of the level is placed (as many cells hold d as there are tiles d);
* a locked tile stays where it is (a given);
* a tile numbered d has exactly d occupied neighbours;
* implied by the first, and stated for the search: as many cells are
  occupied as there are tiles (without it a compiled CNF took 30x longer on
  level 36 and could not count level 38 in two minutes).

The level's symmetries are stated as permutations of the cells' values, so
that a compiler may look for a first solution among lex-leaders only.  A
search hint for counting: occupancy is decided first, in reading order.

Blocked cells get no variable: they are never occupied.  A cell's domain
leaves out the numbers it cannot hold (a tile d needs d open neighbours,
and a number all of whose tiles are locked elsewhere), which the rules
imply anyway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import MAX_TILE, Level, Solution

if TYPE_CHECKING:
    from ...constraints import Assignment, Model

#: The value of an empty cell.
EMPTY = -1
#: The kinds of constraint the model uses (the registry reads this without building a model).
KINDS = frozenset({"unit", "exactly_one", "exactly_k", "cardinality"})


def cell_name(level: Level, cell: int) -> str:
    """A cell as a player names it: its row from the top and its place in the row, from 1."""
    for r, row in enumerate(level.board.rows):
        if cell in row:
            return f"row {r + 1}, place {row.index(cell) + 1}"
    raise ValueError(f"no cell {cell}")


def constraints(level: Level) -> Model:
    from ...constraints import Model

    board = level.board
    model = Model(f"hexiom {level.name}".strip())
    open_cells = [c for c in range(board.size) if c not in level.blocked_cells]
    neighbours = {c: [n for n in board.neighbours[c] if n not in level.blocked_cells] for c in open_cells}

    # What is on each open cell: nothing, or one tile whose number its open neighbours can satisfy.
    contents = {}
    for c in open_cells:
        if c in level.locked:
            numbers = (level.locked[c],)
        else:
            numbers = tuple(d for d in range(min(MAX_TILE, len(neighbours[c])) + 1) if level.movable_counts[d] > 0)
        name = f"the cell at {cell_name(level, c)}"
        contents[c] = model.integer(("cell", c), (EMPTY, *numbers), own=True, label=f"{name} holds one tile or none")
        model.named(("cell", c), name)
        for value, literal in zip(contents[c].values, contents[c].literals):
            if value == EMPTY:
                model.say(literal, f"{name} is empty", f"{name} is not empty")
            else:
                model.say(literal, f"{name} holds a {value}", f"{name} does not hold a {value}")

    # A locked tile stays where it is.
    for cell, number in level.locked_tiles:
        model.fix(contents[cell].eq(number), label=f"the locked {number} at {cell_name(level, cell)}", role="given")

    # Every tile is placed: exactly tile_counts[d] cells hold the number d.
    for d in range(MAX_TILE + 1):
        holding = [contents[c].eq(d) for c in open_cells if d in contents[c].values]
        if holding or level.tile_counts[d]:
            tiles = "tile" if level.tile_counts[d] == 1 else "tiles"
            model.exactly(
                level.tile_counts[d], holding, label=f"{level.tile_counts[d]} {tiles} numbered {d}", role="clue"
            )

    # Implied, for the search: as many cells are occupied as there are tiles.
    model.exactly(
        level.tile_total,
        [-contents[c].eq(EMPTY) for c in open_cells],
        label=f"{level.tile_total} cells are occupied, one per tile",
    )

    # A tile numbered d has exactly d occupied neighbours.
    for c in open_cells:
        occupied_neighbours = [-contents[n].eq(EMPTY) for n in neighbours[c]]
        for d in contents[c].values:
            if d != EMPTY:
                model.exactly(
                    d,
                    occupied_neighbours,
                    enforce=[contents[c].eq(d)],
                    label=f"a {d} at {cell_name(level, c)} has {d} occupied neighbours",
                )

    # A search hint for counting, no rule: decide occupancy first, cell by cell in reading order, occupied
    # before empty (the numbers then follow by propagation; the hand translators' order for enumeration).
    model.prefer([-contents[c].eq(EMPTY) for c in open_cells], counting=True)

    # The level's symmetries (turns and mirrors that keep its blocked cells and locked tiles): a solution turned
    # is a solution, so a compiler may search among lex-leaders for a first one.
    for perm in level.symmetries:
        if any(perm[c] != c for c in open_cells):
            model.symmetry(
                {
                    lit: contents[perm[c]].eq(v)
                    for c in open_cells
                    for v, lit in zip(contents[c].values, contents[c].literals)
                }
            )

    def decode(values: Assignment) -> Solution:
        cells: list[int | None] = [None] * board.size
        for c, variable in contents.items():
            value = values.value(variable)
            cells[c] = None if value == EMPTY else value
        return Solution(tuple(cells))

    model.decode_with(decode)
    return model
