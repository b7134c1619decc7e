"""Plan and run benchmark trials: each (instance, backend, repeat) in its own process.

A trial goes through the same process runner as the cross-checker
(``runs.run``): a forked child with the backend's own time
limit and a hard kill behind it.  The parent parses the instance just before
each trial (so parsing is timed per run like every other phase) and, in
first-solution mode, validates the solution the backend returns.

Trials are ordered round-robin: every backend runs once on an instance before
any runs again, the backend order rotating from instance to instance and
round to round, so that drift in the machine's load hits all backends alike.
Before a family's first trial, ``runs.executors.warm_machine`` lets each backend compile what
it keeps on disk (numba's kernels), untimed: runs are measured as every run
after the first on a machine is.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from trisolve.backends.base import Limits, Options, Status, cpu_phase_times
from trisolve.backends.spec import Spec
from trisolve.models.family import Family
from trisolve.runs import INTERRUPT, Job, RunRecord, run
from trisolve.runs.executors import warm_machine

MODES = ("first", "count")

#: The solver's own statistics under one name per meaning, whatever each backend calls them.
STAT_ALIASES: dict[str, tuple[str, ...]] = {
    "conflicts": ("conflicts",),
    "decisions": ("decisions", "choices", "branches"),
    "propagations": ("propagations",),
    "variables": ("variables", "atoms"),
    "constraints": ("clauses", "constraints", "rules"),
}

#: Phases of a run (cpsat also reports "import", dimacs "write": those land in ``other``);
#: "ground" is clingo's grounding, the solver's own instantiation of the rules, not trisolve's.
PHASES = ("translate", "ground", "solve", "decode")
#: What each phase may be called: a backend without a solver calls its search "count" (dp).
PHASE_ALIASES: dict[str, tuple[str, ...]] = {
    "translate": ("translate",),
    "ground": ("ground",),
    "solve": ("solve", "count"),
    "decode": ("decode",),
}


@dataclass(frozen=True)
class Settings:
    """How every trial of one benchmark runs.  ``mode`` is ``first``, ``count``, or both (``first,count``: a first
    solution against a count, each trial in its own mode, side by side)."""

    timeout: float
    repeat: int = 1
    mode: str = "first"
    symmetry_breaking: bool = False
    #: seed of the first round; round r runs with seed + r (seed-sensitive solvers show their spread)
    seed: int = 0
    #: every round also reorders each backend's input from its seed (``Options.shuffle``)
    shuffle: bool = False
    sat_command: str | None = None
    grace: float | None = None

    def __post_init__(self) -> None:
        modes = self.mode.split(",")
        if not modes or any(m not in MODES for m in modes) or len(set(modes)) != len(modes):
            raise ValueError(f"mode must be one of {', '.join(MODES)}, or both (first,count), not {self.mode!r}")
        if self.repeat < 1:
            raise ValueError("repeat must be at least 1")

    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(self.mode.split(","))

    def options(self, round_: int, mode: str | None = None) -> Options:
        return Options(
            enumerate=(mode or self.modes[0]) == "count",
            symmetry_breaking=self.symmetry_breaking,
            seed=self.seed + round_,
            shuffle=self.shuffle,
            sat_command=self.sat_command,
        )

    @property
    def limits(self) -> Limits:
        return Limits(time=self.timeout)


@dataclass(frozen=True)
class Trial:
    """One run to make: an instance, a ``backend:variant``, and which round it belongs to."""

    path: str
    family: str
    backend: str
    round: int
    #: ``first`` or ``count``; None: the settings' one mode
    mode: str | None = None


def plan(
    instances: Sequence[tuple[str, str]],
    backends_for: Callable[..., Sequence[str]],
    repeat: int,
    modes: Sequence[str] | None = None,
) -> list[Trial]:
    """Every trial, round by round; within a round, instance by instance with rotating backend order.

    ``instances`` are (path, family name) pairs; ``backends_for`` gives the
    full backend names for a family, or, with ``modes``, for a family and a
    mode (``backends_for(family, mode)``): then each (backend, mode) pair is
    one contender, and the pairs rotate as the backends do.
    """
    trials = []
    for round_ in range(repeat):
        for index, (path, family) in enumerate(instances):
            if modes is None:
                pairs = [(name, None) for name in backends_for(family)]
            else:
                pairs = [(name, mode) for mode in modes for name in backends_for(family, mode)]
            if not pairs:
                continue
            shift = (round_ + index) % len(pairs)
            for backend, mode in pairs[shift:] + pairs[:shift]:
                trials.append(Trial(path, family, backend, round_, mode))
    return trials


def label(backend: str, mode: str, settings: Settings) -> str:
    """A contender's name in the tables and plots: the backend, and its mode when a benchmark has two."""
    return backend if len(settings.modes) == 1 else f"{backend} ({mode})"


def labelled(runs: Sequence[BenchRun], settings: Settings) -> list[BenchRun]:
    """The runs with ``backend`` as ``label`` names it, for scoring and drawing: with two modes, a backend's
    first solutions and its counts are two contenders."""
    if len(settings.modes) == 1:
        return list(runs)
    from dataclasses import replace

    return [replace(run, backend=label(run.backend, run.mode, settings)) for run in runs]


@dataclass(frozen=True)
class BenchRun:
    """One trial's measurements, flat enough for a CSV row.

    Times are seconds.  ``time`` is what a user waits: parsing plus the whole
    child run (``wall``: process start, imports, translate, ground, solve,
    decode, sending the result back).  ``other`` is ``wall`` minus the phases.
    ``*_cpu`` columns are CPU seconds of the process in that phase (all solver
    threads; for the dimacs backend ``cpu`` includes the external solver).
    ``peak_rss_mb`` is the child's peak resident memory; a forked child starts
    with the parent's pages, so a few tens of MB of it are the interpreter.
    """

    instance: str
    path: str
    family: str
    backend: str
    round: int
    seed: int
    mode: str
    symmetry_breaking: bool
    timeout: float
    status: str
    solved: bool
    count: int
    complete: bool
    valid: bool | None
    time: float
    wall: float
    cpu: float
    parse: float
    parse_cpu: float
    translate: float | None
    translate_cpu: float | None
    ground: float | None
    ground_cpu: float | None
    solve: float | None
    solve_cpu: float | None
    decode: float | None
    decode_cpu: float | None
    other: float | None
    variables: int | None
    constraints: int | None
    conflicts: int | None
    decisions: int | None
    propagations: int | None
    peak_rss_mb: float
    stopped_by: str | None = None
    error: str | None = None
    #: everything the backend reported, as it reported it (JSON only)
    stats: Mapping[str, Any] = field(default_factory=dict)
    times: Mapping[str, float] = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BenchRun:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


#: CSV columns: every field but the raw dictionaries.
CSV_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(BenchRun) if f.name not in ("stats", "times"))


def run_trial(trial: Trial, family: Family, settings: Settings) -> BenchRun:
    """Parse the instance, run the backend in a child process, validate, measure."""
    began, began_cpu = time.perf_counter(), time.process_time()
    level = family.parse(trial.path)
    parse_wall, parse_cpu = time.perf_counter() - began, time.process_time() - began_cpu

    mode = trial.mode or settings.modes[0]
    options = settings.options(trial.round, mode)
    job = Job(trial.path, trial.family, trial.backend, settings.limits, options, keep_solutions=mode == "first")
    with cpu_phase_times():
        record = run(job, level, grace=settings.grace)

    valid = None
    if record.solutions:
        solutions = [family.solution_from_json(level, data) for data in record.solutions]
        valid = not any(family.validate(level, solution) for solution in solutions)
    return measure(trial, record, settings, parse_wall, parse_cpu, valid)


def measure(
    trial: Trial, record: RunRecord, settings: Settings, parse_wall: float, parse_cpu: float, valid: bool | None
) -> BenchRun:
    """Flatten a run record into a BenchRun (separate from running, so it can be tested alone)."""
    times = dict(record.times)
    stats = dict(record.stats)
    mode = trial.mode or settings.modes[0]
    answered = record.error is None and valid is not False
    if mode == "first":
        solved = answered and record.status in (Status.SAT.value, Status.UNSAT.value)
    else:
        solved = answered and record.complete
    phase = {p: _phase(times, p, "") for p in PHASES}
    phase_cpu = {p: _phase(times, p, "_cpu") for p in PHASES}
    other = _other(record, phase, mode == "count") if record.error is None and times else None
    external_cpu = stats.get("solver_cpu", 0.0) if isinstance(stats.get("solver_cpu"), (int, float)) else 0.0
    return BenchRun(
        instance=os.path.splitext(os.path.basename(trial.path))[0],
        path=trial.path,
        family=trial.family,
        backend=trial.backend,
        round=trial.round,
        seed=settings.seed + trial.round,
        mode=mode,
        symmetry_breaking=settings.symmetry_breaking,
        timeout=settings.timeout,
        status=record.status,
        solved=solved,
        count=record.count,
        complete=record.complete,
        valid=valid,
        time=parse_wall + record.wall,
        wall=record.wall,
        cpu=parse_cpu + record.cpu + external_cpu,
        parse=parse_wall,
        parse_cpu=parse_cpu,
        translate=phase["translate"],
        translate_cpu=phase_cpu["translate"],
        ground=phase["ground"],
        ground_cpu=phase_cpu["ground"],
        solve=phase["solve"],
        solve_cpu=phase_cpu["solve"],
        decode=phase["decode"],
        decode_cpu=phase_cpu["decode"],
        other=other,
        variables=_stat(stats, "variables"),
        constraints=_stat(stats, "constraints"),
        conflicts=_stat(stats, "conflicts"),
        decisions=_stat(stats, "decisions"),
        propagations=_stat(stats, "propagations"),
        peak_rss_mb=max(record.peak_rss_mb, float(stats.get("solver_peak_rss_mb", 0.0) or 0.0)),
        stopped_by=record.stopped_by,
        error=record.error,
        stats=stats,
        times=times,
    )


#: Backends whose ``decode`` runs inside their ``solve`` phase, per mode ("first", "count"): clingo decodes each
#: model on the main thread while its search thread goes on; CP-SAT decodes in its solution callback when it
#: enumerates.  Their decode time is already in their solve time, so ``other`` must not subtract it twice
#: (issue 22: ``bench --mode count`` printed negative "other" times).
DECODE_WITHIN_SOLVE: Mapping[str, tuple[str, ...]] = {"clingo": ("first", "count"), "cpsat": ("count",)}


def _other(record: RunRecord, phase: Mapping[str, float | None], counting: bool) -> float:
    """The run's wall time outside its phases: process start, imports, sending the result back.

    Phases that overlap are counted once: a backend that decodes within its solve phase
    (``DECODE_WITHIN_SOLVE``), or any other whose phases add up to more than its wall time (they can only
    have overlapped).  Never negative: a time that is not there is not a time.
    """
    spent = [t for name, t in phase.items() if t is not None and name != "decode"]
    decode = phase.get("decode") or 0.0
    nested = ("count" if counting else "first") in DECODE_WITHIN_SOLVE.get(Spec.parse(record.backend).backend, ())
    other = record.wall - sum(spent) - (0.0 if nested else decode)
    if other < 0 and not nested:
        other = record.wall - sum(spent)
    return max(0.0, other)


def _phase(times: Mapping[str, float], phase: str, suffix: str) -> float | None:
    for name in PHASE_ALIASES[phase]:
        if name + suffix in times:
            return times[name + suffix]
    return None


def _stat(stats: Mapping[str, Any], meaning: str) -> int | None:
    for name in STAT_ALIASES[meaning]:
        value = stats.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return int(value)
    return None


def run_all(
    trials: Sequence[Trial],
    families: Mapping[str, Family],
    settings: Settings,
    on_run: Callable[[int, BenchRun], None] | None = None,
) -> list[BenchRun]:
    """Run the trials one at a time (timings are not shared with a neighbour run).

    After Ctrl-C (``runner.interrupt``) the run in progress is dropped and no other starts:
    the runs returned are the finished ones.
    """
    runs = []
    for family in dict.fromkeys(trial.family for trial in trials):
        warm_machine({trial.backend: None for trial in trials if trial.family == family}, family)
    for index, trial in enumerate(trials):
        try:
            run = run_trial(trial, families[trial.family], settings)
        except KeyboardInterrupt:  # Ctrl-C while parsing or validating, outside the child
            INTERRUPT.set()
        if INTERRUPT.is_set():
            break
        runs.append(run)
        if on_run is not None:
            on_run(index, run)
    return runs


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None
