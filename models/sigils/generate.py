"""Sigil frames built from a random tiling.

A random frame is tiled by a randomised backtracking search (fill the first
empty cell with a random piece in a random orientation), so the piece
multiset it used is known to tile the frame and the tiling is recorded.
For a unique level, tilings are drawn until one's multiset has exactly one
tiling (rare beyond small frames: the frame's own symmetries usually map
a tiling to another one).
"""

from __future__ import annotations

import random
from collections import Counter

from ..family import Generated, Request
from . import model as sigils
from .model import BUILTIN_PIECES, TETROMINOES, Level, Solution

#: Frames tried per seed before a unique level is given up on.
UNIQUE_ATTEMPTS = 200


def random_tiling(width: int, height: int, rng: random.Random) -> Solution | None:
    """A random tiling of the frame by one-sided tetrominoes, or None when there is none."""
    free = [[True] * width for _ in range(height)]
    placed: list[tuple[str, list[int]]] = []
    options = [(name, shape) for name in TETROMINOES for shape in BUILTIN_PIECES[name].orientations(False)]

    def first_free() -> tuple[int, int] | None:
        for r in range(height):
            for c in range(width):
                if free[r][c]:
                    return r, c
        return None

    def fill() -> bool:
        spot = first_free()
        if spot is None:
            return True
        r0, c0 = spot
        for name, shape in rng.sample(options, len(options)):
            # anchor the shape's first cell (reading order) on the first free cell
            dr, dc = r0 - shape[0][0], c0 - shape[0][1]
            cells = [(r + dr, c + dc) for r, c in shape]
            if all(0 <= r < height and 0 <= c < width and free[r][c] for r, c in cells):
                for r, c in cells:
                    free[r][c] = False
                placed.append((name, [r * width + c for r, c in cells]))
                if fill():
                    return True
                placed.pop()
                for r, c in cells:
                    free[r][c] = True
        return False

    if (width * height) % 4 or not fill():
        return None
    return Solution.of(placed)


def level_of(width: int, height: int, solution: Solution, name: str = "") -> Level:
    """The level whose pieces are those the tiling used, in the built-in order."""
    used = Counter(p.piece for p in solution.placements)
    names = [n for n in TETROMINOES if used[n]]
    return Level(width, height, tuple(BUILTIN_PIECES[n] for n in names), tuple(used[n] for n in names), False, name)


def generate(request: Request, width: int = 4, height: int = 4) -> Generated:
    """One level on a ``width`` x ``height`` frame; the same seed always gives the same level.  ``counter``
    proves it unique, when asked (``unique``)."""
    seed, counter, unique, name, time = request.seed, request.counter, request.unique, request.name, request.time
    if (width * height) % 4 or width < 1 or height < 1 or max(width, height) > sigils.MAX_SIDE:
        raise ValueError(f"a {width}x{height} frame cannot be tiled by tetrominoes (area must be a multiple of 4)")
    rng = random.Random(f"sigils:{width}x{height}:{seed}")
    attempts = UNIQUE_ATTEMPTS if unique else 1
    proved = False
    count = None
    for attempt in range(attempts):  # noqa: B007 - reported after the loop
        solution = random_tiling(width, height, rng)
        if solution is None:
            raise ValueError(f"no tetromino tiling of a {width}x{height} frame")
        level = level_of(width, height, solution, name)
        if unique:
            count, complete, _ = counter(level, 2, time)
            if count == 1 and complete:
                proved = True
                break
    assert not sigils.validate(level, solution), "generator bug: the recorded tiling breaks the rules"
    text = sigils.format_level(level)
    info = {"width": width, "height": height, "attempts": attempt + 1}
    return Generated("sigils", sigils.parse_text(text, name=name), text, solution, seed, proved, info)
