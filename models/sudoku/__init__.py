"""Sudoku (``sudoku``), one of the puzz.link families: its model (``model.py``: Level, Solution, parsers,
the validator, text), its constraint model (``constraints.py``), its picture (``picture.py``)
and its own ASP rules (``sudoku.lp``, with ``asp.py``).

``FAMILY`` is the record the commands read (docs/adding-a-family.md); the file and link formats are in
docs/sudoku.md.
"""

from __future__ import annotations

from .. import grids
from . import asp, constraints, model, picture

FAMILY = grids.family_record(
    model,
    asp.RULES_FOR_CLINGO,
    picture.picture,
    obstruction=lambda level: level.obstruction,
    constraints=constraints.constraints,
    constraint_kinds=constraints.KINDS,
)

__all__ = ["FAMILY", "model"]
