"""Hexiom as a CP-SAT model, written from the rules (models/hexiom/model.py) alone.

Rules: every tile is placed, locked tiles stay, blocked cells stay empty, and
a tile numbered d has exactly d occupied neighbouring cells.

Variants:

* ``int``   one integer per cell, -1 for empty, else the tile's number;
            occupancy booleans channelled to it; tile counts by per-number
            indicator booleans; the contents' sum, implied, for the LP.
* ``bool``  one boolean per (cell, number); at most one per cell; the
            neighbour rule as a linear sum enforced by each boolean.
* ``table`` one integer per cell; the neighbour rule as a table over the
            cell and its neighbours' occupancy (allowed tuples listed).

Symmetry breaking (``options.symmetry_breaking``) adds lex-leader
constraints: the cell contents in reading order (empty = -1) are
lexicographically at most their image under each of the level's symmetries
(``Level.symmetries``, the convention of ``models.hexiom.model.symmetry_key``).

Each model carries the CP-SAT parameters measured best for it (see
``_FIRST_SOLUTION``): first solutions of ``int`` use one worker with the full
LP and the board's symmetry used in it (docs/bench/cpsat-profile.md);
enumeration walks the occupancy in reading order without LP.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ...models.hexiom.model import MAX_TILE, Level, Solution
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import CpsatModel, cp_model

EMPTY = -1

CATALOG = Catalog(
    default="int",
    variants={
        "int": "an integer per cell (-1 empty), channelled occupancy, per-number indicator counts",
        "bool": "a boolean per (cell, number), linear neighbour sums enforced by each boolean",
        "table": "an integer per cell, neighbour rule as a table over the cell and its neighbours",
    },
)


def encode(level: Level, variant: str, options: Options) -> CpsatModel:
    if variant not in CATALOG.variants:
        raise ValueError(f"unknown cpsat hexiom variant {variant!r}; known: {', '.join(CATALOG.variants)}")
    return {"int": _encode_int, "bool": _encode_bool, "table": _encode_table}[variant](level, options)


# ------------------------------------------------------------------ domains


def possible_numbers(level: Level, cell: int) -> list[int]:
    """The tile numbers a cell may hold: its lock, or a movable tile that fits.

    A cell with k neighbours cannot hold a tile above k; a blocked cell holds none.
    """
    if cell in level.blocked_cells:
        return []
    if cell in level.locked:
        return [level.locked[cell]]
    degree = len(level.board.neighbours[cell])
    return [d for d in range(MAX_TILE + 1) if d <= degree and level.movable_counts[d] > 0]


def may_be_empty(level: Level, cell: int) -> bool:
    return cell not in level.locked


def _cells_decoder(values: Sequence[int]) -> Solution:
    return Solution(tuple(None if v == EMPTY else int(v) for v in values))


# -------------------------------------------------------------- variant int


def _encode_int(level: Level, options: Options) -> CpsatModel:
    cp = cp_model()
    model = cp.CpModel()
    board = level.board
    content = _content_variables(model, level)
    occupied = _occupancy(model, content)

    # Neighbour rule: an occupied cell's number is its count of occupied neighbours.
    if mutation.keep("neighbour rule"):
        for cell in range(board.size):
            around = sum(occupied[n] for n in board.neighbours[cell])
            model.add(content[cell] == around + mutation.bound("neighbour count", 0)).only_enforce_if(occupied[cell])

    _count_tiles(model, level, content)
    _implied_total(model, level, occupied)
    _implied_content_sum(model, level, content)

    if options.symmetry_breaking:
        add_lex_leader(model, level, content)
    return CpsatModel(model, content, _cells_decoder, _search(model, level, occupied, options))


def _content_variables(model, level: Level) -> list:
    """What is on each cell: -1 (empty) or a tile number; locks and blocks fixed by the domain."""
    cp = cp_model()
    content = []
    for cell in range(level.board.size):
        values = possible_numbers(level, cell) + ([EMPTY] if may_be_empty(level, cell) else [])
        domain = cp.Domain.from_values(sorted(values))
        content.append(model.new_int_var_from_domain(domain, f"content_{cell}"))
    return content


def _occupancy(model, content: Sequence) -> list:
    """A boolean per cell, channelled both ways to its content (true iff a tile is there).

    Each half is implied by the other and the exact total (``_implied_total``):
    kept for propagation.
    """
    occupied = []
    for cell, value in enumerate(content):
        occ = model.new_bool_var(f"occupied_{cell}")
        if mutation.keep("implied: occupied means a tile"):
            model.add(value >= mutation.bound("implied: occupied means a tile", 0)).only_enforce_if(occ)
        if mutation.keep("implied: empty means no tile"):
            model.add(value == EMPTY).only_enforce_if(~occ)
        occupied.append(occ)
    return occupied


def _implied_total(model, level: Level, occupied: Sequence) -> None:
    """Implied by the counts, for propagation: the tiles fill exactly tile_total cells."""
    if mutation.keep("implied: occupied cells = tiles"):
        model.add(sum(occupied) == mutation.bound("implied: occupied cells = tiles", level.tile_total))


def _implied_content_sum(model, level: Level, content: Sequence) -> None:
    """Implied by the counts, for the LP: the cells' contents add up to the tiles' numbers, less one per empty cell.

    One linear equation over every cell; with it the LP relaxation sees the
    level's numbers as a whole, and level 38's first solution comes about four
    times sooner at the median, with a far shorter tail (docs/bench/cpsat-profile.md).
    """
    numbers = sum(number * count for number, count in enumerate(level.tile_counts))
    empty = level.board.size - level.tile_total
    if mutation.keep("implied: contents add up"):
        model.add(sum(content) == mutation.bound("implied: contents add up", numbers + EMPTY * empty))


def _count_tiles(model, level: Level, content: Sequence) -> None:
    """Tile counts: per number, indicators "cell holds d" (defined both ways) summed."""
    numbers = [possible_numbers(level, cell) for cell in range(len(content))]
    for number in range(MAX_TILE + 1):
        holders = []
        for cell, value in enumerate(content):
            if number not in numbers[cell]:
                continue
            holds = model.new_bool_var(f"holds_{cell}_{number}")
            model.add(value == number).only_enforce_if(holds)
            model.add(value != number).only_enforce_if(~holds)
            holders.append(holds)
        if mutation.keep("tile counts"):
            model.add(sum(holders) == mutation.bound("tile counts", level.tile_counts[number]))


#: First solution: one worker running CP-SAT's "max_lp_sym", the LP over the
#: whole model with the board's symmetry used in it, at its own branching.
#: Over all 41 levels this is 2.5x less CPU at the median than the same with
#: quick restarts between heuristics (which earlier cut level 38's tail, now
#: cut by the content sum), and less than two workers or any other single
#: subsolver.  One presolve pass instead of three: presolve (symmetry
#: detection and probing at each pass) was 40% of the solve time, and the
#: search after one pass is the same (docs/bench/cpsat-profile.md).  Asked for
#: more workers, the second runs the default LP beside it.
_FIRST_SOLUTION: dict = {
    "num_workers": 1,
    "linearization_level": 2,
    "add_lp_constraints_lazily": False,
    "use_symmetry_in_lp": True,
    "subsolvers": ["max_lp_sym", "default_lp"],
    "max_presolve_iterations": 1,
}
#: First solution on a board of side 3 or less (at most 19 cells): the search
#: is over at once and the LP and symmetry detection above are most of the
#: time; without them the 27 such levels took 35% less solve CPU.
_FIRST_SOLUTION_SMALL: dict = {
    "num_workers": 1,
    "linearization_level": 0,
    "symmetry_level": 0,
    "max_presolve_iterations": 1,
}
SMALL_SIDE = 3
#: With lex-leader constraints the board's symmetry is gone from the model,
#: and the LP no longer pays: no LP, one worker, was fastest.
_FIRST_SOLUTION_BROKEN: dict = {"num_workers": 1, "linearization_level": 0}


def _search(model, level: Level, occupied: Sequence, options: Options) -> dict:
    """Solver parameters for this mode; enumeration branches on occupancy in reading order.

    Enumeration (one worker, no LP) is a depth-first walk: occupied first,
    cell by cell, with the rest fixed by propagation: far faster than CP-SAT's default on levels with
    hundreds of solutions (docs/bench/timing-notes.md, "cpsat").
    """
    cp = cp_model()
    if not options.enumerate:
        if options.symmetry_breaking:
            return dict(_FIRST_SOLUTION_BROKEN)
        return dict(_FIRST_SOLUTION_SMALL if level.side <= SMALL_SIDE else _FIRST_SOLUTION)
    model.add_decision_strategy(list(occupied), cp.CHOOSE_FIRST, cp.SELECT_MAX_VALUE)
    return {"linearization_level": 0, "search_branching": cp.FIXED_SEARCH}


# ------------------------------------------------------------- variant bool


def _encode_bool(level: Level, options: Options) -> CpsatModel:
    cp = cp_model()
    model = cp.CpModel()
    board = level.board
    cells = range(board.size)

    # tile[cell][d]: the cell holds a tile numbered d.
    tile: list[dict[int, object]] = []
    for cell in cells:
        tile.append({d: model.new_bool_var(f"tile_{cell}_{d}") for d in possible_numbers(level, cell)})

    # At most one tile per cell (implied, kept for propagation: two numbers on one
    # cell would each need that many occupied neighbours); a locked cell holds its tile.
    occupied = []
    for cell in cells:
        choices = list(tile[cell].values())
        if may_be_empty(level, cell):
            if mutation.keep("implied: at most one tile per cell"):
                model.add_at_most_one(choices)
        elif mutation.keep("locked tiles"):
            model.add_exactly_one(choices)
        occupied.append(sum(choices))

    # Neighbour rule: a tile numbered d sees exactly d occupied neighbours.
    if mutation.keep("neighbour rule"):
        for cell in cells:
            around = sum(occupied[n] for n in board.neighbours[cell])
            for number, placed in tile[cell].items():
                model.add(around == mutation.bound("neighbour count", number)).only_enforce_if(placed)

    # Tile counts.
    if mutation.keep("tile counts"):
        for number in range(MAX_TILE + 1):
            model.add(
                sum(tile[cell][number] for cell in cells if number in tile[cell])
                == mutation.bound("tile counts", level.tile_counts[number])
            )

    projection = [var for cell in cells for var in tile[cell].values()]
    layout = [(cell, number) for cell in cells for number in tile[cell]]

    def decode(values: Sequence[int]) -> Solution:
        cells_out: list[int | None] = [None] * board.size
        for (cell, number), value in zip(layout, values):
            if value:
                cells_out[cell] = number
        return Solution(tuple(cells_out))

    if options.symmetry_breaking:
        # content as a linear expression: sum (d+1)*tile[c][d] - 1 is -1 when empty
        content = [sum((d + 1) * v for d, v in tile[cell].items()) - 1 for cell in cells]
        add_lex_leader(model, level, content)
    return CpsatModel(model, projection, decode, _bool_search(model, projection, options))


#: First solution for ``bool``: CP-SAT's own portfolio (two workers); the
#: int model's "max_lp_sym" setting was measured not to help here
#: (docs/bench/timing-notes.md, "cpsat").
_BOOL_FIRST_SOLUTION: dict = {}


def _bool_search(model, tiles: Sequence, options: Options) -> dict:
    """Enumeration tries, cell by cell in reading order, each tile before leaving the cell empty."""
    if not options.enumerate:
        return dict(_BOOL_FIRST_SOLUTION)
    cp = cp_model()
    model.add_decision_strategy(list(tiles), cp.CHOOSE_FIRST, cp.SELECT_MAX_VALUE)
    return {"linearization_level": 0, "search_branching": cp.FIXED_SEARCH}


# ------------------------------------------------------------ variant table


def _encode_table(level: Level, options: Options) -> CpsatModel:
    cp = cp_model()
    model = cp.CpModel()
    board = level.board
    content = _content_variables(model, level)
    occupied = _occupancy(model, content)

    # Neighbour rule as a table: (content, occupancy of each neighbour) rows
    # where the content is empty, or equals the number of occupied neighbours.
    for cell in range(board.size):
        neighbours = board.neighbours[cell]
        numbers = set(possible_numbers(level, cell))
        rows = []
        for pattern in product((0, 1), repeat=len(neighbours)):
            if may_be_empty(level, cell):
                rows.append((EMPTY, *pattern))
            if sum(pattern) in numbers:
                rows.append((sum(pattern), *pattern))
        if mutation.keep("neighbour rule"):
            model.add_allowed_assignments([content[cell]] + [occupied[n] for n in neighbours], rows)

    _count_tiles(model, level, content)
    _implied_total(model, level, occupied)

    if options.symmetry_breaking:
        add_lex_leader(model, level, content)
    return CpsatModel(model, content, _cells_decoder, _search(model, level, occupied, options))


# -------------------------------------------------------- symmetry breaking


def add_lex_leader(model, level: Level, content: Sequence) -> None:
    """For each non-identity symmetry: content <=lex its image (models.hexiom.model convention).

    The image of a board under ``perm`` has on cell ``perm[i]`` what the board
    has on cell ``i``.  The chain's auxiliaries are fully defined (⇔), so
    every board has exactly one assignment and enumeration counts it once.
    """
    for s, perm in enumerate(level.symmetries[1:], start=1):
        if not mutation.keep_symmetry("lex-leader", s):
            continue
        source = [0] * len(perm)
        for cell, target in enumerate(perm):
            source[target] = cell
        # Only positions whose two sides can differ: fixed points and
        # locked/blocked cells (which symmetries map to like cells) are equal,
        # and so is a pair already joined by the equalities of earlier
        # positions (which hold whenever the chain gets this far).
        joined = list(range(len(perm)))

        def root(cell: int, joined: list[int] = joined) -> int:
            while joined[cell] != cell:
                joined[cell] = joined[joined[cell]]
                cell = joined[cell]
            return cell

        positions = []
        for k in range(len(perm)):
            if k in level.locked or k in level.blocked_cells:
                continue
            a, b = root(k), root(source[k])
            if a != b:
                positions.append(k)
                joined[a] = b
        _lex_less_equal(model, [content[k] for k in positions], [content[source[k]] for k in positions])


def _lex_less_equal(model, xs: Sequence, ys: Sequence) -> None:
    """xs <=lex ys with prefix-equality literals defined both ways."""
    prefix_equal = None  # None stands for "true" before the first position
    for i, (x, y) in enumerate(zip(xs, ys)):
        # while the prefix is equal, this position may not be greater
        constraint = model.add(x <= y)
        if prefix_equal is not None:
            constraint.only_enforce_if(prefix_equal)
        if i == len(xs) - 1:
            break
        same = model.new_bool_var("")
        model.add(x == y).only_enforce_if(same)
        model.add(x != y).only_enforce_if(~same)
        if prefix_equal is None:
            prefix_equal = same
        else:
            both = model.new_bool_var("")
            model.add_bool_and([prefix_equal, same]).only_enforce_if(both)
            model.add_bool_or([~prefix_equal, ~same]).only_enforce_if(~both)
            prefix_equal = both
