"""Sigils as CNF: one variable per placement of a piece type.

The puzzle's own variables are ``("place", piece, cells)``: true when a piece
of that type covers exactly those cells.  Equal pieces are interchangeable,
so there is one variable per distinct placement of a *type*, never per copy,
and a tiling is one assignment.  The rules:

* every cell is covered by exactly one chosen placement;
* each piece type is placed exactly as many times as the level lists it.

A variant names the cardinality encodings (PySAT ``EncType``) of those two
rules; see ``ENCODINGS`` and ``CATALOG``.  Solutions are counted on the placement variables.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...models.sigils.model import Level, Solution, frame_placements
from ...models.sigils.model import PlacedType as Placement
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import CnfEncoding, lex_leq
from .signals import keeps_python_sigint

#: variant -> (at-most-one per cell, exact count per piece type)
ENCODINGS: dict[str, tuple[int, int]] = {
    "totalizer": (EncType.pairwise, EncType.totalizer),
    "seqcounter": (EncType.seqcounter, EncType.seqcounter),
}

#: The default by measurement: docs/bench/timing-notes.md, "pysat".
CATALOG = Catalog(
    default="totalizer",
    variants={
        "totalizer": "placement booleans; one per cell by pairwise at-most-one; piece counts by totalizer; "
        "CaDiCaL 1.9.5",
        "seqcounter": "placement booleans; one per cell and piece counts by sequential counters; CaDiCaL 1.9.5",
    },
)


@keeps_python_sigint
def encode(level: Level, variant: str, options: Options) -> CnfEncoding:
    """The level as CNF under one encoding variant (see the module docstring)."""
    if variant not in ENCODINGS:
        raise ValueError(f"unknown sigils CNF variant {variant!r}; known: {', '.join(ENCODINGS)}")
    one_per_cell, counts = ENCODINGS[variant]
    pool = IDPool()
    clauses: list[list[int]] = []

    if level.obstruction:
        # plainly unsolvable (the areas differ, or a piece fits nowhere): say so at once
        nothing = pool.id(("no solution",))
        return CnfEncoding(pool, [[nothing], [-nothing]], [], lambda true: Solution(()), block_true_only=True)

    place = {p: pool.id(("place", *p)) for p in frame_placements(level)}

    # Every cell is covered by exactly one chosen placement.  "At most once" is
    # implied, kept for propagation: with every cell covered and no type over
    # its count, the chosen pieces' area is at least the frame's and at most
    # the pieces' total, which equals it (else obstructed, above), so no cell
    # is covered twice.
    covering: dict[int, list[int]] = {cell: [] for cell in range(level.cell_count)}
    for (_, cells), var in place.items():
        for cell in cells:
            covering[cell].append(var)
    for options_here in covering.values():
        if mutation.keep("every cell covered"):
            clauses.append(options_here)
        if len(options_here) > 1 and mutation.keep("implied: no cell covered twice"):
            clauses.extend(
                CardEnc.atmost(
                    options_here, mutation.bound("implied: no cell covered twice", 1), vpool=pool, encoding=one_per_cell
                ).clauses
            )

    # Each piece type is placed at most as often as the level lists it.  At
    # least follows: the pieces' area equals the frame's (else the level is
    # obstructed, above), so covering every cell with no type over its count
    # uses every piece.  (An "at least" half doubles the encoding for nothing:
    # PySAT writes it as "at most n - count" over the negations.)
    for piece, count in zip(level.pieces, level.piece_counts):
        of_type = [var for (name, _), var in place.items() if name == piece.name]
        if mutation.keep("piece counts"):
            clauses.extend(
                CardEnc.atmost(of_type, mutation.bound("piece counts", count), vpool=pool, encoding=counts).clauses
            )

    # Symmetry breaking: the tiling is the lex-leader of its orbit.
    if options.symmetry_breaking:
        clauses.extend(lex_leader(pool, level, place))

    projection = sorted(place.values())
    where = {var: p for p, var in place.items()}

    def decode(true: frozenset[int]) -> Solution:
        return Solution.of(where[var] for var in true)

    # every tiling places the same number of pieces, so blocking the true ones suffices
    return CnfEncoding(pool, clauses, projection, decode, block_true_only=True)


# -------------------------------------------------------- symmetry breaking


def lex_leader(pool: IDPool, level: Level, place: dict[Placement, int]) -> list[list[int]]:
    """For every non-identity symmetry: the placement vector is >=lex its image.

    Placements are ordered as in ``models.sigils.model.symmetry_key``: first cell,
    then piece type (level order), then the remaining cells.  The lex-leader
    (smallest key) is the tiling whose 0/1 vector over placements in that
    order is the *largest* of its orbit.  With ``x`` the vector and ``y`` its
    image under a symmetry (``y[p] = x[image of p]``), a chain of
    ``lex_equal_so_far`` variables says that all earlier positions agree;
    where they do, ``x`` may not be 0 where ``y`` is 1.
    """
    clauses: list[list[int]] = []
    order = sorted(place, key=lambda p: (p[1][0], level.type_index[p[0]], p[1]))
    for s, symmetry in enumerate(level.symmetries):
        image = {p: (symmetry.rename(p[0]), tuple(sorted(symmetry.cells[c] for c in p[1]))) for p in order}
        if all(image[p] == p for p in order) or not mutation.keep_symmetry("lex-leader", s):
            continue
        pairs: list[tuple[int, int]] = []
        compared: set[frozenset[Placement]] = set()
        for p in order:
            q = image[p]
            # equal for sure: a fixed placement, or a pair already compared (the
            # chain only goes on while earlier positions are equal)
            if q == p or frozenset((p, q)) in compared:
                continue
            compared.add(frozenset((p, q)))
            pairs.append((place[p], place[q]))
        # the tiling's vector is >=lex its image: the image's is <=lex the tiling's
        clauses.extend(lex_leq(pool, [(y, x) for x, y in pairs], s))
    return clauses
