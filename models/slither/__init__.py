"""Slitherlink (``slither``), one of the puzz.link families: its model (``model.py``: Level, Solution, parsers,
the validator, text), its constraint model (``constraints.py``), its generator (``generate.py``), its
picture (``picture.py``) and its own ASP rules (``slither.lp``, with ``asp.py``).

``FAMILY`` is the record the commands read (docs/adding-a-family.md); the file and link formats are in
docs/slither.md.
"""

from __future__ import annotations

from .. import grids
from ..family import Parameter
from . import asp, constraints, generate, model, picture

FAMILY = grids.family_record(
    model,
    asp.RULES_FOR_CLINGO,
    picture.picture,
    constraints=constraints.constraints,
    constraint_kinds=constraints.KINDS,
    generate=generate.generate,
    generator_parameters=(
        *grids.side_parameters(model.MAX_SIDE),
        Parameter("inside", float, 0, 1, "share of the cells inside the loop (default 0.5)", low_open=True),
        Parameter("keep", float, 0, 1, "without --unique: share of the cells that show their number (default 0.5)"),
    ),
    ladder=grids.side_ladder(),
)

__all__ = ["FAMILY", "model"]
