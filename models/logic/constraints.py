"""A logic grid's rules as a constraint model (``trisolve.constraints``).

The position of every value (1..N) is a small integer, the puzzle's own
variables.  The rules: the values of one category stand at different
positions (so each position holds exactly one of them); each clue, in the
words the file gives it (or its precise meaning), is a handful of clauses
over "value v is at position p".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .model import Item, Level, Solution, clue_words

if TYPE_CHECKING:
    from ...constraints import Assignment, IntVar, Model

#: The kinds of constraint the model uses.
KINDS = frozenset({"unit", "clause", "exactly_one", "all_different"})


def constraints(level: Level) -> Model:
    from ...constraints import Model

    n = level.positions
    model = Model(f"logic {level.name}".strip())
    where: dict[Item, IntVar] = {
        item: model.integer(
            ("position", level.reference(item)),
            range(1, n + 1),
            own=True,
            label=f"{level.reference(item)} is at one position",
        )
        for item in level.items
    }

    # The values of a category stand at different positions.
    for c, category in enumerate(level.categories):
        model.all_different(
            [where[Item(c, v)] for v in range(len(category.values))], label=f"each position has one {category.name}"
        )

    # Each clue.
    for clue in level.clues:
        words = clue_words(level, clue)
        for literals in _clue_clauses(clue, n, where):
            model.clause(literals, label=words, role="clue")

    def decode(values: Assignment) -> Solution:
        return Solution.of(
            level,
            [
                [values.value(where[Item(c, v)]) for v in range(len(category.values))]
                for c, category in enumerate(level.categories)
            ],
        )

    model.decode_with(decode)
    return model


def _clue_clauses(clue, n: int, where: dict[Item, IntVar]) -> Iterable[list[int]]:
    """The clauses that say one clue: "if a is at p, then ..." for every position p."""
    positions = range(1, n + 1)

    def at(item: Item, p: int) -> int:
        return where[item].eq(p)

    def anywhere(item: Item, ps: Iterable[int]) -> list[int]:
        return [at(item, q) for q in ps if 1 <= q <= n]

    kind, items = clue.kind, clue.items
    if kind == "same":
        a, b = items
        for p in positions:
            yield [-at(a, p), at(b, p)]
            yield [-at(b, p), at(a, p)]
    elif kind == "not_same":
        a, b = items
        for p in positions:
            yield [-at(a, p), -at(b, p)]
    elif kind == "at":
        p = clue.numbers[0]
        yield [at(items[0], p)] if 1 <= p <= n else []
    elif kind == "not_at":
        p = clue.numbers[0]
        if 1 <= p <= n:
            yield [-at(items[0], p)]
    elif kind in ("next_to", "distance"):
        a, b = items
        k = 1 if kind == "next_to" else clue.numbers[0]
        for p in positions:
            yield [-at(a, p), *anywhere(b, (p - k, p + k))]
            yield [-at(b, p), *anywhere(a, (p - k, p + k))]
    elif kind == "left_of":
        a, b = items
        for p in positions:
            yield [-at(a, p), *anywhere(b, (p + 1,))]
            yield [-at(b, p), *anywhere(a, (p - 1,))]
    elif kind == "somewhere_left_of":
        a, b = items
        for p in positions:
            yield [-at(a, p), *anywhere(b, range(p + 1, n + 1))]
            yield [-at(b, p), *anywhere(a, range(1, p))]
    elif kind == "either_or":
        a, b, c = items
        for p in positions:
            yield [-at(a, p), at(b, p), at(c, p)]
            yield [-at(a, p), -at(b, p), -at(c, p)]
    elif kind == "one_of":
        yield anywhere(items[0], clue.numbers)
    else:
        raise ValueError(f"no constraint model for clue kind {kind!r}")
