"""trisolve: one puzzle model, three solving paradigms, cross-checked.

The package is assembled from the repository's folders: ``models/`` is
``trisolve.models``, ``backends/`` is ``trisolve.backends``, ``crosscheck/``
is ``trisolve.crosscheck``; this folder (``cli/``) is the root package with
the command line in ``trisolve.main`` and the library functions in
``trisolve.api``, imported on first use so that ``import trisolve`` (and
``trisolve --help``) stays light.

>>> import trisolve
>>> result = trisolve.solve(trisolve.load("levels/hexiom/level38.txt"), backend="clingo")
>>> result.status
'sat'

``trisolve.crosscheck`` and ``trisolve.bench`` are both the subpackages of
those names and, called, the library functions (see ``trisolve.api``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["Benchmark", "Level", "Report", "Result", "Solution", "UsageError", "bench", "crosscheck", "load", "solve",
           "solve_many", "__version__"]

#: the two library functions named like subpackages: their packages are callable instead
_SUBPACKAGES = {"crosscheck", "bench"}

if TYPE_CHECKING:
    from .api import Benchmark, Level, Report, Result, Solution, UsageError, bench, crosscheck, load, solve, solve_many


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in __all__:
        return getattr(importlib.import_module(f"{__name__}.api"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
