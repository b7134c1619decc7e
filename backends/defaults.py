"""The measured defaults: which backend ``solve`` runs without ``--backend``, and which ``auto`` races.

The defaults come from a table measured on this package's own instances:
``backends/portfolio.json``, written by ``trisolve bench --portfolio
--write-defaults`` (``bench/portfolio.py``).  Per family and task (a first
solution, or a count) it holds one row per backend with its solved runs and
its run-time tail; this module ranks the rows and picks from the top.

The rule, stated once (``rank_key``): **most runs solved within the limit
first; then the shortest p90 wall time; then the shortest worst wall time**
(an unsolved run counts as slower than any, so both are "beyond the limit"
when more than a tenth of the runs were unsolved; ties there fall to the
p90 and worst over the runs each solved, then the median).  A median hides
the run a user meets one time in ten; the tail is what makes a default
trustworthy.  Wall time, because that is what a user waits for (process
start and solver imports included); the table's CPU columns are beside it.

* a first solution (``solve`` alone) uses the ``first`` winner; ``auto``
  races the top three (``RACE_SIZE``);
* a count (``--count``) uses the ``count`` winner; ``auto`` races the top two;
* a listing (``--all``, or ``--count --limit N``) uses the best ``count`` row
  whose backend lists solutions (a count-only backend such as ``dp`` reports
  a number, not boards, and does not stop after N);
* with ``--symmetry-breaking``, the best row whose backend can break the
  family's symmetries;
* a level the chosen backend refuses (``Catalog.refuses``: a board beyond
  what it can represent) goes to the next row that takes it.
* a small instance (``small``: at most the family's first generated size,
  a Hexiom board of side 3, a 4x4 frame) takes the best row whose backend loads no compiled kernels
  (``KERNELS``): dp and exactcover spend about half a CPU second loading
  theirs, where pysat counts such an instance in milliseconds.  The table
  ranks over every size, so it cannot say this itself.

A winner that is not usable here (solver not installed, variant gone) gives
way to the next row.  A family the table does not know (a plugin family, a
family added since the table was measured) keeps its ``Family.default_backend``
and the registry's ``portfolio()`` for ``auto``.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ..models.errors import shorten
from . import registry
from .spec import Spec

#: The shipped table (package data).
TABLE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "portfolio.json")
#: Tasks the table measures (registry.TASKS); "all" (listing every solution) reads the "count" rows.
TASKS: tuple[str, ...] = registry.TASKS
#: How many of the top rows ``--backend auto`` races, per task.
RACE_SIZE: Mapping[str, int] = {"first": 3, "count": 2, "all": 2}

_CACHE: dict[str, tuple[float, Mapping[str, Any] | None]] = {}

#: Backends that load compiled kernels (numba's) in every run: about half a CPU second before anything is counted.
KERNELS: tuple[str, ...] = ("dp", "exactcover")


def small(family: str, level: Any) -> bool:
    """Whether ``level`` is small for its family: at most the first size ``bench --portfolio`` generates (the
    family's ``ladder``: a Hexiom board of side 3, a 4x4 frame), where a kernel backend's load costs more than a
    plain solver's whole count (side 3: at most 459 solutions among the shipped levels)."""
    from trisolve.models import FAMILIES

    kind = FAMILIES.get(family)
    ladder = kind.ladder if kind is not None else None
    return ladder is not None and bool(ladder.rungs) and ladder.measure(level) <= ladder.rungs[0].size


def for_instance(name: str, family: str, task: str, level: Any, symmetry_breaking: bool = False) -> str:
    """The default ``name`` for this very level: on a small one, a backend that loads kernels gives way to the best
    usable row that does not (``KERNELS``, ``small``); else ``name`` itself."""
    if Spec.parse(name).backend not in KERNELS or level is None or not small(family, level):
        return name
    for row in ranking(family, task):
        light = Spec.parse(row).backend not in KERNELS
        if light and usable(row, family) and (not symmetry_breaking or _breaks_symmetries(row, family)):
            return row
    return name


def read_table(path: str | None = None) -> Mapping[str, Any] | None:
    """The portfolio table, or None when there is none (or it cannot be read: the fallbacks apply).

    Read once per process and file version (the file's modification time).  A file that is there but
    broken (not JSON, or not shaped as ``bench --portfolio`` writes it: ``_problem``) is said in one
    warning line on stderr naming the file, and every family keeps its own default.
    """
    path = path or TABLE_PATH
    try:
        stamp = os.stat(path).st_mtime
    except OSError:
        return None
    held = _CACHE.get(path)
    if held is not None and held[0] == stamp:
        return held[1]
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        problem = _problem(data)
    except (OSError, ValueError, RecursionError) as error:
        data, problem = None, f"cannot be read ({type(error).__name__})"
    if problem is not None:
        print(
            f"trisolve: warning: {path}: {problem}; ignoring the table, each family runs its own default backend",
            file=sys.stderr,
            flush=True,
        )
    table = data if problem is None else None
    _CACHE[path] = (stamp, table)
    return table


def _problem(data: Any) -> str | None:
    """What is wrong with a table's shape, or None: ``{"families": {family: {task: {"rows": [row, ...]}}}}``,
    each row ``{"backend": "name:variant", "solved": runs, "wall"/"solved_wall": {"median"/"p90"/"max": s}}``."""
    if not isinstance(data, dict) or not isinstance(data.get("families"), dict):
        return 'not a portfolio table (no "families" object)'
    if not isinstance(data.get("header", {}), dict):
        return '"header" is not an object'
    for family, tasks in data["families"].items():
        if not isinstance(tasks, dict):
            return f"family {shorten(family, 40)!r} is not an object of tasks"
        for task, entry in tasks.items():
            where = f"{shorten(family, 40)} {shorten(task, 40)}"
            if not isinstance(entry, dict) or not isinstance(entry.get("rows", []), list):
                return f'{where}: not an object with a "rows" list'
            for number, row in enumerate(entry.get("rows", []), 1):
                if not isinstance(row, dict) or not isinstance(row.get("backend"), str):
                    return f'{where}: row {number} has no "backend" name'
                if type(row.get("solved", 0)) is not int or row.get("solved", 0) < 0:
                    return f'{where}: row {number}: "solved" is not a count of runs'
                for times in ("wall", "solved_wall"):
                    figures = row.get(times, {})
                    if not isinstance(figures, dict) or not all(
                        figures.get(key) is None or type(figures.get(key)) in (int, float)
                        for key in ("median", "p90", "max")
                    ):
                        return f'{where}: row {number}: "{times}" is not an object of seconds'
    return None


def _seconds(value: Any) -> float:
    """A time from the table; None (beyond the limit, or no run) sorts last."""
    return math.inf if value is None else float(value)


def rank_key(row: Mapping[str, Any]) -> tuple:
    """The ranking rule (module docstring): solved, then the p90 and worst wall time, then the solved runs' tail."""
    wall = row.get("wall", {})
    solved_wall = row.get("solved_wall", {})
    return (
        -int(row.get("solved", 0)),
        _seconds(wall.get("p90")),
        _seconds(wall.get("max")),
        _seconds(solved_wall.get("p90")),
        _seconds(solved_wall.get("max")),
        _seconds(solved_wall.get("median")),
    )


def rows(family: str, task: str, table: Mapping[str, Any] | None = None) -> list[Mapping[str, Any]]:
    """The table's rows for a family and task ("first" or "count"), best first by ``rank_key``."""
    table = read_table() if table is None else table
    if not table:
        return []
    found = table["families"].get(family, {}).get(task, {}).get("rows", [])
    return sorted(found, key=rank_key)


def ranking(family: str, task: str, table: Mapping[str, Any] | None = None) -> list[str]:
    """Measured ``backend:variant`` names for a task ("first", "count" or "all"), best first.

    "all" is the count ranking without the backends that count without listing.
    """
    names = [row["backend"] for row in rows(family, "count" if task == "all" else task, table)]
    if task == "all":
        names = [name for name in names if not _count_only(name, family)]
    return names


def knows(family: str, task: str, table: Mapping[str, Any] | None = None) -> bool:
    """Whether the table measured this family and task."""
    return bool(rows(family, "count" if task == "all" else task, table))


def _count_only(name: str, family: str) -> bool:
    from . import registry

    try:
        found = registry.catalog(Spec.parse(name).backend, family)
    except Exception:  # noqa: BLE001 - an unknown or broken backend is skipped by ``usable`` anyway
        return False
    return found is not None and found.count_only


def usable(name: str, family: str) -> bool:
    """Whether ``name`` can run ``family`` here: registered, solver installed, a translator offering the variant.

    Checked without importing the solver (``available`` and the catalog only): choosing a default
    costs nothing, and a benchmark that asks first still times every backend's import in its runs.
    """
    from . import registry

    try:
        spec = Spec.parse(name)
        if registry.available(spec.backend) is not None:
            return False
        offered = registry.catalog(spec.backend, family)
    except Exception:  # noqa: BLE001 - any reason at all: the next row takes its place
        return False
    return offered is not None and (spec.variant is None or spec.variant_name in offered.variants)


def default_backend(
    family: str, task: str = "first", table: Mapping[str, Any] | None = None, symmetry_breaking: bool = False
) -> str:
    """The backend a task runs without ``--backend``: the best usable row (one that can break symmetries
    when asked to: ``dp`` on sigils cannot), else the family's fallback."""
    return default_backends(family, task, table, symmetry_breaking)[0]


def default_backends(
    family: str, task: str = "first", table: Mapping[str, Any] | None = None, symmetry_breaking: bool = False
) -> list[str]:
    """Every usable row ``default_backend`` picks from, best first (else the family's fallback alone).

    The first runs; a level it refuses (``registry.refusal``: ``dp`` on a board its keys cannot hold) goes to
    the next that takes it, so a refusal is routed, not reported (``runs.child.route``)."""
    names = [
        name
        for name in ranking(family, task, table)
        if usable(name, family) and (not symmetry_breaking or _breaks_symmetries(name, family))
    ]
    return names or [fallback(family)]


def _breaks_symmetries(name: str, family: str) -> bool:
    from . import registry

    return registry.breaks_symmetries(name, family)


def fallback(family: str) -> str:
    """What a family runs when the table has nothing usable for it: its ``Family.default_backend``."""
    from trisolve.models import FAMILIES

    kind = FAMILIES.get(family)
    return kind.default_backend if kind is not None else "pysat"


def race_backends(family: str, task: str = "first", table: Mapping[str, Any] | None = None) -> list[str] | None:
    """What ``--backend auto`` races: the top usable rows (``RACE_SIZE``); None when the table does not know
    the family and task (the caller falls back to the registry's ``portfolio()``)."""
    if not knows(family, task, table):
        return None
    chosen = [name for name in ranking(family, task, table) if usable(name, family)]
    return chosen[: RACE_SIZE[task]] or None


def describe(family: str, table: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Per task, the default and where it comes from (for ``trisolve backends``)."""
    table = read_table() if table is None else table
    out: dict[str, Any] = {}
    for task in (*TASKS, "all"):
        name = default_backend(family, task, table)
        measured = ranking(family, task, table) if table else []
        out[task] = {"backend": _full(name, family), "from": "table" if name in measured else "fallback"}
    return out


def _full(spec: str, family: str) -> str:
    """``clingo`` as ``clingo:count``: the variant a bare fallback name runs (the spec itself if unknown)."""
    from . import registry

    try:
        return registry.resolve(spec, family)
    except Exception:  # noqa: BLE001 - shown as given; running it reports why it cannot run
        return spec


def header(table: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """The table's header: command, date, machine load, trisolve version, run time."""
    table = read_table() if table is None else table
    return dict(table.get("header", {})) if table else {}


def families(table: Mapping[str, Any] | None = None) -> Sequence[str]:
    table = read_table() if table is None else table
    return list(table["families"]) if table else []
