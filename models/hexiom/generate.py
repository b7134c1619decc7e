"""Hexiom levels built around a board that is already solved.

A random set of cells is occupied and each tile's number is read off its
occupied neighbours, so the board is a valid solution by construction; the
level is that board's multiset of tiles.  For a unique level, tiles of the
intended solution are locked (or its empty cells blocked) until the
solution count is exactly 1, choosing each lock to rule out as many of the
other solutions found as possible, then locks that turned out redundant are
taken back.
"""

from __future__ import annotations

import random
from collections import Counter

from ..family import Generated, Request, SolutionCounter
from . import model as hexiom
from .model import MAX_TILE, Board, Level, Solution

#: How many other solutions a locking step looks at to choose its lock.
ALTERNATIVES = 8


def random_board(side: int, rng: random.Random, fill: float = 0.5) -> Solution:
    """A solved board: each cell occupied with probability ``fill``, numbers from neighbours."""
    board = Board(side)
    occupied = [rng.random() < fill for _ in range(board.size)]
    if not any(occupied):
        occupied[rng.randrange(board.size)] = True
    cells = []
    for cell in range(board.size):
        if occupied[cell]:
            cells.append(sum(1 for n in board.neighbours[cell] if occupied[n]))
        else:
            cells.append(None)
    return Solution(tuple(cells))


def level_of(board: Board, solution: Solution, locked: dict[int, int], blocked: set[int], name: str = "") -> Level:
    """The level whose tiles are the solution's, with these locks and blocks."""
    counts = Counter(v for v in solution.cells if v is not None)
    tile_counts = tuple(counts[d] for d in range(MAX_TILE + 1))
    return Level(board, tile_counts, tuple(sorted(locked.items())), frozenset(blocked), name)


def _fix(cell: int, solution: Solution, locked: dict[int, int], blocked: set[int]) -> None:
    """Pin a cell to its intended content: lock its tile, or block it when empty."""
    value = solution.cells[cell]
    if value is None:
        blocked.add(cell)
    else:
        locked[cell] = value


def make_unique(
    board: Board, solution: Solution, rng: random.Random, counter: SolutionCounter, time: float = 30.0
) -> tuple[dict[int, int], set[int], bool]:
    """Locks and blocks that leave ``solution`` the only one; (locked, blocked, proved unique).

    Greedy: find up to ``ALTERNATIVES`` other solutions, pin the cell on which
    most of them differ from the intended one (ties broken by ``rng``), repeat
    until unique.  Then try dropping each pin (in random order) and keep it
    dropped when the level stays unique: no pin left is redundant.
    """
    locked: dict[int, int] = {}
    blocked: set[int] = set()
    while True:
        level = level_of(board, solution, locked, blocked)
        count, complete, found = counter(level, ALTERNATIVES + 1, time)
        others = [s for s in found if s.cells != solution.cells]
        if not others:
            if count == 1 and complete:
                break
            return locked, blocked, False  # timed out: cannot prove anything
        differs = Counter(c for s in others for c in range(board.size) if s.cells[c] != solution.cells[c])
        best = max(differs.values())
        choices = sorted(c for c, n in differs.items() if n == best)
        _fix(rng.choice(choices), solution, locked, blocked)
    # --- take back pins that the others make redundant
    pins = sorted(locked) + sorted(blocked)
    rng.shuffle(pins)
    for cell in pins:
        trial_locked = {c: n for c, n in locked.items() if c != cell}
        trial_blocked = blocked - {cell}
        count, complete, _ = counter(level_of(board, solution, trial_locked, trial_blocked), 2, time)
        if count == 1 and complete:
            locked, blocked = trial_locked, trial_blocked
    return locked, blocked, True


def generate(request: Request, side: int = 3, fill: float = 0.5) -> Generated:
    """One level on a side-``side`` board; the same seed always gives the same level.  ``counter`` proves it
    unique, when asked (``unique``)."""
    seed, counter, unique, name, time = request.seed, request.counter, request.unique, request.name, request.time
    if not 1 <= side <= hexiom.MAX_SIDE:
        raise ValueError(f"side must be 1..{hexiom.MAX_SIDE}, not {side}")
    rng = random.Random(f"hexiom:{side}:{fill}:{seed}")
    board = Board(side)
    solution = random_board(side, rng, fill)
    locked: dict[int, int] = {}
    blocked: set[int] = set()
    proved = False
    if unique:
        locked, blocked, proved = make_unique(board, solution, rng, counter, time)
    level = level_of(board, solution, locked, blocked, name)
    assert not hexiom.validate(level, solution), "generator bug: the intended solution breaks the rules"
    text = hexiom.format_level(level)
    info = {
        "side": side,
        "fill": fill,
        "locks": len(locked) + len(blocked),
        "locked_tiles": len(locked),
        "blocked_cells": len(blocked),
    }
    return Generated("hexiom", hexiom.parse_text(text, name=name), text, solution, seed, proved, info)
