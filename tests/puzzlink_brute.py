"""Brute force for tiny puzz.link grids, written apart from the models and the ASP rules.

Every candidate is listed, then the rules are checked here, directly:

* slither: every loop of a grid of cells (every simple cycle of its points, found by walking);
* nurikabe: every shading of a grid (2^cells of them; the sea's connection and the 2x2 rule checked once per
  shading, the clues per level);
* sudoku: every filled 4x4 grid (288).

The tests compare these counts with clingo:hand's and check every listed solution with the model's validator.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

Point = tuple[int, int]
Edge = tuple[Point, Point]


# ------------------------------------------------------------------ slither


@cache
def loops(width: int, height: int) -> tuple[frozenset[Edge], ...]:
    """Every single loop along the lines of a width x height grid of cells, as sets of edges ``(a, b)``, a < b."""

    def neighbours(p: Point) -> list[Point]:
        r, c = p
        near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        return [(x, y) for x, y in near if 0 <= x <= height and 0 <= y <= width]

    found: set[frozenset[Edge]] = set()
    points = [(r, c) for r in range(height + 1) for c in range(width + 1)]
    for start in points:
        # cycles whose smallest point is start: walk from it through larger points back to it
        stack: list[tuple[Point, list[Point]]] = [(start, [start])]
        while stack:
            here, path = stack.pop()
            for nb in neighbours(here):
                if nb == start and len(path) >= 4:
                    found.add(frozenset(tuple(sorted(pair)) for pair in zip(path, path[1:] + [start])))
                elif nb > start and nb not in path:
                    stack.append((nb, path + [nb]))
    return tuple(found)


def sides(row: int, col: int) -> tuple[Edge, Edge, Edge, Edge]:
    return (
        ((row, col), (row, col + 1)),
        ((row + 1, col), (row + 1, col + 1)),
        ((row, col), (row + 1, col)),
        ((row, col + 1), (row + 1, col + 1)),
    )


def slither_solutions(width: int, height: int, clues: Sequence[int | None]) -> list[frozenset[Edge]]:
    """The loops whose cells show their clue's number of sides (None: no clue, negative: any number)."""
    numbered = [(divmod(cell, width), clue) for cell, clue in enumerate(clues) if clue is not None and clue >= 0]
    return [
        loop
        for loop in loops(width, height)
        if all(sum(side in loop for side in sides(r, c)) == clue for (r, c), clue in numbered)
    ]


# ------------------------------------------------------------------ nurikabe


def _groups(cells: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    groups, seen = [], set()
    for start in sorted(cells):
        if start in seen:
            continue
        group, todo = {start}, [start]
        seen.add(start)
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    group.add(nb)
                    todo.append(nb)
        groups.append(group)
    return groups


@cache
def seas(width: int, height: int) -> tuple[tuple[frozenset, tuple[frozenset, ...]], ...]:
    """Every shading whose shaded cells are connected and hold no 2x2 block, with its islands."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    found = []
    for bits in range(1 << len(cells)):
        shaded = {cells[i] for i in range(len(cells)) if bits >> i & 1}
        if len(_groups(shaded)) > 1:
            continue
        blocks = ({(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} for r in range(height - 1) for c in range(width - 1))
        if any(block <= shaded for block in blocks):
            continue
        islands = tuple(frozenset(group) for group in _groups(set(cells) - shaded))
        found.append((frozenset(shaded), islands))
    return tuple(found)


def nurikabe_solutions(width: int, height: int, clues: Sequence[int | None]) -> list[frozenset]:
    """The shadings that leave every clue cell unshaded and where every island holds one clue, of its size
    (a negative clue: any size)."""
    at = {divmod(cell, width): clue for cell, clue in enumerate(clues) if clue is not None}
    found = []
    for shaded, islands in seas(width, height):
        ok = not shaded & set(at)
        for island in islands:
            inside = [cell for cell in island if cell in at]
            if len(inside) != 1 or (at[inside[0]] >= 0 and at[inside[0]] != len(island)):
                ok = False
                break
        if ok:
            found.append(shaded)
    return found


# ------------------------------------------------------------------ sudoku


@cache
def sudoku_grids() -> tuple[tuple[int, ...], ...]:
    """Every filled 4x4 sudoku, as 16 digits in reading order (288 of them)."""
    rows = list(itertools.permutations(range(1, 5)))
    found = []
    for grid in itertools.product(rows, repeat=4):
        if any(len({grid[r][c] for r in range(4)}) < 4 for c in range(4)):
            continue
        boxes = [{grid[r][c] for r in range(br, br + 2) for c in range(bc, bc + 2)} for br in (0, 2) for bc in (0, 2)]
        if all(len(box) == 4 for box in boxes):
            found.append(tuple(d for row in grid for d in row))
    return tuple(found)


def sudoku_solutions(givens: Sequence[int | None]) -> list[tuple[int, ...]]:
    return [grid for grid in sudoku_grids() if all(g is None or g == d for g, d in zip(givens, grid))]
