"""A run in a forked child, with a hard time limit behind it: the parent's side (the child's is ``child.py``).

Every backend honours ``Limits.time`` itself; this is the second line: the
child is killed (its whole process group) when it overruns its deadline by
``grace`` seconds, and solutions it streamed before that are kept, so a
killed run still reports what it found (as an incomplete count).

The child streams each solution as JSON through a pipe as soon as it is found
and sends a final record.  ``run_isolated`` imports no solver in the parent;
an executor of many runs may import them once beforehand
(``registry.preload``) so that every forked child starts with them loaded.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

from trisolve.backends.base import Status
from trisolve.models.errors import LevelSyntaxError, UsageError

from . import processes
from .child import in_child
from .jobs import Deadline, Job, RunRecord, record_of, routed


def run_isolated(
    job: Job,
    level: Any,
    deadline: Deadline,
    *,
    grace: float | None = None,
    on_solution: Callable[[Any], None] | None = None,
    stop: Callable[[], bool] | None = None,
    load: Callable[[], Any] | None = None,
    on_level: Callable[[Any, float], None] | None = None,
    plugins: Iterable[str] = (),
    on_progress: Callable[[int, int | None, str], None] | None = None,
) -> RunRecord:
    """Run ``job`` in a forked child (``runs.run`` calls it); always returns a record, never hangs.

    ``on_progress(done, total, text)`` hears how far a long backend is (``base.report_progress``);
    without it those reports are dropped.

    ``on_solution`` receives each solution's JSON as it arrives.  ``stop`` is
    polled; when it returns True the child is killed (used by the portfolio).
    The child is killed ``grace`` seconds after the ``deadline`` (default
    ``processes.grace_for(limit)``).  With
    ``load``, the child parses the level itself (``level`` is ignored), so the
    limit covers parsing too: ``on_level(level, seconds)`` gets it back, and a
    parse error is raised here as the child's ``LevelSyntaxError``.  After
    ``interrupt`` (Ctrl-C), every run stops at once: its record says ``interrupted``.
    ``plugins`` are ``--plugin`` files the child loads first, within the limit (a Dask worker's runs).

    The child runs in its own process group; when the run ends, however it ends, that group and every
    group the backend reported (``track_group``) are killed: no helper outlives its run.
    """
    plugins = tuple(plugins)
    parent_conn, child_conn = processes.pipe()
    process = processes.Child(in_child, (job, level, child_conn, deadline, load, plugins))
    with processes.FORK_LOCK, processes.stop_signals_blocked():
        process.start()
        # under the lock: a run forked next by another thread must not hold this pipe open (its end would wait)
        child_conn.close()
    try:  # also here, not only in the child: a kill right after the fork must find the group
        os.setpgid(process.pid, process.pid)
    except OSError:
        pass
    groups: list[int] = [process.pid]
    plugins_loaded = not plugins
    if grace is None and deadline.seconds is not None:
        grace = processes.grace_for(deadline.seconds)
    hard_deadline = None if deadline.at is None else deadline.at + grace

    invalid: tuple | None = None
    unusable: str | None = None
    solutions: list = []
    streamed = 0
    proved = 0  # the largest lower bound a count-only backend reported
    final: dict | None = None
    error: str | None = None
    stopped_by: str | None = None
    route_taken: tuple[str, str | None] = (job.backend, None)  # the backend that runs, what was refused

    def take(message: tuple) -> None:
        nonlocal streamed, proved, final, error, invalid, plugins_loaded, unusable, route_taken
        kind = message[0]
        if kind == "count":
            proved = max(proved, message[1])
        elif kind == "solution":
            streamed += 1
            if message[1] is not None:
                solutions.append(message[1])
            if on_solution is not None:
                on_solution(message[1])
        elif kind == "result":
            final = message[1]
        elif kind == "error":
            error = message[1]
        elif kind == "progress":
            if on_progress is not None:
                on_progress(message[1], message[2], message[3])
        elif kind == "level" and on_level is not None:
            on_level(message[1], message[2])
        elif kind == "invalid":
            invalid = message[1]
        elif kind == "group":
            groups.append(message[1])
        elif kind == "plugins":
            plugins_loaded = True
        elif kind == "unusable":
            unusable = message[1]
        elif kind == "routed":
            route_taken = (message[1], message[2])

    try:
        while True:
            # checked before every read: a child streaming solutions without a pause must still stop
            if processes.INTERRUPT.is_set():
                stopped_by = "interrupted"
                break
            if hard_deadline is not None and time.monotonic() >= hard_deadline:
                stopped_by = "killed at time limit"
                break
            if stop is not None and stop():
                stopped_by = "stopped"
                break
            timeout = 0.1
            if hard_deadline is not None:
                timeout = max(0.0, min(timeout, hard_deadline - time.monotonic()))
            if parent_conn.poll(timeout):
                try:
                    take(parent_conn.recv())
                except EOFError:
                    if final is None and error is None:
                        error = processes.death_of(process)
                    break
                if final is not None or error is not None or invalid is not None or unusable is not None:
                    break  # answered: a helper or grandchild still holding on is killed below, not waited for
                continue
            if not process.is_alive() and not parent_conn.poll(0):
                if final is None and error is None:
                    error = processes.death_of(process)
                break
    except KeyboardInterrupt:  # Ctrl-C in the thread that runs this: keep what was found
        processes.INTERRUPT.set()
        stopped_by = "interrupted"
    finally:
        if process.is_alive():
            if final is not None or error is not None or invalid is not None or unusable is not None:
                process.join(0.05)  # it has answered and is on its way out
            if process.is_alive():
                processes.kill_group(process)
        processes.end_groups(groups)
        process.join(1.0)
        try:  # what the child sent before it was stopped is kept (a final record, too)
            while final is None and parent_conn.poll(0):
                take(parent_conn.recv())
        except (EOFError, OSError):
            pass
        parent_conn.close()
        processes.end_groups(groups[1:])  # groups reported in the last messages
    wall = deadline.elapsed()
    if invalid is not None:
        file, line, message, column = invalid
        raise LevelSyntaxError(file, line, message, column) if file is not None else UsageError(message)
    if unusable is not None:
        raise UnusableBackend(unusable)
    if final is not None:  # the child finished: its record stands, even if Ctrl-C came after
        return dataclasses.replace(RunRecord.from_json(final), solutions=tuple(solutions), wall=wall)
    if not plugins_loaded and error is None and stopped_by == "killed at time limit":
        error = "the --plugin files did not load within the time limit (a plugin that hangs when loaded)"
    # Killed, crashed or stopped: keep what was streamed (or proved), never call it complete.
    found = max(streamed, proved)
    record = record_of(
        job,
        status=Status.SAT.value if found else Status.UNKNOWN.value,
        count=found,
        complete=False,
        solutions=tuple(solutions),
        wall=wall,
        stopped_by=stopped_by,
        error=error,
    )
    return routed(record, *route_taken)


class UnusableBackend(UsageError):
    """The run's backend could not be made (unknown variant, missing library): found in the child, after
    the level was read, and raised by ``run_isolated`` (a usage error: exit 2)."""
