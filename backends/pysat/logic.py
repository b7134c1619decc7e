"""Logic-grid puzzles as CNF: one boolean per (value, position).

``("place", category, value, p)`` is true when that value of that category
sits at position p: for Einstein's 5x5 riddle that is 5*5*5 = 125 variables,
all of them the puzzle's own (the projection).  Each value takes exactly one
position and each position exactly one value of every category; each clue
becomes clauses over those variables.  Names appear only in the pool's keys
(DIMACS comments), never in clauses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...models.logic.model import Clue, Item, Level, Solution
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import CnfEncoding
from .signals import keeps_python_sigint

CATALOG = Catalog(
    default="pairwise",
    variants={
        "pairwise": "one-hot place(value, position); exactly-one as one clause + pairwise exclusions; CaDiCaL 1.9.5",
        "seqcounter": "one-hot place(value, position); exactly-one by the sequential counter (auxiliaries); "
        "CaDiCaL 1.9.5",
    },
)


@keeps_python_sigint
def encode(level: Level, variant: str, options: Options) -> CnfEncoding:
    if variant not in CATALOG.variants:
        raise ValueError(f"unknown pysat logic variant {variant!r}; known: {', '.join(CATALOG.variants)}")
    pool = IDPool()
    n = level.positions
    positions = range(1, n + 1)

    def place(item: Item, p: int) -> int:
        category = level.categories[item.category]
        return pool.id(("place", category.name, category.values[item.value], p))

    # the puzzle's own variables first, so their ids are 1..C*N*N in reading order
    projection = [place(item, p) for item in level.items for p in positions]
    clauses: list[list[int]] = []

    def exactly_one(literals: Sequence[int]) -> None:
        if variant == "pairwise":
            clauses.append(list(literals))
            clauses.extend([-a, -b] for i, a in enumerate(literals) for b in literals[i + 1 :])
        else:
            clauses.extend(
                CardEnc.equals(lits=list(literals), bound=1, vpool=pool, encoding=EncType.seqcounter).clauses
            )

    # each value sits at exactly one position
    if mutation.keep("a value at one position"):
        for item in level.items:
            exactly_one([place(item, p) for p in positions])

    # each position holds exactly one value of every category
    if mutation.keep("a position holds one value per category"):
        for c, category in enumerate(level.categories):
            for p in positions:
                exactly_one([place(Item(c, v), p) for v in range(len(category.values))])

    # the clues, one group per kind
    for clue in level.clues:
        if mutation.keep(f"clue {clue.kind}"):
            clauses.extend(_clue_clauses(clue, n, place))

    def decode(true: frozenset[int]) -> Solution:
        rows = [[0] * len(category.values) for category in level.categories]
        for item in level.items:
            for p in positions:
                if place(item, p) in true:
                    rows[item.category][item.value] = p
        return Solution.of(level, rows)

    return CnfEncoding(pool=pool, clauses=clauses, projection=projection, decode=decode, block_true_only=True)


def _clue_clauses(clue: Clue, n: int, place: Callable[[Item, int], int]) -> Iterable[list[int]]:
    """The clauses of one clue.  Both directions are stated where a clue
    relates two values (a at p needs b nearby, and b at q needs a nearby):
    redundant given exactly-one, but they let unit propagation work both ways."""
    positions = range(1, n + 1)
    kind = clue.kind

    def near(item: Item, p: int, offsets: Iterable[int]) -> list[int]:
        """place(item, p + d) for every offset d that stays on the row."""
        return [place(item, p + d) for d in offsets if 1 <= p + d <= n]

    if kind == "same":
        a, b = clue.items
        for p in positions:
            yield [-place(a, p), place(b, p)]
            if_b, then_a = mutation.implication("implied: same, b's position is a's", place(b, p), place(a, p))
            yield [-if_b, then_a]
    elif kind == "not_same":
        a, b = clue.items
        for p in positions:
            yield [-place(a, p), -place(b, p)]
    elif kind == "at":
        p = mutation.bound("at: position", clue.numbers[0])
        yield [place(clue.items[0], p)] if 1 <= p <= n else []
    elif kind == "not_at":
        p = mutation.bound("not_at: position", clue.numbers[0])
        if 1 <= p <= n:
            yield [-place(clue.items[0], p)]
    elif kind in ("next_to", "distance"):
        a, b = clue.items
        k = mutation.bound(f"{kind}: distance", 1 if kind == "next_to" else clue.numbers[0])
        for p in positions:
            yield [-place(a, p)] + near(b, p, (-k, k))
            yield [-place(b, p)] + near(a, p, (-k, k))
    elif kind == "left_of":
        a, b = clue.items
        for p in positions:
            yield [-place(a, p)] + near(b, p, (mutation.bound("left_of: offset", 1),))
            yield [-place(b, p)] + near(a, p, (-1,))
    elif kind == "somewhere_left_of":
        a, b = clue.items
        for p in positions:
            yield [-place(a, p)] + near(b, p, range(1, n))
            yield [-place(b, p)] + near(a, p, range(-n + 1, 0))
    elif kind == "either_or":
        # a shares its position with exactly one of b and c
        a, b, c = clue.items
        for p in positions:
            yield [-place(a, p), place(b, p), place(c, p)]
            yield [-place(a, p), -place(b, p), -place(c, p)]
    elif kind == "one_of":
        yield [place(clue.items[0], p) for p in clue.numbers]
    else:
        raise ValueError(f"no CNF for clue kind {kind!r}")
