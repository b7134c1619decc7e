"""Hexiom as CNF: one variable per (cell, number), cardinality encodings from PySAT.

The puzzle's own variables are ``("tile", cell, number)``: true when that
cell holds a tile with that number.  A cell with none of them true is empty.
Everything else (``("occupied", cell)``, counter and lex-chain auxiliaries)
is derived, and solutions are counted on the tile variables only.

A variant names the cardinality encoding of the tile counts (``seqcounter``,
``totalizer``, ...), optionally followed by ``+binomial`` or ``+gated`` for a
different neighbour rule; see ``ENCODINGS`` and ``CATALOG``.
"""

from __future__ import annotations

from itertools import combinations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...models.hexiom.model import MAX_TILE, Level, Solution
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import CnfEncoding, count_up_to, lex_leq
from .signals import keeps_python_sigint

#: Cardinality encodings (pysat.card.EncType) a variant may use for the tile counts.
TILE_COUNT_ENCODINGS: dict[str, int] = {
    "seqcounter": EncType.seqcounter,
    "totalizer": EncType.totalizer,
    "cardnetwrk": EncType.cardnetwrk,
    "sortnetwrk": EncType.sortnetwrk,
    "kmtotalizer": EncType.kmtotalizer,
    "mtotalizer": EncType.mtotalizer,
}

#: How "tile d has exactly d occupied neighbours" is written.
NEIGHBOUR_RULES: dict[str, str] = {
    "counter": "a per-cell unary count of occupied neighbours (PySAT totalizers), shared by all numbers",
    "binomial": "for each number, every d+1 neighbours not all occupied and every n-d+1 not all empty",
    "gated": "for each number, a CardEnc 'exactly d' over the neighbours, switched on by the tile variable",
}

#: Every encoding ``encode`` accepts: a tile-count encoding, optionally ``+binomial`` or ``+gated``.
ENCODINGS: tuple[str, ...] = tuple(
    f"{tiles}{rule}" for tiles in TILE_COUNT_ENCODINGS for rule in ("", "+binomial", "+gated")
)

#: The registered variants (``encoding@solver``); the default is the measured fastest on the
#: hard levels (docs/bench/timing-notes.md, "pysat").
CATALOG = Catalog(
    default="totalizer",
    variants={
        "totalizer": "tile counts by totalizer, per-cell unary neighbour counter; CaDiCaL 1.9.5",
        "seqcounter+binomial": "tile counts by sequential counter, binomial neighbour clauses; CaDiCaL 1.9.5",
        "seqcounter+gated": "tile counts by sequential counter, guarded CardEnc neighbour counts; CaDiCaL 1.9.5",
        "totalizer@glucose4": "tile counts by totalizer, per-cell unary neighbour counter; Glucose 4",
    },
)

#: First solutions search among lex-leaders (``engine.first_solution_lex_leader``): far faster on
#: level 38, slower on level 40 and under --shuffle (docs/bench/timing-notes.md, "pysat").
FIRST_SOLUTION_LEX_LEADER = True


@keeps_python_sigint
def encode(level: Level, variant: str, options: Options) -> CnfEncoding:
    """The level as CNF under one encoding variant (see the module docstring)."""
    tile_encoding, _, neighbour_rule = variant.partition("+")
    if variant not in ENCODINGS:
        raise ValueError(f"unknown hexiom CNF variant {variant!r}; known: {', '.join(ENCODINGS)}")
    neighbour_rule = neighbour_rule or "counter"

    board = level.board
    pool = IDPool()
    clauses: list[list[int]] = []
    cells = range(board.size)
    open_cells = [c for c in cells if c not in level.blocked_cells]
    #: neighbours that may hold a tile (blocked cells never do)
    neighbours = {c: [n for n in board.neighbours[c] if n not in level.blocked_cells] for c in open_cells}
    numbers = {c: possible_numbers(level, c, len(neighbours[c])) for c in open_cells}

    tile = {(c, d): pool.id(("tile", c, d)) for c in open_cells for d in numbers[c]}
    occupied = {c: pool.id(("occupied", c)) for c in open_cells}

    # Locked tiles stay where they are (blocked cells get no tile variable at all).
    if mutation.keep("locked tiles"):
        for cell, number in level.locked_tiles:
            clauses.append([tile[cell, number]])

    # A cell holds at most one tile, and it is occupied exactly when it holds one.
    # All three are implied, kept for propagation: two numbers on one cell would
    # each need that many occupied neighbours; either half of the occupancy
    # channel follows from the other half and the exact total below.
    for c in open_cells:
        on_cell = [tile[c, d] for d in numbers[c]]
        if mutation.keep("implied: at most one tile per cell"):
            clauses.extend([-a, -b] for a, b in combinations(on_cell, 2))
        if mutation.keep("implied: an occupied cell holds a tile"):
            clauses.append([-occupied[c], *on_cell])
        if mutation.keep("implied: a tile occupies its cell"):
            clauses.extend(
                [-p, q]
                for p, q in (mutation.implication("implied: a tile occupies its cell", t, occupied[c]) for t in on_cell)
            )

    # Every tile of the level is placed: exactly tile_counts[d] cells hold number d.
    for d in range(MAX_TILE + 1):
        with_d = [tile[c, d] for c in open_cells if (c, d) in tile]
        if mutation.keep("tile counts"):
            clauses.extend(
                exactly(
                    pool,
                    with_d,
                    mutation.bound("tile counts", level.tile_counts[d]),
                    TILE_COUNT_ENCODINGS[tile_encoding],
                )
            )

    # Redundant, for propagation: exactly as many cells are occupied as there are tiles.
    if mutation.keep("implied: occupied cells = tiles"):
        clauses.extend(
            exactly(
                pool,
                list(occupied.values()),
                mutation.bound("implied: occupied cells = tiles", level.tile_total),
                TILE_COUNT_ENCODINGS[tile_encoding],
            )
        )

    # A tile numbered d has exactly d occupied neighbours.
    for c in open_cells:
        if not mutation.keep("neighbour rule"):
            continue
        around = [occupied[n] for n in neighbours[c]]
        on_cell = {d: tile[c, d] for d in numbers[c]}
        if neighbour_rule == "counter":
            clauses.extend(neighbours_by_counter(pool, occupied[c], on_cell, around))
        elif neighbour_rule == "binomial":
            clauses.extend(neighbours_by_subsets(on_cell, around))
        else:
            clauses.extend(neighbours_by_gated_cardenc(pool, on_cell, around, TILE_COUNT_ENCODINGS[tile_encoding]))

    # Symmetry breaking: the solution is the lex-leader of its orbit.
    if options.symmetry_breaking:
        clauses.extend(lex_leader(pool, level, numbers, tile, occupied))

    projection = sorted(tile.values())
    where = {var: (c, d) for (c, d), var in tile.items()}

    def decode(true: frozenset[int]) -> Solution:
        contents: list[int | None] = [None] * board.size
        for var in true:
            c, d = where[var]
            contents[c] = d
        return Solution(tuple(contents))

    # every solution places the same number of tiles, so blocking the true ones suffices
    return CnfEncoding(pool, clauses, projection, decode, block_true_only=True)


def possible_numbers(level: Level, cell: int, open_neighbours: int) -> tuple[int, ...]:
    """Numbers a cell may hold: its locked one, or any number with tiles to place
    that its open neighbours can satisfy (a cell with k of them can't hold k+1)."""
    if cell in level.locked:
        return (level.locked[cell],)
    return tuple(d for d in range(min(MAX_TILE, open_neighbours) + 1) if level.movable_counts[d] > 0)


def exactly(pool: IDPool, lits: list[int], bound: int, encoding: int) -> list[list[int]]:
    """``sum(lits) == bound`` with a PySAT encoding; an impossible bound is the empty clause."""
    if not 0 <= bound <= len(lits):
        return [[]]
    return CardEnc.equals(lits, bound, vpool=pool, encoding=encoding).clauses


# ------------------------------------------------------------ neighbour rules


def neighbours_by_counter(pool: IDPool, occupied: int, on_cell: dict[int, int], around: list[int]) -> list[list[int]]:
    """One unary count of the occupied neighbours; each number reads its bounds off it.

    ``at_least[k]`` is true exactly when k or more neighbours are occupied.
    Besides "tile d => count is d", the converse "occupied and count is d =>
    tile d" is added: implied by the rest, but it lets the count decide the
    number (and rule out counts no tile can match) by propagation.
    """
    clauses: list[list[int]] = []
    at_least = unary_count(pool, around, clauses)
    n = len(around)

    def count_is(d: int) -> list[int]:
        """Literals that are all true when the count is d (as a conjunction)."""
        return ([at_least[d]] if d >= 1 else []) + ([-at_least[d + 1]] if d < n else [])

    for d, t in on_cell.items():
        need = mutation.bound("neighbour count", d)
        if not 0 <= need <= n:
            clauses.append([-t])
            continue
        clauses.extend([-t, lit] for lit in count_is(need))
    if not mutation.keep("implied: the count decides the number"):
        return clauses
    for d in range(n + 1):
        clause = [-occupied] + [-lit for lit in count_is(d)]
        if d in on_cell:
            clause.append(on_cell[d])
        clauses.append(clause)
    return clauses


def unary_count(pool: IDPool, lits: list[int], clauses: list[list[int]]) -> dict[int, int]:
    """``{k: v}`` with v true exactly when at least k of ``lits`` are true (k = 1..len):
    one two-way totalizer (``engine.count_up_to``), which pushes counts both up and down."""
    return dict(enumerate(count_up_to(pool, lits, len(lits), clauses), start=1))


def neighbours_by_subsets(on_cell: dict[int, int], around: list[int]) -> list[list[int]]:
    """The rule read literally: with tile d, no d+1 neighbours are all occupied
    and no n-d+1 neighbours are all empty (at most 20 clauses per bound, n <= 6)."""
    clauses: list[list[int]] = []
    n = len(around)
    for d, t in on_cell.items():
        if d > n:
            clauses.append([-t])
            continue
        clauses.extend([-t, *(-o for o in group)] for group in combinations(around, mutation.bound("at most d", d) + 1))
        clauses.extend([-t, *group] for group in combinations(around, n - mutation.bound("at least d", d) + 1))
    return clauses


def neighbours_by_gated_cardenc(
    pool: IDPool, on_cell: dict[int, int], around: list[int], encoding: int
) -> list[list[int]]:
    """With tile d, a CardEnc "exactly d" over the neighbours; each clause is guarded by ``not tile``."""
    clauses: list[list[int]] = []
    for d, t in on_cell.items():
        clauses.extend([-t, *clause] for clause in exactly(pool, around, mutation.bound("exactly d", d), encoding))
    return clauses


# -------------------------------------------------------- symmetry breaking


def lex_leader(
    pool: IDPool,
    level: Level,
    numbers: dict[int, tuple[int, ...]],
    tile: dict[tuple[int, int], int],
    occupied: dict[int, int],
) -> list[list[int]]:
    """For every non-identity symmetry of the level: contents <=lex their image.

    The compared vector is the cell contents in reading order with empty as
    -1 (``models.hexiom.model.symmetry_key``).  Each value is written in order
    encoding, ``value_at_least(c, k)`` for k = 0..6 (k = 0 is "occupied");
    such thermometer codes compare, bit by bit, exactly as the values do, so
    the integer lex order is the Boolean lex order of the concatenated codes.
    A chain of ``lex_equal_so_far`` variables, each fully defined (<=>), says
    that all earlier bits agree; where they do, a bit may not exceed its image.
    """
    clauses: list[list[int]] = []
    false = pool.id(("constant", "false"))
    clauses.append([-false])

    # value_at_least(c, k) <=> some tile numbered k or more is on c
    at_least: dict[int, list[int]] = {}
    for c in range(level.board.size):
        if c not in occupied:
            at_least[c] = [false] * (MAX_TILE + 1)
            continue
        bits = [occupied[c]]
        for k in range(1, MAX_TILE + 1):
            higher = [tile[c, d] for d in numbers[c] if d >= k]
            if not higher:
                bits.append(false)
                continue
            bit = pool.id(("value_at_least", c, k))
            clauses.append([-bit, *higher])
            clauses.extend([-t, bit] for t in higher)
            bits.append(bit)
        at_least[c] = bits

    # the cell pairs each symmetry compares are a model fact (Level.lex_leader_pairs)
    for s, compared in level.lex_leader_pairs:
        if not mutation.keep_symmetry("lex-leader", s):
            continue
        pairs = [(x, y) for a, b in compared for x, y in zip(at_least[a], at_least[b]) if x != y]
        # the board's thermometer bits are <=lex the image's
        clauses.extend(lex_leq(pool, pairs, s))
    return clauses
