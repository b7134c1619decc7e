"""A cross-check from start to end: plan, execute, judge, then shrink and record what was found.

``cross_check`` is the one place this sequence is written: the library
(``trisolve.cross_check``), campaigns (``generate/campaign.py``) and
mutation testing (``crosscheck/mutate.py``, for its unmutated references)
all call it.  Runs execute through ``Runs`` (``runs/executors.py``: here or on
Dask); each finished record goes to a JSONL journal at once (``jsonl.Log``),
so a cross-check that is killed keeps every finished result and a resumed
one skips them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trisolve.backends.base import Limits, Options
from trisolve.models.errors import TrisolveError
from trisolve.models.family import Family
from trisolve.runs import Job, RunRecord, interrupted
from trisolve.runs.executors import execute

from .compare import Finding, Verdict, expected_for, judge, record_expected
from .jsonl import Log, read_log


@dataclass(frozen=True)
class Instance:
    path: str
    family: Family
    level: Any


@dataclass(frozen=True)
class Plan:
    """How every run of a cross-check runs: each enumerates within ``timeout`` seconds (and ``limit``
    solutions) from ``seed``; with ``symmetry_breaking`` each backend that can also runs with lex-leader
    constraints."""

    timeout: float | None = None
    limit: int | None = None
    symmetry_breaking: bool = False
    seed: int = 0


def plan_jobs(
    instances: Sequence[Instance],
    backends_for: Callable[[str], Sequence[str]],
    plan: Plan,
    select: Callable[[str, str, str], bool] | None = None,
) -> list[Job]:
    """All jobs of a cross-check, interleaving backends so machine drift hits all alike.

    ``select(path, family, backend)`` (optional) says whether a backend runs on an instance: the
    default plan's (``crosscheck/plan.py``) leaves the listing backends out where listing takes minutes.

    With symmetry breaking, each backend runs twice per instance: plain (the
    reference whose orbits are counted) and with lex-leader constraints
    (the latter only where the backend can break symmetries).
    """
    from trisolve.backends.registry import breaks_symmetries

    jobs = []
    limits = Limits(time=plan.timeout, solutions=plan.limit)
    modes = [False, True] if plan.symmetry_breaking else [False]
    for instance in instances:
        for sb in modes:
            for backend in backends_for(instance.family.name):
                if sb and not breaks_symmetries(backend, instance.family.name):
                    continue  # e.g. dp on sigils: its plain count still takes part
                if select is not None and not select(instance.path, instance.family.name, backend):
                    continue
                options = Options(enumerate=True, symmetry_breaking=sb, seed=plan.seed)
                jobs.append(Job(instance.path, instance.family.name, backend, limits, options))
    return jobs


def judge_all(instances: Sequence[Instance], records: Iterable[RunRecord], use_expected: bool = True) -> list[Verdict]:
    by_path: dict[str, list[RunRecord]] = {}
    for record in records:
        by_path.setdefault(record.path, []).append(record)
    verdicts = []
    for instance in instances:
        expected = expected_for(instance.path) if use_expected else None
        verdicts.append(judge(instance.family, instance.level, instance.path, by_path.get(instance.path, []), expected))
    return verdicts


def unreadable_verdict(path: str, family: str | None, problem: Exception) -> Verdict:
    """The ERROR verdict of a file found in a folder that could not be read as an instance."""
    return Verdict(path, family or "?", "ERROR", None, "?", findings=(Finding("error", f"unreadable: {problem}"),))


class Runs:
    """Where the runs of one or more cross-checks go: an executor, a journal, and earlier records to reuse.

    ``executor`` is ``local`` (``parallel`` runs at a time) or ``dask``
    (``parallel`` workers of a local cluster, or the one at ``scheduler``).
    Every finished run is appended to the JSONL journal ``log`` (when given)
    and reported to ``on_record(record, reused)``; with ``resume`` the records
    already in ``log`` are reused, not rerun.  ``runs`` and ``reused`` count
    the jobs asked for so far.  Close it (or use it as a context manager).
    """

    def __init__(
        self,
        log: str | None = None,
        *,
        resume: bool = False,
        executor: str = "local",
        parallel: int = 1,
        scheduler: str | None = None,
        on_record: Callable[[RunRecord, bool], None] | None = None,
    ) -> None:
        self.log = Log(log)  # opened first: it locks the journal, so a second writer is refused before it reads
        try:
            self.done = read_log(log) if (log and resume) else {}
        except BaseException:
            self.log.close()
            raise
        self.executor, self.parallel, self.scheduler = executor, parallel, scheduler
        self.on_record = on_record
        self.runs = self.reused = 0

    def __call__(self, jobs: Sequence[Job], levels: Mapping[str, Any]) -> list[RunRecord]:
        """Run (or reuse) the jobs; their records, in job order."""
        if not jobs:
            return []
        self.runs += len(jobs)
        self.reused += sum(1 for job in jobs if job.key in self.done)
        return execute(
            jobs,
            levels,
            executor=self.executor,
            parallel=self.parallel,
            scheduler=self.scheduler,
            log=self.log,
            done=self.done,
            on_record=self.on_record,
        )

    def close(self) -> None:
        self.log.close()

    def __enter__(self) -> Runs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class CrossCheck:
    """What a cross-check found: one verdict per instance, and what was done about the failures."""

    verdicts: tuple[Verdict, ...]
    runs: int
    reused: int
    wall: float
    #: the shrunk instances (``crosscheck.minimize.write_minimised``), one dict per failed instance
    minimised: tuple[Mapping[str, Any], ...] = ()
    #: Ctrl-C (or SIGTERM) cut it short: the verdicts judge the runs that finished
    interrupted: bool = False
    #: what could not be written (the minimise folder, the expected.json), one line each: the verdicts stand
    problems: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        """Any disagreement, invalid solution or crashed run: the rule for exit code 1 (docs/exit-codes.md)."""
        return any(v.failed for v in self.verdicts)


def cross_check(
    instances: Sequence[Instance],
    backends_for: Callable[[str], Sequence[str]],
    runs: Runs,
    plan: Plan,
    *,
    expected: bool = True,
    minimise_to: str | None = None,
    minimise_budget: float = 300.0,
    record_expected_in: str | None = None,
    on_planned: Callable[[int], None] | None = None,
    select: Callable[[str, str, str], bool] | None = None,
    on_shrinking: Callable[[str, int, int, float], None] | None = None,
) -> CrossCheck:
    """Run every backend ``backends_for(family)`` names on every instance through ``runs`` as ``plan`` says,
    and judge.

    ``expected`` checks counts against ``expected.json`` beside the
    instance files.  Then, unless Ctrl-C cut it short: each instance with a
    disagreement or an invalid solution is shrunk into the folder
    ``minimise_to`` (with the command that reproduces it), and the
    established counts are merged into the file ``record_expected_in``.  A
    file either cannot write is one line in ``problems`` (the verdicts stand).
    ``on_planned`` hears how many runs there are before the first starts; ``select`` is ``plan_jobs``';
    ``on_shrinking(path, index, total, budget)`` of each instance as its shrinking starts.
    """
    started = time.monotonic()
    before = (runs.runs, runs.reused)
    jobs = plan_jobs(instances, backends_for, plan, select)
    if on_planned is not None:
        on_planned(len(jobs))
    records = runs(jobs, {i.path: i.level for i in instances})
    verdicts = judge_all(instances, records, use_expected=expected)
    stopped = interrupted()
    minimised: list[Mapping[str, Any]] = []
    problems: list[str] = []
    if minimise_to is not None and not stopped:
        from .minimize import write_minimised

        minimised = write_minimised(
            verdicts,
            instances,
            minimise_to,
            plan,
            budget=minimise_budget,
            problems=problems,
            on_shrinking=on_shrinking,
            parallel=runs.parallel,
        )
    if record_expected_in is not None and not stopped:
        try:
            record_expected(record_expected_in, verdicts)
        except TrisolveError as problem:  # a file that cannot be read or written: said after the verdicts
            problems.append(str(problem))
    return CrossCheck(
        tuple(verdicts),
        runs=runs.runs - before[0],
        reused=runs.reused - before[1],
        wall=time.monotonic() - started,
        minimised=tuple(minimised),
        interrupted=stopped,
        problems=tuple(problems),
    )
