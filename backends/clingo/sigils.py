"""Sigils as ASP: integer facts for ``encodings/sigils.lp``.

A piece type becomes its number in the level's order (0, 1, ...); its shape
becomes ``piece_cell`` facts as drawn.  The user's piece names never reach
clingo: the only text in the facts is written here, from integers.  The
rules -- turning (and flipping) the pieces, sliding them into the frame, a
choice rule over placements with the piece counts as bounds, one cover
constraint per cell -- are all in the .lp file.
"""

from __future__ import annotations

from collections.abc import Sequence

import clingo

from ...models.sigils.model import Level, Solution
from ..base import Options
from ..catalog import Catalog
from .engine import AspProgram

CATALOG = Catalog(
    default="choice",
    variants={
        "choice": "orientations and placements derived in ASP; a choice rule per type bounded by its count; "
        "#count = 1 per cell; placements decided in reading order (#heuristic)",
    },
)
#: clingo options the encoding was measured fastest with (see encode)
ARGUMENTS: tuple[str, ...] = ("--configuration=crafty", "--heuristic=Domain")


def _fact(predicate: str, *arguments: int) -> str:
    # every argument is an int: nothing the user wrote can end up here
    return f"{predicate}({','.join(str(int(a)) for a in arguments)})." if arguments else f"{predicate}."


def facts(level: Level, symmetry_breaking: bool = False) -> str:
    """The level as facts for sigils.lp (plus the symmetries when asked)."""
    lines = [_fact("frame", level.width, level.height)]
    if level.obstruction:
        lines.append(_fact("obstructed"))
    if level.mirroring:
        lines.append(_fact("mirroring"))
    for t, (piece, count) in enumerate(zip(level.pieces, level.piece_counts)):
        lines.append(_fact("piece", t, count))
        lines.extend(_fact("piece_cell", t, r, c) for r, c in piece.shape)
    if symmetry_breaking:
        lines.append(_fact("types", len(level.pieces)))
        for s, symmetry in enumerate(level.symmetries):
            if s == 0:  # the identity
                continue
            lines.append(_fact("symmetry", s))
            lines.extend(_fact("moves", s, cell, image) for cell, image in enumerate(symmetry.cells))
            lines.extend(
                _fact("renames", s, t, level.type_index[symmetry.rename(piece.name)])
                for t, piece in enumerate(level.pieces)
            )
    return "\n".join(lines) + "\n"


def rules(variant: str, options: Options) -> list[str]:
    """The ``.lp`` files for a variant (symmetry breaking is in the same file, fed by facts)."""
    if variant not in CATALOG.variants:
        raise ValueError(f"unknown clingo sigils variant {variant!r}; known: {', '.join(CATALOG.variants)}")
    return ["sigils.lp"]


def encode(level: Level, variant: str, options: Options) -> AspProgram:
    files = rules(variant, options)
    names = [piece.name for piece in level.pieces]

    def decode(symbols: Sequence[clingo.Symbol]) -> Solution:
        # tile(T, A, B): cell B is in the piece of type T anchored on cell A
        pieces: dict[int, tuple[int, list[int]]] = {}
        for symbol in symbols:
            if symbol.name == "tile" and len(symbol.arguments) == 3:
                t, anchor, cell = (argument.number for argument in symbol.arguments)
                pieces.setdefault(anchor, (t, []))[1].append(cell)
        return Solution.of((names[t], cells) for t, cells in pieces.values())

    # crafty (clasp's preset for crafted problems) counts several times faster than
    # the default configuration (docs/bench/timing-notes.md, "clingo")
    # every atom follows from chosen/3, and tile/3 names each chosen placement by
    # its type, anchor and cells (orientations with equal cells were merged):
    # answer sets and tilings are one to one, so clasp need not project
    return AspProgram(
        rules=files, facts=facts(level, options.symmetry_breaking), decode=decode, arguments=ARGUMENTS, projective=False
    )
