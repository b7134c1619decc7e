"""The measured table the selection policy reads: per family and task, every backend's runs and their tail.

``selection/portfolio.json``, written by ``trisolve bench --portfolio
--write-defaults`` (``bench/portfolio.py``), holds per family and task (a
first solution, or a count) one row per backend with its solved runs and its
run-time tail; this module reads it and ranks the rows.  What runs is the
policy's to say (``policy.py``).

The rule, stated once (``rank_key``): **most runs solved within the limit
first; then the shortest p90 wall time; then the shortest worst wall time**
(an unsolved run counts as slower than any, so both are "beyond the limit"
when more than a tenth of the runs were unsolved; ties there fall to the
p90 and worst over the runs each solved, then the median).  A median hides
the run a user meets one time in ten; the tail is what makes a default
trustworthy.  Wall time, because that is what a user waits for (process
start and solver imports included); the table's CPU columns are beside it.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from trisolve.backends import registry
from trisolve.backends.spec import Spec
from trisolve.models.errors import shorten

#: The shipped table (package data).
TABLE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "portfolio.json")
#: Tasks the table measures (registry.TASKS); "all" (listing every solution) reads the "count" rows.
TASKS: tuple[str, ...] = registry.TASKS
#: How many of the top rows ``--backend auto`` races, per task (the policy reads it; the table's page says it).
RACE_SIZE: Mapping[str, int] = {"first": 3, "count": 2, "all": 2}

_CACHE: dict[str, tuple[float, Mapping[str, Any] | None]] = {}


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
    try:
        found = registry.catalog(Spec.parse(name).backend, family)
    except Exception:  # noqa: BLE001 - an unknown or broken backend is skipped by ``usable`` anyway
        return False
    return found is not None and found.count_only


def header(table: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """The table's header: command, date, machine load, trisolve version, run time."""
    table = read_table() if table is None else table
    return dict(table.get("header", {})) if table else {}


def families(table: Mapping[str, Any] | None = None) -> Sequence[str]:
    table = read_table() if table is None else table
    return list(table["families"]) if table else []
