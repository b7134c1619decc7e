"""Sigils as CP-SAT models, in two genuinely different shapes.

``booleans``: one boolean per placement of a piece type (a type turned or
flipped, then slid to an offset); ``add_exactly_one`` per cell and a linear
count per type.  Equal pieces are interchangeable: one boolean per
placement of a *type*, never per copy, so a tiling is one assignment.

``copies``: one integer per piece *copy*, the number of its placement in
its type's list; a boolean "copy covers cell" is reified on that
integer's domain, and ``add_exactly_one`` per cell.  Copies of one type are
strictly ordered by placement number, so each tiling is one assignment,
and those integers are the projection.

(An interval model -- each copy an anchor and an orientation, every cell a
1x1 box in ``add_no_overlap_2d`` -- was measured and dropped as far slower:
docs/bench/timing-notes.md, "cpsat".)

The orientations are worked out here, from the dihedral group's eight
matrices, independently of the model's own code.  OR-Tools is imported only
when a model is built (``engine.cp_model``), and a large frame's model stops
being built when the run's time is up (``base.check_time``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...models.sigils.model import Level, Piece, Solution
from .. import mutation
from ..base import Options, check_time
from ..catalog import Catalog
from .engine import CpsatModel, cp_model

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel

CATALOG = Catalog(
    default="booleans",
    variants={
        "booleans": "a boolean per placement of a type; add_exactly_one per cell; a linear count per type",
        "copies": "per piece copy an integer placement number; cover booleans reified on its domain; "
        "add_exactly_one per cell",
    },
)

#: (r, c) -> (a*r + b*c, d*r + e*c): the four turns, then the four turns after a flip.
TURNS = ((1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0))
FLIPS = ((1, 0, 0, -1), (0, 1, 1, 0), (-1, 0, 0, 1), (0, -1, -1, 0))

Offsets = tuple[tuple[int, int], ...]
PlacementKey = tuple[str, tuple[int, ...]]


def shapes(piece: Piece, mirroring: bool) -> list[Offsets]:
    """The piece's distinct orientations, as offsets from its anchor (first cell in reading order)."""
    found: set[Offsets] = set()
    for a, b, d, e in TURNS + (FLIPS if mirroring else ()):
        moved = sorted((a * r + b * c, d * r + e * c) for r, c in piece.shape)
        r0, c0 = moved[0]  # sorted by row, then column: the anchor
        found.add(tuple((r - r0, c - c0) for r, c in moved))
    return sorted(found)


def placements(level: Level, piece: Piece) -> list[tuple[int, ...]]:
    """Every set of cells the piece covers in the frame, in any orientation, by anchor in reading order.

    The anchor is the shape's first cell in reading order, so the rows an
    anchor can take are those where the shape's lowest row still fits, and
    the columns those where its leftmost and rightmost columns do.  Cells
    come sorted, as the offsets are sorted by row, then column.
    """
    found = []
    for shape in shapes(piece, level.mirroring):
        rows = level.height - max(dr for dr, _ in shape)
        first = -min(dc for _, dc in shape)
        last = level.width - max(dc for _, dc in shape)
        offsets = [dr * level.width + dc for dr, dc in shape]
        for row in range(rows):
            check_time()
            for col in range(first, last):
                anchor = level.cell(row, col)
                found.append(tuple(anchor + off for off in offsets))
    found.sort()
    return found


def encode(level: Level, variant: str, options: Options) -> CpsatModel:
    if variant not in CATALOG.variants:
        raise ValueError(f"unknown cpsat sigils variant {variant!r}; known: {', '.join(CATALOG.variants)}")
    model = cp_model().CpModel()
    if level.obstruction:
        # plainly unsolvable (the areas differ, or a piece fits nowhere): say so at once
        flag = model.new_bool_var("no solution")
        model.add(flag == 1)
        model.add(flag == 0)
        return CpsatModel(model, [], lambda values: Solution(()))
    if variant == "booleans":
        return _booleans(model, level, options)
    return _copies(model, level, options)


def parameters(options: Options) -> dict[str, Any]:
    """CP-SAT parameters measured to suit these models.

    Enumerating, the LP relaxation costs far more than it prunes
    (docs/bench/timing-notes.md, "cpsat").
    """
    return {"linearization_level": 0} if options.enumerate else {}


# ------------------------------------------------------------------ booleans


def placement_booleans(model: CpModel, level: Level) -> dict[PlacementKey, Any]:
    """A boolean per (type, cells) that fits in the frame."""
    place: dict[PlacementKey, Any] = {}
    for piece in level.pieces:
        for i, cells in enumerate(placements(level, piece)):
            if i % 512 == 0:
                check_time()
            place[piece.name, cells] = model.new_bool_var(f"place {piece.name} {cells}")
    return place


def _booleans(model: CpModel, level: Level, options: Options) -> CpsatModel:
    place = placement_booleans(model, level)

    # Every cell is covered by exactly one chosen placement.
    covering: dict[int, list[Any]] = {cell: [] for cell in range(level.cell_count)}
    for (_, cells), var in place.items():
        for cell in cells:
            covering[cell].append(var)
    check_time()
    if mutation.keep("every cell covered once"):
        for here in covering.values():
            model.add_exactly_one(here)

    # Each piece type is placed exactly as often as the level lists it.
    if mutation.keep("piece counts"):
        for piece, count in zip(level.pieces, level.piece_counts):
            check_time()
            model.add(
                sum(var for (name, _), var in place.items() if name == piece.name)
                == mutation.bound("piece counts", count)
            )
    check_time()

    if options.symmetry_breaking:
        lex_leader(model, level, place)

    # Search order, enumerating: placements by anchor in reading order, "placed"
    # first -- a tiler filling the frame from its top-left corner (measured:
    # docs/bench/timing-notes.md, "cpsat").
    # The order is given in consecutive chunks (CP-SAT takes the first strategy
    # with a free variable, so they act as one list), each a chance to stop building.
    search = dict(parameters(options))
    if options.enumerate:
        cp = cp_model()
        by_anchor = [place[key] for key in sorted(place, key=lambda k: (k[1][0], level.type_index[k[0]], k[1]))]
        for start in range(0, len(by_anchor), 2048):
            check_time()
            model.add_decision_strategy(by_anchor[start : start + 2048], cp.CHOOSE_FIRST, cp.SELECT_MAX_VALUE)
        search["search_branching"] = cp.FIXED_SEARCH

    keys = list(place)
    projection = [place[k] for k in keys]

    def decode(values: Sequence[int]) -> Solution:
        return Solution.of(k for k, value in zip(keys, values) if value)

    return CpsatModel(model, projection, decode, search)


# -------------------------------------------------------------------- copies


def _copies(model: CpModel, level: Level, options: Options) -> CpsatModel:
    domain = cp_model().Domain
    copies: list[tuple[str, list[tuple[int, ...]], Any]] = []  # (type, its placements, chosen index)
    covering: dict[int, list[Any]] = {cell: [] for cell in range(level.cell_count)}
    for piece, count in zip(level.pieces, level.piece_counts):
        where = placements(level, piece)
        over: dict[int, list[int]] = {}  # cell -> the placement numbers covering it
        for i, cells in enumerate(where):
            for cell in cells:
                over.setdefault(cell, []).append(i)
        previous = None
        for copy in range(count):
            chosen = model.new_int_var(0, len(where) - 1, f"{piece.name}{copy} placement")
            # Copies of one type are interchangeable: list them by placement number.
            if previous is not None and mutation.keep("copies in placement order"):
                model.add(previous < chosen)
            previous = chosen
            copies.append((piece.name, where, chosen))

            # The copy covers a cell exactly when its placement is one of those over the cell.
            for cell, numbers in sorted(over.items()):
                check_time()
                covers = model.new_bool_var(f"{piece.name}{copy} covers {cell}")
                model.add_linear_expression_in_domain(chosen, domain.from_values(numbers)).only_enforce_if(covers)
                elsewhere = sorted(set(range(len(where))) - set(numbers))
                if elsewhere:
                    model.add_linear_expression_in_domain(chosen, domain.from_values(elsewhere)).only_enforce_if(
                        ~covers
                    )
                else:
                    model.add(covers == 1)
                covering[cell].append(covers)

    # Every cell is covered by exactly one copy.
    if mutation.keep("every cell covered once"):
        for here in covering.values():
            model.add_exactly_one(here)

    if options.symmetry_breaking:
        lex_leader(model, level, _placements_of_copies(model, copies))

    projection = [chosen for _, _, chosen in copies]

    def decode(values: Sequence[int]) -> Solution:
        return Solution.of((name, where[i]) for (name, where, _), i in zip(copies, values))

    return CpsatModel(model, projection, decode, parameters(options))


def _placements_of_copies(model: CpModel, copies: list) -> dict[PlacementKey, Any]:
    """Placement booleans defined from the copies, for symmetry breaking.

    ``place[type, cells]`` <=> some copy of that type has chosen that
    placement (at most one can: copies of a type are strictly ordered).
    """
    sources: dict[PlacementKey, list[Any]] = {}
    for name, where, chosen in copies:
        check_time()
        for i, cells in enumerate(where):
            here = model.new_bool_var(f"{chosen.name} is {i}")
            model.add(chosen == i).only_enforce_if(here)
            model.add(chosen != i).only_enforce_if(~here)
            sources.setdefault((name, cells), []).append(here)
    place: dict[PlacementKey, Any] = {}
    for key, here in sources.items():
        place[key] = model.new_bool_var(f"place {key}")
        model.add_max_equality(place[key], here)
    return place


# -------------------------------------------------------- symmetry breaking


def lex_leader(model: CpModel, level: Level, place: dict[PlacementKey, Any]) -> None:
    """For every non-identity symmetry: the placement vector is >=lex its image.

    Placements are ordered as ``models.sigils.model.symmetry_key`` orders them
    (first cell, type in level order, other cells); the lex-leader's 0/1
    vector is the largest of its orbit.  ``equal_so_far`` chains are fully
    defined (<=>), so enumeration never sees one tiling twice.
    """
    order = sorted(place, key=lambda p: (p[1][0], level.type_index[p[0]], p[1]))
    for s, symmetry in enumerate(level.symmetries):
        check_time()
        pairs = []
        compared: set[frozenset[PlacementKey]] = set()
        for p in order:
            q = (symmetry.rename(p[0]), tuple(sorted(symmetry.cells[c] for c in p[1])))
            if q == p or frozenset((p, q)) in compared:
                continue
            compared.add(frozenset((p, q)))
            pairs.append((place[p], place[q]))
        if pairs and not mutation.keep_symmetry("lex-leader", s):
            continue
        equal_so_far = None  # None: true
        for index, (x, y) in enumerate(pairs):
            # while everything before is equal, x may not be 0 where its image is 1
            guard = [] if equal_so_far is None else [~equal_so_far]
            model.add_bool_or([*guard, x, ~y])
            if index == len(pairs) - 1:
                break
            same = model.new_bool_var(f"lex {s} same {index}")
            model.add(x == y).only_enforce_if(same)
            model.add(x != y).only_enforce_if(~same)
            nxt = model.new_bool_var(f"lex {s} equal so far {index + 1}")
            if equal_so_far is None:
                model.add(nxt == same)
            else:
                model.add_bool_and([equal_so_far, same]).only_enforce_if(nxt)
                model.add_bool_or([~equal_so_far, ~same, nxt])
            equal_so_far = nxt
