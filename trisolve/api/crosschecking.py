"""``trisolve crosscheck``: run several backends on each level and judge whether they agree."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.models.errors import TrisolveError, UsageError

from .levels import Level, levels_of
from .running import new_request

if TYPE_CHECKING:
    from trisolve.crosscheck.compare import Verdict
    from trisolve.runs import RunRecord


@dataclass(frozen=True)
class Report:
    """A cross-check: one verdict per instance (``agree``, ``incomplete``, ``DISAGREE``, ``INVALID``, ``ERROR``)."""

    verdicts: tuple[Verdict, ...]
    levels: tuple[Level, ...] = field(default=(), repr=False)
    runs: int = 0
    reused: int = 0
    wall: float = 0.0
    #: each level shrunk (``minimise_to``): its ``file``, ``steps`` and the reproducing ``command``
    minimised: tuple[Mapping[str, Any], ...] = ()
    #: Ctrl-C (or SIGTERM) cut the runs short: the verdicts judge those that finished
    interrupted: bool = False
    #: what could not be written (``minimise_to``, ``record_expected``), one line each; the verdicts stand
    problems: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        """Any disagreement, invalid solution or crashed run (exit code 1)."""
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

    def table(self, colour: bool = False) -> str:
        """Instance by run: counts (``N+`` when incomplete) and times; ``colour``: a coloured table (ANSI)."""
        import io

        from trisolve.crosscheck.report import print_table

        out = io.StringIO()
        print_table(self.verdicts, file=out, colour=colour)
        return out.getvalue()

    def to_json(self) -> dict:
        from trisolve.crosscheck.report import summary_json

        return {
            **summary_json(self.verdicts),
            "wall_seconds": round(self.wall, 2),
            "minimized": [dict(m) for m in self.minimised],
            **({"interrupted": True} if self.interrupted else {}),
            **({"problems": list(self.problems)} if self.problems else {}),
        }

    def __str__(self) -> str:
        stopped = ["interrupted: the verdicts judge the runs that finished"] if self.interrupted else []
        return "\n".join([self.table().rstrip("\n"), *self.findings, self.verdict, *stopped, *self.problems])


def cross_check(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    backends: str | Sequence[str] | None = None,
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
    minimise_to: str | None = None,
    record_expected: str | None = None,
    on_planned: Callable[[int], None] | None = None,
    on_record: Callable[[RunRecord, bool], None] | None = None,
    on_plan: Callable[[Sequence[str]], None] | None = None,
    on_shrinking: Callable[[str, int, int, float], None] | None = None,
) -> Report:
    """Run the backends named (or the default plan) on each level, each run in its own process,
    ``jobs`` at a time (default: the cores), and judge whether they agree.

    Without ``backends``: the default plan (``crosscheck/plan.py``): the few backends of different paradigms
    that finish which the family's record names (``Family.crosscheck``), each left out where ``expected.json``
    records that it takes minutes; on other families every registered variant.  ``on_plan`` hears, before the
    first run, what the default plan runs and what it may leave incomplete (lines of text).

    ``expected`` checks counts against ``expected.json`` beside instance
    files; ``log`` appends one JSON record per run as it finishes, and
    ``resume`` skips runs already in it.  ``minimise_to`` shrinks each level
    with a disagreement or an invalid solution into that folder (the report's
    ``minimised`` says where, and the command that reproduces it);
    ``record_expected`` merges the established counts into that
    ``expected.json``; a file either cannot write is a line in the report's
    ``problems`` (the verdicts stand).  ``on_planned`` hears how many runs
    there are, ``on_record`` each record as it finishes (and whether it was reused), ``on_shrinking(path,
    index, total, budget)`` each level as its shrinking starts.

    A file inside a named folder that cannot be read is that instance's ERROR verdict (the others
    are still checked); a file named by itself that cannot be read raises ``LevelSyntaxError``, and
    so does a bad ``expected.json``, before anything runs.  Ctrl-C stops every run at once and the
    report, of the runs that finished, says ``interrupted``.
    """
    new_request()
    from trisolve.crosscheck.compare import expected_for
    from trisolve.crosscheck.plan import backends_to_run
    from trisolve.crosscheck.run import Instance, Plan, Runs, unreadable_verdict
    from trisolve.crosscheck.run import cross_check as check
    from trisolve.selection.names import backend_list

    timeout = numbers.TIMEOUT.check_optional(timeout, "timeout")
    jobs = numbers.JOBS.check_optional(jobs, "jobs")
    limit = numbers.SOLUTION_LIMIT.check_optional(limit, "limit")
    seed = numbers.SEED.check(seed, "seed")
    levels, family = arguments.levels(levels, Level), arguments.text(family, "family")
    symmetry_breaking, expected = (
        arguments.flag(symmetry_breaking, "symmetry_breaking"),
        arguments.flag(expected, "expected"),
    )
    resume, log = arguments.flag(resume, "resume"), arguments.path(log, "log")
    minimise_to, record_expected = (
        arguments.path(minimise_to, "minimise_to"),
        arguments.path(record_expected, "record_expected"),
    )
    for name, function in (("on_planned", on_planned), ("on_record", on_record), ("on_plan", on_plan)):
        arguments.callback(function, name)
    on_shrinking = arguments.callback(on_shrinking, "on_shrinking")
    if resume and not log:
        raise UsageError("resume needs a log file")
    backends = backend_list(arguments.backends(backends))
    unreadable: list[tuple[str, TrisolveError]] = []
    chosen = levels_of(levels, family, unreadable)
    if expected:  # a bad expected.json is bad input, found before anything runs
        for level in chosen:
            if level.path is not None:
                expected_for(level.path)
    names, select = backends_to_run(
        [(level.run_path, level.family, level.model) for level in chosen], backends, on_plan, timeout
    )
    instances = [Instance(level.run_path, level.kind, level.model) for level in chosen]
    with Runs(log, resume=resume, parallel=jobs or os.cpu_count() or 1, on_record=on_record) as runs:
        plan = Plan(timeout, limit, symmetry_breaking, seed)
        checked = check(
            instances,
            names.__getitem__,
            runs,
            plan,
            expected=expected,
            minimise_to=minimise_to,
            record_expected_in=record_expected,
            on_planned=on_planned,
            select=select,
            on_shrinking=on_shrinking,
        )
    return Report(
        checked.verdicts + tuple(unreadable_verdict(path, family, problem) for path, problem in unreadable),
        tuple(chosen),
        runs=checked.runs,
        reused=checked.reused,
        wall=checked.wall,
        minimised=checked.minimised,
        interrupted=checked.interrupted,
        problems=checked.problems,
    )
