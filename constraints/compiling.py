"""What every compiler of constraint models needs besides its own paradigm: the model of a level, its kinds
checked against what the compiler takes, and the integer variables its all-different constraints name.

The compilers live in their backends' folders (``backends/<name>/compiled.py``); this module imports no
solver and knows no backend.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..models.errors import shorten
from .model import AllDifferent, IntVar, Model, ModelError, UnsupportedConstraint, kind_of


def model_of(family: str, level: Any, supports: Iterable[str], compiler: str) -> Model:
    """The family's constraint model of ``level``, checked (``Model.freeze``) and refused with a clear error
    when it uses a kind of constraint ``compiler`` does not take (the registry should have left it out)."""
    from ..models import FAMILIES

    record = FAMILIES.get(family)
    if record is None or record.constraints is None:
        raise ModelError(f"{family} has no constraint model for {compiler} to compile")
    model = record.constraints(level)
    if not isinstance(model, Model):
        raise ModelError(f"{family}: its constraints(level) gave a {type(model).__name__}, not a constraint Model")
    model.freeze()
    taken = set(supports)
    for constraint in model.constraints:
        kind = kind_of(constraint)
        if kind not in taken:
            raise UnsupportedConstraint(
                f"{compiler} cannot compile {kind} constraints ({model.name}: {shorten(constraint.label, 120)!r}); "
                f"it takes {', '.join(sorted(taken))}"
            )
    return model


def integers(model: Model) -> list[IntVar]:
    """The integer variables the model's all-different constraints name, each once, in order of first use."""
    found: dict[IntVar, None] = {}
    for constraint in model.constraints:
        if isinstance(constraint, AllDifferent):
            found.update(dict.fromkeys(constraint.variables))
    return list(found)
