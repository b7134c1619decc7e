"""Logic grids (Einstein's riddle, the Zebra puzzle): positions, one value per category each, and clues.

The family's package: ``model`` (parse, validate, render, the clues in
words), ``picture`` (the grid as an SVG table), ``generate`` (puzzles built
around a random solution, made unique clue by clue) and this record.
"""

from __future__ import annotations

from ..family import Ladder, Parameter, Rung, from_model
from . import constraints, generate, model, picture

FAMILY = from_model(
    "logic",
    model,
    # a logic grid is the only TOML format (docs/logic.md)
    sniff=lambda path, text: path.endswith(".toml"),
    picture=picture.picture,
    answers=model.answers,
    suffix=".toml",
    default_backend="pysat",
    generate=generate.generate,
    generator_parameters=(
        Parameter("positions", int, 1, 50, "positions (default 4)"),
        Parameter("categories", int, 1, 8, "categories (default 3)"),
    ),
    always_unique=True,
    ladder=Ladder(
        "grid cells (positions x categories)",
        lambda level: level.positions * len(level.categories),
        tuple(Rung(p * c, {"positions": p, "categories": c}) for p, c in ((4, 4), (5, 5), (6, 6), (8, 6), (8, 8))),
    ),
    constraints=constraints.constraints,
    constraint_kinds=constraints.KINDS,
)
