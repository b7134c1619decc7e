"""Logic-grid puzzles built around a random solution.

A random arrangement is drawn first; clues are then drawn at random among
those true of it, preferring clues that rule out the other solution the
solver found, until the arrangement is the only solution.  Finally every
clue that the others already imply is removed.
"""

from __future__ import annotations

import random

from ..family import Generated, Request
from . import model as logic
from .model import Category, Clue, Item, Level, Solution

CATEGORY_NAMES = ("colour", "pet", "drink", "nation", "sport", "job", "car", "fruit")
#: Random draws tried per added clue before settling for a clue that only holds.
DRAWS = 200


def random_solution(level: Level, rng: random.Random) -> Solution:
    """Each category's values shuffled over the positions 1..N."""
    rows = []
    for category in level.categories:
        places = list(range(1, level.positions + 1))
        rng.shuffle(places)
        rows.append(places[: len(category.values)])
    return Solution.of(level, rows)


def random_clue(level: Level, solution: Solution, rng: random.Random) -> Clue:
    """A clue of a random kind that holds in ``solution``."""
    n = level.positions
    at = {(c, p): Item(c, v) for c, row in enumerate(solution.positions) for v, p in enumerate(row)}
    categories = range(len(level.categories))

    def item_at(p: int, avoid: tuple[Item, ...] = ()) -> Item:
        return rng.choice([at[(c, p)] for c in categories if at[(c, p)] not in avoid])

    kinds = ["same", "not_same", "at", "not_at", "next_to", "left_of", "somewhere_left_of", "distance", "one_of"]
    if len(level.categories) > 1 and n > 1:
        kinds.append("either_or")
    if len(level.categories) < 2:
        kinds.remove("same")
    if n < 2:
        kinds = ["at", "same"] if len(level.categories) > 1 else ["at"]
    kind = rng.choice(kinds)
    p, q = rng.sample(range(1, n + 1), 2) if n > 1 else (1, 1)
    if kind == "same":
        a = item_at(p)
        return Clue(kind, (a, item_at(p, (a,))))
    if kind == "not_same":
        return Clue(kind, (item_at(p), item_at(q)))
    if kind == "at":
        return Clue(kind, (item_at(p),), (p,))
    if kind == "not_at":
        return Clue(kind, (item_at(p),), (q,))
    if kind in ("next_to", "left_of"):
        left = rng.randrange(1, n)
        pair = [item_at(left), item_at(left + 1)]
        if kind == "next_to":
            rng.shuffle(pair)
        return Clue(kind, tuple(pair))
    if kind == "somewhere_left_of":
        return Clue(kind, (item_at(min(p, q)), item_at(max(p, q))))
    if kind == "distance":
        return Clue(kind, (item_at(p), item_at(q)), (abs(p - q),))
    if kind == "one_of":
        others = [k for k in range(1, n + 1) if k != p]
        allowed = sorted([p] + rng.sample(others, rng.randint(1, max(1, n - 2))))
        return Clue(kind, (item_at(p),), tuple(allowed))
    # either_or: a is with exactly one of b and c
    a = item_at(p)
    pair = [item_at(p, (a,)), item_at(q, (a,))]
    rng.shuffle(pair)
    return Clue(kind, (a, *pair))


def _with(level: Level, clues: list[Clue]) -> Level:
    return Level(level.positions, level.categories, tuple(clues), level.questions, level.title, level.name)


def generate(request: Request, positions: int = 4, categories: int = 3) -> Generated:
    """One puzzle with exactly one solution, proved by ``counter``; the same seed always gives the same puzzle.

    (``request.unique`` changes nothing: logic puzzles are always made unique.)
    """
    seed, counter, name, time = request.seed, request.counter, request.name, request.time
    if not 1 <= positions <= logic.MAX_POSITIONS or not 1 <= categories <= len(CATEGORY_NAMES):
        raise ValueError(f"positions must be 1..{logic.MAX_POSITIONS} and categories 1..{len(CATEGORY_NAMES)}")
    rng = random.Random(f"logic:{positions}:{categories}:{seed}")
    names = CATEGORY_NAMES[:categories]
    cats = tuple(Category(c, tuple(f"{c}{v + 1}" for v in range(positions))) for c in names)
    empty = Level(positions, cats, (), (), title=f"generated logic puzzle (seed {seed})", name=name)
    solution = random_solution(empty, rng)

    # --- add clues until the solution is the only one
    clues: list[Clue] = []
    proved = False
    while True:
        count, complete, found = counter(_with(empty, clues), 2, time)
        others = [s for s in found if s.positions != solution.positions]
        if not others:
            proved = count == 1 and complete
            break
        other = others[0]
        for _ in range(DRAWS):  # prefer a clue the other solution breaks
            clue = random_clue(empty, solution, rng)
            if not logic.clue_holds(clue, other):
                break
        clues.append(clue)

    # --- remove clues the others imply (newest first: the early ones are the broad ones)
    if proved:
        for clue in list(reversed(clues)):
            trial = [c for c in clues if c is not clue]
            count, complete, _ = counter(_with(empty, trial), 2, time)
            if count == 1 and complete:
                clues = trial
    level = _with(empty, clues)
    assert not logic.validate(level, solution), "generator bug: the intended solution breaks a clue"
    text = logic.format_level(level)
    info = {"positions": positions, "categories": categories, "clues": len(clues)}
    return Generated(
        "logic", logic.parse_text(text, name=name), text, Solution.of(level, solution.positions), seed, proved, info
    )
