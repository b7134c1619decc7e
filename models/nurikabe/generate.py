"""Nurikabe levels built around a shading drawn first.

The shading starts with every cell shaded; cells are unshaded at random,
first inside 2x2 blocks still all shaded, then anywhere, each only when the
shaded cells stay connected and the island it joins stays within the size
asked for, until no block is all shaded and about ``white`` of the cells
are unshaded.  Each island then shows its size in one of its cells, chosen
at random.  That is a level whose intended shading is a solution.

Nurikabe has no clue to take away (every island shows exactly one), so for
a unique level the shading itself is mended where a second solution
differs from it: a cell shaded in the intended solution but not in the
other becomes an island of 1 of its own, or joins the one island beside
it; a cell unshaded in the intended solution but shaded in the other is
shaded, when its island stays in one piece.  Each mend keeps the intended
shading a solution and rules the other one out; the solutions are counted
again until one is left (``counter``, handed in by the layer above: the
models import no solver), or the shading is drawn again.
"""

from __future__ import annotations

import random

from .. import grids
from ..family import Generated, Request
from . import model as nurikabe
from .model import Cell, Level, Solution

#: The share of the cells left unshaded, by default.
WHITE = 0.45
#: The largest island, by default.
ISLAND = 8
#: Mends tried on one shading before another is drawn, and shadings drawn before giving up.
MENDS, DRAWS = 60, 5
#: How far from where two solutions differ an island of 1 is made to tell them apart.
NEAR = 3


class _Grid:
    """The shading being drawn: the shaded cells and the clue cells (one per island)."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [(r, c) for r in range(height) for c in range(width)]
        self.shaded: set[Cell] = set(self.cells)
        self.clue_cells: set[Cell] = set()

    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        near = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        return [(a, b) for a, b in near if 0 <= a < self.height and 0 <= b < self.width]

    def joined(self, cells: set[Cell]) -> bool:
        """Whether ``cells`` are one piece (none is one piece too)."""
        if not cells:
            return True
        start = next(iter(cells))
        seen, todo = {start}, [start]
        while todo:
            for near in self.neighbours(todo.pop()):
                if near in cells and near not in seen:
                    seen.add(near)
                    todo.append(near)
        return len(seen) == len(cells)

    def island_of(self, cell: Cell) -> set[Cell]:
        """The unshaded cells joined to ``cell``."""
        seen, todo = {cell}, [cell]
        while todo:
            for near in self.neighbours(todo.pop()):
                if near not in self.shaded and near not in seen:
                    seen.add(near)
                    todo.append(near)
        return seen

    def pools(self) -> list[Cell]:
        """The cells of 2x2 blocks all shaded."""
        found: set[Cell] = set()
        for r in range(self.height - 1):
            for c in range(self.width - 1):
                block = {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)}
                if block <= self.shaded:
                    found |= block
        return sorted(found)

    def makes_pool(self, cell: Cell) -> bool:
        """Whether shading ``cell`` would make a 2x2 block all shaded."""
        r, c = cell
        for dr in (-1, 0):
            for dc in (-1, 0):
                block = {(r + dr, c + dc), (r + dr + 1, c + dc), (r + dr, c + dc + 1), (r + dr + 1, c + dc + 1)}
                inside = all(0 <= a < self.height and 0 <= b < self.width for a, b in block)
                if inside and block - {cell} <= self.shaded:
                    return True
        return False

    def islands_beside(self, cell: Cell) -> list[set[Cell]]:
        found: list[set[Cell]] = []
        for near in self.neighbours(cell):
            if near not in self.shaded and not any(near in island for island in found):
                found.append(self.island_of(near))
        return found

    def may_unshade(self, cell: Cell, largest: int) -> bool:
        """Unshading keeps the shaded cells in one piece, and the island the cell makes (with every island
        beside it) within ``largest`` and with at most one clue."""
        beside = self.islands_beside(cell)
        if 1 + sum(len(island) for island in beside) > largest:
            return False
        if sum(len(island & self.clue_cells) for island in beside) > 1:
            return False
        return self.joined(self.shaded - {cell})

    def level(self, name: str = "") -> Level:
        clues: list[int | None] = [None] * (self.width * self.height)
        for cell in self.clue_cells:
            clues[cell[0] * self.width + cell[1]] = len(self.island_of(cell))
        return Level(self.width, self.height, tuple(clues), name)


def random_shading(width: int, height: int, rng: random.Random, white: float, largest: int) -> _Grid | None:
    """A shading with one clue cell per island (see the module docstring), or None when a 2x2 block stays all
    shaded (no cell of it can be unshaded)."""
    grid = _Grid(width, height)
    target = round(white * width * height)
    refused: set[Cell] = set()  # a refusal stands: the islands only grow, the shaded cells only shrink
    while True:
        pools = grid.pools()
        if pools:
            choices = [cell for cell in pools if cell not in refused]
            if not choices:
                return None
        elif len(grid.cells) - len(grid.shaded) < target:
            choices = sorted(cell for cell in grid.shaded if cell not in refused)
            if not choices:
                break
        else:
            break
        cell = rng.choice(choices)
        if grid.may_unshade(cell, largest):
            grid.shaded.discard(cell)
        else:
            refused.add(cell)
    seen: set[Cell] = set()
    for cell in grid.cells:
        if cell not in grid.shaded and cell not in seen:
            island = grid.island_of(cell)
            seen |= island
            grid.clue_cells.add(rng.choice(sorted(island)))
    return grid


def _draw(width: int, height: int, rng: random.Random, white: float, largest: int) -> _Grid:
    for _ in range(100):
        grid = random_shading(width, height, rng, white, largest)
        if grid is not None:
            return grid
    raise ValueError(f"no shading of {width}x{height} without a 2x2 block found with islands of at most {largest}")


def mend(grid: _Grid, other: Solution, rng: random.Random) -> bool:
    """Change the intended shading where ``other`` differs from it, so that it stays a solution and ``other``
    is one no more; False when no such change is found (see the module docstring).

    An island of 1 on a shaded cell with no unshaded neighbour rules out every other solution that does not
    leave that cell alone (the other solution, where the cell was shaded or in an island with a clue of its
    own elsewhere, among them), so one is made on such a cell nearest to where the solutions differ.  Failing
    that, a cell of an island that the other shades is shaded (its clue drops by one), or a cell that the other
    leaves unshaded joins the island beside it (its clue grows by one)."""
    theirs = set(other.shaded)
    differ = sorted(grid.shaded ^ theirs)
    rng.shuffle(differ)

    def distance(cell: Cell) -> int:
        return min(abs(cell[0] - d[0]) + abs(cell[1] - d[1]) for d in differ)

    lone = [cell for cell in sorted(grid.shaded) if not grid.islands_beside(cell) and distance(cell) <= NEAR]
    rng.shuffle(lone)
    for cell in sorted(lone, key=distance):
        if grid.joined(grid.shaded - {cell}):
            grid.shaded.discard(cell)
            grid.clue_cells.add(cell)
            return True
    for cell in differ:
        if cell in grid.shaded or cell in grid.clue_cells:
            continue
        # unshaded here, shaded in the other: shade it, when its island stays one piece
        island = grid.island_of(cell) - {cell}
        if grid.makes_pool(cell) or not grid.joined(island):
            continue
        if not any(near in grid.shaded for near in grid.neighbours(cell)) and grid.shaded:
            continue  # it would be a shaded cell alone
        grid.shaded.add(cell)
        return True
    for cell in differ:
        if cell in grid.shaded and len(grid.islands_beside(cell)) == 1 and grid.joined(grid.shaded - {cell}):
            grid.shaded.discard(cell)  # the island beside grows by it
            return True
    return False


def generate(
    request: Request, width: int = 10, height: int = 10, white: float = WHITE, island: int = ISLAND
) -> Generated:
    """One level of ``width`` x ``height`` cells, islands of at most ``island`` cells (mends may grow one past
    it); the same seed always gives the same level.  With ``unique`` the shading is mended until ``counter``
    proves it the only one (drawn again when mending stalls)."""
    seed, counter, unique, name, time = request.seed, request.counter, request.unique, request.name, request.time
    for side in (width, height):
        if not 1 <= side <= nurikabe.MAX_SIDE:
            raise ValueError(f"width and height must be 1..{nurikabe.MAX_SIDE}, not {side}")
    if island < 1:
        raise ValueError(f"island must be 1 or more, not {island}")
    rng = random.Random(f"nurikabe:{width}x{height}:{white}:{island}:{seed}")
    proved, draws, mends = False, 0, 0
    while True:
        draws += 1
        grid = _draw(width, height, rng, white, island)
        if not unique:
            break
        for _ in range(MENDS):
            proved, found = grids.unique_under(counter, grid.level(), time)
            others = [s for s in found if set(s.shaded) != grid.shaded]
            if proved or not others or not mend(grid, others[0], rng):
                break
            mends += 1
        if proved or draws >= DRAWS:
            break
    level = grid.level(name)
    solution = Solution.of(grid.shaded)
    assert not nurikabe.validate(level, solution), "generator bug: the intended shading breaks the rules"
    text = nurikabe.format_level(level)
    info = {
        "width": width,
        "height": height,
        "white": white,
        "island": island,
        "islands": len(grid.clue_cells),
        "unshaded": width * height - len(grid.shaded),
        "draws": draws,
        "mends": mends,
    }
    return Generated("nurikabe", nurikabe.parse_text(text, name=name), text, solution, seed, proved, info)
