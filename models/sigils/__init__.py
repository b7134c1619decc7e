"""Sigil packing (from *The Talos Principle*): fill a rectangular frame with a multiset of polyominoes.

The family's package: ``model`` (pieces, parse, validate, render,
symmetries of the frame), ``picture`` (the tiling as SVG), ``generate``
(frames built from a random tiling) and this record.
"""

from __future__ import annotations

from ..family import Ladder, Parameter, Rung, first_line, from_model
from . import constraints, generate, model, picture

FAMILY = from_model(
    "sigils",
    model,
    # a level file starts with the frame's size, WxH
    sniff=lambda path, text: model.SIZE_LINE.match(first_line(text).split("#")[0].strip()) is not None,
    symmetries=lambda level: level.symmetries,
    images=lambda level, solution: [symmetry.apply(solution) for symmetry in level.symmetries],
    orbit_representative=model.orbit_representative,
    is_lex_leader=model.is_lex_leader,
    obstruction=lambda level: level.obstruction,
    picture=picture.picture,
    step_picture=picture.step_picture,
    default_backend="clingo",
    render_options=("colour",),
    generate=generate.generate,
    generator_parameters=(
        Parameter("width", int, 1, 40, "frame width (default 4)"),
        Parameter("height", int, 1, 40, "frame height (default 4)"),
    ),
    ladder=Ladder(
        "frame cells",
        lambda level: level.width * level.height,
        tuple(Rung(w * h, {"width": w, "height": h}) for w, h in ((4, 4), (4, 6), (6, 6), (6, 8), (8, 8))),
    ),
    # exactcover (Algorithm C) lists every shipped frame within seconds, dp counts all but the two largest
    # pentomino rectangles, clingo lists all but five (docs/bench/crosscheck-defaults.md)
    # clingo:compiled (the constraint model below) lists the same frames as clingo's own rules, as fast
    crosscheck=("dp", "exactcover", "clingo", "clingo:compiled"),
    constraints=constraints.constraints,
    constraint_kinds=constraints.KINDS,
)
