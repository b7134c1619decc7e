"""Shrink an instance on which backends disagree, keeping the disagreement.

Greedy delta debugging over the family's own shrink moves (``Family.shrink``:
for Hexiom, drop the outer ring, remove a tile, unlock a tile, unblock a
cell): take the first smaller candidate on which the chosen backends still
disagree, and repeat until no candidate does or the budget is spent.

The chosen backends are the *witnesses* (``witnesses``): the suspects a finding names, and a
reference that disagrees with them.  Suspects alone may agree with each other (two variants of one
plugin sharing a bug, both off the count in ``expected.json``): shrunk and rerun on their own they
show nothing.  So a reference always joins them: a run of the cross-check that holds the agreed
count, or else a shipped backend that recounts the original to the expected count.  When no backend
disagrees with the suspects at all (every run is off the recorded count), the instance is written
unshrunk with that count in an ``expected.json`` beside it, and the command checks against it.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from trisolve.backends.base import Limits, Options
from trisolve.models.errors import TrisolveError
from trisolve.models.family import Family
from trisolve.runs import Job, RunRecord, run

from .compare import SEVERE, Verdict, judge

#: shipped backends tried, at most, as a reference when no run of the cross-check can be one
MAX_REFERENCE_TRIES = 4


@dataclass(frozen=True)
class Minimised:
    level: Any
    text: str
    steps: int
    verdict: Verdict


@dataclass(frozen=True)
class Witnesses:
    """The backends a shrunk instance is checked on: ``suspects`` (named by the findings) and ``references``
    (each disagreed with them on the original).  ``expected``: the recorded count to check against instead,
    when no backend disagrees with the suspects."""

    suspects: tuple[str, ...]
    references: tuple[str, ...] = ()
    expected: int | None = None

    @property
    def backends(self) -> list[str]:
        return list(dict.fromkeys(self.suspects + self.references))


@contextmanager
def _written(family: Family, level: Any) -> Iterator[str]:
    """``level`` (a model) in a temporary file of its family's format, removed afterwards."""
    with tempfile.NamedTemporaryFile("w", suffix=family.suffix, delete=False, encoding="utf-8") as handle:
        handle.write(family.format_level(level))
        path = handle.name
    try:
        yield path
    finally:
        os.unlink(path)


def _job(path: str, family: Family, backend: str, timeout: float, limit: int | None, sb: bool = False) -> Job:
    return Job(
        path, family.name, backend, Limits(time=timeout, solutions=limit), Options(enumerate=True, symmetry_breaking=sb)
    )


def _check(
    family: Family, level: Any, backends: Sequence[str], timeout: float, limit: int | None, symmetry_breaking: bool
) -> Verdict:
    """Cross-check ``level`` on the backends."""
    with _written(family, level) as path:
        modes = [False, True] if symmetry_breaking else [False]
        records = [run(_job(path, family, backend, timeout, limit, sb), level) for sb in modes for backend in backends]
        return judge(family, level, path, records)


def witnesses(verdict: Verdict, family: Family, level: Any, timeout: float, limit: int | None) -> Witnesses:
    """Who must take part in the shrunk instance's checks so that it shows the finding again.

    The suspects are the backends the findings name.  A reference is a run of this cross-check that is not
    a suspect and completed with the agreed count (the expected one, when recorded); without one, a shipped
    backend (the family's measured counter first) that recounts the original to that count.  When none does
    and the count was recorded, the finding is checked against that record instead (``expected``).
    """
    suspects = tuple(dict.fromkeys(b for f in verdict.findings if f.kind in SEVERE for b in f.backends))
    plain = [r for r in verdict.records if not r.symmetry_breaking]
    truth = verdict.count

    def holds_truth(backend: str, count: int, complete: bool, error: str | None) -> bool:
        return backend not in suspects and complete and not error and (truth is None or count == truth)

    found = [r.backend for r in plain if holds_truth(r.backend, r.count, r.complete, r.error)]
    shipped = [b for b in found if _is_shipped(b)]
    if found:
        return Witnesses(suspects, ((shipped or found)[0],))
    suspect_counts = {r.count for r in plain if r.backend in suspects and r.complete and not r.error}
    if truth is None or not suspect_counts or suspect_counts == {truth}:
        return Witnesses(suspects)  # the suspects disagree among themselves (a tie), or an invalid solution
    tried = {r.backend for r in plain}
    for backend in _shipped_counters(family)[:MAX_REFERENCE_TRIES]:
        if backend in tried:
            continue
        record = _run(family, level, backend, timeout, limit)
        if holds_truth(backend, record.count, record.complete, record.error):
            return Witnesses(suspects, (backend,))
    return Witnesses(suspects, expected=truth)


def _is_shipped(backend: str) -> bool:
    from trisolve.backends import registry
    from trisolve.backends.spec import Spec

    return Spec.parse(backend).backend in registry.shipped()


def _shipped_counters(family: Family) -> list[str]:
    """Shipped backends that could recount an instance of ``family``: what the selection policy counts with
    (the measured ranking, best first), then what it cross-checks a campaign with."""
    from trisolve.selection import choose

    try:
        names = [*choose(family.name, "solve", "count").backends, *choose(family.name, "campaign").backends]
    except TrisolveError:  # a family the policy does not know: no reference to try
        return []
    return [name for name in dict.fromkeys(names) if _is_shipped(name)]


def _run(family: Family, level: Any, backend: str, timeout: float, limit: int | None) -> RunRecord:
    """One plain run of ``backend`` on ``level``."""
    with _written(family, level) as path:
        return run(_job(path, family, backend, timeout, limit), level)


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
    parallel: int = 1,
) -> Minimised | None:
    """The smallest level found on which ``backends`` still disagree (None if they agree).

    ``parallel`` candidates are checked at a time (the first in order that keeps the finding wins), and
    after each step the scan goes on from the candidate taken: those before it failed a moment ago and
    mostly still do (they are tried again when the scan wraps around, before giving up).
    """
    from concurrent.futures import ThreadPoolExecutor

    from trisolve.backends import registry
    from trisolve.runs import interrupted

    if family.shrink is None or family.format_level is None:
        return None
    registry.preload(backends, family.name)  # every forked run starts warm

    def check(candidate: Any) -> Verdict:
        return _check(family, candidate, backends, timeout, limit, symmetry_breaking)

    verdict = check(level)
    if not verdict.failed:
        return None
    chased = _kinds(verdict)
    started = time.monotonic()
    steps = start = 0
    parallel = max(1, parallel)
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        while time.monotonic() - started < budget_seconds and not interrupted():
            candidates = list(family.shrink(level))
            order = [(start + k) % len(candidates) for k in range(len(candidates))]
            taken = None
            for first in range(0, len(order), parallel):
                if time.monotonic() - started >= budget_seconds or interrupted():
                    break
                window = order[first : first + parallel]
                for index, found in zip(window, pool.map(check, [candidates[i] for i in window])):
                    if _kinds(found) & chased:
                        taken = index, found
                        break
                if taken is not None:
                    break
            if taken is None:
                break
            start, verdict = taken
            level = candidates[start]
            steps += 1
    return Minimised(level, family.format_level(level), steps, verdict)


def write_minimised(
    verdicts: Sequence[Verdict],
    instances: Sequence[Any],
    folder: str,
    plan: Any,
    *,
    budget: float = 300.0,
    problems: list[str] | None = None,
    on_shrinking: Callable[[str, int, int, float], None] | None = None,
    parallel: int = 1,
) -> list[dict]:
    """Shrink each instance with a disagreement or an invalid solution (a crash is reported, not chased) and
    write it to ``folder`` as ``<stem>-min<suffix>`` (the instance itself when it does not shrink), beside
    ``<stem>-min.repro.md`` with its findings and the command that reproduces them.

    ``instances`` are ``run.Instance`` (path, family, level), ``plan`` the cross-check's ``run.Plan`` (the
    shrunk instance is checked as the original was); one dict per instance written: ``instance``, ``status``,
    ``file``, ``steps``, ``command`` and ``reproduced`` (False when the witnesses, rerun on their own, no longer
    showed the finding: then the command is what was tried, not a reproduction).  A folder or file that cannot
    be written (``models.files``) is a ``FileProblem``; with ``problems``, its line goes there instead and the
    other instances are still shrunk.  ``parallel``: candidates checked at a time (``minimise``).
    ``on_shrinking(path, index, total, budget)`` hears of each instance before it is shrunk (it may take up to
    ``budget`` seconds, and a progress line must not sit at "0:00 left" meanwhile).
    """
    from trisolve.models import files

    timeout = 10.0 if plan.timeout is None else plan.timeout
    out = []
    by_path = {i.path: i for i in instances}
    failing = [verdict for verdict in verdicts if verdict.status in ("DISAGREE", "INVALID")]
    for index, verdict in enumerate(failing):
        if on_shrinking is not None:
            on_shrinking(verdict.path, index, len(failing), budget)
        instance = by_path[verdict.path]
        family = instance.family
        if family.format_level is None:
            continue  # cannot be written: the verdict says it all
        chosen = witnesses(verdict, family, instance.level, timeout, plan.limit)
        involved = chosen.backends
        if len(involved) < 2 and chosen.expected is None:  # an invalid solution needs only its own backend
            involved.extend([r.backend for r in verdict.records if r.backend not in involved][:1])
        result = None
        if chosen.expected is None:
            result = minimise(
                family,
                instance.level,
                involved,
                timeout=timeout,
                limit=plan.limit,
                symmetry_breaking=plan.symmetry_breaking,
                budget_seconds=budget,
                parallel=parallel,
            )
        stem = os.path.splitext(os.path.basename(verdict.path))[0]
        target = os.path.join(folder, f"{stem}-min{family.suffix}")
        command = repro_command(target, involved, family.name, plan, against_expected=chosen.expected is not None)
        reproduced = result is not None or chosen.expected is not None
        repro = [f"# {stem}: {verdict.status}\n\n"]
        repro += [f"- {finding.kind}: {finding.message}\n" for finding in verdict.findings]
        if chosen.expected is not None:
            repro.append(
                f"\nNo backend disagreed with {', '.join(chosen.suspects)} here, but {verdict.count} solutions are "
                f"recorded: the instance is kept whole, with that count in {folder}/expected.json.\n"
            )
        if reproduced:
            repro.append(f"\nReproduce with:\n\n    {command}\n")
        else:
            repro.append(f"\nRerun on {', '.join(involved)} alone, the finding did not show again:\n\n    {command}\n")
        text = result.text if result is not None else family.format_level(instance.level)
        try:  # the instance, its note (and the count it is checked against): all or none
            files.make_folder(folder, "minimise folder")
            changes = [
                files.Change.text(target, text, "minimised instance"),
                files.Change.text(os.path.splitext(target)[0] + ".repro.md", "".join(repro), "repro note"),
            ]
            if chosen.expected is not None:
                changes.append(_recorded(os.path.join(folder, "expected.json"), f"{stem}-min", chosen.expected))
            files.write_files(changes)
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
                "reproduced": reproduced,
            }
        )
    return out


def repro_command(target: str, backends: Sequence[str], family: str, plan: Any, *, against_expected: bool) -> str:
    """The ``trisolve crosscheck`` command that checks ``target`` as the original was checked."""
    import shlex

    from trisolve.backends import registry

    parts = ["trisolve", "crosscheck", target, "--backends", ",".join(backends)]
    parts += [] if against_expected else ["--no-expected"]
    parts += ["--family", family] + (["--timeout", f"{plan.timeout:g}"] if plan.timeout is not None else [])
    parts += (["--limit", str(plan.limit)] if plan.limit is not None else []) + (
        ["--symmetry-breaking"] if plan.symmetry_breaking else []
    )
    for plugin in registry.plugin_files():  # as the user named it, when it is below this folder
        relative = os.path.relpath(plugin)
        parts.extend(["--plugin", plugin if relative.startswith("..") else relative])
    return " ".join(shlex.quote(p) for p in parts)


def _recorded(path: str, stem: str, count: int) -> Any:
    """The ``expected.json`` at ``path`` with ``stem``'s exact count merged in, as a change to write."""
    from trisolve.models import files

    from .compare import load_expected

    load_expected(path)  # what is there must be an expected.json
    data = files.read_json(path, what="expected.json") if os.path.lexists(path) else {}
    data[stem] = {"count": count, "complete": True}
    text = files.dumps(dict(sorted(data.items())), indent=1) + "\n"
    return files.Change.text(path, text, "expected.json", updating=True)
