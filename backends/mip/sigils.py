"""Sigils as a 0-1 linear model: set partitioning, written from the rules (models/sigils/model.py) alone.

``place[p]`` is 1 when placement p (a piece type turned or flipped, slid to
an offset) is used: the puzzle's own variables.  Equal pieces are
interchangeable, so a placement belongs to a *type*, never to a copy, and a
tiling is one 0-1 point.  Every cell is covered by exactly one chosen
placement (a set-partitioning row per cell) and each type is placed exactly
as often as the level lists it.

Symmetry breaking: placements ordered as ``models.sigils.model.symmetry_key``
orders them (first cell, type in level order, other cells); the
lex-leader's 0-1 vector is the largest of its orbit, so each symmetry's
image is <=lex the tiling (``engine.lex_leq``).
"""

from __future__ import annotations

from ...models.sigils.model import Level, Solution, frame_placements
from ...models.sigils.model import PlacedType as Placement
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import LinearModel, MipEncoding, empty_model, lex_leq, terms

CATALOG = Catalog(
    default="highs",
    variants={
        "highs": "0-1 placement indicators; set partitioning (one row per cell), a count row per type; HiGHS",
        "scip": "the same 0-1 model; SCIP through OR-Tools' pywraplp",
    },
)


def encode(level: Level, variant: str, options: Options) -> MipEncoding:
    """The level as a 0-1 model (the variant names the solver only: the model is the same)."""
    model = empty_model(CATALOG, variant, "sigils")
    if level.obstruction:
        # plainly unsolvable (the areas differ, or a piece fits nowhere): say so at once
        model.equal([], 1.0, f"obstruction: {level.obstruction}")
        return MipEncoding(model, [], lambda true: Solution(()), block_true_only=True)

    # piece types by their index in the level: user-typed names never reach a model file
    place = {
        p: model.binary(f"place_t{level.type_index[p[0]]}_{'_'.join(map(str, p[1]))}") for p in frame_placements(level)
    }

    # Every cell is covered by exactly one chosen placement.
    covering: dict[int, list[int]] = {cell: [] for cell in range(level.cell_count)}
    for (_, cells), column in place.items():
        for cell in cells:
            covering[cell].append(column)
    if mutation.keep("every cell covered once"):
        for over in covering.values():
            model.equal(terms(over), 1.0, "every cell covered once")

    # Each piece type is placed exactly as often as the level lists it.
    if mutation.keep("piece counts"):
        for piece, count in zip(level.pieces, level.piece_counts):
            of_type = [column for (name, _), column in place.items() if name == piece.name]
            model.equal(terms(of_type), mutation.bound("piece counts", count), "piece counts")

    # Symmetry breaking: the tiling is the lex-leader of its orbit.
    if options.symmetry_breaking:
        lex_leader(model, level, place)

    where = {column: p for p, column in place.items()}

    def decode(true: frozenset[int]) -> Solution:
        return Solution.of(where[column] for column in true)

    # every tiling places the same number of pieces: a no-good cut needs only the chosen ones
    return MipEncoding(model, sorted(place.values()), decode, block_true_only=True)


def lex_leader(model: LinearModel, level: Level, place: dict[Placement, int]) -> None:
    """For every non-identity symmetry: its image of the placement vector is <=lex the vector."""
    order = sorted(place, key=lambda p: (p[1][0], level.type_index[p[0]], p[1]))
    for s, symmetry in enumerate(level.symmetries):
        image = {p: (symmetry.rename(p[0]), tuple(sorted(symmetry.cells[c] for c in p[1]))) for p in order}
        if all(image[p] == p for p in order) or not mutation.keep_symmetry("lex-leader", s):
            continue
        pairs = []
        compared: set[frozenset[Placement]] = set()
        for p in order:
            q = image[p]
            # equal for sure: a fixed placement, or a pair already compared
            if q == p or frozenset((p, q)) in compared:
                continue
            compared.add(frozenset((p, q)))
            pairs.append(([(place[q], 1.0)], [(place[p], 1.0)]))
        lex_leq(model, pairs, s, "lex-leader")
