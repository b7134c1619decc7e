"""Hexiom as a 0-1 linear model, written from the rules (models/hexiom/model.py) alone: indicator sums.

``tile[c, d]`` is 1 when cell c holds a tile numbered d: the puzzle's own
variables (the projection).  A cell's occupancy is the sum of its tile
indicators.  The neighbour rule goes through ``neighbours[c, k]``, 1 when
exactly k neighbours of c are occupied: one per cell, their k equal to the
sum of the neighbours' occupancies, and a tile d on c needs
``neighbours[c, d]``.  Those auxiliaries are fixed by the tiles, and
solutions are told apart on the tiles alone.

Symmetry breaking: the cell contents in reading order (empty = -1,
``models.hexiom.model.symmetry_key``) are lexicographically at most their image
under each of the level's symmetries.  Each content is written as its
thermometer bits ``value >= k`` (k = 0..6: sums of tile indicators), which
compare bit by bit as the values do, and ``engine.lex_leq`` chains them.
"""

from __future__ import annotations

from ...models.hexiom.model import MAX_TILE, Level, Solution
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import LinearModel, MipEncoding, empty_model, lex_leq, terms

CATALOG = Catalog(
    default="highs",
    variants={
        "highs": "0-1 indicators tile(cell, number) and per cell 'exactly k occupied neighbours' (the rule's "
        "convex hull per cell); HiGHS",
        "scip": "the same 0-1 model; SCIP through OR-Tools' pywraplp",
    },
)


def encode(level: Level, variant: str, options: Options) -> MipEncoding:
    """The level as a 0-1 model (the variant names the solver only: the model is the same)."""
    board = level.board
    model = empty_model(CATALOG, variant, "hexiom")
    open_cells = [c for c in range(board.size) if c not in level.blocked_cells]
    neighbours = {c: [n for n in board.neighbours[c] if n not in level.blocked_cells] for c in open_cells}
    tile: dict[tuple[int, int], int] = {}
    for c in open_cells:
        for d in possible_numbers(level, c, len(neighbours[c])):
            tile[c, d] = model.binary(f"tile_{c}_{d}")
    on_cell = {c: [(tile[c, d], d) for d in range(MAX_TILE + 1) if (c, d) in tile] for c in open_cells}

    def occupied(c: int) -> list[tuple[int, float]]:
        return terms(column for column, _ in on_cell[c])

    # Locked tiles stay where they are (blocked cells have no columns at all).
    if mutation.keep("locked tiles"):
        for cell, number in level.locked_tiles:
            model.equal([(tile[cell, number], 1.0)], 1.0, "locked tiles")

    # A cell holds at most one tile (so its occupancy, the sum, is 0 or 1).
    if mutation.keep("at most one tile per cell"):
        for c in open_cells:
            model.at_most(occupied(c), 1.0, "at most one tile per cell")

    # Every tile of the level is placed: exactly tile_counts[d] cells hold number d.
    if mutation.keep("tile counts"):
        for d in range(MAX_TILE + 1):
            holders = [tile[c, d] for c in open_cells if (c, d) in tile]
            model.equal(terms(holders), mutation.bound("tile counts", level.tile_counts[d]), "tile counts")

    # A tile numbered d has exactly d occupied neighbours.  neighbours[c, k] is 1 when exactly k
    # neighbours of c are occupied (one k per cell, and the occupied neighbours sum to that k);
    # a tile d on c needs neighbours[c, d].  Per cell this is the convex hull of the rule: far
    # tighter than comparing weighted sums with a big-M (docs/bench/mip.md).
    if mutation.keep("neighbour rule"):
        for c in open_cells:
            around = [t for n in neighbours[c] for t in occupied(n)]
            exactly = {k: model.binary(f"neighbours_{c}_{k}") for k in range(len(neighbours[c]) + 1)}
            model.equal(terms(exactly.values()), 1.0, "neighbour rule")
            model.equal([*around, *((column, -float(k)) for k, column in exactly.items())], 0.0, "neighbour rule")
            for column, d in on_cell[c]:
                k = mutation.bound("neighbour count", d)
                model.at_most([(column, 1.0), *([(exactly[k], -1.0)] if k in exactly else [])], 0.0, "neighbour rule")

    # Symmetry breaking: the contents are the lex-leader of their orbit.
    if options.symmetry_breaking:
        lex_leader(model, level, on_cell)

    where = {column: key for key, column in tile.items()}

    def decode(true: frozenset[int]) -> Solution:
        contents: list[int | None] = [None] * board.size
        for column in true:
            c, d = where[column]
            contents[c] = d
        return Solution(tuple(contents))

    # every solution places the same number of tiles: a no-good cut needs only the placed ones
    return MipEncoding(model, sorted(tile.values()), decode, block_true_only=True)


def possible_numbers(level: Level, cell: int, open_neighbours: int) -> tuple[int, ...]:
    """Its locked number, or any number with movable tiles that its open neighbours can reach."""
    if cell in level.locked:
        return (level.locked[cell],)
    return tuple(d for d in range(min(MAX_TILE, open_neighbours) + 1) if level.movable_counts[d] > 0)


def lex_leader(model: LinearModel, level: Level, on_cell: dict[int, list[tuple[int, int]]]) -> None:
    """For every non-identity symmetry of the level: the contents are <=lex their image (see the module docstring)."""
    # bits[c][k] = "value on c >= k" (k = 0: occupied) as the sum of the tile indicators it covers
    bits: dict[int, list[list[tuple[int, float]]]] = {}
    for c in range(level.board.size):
        here = on_cell.get(c, [])
        bits[c] = [terms(column for column, d in here if d >= k) for k in range(MAX_TILE + 1)]
    for s, compared in level.lex_leader_pairs:
        if not mutation.keep_symmetry("lex-leader", s):
            continue
        pairs = [(x, y) for a, b in compared for x, y in zip(bits[a], bits[b]) if x != y]
        lex_leq(model, pairs, s, "lex-leader")
