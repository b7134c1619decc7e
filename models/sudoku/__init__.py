"""Sudoku (``sudoku``), one of the puzz.link families: its model (``model.py``: Level, Solution, parsers,
the validator, text), its constraint model (``constraints.py``), its generator (``generate.py``), its
picture (``picture.py``) and its own ASP rules (``sudoku.lp``, with ``asp.py``).

``FAMILY`` is the record the commands read (docs/adding-a-family.md); the file and link formats are in
docs/sudoku.md.
"""

from __future__ import annotations

from .. import grids
from ..family import Ladder, Parameter, Rung
from . import asp, constraints, generate, model, picture

FAMILY = grids.family_record(
    model,
    asp.RULES_FOR_CLINGO,
    picture.picture,
    obstruction=lambda level: level.obstruction,
    constraints=constraints.constraints,
    constraint_kinds=constraints.KINDS,
    generate=generate.generate,
    generator_parameters=(
        Parameter("size", int, 4, 25, "digits per row: 4, 6, 9, 16 or 25 (default 9)"),
        Parameter("keep", float, 0, 1, "without --unique: share of the cells given (default 0.4)"),
    ),
    ladder=Ladder(
        "grid side",
        lambda level: level.size,
        tuple(Rung(size, {"size": size}) for size in (4, 6, 9, 16)),
        unique=True,
    ),
)

__all__ = ["FAMILY", "model"]
