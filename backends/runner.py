"""Run one backend on one instance in a child process, with a hard time limit behind it.

Every backend honours ``Limits.time`` itself; this module is the second line:
the child is killed (its whole process group) when it overruns by ``grace``
seconds, and solutions it streamed before that are kept, so a killed run
still reports what it found (as an incomplete count).

The child streams each solution as JSON through a pipe as soon as it is found
and sends a final record.  ``run_job`` imports no solver in the parent; an
executor of many runs may import them once beforehand (``registry.preload``)
so that every forked child starts with them loaded.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import resource
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..models.errors import UsageError
from . import base
from .base import Limits, Options, Result, Status

#: Seconds a child may overrun its time limit before it is killed: a fixed part and a share of
#: the limit (``grace_for``), so the whole run ends within about 1 s + 10% of the limit.
DEFAULT_GRACE = None
GRACE_FIXED, GRACE_SHARE = 0.25, 0.05


def grace_for(limit: float) -> float:
    return GRACE_FIXED + GRACE_SHARE * limit


#: Set by Ctrl-C or SIGTERM (``interrupt``): every run in every thread kills its child at its next
#: poll and returns what it has, and no new run starts.
INTERRUPT = threading.Event()


#: The main thread's ``interrupts_held`` stretches: how deep, and whether a signal came during them.
_HELD = {"depth": 0, "pending": False}


def interrupt(signum: int = 0, frame: Any = None) -> None:
    """Signal handler: stop every run at once, and raise KeyboardInterrupt in the main thread.

    Inside a finalizer (a solver's ``__del__``) Python would print the exception and drop it,
    so there the flag alone is set and the next ``raise_if_interrupted`` raises it.  Inside
    ``interrupts_held`` it is raised when the stretch ends.
    """
    INTERRUPT.set()
    if _HELD["depth"]:
        _HELD["pending"] = True
    elif not _in_finalizer(frame):
        raise KeyboardInterrupt


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """A stretch that a KeyboardInterrupt must not cut in two (PySAT freeing a solver and then forgetting
    it): a signal there sets the flag, and KeyboardInterrupt comes when the stretch ends."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers run in the main thread only: nothing can cut this thread's stretch
        return
    _HELD["depth"] += 1
    try:
        yield
    finally:
        _HELD["depth"] -= 1
        if not _HELD["depth"] and _HELD["pending"]:
            _HELD["pending"] = False
            raise KeyboardInterrupt


def _in_finalizer(frame: Any) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def raise_if_interrupted() -> None:
    """For loops that solve in this process (the generators): stop here after Ctrl-C."""
    if INTERRUPT.is_set():
        raise KeyboardInterrupt


def interrupted() -> bool:
    return INTERRUPT.is_set()


@dataclass(frozen=True)
class Job:
    """One (instance, backend configuration) pair to run."""

    path: str
    family: str
    backend: str
    limits: Limits = Limits()
    options: Options = Options()
    #: keep solutions in the record (the cross-checker compares sets of them); without it only the first
    #: comes in full and the rest are counted (a count need not ship and validate every solution)
    keep_solutions: bool = True
    #: where the level goes, in order, when ``backend`` refuses it (``route``): the measured default's next
    #: rows when no backend was named, else nothing (a named backend that refuses answers unknown, saying why)
    instead: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """Identifies the job in a JSONL log, for --resume."""
        o = self.options
        return "|".join(
            [
                os.path.normpath(self.path),
                self.backend,
                "all" if o.enumerate else "first",
                f"sb={int(o.symmetry_breaking)}",
                f"seed={o.seed}",
                *(["shuffle"] if o.shuffle else []),
                f"limit={self.limits.solutions}",
                f"time={self.limits.time}",
            ]
        )


@dataclass(frozen=True)
class RunRecord:
    """What one run produced, in a form that goes to JSON and back unchanged."""

    key: str
    path: str
    family: str
    backend: str
    mode: str
    symmetry_breaking: bool
    status: str
    count: int
    complete: bool
    duplicates: int = 0
    solutions: tuple = ()
    stats: Mapping[str, Any] = field(default_factory=dict)
    times: Mapping[str, float] = field(default_factory=dict)
    wall: float = 0.0
    cpu: float = 0.0
    peak_rss_mb: float = 0.0
    stopped_by: str | None = None
    error: str | None = None
    seed: int = 0

    @property
    def count_text(self) -> str:
        return f"{self.count}" if self.complete else f"{self.count}+"

    @property
    def interrupted(self) -> bool:
        """Cut short by Ctrl-C: not a finished run (never logged, rerun on resume)."""
        return (self.stopped_by or "").startswith("interrupted")

    def to_json(self) -> dict:
        data = asdict(self)
        data["solutions"] = list(self.solutions)
        return data

    @classmethod
    def from_json(cls, data: Mapping) -> RunRecord:
        known = {f for f in cls.__dataclass_fields__}
        values = {k: v for k, v in data.items() if k in known}
        values["solutions"] = tuple(values.get("solutions", ()))
        return cls(**values)


def _find_prctl() -> Callable[..., int] | None:
    """libc's prctl, looked up in the parent: a forked child should not call dlopen (it takes
    the dynamic loader's lock, which a thread of the parent may have held at the fork)."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _find_prctl()
#: Forks one at a time: the executors start runs from several threads, and a child forked
#: while another thread is itself forking can inherit a lock that nobody will release.
_FORK_LOCK = threading.Lock()


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (no-op elsewhere).

    A child in its own process group does not get the terminal's signals, so
    without this a parent killed by SIGTERM or SIGKILL would leave it running.
    """
    if _PRCTL is not None:
        PR_SET_PDEATHSIG = 1
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL)


#: In a run's child: where ``track_group`` sends the process groups the backend starts (None elsewhere).
_GROUP_SINK: Callable[[int], None] | None = None
#: Linux's prctl option that makes a process the reaper of its orphaned descendants.
PR_SET_CHILD_SUBREAPER = 36


def reap_orphans() -> None:
    """In a run's child: kill and reap every child process it has left (no-op elsewhere).

    A run's child is its descendants' subreaper (``PR_SET_CHILD_SUBREAPER``): a helper that left the
    run's process groups (a new session) and lost its parent comes here, and is found by its parent pid.
    Only a run's child does this: its only children are the backend's helpers.
    """
    if _GROUP_SINK is None:
        return
    me = os.getpid()
    try:
        names = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return
    for name in names:
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                parent = int(handle.read().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == me:
            try:
                os.kill(int(name), signal.SIGKILL)
                os.waitpid(int(name), 0)
            except (OSError, ChildProcessError):
                pass


def track_group(pgid: int) -> None:
    """A backend started a helper in its own process group ``pgid`` (the dimacs bridge's SAT command):
    the runner kills that group too when the run ends, whatever happened (no-op outside a run's child)."""
    if _GROUP_SINK is not None:
        _GROUP_SINK(pgid)


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while this thread forks a child: the child starts with them blocked, until
    ``_child`` has put its own handlers in place.  Without it a Ctrl-C to the process group in that window
    ran the parent's handler (``interrupt``) in the child, whose KeyboardInterrupt printed a traceback from
    multiprocessing's start-up.  Here they come when the fork is done."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def route(job: Job, level: Any) -> tuple[str, str | None]:
    """The backend that runs ``job`` on ``level``, and what was refused on the way (None: nothing).

    Its own backend, unless that refuses the level (``registry.refusal``, asked without importing a solver);
    then the first of ``job.instead`` that takes it.  When every one refuses, its own backend runs and its
    answer (unknown) says why.
    """
    from . import registry

    if not job.instead:  # a named backend: its own run says why it refuses, if it does
        return job.backend, None
    refused = []
    for name in (job.backend, *job.instead):
        why = registry.refusal(name, job.family, level, job.options)
        if why is None:
            return name, "; ".join(refused) or None
        refused.append(f"{name} ({why})")
    return job.backend, None


def routed(record: RunRecord, backend: str, refused: str | None) -> RunRecord:
    """The record of a job that ``route`` gave to ``backend``: its backend named, and why in its stats."""
    if refused is None:
        return record
    return replace(record, backend=backend, stats={**record.stats, "refused": refused})


def _child(
    job: Job, level: Any, conn, started: float, load: Callable[[], Any] | None, plugins: tuple[str, ...] = ()
) -> None:
    """Child process body: load plugins and parse (when asked), solve, streaming each solution, then send
    the record.

    The time limit counts from ``started`` (the parent's clock, before the fork): loading plugins,
    parsing, translating, solving and decoding all spend it.
    """
    global _GROUP_SINK
    os.setpgid(0, 0)  # own process group, so a kill takes any helper processes too
    die_with_parent()
    if _PRCTL is not None:  # orphaned helpers come to this process (reap_orphans), not to init
        _PRCTL(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)  # blocked since the fork (``_stop_signals_blocked``)
    sending = threading.Lock()

    def send_group(pgid: int) -> None:
        with sending:
            conn.send(("group", pgid))

    _GROUP_SINK = send_group
    try:
        from trisolve.models.errors import LevelSyntaxError, UsageError

        from . import registry

        if plugins:  # a Dask worker's runs load the --plugin files here, under the run's limit
            for plugin in plugins:
                registry.load_plugin(plugin)
            conn.send(("plugins", None))
        if load is not None:
            began = time.monotonic()
            try:
                level = load()
            except LevelSyntaxError as problem:
                conn.send(("invalid", (problem.file, problem.line, problem.message, problem.column)))
                return
            except UsageError as problem:
                conn.send(("invalid", (None, None, str(problem), None)))
                return
            conn.send(("level", level, time.monotonic() - began))
        limits = job.limits
        if limits.time is not None:
            limits = replace(limits, time=limits.time - (time.monotonic() - started))
        name, refused = route(job, level)
        if refused is not None:
            conn.send(("routed", name, refused))
        try:  # after the level is read: a bad file is refused before any solver library is imported
            backend = registry.get(name, job.family)
        except (registry.UnknownBackend, registry.UnsupportedFamily, registry.BackendUnavailable, ValueError) as no:
            conn.send(("unusable", f"{no}"))
            return

        sent = 0

        def stream(solution: Any) -> None:
            # the first solution goes in full always: it shows a count's level solvable (and a unique one)
            nonlocal sent
            conn.send(("solution", solution.to_json() if job.keep_solutions or not sent else None))
            sent += 1

        def partial(count: int) -> None:
            with sending:
                conn.send(("count", count))

        base.set_partial_count_sink(partial)

        def progress(done: int, total: int | None, text: str) -> None:
            with sending:
                conn.send(("progress", done, total, text))

        base.set_progress_sink(progress)
        if limits.time is not None and limits.time <= 0:
            result = Result(job.backend, job.family, Status.UNKNOWN, (), False, 0, stopped_by="time limit")
        else:
            result = backend.run(level, limits, job.options, on_solution=stream)
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
        conn.send(("result", routed(record, name, refused).to_json()))
    except BaseException as exc:  # reported to the parent, which decides the exit code
        conn.send(("error", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
    finally:
        conn.close()
        reap_orphans()


def _kill_group(process: multiprocessing.Process) -> None:
    if process.pid is None:
        return
    # SIGKILL cannot be refused, but on a loaded machine dying takes a while: wait to reap it
    for sig, wait in ((signal.SIGTERM, 0.5), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except (ProcessLookupError, PermissionError):
            try:  # not its own group yet (killed right after the fork): the child alone
                os.kill(process.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        process.join(wait)
        if not process.is_alive():
            return


def _end_groups(pgids: Iterable[int]) -> None:
    """SIGKILL whatever is left in these process groups: helpers and grandchildren of a finished run.

    The child's own group is killed before it is reaped where possible; after that, its number stays
    reserved as long as any member of the group lives, so the signal reaches no stranger."""
    for pgid in pgids:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass


def death_of(process: multiprocessing.Process) -> str:
    """Why a run's child ended without sending its result: its exit code, or the signal that killed it."""
    process.join(1.0)
    code = process.exitcode
    if code is None:
        return "backend process stopped answering (it was killed)"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (the kernel's out-of-memory killer sends SIGKILL)" if -code == signal.SIGKILL else ""
        return f"backend process killed by {name}{hint}"
    return f"backend process exited with code {code} before sending its result"


def run_job(
    job: Job,
    level: Any,
    *,
    grace: float | None = DEFAULT_GRACE,
    on_solution: Callable[[Any], None] | None = None,
    stop: Callable[[], bool] | None = None,
    started: float | None = None,
    load: Callable[[], Any] | None = None,
    on_level: Callable[[Any, float], None] | None = None,
    plugins: Iterable[str] = (),
    on_progress: Callable[[int, int | None, str], None] | None = None,
) -> RunRecord:
    """Run ``job`` in a forked child; always returns a record, never hangs.

    ``on_progress(done, total, text)`` hears how far a long backend is (``base.report_progress``);
    without it those reports are dropped.

    ``on_solution`` receives each solution's JSON as it arrives.  ``stop`` is
    polled; when it returns True the child is killed (used by the portfolio).
    The time limit counts from ``started`` (default: now) and the child is
    killed ``grace`` seconds after it (default ``grace_for(limit)``).  With
    ``load``, the child parses the level itself (``level`` is ignored), so the
    limit covers parsing too: ``on_level(level, seconds)`` gets it back, and a
    parse error is raised here as the child's ``LevelSyntaxError``.  After
    ``interrupt`` (Ctrl-C), every run stops at once: its record says ``interrupted``.
    ``plugins`` are ``--plugin`` files the child loads first, within the limit (a Dask worker's runs).

    The child runs in its own process group; when the run ends, however it ends, that group and every
    group the backend reported (``track_group``) are killed: no helper outlives its run.
    """
    started = time.monotonic() if started is None else started
    plugins = tuple(plugins)
    if INTERRUPT.is_set():
        return record_of(
            job,
            status=Status.UNKNOWN.value,
            count=0,
            complete=False,
            wall=time.monotonic() - started,
            stopped_by="interrupted",
        )
    context = multiprocessing.get_context("fork")
    parent_conn, child_conn = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(job, level, child_conn, started, load, plugins), daemon=True)
    with _FORK_LOCK, _stop_signals_blocked():
        process.start()
    try:  # also here, not only in the child: a kill right after the fork must find the group
        os.setpgid(process.pid, process.pid)
    except OSError:
        pass
    child_conn.close()
    groups: list[int] = [process.pid]
    plugins_loaded = not plugins
    if grace is None and job.limits.time is not None:
        grace = grace_for(job.limits.time)
    hard_deadline = None if job.limits.time is None else started + job.limits.time + grace

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
            if INTERRUPT.is_set():
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
                        error = death_of(process)
                    break
                if final is not None or error is not None or invalid is not None or unusable is not None:
                    break  # answered: a helper or grandchild still holding on is killed below, not waited for
                continue
            if not process.is_alive() and not parent_conn.poll(0):
                if final is None and error is None:
                    error = death_of(process)
                break
    except KeyboardInterrupt:  # Ctrl-C in the thread that runs this: keep what was found
        INTERRUPT.set()
        stopped_by = "interrupted"
    finally:
        if process.is_alive():
            if final is not None or error is not None or invalid is not None or unusable is not None:
                process.join(0.05)  # it has answered and is on its way out
            if process.is_alive():
                _kill_group(process)
        _end_groups(groups)
        process.join(1.0)
        try:  # what the child sent before it was stopped is kept (a final record, too)
            while final is None and parent_conn.poll(0):
                take(parent_conn.recv())
        except (EOFError, OSError):
            pass
        parent_conn.close()
        _end_groups(groups[1:])  # groups reported in the last messages
    wall = time.monotonic() - started
    if invalid is not None:
        from trisolve.models.errors import LevelSyntaxError, UsageError

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
    the level was read, and raised by ``run_job`` (a usage error: exit 2)."""


def record_of(job: Job, **fields: Any) -> RunRecord:
    """A record of ``job``: the job's own fields, then what the run produced."""
    return RunRecord(
        key=job.key,
        path=job.path,
        family=job.family,
        backend=job.backend,
        mode="all" if job.options.enumerate else "first",
        symmetry_breaking=job.options.symmetry_breaking,
        seed=job.options.seed,
        **fields,
    )


def record_from_result(
    job: Job, result: Result, wall: float, *, cpu: float = 0.0, peak_rss_mb: float = 0.0, solutions: tuple | None = None
) -> RunRecord:
    """The one way a backend's Result becomes a record: in the runner's child, in tests, in the dimacs bridge."""
    return record_of(
        job,
        status=result.status.value,
        count=result.count,
        complete=result.complete,
        duplicates=result.duplicates,
        solutions=tuple(s.to_json() for s in result.solutions) if solutions is None else solutions,
        stats=dict(result.stats),
        times=dict(result.times),
        wall=wall,
        cpu=cpu,
        peak_rss_mb=peak_rss_mb,
        stopped_by=result.stopped_by,
    )


def answers(job: Job, record: RunRecord) -> bool:
    """Whether a run answered what its job asked (``race`` takes the first that did)."""
    if record.error is not None or record.status == Status.UNKNOWN.value:
        return False
    if not job.options.enumerate:
        return True
    return record.complete or (job.limits.solutions is not None and record.count >= job.limits.solutions)


def race(
    jobs: Iterable[Job],
    level: Any,
    *,
    grace: float | None = DEFAULT_GRACE,
    started: float | None = None,
) -> tuple[RunRecord | None, list[RunRecord]]:
    """Portfolio: run the jobs in parallel, return the first definite answer.

    A first solution answers when it is sat or unsat; a count (or listing) only when it is complete or
    reached the jobs' solution limit: a count cut short by the time limit is ``N+``, never a winner.
    The others are stopped (process groups killed) as soon as one answers.
    Returns (winner or None, all records).
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
            record = run_job(job, level, grace=grace, stop=done.is_set, started=started)
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
    except KeyboardInterrupt:  # every run_job sees INTERRUPT and returns what it found
        INTERRUPT.set()
    finally:
        # also on Ctrl-C: every run_job polls ``done`` and kills its child before returning
        done.set()
        for event in finished:
            event.wait()
    return (winner[0] if winner else None), [r for r in records if r is not None]
