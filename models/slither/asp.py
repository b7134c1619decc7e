"""Slitherlink's own ASP rules (``slither.lp``): the facts they read, and their shown atoms back as a loop.

The facts hold integers only (sizes, coordinates, clue numbers), written here:
nothing a user typed reaches the program.  The rules are independent of any
constraint model of the family, so a cross-check sets two statements of the
rules against each other.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..family import AspRules
from .model import Level, Solution

RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "slither.lp")


def facts(level: Level) -> str:
    """``size(W,H).`` and ``clue(R,C,N).`` for every clue that gives its number."""
    lines = [f"size({int(level.width)},{int(level.height)})."]
    lines += [f"clue({int(r)},{int(c)},{int(n)})." for r, c, n in level.numbered]
    return "\n".join(lines) + "\n"


def decode(level: Level, atoms: Sequence[tuple]) -> Solution:
    """``line(R1,C1,R2,C2)`` atoms to the loop's edges."""
    return Solution.of((atom[1:3], atom[3:5]) for atom in atoms if atom[0] == "line")


RULES_FOR_CLINGO = AspRules(rules=RULES, facts=facts, decode=decode)
