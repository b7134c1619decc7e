"""Where many runs execute: here, a few at a time, on a Dask cluster, or raced for the first answer.

Every command that runs many jobs (crosscheck, campaign, mutate) goes
through ``execute``: jobs already in ``done`` (a resumed journal) are
reused, each finished record is logged at once and reported to
``on_record``, and the records come back in job order.  ``race`` runs a few
jobs on one level and takes the first that answers.  Each run is still
``runs.run``: its own forked process with its own limits.  ``warm_machine``
lets the backends write their machine-wide caches before anything is timed.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Protocol

from trisolve.backends import registry
from trisolve.models.errors import UsageError, shorten

from .entry import run
from .jobs import Job, RunRecord, answers, record_of
from .processes import INTERRUPT


class Journal(Protocol):
    """Where finished records go as they finish (``crosscheck.jsonl.Log``)."""

    def write(self, record: RunRecord) -> None: ...


#: the executors ``execute`` knows
EXECUTORS: tuple[str, ...] = ("local", "dask")


def execute(
    jobs: Sequence[Job],
    levels: Mapping[str, Any],
    *,
    executor: str = "local",
    parallel: int = 1,
    scheduler: str | None = None,
    log: Journal | None = None,
    done: Mapping[str, RunRecord] | None = None,
    on_record: Callable[[RunRecord, bool], None] | None = None,
) -> list[RunRecord]:
    """Run the jobs on ``executor`` (``parallel`` at a time, or ``parallel`` Dask workers); reuse ``done``."""
    if executor == "dask":
        return execute_dask(
            jobs, levels, scheduler=scheduler, workers=parallel, log=log, done=done or {}, on_record=on_record
        )
    if executor != "local":
        raise ValueError(f"unknown executor {executor!r}; known: {', '.join(EXECUTORS)}")
    return execute_local(jobs, levels, parallel=parallel, log=log, done=done, on_record=on_record)


def reuse_finished(
    jobs: Sequence[Job],
    done: Mapping[str, RunRecord],
    on_record: Callable[[RunRecord, bool], None] | None = None,
) -> tuple[dict[int, RunRecord], list[tuple[int, Job]]]:
    """Split the jobs for an executor: (records already in ``done`` by job index, jobs still to run).

    Each reused record is reported to ``on_record`` with ``True`` (reused) at once.
    """
    results: dict[int, RunRecord] = {}
    pending: list[tuple[int, Job]] = []
    for index, job in enumerate(jobs):
        if job.key in done:
            results[index] = done[job.key]
            if on_record:
                on_record(done[job.key], True)
        else:
            pending.append((index, job))
    return results, pending


def execute_local(
    jobs: Sequence[Job],
    levels: Mapping[str, Any],
    *,
    parallel: int,
    log: Journal | None = None,
    done: dict[str, RunRecord] | None = None,
    on_record: Callable[[RunRecord, bool], None] | None = None,
) -> list[RunRecord]:
    """Run the jobs ``parallel`` at a time; records already in ``done`` are reused, not rerun.

    On Ctrl-C (``runner.interrupt``) the runs in progress stop at once, the
    queued ones never start, and the records so far are returned; only
    finished runs are logged, so ``--resume`` reruns the interrupted ones.
    """
    results, pending = reuse_finished(jobs, done or {}, on_record)

    def take(index: int, record: RunRecord) -> None:
        results[index] = record
        if record.interrupted:
            return
        if log is not None:
            log.write(record)
        if on_record:
            on_record(record, False)

    if pending:
        # set when this loop fails (a journal write, a broken pipe): the runs still going stop at their next poll
        abandon = threading.Event()
        with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
            futures: dict = {}
            waiting: set = set()
            try:
                _preload(job for _, job in pending)
                for index, job in pending:
                    future = pool.submit(run, job, levels[job.path], stop=abandon.is_set)
                    futures[future] = index
                    waiting.add(future)
                for future in as_completed(futures):
                    waiting.discard(future)
                    take(futures[future], future.result())
            except KeyboardInterrupt:  # every run returns within a poll once INTERRUPT is set
                INTERRUPT.set()  # a library call has no signal handler that sets it
                for future in waiting:
                    future.cancel()
                for future in as_completed(f for f in waiting if not f.cancelled()):
                    take(futures[future], future.result())
            except BaseException:
                abandon.set()
                for future in waiting:
                    future.cancel()
                raise
    return [results[i] for i in sorted(results)]


def _preload(jobs: Iterable[Job]) -> None:
    """Import the solvers once here, so each forked run does not pay for it (registry.preload)."""
    by_family: dict[str, set[str]] = {}
    for job in jobs:
        by_family.setdefault(job.family, set()).add(job.backend)
    for family, specs in by_family.items():
        registry.preload(sorted(specs), family)


def dask_job(job: Job, level: Any, plugins: Sequence[str] = ()) -> dict:
    """Run one job inside a Dask worker; returns the record as JSON (plain data crosses the wire).

    ``plugins`` are the --plugin files the submitting process loaded: a worker
    is not forked from it, so each run's child loads them, within the run's
    time limit (a plugin that hangs or kills the process loading it costs
    that run, not the worker).  Installed entry-point backends it finds on its own.

    ``run`` forks a child per run.  Dask's nanny starts workers as daemonic
    processes, which multiprocessing forbids to have children; the flag only
    asks Python to terminate children at exit, and the runner already cleans
    up after itself (its child is killed at the hard deadline and dies with
    its parent), so it is lifted for the duration of the run.
    """
    import multiprocessing

    process = multiprocessing.current_process()
    daemonic = process._config.get("daemon", False)  # a private field: see the docstring
    process._config["daemon"] = False
    registry.preload([job.backend], job.family)  # once per worker process: later runs start warm
    try:
        return run(job, level, plugins=plugins).to_json()
    finally:
        process._config["daemon"] = daemonic


#: The local cluster's scheduler settings.  A worker that dies charges a try to every run the scheduler
#: has placed on it, queued or running: one run at a time per worker (saturation 1.0; Dask's 1.1 puts
#: two on a one-thread worker) means only the run that was running is charged, so a run that kills
#: its worker every time cannot use up an innocent run's tries.  A run is tried 1 + allowed-failures times.
LOCAL_SCHEDULER: dict[str, float] = {
    "distributed.scheduler.worker-saturation": 1.0,
    "distributed.scheduler.allowed-failures": 3,
}


def _level(level: Any) -> Any:
    """The level itself: a task that hands it to the runs on a worker (see ``execute_dask``)."""
    return level


def execute_dask(
    jobs: Sequence[Job],
    levels: Mapping[str, Any],
    *,
    scheduler: str | None,
    workers: int,
    log: Journal | None,
    done: Mapping[str, RunRecord],
    on_record: Callable[[RunRecord, bool], None] | None = None,
) -> list[RunRecord]:
    """Like ``execute_local``, on a Dask cluster (a local one when ``scheduler`` is None)."""
    try:
        import dask
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RuntimeError('the dask executor needs the dask extra: pip install "trisolve[dask]"') from None

    results, pending = reuse_finished(jobs, done, on_record)
    if pending:
        cluster = None
        if scheduler:
            client = connect(scheduler)
        else:
            # silence_logs: a worker's heartbeat racing the shutdown logs a traceback that means nothing;
            # a job that really fails reaches us through its future
            with dask.config.set(LOCAL_SCHEDULER):
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    silence_logs=logging.CRITICAL,
                )
            client = Client(cluster)
        try:
            # one level per instance is shipped once, not once per backend; as a task, not scattered data:
            # the scheduler can recompute a task whose only copy died with a worker, never scattered data
            # (and every run needing it would be cancelled)
            shipped = {
                path: client.submit(_level, levels[path], pure=False, key=f"level-{number}-{os.getpid()}")
                for number, path in enumerate(sorted({job.path for _, job in pending}))
            }
            plugins = registry.plugin_files()
            futures = {
                client.submit(
                    dask_job, job, shipped[job.path], plugins, pure=False, key=f"run-{index}-{os.getpid()}"
                ): index
                for index, job in pending
            }
            try:
                for future in as_completed(futures):
                    index = futures[future]
                    try:
                        record = RunRecord.from_json(future.result())
                    except Exception as exc:  # noqa: BLE001 - a lost worker, past its reruns: recorded as this run's error
                        # the scheduler reruns a lost worker's run (distributed.scheduler.allowed-failures);
                        # past that it is an error here, not logged, so a resume reruns it
                        record = _lost(jobs[index], exc)
                    else:
                        if log is not None:
                            log.write(record)
                    results[index] = record
                    if on_record:
                        on_record(record, False)
            except KeyboardInterrupt:  # Ctrl-C: the finished runs are logged; cancel the rest
                INTERRUPT.set()
                client.cancel(list(futures))
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    return [results[i] for i in sorted(results)]


#: Seconds to wait for a Dask scheduler before calling it unreachable (Dask's own default is 30).
CONNECT_SECONDS = 5.0


class SchedulerUnreachable(UsageError):
    """No Dask scheduler answers at the address given (a usage error: exit 2)."""


def connect(scheduler: str) -> Any:
    """A client of the scheduler at ``scheduler``, or SchedulerUnreachable saying why, within seconds."""
    from distributed import Client

    try:
        return Client(scheduler, timeout=CONNECT_SECONDS)
    except Exception as exc:  # noqa: BLE001 - refused, timed out, a bad address, or something that is not a scheduler
        raise SchedulerUnreachable(
            f"--scheduler {shorten(scheduler)}: cannot use a Dask scheduler there "
            f"({type(exc).__name__}: {shorten(exc, 200)}; waited at most {CONNECT_SECONDS:g} s)"
        ) from None


def needs_dask() -> None:
    """The dask executor's library is installed, else a UsageError saying how to install it."""
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        raise UsageError('the dask executor needs the dask extra: pip install "trisolve[dask]"')


def check_scheduler(scheduler: str) -> None:
    """Connect to ``scheduler`` and leave: a command that would write files (generated levels, a journal)
    first learns that the scheduler answers, so an unreachable one writes nothing (issue 22)."""
    connect(scheduler).close()


def _lost(job: Job, exc: BaseException) -> RunRecord:
    """The error record of a run Dask could not finish (not logged: a resume reruns it)."""
    tries = getattr(exc, "allowed_failures", None)
    if type(exc).__name__ == "KilledWorker" and isinstance(tries, int):
        worker = getattr(getattr(exc, "last_worker", None), "address", "?")
        error = (
            f"dask: lost worker: {tries + 1} tries, each ended by its worker process dying "
            f"(distributed.scheduler.allowed-failures = {tries}; last worker {worker}); not logged, a resume reruns it"
        )
    else:
        error = f"dask: {type(exc).__name__}: {shorten(exc, 200)}; not logged, a resume reruns it"
    return record_of(job, status="unknown", count=0, complete=False, error=error)


def race(
    jobs: Iterable[Job],
    level: Any,
    *,
    grace: float | None = None,
    started: float | None = None,
) -> tuple[RunRecord | None, list[RunRecord]]:
    """Portfolio: run the jobs in parallel, return the first definite answer.

    A first solution answers when it is sat or unsat; a count (or listing) only when it is complete or
    reached the jobs' solution limit: a count cut short by the time limit is ``N+``, never a winner.
    The others are stopped (process groups killed) as soon as one answers.
    Returns (winner or None, all records).  Every run's limit counts from ``started`` (default: each its own
    start).
    """
    jobs = list(jobs)
    winner: list[RunRecord] = []
    lock = threading.Lock()
    done = threading.Event()
    records: list[RunRecord | None] = [None] * len(jobs)
    # waited on instead of Thread.join: a join cut short by Ctrl-C can later return before its thread ends
    finished = [threading.Event() for _ in jobs]

    def worker(index: int, job: Job) -> None:
        try:
            record = run(job, level, grace=grace, stop=done.is_set, started=started)
            records[index] = record
            if answers(job, record):
                with lock:
                    if not winner:
                        winner.append(record)
                        done.set()
        finally:
            finished[index].set()

    threads = [threading.Thread(target=worker, args=(i, job), daemon=True) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    try:
        for event in finished:
            event.wait()
    except KeyboardInterrupt:  # every run sees INTERRUPT and returns what it found
        INTERRUPT.set()
    finally:
        # also on Ctrl-C: every run polls ``done`` and kills its child before returning
        done.set()
        for event in finished:
            event.wait()
    return (winner[0] if winner else None), [r for r in records if r is not None]


#: How long writing a backend's machine-wide caches may take (xcover's kernels compile in about 35 CPU s).
WARM_LIMIT = 900.0


def warm_machine(specs: Iterable[str], family: str, limit: float = WARM_LIMIT) -> None:
    """Let the backends write their machine-wide caches before any run is timed, in a child that then exits.

    A backend that compiles code on first use keeps it in numba's cache on disk, once per machine (exactcover's
    Algorithm C, dp's counters).  Inside a timed run that first compile would count against the run's limit, and
    one that outlasts the limit is killed before numba writes the cache: every later run would compile again and
    be killed too, and the backend would look unsolved everywhere.  So a benchmark measures runs "after the first
    on the machine": ``registry.preload`` runs here in a forked child, untimed.  This process stays cold, so every
    timed run still pays its own imports and its load from the cache.  Ctrl-C (``INTERRUPT``) stops the wait.
    """
    process = multiprocessing.get_context("fork").Process(target=_warm, args=(list(specs), family), daemon=True)
    process.start()
    deadline = time.monotonic() + limit
    while process.is_alive() and not INTERRUPT.is_set() and time.monotonic() < deadline:
        process.join(0.2)
    if process.is_alive():
        process.kill()
        process.join()


def _warm(specs: list[str], family: str) -> None:
    with contextlib.suppress(Exception):  # a backend that cannot load says so in its own runs
        registry.preload(specs, family)
