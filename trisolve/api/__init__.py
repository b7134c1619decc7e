"""trisolve as a library: the functions the ``trisolve`` command is a thin layer over.

One function per command: ``solve`` (and ``solve_many``), ``cross_check``,
``benchmark`` (with ``read_benchmark``; and ``measure_portfolio`` for ``bench
--portfolio``, with ``read_portfolio`` and ``make_defaults``), ``render`` (with ``read_solution``), ``export``,
``list_backends``, ``generate_levels``, ``campaign``, ``mutate``; and
``load`` for levels.  Every number is checked as the command line checks it
(``backends/numbers.py``), and bad input or usage raises ``UsageError``
(exit code 2 on the command line; docs/exit-codes.md).

One module per verb, as the command line has one per command (``solving``,
``crosschecking``, ``benchmarking``, ``measuring`` for ``bench --portfolio``,
``pictures`` for ``render``, ``exporting``, ``listing`` for ``backends``,
``generating``, ``campaigning``, ``mutating``, ``explanations``), over
``levels`` (``load``, ``Level``, ``Solution``) and ``running`` (how a verb
starts runs).  What is policy lives below, in the layer that owns it: which
backend runs (``trisolve.selection``), how runs are run (``trisolve.runs``),
how a cross-check is planned (``trisolve.crosscheck``).

``import trisolve`` loads none of this (nor any solver): the package's
``__getattr__`` imports this package on first use of ``trisolve.load`` and
friends, and this package's ``__getattr__`` imports only the module of the
name asked for; the solvers load only when a run needs them.

>>> import trisolve
>>> level = trisolve.load("levels/hexiom/level01.txt")
>>> level.family, level.name
('hexiom', 'level01')
>>> result = trisolve.solve(level, backend="pysat", count=True)
>>> result.status, result.count, result.complete, result.count_text
('sat', 12, True, '12')
>>> listed = trisolve.solve(level, backend="pysat", all=True)
>>> [s.violations() for s in listed.solutions] == [[]] * 12
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Each public name, and the module of this package that holds it (imported on first use: ``__getattr__``).
_WHERE: dict[str, str] = {
    "Level": "levels",
    "Solution": "levels",
    "load": "levels",
    "family_of": "levels",
    "named": "levels",
    "FileName": "levels",
    "instance_files": "levels",
    "LevelSyntaxError": "levels",
    "TrisolveError": "levels",
    "UsageError": "levels",
    "BackendInfo": "listing",
    "list_backends": "listing",
    "compilers_left_out": "listing",
    "default_choices": "listing",
    "backend_name": "listing",
    "backend_names": "listing",
    "portfolio": "listing",
    "check_sat_command": "listing",
    "bench_backends": "listing",
    "task_for": "listing",
    "Export": "exporting",
    "export": "exporting",
    "Result": "solving",
    "solve": "solving",
    "solve_many": "solving",
    "SMALL_FILE": "running",
    "Report": "crosschecking",
    "cross_check": "crosschecking",
    "Benchmark": "benchmarking",
    "benchmark": "benchmarking",
    "read_benchmark": "benchmarking",
    "GeneratedLevel": "generating",
    "generate_levels": "generating",
    "Campaign": "campaigning",
    "campaign": "campaigning",
    "mutate": "mutating",
    "explain": "explanations",
    "Portfolio": "measuring",
    "make_defaults": "measuring",
    "measure_portfolio": "measuring",
    "read_portfolio": "measuring",
    "MAX_SOLUTION_BYTES": "pictures",
    "PICTURE_KINDS": "pictures",
    "check_picture_path": "pictures",
    "render": "pictures",
    "read_solution": "pictures",
}

__all__ = [
    "BackendInfo",
    "Benchmark",
    "Campaign",
    "Export",
    "FileName",
    "GeneratedLevel",
    "Level",
    "LevelSyntaxError",
    "MAX_SOLUTION_BYTES",
    "PICTURE_KINDS",
    "Portfolio",
    "Report",
    "Result",
    "SMALL_FILE",
    "Solution",
    "TrisolveError",
    "UsageError",
    "backend_name",
    "backend_names",
    "bench_backends",
    "benchmark",
    "campaign",
    "check_picture_path",
    "check_sat_command",
    "compilers_left_out",
    "cross_check",
    "default_choices",
    "explain",
    "export",
    "family_of",
    "generate_levels",
    "instance_files",
    "list_backends",
    "load",
    "make_defaults",
    "measure_portfolio",
    "mutate",
    "named",
    "portfolio",
    "read_benchmark",
    "read_portfolio",
    "read_solution",
    "render",
    "solve",
    "solve_many",
    "task_for",
]

if TYPE_CHECKING:
    from .benchmarking import Benchmark, benchmark, read_benchmark
    from .campaigning import Campaign, campaign
    from .crosschecking import Report, cross_check
    from .explanations import explain
    from .exporting import Export, export
    from .generating import GeneratedLevel, generate_levels
    from .levels import (
        FileName,
        Level,
        LevelSyntaxError,
        Solution,
        TrisolveError,
        UsageError,
        family_of,
        instance_files,
        load,
        named,
    )
    from .listing import (
        BackendInfo,
        backend_name,
        backend_names,
        bench_backends,
        check_sat_command,
        compilers_left_out,
        default_choices,
        list_backends,
        portfolio,
        task_for,
    )
    from .measuring import Portfolio, make_defaults, measure_portfolio, read_portfolio
    from .mutating import mutate
    from .pictures import MAX_SOLUTION_BYTES, PICTURE_KINDS, check_picture_path, read_solution, render
    from .running import SMALL_FILE
    from .solving import Result, solve, solve_many


def __getattr__(name: str) -> Any:
    """A public name, from its module: the command and the library import only the verbs they use."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value  # found here from now on
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
