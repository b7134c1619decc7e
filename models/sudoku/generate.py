"""Sudoku levels built around a grid filled first.

The filled grid is a shuffled copy of a plain pattern (row ``r`` of the
pattern is the first row shifted by whole boxes and single cells): its
digits relabelled, the rows shuffled within each band of boxes and the
bands among themselves, the same for the columns, and on square boxes the
grid turned on its diagonal at random.  Each step keeps every row, column
and box a permutation of the digits.  Every cell is then a given; for a
unique level the givens are taken away in random order as long as the grid
stays the only one (``grids.thin_clues``, counted by the ``counter`` the
layer above hands in: the models import no solver).
"""

from __future__ import annotations

import random

from .. import grids
from ..family import Generated, Request
from . import model as sudoku
from .model import BOXES, Level, Solution


def random_grid(size: int, rng: random.Random) -> Solution:
    """A filled grid of ``size`` (a size puzz.link draws), shuffled from the plain pattern."""
    box_width, box_height = BOXES[size]
    stacks, bands = size // box_width, size // box_height

    def pattern(row: int, col: int) -> int:
        # within a band each row moves on by a box's width; each band moves on by one cell
        return (box_width * (row % box_height) + row // box_height + col) % size

    def shuffled(groups: int, group: int) -> list[int]:
        order = [g * group + i for g in rng.sample(range(groups), groups) for i in rng.sample(range(group), group)]
        return order

    rows, cols = shuffled(bands, box_height), shuffled(stacks, box_width)
    digits = rng.sample(range(1, size + 1), size)
    grid = [[digits[pattern(r, c)] for c in cols] for r in rows]
    if box_width == box_height and rng.random() < 0.5:
        grid = [list(column) for column in zip(*grid)]
    return Solution(tuple(tuple(row) for row in grid))


def generate(request: Request, size: int = 9, keep: float = 0.4) -> Generated:
    """One level of ``size`` (4, 6, 9, 16 or 25); the same seed always gives the same level.  With ``unique``,
    givens are taken away while ``counter`` proves the grid the only one; without, a random ``keep`` share of the
    cells stays given (the grid is a solution, perhaps not the only one)."""
    seed, counter, unique, name, time = request.seed, request.counter, request.unique, request.name, request.time
    if size not in BOXES:
        raise ValueError(f"size must be one of {', '.join(map(str, sorted(BOXES)))}, not {size}")
    rng = random.Random(f"sudoku:{size}:{seed}")
    solution = random_grid(size, rng)
    full = tuple(digit for row in solution.grid for digit in row)

    def without(removed: frozenset[int]) -> Level:
        return Level(size, tuple(None if cell in removed else digit for cell, digit in enumerate(full)))

    if unique:  # every cell given: unique by itself
        removed = grids.thin_clues(range(size * size), without, counter, rng, time)
    else:
        removed = grids.random_share(size * size, 1 - keep, rng)
    level = Level(size, without(removed).givens, name)
    assert not sudoku.validate(level, solution), "generator bug: the intended grid breaks the rules"
    text = sudoku.format_level(level)
    info = {"size": size, "givens": size * size - len(removed), **({} if unique else {"keep": keep})}
    return Generated("sudoku", sudoku.parse_text(text, name=name), text, solution, seed, unique, info)
