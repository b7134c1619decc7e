"""Nurikabe's rules as a constraint model, for every backend that compiles one (``trisolve.constraints``).

A cell without a clue is shaded or not: one Boolean per such cell, the
puzzle's own variables (a clue cell is never shaded and has none).  The
islands are stated through auxiliaries that the shading determines: each
unshaded cell belongs to the island of one clue ("owner" Booleans, one per
clue that can reach the cell).  The rules, each labelled in the puzzle's
words:

* a cell is shaded or belongs to exactly one clue's island;
* unshaded neighbours belong to the same island;
* each island is connected (the clue's cell and the cells it owns);
* a numbered island has exactly that many cells;
* the shaded cells are connected;
* no 2x2 block is all shaded.

An island holding no clue would be owned by a clue it is not joined to
(broken connection), and one holding two clues would have two owners, so
these say every island holds exactly one clue.  Given a valid shading the
owners follow from it (an unshaded cell's owner is the one clue of its
island), so a count of the shadings is a count of the solutions, whatever a
compiler projects on.

A clue owns only the cells its island can reach: within its number of
steps (any for a ``?``) through cells that are neither another clue nor
next to one (an unshaded cell next to a clue is in that clue's island).  A
cell no clue reaches is shaded.  The level's turns and mirrors that keep
every clue are stated as permutations of the shading.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from .model import UNKNOWN, Level, Solution

if TYPE_CHECKING:
    from ...constraints import Assignment, Model

#: The kinds of constraint the model uses (the registry reads this without building a model).
KINDS = frozenset({"unit", "clause", "exactly_one", "exactly_k", "connected"})


def cell_name(cell: int, level: Level) -> str:
    """A cell as a player names it, from 1."""
    row, col = divmod(cell, level.width)
    return f"row {row + 1}, column {col + 1}"


def _neighbours(level: Level, cell: int) -> list[int]:
    return [level.cell(r, c) for r, c in level.neighbours(*divmod(cell, level.width))]


def reach(level: Level) -> dict[int, list[int]]:
    """Per clue cell, the cells its island can hold (its own first): those within its number less one steps
    (any for a ``?``) through cells that are neither another clue nor next to one."""
    clue_cells = {level.cell(r, c) for r, c, _ in level.clue_cells}
    found: dict[int, list[int]] = {}
    for row, col, clue in level.clue_cells:
        home = level.cell(row, col)
        others = clue_cells - {home}
        barred = others | {n for o in others for n in _neighbours(level, o)}
        limit = level.cell_count if clue == UNKNOWN else clue - 1
        distance = {home: 0}
        todo = deque([home])
        while todo:
            here = todo.popleft()
            if distance[here] >= limit:
                continue
            for near in _neighbours(level, here):
                if near not in distance and near not in barred:
                    distance[near] = distance[here] + 1
                    todo.append(near)
        found[home] = list(distance)
    return found


def constraints(level: Level) -> Model:
    from ...constraints import Model

    model = Model(f"nurikabe {level.name}".strip())
    clues = {level.cell(r, c): clue for r, c, clue in level.clue_cells}
    free = [cell for cell in range(level.cell_count) if cell not in clues]
    shaded = {cell: model.boolean(("shaded", *divmod(cell, level.width)), own=True) for cell in free}
    for cell, literal in shaded.items():
        name = f"the cell at {cell_name(cell, level)}"
        model.named(("shaded", *divmod(cell, level.width)), name)
        model.say(literal, f"{name} is shaded", f"{name} is unshaded")
    reaches = reach(level)
    owns = {
        (home, cell): model.boolean(("island of", *divmod(home, level.width), "holds", *divmod(cell, level.width)))
        for home, cells in reaches.items()
        for cell in cells
    }
    owners: dict[int, list[int]] = {}
    for home, cell in owns:
        owners.setdefault(cell, []).append(home)

    def clue_name(home: int) -> str:
        clue = clues[home]
        return f"the {'?' if clue == UNKNOWN else clue} at {cell_name(home, level)}"

    # A clue's cell is in its own island; any other cell is shaded or in exactly one island.
    for home in clues:
        model.fix(owns[home, home], label=f"{clue_name(home)} is in its own island", role="clue")
    for cell in free:
        choices = [shaded[cell], *(owns[home, cell] for home in owners.get(cell, ()))]
        if len(choices) == 1:
            model.fix(shaded[cell], label=f"the cell at {cell_name(cell, level)} is out of every island's reach")
        else:
            model.exactly(1, choices, label=f"the cell at {cell_name(cell, level)} is shaded or in one island")

    # Unshaded neighbours are in the same island: when a cell is in a clue's island and its neighbour is
    # unshaded, the neighbour is in that island too.  A clue's cell next to another clue's would put both clues
    # in one island: no solution.
    for (home, cell), literal in owns.items():
        for near in _neighbours(level, cell):
            if near in clues and near != home:
                model.clause([-literal], label=f"{clue_name(home)}: unshaded neighbours of its island are in it")
            if near in clues:
                continue  # next to a clue: that clue's island (the reach leaves out every other)
            also = owns.get((home, near))
            model.clause(
                [-literal, shaded[near], *([also] if also else [])],
                label=f"{clue_name(home)}: unshaded neighbours of its island are in it",
            )

    # Each island is connected, and a numbered one has that many cells.
    for home, cells in reaches.items():
        where = {cell: i for i, cell in enumerate(cells)}
        model.connected(
            [owns[home, cell] for cell in cells],
            [(where[a], where[b]) for a in cells for b in _neighbours(level, a) if b in where and a < b],
            label=f"the island of {clue_name(home)} is connected",
        )
        if clues[home] != UNKNOWN:
            model.exactly(
                clues[home],
                [owns[home, cell] for cell in cells],
                label=f"the island of {clue_name(home)} has {clues[home]} cells",
                role="clue",
            )

    # The shaded cells are connected.
    where = {cell: i for i, cell in enumerate(free)}
    model.connected(
        [shaded[cell] for cell in free],
        [(where[a], where[b]) for a in free for b in _neighbours(level, a) if b in where and a < b],
        label="the shaded cells are connected",
    )

    # No 2x2 block is all shaded (a block with a clue cell never is).
    for row in range(level.height - 1):
        for col in range(level.width - 1):
            block = [level.cell(row + dr, col + dc) for dr in (0, 1) for dc in (0, 1)]
            if all(cell in shaded for cell in block):
                model.clause(
                    [-shaded[cell] for cell in block],
                    label=f"the 2x2 block at {cell_name(block[0], level)} is not all shaded",
                )

    # The turns and mirrors that keep every clue.
    for perm in level.symmetries[1:]:
        model.symmetry({shaded[cell]: shaded[perm[cell]] for cell in free})

    def decode(values: Assignment) -> Solution:
        return Solution.of(divmod(cell, level.width) for cell in free if values[shaded[cell]])

    model.decode_with(decode)
    return model
