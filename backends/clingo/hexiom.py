"""Hexiom as ASP: the level as integer facts; the rules live in ``encodings/hexiom*.lp``.

The facts say only what the level file says (cells, who is whose neighbour,
how many tiles of each number, locks, blocks) and, under symmetry breaking,
the level's symmetries.  Every rule of the puzzle is in the ``.lp`` files, so
an exported facts file plus those files runs under the plain ``clingo``.
"""

from __future__ import annotations

from collections.abc import Sequence

import clingo

from ...models.hexiom.model import Level, Solution
from ..base import Options
from ..catalog import Catalog
from .engine import AspProgram

CATALOG = Catalog(
    default="count",
    variants={
        "count": "choose each cell's tile; two one-sided #count bounds on occupied neighbours",
        "derived": "choose each cell's tile; derive occupied_neighbours(C,K) and require K = N",
        "occupancy": "choose only occupied cells; a tile's number is derived from its neighbours",
    },
)

#: Rule files per variant, after the shared hexiom.lp.
VARIANT_RULES: dict[str, str] = {
    "count": "hexiom_count.lp",
    "derived": "hexiom_derived.lp",
    "occupancy": "hexiom_occupancy.lp",
}

#: clingo options each variant was measured fastest with.  ``crafty`` brings
#: SAT preprocessing (``--sat-prepro=2,...``), which is what makes level 38
#: easy for ``count`` (docs/bench/timing-notes.md, "clingo").
VARIANT_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "count": ("--configuration=crafty",),
    "derived": ("--configuration=trendy", "--heuristic=Berkmin"),
    "occupancy": ("--configuration=frumpy",),
}


def rules(variant: str, options: Options) -> list[str]:
    """The ``.lp`` files for a variant, in load order."""
    files = ["hexiom.lp", VARIANT_RULES[variant]]
    if options.symmetry_breaking:
        files.append("hexiom_symmetry.lp")
    return files


def facts(level: Level, options: Options) -> str:
    """The level as integer facts, one group per line kind."""
    board = level.board
    lines = [f"cell(0..{board.size - 1})."]
    for cell, adjacent in enumerate(board.neighbours):
        lines.append(" ".join(f"neighbour({cell},{other})." for other in adjacent))
    lines.append(" ".join(f"tiles({number},{count})." for number, count in enumerate(level.tile_counts)))
    if level.locked_tiles:
        lines.append(" ".join(f"locked({cell},{number})." for cell, number in level.locked_tiles))
    if level.blocked_cells:
        lines.append(" ".join(f"blocked({cell})." for cell in sorted(level.blocked_cells)))
    if options.symmetry_breaking:
        # symmetry 0 is the identity: it constrains nothing
        for index, perm in enumerate(level.symmetries[1:], start=1):
            lines.append(" ".join(f"sym({index},{cell},{image})." for cell, image in enumerate(perm)))
    return "\n".join(lines) + "\n"


def decoder(level: Level):
    """Turn the shown ``tile(C,N)`` atoms of a model into a Solution."""
    size = level.board.size

    def decode(symbols: Sequence[clingo.Symbol]) -> Solution:
        cells: list[int | None] = [None] * size
        for symbol in symbols:
            if symbol.name != "tile" or len(symbol.arguments) != 2:
                raise ValueError(f"unexpected shown atom {symbol}")
            cell, number = (argument.number for argument in symbol.arguments)
            if cells[cell] is not None:
                raise ValueError(f"cell {cell} holds two tiles: {cells[cell]} and {number}")
            cells[cell] = number
        return Solution(tuple(cells))

    return decode


def encode(level: Level, variant: str, options: Options) -> AspProgram:
    if variant not in CATALOG.variants:
        raise ValueError(f"unknown clingo hexiom variant {variant!r}; known: {', '.join(CATALOG.variants)}")
    return AspProgram(
        rules=rules(variant, options),
        facts=facts(level, options),
        decode=decoder(level),
        arguments=VARIANT_ARGUMENTS[variant],
    )
