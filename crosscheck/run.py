"""Plan a cross-check (every instance x backend variant, each run in its own process) and judge it.

The runs execute in ``executors.py`` (here or on Dask); records go to a
JSONL journal as each run finishes (``jsonl.Log``), so a cross-check that is
killed keeps every finished result and a resumed one skips them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from trisolve.backends.base import Limits, Options
from trisolve.backends.runner import Job, RunRecord
from trisolve.models.family import Family

from .compare import Finding, Verdict, expected_for, judge
from .executors import execute, reuse_finished  # noqa: F401  (their former home: executors.py now)
from .jsonl import Log, read_log  # noqa: F401  (their former home: jsonl.py now)


@dataclass(frozen=True)
class Instance:
    path: str
    family: Family
    level: Any


def plan_jobs(
    instances: Sequence[Instance],
    backends_for: Callable[[str], list[str]],
    *,
    timeout: float | None,
    limit: int | None,
    symmetry_breaking: bool = False,
    seed: int = 0,
) -> list[Job]:
    """All jobs of a campaign, interleaving backends so machine drift hits all alike.

    With symmetry breaking, each backend runs twice per instance: plain (the
    reference whose orbits are counted) and with lex-leader constraints
    (the latter only where the backend can break symmetries).
    """
    from trisolve.backends.registry import breaks_symmetries

    jobs = []
    limits = Limits(time=timeout, solutions=limit)
    modes = [False, True] if symmetry_breaking else [False]
    for instance in instances:
        for sb in modes:
            for backend in backends_for(instance.family.name):
                if sb and not breaks_symmetries(backend, instance.family.name):
                    continue  # e.g. dp on sigils: its plain count still takes part
                options = Options(enumerate=True, symmetry_breaking=sb, seed=seed)
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
