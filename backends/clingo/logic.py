"""Logic-grid puzzles as ASP: integer facts for ``encodings/logic.lp``.

Categories and values become their indices (category C, value V); each clue
becomes one ``clue_<kind>`` fact numbered by its place in the file.  The user's
names never reach clingo: the only text in the facts is written here, from
integers.  The rules (a choice rule per value, one value per position, one
integrity constraint per clue kind) are in the .lp file.
"""

from __future__ import annotations

from collections.abc import Sequence

import clingo

from ...models.logic.model import Clue, Level, Solution
from ..base import Options
from ..catalog import Catalog
from .engine import AspProgram

CATALOG = Catalog(
    default="choice",
    variants={"choice": "choice rule place(C,V,P) per value, #count per position, one constraint per clue kind"},
)

#: clue kind -> fact predicate; the argument order is (id, items..., numbers...)
PREDICATES = {
    "same": "clue_same",
    "not_same": "clue_not_same",
    "at": "clue_at",
    "not_at": "clue_not_at",
    "next_to": "clue_next_to",
    "left_of": "clue_left_of",
    "somewhere_left_of": "clue_somewhere_left_of",
    "distance": "clue_distance",
    "either_or": "clue_either_or",
    "one_of": "clue_one_of",
}


def _fact(predicate: str, *arguments: int) -> str:
    # every argument is an int: nothing the user wrote can end up here
    return f"{predicate}({','.join(str(int(a)) for a in arguments)})."


def _clue_facts(index: int, clue: Clue) -> list[str]:
    predicate = PREDICATES[clue.kind]
    items = [x for item in clue.items for x in (item.category, item.value)]
    if clue.kind == "one_of":
        return [_fact(predicate, index, *items, k) for k in clue.numbers]
    return [_fact(predicate, index, *items, *clue.numbers)]


def facts(level: Level) -> str:
    """The puzzle as facts for logic.lp."""
    lines = [_fact("positions", level.positions)]
    for item in level.items:
        lines.append(_fact("value", item.category, item.value))
    for index, clue in enumerate(level.clues, start=1):
        lines.extend(_clue_facts(index, clue))
    return "\n".join(lines) + "\n"


def rules(variant: str, options: Options) -> list[str]:
    """The ``.lp`` files for a variant, in load order (no symmetries to break)."""
    if variant not in CATALOG.variants:
        raise ValueError(f"unknown clingo logic variant {variant!r}; known: {', '.join(CATALOG.variants)}")
    return ["logic.lp"]


def encode(level: Level, variant: str, options: Options) -> AspProgram:
    files = rules(variant, options)

    def decode(symbols: Sequence[clingo.Symbol]) -> Solution:
        rows = [[0] * len(category.values) for category in level.categories]
        for symbol in symbols:
            if symbol.name == "place" and len(symbol.arguments) == 3:
                c, v, p = (argument.number for argument in symbol.arguments)
                rows[c][v] = p
        return Solution.of(level, rows)

    return AspProgram(rules=files, facts=facts(level), decode=decode)
