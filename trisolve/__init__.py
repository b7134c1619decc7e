"""trisolve: one puzzle model, many solving paradigms, cross-checked.

The package is assembled from the repository's folders (pyproject.toml's
``package-dir``): this folder is the root package, with the library in
``trisolve.api`` and the command line in ``trisolve.cli``; ``models/`` is
``trisolve.models``, ``backends/`` is ``trisolve.backends``, ``crosscheck/``
is ``trisolve.crosscheck`` and so on.  The library functions are imported
on first use, so ``import trisolve`` (and ``trisolve --help``) stays light.

>>> import trisolve
>>> result = trisolve.solve(trisolve.load("levels/hexiom/level38.txt"), backend="clingo")
>>> result.status
'sat'
"""

from __future__ import annotations

import importlib
import time
from typing import TYPE_CHECKING, Any

#: When trisolve's first line ran (``time.monotonic``), and the CPU seconds the interpreter had used to get
#: there: how long before it the command began, at most (``trisolve.cli.common.process_started``).
_FIRST_LINE_AT, _CPU_AT_FIRST_LINE = time.monotonic(), time.process_time()

__version__ = "0.1.0"

__all__ = [
    "BackendInfo",
    "Benchmark",
    "Campaign",
    "Export",
    "GeneratedLevel",
    "Level",
    "Report",
    "Result",
    "Solution",
    "UsageError",
    "benchmark",
    "campaign",
    "cross_check",
    "explain",
    "export",
    "generate_levels",
    "list_backends",
    "load",
    "mutate",
    "read_solution",
    "render",
    "solve",
    "solve_many",
    "__version__",
]

if TYPE_CHECKING:
    from .api import (
        BackendInfo,
        Benchmark,
        Campaign,
        Export,
        GeneratedLevel,
        Level,
        Report,
        Result,
        Solution,
        UsageError,
        benchmark,
        campaign,
        cross_check,
        explain,
        export,
        generate_levels,
        list_backends,
        load,
        mutate,
        read_solution,
        render,
        solve,
        solve_many,
    )


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module(f"{__name__}.api"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
