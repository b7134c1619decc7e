"""Nurikabe (``nurikabe``), a puzz.link genre: its package (``grids.family_record``), rules in ``nurikabe.lp``."""

from __future__ import annotations

from .. import grids
from ..family import Parameter
from . import model

FAMILY = grids.family_record(
    __name__,
    generator_parameters=(
        *grids.side_parameters(model.MAX_SIDE),
        Parameter("white", float, 0, 1, "share of the cells left unshaded (default 0.45)"),
        Parameter("island", int, 1, 400, "largest island drawn (default 8)"),
    ),
    # the mending proves grids up to 30x30 unique, 30x30 in about a minute (docs/nurikabe.md)
    ladder=grids.side_ladder((5, 6, 7, 8)),
)

__all__ = ["FAMILY", "model"]
