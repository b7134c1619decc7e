"""How the verbs start runs (``trisolve.runs``): one run of a level, parsed in the child when it is a file not
read yet; a race; and what the selection policy runs on a level without a named backend."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from trisolve.models.errors import TrisolveError, UsageError

from .levels import Level, Solution

if TYPE_CHECKING:
    from trisolve.runs import RunRecord

#: files at most this big are read here when the policy asks for the level (``defaults_for``): a few milliseconds
SMALL_FILE = 4096


def defaults_for(level: Level, task: str, symmetry_breaking: bool) -> tuple[str, ...]:
    """What the selection policy runs on ``level`` without a named backend, best first: the first runs, and a
    level it refuses goes to the next (``runs.child.route``).  A small level skips kernel loads, so the policy
    may ask for the level: one not parsed yet is read here when its file is small (a few KB parse in
    milliseconds, so the time limit loses nothing), else the policy answers without it."""
    from trisolve.selection import choose

    def parsed() -> Any:
        if level.model is not None:
            return level.model
        try:
            if os.path.getsize(level.run_path) > SMALL_FILE:
                return None
            return level.kind.parse(level.run_path)
        except (OSError, TrisolveError):
            return None  # the run's own parse says what is wrong

    return choose(level.family, "solve", task, symmetry_breaking=symmetry_breaking, level=parsed).backends


#: (backend, family) this process has run once already (``run_one`` preloads their solver)
RAN: set[tuple[str, str]] = set()


def run_one(
    job: Any,
    level: Level,
    isolate: bool,
    started: float,
    on_solution: Callable[[Solution], None] | None,
    on_progress: Callable[[int, int | None, str], None] | None = None,
    on_found: Callable[[int], None] | None = None,
) -> tuple[Level, RunRecord]:
    """One run (``runs.run``): isolated, a level not parsed yet is parsed in the child, under the time limit."""
    from dataclasses import replace

    from trisolve.backends import registry
    from trisolve.runs import run

    parsed: list[Level] = [level] if level.model is not None else []

    def take_level(model: Any, seconds: float) -> None:
        parsed.append(replace(level, model=model, parse_time=seconds))

    found = 0

    def stream(data: Any) -> None:  # solutions come after the level, so parsed[0] is there
        nonlocal found
        found += 1
        if on_found is not None:
            on_found(found)
        if on_solution is not None and data is not None:
            on_solution(parsed[0].solution(data))

    load = None if parsed else (lambda: level.kind.parse(level.path))
    if isolate and (job.backend, level.family) in RAN:
        # from the second run on, the solver is imported here once, and every later fork starts warm; the
        # first run imports it in its child, under its time limit and the runner's kill (a one-off solve
        # pays no import outside them)
        registry.preload([job.backend], level.family)
    RAN.add((job.backend, level.family))
    # an unusable backend is found in the child, after the file is read: runs.isolated.UnusableBackend, a UsageError
    record = run(
        job,
        level.model,
        isolate=isolate,
        started=started,
        on_solution=stream,
        load=load,
        on_level=take_level,
        on_progress=on_progress,
    )
    if not parsed:  # stopped (or crashed) before the parse was done
        return level, replace(record, stopped_by=record.stopped_by and f"{record.stopped_by} (while parsing)")
    return parsed[0], record


def race(
    level: Level, limits: Any, options: Any, sat_command: str | None, started: float | None = None, task: str = "first"
) -> tuple[RunRecord, dict]:
    from trisolve.runs import Job
    from trisolve.runs.executors import race as race_jobs
    from trisolve.selection.names import portfolio

    names, left_out = portfolio(level.family, sat_command, task)
    jobs = [Job(level.run_path, level.family, name, limits, options) for name in names]
    winner, records = race_jobs(jobs, level.model, started=started)
    info = {
        "winner": winner.backend if winner else None,
        "raced": names,
        "left_out": left_out,
        "runs": [
            {
                "backend": r.backend,
                "status": r.status,
                "wall": round(r.wall, 6),
                **({"stopped_by": r.stopped_by} if r.stopped_by else {}),
                **({"error": r.error} if r.error else {}),
            }
            for r in records
        ],
    }
    record = winner or (max(records, key=lambda r: r.count) if records else None)
    if record is None:
        raise UsageError("no backend could run")
    return record, info


def new_request() -> None:
    """A new call starts afresh after an earlier one was interrupted (Ctrl-C in a notebook, say)."""
    from trisolve.runs import INTERRUPT

    INTERRUPT.clear()
