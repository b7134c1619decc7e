"""Sudoku's own ASP rules (``sudoku.lp``): the facts they read, and their shown atoms back as a grid.

The facts hold integers only (the size, the box shape, the givens), written here:
nothing a user typed reaches the program.  The rules are independent of any
constraint model of the family, so a cross-check sets two statements of the
rules against each other.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..family import AspRules
from .model import Level, Solution

RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sudoku.lp")


def facts(level: Level) -> str:
    """``size(N).``, ``box(BW,BH).`` and ``given(R,C,D).`` per given."""
    width, height = level.box
    lines = [f"size({int(level.size)}).", f"box({int(width)},{int(height)})."]
    lines += [f"given({int(r)},{int(c)},{int(d)})." for r, c, d in level.given_cells]
    return "\n".join(lines) + "\n"


def decode(level: Level, atoms: Sequence[tuple]) -> Solution:
    """``value(R,C,D)`` atoms to the filled grid (a cell no atom fills reads 0, which the validator refuses)."""
    n = level.size
    cells = [0] * (n * n)
    for atom in atoms:
        if atom[0] == "value" and 0 <= atom[1] < n and 0 <= atom[2] < n:
            cells[atom[1] * n + atom[2]] = atom[3]
    return Solution(tuple(tuple(cells[r * n : r * n + n]) for r in range(n)))


RULES_FOR_CLINGO = AspRules(rules=RULES, facts=facts, decode=decode)
