"""trisolve as a library: the functions the ``trisolve`` command is a thin layer over.

``import trisolve`` loads none of this (nor any solver): the package's
``__getattr__`` imports this module on first use of ``trisolve.load`` and
friends, and the solvers load only when a run needs them.

>>> import trisolve
>>> level = trisolve.load("levels/hexiom/level01.txt")
>>> level.family, level.name
('hexiom', 'level01')
>>> result = trisolve.solve(level, backend="pysat", count=True)
>>> result.status, result.count, result.complete, result.count_text
('sat', 12, True, '12')
>>> [s.violations() for s in result.solutions] == [[]] * 12
True
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trisolve.models import FAMILIES, detect_family
from trisolve.models.errors import LevelSyntaxError, TrisolveError, shorten
from trisolve.models.family import Family

if TYPE_CHECKING:  # imported lazily at run time: they load multiprocessing machinery
    from trisolve.backends.runner import RunRecord
    from trisolve.bench.runner import BenchRun
    from trisolve.crosscheck.compare import Verdict


class UsageError(TrisolveError, ValueError):
    """A request that cannot be run as asked (unknown backend, conflicting options).

    A ``TrisolveError``, so the command line reports it with exit code 2.
    """


# ------------------------------------------------------------------ levels and solutions


@dataclass(frozen=True)
class Level:
    """A parsed puzzle instance of one family; ``model`` is the family's own level object."""

    family: str
    model: Any = field(repr=False)
    path: str | None = None
    #: seconds spent reading and parsing (reported as the ``parse`` phase of a solve)
    parse_time: float = field(default=0.0, compare=False, repr=False)

    @property
    def kind(self) -> Family:
        """The family's functions (parser, validator, renderer, ...)."""
        return FAMILIES[self.family]

    @property
    def name(self) -> str:
        return getattr(self.model, "name", "") or (
            os.path.splitext(os.path.basename(self.path))[0] if self.path else ""
        )

    def describe(self) -> str:
        """One line: size, pieces, clues."""
        return self.kind.describe(self.model)

    def render(self, **options: Any) -> str:
        """The puzzle as text (sigils take ``colour=True``)."""
        return self.kind.render(self.model, None, **options)

    def __str__(self) -> str:
        return self.render().rstrip("\n")

    def picture(self) -> str:
        """The level as an SVG picture: locked and blocked cells, the empty frame and its pieces, the clues."""
        return self.kind.picture(self.model, None)

    def _repr_svg_(self) -> str:  # notebooks show the picture
        return self.picture()

    def solution(self, data: Mapping[str, Any]) -> Solution:
        """A solution of this level from its JSON form (``Solution.to_json``, ``solve --json``)."""
        return Solution(self, self.kind.solution_from_json(self.model, data))

    @property
    def run_path(self) -> str:
        """What runs and reports call this level: its file, or ``<name>`` for text."""
        return self.path or f"<{self.name or 'string'}>"


@dataclass(frozen=True)
class Solution:
    """One solution of a level; printing it draws the solved board, grid or tiling."""

    level: Level = field(repr=False, compare=False)
    model: Any

    def render(self, **options: Any) -> str:
        """The solved puzzle as text (sigils take ``colour=True``)."""
        return self.level.kind.render(self.level.model, self.model, **options)

    def __str__(self) -> str:
        return self.render().rstrip("\n")

    def picture(self) -> str:
        """The solved board, tiling or grid as an SVG picture."""
        return self.level.kind.picture(self.level.model, self.model)

    def _repr_svg_(self) -> str:  # notebooks show the picture
        return self.picture()

    def to_json(self) -> dict:
        return self.model.to_json()

    def violations(self) -> list[str]:
        """The family validator's verdict: rules this solution breaks (empty when valid)."""
        return [v.message for v in self.level.kind.validate(self.level.model, self.model)]


def load(path_or_text: str | os.PathLike, family: str | None = None) -> Level:
    """Parse an instance file, or an instance given as text (any string with a line break).

    The family is told by the file's folder, then by its content (logic grids
    given as text need ``family="logic"``).

    Bad input raises ``LevelSyntaxError`` (a ``TrisolveError``) naming file and line.
    """
    started = time.monotonic()
    text = os.fspath(path_or_text)
    kind = _family(family) if family else None
    if "\n" not in text:  # a path: every instance format has more than one line
        # the reader refuses missing, special and oversized files (models.errors.read_instance_text)
        kind = kind or detect_family(text)
        model, path = kind.parse(text), text
    else:
        kind = kind or _sniff(text)
        model, path = _parse_text(kind, text), None
    return Level(kind.name, model, path, parse_time=time.monotonic() - started)


def family_of(path: str | os.PathLike, family: str | None = None) -> Family:
    """The family of an instance file (``family`` if given), without parsing it."""
    return _family(family) if family else detect_family(os.fspath(path))


def _family(name: str) -> Family:
    if name not in FAMILIES:
        raise UsageError(f"unknown family {shorten(name)!r}; known: {', '.join(FAMILIES)}")
    return FAMILIES[name]


def _sniff(text: str) -> Family:
    for kind in FAMILIES.values():
        if kind.sniff("<string>", text):
            return kind
    raise LevelSyntaxError(
        "<string>", None, f"cannot tell which puzzle family this text is (known: {', '.join(FAMILIES)}); give family="
    )


def _parse_text(kind: Family, text: str) -> Any:
    import importlib

    module = importlib.import_module(kind.parse.__module__)
    return module.parse_text(text, file="<string>")


def instance_files(paths: Iterable[str | os.PathLike]) -> list[str]:
    """Files named, and instance files inside named folders (sorted), for many-instance runs."""
    found: list[str] = []
    for path in map(os.fspath, paths):
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.startswith(".") or name.endswith((".json", ".jsonl", ".md")):
                        continue
                    found.append(os.path.join(root, name))
        elif os.path.lexists(path):  # a broken link or a loop is the reader's to explain
            found.append(path)
        else:
            raise UsageError(f"{path}: no such file or folder")
    if not found:
        raise UsageError("no instance files found in " + ", ".join(map(os.fspath, paths)))
    return found


def _levels(levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike], family: str | None) -> list[Level]:
    """Levels given as Level objects, files or folders (folders expand to their instance files)."""
    if isinstance(levels, (Level, str, os.PathLike)):
        levels = [levels]
    out: list[Level] = []
    for item in levels:
        if isinstance(item, Level):
            out.append(item)
        else:
            out.extend(load(path, family) for path in instance_files([item]))
    return out


# ------------------------------------------------------------------ backends


def backend_name(spec: str | None, family: str) -> str:
    """The full ``backend:variant`` a spec stands for (None: the family's ``default_backend``), checked usable."""
    from trisolve.backends import registry

    try:
        name = registry.resolve(spec or FAMILIES[family].default_backend, family)
        registry.get(name, family)  # instantiation is cheap; solvers import lazily at run time
        return name
    except (registry.UnknownBackend, registry.UnsupportedFamily, registry.BackendUnavailable, ValueError) as problem:
        raise UsageError(str(problem)) from None


def backend_names(specs: Sequence[str], family: str) -> list[str]:
    """A backends list made full (a bare name means all its variants); empty: every registered variant."""
    from trisolve.backends import registry

    try:
        return registry.expand(list(specs), family) if specs else registry.variants(family)
    except (registry.UnknownBackend, registry.UnsupportedFamily) as problem:
        raise UsageError(str(problem)) from None


def portfolio(family: str, sat_command: str | None = None) -> tuple[list[str], list[str]]:
    """What ``backend="auto"`` races: (usable backends, notes on those left out)."""
    from trisolve.backends import registry

    names, left_out = [], []
    for backend in registry.PORTFOLIO + (("dimacs",) if sat_command else ()):
        try:
            names.append(backend_name(backend, family))
        except UsageError as problem:
            left_out.append(f"auto: leaving out {backend}: {problem}")
    if sat_command:
        check_sat_command(sat_command)
    if not names:
        raise UsageError(f"backend auto: no usable backend for the {family} family")
    return names, left_out


def check_sat_command(sat_command: str | None) -> None:
    """An external SAT solver command line that can run, else a UsageError saying why."""
    from trisolve.backends.base import BackendUnavailable
    from trisolve.backends.dimacs import command_line

    try:
        command_line(sat_command)
    except BackendUnavailable as problem:
        raise UsageError(str(problem)) from None


# ------------------------------------------------------------------ solving


@dataclass(frozen=True)
class Result:
    """One run's answer: ``status`` is ``sat``, ``unsat`` or ``unknown`` (a limit came first).

    ``count`` is exact only when ``complete``; otherwise it is a lower bound
    and ``count_text`` reads ``N+``.  ``solutions`` are every solution the
    run returned, each checked by the family's validator (``invalid`` lists
    any that broke a rule: a backend bug).
    """

    level: Level = field(repr=False)
    backend: str
    status: str
    count: int
    complete: bool
    solutions: tuple[Solution, ...] = field(repr=False)
    mode: str = "first"
    stats: Mapping[str, Any] = field(default_factory=dict, repr=False)
    #: seconds per phase: parse, translate, (ground,) solve, decode, and wall for the whole run
    times: Mapping[str, float] = field(default_factory=dict, repr=False)
    cpu: float = field(default=0.0, repr=False)
    symmetry_breaking: bool = False
    stopped_by: str | None = None
    error: str | None = None
    #: solutions the solver reported more than once (ignored, and a finding for the cross-checker)
    duplicates: int = 0
    #: (index into solutions, the rules it breaks) for each invalid solution
    invalid: tuple[tuple[int, tuple[str, ...]], ...] = ()
    #: for ``backend="auto"``: the winner, the raced backends and each one's outcome
    portfolio: Mapping[str, Any] | None = field(default=None, repr=False)

    @property
    def count_text(self) -> str:
        return f"{self.count}" if self.complete else f"{self.count}+"

    @property
    def count_method(self) -> str:
        """How the count was made: plain enumeration, symmetry classes, orbits expanded (``/orbits``), or what a
        counter says of itself (``stats.count_method``: dp's dynamic programs)."""
        if "count_method" in self.stats:
            return self.stats["count_method"]
        if self.symmetry_breaking:
            return "symmetry classes (one lex-leader per class)"
        return "plain enumeration"

    def to_json(self, solutions: bool = True) -> dict:
        """The object ``trisolve solve --json`` prints (and ``--jsonl`` writes, one per line)."""
        return {
            "family": self.level.family,
            "instance": self.level.run_path,
            "backend": self.backend,
            "status": self.status,
            "count": self.count,
            "complete": self.complete,
            "solutions": [s.to_json() for s in self.solutions] if solutions else [],
            "stats": dict(self.stats),
            "time": dict(self.times),
            "cpu": round(self.cpu, 6),
            "symmetry_breaking": self.symmetry_breaking,
            **({"count_method": self.count_method} if self.mode != "first" else {}),
            **({"portfolio": dict(self.portfolio)} if self.portfolio else {}),
            **({"stopped_by": self.stopped_by} if self.stopped_by else {}),
            **({"error": self.error} if self.error else {}),
            **({"invalid": [{"solution": i, "violations": list(v)} for i, v in self.invalid]} if self.invalid else {}),
        }


def solve(
    level: Level | str | os.PathLike,
    backend: str | None = None,
    *,
    count: bool = False,
    all: bool = False,
    limit: int | None = None,
    timeout: float | None = None,
    seed: int = 0,
    shuffle: bool = False,
    symmetry_breaking: bool = False,
    isolate: bool = True,
    sat_command: str | None = None,
    memory: int | None = None,
    on_solution: Callable[[Solution], None] | None = None,
    family: str | None = None,
) -> Result:
    """Solve a level: its first solution, or every solution (``all``), or the count (``count``).

    ``backend`` is ``"pysat"``, ``"clingo:count"``, ``"auto"`` (race the
    three paradigms), ... (None: the family's measured fastest).  ``limit``
    stops an enumeration after that many solutions; ``timeout`` is seconds of
    wall clock.  With ``isolate`` (the default) the run is a forked child
    with a hard kill behind the backend's own time limit, and the solver is
    imported once in this process so that later runs start warm; without it
    the run happens in this process (no kill, exceptions propagate).
    ``on_solution`` sees each solution as it is found.  ``seed`` varies the
    search (pysat, which has no seed, renumbers its variables from it);
    ``shuffle`` also reorders every backend's input from it: the same
    solutions, other luck.  The stats record both, and ``times`` gains CPU
    seconds per phase (``solve_cpu``, ...).  ``memory`` is the ``dp``
    counter's budget in bytes (the solvers ignore it).

    ``timeout`` covers the whole run, from this call on: given a file (not a
    Level), the child parses it, so a parse that runs long is stopped too
    (the Result's ``level.model`` is then None, and ``stopped_by`` says so);
    only the first file a solver meets in this process is parsed here, before
    the solver is imported, so that a bad file is refused at once.
    After Ctrl-C the run stops at once and ``stopped_by`` is ``interrupted``.
    """
    from trisolve.backends.base import Limits, Options, cpu_phase_times
    from trisolve.backends.runner import Job

    started = time.monotonic()
    _new_request()
    if not isinstance(level, Level):
        path = os.fspath(level)
        if "\n" in path or not isolate or backend == "auto":
            level = load(path, family)
        else:  # parsed in the run's child, within the time limit (_run_isolated)
            level = Level(family_of(path, family).name, None, path)
    enumerate_ = count or all
    if limit is not None and not enumerate_:
        raise UsageError("a solution limit needs all=True or count=True")
    if limit is not None and limit < 1:
        raise UsageError("limit must be at least 1")
    if timeout is not None and timeout <= 0:
        raise UsageError("timeout must be more than 0 seconds")
    limits = Limits(time=timeout, solutions=limit)
    if memory is not None and memory <= 0:
        raise UsageError("memory must be a positive number of bytes")
    options = Options(
        enumerate=enumerate_,
        symmetry_breaking=symmetry_breaking,
        seed=seed,
        shuffle=shuffle,
        sat_command=sat_command,
        memory=memory,
    )

    def stream(data: Any) -> None:
        if on_solution is not None and data is not None:
            on_solution(level.solution(data))

    race_info = None
    if backend == "auto":
        if enumerate_:
            raise UsageError("backend auto races for the first solution; use one backend to list or count")
        if not isolate:
            raise UsageError("backend auto races child processes; it needs isolate=True")
        with cpu_phase_times():
            record, race_info = _race(level, limits, options, sat_command, started)
    else:
        name = backend_name(backend, level.family)
        if name.startswith("dimacs:"):
            check_sat_command(sat_command)
        job = Job(level.run_path, level.family, name, limits, options)
        with cpu_phase_times():
            if isolate:
                level, record = _run_isolated(job, level, on_solution, started)
            else:
                record = _run_here(job, level, stream)
    return _result(level, record, race_info)


#: (backend, family) pairs whose solver this process has imported (``registry.preload``).
_PRELOADED: set[tuple[str, str]] = set()


def _run_isolated(
    job: Any, level: Level, on_solution: Callable[[Solution], None] | None, started: float
) -> tuple[Level, RunRecord]:
    """Run in a forked child; a level not parsed yet is parsed there, under the time limit
    (but the first of a solver, which is parsed here before the solver is imported)."""
    from dataclasses import replace

    from trisolve.backends import registry
    from trisolve.backends.runner import run_job

    parsed: list[Level] = [level] if level.model is not None else []

    def take_level(model: Any, seconds: float) -> None:
        parsed.append(replace(level, model=model, parse_time=seconds))

    def stream(data: Any) -> None:  # solutions come after the level, so parsed[0] is there
        if on_solution is not None and data is not None:
            on_solution(parsed[0].solution(data))

    if not parsed and (job.backend, level.family) not in _PRELOADED:
        # The first run of a solver in this process reads its level here, before the solver's library
        # is imported (OR-Tools takes 0.5-1.5 s): a bad file is refused without paying for it.  Instance
        # files are capped in size while read (models.errors), so this parse cannot run long.
        began = time.monotonic()
        level = replace(level, model=level.kind.parse(level.path), parse_time=time.monotonic() - began)
        parsed.append(level)
    load = None if parsed else (lambda: level.kind.parse(level.path))
    registry.preload([job.backend], level.family)  # once per process: every later fork starts warm
    _PRELOADED.add((job.backend, level.family))
    record = run_job(job, level.model, on_solution=stream, started=started, load=load, on_level=take_level)
    if not parsed:  # stopped (or crashed) before the parse was done
        return level, replace(record, stopped_by=record.stopped_by and f"{record.stopped_by} (while parsing)")
    return parsed[0], record


def _run_here(job: Any, level: Level, stream: Callable[[Any], None]) -> RunRecord:
    from dataclasses import replace

    from trisolve.backends import registry
    from trisolve.backends.runner import record_from_result

    started, cpu = time.monotonic(), time.process_time()
    result = registry.get(job.backend, level.family).run(
        level.model, job.limits, job.options, on_solution=lambda s: stream(s.to_json())
    )
    record = record_from_result(job, result, time.monotonic() - started)
    return replace(record, cpu=time.process_time() - cpu)


def _race(
    level: Level, limits: Any, options: Any, sat_command: str | None, started: float | None = None
) -> tuple[RunRecord, dict]:
    from trisolve.backends.runner import Job, race

    names, left_out = portfolio(level.family, sat_command)
    jobs = [Job(level.run_path, level.family, name, limits, options) for name in names]
    winner, records = race(jobs, level.model, started=started)
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


def _result(level: Level, record: RunRecord, race_info: Mapping[str, Any] | None = None) -> Result:
    """A run record as a Result, every solution decoded and validated."""
    solutions = tuple(level.solution(data) for data in record.solutions)
    invalid = tuple((i, tuple(v)) for i, v in enumerate(s.violations() for s in solutions) if v)
    times = {
        "parse": round(level.parse_time, 6),
        **{k: round(v, 6) for k, v in record.times.items()},
        "wall": round(record.wall, 6),
    }
    return Result(
        level=level,
        backend=record.backend,
        status=record.status,
        count=record.count,
        complete=record.complete,
        solutions=solutions,
        mode=record.mode,
        stats=dict(record.stats),
        times=times,
        cpu=record.cpu,
        symmetry_breaking=record.symmetry_breaking,
        stopped_by=record.stopped_by,
        error=record.error,
        duplicates=record.duplicates,
        invalid=invalid,
        portfolio=race_info,
    )


def solve_many(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    backend: str | None = None,
    *,
    family: str | None = None,
    **options: Any,
) -> Iterable[Result]:
    """``solve`` each level (files, folders, Level objects) in turn, yielding each Result as it is done.

    Each run is a forked child of this process, which imports each solver once.
    """
    for level in _levels(levels, family):
        result = solve(level, backend, **options)
        yield result
        if result.stopped_by and result.stopped_by.startswith("interrupted"):
            return  # Ctrl-C stops the batch, not just this run


def _new_request() -> None:
    """A new call starts afresh after an earlier one was interrupted (Ctrl-C in a notebook, say)."""
    from trisolve.backends.runner import INTERRUPT

    INTERRUPT.clear()


# ------------------------------------------------------------------ cross-checking


@dataclass(frozen=True)
class Report:
    """A cross-check: one verdict per instance (``agree``, ``incomplete``, ``DISAGREE``, ``INVALID``, ``ERROR``)."""

    verdicts: tuple[Verdict, ...]
    levels: tuple[Level, ...] = field(default=(), repr=False)
    runs: int = 0
    reused: int = 0
    wall: float = 0.0

    @property
    def failed(self) -> bool:
        """Any disagreement or invalid solution."""
        return any(v.failed for v in self.verdicts)

    @property
    def findings(self) -> list[str]:
        """Each finding as a line naming its instance and the suspect runs."""
        from trisolve.crosscheck.report import findings_text

        return findings_text(self.verdicts)

    @property
    def verdict(self) -> str:
        """The one-line verdict: ``VERDICT: ...``."""
        from trisolve.crosscheck.report import verdict_line

        return verdict_line(self.verdicts)

    def table(self) -> str:
        """Instance by run: counts (``N+`` when incomplete) and times."""
        import io

        from trisolve.crosscheck.report import print_table

        out = io.StringIO()
        print_table(self.verdicts, file=out)
        return out.getvalue()

    def to_json(self) -> dict:
        from trisolve.crosscheck.report import summary_json

        return {**summary_json(self.verdicts), "wall_seconds": round(self.wall, 2)}

    def __str__(self) -> str:
        return "\n".join([self.table().rstrip("\n"), *self.findings, self.verdict])


def cross_check(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    backends: Sequence[str] | None = None,
    *,
    timeout: float | None = 20.0,
    jobs: int | None = None,
    limit: int | None = None,
    symmetry_breaking: bool = False,
    seed: int = 0,
    family: str | None = None,
    expected: bool = True,
    log: str | None = None,
    resume: bool = False,
    on_planned: Callable[[int], None] | None = None,
    on_record: Callable[[RunRecord, bool], None] | None = None,
) -> Report:
    """Run every backend variant (or those named) on each level, each run in its own process,
    ``jobs`` at a time (default: the cores), and judge whether they agree.

    ``expected`` checks counts against ``expected.json`` beside instance
    files; ``log`` appends one JSON record per run as it finishes, and
    ``resume`` skips runs already in it.  ``on_planned`` hears how many runs
    there are, ``on_record`` each record as it finishes (and whether it was reused).
    """
    _new_request()
    from trisolve.crosscheck.executors import execute
    from trisolve.crosscheck.jsonl import Log, read_log
    from trisolve.crosscheck.run import Instance, judge_all, plan_jobs

    if resume and not log:
        raise UsageError("resume needs a log file")
    chosen = _levels(levels, family)
    instances = [Instance(level.run_path, level.kind, level.model) for level in chosen]
    names: dict[str, list[str]] = {}
    for level in chosen:
        if level.family not in names:
            names[level.family] = backend_names(list(backends or ()), level.family)
            if not names[level.family]:
                raise UsageError(f"no backend handles the {level.family} family")
    planned = plan_jobs(
        instances, names.__getitem__, timeout=timeout, limit=limit, symmetry_breaking=symmetry_breaking, seed=seed
    )
    done = read_log(log) if (resume and log) else {}
    if on_planned is not None:
        on_planned(len(planned))
    journal = Log(log)
    started = time.monotonic()
    try:
        records = execute(
            planned,
            {i.path: i.level for i in instances},
            parallel=jobs or os.cpu_count() or 1,
            log=journal,
            done=done,
            on_record=on_record,
        )
    finally:
        journal.close()
    verdicts = judge_all(instances, records, use_expected=expected)
    return Report(
        tuple(verdicts),
        tuple(chosen),
        runs=len(planned),
        reused=sum(1 for job in planned if job.key in done),
        wall=time.monotonic() - started,
    )


# ------------------------------------------------------------------ benchmarking


@dataclass(frozen=True)
class Benchmark:
    """Every run of a benchmark and their scores (solved, median, PAR-2, virtual best)."""

    runs: tuple[BenchRun, ...]
    summary: Mapping[str, Any] = field(repr=False)
    settings: Any = field(repr=False)
    #: the benchmarked ``backend:variant`` names, in table order
    backends: tuple[str, ...] = ()

    def markdown(self, meta: Mapping[str, Any] | None = None) -> str:
        """The report ``trisolve bench`` prints and writes to summary.md."""
        from trisolve.bench.summary import machine, markdown

        return markdown(self.summary, self.settings, dict(meta or machine()))


def benchmark(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    backends: Sequence[str] | None = None,
    *,
    repeat: int = 3,
    timeout: float = 60.0,
    mode: str = "first",
    symmetry_breaking: bool = False,
    seed: int = 0,
    shuffle: bool = False,
    sat_command: str | None = None,
    family: str | None = None,
    on_planned: Callable[[int, Any, list[str]], None] | None = None,
    on_run: Callable[[int, BenchRun], None] | None = None,
    skipped: Callable[[str], None] | None = None,
) -> Benchmark:
    """Time backends on instance files: each (instance, backend, round) a child process forked
    from this one (so a solver this process has not imported yet is imported in every run's
    time, as for the command); ``mode`` is ``first`` (first solution) or ``count`` (exact count).

    Default backends: each paradigm's default (and ``dp`` when counting).
    Round r uses seed + r (with ``shuffle``, also to reorder each backend's input);
    backends are interleaved so machine drift hits all alike.
    ``on_planned`` hears (runs, settings, backends) before the first run, ``on_run``
    each run as it finishes, ``skipped`` each default backend left out as unusable.
    """
    _new_request()
    from trisolve.bench.runner import Settings, plan, run_all
    from trisolve.bench.summary import score

    files = _levels(levels, family)
    if any(level.path is None for level in files):
        raise UsageError("bench times parsing too: give instance files, not text")
    try:
        settings = Settings(
            timeout=timeout,
            repeat=repeat,
            mode=mode,
            symmetry_breaking=symmetry_breaking,
            seed=seed,
            shuffle=shuffle,
            sat_command=sat_command,
        )
    except ValueError as problem:
        raise UsageError(str(problem)) from None
    chosen: dict[str, list[str]] = {}
    for level in files:
        if level.family not in chosen:
            chosen[level.family] = bench_backends(level.family, list(backends or ()), sat_command, mode, skipped)
    trials = plan([(level.path, level.family) for level in files], chosen.__getitem__, repeat)
    order = list(dict.fromkeys(b for names in chosen.values() for b in names))
    if on_planned is not None:
        on_planned(len(trials), settings, order)
    runs = run_all(trials, {name: FAMILIES[name] for name in chosen}, settings, on_run=on_run)
    return Benchmark(tuple(runs), score(runs, settings, order), settings, tuple(order))


def bench_backends(
    family: str, specs: Sequence[str], sat_command: str | None, mode: str, skipped: Callable[[str], None] | None = None
) -> list[str]:
    """The backends to benchmark on a family: those asked for (all checked now), or every usable
    default (the three paradigms; ``dp`` too when counting). ``skipped`` hears of unusable defaults."""
    from trisolve.backends import registry

    if specs:
        names = backend_names(specs, family)
        for name in names:
            backend_name(name, family)
            if name.startswith("dimacs:"):
                check_sat_command(sat_command)
        return names
    names = []
    for backend in registry.BACKENDS if mode == "count" else registry.PORTFOLIO:
        try:
            names.append(backend_name(backend, family))
        except UsageError as problem:
            if skipped is not None:
                skipped(f"skipping {backend}: {problem}")
    if not names:
        raise UsageError(f"no usable backend for the {family} family")
    return names


__all__ = [
    "Benchmark",
    "Level",
    "Report",
    "Result",
    "Solution",
    "UsageError",
    "benchmark",
    "cross_check",
    "load",
    "solve",
    "solve_many",
]
