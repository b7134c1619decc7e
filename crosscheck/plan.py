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
  whose one complete counter alone takes over a minute).

The command prints this up front (``DefaultPlan.describe``).  A family whose record names none runs what
the policy says of it (every variant of the backends run by default that a cross-check runs unnamed).
Named backends (``--backends``) run everywhere, as asked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from trisolve.backends.base import UsageError
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

    def runs(self, path: str, family: str, backend: str) -> bool:
        """Whether ``backend`` runs on the instance at ``path``."""
        return backend in self.backends.get(family, ()) and backend not in self.left_out.get(path, ())

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
        limit = f"the {timeout:g} s limit" if timeout else "the limit"
        for path, why in self.slow.items():
            lines.append(f"may stay incomplete within {limit}: {_stem(path)} ({why})")
        return lines


def default_plan(paths_and_families: Sequence[tuple[str, str]], check: Callable[[str, str], str]) -> DefaultPlan:
    """The default plan for these instances: per family, what the selection policy cross-checks
    (``selection.choose(family, "crosscheck")``), each backend checked by ``check(spec, family)`` (raising
    ``UsageError`` when it cannot run here: a default that cannot run is left out)."""
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
    return DefaultPlan(backends, left_out, slow)


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]
