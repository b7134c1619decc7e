"""What every backend promises, so the CLI and the cross-checker never special-case one.

A backend (pysat, clingo, cpsat) owns the solving mechanics: enumeration,
projection, limits, statistics.  For each puzzle family it has one
translator per encoding *variant*; ``backend:variant`` names a configuration
(e.g. ``pysat:totalizer``).  Translators are written independently per
backend: the cross-check is only as strong as that independence.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Protocol

from ..models.errors import TrisolveError, UsageError


class Status(str, Enum):
    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Limits:
    """Stop conditions for one run.

    ``time`` is wall-clock seconds for solving (None: no limit);
    ``solutions`` stops enumeration after that many (None: all).
    """

    time: float | None = None
    solutions: int | None = None

    def deadline(self, start: float | None = None) -> float | None:
        if self.time is None:
            return None
        return (time.monotonic() if start is None else start) + self.time


@dataclass(frozen=True)
class Options:
    """How to solve: first solution or all of them, and optional extras."""

    enumerate: bool = False
    symmetry_breaking: bool = False
    seed: int = 0
    #: reorder the solver's input reproducibly from ``seed`` (variables, clauses, facts,
    #: whatever the paradigm is sensitive to), so that luck is measured on every backend;
    #: the solution set never changes (see ``shuffle_seed``)
    shuffle: bool = False
    #: worker threads where the solver has them (CP-SAT); None: the backend's default
    workers: int | None = None
    #: external SAT solver command line for the ``dimacs`` backend (e.g. ``"kissat"``)
    sat_command: str | None = None
    #: bytes the ``dp`` counter may use for its layers, ``exactcover`` for the problem it builds, and Ganak's
    #: counting process's address space (None: their defaults); backends without ``MIN_MEMORY`` never get one
    memory: int | None = None


@dataclass(frozen=True)
class Result:
    """The outcome of one run.

    ``status`` says whether a solution exists (``unknown`` when a limit hit
    first).  ``complete`` says whether the count is exact: a first-solution
    run that found one is *not* complete (count ``1+``); an exhausted
    enumeration, or an unsat proof, is.
    """

    backend: str
    family: str
    status: Status
    solutions: tuple[Any, ...]
    complete: bool
    count: int
    stats: Mapping[str, Any] = field(default_factory=dict)
    times: Mapping[str, float] = field(default_factory=dict)
    #: solutions the solver reported more than once (a finding, never counted)
    duplicates: int = 0
    #: why the run stopped early, when it did ("time limit", "solution limit")
    stopped_by: str | None = None

    @property
    def count_text(self) -> str:
        return f"{self.count}" if self.complete else f"{self.count}+"


#: Where a count-only backend reports a lower bound it has proved so far (boards it has finished counting):
#: the runner's child sets it to send the bound to the parent, so a run killed at its limit, or by
#: Ctrl-C, still reports ``N+`` instead of ``0+``.  A no-op everywhere else.
_partial_count_sink: Callable[[int], None] | None = None


def report_partial_count(count: int) -> None:
    """Tell whoever runs this backend that at least ``count`` solutions exist (see ``_partial_count_sink``)."""
    if _partial_count_sink is not None:
        _partial_count_sink(count)


def set_partial_count_sink(sink: Callable[[int], None] | None) -> None:
    global _partial_count_sink
    _partial_count_sink = sink


#: Where a long-running backend reports how far it is: ``(done, total, text)`` (``total`` None when unknown;
#: ``text`` the line a person reads).  The runner's child sets it to send each report to the parent, which
#: shows it through the command's progress reporter (trisolve/cli/progress.py; --quiet silences it) or drops
#: it.  None everywhere else: the backend then prints its own line (``reports_progress`` is False).
_progress_sink: Callable[[int, int | None, str], None] | None = None


def reports_progress() -> bool:
    """Whether someone listens to ``report_progress`` (else a backend may print its own progress)."""
    return _progress_sink is not None


def report_progress(done: int, total: int | None, text: str) -> None:
    """Tell whoever runs this backend how far it is (see ``_progress_sink``)."""
    if _progress_sink is not None:
        _progress_sink(done, total, text)


def set_progress_sink(sink: Callable[[int, int | None, str], None] | None) -> None:
    global _progress_sink
    _progress_sink = sink


class OutOfTime(TrisolveError):
    """The run's time limit passed while its model was being built (``check_time``)."""


#: When the model being built in this context must be done (None: no limit), set by each engine's ``run``.
_BUILD_DEADLINE: ContextVar[float | None] = ContextVar("build_deadline", default=None)


def check_time() -> None:
    """Raise ``OutOfTime`` once the run's time is up; translators and compilers call it in their long loops.

    The time limit covers the whole run, and building a large model in Python
    (a 40x40 sigils frame: tens of thousands of placements; a compiled model's
    reachability levels) can take longer than the limit itself: the run then
    ends as "stopped by the time limit".
    """
    deadline = _BUILD_DEADLINE.get()
    if deadline is not None and time.monotonic() >= deadline:
        raise OutOfTime


@contextmanager
def building(deadline: float | None) -> Iterator[None]:
    """Models built inside stop at ``deadline`` (``check_time``)."""
    token = _BUILD_DEADLINE.set(deadline)
    try:
        yield
    finally:
        _BUILD_DEADLINE.reset(token)


class SolutionSink(Protocol):
    def __call__(self, solution: Any) -> None: ...


class Backend(Protocol):
    """One solver configuration for one family: ``pysat:totalizer`` on hexiom."""

    name: str  # e.g. "pysat:totalizer"
    family: str

    def run(
        self,
        level: Any,
        limits: Limits,
        options: Options,
        on_solution: SolutionSink | None = None,
    ) -> Result:
        """Solve or enumerate; call ``on_solution`` for each new solution as it is found.

        Must honour ``limits.time`` on its own (a process-level kill stands
        behind it in the runner, but a backend should not need it).
        """
        ...

    def export(self, level: Any, options: Options) -> str:
        """The native model as text (DIMACS, ASP facts, CP-SAT proto)."""
        ...

    # Optional: ``run_command(level, options, exported_file) -> str``, the command line that solves an exported
    # file without trisolve (clingo has one: its facts need the shipped rules files beside them).


def shuffle_seed(options: Options, seeded_solver: bool = True) -> int | None:
    """The seed a backend shuffles its input with, or None for the input as translated.

    A solver whose seed varies its search (CP-SAT) shuffles only when asked
    (``--shuffle``); one without a seed (PySAT's CaDiCaL) or whose seed alone
    changes almost nothing (clasp) shuffles whenever the seed is not 0, so
    that ``--seed`` has an effect on every backend (pysat then reorders its
    clauses; only ``--shuffle`` also renumbers its variables).
    """
    if options.shuffle or (not seeded_solver and options.seed):
        return options.seed
    return None


def luck_stats(options: Options, shuffled: int | None, what: str) -> dict[str, Any]:
    """What a run's stats record so it can be reproduced: the seed, and which shuffle of what."""
    return {"seed": options.seed, "shuffle": None if shuffled is None else f"{what} (seed {shuffled})"}


def shuffler(seed: int) -> random.Random:
    """The one random source of input shuffles: the same seed gives the same order everywhere."""
    return random.Random(f"trisolve-shuffle-{seed}")


class Stopwatch:
    """Collects phase times (translate, solve, decode) for Result.times.

    With ``Stopwatch.record_cpu`` switched on (the benchmark does, in its
    child processes) each phase also gets ``<phase>_cpu``: CPU seconds of the
    whole process, all solver threads included.
    """

    record_cpu = False

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self._started: dict[str, tuple[float, float]] = {}

    def start(self, phase: str) -> None:
        self._started[phase] = (time.perf_counter(), time.process_time())

    def stop(self, phase: str) -> None:
        began, began_cpu = self._started.pop(phase)
        self.times[phase] = self.times.get(phase, 0.0) + time.perf_counter() - began
        if Stopwatch.record_cpu:
            key = f"{phase}_cpu"
            self.times[key] = self.times.get(key, 0.0) + time.process_time() - began_cpu

    def add(self, phase: str, seconds: float) -> None:
        self.times[phase] = self.times.get(phase, 0.0) + seconds


@dataclass(frozen=True)
class Listing:
    """What ``list_by_exclusion`` found, and why it stopped; ``result`` turns it into the run's Result."""

    solutions: list[Any]
    #: no solution is left: the listing is complete (an unsat proof when it found none)
    exhausted: bool
    stopped_by: str | None
    #: the run lists solutions (else it wanted a first one, and excluded nothing for a listing)
    listing: bool

    def result(
        self, backend: str, family: str, stats: Mapping[str, Any], times: Mapping[str, float], exclusions: str
    ) -> Result:
        """The run's Result; its ``stats`` gain ``exclusions`` (the backend's word for them: ``no_good_cuts``,
        ``blocking_clauses``), one per solution of a listing and none for a first solution, so that the count
        says how much the solver was made to exclude, the same way on every backend that lists by exclusion."""
        excluded = len(self.solutions) if self.listing else 0
        return finish(
            backend,
            family,
            self.solutions,
            exhausted=self.exhausted,
            stats={**stats, exclusions: excluded},
            times=times,
            stopped_by=self.stopped_by,
        )


def list_by_exclusion(
    solve: Callable[[], bool | None],
    projected: Callable[[], frozenset[int]],
    decode: Callable[[frozenset[int]], Any],
    exclude: Callable[[frozenset[int]], None],
    *,
    wanted: int | None,
    listing: bool,
    deadline: float | None,
    on_solution: SolutionSink | None,
    watch: Stopwatch,
) -> Listing:
    """Solve, read the projection's true variables, decode and hand the solution on, exclude it, again.

    The search loop of the backends that list solutions by excluding each one found (a no-good cut, a
    blocking clause) over the projection only, so solutions are the puzzle's own.  ``solve`` answers
    True (a solution), False (none is left: the listing is exhausted) or None (a limit came first);
    ``deadline``, when given, is checked before each solve.  The ``Listing`` says why it stopped:
    ``"solution limit"`` only when ``listing`` (a first-solution run that found one is done).
    """
    solutions: list[Any] = []
    while True:
        if wanted is not None and len(solutions) >= wanted:
            return Listing(solutions, False, "solution limit" if listing else None, listing)
        if deadline is not None and time.monotonic() >= deadline:
            return Listing(solutions, False, "time limit", listing)
        watch.start("solve")
        outcome = solve()
        watch.stop("solve")
        if outcome is None:
            return Listing(solutions, False, "time limit", listing)
        if outcome is False:
            return Listing(solutions, True, None, listing)
        watch.start("decode")
        true = projected()
        solution = decode(true)
        watch.stop("decode")
        solutions.append(solution)
        if on_solution is not None:
            on_solution(solution)
        exclude(true)


@contextmanager
def cpu_phase_times() -> Iterator[None]:
    """Have backends record CPU seconds per phase, here and in the children forked meanwhile."""
    previous = Stopwatch.record_cpu
    Stopwatch.record_cpu = True
    try:
        yield
    finally:
        Stopwatch.record_cpu = previous


def install_hint(module: str, hint: str, *, load: bool = False) -> str | None:
    """What a backend's ``available()`` returns: None when the Python module ``module`` is there, else ``hint``
    (``"pip install ..."``).  With ``load`` the module is imported (cheap ones only: a broken install then shows
    here, not mid-run); else it is only looked up (OR-Tools costs half a second to import).  Never raises."""
    import importlib
    import importlib.util

    try:
        found = importlib.import_module(module) is not None if load else importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    return None if found else hint


def default_memory(most: int) -> int:
    """A backend's memory budget when ``--memory`` says none: half the machine's memory, from 1 GiB up to ``most``
    (``most`` where the machine does not say)."""
    import os

    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return most
    return max(min(1 << 30, most), min(most, physical // 2))


class UnsupportedFamily(UsageError):
    """A backend was asked for a family it has no translator for."""


class BackendUnavailable(UsageError):
    """The solver package is not installed; the message says how to install it."""


def finish(
    backend: str,
    family: str,
    solutions: Sequence[Any],
    *,
    exhausted: bool,
    proved_unsat: bool | None = None,
    stats: Mapping[str, Any],
    times: Mapping[str, float],
    duplicates: int = 0,
    stopped_by: str | None = None,
) -> Result:
    """Build a Result with status and completeness derived one way for every backend.

    ``proved_unsat`` defaults to ``exhausted``: a search that ran out with no solution proved there is none.
    """
    if proved_unsat is None:
        proved_unsat = exhausted
    if solutions:
        status = Status.SAT
    elif proved_unsat:
        status = Status.UNSAT
    else:
        status = Status.UNKNOWN
    complete = exhausted or (status is Status.UNSAT)
    return Result(
        backend=backend,
        family=family,
        status=status,
        solutions=tuple(solutions),
        complete=complete,
        count=len(solutions),
        stats=dict(stats),
        times=dict(times),
        duplicates=duplicates,
        stopped_by=stopped_by,
    )


def without_symmetry_breaking(backend: str, family: str, options: Options, catalog: Any) -> Result | None:
    """The run's answer when it asks for symmetry breaking that its translator's ``catalog`` says it cannot
    give (``symmetry_breaking=False``, as the compiled variants): unknown, saying why, never every solution
    counted as a symmetry class.  None: the run goes ahead."""
    if not options.symmetry_breaking or catalog.symmetry_breaking:
        return None
    return finish(
        backend,
        family,
        [],
        exhausted=False,
        stats={},
        times={},
        stopped_by=f"symmetry breaking is not supported by {backend} on {family}",
    )


class Engine:
    """What an engine (``backends/<backend>/engine.py``) keeps of its configuration, made the same way for each:
    a variant the translator's catalog does not list is refused at once (a UsageError), then it keeps the
    family, the variant, its name (``<BACKEND>:<variant>``) and the translator the registry handed in.  A run
    asks ``refused`` first; an engine whose runs ask nothing before that states ``solve``, which ``run`` calls
    when the run is not refused."""

    BACKEND: ClassVar[str]

    def __init__(self, family: str, variant: str, translator: Any) -> None:
        translator.CATALOG.require(variant, self.BACKEND, family)
        self.family = family
        self.variant = variant
        self.name = f"{self.BACKEND}:{variant}"
        self.translator = translator

    def refused(self, options: Options) -> Result | None:
        """The run's answer when it asks for symmetry breaking its catalog does not offer (else None)."""
        return without_symmetry_breaking(self.name, self.family, options, self.translator.CATALOG)

    def run(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        """``Backend.run``: the refusal, or ``solve``."""
        refused = self.refused(options)
        return refused if refused is not None else self.solve(level, limits, options, on_solution)

    def solve(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        """A run that is not refused (``Backend.run``)."""
        raise NotImplementedError


SolutionDecoder = Callable[..., Any]
