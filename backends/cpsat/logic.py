"""Logic-grid puzzles as a CP-SAT model: the position of every value.

Two ways to hold a position, the clues the same for both:

* ``integer`` — one integer variable 1..N per value; the values of a
  category are all different (the textbook CP model);
* ``boolean`` — one boolean per (value, position) with exactly-one per value
  and per position; a value's position is the linear expression sum(p * b_p).

Clues are then (in)equalities and absolute differences over positions.  The
projection is the position variables (or the booleans); the only auxiliaries
(the two booleans of an ``either_or``) are fully defined, so no solution is
counted twice.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from ...models.logic.model import Clue, Item, Level, Solution
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import CpsatModel, cp_model

CATALOG = Catalog(
    default="integer",
    variants={
        "integer": "one integer position per value, AllDifferent per category",
        "boolean": "one-hot booleans per (value, position), exactly-one per value and position",
    },
)


def encode(level: Level, variant: str, options: Options) -> CpsatModel:
    if variant not in CATALOG.variants:
        raise ValueError(f"unknown cpsat logic variant {variant!r}; known: {', '.join(CATALOG.variants)}")
    module = cp_model()  # OR-Tools is imported only when a model is built
    model = module.CpModel()
    n = level.positions

    def label(item: Item) -> str:
        category = level.categories[item.category]
        return f"{category.name}={category.values[item.value]}"

    if variant == "integer":
        # each value at one position 1..N; a category's values all at different positions
        where = {item: model.new_int_var(1, n, label(item)) for item in level.items}
        for c, category in enumerate(level.categories):
            if mutation.keep("a position holds one value per category"):
                model.add_all_different([where[Item(c, v)] for v in range(len(category.values))])
        projection = [where[item] for item in level.items]

        def decode(values) -> Solution:
            return _solution(level, [int(x) for x in values])

    else:
        # place[item][p-1]: the value is at position p; exactly one per value and per position
        place = {item: [model.new_bool_var(f"{label(item)}@{p}") for p in range(1, n + 1)] for item in level.items}
        for item in level.items:
            if mutation.keep("a value at one position"):
                model.add_exactly_one(place[item])
        for c, category in enumerate(level.categories):
            for p in range(n):
                if mutation.keep("a position holds one value per category"):
                    model.add_exactly_one([place[Item(c, v)][p] for v in range(len(category.values))])
        where = {item: module.LinearExpr.weighted_sum(place[item], list(range(1, n + 1))) for item in level.items}
        projection = [b for item in level.items for b in place[item]]

        def decode(values) -> Solution:
            flags = list(values)
            return _solution(level, [flags[i * n : (i + 1) * n].index(1) + 1 for i in range(len(level.items))])

    for index, clue in enumerate(level.clues, start=1):
        if mutation.keep(f"clue {clue.kind}"):
            _post_clue(module, model, index, clue, where.__getitem__)
    return CpsatModel(model=model, projection=projection, decode=decode)


def _solution(level: Level, flat_positions: list[int]) -> Solution:
    """Positions listed item by item (level.items order) -> Solution."""
    rows, i = [], 0
    for category in level.categories:
        rows.append(flat_positions[i : i + len(category.values)])
        i += len(category.values)
    return Solution.of(level, rows)


def _post_clue(module: ModuleType, model: Any, index: int, clue: Clue, where: Callable[[Item], Any]) -> None:
    """Add one clue, stated on positions."""
    kind = clue.kind
    p = [where(item) for item in clue.items]
    if kind == "same":
        model.add(p[0] == p[1])
    elif kind == "not_same":
        model.add(p[0] != p[1])
    elif kind == "at":
        model.add(p[0] == mutation.bound("at: position", clue.numbers[0]))
    elif kind == "not_at":
        model.add(p[0] != mutation.bound("not_at: position", clue.numbers[0]))
    elif kind == "next_to":
        model.add_abs_equality(mutation.bound("next_to: distance", 1), p[0] - p[1])
    elif kind == "left_of":
        model.add(p[0] + mutation.bound("left_of: offset", 1) == p[1])
    elif kind == "somewhere_left_of":
        model.add(p[0] + mutation.bound("somewhere_left_of: gap", 0) < p[1])
    elif kind == "distance":
        model.add_abs_equality(mutation.bound("distance: distance", clue.numbers[0]), p[0] - p[1])
    elif kind == "either_or":
        # with_b <=> p0 == p1, with_c <=> p0 == p2 (both directions: no free auxiliaries)
        shares = []
        for other, name in ((p[1], "b"), (p[2], "c")):
            flag = model.new_bool_var(f"clue{index}_with_{name}")
            model.add(p[0] == other).only_enforce_if(flag)
            model.add(p[0] != other).only_enforce_if(~flag)
            shares.append(flag)
        model.add_exactly_one(shares)
    elif kind == "one_of":
        model.add_linear_expression_in_domain(p[0], module.Domain.from_values(list(clue.numbers)))
    else:
        raise ValueError(f"no CP-SAT constraint for clue kind {kind!r}")
