"""``trisolve solve``: a level's first solution, every solution, or the count; one backend, or a race (``auto``)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.models.errors import UsageError, shorten

from . import running
from .levels import Level, Solution, family_of, levels_of, load

if TYPE_CHECKING:
    from trisolve.runs import RunRecord


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
    def interrupted(self) -> bool:
        """Ctrl-C (or SIGTERM) stopped the run: what it found is here, marked incomplete."""
        return (self.stopped_by or "").startswith("interrupted")

    @property
    def count_method(self) -> str:
        """How the count was made: plain enumeration, symmetry classes, orbits expanded (``/orbits``), or what a
        counter says of itself (``stats.count_method``: dp's dynamic programs)."""
        if "count_method" in self.stats:
            return self.stats["count_method"]
        from trisolve.selection.names import counts_without_listing

        if counts_without_listing(self.backend, self.level.family):  # stopped before it said which method
            return f"{self.backend}'s own count (stopped before it reported its method)"
        if self.symmetry_breaking:
            return "symmetry classes (one lex-leader per class)"
        return "plain enumeration"

    def answers(self, settle: bool = True, timeout: float | None = None) -> tuple[Any, ...]:
        """The answers to the level's questions (logic grids), each ``determined`` or not (``trisolve.answers``)."""
        from trisolve.answers import answers

        return answers(self, solve=solve if settle else None, timeout=timeout)

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
    started: float | None = None,
    on_progress: Callable[[int, int | None, str], None] | None = None,
    on_found: Callable[[int], None] | None = None,
) -> Result:
    """Solve a level: its first solution, or every solution (``all``), or the count (``count``).

    ``backend`` is ``"pysat"``, ``"clingo:count"``, ``"auto"`` (race the
    portfolio table's top three for a first solution, top two for a count),
    ... (None: the selection policy's default for the task, ``trisolve.selection``, or the next row
    where it refuses the level, ``registry.refusal``; the Result's ``stats["refused"]`` says so).  ``limit``
    stops an enumeration after that many solutions; ``timeout`` is seconds of
    wall clock.  With ``isolate`` (the default) the run is a forked child
    with a hard kill behind the backend's own time limit, and the solver is
    imported once in this process (from the second run on) so that later runs start warm; without it
    the run happens in this process (no kill, exceptions propagate).
    ``on_solution`` sees each solution as it is found (a count ships and validates its solutions only
    for it: without it a count's Result holds the first solution alone); ``on_found(n)`` hears how many
    were found so far, solution by solution, without them; ``on_progress(done,
    total, text)`` how far a long count is (``dp``'s steps), in an isolated
    run (without it the reports are dropped).  ``seed`` varies the
    search (pysat, which has no seed, renumbers its variables from it);
    ``shuffle`` also reorders every backend's input from it: the same
    solutions, other luck.  The stats record both, and ``times`` gains CPU
    seconds per phase (``solve_cpu``, ...).  ``memory`` is the ``dp``
    counter's budget in bytes, ``exactcover``'s for the problem it builds, and the cap on Ganak's counting
    process; with a backend that keeps no budget it is a ``UsageError``.

    ``timeout`` covers the whole run, from this call on: given a file (not a
    Level), the child parses it, so a parse that runs long is stopped too
    (the Result's ``level.model`` is then None, and ``stopped_by`` says so).
    After Ctrl-C the run stops at once and ``stopped_by`` is ``interrupted`` (``Result.interrupted``).
    ``started`` (a ``time.monotonic()`` value) moves the start of ``timeout`` earlier: the
    command passes its own start, so that its whole run keeps the limit.
    """
    if started is None:
        started = time.monotonic()
    from trisolve.backends.base import Limits, Options, cpu_phase_times
    from trisolve.runs import Job
    from trisolve.selection.names import backend_name, check_sat_command, resolved, task_for

    running.new_request()
    timeout = numbers.TIMEOUT.check_optional(timeout, "timeout")
    limit = numbers.SOLUTION_LIMIT.check_optional(limit, "limit")
    seed = numbers.SEED.check(seed, "seed")
    memory = numbers.MEMORY.check_optional(memory, "memory")
    level, backend = arguments.level(level, Level), arguments.text(backend, "backend")
    count, all, shuffle = arguments.flag(count, "count"), arguments.flag(all, "all"), arguments.flag(shuffle, "shuffle")
    symmetry_breaking, isolate = (
        arguments.flag(symmetry_breaking, "symmetry_breaking"),
        arguments.flag(isolate, "isolate"),
    )
    sat_command, family = arguments.text(sat_command, "sat_command"), arguments.text(family, "family")
    on_solution, on_found = arguments.callback(on_solution, "on_solution"), arguments.callback(on_found, "on_found")
    on_progress = arguments.callback(on_progress, "on_progress")
    if not isinstance(level, Level):
        path = os.fspath(level)
        text = not isinstance(level, os.PathLike) and "\n" in path  # as ``load`` tells them apart
        if text or not isolate or backend == "auto":
            level = load(level, family)
        else:  # parsed in the run's child, within the time limit (``running.run_one``)
            level = Level(family_of(path, family).name, None, path)
    enumerate_ = count or all
    if limit is not None and not enumerate_:
        raise UsageError("a solution limit needs all=True or count=True")
    limits = Limits(time=timeout, solutions=limit)
    options = Options(
        enumerate=enumerate_,
        symmetry_breaking=symmetry_breaking,
        seed=seed,
        shuffle=shuffle,
        sat_command=sat_command,
        memory=memory,
    )

    race_info = None
    task = task_for(count, all, limit)
    if backend == "auto":
        if all:
            raise UsageError("backend auto races for a first solution or a count; use one backend to list")
        if not isolate:
            raise UsageError("backend auto races child processes; it needs isolate=True")
        if memory is not None:
            raise UsageError("memory: backend auto races backends that keep no memory budget; name one backend")
        with cpu_phase_times():
            record, race_info = running.race(level, limits, options, sat_command, started, task)
    else:
        # a file not parsed yet is read in the child before the backend is made (and its solver imported):
        # here the name is only resolved, and the child refuses an unusable backend after reading the file
        resolve = resolved if level.model is None else backend_name
        defaults = () if backend else running.defaults_for(level, task, symmetry_breaking)
        name = resolve(backend or defaults[0], level.family, task, symmetry_breaking)
        arguments.memory_for(name, memory)
        if name.startswith("dimacs:"):
            check_sat_command(sat_command)
        # a count ships its solutions only to a caller who asked to see them (on_solution); a level the default
        # refuses goes to the next default (runs.child.route)
        job = Job(
            level.run_path,
            level.family,
            name,
            limits,
            options,
            keep_solutions=not count or bool(on_solution),
            instead=tuple(defaults[1:]),
        )
        with cpu_phase_times():
            level, record = running.run_one(job, level, isolate, started, on_solution, on_progress, on_found)
    return _result(level, record, race_info)


def _result(level: Level, record: RunRecord, race_info: Mapping[str, Any] | None = None) -> Result:
    """A run record as a Result, every solution decoded and validated (a backend that returned something that
    is not a solution of the level's family failed: its Result has the ``error`` and no solutions)."""
    from dataclasses import replace

    try:
        solutions = tuple(level.solution(data) for data in record.solutions)
        invalid = tuple((i, tuple(v)) for i, v in enumerate(s.violations() for s in solutions) if v)
    except Exception as problem:  # noqa: BLE001 - a backend's output, never trusted
        error = f"returned something that is not a {level.family} solution ({type(problem).__name__}: {problem})"
        record = replace(record, solutions=(), count=0, complete=False, status="unknown", error=shorten(error, 300))
        solutions, invalid = (), ()
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
    for level in levels_of(arguments.levels(levels, Level), arguments.text(family, "family")):
        result = solve(level, backend, **options)
        yield result
        if result.interrupted:
            return  # Ctrl-C stops the batch, not just this run: the last Result says so
