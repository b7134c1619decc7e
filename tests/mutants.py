"""Deliberately broken Hexiom encodings: the cross-checker must catch every one.

Load as a plugin (``trisolve crosscheck --plugin tests/mutants.py``) or call
``register()``: it adds the backend ``mutant`` with one variant per bug.
Each is a plain CNF model of Hexiom run by the real PySAT engine, with one
rule broken; ``correct`` is the same model without a bug (it must agree
with everything, or the mutants prove nothing).

"Two tiles on one cell" is not among them: in a model where a cell's
neighbour count is exact, two different numbers on one cell contradict each
other, so dropping at-most-one changes no count (an equivalent mutant, which
no cross-check can kill; it was tried and survived on all 41 levels).
"""

from __future__ import annotations

import types

MUTATIONS: dict[str, str] = {
    "correct": "no bug: the control",
    "neighbours-off-by-one": "a tile d needs d+1 occupied neighbours when d is odd",
    "locks-ignored": "locked tiles may move",
    "phantom-neighbour": "an empty cell may count as an occupied neighbour",
    "count-dropped": "the count of the highest tile number is not enforced",
    "blocked-allowed": "blocked cells may hold a tile",
    "neighbours-at-least": "a tile d needs at least d occupied neighbours, not exactly d",
    # count-only: these lose solutions and never make a wrong one, so only counting catches them
    "zero-off-rim": "an unlocked 0 may not stand on the rim",
    "centre-occupied": "the centre cell may not stay empty",
}

#: Mutants that only lose solutions (every solution they find is valid), per family.
COUNT_ONLY: dict[str, tuple[str, ...]] = {
    "hexiom": ("zero-off-rim", "centre-occupied"),
    "logic": ("next-to-as-left-of", "somewhere-as-left-of", "first-value-not-first"),
    "sigils": ("rotation-missing", "first-type-off-the-corner"),
}


def encode(level, variant: str, options):
    """Hexiom as CNF: one-hot placement, exact counts, exact neighbour counts — unless mutated."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    from trisolve.backends.pysat.engine import CnfEncoding
    from trisolve.models.hexiom import model as hexiom

    board = level.board
    pool = IDPool()
    clauses: list[list[int]] = []
    tile = {(c, d): pool.id(("tile", c, d)) for c in range(board.size) for d in range(hexiom.MAX_TILE + 1)}
    occupied = {c: pool.id(("occupied", c)) for c in range(board.size)}

    def card(literals, bound, kind):
        encoder = {"equals": CardEnc.equals, "atmost": CardEnc.atmost, "atleast": CardEnc.atleast}[kind]
        formula = encoder(lits=literals, bound=bound, vpool=pool, encoding=EncType.seqcounter)
        return formula.clauses

    for c in range(board.size):
        numbers = [tile[c, d] for d in range(hexiom.MAX_TILE + 1)]
        # occupied(c) <=> some number on c
        if variant != "phantom-neighbour":
            clauses.append([-occupied[c], *numbers])
        clauses.extend([[-t, occupied[c]] for t in numbers])
        # at most one number per cell
        clauses.extend(card(numbers, 1, "atmost"))
    # blocked cells stay empty
    if variant != "blocked-allowed":
        clauses.extend([[-occupied[c]] for c in level.blocked_cells])
    # locked tiles stay
    if variant != "locks-ignored":
        clauses.extend([[tile[c, d]] for c, d in level.locked_tiles])
    # tile counts
    for d in range(hexiom.MAX_TILE + 1):
        if variant == "count-dropped" and d == max(n for n in range(7) if level.tile_counts[n] or n == 0):
            continue
        clauses.extend(card([tile[c, d] for c in range(board.size)], level.tile_counts[d], "equals"))
    # neighbour rule: tile d on c => exactly d occupied neighbours
    for c in range(board.size):
        around = [occupied[n] for n in board.neighbours[c]]
        for d in range(hexiom.MAX_TILE + 1):
            need = d + 1 if (variant == "neighbours-off-by-one" and d % 2 == 1) else d
            if need > len(around):
                clauses.append([-tile[c, d]])
                continue
            kinds = ["atleast"] if variant == "neighbours-at-least" else ["atleast", "atmost"]
            for kind in kinds:
                for clause in card(around, need, kind):
                    clauses.append([-tile[c, d], *clause])

    locked = dict(level.locked_tiles)
    if variant == "zero-off-rim":
        clauses.extend([-tile[c, 0]] for c in range(board.size) if len(board.neighbours[c]) < 6 and locked.get(c) != 0)
    if variant == "centre-occupied" and board.size // 2 not in level.blocked_cells:
        clauses.append([occupied[board.size // 2]])

    projection = [tile[key] for key in sorted(tile)]
    by_var = {v: key for key, v in tile.items()}

    def decode(true):
        cells: list[int | None] = [None] * board.size
        for v in true:
            c, d = by_var[v]
            cells[c] = d if cells[c] is None else max(cells[c], d)
        return hexiom.Solution(tuple(cells))

    # full projection blocking: a mutant may place a different number of tiles per solution
    return CnfEncoding(pool, clauses, projection, decode, block_true_only=False)


#: Logic-grid mutants: the real pysat translator, fed clues read wrongly.
LOGIC_MUTATIONS: dict[str, str] = {
    "correct": "no bug: the control",
    "next-to-as-left-of": "a next_to clue is read as left_of (one direction only)",
    "somewhere-as-left-of": "a somewhere_left_of clue is read as immediately left_of",
    "not-same-dropped": "not_same clues are ignored",
    "first-value-not-first": "the first value of the first category may not sit at position 1",
}


def encode_logic(level, variant: str, options):
    """The shipped logic CNF on a copy of the puzzle whose clues were misread."""
    import dataclasses

    from trisolve.backends.pysat import logic as shipped
    from trisolve.models.logic.model import Clue, Item

    misread = {"next-to-as-left-of": ("next_to", "left_of"), "somewhere-as-left-of": ("somewhere_left_of", "left_of")}
    clues = []
    if variant == "first-value-not-first":
        clues.append(Clue("not_at", (Item(0, 0),), (1,)))
    for clue in level.clues:
        if variant in misread and clue.kind == misread[variant][0]:
            clue = dataclasses.replace(clue, kind=misread[variant][1])
        if variant == "not-same-dropped" and clue.kind == "not_same":
            continue
        clues.append(clue)
    return shipped.encode(dataclasses.replace(level, clues=tuple(clues)), shipped.CATALOG.default, options)


#: Sigil mutants: the real pysat translator on a level whose pieces are read wrongly.
SIGIL_MUTATIONS: dict[str, str] = {
    "correct": "no bug: the control",
    "rotation-missing": "each piece loses one of its orientations",
    "mirroring-allowed": "pieces may also be flipped over",
    "first-type-off-the-corner": "the first piece type may not cover the top-left cell",
}


def encode_sigils(level, variant: str, options):
    """The shipped sigil CNF on a copy of the level with its pieces misread."""
    import dataclasses

    from trisolve.backends.pysat import sigils as shipped
    from trisolve.models.sigils import model

    if variant == "mirroring-allowed":
        level = dataclasses.replace(level, mirroring=True)
    elif variant == "rotation-missing":

        @dataclasses.dataclass(frozen=True)
        class OneRotationShort(model.Piece):
            def orientations(self, mirroring: bool = False):
                found = model.Piece.orientations(self, mirroring)
                return found[:-1] if len(found) > 1 else found

        pieces = tuple(OneRotationShort(p.name, p.shape) for p in level.pieces)
        level = dataclasses.replace(level, pieces=pieces)
    cnf = shipped.encode(level, shipped.CATALOG.default, options)
    if variant == "first-type-off-the-corner" and level.pieces and not level.obstruction:
        first = level.pieces[0].name
        cnf.clauses.extend(
            [-cnf.pool.id(("place", name, cells))]
            for name, cells in model.frame_placements(level)
            if name == first and 0 in cells
        )
    return cnf


MUTANT_TRANSLATORS = {
    "hexiom": (MUTATIONS, encode),
    "logic": (LOGIC_MUTATIONS, encode_logic),
    "sigils": (SIGIL_MUTATIONS, encode_sigils),
}


def backend() -> types.SimpleNamespace:
    """The ``mutant`` backend: one translator per family whose variants are its mutations, on pysat's mechanics."""
    from trisolve.backends import pysat
    from trisolve.backends.catalog import Catalog

    translators = {
        family: types.SimpleNamespace(CATALOG=Catalog(default="correct", variants=dict(mutations)), encode=encoder)
        for family, (mutations, encoder) in MUTANT_TRANSLATORS.items()
    }
    return pysat.backend("mutant", translators)


def register() -> None:
    from trisolve.backends import registry

    registry.register("mutant", backend())


if __name__ == "trisolve_plugin":  # loaded with --plugin
    register()
