"""Nurikabe's own ASP rules (``nurikabe.lp``): the facts they read, and their shown atoms back as a shading.

The facts hold integers only (sizes, coordinates, clue numbers), written here:
nothing a user typed reaches the program.  The rules are independent of any
constraint model of the family, so a cross-check sets two statements of the
rules against each other.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..family import AspRules
from .model import UNKNOWN, Level, Solution

RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nurikabe.lp")


def facts(level: Level) -> str:
    """``size(W,H).``, ``clue(R,C,N).`` per numbered clue and ``unsized(R,C).`` per clue without its number."""
    lines = [f"size({int(level.width)},{int(level.height)})."]
    for r, c, clue in level.clue_cells:
        lines.append(f"unsized({int(r)},{int(c)})." if clue == UNKNOWN else f"clue({int(r)},{int(c)},{int(clue)}).")
    return "\n".join(lines) + "\n"


def decode(level: Level, atoms: Sequence[tuple]) -> Solution:
    """``shaded(R,C)`` atoms to the shaded cells."""
    return Solution.of(atom[1:3] for atom in atoms if atom[0] == "shaded")


RULES_FOR_CLINGO = AspRules(rules=RULES, facts=facts, decode=decode)
