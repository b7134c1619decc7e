"""Slitherlink levels built around a loop drawn first.

The loop is the outline of a region of cells grown at random from one
cell: a cell joins when the outline stays one loop (the region stays in one
piece without holes, and never touches itself at a corner only).  Every
cell then shows its number of sides on the loop; for a unique level the
clues are taken away in random order as long as the loop stays the only
one (``grids.thin_clues``, counted by the ``counter`` the layer above
hands in: the models import no solver).
"""

from __future__ import annotations

import random

from .. import grids
from ..family import Generated, Request
from . import model as slither
from .model import Level, Solution

#: The share of the grid's cells the region grows to, by default.
INSIDE = 0.5


def _outline(width: int, height: int, region: set[int]) -> Solution:
    """The edges between a cell of ``region`` and a cell outside it (or the grid's border)."""
    edges = []
    for cell in region:
        row, col = divmod(cell, width)
        inside = {
            (row - 1, col): ((row, col), (row, col + 1)),
            (row + 1, col): ((row + 1, col), (row + 1, col + 1)),
            (row, col - 1): ((row, col), (row + 1, col)),
            (row, col + 1): ((row, col + 1), (row + 1, col + 1)),
        }
        for (r, c), edge in inside.items():
            if not (0 <= r < height and 0 <= c < width and r * width + c in region):
                edges.append(edge)
    return Solution.of(edges)


def _keeps_one_loop(width: int, height: int, region: set[int], cell: int) -> bool:
    """Whether the region's outline stays one loop when ``cell`` joins: no corner-only touch (two diagonal
    cells of the region whose two shared neighbours are outside, or the reverse), and the cells outside stay
    joined to the border (no hole)."""
    row, col = divmod(cell, width)
    after = region | {cell}

    def inside(r: int, c: int) -> bool:
        return 0 <= r < height and 0 <= c < width and r * width + c in after

    for dr in (-1, 1):
        for dc in (-1, 1):
            if inside(row + dr, col + dc) and not inside(row, col + dc) and not inside(row + dr, col):
                return False
    outside = [c for c in range(width * height) if c not in after]
    if not outside:
        return True
    # every cell outside the region reaches the border through cells outside it
    seen = {c for c in outside if c // width in (0, height - 1) or c % width in (0, width - 1)}
    todo = list(seen)
    while todo:
        r, c = divmod(todo.pop(), width)
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            near = nr * width + nc
            if 0 <= nr < height and 0 <= nc < width and near not in after and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(outside)


def random_loop(width: int, height: int, rng: random.Random, inside: float = INSIDE) -> Solution:
    """A loop: the outline of a region of about ``inside`` of the cells, grown at random from one cell."""
    region = {rng.randrange(width * height)}
    target = max(1, round(inside * width * height))
    refused: set[int] = set()
    while len(region) < target:
        frontier = sorted(
            {
                r * width + c
                for cell in region
                for r, c in _neighbours(cell, width, height)
                if r * width + c not in region and r * width + c not in refused
            }
        )
        if not frontier:
            break
        cell = rng.choice(frontier)
        if _keeps_one_loop(width, height, region, cell):
            region.add(cell)
            refused.clear()  # a cell refused before may fit now
        else:
            refused.add(cell)
    return _outline(width, height, region)


def _neighbours(cell: int, width: int, height: int) -> list[tuple[int, int]]:
    row, col = divmod(cell, width)
    near = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    return [(r, c) for r, c in near if 0 <= r < height and 0 <= c < width]


def clues_of(width: int, height: int, loop: Solution) -> tuple[int, ...]:
    """Every cell's number of sides on the loop."""
    level = Level(width, height, (None,) * (width * height))
    used = set(loop.edges)
    return tuple(sum(side in used for side in level.sides(*divmod(cell, width))) for cell in range(width * height))


def generate(
    request: Request, width: int = 10, height: int = 10, inside: float = INSIDE, keep: float = 0.5
) -> Generated:
    """One level of ``width`` x ``height`` cells; the same seed always gives the same level.  With ``unique``,
    clues are taken away while ``counter`` proves the loop the only one (a loop whose full clues allow another
    is drawn again, up to five times); without, a random ``keep`` share of the cells shows its number."""
    seed, counter, unique, name, time = request.seed, request.counter, request.unique, request.name, request.time
    for side in (width, height):
        if not 1 <= side <= slither.MAX_SIDE:
            raise ValueError(f"width and height must be 1..{slither.MAX_SIDE}, not {side}")
    rng = random.Random(f"slither:{width}x{height}:{inside}:{seed}")
    cells = width * height

    def without(full: tuple[int, ...], removed: frozenset[int]) -> Level:
        return Level(width, height, tuple(None if cell in removed else n for cell, n in enumerate(full)))

    attempts = 0
    while True:
        attempts += 1
        loop = random_loop(width, height, rng, inside)
        full = clues_of(width, height, loop)
        proved = False
        removed = grids.random_share(cells, 1 - keep, rng)
        if unique:
            proved, _ = grids.unique_under(counter, Level(width, height, full), time)
            if not proved and attempts < 5:
                continue
            removed = frozenset()
            if proved:
                removed = grids.thin_clues(
                    range(cells), lambda gone, full=full: without(full, gone), counter, rng, time
                )
        break
    clues = without(full, removed).clues
    level = Level(width, height, clues, name)
    assert not slither.validate(level, loop), "generator bug: the intended loop breaks the rules"
    text = slither.format_level(level)
    info = {
        "width": width,
        "height": height,
        "inside": inside,
        "clues": sum(c is not None for c in clues),
        "loop_edges": len(loop.edges),
        "attempts": attempts,
    }
    return Generated("slither", slither.parse_text(text, name=name), text, loop, seed, proved, info)
