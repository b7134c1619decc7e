"""The constraint model every paradigm compiles: ``Model`` and its constraints (``model.py``), what they mean
(``semantics.py``) and the graph helpers behind the graph constraints (``graphs.py``).  No solver is imported."""

from .model import (
    KINDS,
    ROLES,
    AllDifferent,
    Assignment,
    Clause,
    Connected,
    Constraint,
    IntVar,
    Linear,
    Model,
    ModelError,
    Preference,
    SingleCycle,
    UnsupportedConstraint,
    kind_of,
)

__all__ = [
    "KINDS",
    "ROLES",
    "AllDifferent",
    "Assignment",
    "Clause",
    "Connected",
    "Constraint",
    "IntVar",
    "Linear",
    "Model",
    "ModelError",
    "Preference",
    "SingleCycle",
    "UnsupportedConstraint",
    "kind_of",
]
