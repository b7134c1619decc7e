"""Where a backend actually runs: the body of a run's forked child (``in_child``), or this process
(``run_here``).  The only place that calls a backend's ``run``; both build the record the same way.
"""

from __future__ import annotations

import os
import resource
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from trisolve.backends import base, registry
from trisolve.backends.base import Result, Status
from trisolve.models.errors import LevelSyntaxError, UsageError

from . import processes
from .jobs import Deadline, Job, RunRecord, record_from_result, routed


def route(job: Job, level: Any) -> tuple[str, str | None]:
    """The backend that runs ``job`` on ``level``, and what was refused on the way (None: nothing).

    Its own backend, unless that refuses the level (``registry.refusal``, asked without importing a solver);
    then the first of ``job.instead`` that takes it.  When every one refuses, its own backend runs and its
    answer (unknown) says why.
    """
    if not job.instead:  # a named backend: its own run says why it refuses, if it does
        return job.backend, None
    refused = []
    for name in (job.backend, *job.instead):
        why = registry.refusal(name, job.family, level, job.options)
        if why is None:
            return name, "; ".join(refused) or None
        refused.append(f"{name} ({why})")
    return job.backend, None


def _run(job: Job, level: Any, deadline: Deadline, backend: Any, on_solution: Callable[[Any], None]) -> Result:
    """The backend's run on what is left of the deadline; one that has already passed answers unknown."""
    limits = deadline.limits(job.limits)
    if limits.time is not None and limits.time <= 0:
        return Result(job.backend, job.family, Status.UNKNOWN, (), False, 0, stopped_by="time limit")
    return backend.run(level, limits, job.options, on_solution=on_solution)


def run_here(job: Job, level: Any, deadline: Deadline, on_solution: Callable[[Any], None] | None = None) -> RunRecord:
    """Run ``job`` in this process: no kill behind its limit, and the backend's exceptions propagate.

    ``on_solution`` hears each solution's JSON as it is found; the record keeps them as a child would ship
    them (all of them, or with ``keep_solutions`` off the first alone)."""
    cpu = time.process_time()
    name, refused = route(job, level)
    result = _run(
        job,
        level,
        deadline,
        registry.get(name, job.family),
        lambda solution: on_solution(solution.to_json()) if on_solution is not None else None,
    )
    kept = result.solutions if job.keep_solutions else result.solutions[:1]
    record = record_from_result(
        job, result, deadline.elapsed(), cpu=time.process_time() - cpu, solutions=tuple(s.to_json() for s in kept)
    )
    return routed(record, name, refused)


def in_child(
    job: Job, level: Any, conn: Any, deadline: Deadline, load: Callable[[], Any] | None, plugins: tuple[str, ...] = ()
) -> None:
    """A run's child process: load plugins and parse (when asked), solve, streaming each solution through
    ``conn``, then send the record.

    The deadline counts from the parent's moment, before the fork: loading plugins, parsing, translating,
    solving and decoding all spend it.
    """
    os.setpgid(0, 0)  # own process group, so a kill takes any helper processes too
    processes.die_with_parent()
    if processes.PRCTL is not None:  # orphaned helpers come to this process (reap_orphans), not to init
        processes.PRCTL(processes.PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # blocked since the fork (``processes.stop_signals_blocked``)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, processes.STOP_SIGNALS)
    sending = threading.Lock()

    def send(*message: Any) -> None:
        with sending:
            conn.send(message)

    processes.set_group_sink(lambda pgid: send("group", pgid))
    try:
        if plugins:  # a Dask worker's runs load the --plugin files here, under the run's limit
            for plugin in plugins:
                registry.load_plugin(plugin)
            send("plugins", None)
        if load is not None:
            began = time.monotonic()
            try:
                level = load()
            except LevelSyntaxError as problem:
                send("invalid", (problem.file, problem.line, problem.message, problem.column))
                return
            except UsageError as problem:
                send("invalid", (None, None, str(problem), None))
                return
            send("level", level, time.monotonic() - began)
        name, refused = route(job, level)
        if refused is not None:
            send("routed", name, refused)
        try:  # after the level is read: a bad file is refused before any solver library is imported
            backend = registry.get(name, job.family)
        except (registry.UnknownBackend, registry.UnsupportedFamily, registry.BackendUnavailable, ValueError) as no:
            send("unusable", f"{no}")
            return

        sent = 0

        def stream(solution: Any) -> None:
            # the first solution goes in full always: it shows a count's level solvable (and a unique one)
            nonlocal sent
            send("solution", solution.to_json() if job.keep_solutions or not sent else None)
            sent += 1

        base.set_partial_count_sink(lambda count: send("count", count))
        base.set_progress_sink(lambda done, total, text: send("progress", done, total, text))
        result = _run(job, level, deadline, backend, stream)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        # helper processes the backend ran and waited for (ganak's counter, dimacs's solver binary) cost too
        helpers = resource.getrusage(resource.RUSAGE_CHILDREN)
        # the solutions went one by one (a kill keeps them) and the wall time is the parent's to measure
        record = record_from_result(
            job,
            result,
            wall=0.0,
            cpu=usage.ru_utime + usage.ru_stime + helpers.ru_utime + helpers.ru_stime,
            peak_rss_mb=max(usage.ru_maxrss, helpers.ru_maxrss) / 1024.0,
            solutions=(),
        )
        send("result", routed(record, name, refused).to_json())
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which decides the exit code
        send("error", f"{type(exc).__name__}: {exc}", _traceback_text())
    finally:
        conn.close()
        processes.reap_orphans()


def _traceback_text() -> str:
    """The traceback of the exception being handled, as text: ``traceback`` is imported only when a run fails (a
    run that succeeds does not pay for it), and a failure to import it costs the text, never the report."""
    try:
        import traceback

        return traceback.format_exc()
    except Exception:  # noqa: BLE001 - the report goes without its traceback
        return ""
