"""Nurikabe levels built around a shading drawn first.

The shading starts with every cell shaded; cells are unshaded at random,
first inside 2x2 blocks still all shaded, then anywhere, each only when the
shaded cells stay connected and the island it joins stays within the size
asked for, until no block is all shaded and about ``white`` of the cells
are unshaded.  Each island then shows its size in one of its cells, chosen
at random.  That is a level whose intended shading is a solution.

A 2x2 block left all shaded that no cell of can be unshaded has the block
around it shaded again and drawn afresh (``REPAIRS`` times at most).

Nurikabe has no clue to take away (every island shows exactly one), so for
a unique level the level is mended where a second solution differs from the
intended shading.  The differences fall into groups (cells touching, corners
too); each group is mended once before counting again, by the first of these
that applies:

* ``move``: the clue of an island moves onto a cell of it the other solution
  shades;
* ``lone``: a cell the other solution leaves unshaded, with no unshaded
  neighbour, becomes an island of 1;
* ``cut``: a cell of an island at or beside a cell the other solution shades
  is shaded; the island shrinks, and a piece it falls into gets a clue of its
  own;
* ``grow``: a cell the other solution leaves unshaded joins the one island
  beside it;
* ``near``: a shaded cell within ``NEAR`` of the group, with no unshaded
  neighbour, becomes an island of 1.

Each keeps the intended shading a solution and rules the other one out (a
clue on a cell it shades, or a clue whose number it no longer matches).  A
cell a mend changed is never changed again, so no mend is undone.  A group
no mend applies to has the block around it drawn afresh; when that fails too
the whole shading is drawn again.  The solutions are counted (``counter``,
handed in by the layer above: the models import no solver) until one is
left, at most ``MENDS`` counts and one per ``PER_MEND`` cells on a shading.
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
#: Counts made on one shading (MENDS, and one more per ``PER_MEND`` cells) before another is drawn, and
#: shadings drawn before giving up.
MENDS, PER_MEND, DRAWS = 60, 15, 40
#: Local redraws of blocks stuck all shaded while one shading is drawn.
REPAIRS = 200
#: The kinds of mend, in the order tried (see ``mend``).
ORDER = ("move", "lone", "cut", "grow", "near")
#: How far past a group of differences no mend can tell apart its block is drawn afresh.
AROUND, REDRAWS = 2, 6
#: Whether every group of differences is mended before counting again (else only the first).
EVERY = True
#: How far from where two solutions differ an island of 1 is made to tell them apart.
NEAR = 3


class _Grid:
    """The shading being drawn: the shaded cells and the clue cells (one per island)."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [(r, c) for r in range(height) for c in range(width)]
        self.shaded: set[Cell] = set(self.cells)
        self.clue_cells: set[Cell] = set()
        self.fixed: set[Cell] = set()  # cells a mend changed, never changed again

    def reshade(self, cell: Cell, radius: int) -> None:
        """Shade every cell within ``radius`` rows and columns of ``cell`` again (drawing, before the clues)."""
        r, c = cell
        self.shaded |= {(a, b) for a, b in self.cells if abs(a - r) <= radius and abs(b - c) <= radius}

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
    """A shading with one clue cell per island (see the module docstring), or None when 2x2 blocks stay all
    shaded after ``REPAIRS`` local redraws."""
    grid = _Grid(width, height)
    target = round(white * width * height)
    refused: set[Cell] = set()  # a refusal stands while the islands only grow and the shaded cells only shrink
    repairs = 0
    while True:
        pools = grid.pools()
        if pools:
            choices = [cell for cell in pools if cell not in refused]
            if not choices:
                if repairs >= REPAIRS:
                    return None
                # a block stuck all shaded: shade the cells around it again and unshade them afresh
                repairs += 1
                grid.reshade(rng.choice(pools), 2 + repairs // 10)
                refused.clear()
                continue
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


def _pieces(grid: _Grid, cells: set[Cell]) -> list[set[Cell]]:
    """``cells`` in orthogonally joined pieces."""
    found: list[set[Cell]] = []
    left = set(cells)
    while left:
        start = min(left)
        piece, todo = {start}, [start]
        while todo:
            for near in grid.neighbours(todo.pop()):
                if near in left and near not in piece:
                    piece.add(near)
                    todo.append(near)
        found.append(piece)
        left -= piece
    return found


def _regions(cells: set[Cell]) -> list[set[Cell]]:
    """``cells`` in groups, two cells in one group when they touch, corners too."""
    found: list[set[Cell]] = []
    left = set(cells)
    while left:
        start = min(left)
        group, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for near in ((r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1)):
                if near in left and near not in group:
                    group.add(near)
                    todo.append(near)
        found.append(group)
        left -= group
    return found


def _clue_of(grid: _Grid, island: set[Cell]) -> Cell:
    return next(iter(island & grid.clue_cells))


def _move(grid: _Grid, white: list[Cell], rng: random.Random) -> str:
    """The clue of an island moves onto a cell of it that the other solution shades."""
    for cell in white:
        clue = _clue_of(grid, grid.island_of(cell))
        if clue not in grid.fixed:
            grid.clue_cells.discard(clue)
            grid.clue_cells.add(cell)
            grid.fixed.add(cell)
            return "move"
    return ""


def _lone(grid: _Grid, cells: list[Cell], rng: random.Random) -> str:
    """A shaded cell with no unshaded neighbour becomes an island of 1."""
    for cell in cells:
        free = cell in grid.shaded and cell not in grid.fixed and not grid.islands_beside(cell)
        if free and grid.joined(grid.shaded - {cell}):
            grid.shaded.discard(cell)
            grid.clue_cells.add(cell)
            grid.fixed.add(cell)
            return "lone"
    return ""


def _near(grid: _Grid, cells: list[Cell], rng: random.Random) -> str:
    """A shaded cell near the differences (both solutions shade it) becomes an island of 1."""
    return "near" if _lone(grid, cells, rng) else ""


def _cut(grid: _Grid, white: list[Cell], rng: random.Random) -> str:
    """A cell of an island that the other solution leaves apart is shaded: the island shrinks, and a piece it
    falls into that lost the clue gets one of its own (on a cell the other solution shades, when it has one)."""
    wanted = set(white)
    for cell in white:
        island = grid.island_of(cell)
        clue = _clue_of(grid, island)
        near = sorted(x for x in island if abs(x[0] - cell[0]) + abs(x[1] - cell[1]) <= 1)
        rng.shuffle(near)
        for spot in near:
            if spot == clue or spot in grid.fixed or grid.makes_pool(spot):
                continue
            if not any(n in grid.shaded for n in grid.neighbours(spot)):
                continue  # it would be a shaded cell alone
            grid.shaded.add(spot)
            grid.fixed.add(spot)
            for piece in _pieces(grid, island - {spot}):
                if clue not in piece:
                    choices = sorted(piece & wanted) or sorted(piece)
                    new = rng.choice(choices)
                    grid.clue_cells.add(new)
                    grid.fixed.add(new)
            return "cut"
    return ""


def _grow(grid: _Grid, black: list[Cell], rng: random.Random) -> str:
    """A shaded cell that the other solution leaves unshaded joins the one island beside it."""
    for cell in black:
        if cell in grid.fixed or len(grid.islands_beside(cell)) != 1:
            continue
        if grid.joined(grid.shaded - {cell}):
            grid.shaded.discard(cell)
            grid.fixed.add(cell)
            return "grow"
    return ""


def redraw(grid: _Grid, region: set[Cell], rng: random.Random, white: float, largest: int) -> bool:
    """Draw the block around ``region`` afresh (``_redraw_block``), trying ``REDRAWS`` times, the block
    growing by a cell each way every second try; False when every try failed."""
    return any(_redraw_block(grid, region, rng, white, largest, AROUND + tried // 2) for tried in range(REDRAWS))


def _redraw_block(grid: _Grid, region: set[Cell], rng: random.Random, white: float, largest: int, around: int) -> bool:
    """Draw the block around ``region`` (``around`` cells past it each way) afresh: its cells shaded, then
    unshaded at random as in ``random_shading``, never joining an island a mend made; islands left without a
    clue get one.  False (the grid unchanged) when a 2x2 block stays all shaded."""
    rows = [cell[0] for cell in region]
    cols = [cell[1] for cell in region]
    window = {
        (r, c)
        for r, c in grid.cells
        if min(rows) - around <= r <= max(rows) + around and min(cols) - around <= c <= max(cols) + around
    }
    saved = (set(grid.shaded), set(grid.clue_cells), set(grid.fixed))
    grid.shaded |= window
    grid.clue_cells -= window
    grid.fixed -= window
    target = round(white * len(window))
    refused: set[Cell] = set()
    while True:
        pools = [cell for cell in grid.pools() if cell in window]
        if pools:
            choices = [cell for cell in pools if cell not in refused]
            if not choices:
                grid.shaded, grid.clue_cells, grid.fixed = saved
                return False
        elif len(window - grid.shaded) < target:
            choices = sorted(cell for cell in window & grid.shaded if cell not in refused)
            if not choices:
                break
        else:
            break
        cell = rng.choice(choices)
        mended = any(island & grid.fixed for island in grid.islands_beside(cell))
        if not mended and grid.may_unshade(cell, largest):
            grid.shaded.discard(cell)
        else:
            refused.add(cell)
    seen: set[Cell] = set()
    for cell in sorted(set(grid.cells) - grid.shaded):
        if cell not in seen:
            island = grid.island_of(cell)
            seen |= island
            if not island & grid.clue_cells:
                grid.clue_cells.add(rng.choice(sorted(island)))
    return True


_WAYS = {"move": _move, "lone": _lone, "cut": _cut, "grow": _grow, "near": _near}


def mend(grid: _Grid, other: Solution, rng: random.Random) -> tuple[list[str], list[set[Cell]]]:
    """Change the level where ``other`` differs from the intended shading, so that the intended shading stays a
    solution and ``other`` is one no more; the kinds of change made, none when no change is found (see the
    module docstring).  Each group of touching differences is mended on its own (``EVERY``: all of them,
    otherwise the first that can be); a cell changed once is never changed again."""
    theirs = set(other.shaded)
    kinds: list[str] = []
    stuck: list[set[Cell]] = []
    regions = _regions(grid.shaded ^ theirs)
    rng.shuffle(regions)
    for region in regions:
        white = sorted(cell for cell in region if cell not in grid.shaded)
        black = sorted(cell for cell in region if cell in grid.shaded)
        rng.shuffle(white)
        rng.shuffle(black)
        around = sorted(
            cell for cell in grid.shaded if min(abs(cell[0] - d[0]) + abs(cell[1] - d[1]) for d in region) <= NEAR
        )
        rng.shuffle(around)
        around.sort(key=lambda cell: min(abs(cell[0] - d[0]) + abs(cell[1] - d[1]) for d in region))
        cells = {"move": white, "lone": black, "cut": white, "grow": black, "near": around}
        for way in ORDER:
            kind = _WAYS[way](grid, cells[way], rng)
            if kind:
                kinds.append(kind)
                break
        else:
            stuck.append(region)
        if kinds and not EVERY:
            break
    return kinds, stuck


def generate(
    request: Request, width: int = 10, height: int = 10, white: float = WHITE, island: int = ISLAND
) -> Generated:
    """One level of ``width`` x ``height`` cells, islands of at most ``island`` cells (``grow`` mends may make
    one larger); the same seed always gives the same level.  With ``unique`` the level is mended until
    ``counter`` proves it the only one (see the module docstring)."""
    seed, counter, unique, name, time = request.seed, request.counter, request.unique, request.name, request.time
    for side in (width, height):
        if not 1 <= side <= nurikabe.MAX_SIDE:
            raise ValueError(f"width and height must be 1..{nurikabe.MAX_SIDE}, not {side}")
    if island < 1:
        raise ValueError(f"island must be 1 or more, not {island}")
    rng = random.Random(f"nurikabe:{width}x{height}:{white}:{island}:{seed}")
    proved, draws, counts = False, 0, 0
    kinds: dict[str, int] = {}
    while True:
        draws += 1
        grid = _draw(width, height, rng, white, island)
        if not unique:
            break
        kinds = {}
        for _ in range(MENDS + width * height // PER_MEND):
            proved, found = grids.unique_under(counter, grid.level(), time)
            counts += 1
            others = [s for s in found if set(s.shaded) != grid.shaded]
            if proved or not others:
                break
            made, stuck = mend(grid, others[0], rng)
            if not made:
                if not redraw(grid, stuck[0], rng, white, island):
                    break
                made = ["redraw"]
            for kind in made:
                kinds[kind] = kinds.get(kind, 0) + 1
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
        "counts": counts,
        "mends": sum(kinds.values()),
        **{f"mends_{kind}": kinds.get(kind, 0) for kind in (*ORDER, "redraw")},
    }
    return Generated("nurikabe", nurikabe.parse_text(text, name=name), text, solution, seed, proved, info)
