"""Logic-grid puzzles as a 0-1 linear model: an assignment, written from the rules (models/logic/model.py) alone.

``place[item, p]`` is 1 when that value of its category sits at position p:
the puzzle's own variables, all of them.  Each value takes exactly one
position and each position exactly one value of every category (the
assignment rows); each clue is a few linear rows over those columns (see
``_clue``, one kind per block).  Names appear nowhere: columns are named by
category, value and position indices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ...models.logic.model import Clue, Item, Level, Solution
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import LinearModel, MipEncoding, empty_model, terms

CATALOG = Catalog(
    default="highs",
    variants={
        "highs": "0-1 assignment place(value, position), a few linear rows per clue; HiGHS",
        "scip": "the same 0-1 model; SCIP through OR-Tools' pywraplp",
    },
)


def encode(level: Level, variant: str, options: Options) -> MipEncoding:
    """The puzzle as a 0-1 model (the variant names the solver only: the model is the same)."""
    n = level.positions
    positions = range(1, n + 1)
    model = empty_model(CATALOG, variant, "logic")
    column = {
        (item, p): model.binary(f"place_c{item.category}_v{item.value}_p{p}") for item in level.items for p in positions
    }

    def place(item: Item, p: int) -> int:
        return column[item, p]

    # each value sits at exactly one position
    if mutation.keep("a value at one position"):
        for item in level.items:
            model.equal(terms(place(item, p) for p in positions), 1.0, "a value at one position")

    # each position holds exactly one value of every category
    if mutation.keep("a position holds one value per category"):
        for c, category in enumerate(level.categories):
            for p in positions:
                row = terms(place(Item(c, v), p) for v in range(len(category.values)))
                model.equal(row, 1.0, "a position holds one value per category")

    # the clues, one group per kind
    for clue in level.clues:
        if mutation.keep(f"clue {clue.kind}"):
            _clue(model, clue, n, place)

    def decode(true: frozenset[int]) -> Solution:
        rows = [[0] * len(category.values) for category in level.categories]
        for (item, p), col in column.items():
            if col in true:
                rows[item.category][item.value] = p
        return Solution.of(level, rows)

    # every solution sets one column per value: a no-good cut needs only those
    return MipEncoding(model, sorted(column.values()), decode, block_true_only=True)


def _clue(model: LinearModel, clue: Clue, n: int, place: Callable[[Item, int], int]) -> None:
    """The rows of one clue.  Where a clue relates two values both directions are written (a at p needs b
    nearby, and b at q needs a nearby): redundant given the assignment rows, but a tighter relaxation."""
    positions = range(1, n + 1)
    kind = clue.kind
    group = f"clue {kind}"

    def near(item: Item, p: int, offsets: Iterable[int]) -> list[tuple[int, float]]:
        """place(item, p + d) for every offset d that stays on the row."""
        return terms(place(item, p + d) for d in offsets if 1 <= p + d <= n)

    def implies(item: Item, p: int, options: list[tuple[int, float]]) -> None:
        """place(item, p) <= sum(options): at p, the item needs one of them."""
        model.at_most([(place(item, p), 1.0), *((c, -a) for c, a in options)], 0.0, group)

    if kind == "same":
        a, b = clue.items
        for p in positions:
            model.equal([(place(a, p), 1.0), (place(b, p), -1.0)], 0.0, group)
    elif kind == "not_same":
        a, b = clue.items
        for p in positions:
            model.at_most(terms([place(a, p), place(b, p)]), 1.0, group)
    elif kind == "at":
        p = mutation.bound("at: position", clue.numbers[0])
        model.equal(terms([place(clue.items[0], p)]) if 1 <= p <= n else [], 1.0, group)
    elif kind == "not_at":
        p = mutation.bound("not_at: position", clue.numbers[0])
        if 1 <= p <= n:
            model.equal(terms([place(clue.items[0], p)]), 0.0, group)
    elif kind in ("next_to", "distance"):
        a, b = clue.items
        k = mutation.bound(f"{kind}: distance", 1 if kind == "next_to" else clue.numbers[0])
        for p in positions:
            implies(a, p, near(b, p, (-k, k)))
            implies(b, p, near(a, p, (-k, k)))
    elif kind == "left_of":
        a, b = clue.items
        for p in positions:
            implies(a, p, near(b, p, (mutation.bound("left_of: offset", 1),)))
            implies(b, p, near(a, p, (-1,)))
    elif kind == "somewhere_left_of":
        a, b = clue.items
        for p in positions:
            implies(a, p, near(b, p, range(1, n)))
            implies(b, p, near(a, p, range(-n + 1, 0)))
    elif kind == "either_or":
        # a shares its position with exactly one of b and c
        a, b, c = clue.items
        for p in positions:
            implies(a, p, terms([place(b, p), place(c, p)]))
            model.at_most(terms([place(a, p), place(b, p), place(c, p)]), 2.0, group)
    elif kind == "one_of":
        model.equal(terms(place(clue.items[0], p) for p in clue.numbers if 1 <= p <= n), 1.0, group)
    else:
        raise ValueError(f"no 0-1 rows for clue kind {kind!r}")
