"""Which backends run when nobody names one: the selection policy (``policy.py``), fed by what the backends
declare and by the measured table (``table.py``, ``portfolio.json``).  Every command asks it; docs/backends.md
and ``trisolve backends`` print it."""

from __future__ import annotations

from .policy import (
    KERNELS,
    PURPOSES,
    TASKS,
    TASKS_OF,
    Selection,
    choose,
    declaring,
    everything,
    markdown,
    small,
    usable,
    writers,
)

__all__ = [
    "KERNELS",
    "PURPOSES",
    "TASKS",
    "TASKS_OF",
    "Selection",
    "choose",
    "declaring",
    "everything",
    "markdown",
    "small",
    "usable",
    "writers",
]
