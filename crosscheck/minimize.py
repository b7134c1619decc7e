"""Shrink an instance on which backends disagree, keeping the disagreement.

Greedy delta debugging over the family's own shrink moves (``Family.shrink``:
for Hexiom, drop the outer ring, remove a tile, unlock a tile, unblock a
cell): take the first smaller candidate on which the chosen backends still
disagree, and repeat until no candidate does or the budget is spent.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trisolve.backends.base import Limits, Options
from trisolve.backends.runner import Job, run_job
from trisolve.models.family import Family

from .compare import SEVERE, Verdict, judge


@dataclass(frozen=True)
class Minimised:
    level: Any
    text: str
    steps: int
    verdict: Verdict


def _check(
    family: Family, level: Any, backends: Sequence[str], timeout: float, limit: int | None, symmetry_breaking: bool
) -> Verdict:
    """Cross-check ``level`` (given as a model, written to a temporary file) on the backends."""
    text = family.format_level(level)
    with tempfile.NamedTemporaryFile("w", suffix=family.suffix, delete=False, encoding="utf-8") as handle:
        handle.write(text)
        path = handle.name
    try:
        modes = [False, True] if symmetry_breaking else [False]
        records = [
            run_job(
                Job(
                    path,
                    family.name,
                    backend,
                    Limits(time=timeout, solutions=limit),
                    Options(enumerate=True, symmetry_breaking=sb),
                ),
                level,
            )
            for sb in modes
            for backend in backends
        ]
        return judge(family, level, path, records)
    finally:
        os.unlink(path)


def _kinds(verdict: Verdict) -> set[str]:
    """The kinds of failure a verdict shows; a shrink must keep one of the original's."""
    return {f.kind for f in verdict.findings if f.kind in SEVERE}


def minimise(
    family: Family,
    level: Any,
    backends: Sequence[str],
    *,
    timeout: float = 10.0,
    limit: int | None = None,
    symmetry_breaking: bool = False,
    budget_seconds: float = 300.0,
) -> Minimised | None:
    """The smallest level found on which ``backends`` still disagree (None if they agree)."""
    if family.shrink is None or family.format_level is None:
        return None
    verdict = _check(family, level, backends, timeout, limit, symmetry_breaking)
    if not verdict.failed:
        return None
    chased = _kinds(verdict)
    started = time.monotonic()
    steps = 0
    improved = True
    while improved and time.monotonic() - started < budget_seconds:
        improved = False
        for candidate in family.shrink(level):
            if time.monotonic() - started >= budget_seconds:
                break
            candidate_verdict = _check(family, candidate, backends, timeout, limit, symmetry_breaking)
            if _kinds(candidate_verdict) & chased:
                level, verdict = candidate, candidate_verdict
                steps += 1
                improved = True
                break
    return Minimised(level, family.format_level(level), steps, verdict)
