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
from trisolve.models.family import Family
from trisolve.runs import Job, run

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
            run(
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


def write_minimised(
    verdicts: Sequence[Verdict],
    instances: Sequence[Any],
    folder: str,
    plan: Any,
    *,
    budget: float = 300.0,
    problems: list[str] | None = None,
) -> list[dict]:
    """Shrink each instance with a disagreement or an invalid solution (a crash is reported, not chased) and
    write it to ``folder`` as ``<stem>-min<suffix>`` (the instance itself when it does not shrink), beside
    ``<stem>-min.repro.md`` with its findings and the command that reproduces them.

    ``instances`` are ``run.Instance`` (path, family, level), ``plan`` the cross-check's ``run.Plan`` (the
    shrunk instance is checked as the original was); one dict per instance written: ``instance``, ``status``,
    ``file``, ``steps`` and ``command``.  A folder or file that cannot be written (``models.files``) is a
    ``FileProblem``; with ``problems``, its line goes there instead and the other instances are still shrunk.
    """
    timeout, limit, symmetry_breaking = plan.timeout, plan.limit, plan.symmetry_breaking
    import shlex

    from trisolve.backends import registry
    from trisolve.models import files

    out = []
    by_path = {i.path: i for i in instances}
    for verdict in verdicts:
        if verdict.status not in ("DISAGREE", "INVALID"):
            continue
        instance = by_path[verdict.path]
        family = instance.family
        involved: list[str] = []
        for finding in verdict.findings:
            involved.extend(b for b in finding.backends if b not in involved)
        if len(involved) < 2:  # an invalid solution needs only its own backend: add another for reference
            involved.extend([r.backend for r in verdict.records if r.backend not in involved][:1])
        result = minimise(
            family,
            instance.level,
            involved,
            timeout=10.0 if timeout is None else timeout,
            limit=limit,
            symmetry_breaking=symmetry_breaking,
            budget_seconds=budget,
        )
        if result is None and family.format_level is None:
            continue  # neither shrunk nor writable: the verdict says it all
        stem = os.path.splitext(os.path.basename(verdict.path))[0]
        target = os.path.join(folder, f"{stem}-min{family.suffix}")
        parts = ["trisolve", "crosscheck", target, "--backends", ",".join(involved), "--no-expected"]
        parts += ["--family", family.name] + (["--timeout", f"{timeout:g}"] if timeout is not None else [])
        parts += (["--limit", str(limit)] if limit is not None else []) + (
            ["--symmetry-breaking"] if symmetry_breaking else []
        )
        for plugin in registry.plugin_files():  # as the user named it, when it is below this folder
            relative = os.path.relpath(plugin)
            parts.extend(["--plugin", plugin if relative.startswith("..") else relative])
        command = " ".join(shlex.quote(p) for p in parts)
        repro = [f"# {stem}: {verdict.status}\n\n"]
        repro += [f"- {finding.kind}: {finding.message}\n" for finding in verdict.findings]
        repro.append(f"\nReproduce with:\n\n    {command}\n")
        text = result.text if result is not None else family.format_level(instance.level)
        try:  # the instance and its note: both or neither
            files.make_folder(folder, "minimise folder")
            files.write_files(
                [
                    files.Change.text(target, text, "minimised instance"),
                    files.Change.text(os.path.splitext(target)[0] + ".repro.md", "".join(repro), "repro note"),
                ]
            )
        except files.FileProblem as problem:
            if problems is None:
                raise
            problems.append(f"{problem} (minimised {verdict.path}; not written)")
            continue
        out.append(
            {
                "instance": verdict.path,
                "status": verdict.status,
                "file": target,
                "steps": result.steps if result is not None else 0,
                "command": command,
            }
        )
    return out
