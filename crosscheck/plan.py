"""What a cross-check runs when no backends are named: the default plan, in one place.

``trisolve crosscheck levels/hexiom`` with its defaults must end in minutes with complete, agreeing counts
(issue 22).  Running every registered variant does not: the listing backends (SAT, ASP, CP) enumerate
solutions one by one, and on the levels with 10^5 solutions, or few solutions on a large board (hexiom
level38: 79), they run for many minutes.  So the default plan is, per family (``DEFAULT_BACKENDS``, measured:
docs/bench/crosscheck-defaults.md):

* the backends that *count* without listing (``dp``: a count-only catalog) run on every instance;
* the backends that *list* (one per other paradigm) run on every instance except those whose
  ``expected.json`` entry says ``"list": false`` (measured: listing them takes minutes).  There the count is
  checked against the recorded one, established earlier by complete runs of several paradigms;
* an ``expected.json`` entry with ``"slow": "why"`` names an instance the default limit leaves incomplete
  (hexiom level40: dp's count alone takes minutes).

The command prints this up front (``describe``).  A family not in ``DEFAULT_BACKENDS`` (logic, a plugin
family) runs every registered variant.  Named backends (``--backends``) run everywhere, as asked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from trisolve.backends.base import UsageError

from .compare import expected_for

#: Per family, the backends a default cross-check runs (bare names: each backend's default variant).
#: hexiom: dp counts every shipped level but level40 within seconds; clingo (ASP) and pysat (SAT) list
#: the 34 levels not marked "list": false within seconds each.  sigils: dp counts every shipped frame but
#: pentominoes-6x10 within seconds; clingo lists 18 of them (pysat and cpsat take minutes on the 8x5 and
#: 8x6 gates, so they are not defaults).  Measured: docs/bench/crosscheck-defaults.md.
DEFAULT_BACKENDS: Mapping[str, tuple[str, ...]] = {
    "hexiom": ("dp", "clingo", "pysat"),
    "sigils": ("dp", "clingo"),
}


@dataclass(frozen=True)
class DefaultPlan:
    """Which backend runs on which instance, and what may stay incomplete (for the up-front message)."""

    #: family -> the backends (full names) that count without listing, and those that list
    counters: Mapping[str, tuple[str, ...]]
    listers: Mapping[str, tuple[str, ...]]
    #: instance path -> why the listers are left out there
    not_listed: Mapping[str, str]
    #: instance path -> why it may stay incomplete within the time limit
    slow: Mapping[str, str]

    def runs(self, path: str, family: str, backend: str) -> bool:
        """Whether ``backend`` runs on the instance at ``path``."""
        return backend in self.counters.get(family, ()) or (
            backend in self.listers.get(family, ()) and path not in self.not_listed
        )

    def describe(self, timeout: float | None) -> list[str]:
        """What will run and what may stay incomplete, said before the first run starts."""
        lines = []
        for family in sorted(set(self.counters) | set(self.listers)):
            counters, listers = self.counters.get(family, ()), self.listers.get(family, ())
            what = []
            if counters:
                what.append(f"{', '.join(counters)} count every instance")
            if listers:
                what.append(f"{', '.join(listers)} list the solutions")
            lines.append(f"{family}: " + "; ".join(what))
        if self.not_listed:
            names = _stems(self.not_listed)
            lines.append(f"listed by none (listing takes minutes; the count is checked against expected.json): {names}")
        if self.slow:
            limit = f"the {timeout:g} s limit" if timeout else "the limit"
            for path, why in self.slow.items():
                lines.append(f"may stay incomplete within {limit}: {_stem(path)} ({why})")
        return lines


def default_plan(paths_and_families: Sequence[tuple[str, str]], choose: Callable[[str, str], str]) -> DefaultPlan:
    """The default plan for these instances; ``choose(spec, family)`` makes a bare name full and checks it usable
    (raising ``UsageError`` when not: a default that cannot run here is left out)."""
    from trisolve.backends import registry

    counters: dict[str, tuple[str, ...]] = {}
    listers: dict[str, tuple[str, ...]] = {}
    not_listed: dict[str, str] = {}
    slow: dict[str, str] = {}
    for path, family in paths_and_families:
        if family not in counters and family in DEFAULT_BACKENDS:
            names = []
            for spec in DEFAULT_BACKENDS[family]:
                try:
                    names.append(choose(spec, family))
                except UsageError:
                    continue
            counters[family] = tuple(n for n in names if _count_only(registry, n, family))
            listers[family] = tuple(n for n in names if n not in counters[family])
        if family not in DEFAULT_BACKENDS:
            continue
        recorded = expected_for(path)
        if recorded is None:
            continue
        if recorded.list is False and counters.get(family):
            not_listed[path] = "listing takes minutes"
        if recorded.slow:
            slow[path] = recorded.slow
    return DefaultPlan(counters, listers, not_listed, slow)


def _count_only(registry, name: str, family: str) -> bool:
    found = registry.catalog(name.split(":")[0], family)
    return found is not None and found.count_only


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def _stems(paths: Mapping[str, str]) -> str:
    return ", ".join(_stem(path) for path in paths)
