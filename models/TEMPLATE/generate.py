"""TEMPLATE levels built around a solution chosen at random, made unique by giving cells.

[GUIDELINE] A generator builds a level that is solvable by construction: draw
a solution first, then the level it solves.  It imports no solver: to prove a
level unique it asks ``counter(level, limit, time)``, which the layer above
hands it (``generate/common.py`` runs the family's ``counting_backend``).
The same seed always gives the same level.
"""

from __future__ import annotations

import random

from ..family import Generated, Request
from .model import MAX_CELLS, Level, Solution, format_level, parse_text, validate


def generate(request: Request, cells: int = 6) -> Generated:
    """One level of ``cells`` cells; with ``unique``, cells of the intended solution are given until the counter
    proves it the only one."""
    seed, counter, unique, name, time = request.seed, request.counter, request.unique, request.name, request.time
    if not 1 <= cells <= MAX_CELLS:
        raise ValueError(f"cells must be 1..{MAX_CELLS}, not {cells}")
    rng = random.Random(f"TEMPLATE:{cells}:{seed}")
    chosen = tuple(sorted(rng.sample(range(cells), rng.randint(0, cells))))
    solution = Solution(chosen)
    givens: dict[int, bool] = {}
    proved = False
    if unique:
        order = rng.sample(range(cells), cells)
        while True:
            count, complete, _ = counter(Level(cells, len(chosen), tuple(sorted(givens.items()))), 2, time)
            if complete and count == 1:
                proved = True
                break
            if count < 2 or not order:
                break  # cut short by the time limit before a second solution: that proves nothing
            cell = order.pop()
            givens[cell] = cell in chosen
    level = Level(cells, len(chosen), tuple(sorted(givens.items())), name)
    assert not validate(level, solution), "generator bug: the intended solution breaks the rules"
    text = format_level(level)
    return Generated("TEMPLATE", parse_text(text, name=name), text, solution, seed, proved, {"givens": len(givens)})
