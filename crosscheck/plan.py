"""What a cross-check runs when no backends are named: the default plan, in one place.

A cross-check of a family's shipped levels with its defaults must end in minutes with complete, agreeing
counts.  Running every registered variant does not: the listing backends (SAT, ASP, CP) enumerate
solutions one by one, and on levels with 10^5 solutions, or few solutions on a large board, they run for
many minutes.  So the selection policy (``trisolve.selection``) runs a family's own few backends of
different paradigms that finish, when its record names them (``Family.crosscheck``, measured:
docs/bench/crosscheck-defaults.md):

* each runs on every instance, except where the instance's ``expected.json`` entry names it in
  ``"slow_for"`` (measured there: it takes minutes).  There the others' counts are checked against each
  other and against the recorded count, established earlier by complete runs of several paradigms;
* an entry with ``"slow": "why"`` names an instance the default limit leaves incomplete (say, a level
  whose one complete counter alone takes over a minute);
* a default that refuses an instance (``registry.refusal``: dp on a board its state keys cannot hold) does not
  run there; the next backend the policy counts with
  (the measured count ranking, ``trisolve.selection``) that is not in the plan and takes the instance runs in
  its place.

The command prints this up front (``DefaultPlan.describe``).  A family whose record names none runs what
the policy says of it (every variant of the backends run by default that a cross-check runs unnamed).
Named backends (``--backends``) run everywhere, as asked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trisolve.backends.base import Options, UsageError
from trisolve.backends.spec import Spec
from trisolve.selection import choose

from .compare import expected_for


@dataclass(frozen=True)
class DefaultPlan:
    """Which backend runs on which instance, and what may stay incomplete (for the up-front message)."""

    #: family -> the default backends (full names) usable here
    backends: Mapping[str, tuple[str, ...]]
    #: instance path -> the backends left out there (listing or counting takes them minutes)
    left_out: Mapping[str, tuple[str, ...]]
    #: instance path -> why it may stay incomplete within the time limit
    slow: Mapping[str, str]
    #: instance path -> the default backends that refuse it, and why (``registry.refusal``)
    refused: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: instance path -> the backends that run there in their place (the measured count ranking's next rows)
    instead: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def runs(self, path: str, family: str, backend: str) -> bool:
        """Whether ``backend`` runs on the instance at ``path``."""
        if backend in self.instead.get(path, ()):
            return True
        return (
            backend in self.backends.get(family, ())
            and backend not in self.left_out.get(path, ())
            and backend not in self.refused.get(path, {})
        )

    def candidates(self, family: str, paths: Sequence[str]) -> list[str]:
        """The backends that run on some of these instances of the family: its defaults, then those that run
        in place of a refusing one."""
        names = list(self.backends.get(family, ()))
        for path in paths:
            names += [name for name in self.instead.get(path, ()) if name not in names]
        return names

    def describe(self, timeout: float | None) -> list[str]:
        """What will run and what may stay incomplete, said before the first run starts."""
        lines = [f"{family}: {', '.join(names)}" for family, names in sorted(self.backends.items())]
        by_backends: dict[tuple[str, ...], list[str]] = {}
        for path, names in self.left_out.items():
            by_backends.setdefault(names, []).append(_stem(path))
        for names, stems in by_backends.items():
            lines.append(
                f"not {', '.join(names)} on {', '.join(stems)} (they take minutes there; the others' counts are "
                "checked against expected.json)"
            )
        for path, refusing in self.refused.items():
            for name, why in refusing.items():
                lines.append(f"not {name} on {_stem(path)} ({why})")
            if self.instead.get(path):
                lines.append(f"{', '.join(self.instead[path])} on {_stem(path)} in their place")
        limit = f"the {timeout:g} s limit" if timeout else "the limit"
        for path, why in self.slow.items():
            lines.append(f"may stay incomplete within {limit}: {_stem(path)} ({why})")
        return lines


def refusals(
    instances: Sequence[tuple[str, str, Any]], names: Callable[[str], Sequence[str]]
) -> dict[str, dict[str, str]]:
    """Per instance path (with its family and parsed level), the backends of ``names(family)`` that refuse
    to count it, and why (``registry.refusal``; a cross-check counts, so it asks as for a count)."""
    from trisolve.backends import registry

    found: dict[str, dict[str, str]] = {}
    for path, family, level in instances:
        for name in names(family):
            why = registry.refusal(name, family, level, COUNTING)
            if why is not None:
                found.setdefault(path, {})[name] = why
    return found


def default_plan(
    paths_and_families: Sequence[tuple[str, str]],
    check: Callable[[str, str], str],
    levels: Mapping[str, Any] | None = None,
) -> DefaultPlan:
    """The default plan for these instances: per family, what the selection policy cross-checks
    (``selection.choose(family, "crosscheck")``), each backend checked by ``check(spec, family)`` (raising
    ``UsageError`` when it cannot run here: a default that cannot run is left out).  ``levels`` (path -> parsed
    level) lets the plan ask each default whether it takes an instance, and run in its place the next of what
    the policy counts with (``choose(family, "solve", "count")``) where one refuses."""
    backends: dict[str, tuple[str, ...]] = {}
    left_out: dict[str, tuple[str, ...]] = {}
    slow: dict[str, str] = {}
    for path, family in paths_and_families:
        if family not in backends:
            names = []
            for spec in choose(family, "crosscheck").backends:
                try:
                    names.append(check(spec, family))
                except UsageError:
                    continue
            backends[family] = tuple(names)
        recorded = expected_for(path)
        if recorded is None:
            continue
        out = tuple(name for name in backends[family] if Spec.parse(name).backend in recorded.slow_for)
        if out and len(out) < len(backends[family]):  # never all of them: then they all run, and it is slow
            left_out[path] = out
        if recorded.slow:
            slow[path] = recorded.slow
    planned = [(path, family, levels[path]) for path, family in paths_and_families if levels and path in levels]
    planned = [(path, family, level) for path, family, level in planned if family in backends]
    refused = refusals(planned, lambda family: backends[family])
    instead: dict[str, tuple[str, ...]] = {}
    for path, family, level in planned:
        if path in refused:
            instead[path] = _in_place(family, level, backends[family], len(refused[path]), check)
    return DefaultPlan(backends, left_out, slow, refused, instead)


def _in_place(
    family: str, level: Any, planned: Sequence[str], wanted: int, check: Callable[[str, str], str]
) -> tuple[str, ...]:
    """Up to ``wanted`` of the backends the policy counts with (the measured count ranking), best first, not in
    the plan, that take the level."""
    from trisolve.backends import registry

    found: list[str] = []
    for spec in choose(family, "solve", "count").backends:
        try:
            name = check(spec, family)
        except UsageError:
            continue
        fresh = len(found) < wanted and name not in planned and name not in found
        if fresh and registry.refusal(name, family, level, COUNTING) is None:
            found.append(name)
    return tuple(found)


#: what a cross-check's runs do, as ``registry.refusal`` asks it
COUNTING = Options(enumerate=True)


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def backends_to_run(
    instances: Sequence[tuple[str, str, Any]],
    named: Sequence[str] = (),
    on_plan: Callable[[list[str]], None] | None = None,
    timeout: float | None = None,
) -> tuple[dict[str, list[str]], Callable[[str, str, str], bool] | None]:
    """What a cross-check of ``instances`` (path, family, parsed level or None) runs: per family, its backends,
    and which of them run on which instance (None: every one everywhere).

    Named backends (each made full: a bare name is all its variants) run everywhere, as asked.  Without them,
    the default plan (``default_plan``) for the families whose record names one, which ``on_plan`` hears
    described (``DefaultPlan.describe``: what it leaves incomplete within ``timeout``); on the other families
    every variant the policy cross-checks, each left out where it refuses the instance.  A family no backend
    handles is a ``UsageError``.
    """
    from trisolve.selection.names import backend_name, backend_names

    names: dict[str, list[str]] = {}
    planned = None
    if not named:
        parsed = {path: level for path, _, level in instances}
        planned = default_plan([(path, family) for path, family, _ in instances], backend_name, parsed)
        for name in planned.backends:
            names[name] = planned.candidates(name, [path for path, family, _ in instances if family == name])
        if on_plan is not None:
            on_plan(planned.describe(timeout))
    for _, family, _ in instances:
        if family not in names:
            names[family] = backend_names(named, family)
        if not names[family]:
            raise UsageError(f"no backend handles the {family} family")
    if planned is None:
        return names, None
    plan = planned
    # a family without a default plan runs every variant: one that refuses an instance is left out there
    refusing = refusals([i for i in instances if i[1] not in plan.backends], names.__getitem__)

    def select(path: str, family: str, backend: str) -> bool:
        if family in plan.backends:
            return plan.runs(path, family, backend)
        return backend not in refusing.get(path, {})

    return names, select
