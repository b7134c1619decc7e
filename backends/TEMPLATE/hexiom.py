"""TEMPLATE on Hexiom: one translator per family, ``backends/TEMPLATE/<family>.py``.

[GUIDELINE] Say what the encoding is, in the puzzle's words.  Write it from
the model (``models/hexiom/model.py``) and its rules alone, never from another
backend's translator: the cross-check is only as strong as their
independence.  One constraint group per commented block.  Anything a user
typed (names in a level) reaches the solver as data, never as code.
"""

from __future__ import annotations

from typing import Any

from ..base import Options
from ..catalog import Catalog

# [GUIDELINE] Literals only: the registry reads these lines without importing this module.  ``default`` is the
# measured fastest variant (the figure goes to docs/bench/, not here); ``symmetry_breaking=False`` when the
# encoding cannot keep one solution per symmetry class; ``count_only=True`` when it counts without listing.
CATALOG = Catalog(
    default="plain",
    variants={"plain": "one line: what this encoding does"},
    symmetry_breaking=False,
)


def encode(level: Any, variant: str, options: Options) -> Any:
    """``level`` (a ``models.hexiom.model.Level``) as a ``TemplateModel`` for ``variant``."""
    from .engine import TemplateModel

    # --- [GUIDELINE] the puzzle's own variables: which number is on which cell (the projection)
    # --- [GUIDELINE] one commented block per rule: locked tiles, blocked cells, tile counts, neighbour counts
    # --- [GUIDELINE] with options.symmetry_breaking: lex-leader constraints over level.symmetries
    raise NotImplementedError("TEMPLATE: encode the Hexiom rules here")
    return TemplateModel(model=None, projection=[], decode=lambda values: None)
