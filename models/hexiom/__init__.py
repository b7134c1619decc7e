"""Hexiom: numbered tiles on a hexagonal board, each tile numbered d with exactly d occupied neighbours.

The family's package: ``model`` (parse, validate, render, symmetries),
``picture`` (the board as SVG), ``generate`` (levels built around a solved
board) and this record, which tells every layer above what it needs to know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import whole_number
from ..family import Ladder, Parameter, Rung, first_line, from_model
from . import constraints, model

if TYPE_CHECKING:
    from ..family import Generated, Request


# The picture and the generator are imported when first called: solving a level needs neither (nor the
# drawing helpers and text wrapping the picture brings).
def _picture(level: model.Level, solution: model.Solution | None = None, radius: float = 30.0) -> str:
    """``picture.picture``: the board as SVG."""
    from . import picture as drawing

    return drawing.picture(level, solution, radius)


def _step_picture(level: model.Level, constraint_model: Any, marks: Any) -> str:
    """``picture.step_picture``: the board after one step of an explanation, as SVG."""
    from . import picture as drawing

    return drawing.step_picture(level, constraint_model, marks)


def _generate(request: Request, **options: Any) -> Generated:
    """``generate.generate``: a level built around a solved board."""
    from . import generate as generator

    return generator.generate(request, **options)


FAMILY = from_model(
    "hexiom",
    model,
    # a level file starts with its side, a number alone on the line
    sniff=lambda path, text: whole_number(first_line(text)) is not None,
    symmetries=lambda level: level.symmetries,
    images=lambda level, solution: [model.apply_symmetry(p, solution) for p in level.symmetries],
    orbit_representative=model.orbit_representative,
    is_lex_leader=model.is_lex_leader,
    picture=_picture,
    step_picture=_step_picture,
    # fallback only (selection/portfolio.json decides): the shortest first-solution tail over seeds on all 41 levels
    default_backend="clingo",
    generate=_generate,
    generator_parameters=(
        Parameter("side", int, 1, 16, "board side (default 3)"),
        Parameter("fill", float, 0, 1, "share of cells holding a tile (default 0.5)", low_open=True),
    ),
    ladder=Ladder(
        "board side",
        lambda level: level.board.side,
        tuple(Rung(side, {"side": side}) for side in (3, 4, 5, 6, 7)),
        unique=True,
    ),
    # dp counts every shipped level but level40 within seconds; clingo (ASP) and pysat (SAT) list 34 of the 41
    # within seconds each, their compiled variants (the constraint model below) on the same levels as fast
    # (docs/bench/crosscheck-defaults.md): hand-written and compiled encodings are set against each other
    crosscheck=("dp", "clingo", "pysat", "clingo:compiled", "pysat:compiled"),
    constraints=constraints.constraints,
    constraint_kinds=constraints.KINDS,
)
