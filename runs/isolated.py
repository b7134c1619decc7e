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

import contextlib
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
    # also here, not only in the child: a kill right after the fork must find the group
    with contextlib.suppress(OSError):
        os.setpgid(process.pid, process.pid)
    groups: list[int] = [process.pid]
    plugins_loaded = not plugins
    if grace is None and deadline.seconds is not None:
        grace = processes.grace_for(deadline.seconds)
    hard_deadline = None if deadline.at is None else deadline.at + grace

    heard = _Heard(job.backend, groups, plugins_loaded, on_solution, on_progress, on_level)
    stopped_by: str | None = None

    try:
        stopped_by = _listen(process, parent_conn, heard, hard_deadline, stop)
    except KeyboardInterrupt:  # Ctrl-C in the thread that runs this: keep what was found
        processes.INTERRUPT.set()
        stopped_by = "interrupted"
    finally:
        if process.is_alive():
            if heard.answered:
                process.join(0.05)  # it has answered and is on its way out
            if process.is_alive():
                processes.kill_group(process)
        processes.end_groups(groups)
        process.join(1.0)
        try:  # what the child sent before it was stopped is kept (a final record, too)
            while heard.final is None and parent_conn.poll(0):
                heard.take(parent_conn.recv())
        except (EOFError, OSError):
            pass
        parent_conn.close()
        processes.end_groups(groups[1:])  # groups reported in the last messages
    wall = deadline.elapsed()
    if heard.invalid is not None:
        file, line, message, column = heard.invalid
        raise LevelSyntaxError(file, line, message, column) if file is not None else UsageError(message)
    if heard.unusable is not None:
        raise UnusableBackend(heard.unusable)
    if heard.final is not None:  # the child finished: its record stands, even if Ctrl-C came after
        return dataclasses.replace(RunRecord.from_json(heard.final), solutions=tuple(heard.solutions), wall=wall)
    error = heard.error
    if not heard.plugins_loaded and error is None and stopped_by == "killed at time limit":
        error = "the --plugin files did not load within the time limit (a plugin that hangs when loaded)"
    # Killed, crashed or stopped: keep what was streamed (or proved), never call it complete.
    found = max(heard.streamed, heard.proved)
    record = record_of(
        job,
        status=Status.SAT.value if found else Status.UNKNOWN.value,
        count=found,
        complete=False,
        solutions=tuple(heard.solutions),
        wall=wall,
        stopped_by=stopped_by,
        error=error,
    )
    return routed(record, *heard.route_taken)


def _listen(
    process: Any,
    parent_conn: Any,
    heard: _Heard,
    hard_deadline: float | None,
    stop: Callable[[], bool] | None,
) -> str | None:
    """Hear the child until it has answered, has died or must stop; what stopped it (None: it ended itself)."""
    while True:
        # checked before every read: a child streaming solutions without a pause must still stop
        if processes.INTERRUPT.is_set():
            return "interrupted"
        if hard_deadline is not None and time.monotonic() >= hard_deadline:
            return "killed at time limit"
        if stop is not None and stop():
            return "stopped"
        timeout = 0.1
        if hard_deadline is not None:
            timeout = max(0.0, min(timeout, hard_deadline - time.monotonic()))
        if parent_conn.poll(timeout):
            try:
                heard.take(parent_conn.recv())
            except EOFError:
                heard.died(process)
                return None
            if heard.answered:
                return None  # answered: a helper or grandchild still holding on is killed below, not waited for
            continue
        if not process.is_alive() and not parent_conn.poll(0):
            heard.died(process)
            return None


@dataclasses.dataclass
class _Heard:
    """What a run's child has said so far, message by message (``take``), passed on to the caller's hooks."""

    backend: str
    #: process groups to end with the run: the child's own, then those its backend reported
    groups: list[int]
    plugins_loaded: bool
    on_solution: Callable[[Any], None] | None = None
    on_progress: Callable[[int, int | None, str], None] | None = None
    on_level: Callable[[Any, float], None] | None = None
    solutions: list = dataclasses.field(default_factory=list)
    streamed: int = 0
    proved: int = 0  # the largest lower bound a count-only backend reported
    final: dict | None = None
    error: str | None = None
    invalid: tuple | None = None
    unusable: str | None = None
    #: the backend that runs, and what was refused (``runs.child.route``)
    route_taken: tuple[str, str | None] = ("", None)

    def __post_init__(self) -> None:
        self.route_taken = (self.backend, None)

    @property
    def answered(self) -> bool:
        """Whether the child has said how the run ends (a record, an error, a bad level, an unusable backend)."""
        return any(said is not None for said in (self.final, self.error, self.invalid, self.unusable))

    def died(self, process: Any) -> None:
        """The child is gone without a word: how it died is the error, unless it had answered."""
        if self.final is None and self.error is None:
            self.error = processes.death_of(process)

    def take(self, message: tuple) -> None:
        kind, *said = message
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, *said)

    def _count(self, proved: int) -> None:
        self.proved = max(self.proved, proved)

    def _solution(self, solution: Any) -> None:
        self.streamed += 1
        if solution is not None:
            self.solutions.append(solution)
        if self.on_solution is not None:
            self.on_solution(solution)

    def _result(self, final: dict) -> None:
        self.final = final

    def _error(self, error: str, *details: str) -> None:
        self.error = error

    def _progress(self, done: int, total: int | None, text: str) -> None:
        if self.on_progress is not None:
            self.on_progress(done, total, text)

    def _level(self, level: Any, seconds: float) -> None:
        if self.on_level is not None:
            self.on_level(level, seconds)

    def _invalid(self, where: tuple) -> None:
        self.invalid = where

    def _group(self, pgid: int) -> None:
        self.groups.append(pgid)

    def _plugins(self, *_: Any) -> None:
        self.plugins_loaded = True

    def _unusable(self, why: str) -> None:
        self.unusable = why

    def _routed(self, backend: str, refused: str | None) -> None:
        self.route_taken = (backend, refused)


#: message kind -> what hearing it does
_HANDLERS: dict[str, Callable[..., None]] = {
    kind: getattr(_Heard, f"_{kind}")
    for kind in (
        "count",
        "solution",
        "result",
        "error",
        "progress",
        "level",
        "invalid",
        "group",
        "plugins",
        "unusable",
        "routed",
    )
}


class UnusableBackend(UsageError):
    """The run's backend could not be made (unknown variant, missing library): found in the child, after
    the level was read, and raised by ``run_isolated`` (a usage error: exit 2)."""
