"""Backend names as every command takes them: a spec made full (``backend:variant``) and checked usable, or the
selection policy's answer (``choose``) where none is named.

The library (``trisolve.api``) and the commands ask here, so that a name given on the command line and one given
to a library function are refused alike (a ``UsageError``) and a default is the policy's wherever it is asked for.
The registry's own errors (unknown, unsupported, unavailable) become ``UsageError``s here: bad input, exit 2.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from trisolve.models.errors import UsageError


def backend_list(backends: str | Sequence[str] | None) -> list[str]:
    """Backends given as a list, or as one string of comma-separated names (``"pysat,clingo"``)."""
    if backends is None:
        return []
    if isinstance(backends, str):
        return [name.strip() for name in backends.split(",") if name.strip()]
    names = list(backends)
    if not all(isinstance(name, str) for name in names):
        raise UsageError("backends must be names such as 'pysat' or 'clingo:count'")
    return names


def backend_name(spec: str | None, family: str, task: str = "first", symmetry_breaking: bool = False) -> str:
    """The full ``backend:variant`` a spec stands for, checked usable.

    None stands for the default of the task (``first``, ``count`` or ``all``): the selection policy's
    (``trisolve.selection``: the measured table's winner, among those that break symmetries if asked, else
    the family's fallback).
    """
    from trisolve.backends import registry

    name = resolved(spec, family, task, symmetry_breaking)
    try:
        registry.get(name, family)  # instantiation is cheap; solvers import lazily at run time
    except (registry.UnknownBackend, registry.UnsupportedFamily, registry.BackendUnavailable, ValueError) as problem:
        raise UsageError(str(problem)) from None
    return name


def resolved(spec: str | None, family: str, task: str = "first", symmetry_breaking: bool = False) -> str:
    """``backend_name`` without making the backend (so without importing its solver): the run's child makes
    it after reading the level, so a bad file is refused before any solver library is imported."""
    from trisolve.backends import registry

    from .policy import choose

    try:
        chosen = spec or choose(family, "solve", task, symmetry_breaking=symmetry_breaking).first
        return registry.resolve(chosen, family)
    except (registry.UnknownBackend, registry.UnsupportedFamily, registry.BackendUnavailable, ValueError) as problem:
        raise UsageError(str(problem)) from None


def backend_names(specs: Sequence[str], family: str, purpose: str = "crosscheck") -> list[str]:
    """A backends list made full (a bare name means all its variants); empty: what the selection policy runs
    for ``purpose`` (a cross-check's, by default)."""
    from trisolve.backends import registry

    from .policy import choose

    try:
        return registry.expand(list(specs), family) if specs else list(choose(family, purpose).backends)
    except (registry.UnknownBackend, registry.UnsupportedFamily) as problem:
        raise UsageError(str(problem)) from None


def portfolio(family: str, sat_command: str | None = None, task: str = "first") -> tuple[list[str], list[str]]:
    """What ``backend="auto"`` races: (usable backends, notes on those left out).

    The selection policy's race (``trisolve.selection``): the measured table's top backends for the task
    (three for a first solution, two for a count), else those that say ``PORTFOLIO``; ``sat_command`` adds
    the dimacs backend.
    """
    from .policy import choose

    chosen = choose(family, "race", task, sat_command=sat_command)
    names, left_out = [], [f"auto: leaving out {note}" for note in chosen.left_out]
    for backend in chosen.backends:
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
    from trisolve.backends.dimacs.engine import command_line

    try:
        command_line(sat_command)
    except BackendUnavailable as problem:
        raise UsageError(str(problem)) from None


def bench_backends(
    family: str, specs: Sequence[str], sat_command: str | None, mode: str, skipped: Callable[[str], None] | None = None
) -> list[str]:
    """The backends to benchmark on a family: those asked for (all checked now), or the selection policy's
    (``bench``: the paradigms' defaults; those run by default when counting). ``skipped`` hears of unusable
    defaults."""
    from .policy import choose

    if specs:
        names = backend_names(specs, family)
        for name in names:
            backend_name(name, family)
            if name.startswith("dimacs:"):
                check_sat_command(sat_command)
        return names
    chosen = choose(family, "bench", mode)
    for note in chosen.left_out:
        if skipped is not None:
            skipped(f"skipping {note}")
    names = []
    for backend in chosen.backends:
        try:
            names.append(backend_name(backend, family))
        except UsageError as problem:
            if skipped is not None:
                skipped(f"skipping {backend}: {problem}")
    if not names:
        raise UsageError(f"no usable backend for the {family} family")
    return names


def task_for(count: bool, all: bool, limit: int | None) -> str:
    """Which measured default a request takes: ``first``, ``count``, or ``all`` (listing, and a count
    stopped after ``limit`` solutions: an enumeration, which a count-only backend does not do)."""
    if all or (count and limit is not None):
        return "all"
    return "count" if count else "first"


def counts_without_listing(backend: str, family: str) -> bool:
    """Whether ``backend`` counts without listing solutions (dp, ganak): its count is never "plain enumeration"."""
    from trisolve.backends import registry
    from trisolve.backends.spec import Spec
    from trisolve.models.errors import TrisolveError

    try:
        found = registry.catalog(Spec.parse(backend).backend, family)
    except TrisolveError:
        return False
    return found is not None and found.count_only
