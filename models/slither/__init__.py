"""Slitherlink (``slither``), a puzz.link genre: its package (``grids.family_record``), rules in ``slither.lp``."""

from __future__ import annotations

from .. import grids
from ..family import Parameter
from . import model

FAMILY = grids.family_record(
    __name__,
    generator_parameters=(
        *grids.side_parameters(model.MAX_SIDE),
        Parameter("inside", float, 0, 1, "share of the cells inside the loop (default 0.5)", low_open=True),
        Parameter("keep", float, 0, 1, "without --unique: share of the cells that show their number (default 0.5)"),
    ),
    ladder=grids.side_ladder(),
)

__all__ = ["FAMILY", "model"]
