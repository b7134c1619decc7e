"""Nurikabe (``nurikabe``), one of the puzz.link families: its model (``model.py``: Level, Solution, parsers,
the validator, text), its constraint model (``constraints.py``), its generator (``generate.py``), its
picture (``picture.py``) and its own ASP rules (``nurikabe.lp``, with ``asp.py``).

``FAMILY`` is the record the commands read (docs/adding-a-family.md); the file and link formats are in
docs/nurikabe.md.
"""

from __future__ import annotations

from .. import grids
from ..family import Parameter
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
        *grids.side_parameters(model.MAX_SIDE),
        Parameter("white", float, 0, 1, "share of the cells left unshaded (default 0.45)"),
        Parameter("island", int, 1, 400, "largest island drawn (default 8)"),
    ),
    # the mending proves small grids unique in a few tries, 10x10 and larger rarely (docs/nurikabe.md)
    ladder=grids.side_ladder((5, 6, 7, 8)),
)

__all__ = ["FAMILY", "model"]
