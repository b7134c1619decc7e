"""Logic-grid puzzles as exact cover with colours: the assignment is the cover, the clues are colours.

Primary items: ``c<k>@<p>`` (position p holds one value of category k) and
``c<k>=<v>`` (value v of category k sits at one position); the option
``c<k>=<v> c<k>@<p> where<k>.<v>:<p>`` puts the value there.  That much is
an assignment problem, exact cover's home ground.

The clues are the question.  Each value also sets the colour of its own
secondary item ``where<k>.<v>`` to its position.  A clue on two or three
values is a primary item ``clue<i>`` with one option per way the clue can
hold -- its values' positions -- each option colouring their ``where``
items with those positions: the cover picks the one that agrees with where
the values are.  A clue on one value (``at``, ``not_at``, ``one_of``) just
leaves out the positions it forbids.  Every clue option is determined by
the positions, so covers and solutions are one to one.

Names never reach the solver: items are numbered (``c2=4``); the exported
file's comments say which name each number is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product

from ...models.logic.model import Clue, Item, Level, Solution
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import Cover, ExactCover, check_size

CATALOG = Catalog(
    default="colours",
    variants={
        "colours": "items: (category, position) and (category, value); one option per value and position; "
        "each clue an item whose options colour its values' positions; Algorithm C (xcover)",
    },
    cross_check=False,
)

#: When a clue holds, stated on its values' positions (p) and its numbers (n) -- written
#: here from docs/logic.md's table, independently of the model's MEANINGS.
HOLDS: dict[str, Callable[[Sequence[int], Sequence[int]], bool]] = {
    "same": lambda p, n: p[0] == p[1],
    "not_same": lambda p, n: p[0] != p[1],
    "at": lambda p, n: p[0] == n[0],
    "not_at": lambda p, n: p[0] != n[0],
    "one_of": lambda p, n: p[0] in n,
    "next_to": lambda p, n: p[0] - p[1] in (1, -1),
    "left_of": lambda p, n: p[1] - p[0] == 1,
    "somewhere_left_of": lambda p, n: p[0] < p[1],
    "distance": lambda p, n: p[0] - p[1] in (n[0], -n[0]),
    "either_or": lambda p, n: (p[0] == p[1]) != (p[0] == p[2]),
}


def _at(item: Item) -> str:
    return f"c{item.category}={item.value}"


def _where(item: Item) -> str:
    return f"where{item.category}.{item.value}"


def encode(level: Level, variant: str, options: Options) -> ExactCover:
    CATALOG.require(variant, "exactcover", "logic")
    n = level.positions
    positions = range(1, n + 1)
    allowed = {item: set(positions) for item in level.items}
    rows: list[tuple[str, ...]] = []
    meaning: list[tuple[Item, int] | None] = []  # the (value, position) an option puts, None for a clue's

    # A clue on one value: the positions it forbids are never offered.
    for clue in level.clues:
        if len(clue.items) == 1 and mutation.keep(f"clue {clue.kind}"):
            (item,) = clue.items
            allowed[item] = {p for p in allowed[item] if _holds(clue, (p,))}

    # Implied: a position no clue can support is never offered (arc consistency, to a fixpoint).
    # Algorithm C meets a clue only when it branches on the clue's item; this does it once, up front.
    if mutation.keep("implied: unsupported positions left out"):
        _support(level, allowed)

    # The size, before anything is built: a clue on three values has up to positions^3 options.
    check_size(
        3 * sum(len(allowed[item]) for item in level.items)
        + sum(math.prod(len(allowed[item]) for item in clue.items) * (1 + len(clue.items)) for clue in level.clues),
        options.memory,
    )

    # Every value at one position, every position one value per category: the assignment.
    one_per_position = mutation.keep("a position holds one value per category")
    for item in level.items:
        for p in sorted(allowed[item]):
            own = [_at(item), *([f"c{item.category}@{p}"] if one_per_position else []), f"{_where(item)}:{p}"]
            rows.append(tuple(own))
            meaning.append((item, p))

    # A clue on several values: one option per way it holds, colouring their positions.
    clue_items: list[str] = []
    for index, clue in enumerate(level.clues, start=1):
        if len(clue.items) == 1 or not mutation.keep(f"clue {clue.kind}"):
            continue
        clue_items.append(f"clue{index}")
        for where in product(*(sorted(allowed[item]) for item in clue.items)):
            if _holds(clue, where):
                rows.append((f"clue{index}", *(f"{_where(item)}:{p}" for item, p in zip(clue.items, where))))
                meaning.append(None)

    primary = [_at(item) for item in level.items]
    if one_per_position:
        primary += [f"c{c}@{p}" for c in range(len(level.categories)) for p in positions]
    primary += clue_items
    secondary = [_where(item) for item in level.items]

    def solutions_of(cover: Cover) -> list[Solution]:
        rows_of = [[0] * len(category.values) for category in level.categories]
        for i in cover:
            placed = meaning[i]
            if placed is not None:
                item, p = placed
                rows_of[item.category][item.value] = p
        return [Solution.of(level, rows_of)]

    notes = tuple(
        f"c{c}=<v>: {category.name} value number v (from 0) of {', '.join(map(repr, category.values))}"
        for c, category in enumerate(level.categories)
    ) + (
        "c<k>@<p>: position p (from 1) holds one value of category k; where<k>.<v> (secondary): its position",
        "clue<i>: clue number i of the file holds (one option per way it can)",
    )
    return ExactCover(tuple(primary), tuple(secondary), tuple(rows), solutions_of, notes)


def _support(level: Level, allowed: dict[Item, set[int]]) -> None:
    """Remove every position of a value where some clue on it cannot hold, until nothing changes."""
    changed = True
    while changed:
        changed = False
        for clue in level.clues:
            if len(clue.items) == 1:
                continue
            ways = [where for where in product(*(sorted(allowed[item]) for item in clue.items)) if _holds(clue, where)]
            for k, item in enumerate(clue.items):
                supported = {where[k] for where in ways}
                if supported != allowed[item]:
                    allowed[item] = supported
                    changed = True


def _holds(clue: Clue, where: Sequence[int]) -> bool:
    try:
        test = HOLDS[clue.kind]
    except KeyError:
        raise ValueError(f"no exact-cover translation for clue kind {clue.kind!r}") from None
    return test(where, clue.numbers)
