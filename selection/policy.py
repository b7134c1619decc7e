"""Which backends run when nobody names one: the one selection policy.

``choose(family, purpose, task)`` answers for every caller: ``solve`` and
``--backend auto`` (``race``), ``crosscheck``, ``campaign``, ``bench`` (a
timing), ``portfolio`` (``bench --portfolio``), ``mutate`` (the unmutated
references) and ``counting`` (the solution counter a family's generator is
handed).  It is fed by two things only:

* what each backend declares it can do: its roles (``PORTFOLIO``,
  ``OPTIONAL``, ``BY_DEFAULT``, ``TASKS``: ``backends/TEMPLATE/__init__.py``
  says what each means) and its catalogs (``cross_check``, ``count_only``,
  ``symmetry_breaking``), read through the registry without importing a solver;
* what was measured: the table (``table.py``, ``portfolio.json``), and the
  family's own record where a measurement chose for it (``Family.crosscheck``,
  docs/bench/crosscheck-defaults.md; ``Family.default_backend`` and
  ``Family.counting_backend``, its fallbacks).

The rules, per purpose:

* ``solve`` — the table's usable rows for the task, best first (``first``,
  ``count``, or ``all``: a listing, which a count-only backend does not do;
  with symmetry breaking, those that can break the family's symmetries); else
  the family's ``default_backend``.  The first runs; a level it refuses
  (``Catalog.refuses``, ``registry.refusal``: a board beyond what it can
  represent) goes to the next row that takes it (``runs.child.route``).  Given
  the level (``level=``), a small one (``small``: at most the family's first
  generated size, a Hexiom board of side 3, a 4x4 frame) takes the best row
  whose backend loads no compiled kernels (``KERNELS``): dp and exactcover
  spend about half a CPU second loading theirs, where pysat counts such a
  level in milliseconds.  The table ranks over every size, so it cannot say
  this itself;
* ``race`` — the table's top usable rows (``table.RACE_SIZE``: three for a
  first solution, two for a count); else the backends that say
  ``PORTFOLIO``; ``dimacs`` joins when a SAT command is given;
* ``crosscheck`` — the family's own few backends (``Family.crosscheck``),
  else every variant of the backends run by default (needing nothing outside
  Python, not ``BY_DEFAULT = False``) whose catalog says ``cross_check``;
* ``campaign`` — every variant of the backends run by default whose catalog
  says ``cross_check``;
* ``bench`` — for first solutions the ``PORTFOLIO`` backends, for counts the
  backends run by default (each one's default variant);
* ``portfolio`` — every backend needing nothing outside Python whose
  ``TASKS`` hold the task, with its ``compiled`` variant where it compiles the
  family's constraint model (``dimacs`` too with a SAT command);
* ``mutate`` — the ``PORTFOLIO`` backends;
* ``counting`` — the family's ``counting_backend``.

And for ``trisolve export --format F`` without a backend, ``writers(F)``: the
backends whose ``EXPORTS`` say F, those run by default first.

Each answer holds full ``backend:variant`` names usable here, and says which
candidates were left out and why (a solver not installed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from trisolve.backends import registry
from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES
from trisolve.models.errors import TrisolveError, UsageError

from . import table

#: What a choice is for, in the order ``trisolve backends`` and docs/backends.md show them.
PURPOSES: tuple[str, ...] = ("solve", "race", "crosscheck", "campaign", "bench", "portfolio", "mutate", "counting")
#: What is asked: a first solution, an exact count, or every solution listed.
TASKS: tuple[str, ...] = ("first", "count", "all")
#: The tasks a purpose distinguishes (the others answer the same for every task).
TASKS_OF: dict[str, tuple[str, ...]] = {
    "solve": TASKS,
    "race": ("first", "count"),
    "bench": ("first", "count"),
    "portfolio": table.TASKS,
}
#: The variant every compiler of constraint models offers (``backends/<backend>/compiled.py``).
COMPILED = "compiled"
#: Backends that load compiled kernels (numba's) in every run: about half a CPU second before anything is counted.
KERNELS: tuple[str, ...] = ("dp", "exactcover")


@dataclass(frozen=True)
class Selection:
    """The backends a purpose runs on a family for a task, best first, and why others are not among them."""

    family: str
    purpose: str
    task: str
    #: full ``backend:variant`` names, each usable here
    backends: tuple[str, ...]
    #: where the choice comes from: "table" (measured), "family" (the family's record), "declared" (the backends'
    #: own declarations), or "fallback" (the family's fallback, the table knowing nothing usable)
    source: str
    #: "spec: why" for each candidate left out (not usable here)
    left_out: tuple[str, ...] = ()

    @property
    def shown(self) -> tuple[str, ...]:
        """What runs, as people are told: for ``solve`` the one that runs (the others are only where it refuses
        a level), for the other purposes all of them."""
        return self.backends[:1] if self.purpose == "solve" else self.backends

    @property
    def first(self) -> str:
        """The one backend a single run takes."""
        if not self.backends:
            raise UsageError(f"no usable backend for the {self.family} family ({self.purpose}, {self.task})")
        return self.backends[0]


@dataclass(frozen=True)
class _Asked:
    """What a caller may add to a question: symmetry breaking, an external SAT command, the level itself."""

    symmetry_breaking: bool = False
    sat_command: str | None = None
    #: the parsed level, or a function giving it (None: not at hand), read only where the answer turns on it
    level: Any = None


def choose(
    family: str,
    purpose: str,
    task: str = "first",
    *,
    symmetry_breaking: bool = False,
    sat_command: str | None = None,
    level: Any | Callable[[], Any] = None,
) -> Selection:
    """The backends ``purpose`` runs on ``family`` for ``task`` when none is named (see the module docstring).

    ``level`` is the parsed level the answer is for, or a function giving it (or None) when asked: reading a
    file is left to the one answer that turns on it (``solve`` on a small level)."""
    if purpose not in PURPOSES:
        raise ValueError(f"unknown purpose {purpose!r}; known: {', '.join(PURPOSES)}")
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; known: {', '.join(TASKS)}")
    return _CHOOSERS[purpose](family, task, _Asked(symmetry_breaking, sat_command, level))


def small(family: str, level: Any | Callable[[], Any]) -> bool:
    """Whether ``level`` (parsed, or a function giving it or None, called only for a family with sizes) is small
    for its family: at most the first size ``bench --portfolio`` generates (the family's ``ladder``: a Hexiom
    board of side 3, a 4x4 frame), where a kernel backend's load costs more than a plain solver's whole count
    (side 3: at most 459 solutions among the shipped levels)."""
    kind = FAMILIES.get(family)
    ladder = kind.ladder if kind is not None else None
    if ladder is None or not ladder.rungs:
        return False
    model = level() if callable(level) else level
    return model is not None and ladder.measure(model) <= ladder.rungs[0].size


# ------------------------------------------------------------------ what the backends declare


def declaring(role: str, task: str | None = None) -> tuple[str, ...]:
    """The shipped backends that say ``role`` (``PORTFOLIO``; ``BY_DEFAULT``: run by default, which also means
    needing nothing outside Python; ``IN_PYTHON``: needing nothing outside Python, run by default or not), of
    those whose ``TASKS`` hold ``task`` when it is given."""
    found = []
    for name in registry.shipped():
        in_python = not registry.role(name, "OPTIONAL")
        said = {"PORTFOLIO": registry.role(name, "PORTFOLIO"), "IN_PYTHON": in_python}
        said["BY_DEFAULT"] = in_python and registry.role(name, "BY_DEFAULT")
        if said[role] and (task is None or task in registry.role(name, "TASKS")):
            found.append(name)
    return tuple(found)


def writers(format_: str | None = None) -> dict[str, tuple[str, ...]]:
    """Format -> the backends whose ``export`` writes it (``EXPORTS``), the default writer first: a backend run
    by default, then one that runs only when named, then one that needs something outside Python (pysat's CNF
    before ganak's and dimacs's); one format if given."""
    found: dict[str, list[str]] = {}
    order = {
        name: (registry.role(name, "OPTIONAL"), not registry.role(name, "BY_DEFAULT")) for name in registry.names()
    }
    for name in sorted(order, key=order.__getitem__):
        written = registry.role(name, "EXPORTS")
        if written and (format_ is None or written == format_):
            found.setdefault(written, []).append(name)
    return {f: tuple(n) for f, n in found.items()}


def usable(name: str, family: str) -> str | None:
    """None when ``name`` can run ``family`` here (registered, solver installed, a translator offering the
    variant), else why not.  Checked without importing a solver: choosing costs nothing."""
    try:
        spec = Spec.parse(name)
        hint = registry.available(spec.backend)
        if hint is not None:
            return hint
        offered = registry.catalog(spec.backend, family)
    except TrisolveError as problem:
        return str(problem)
    if offered is None:
        return f"backend {spec.backend} has no translator for {family}"
    if spec.variant is not None and spec.variant_name not in offered.variants:
        return f"{spec.backend} has no variant {spec.variant_name} for {family}"
    return None


def _full(name: str, family: str) -> str:
    """``clingo`` as ``clingo:count`` (the backend's default variant for the family)."""
    try:
        return registry.resolve(name, family)
    except TrisolveError:
        return name


def _usable_ones(names: Iterable[str], family: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the full names usable here, "name: why" for the others), in order, without repeats."""
    chosen, left_out = [], []
    for name in dict.fromkeys(names):
        why = usable(name, family)
        if why is None:
            chosen.append(_full(name, family))
        else:
            left_out.append(f"{name}: {why}")
    return tuple(dict.fromkeys(chosen)), tuple(left_out)


def _variants(backends: Iterable[str], family: str) -> list[str]:
    """Every variant the backends offer for the family, defaults first, that a cross-check runs unnamed
    (``Catalog.cross_check``)."""
    return [
        name
        for name in registry.variants(family, backends)
        if registry.catalog(Spec.parse(name).backend, family).cross_check
    ]


# ------------------------------------------------------------------ the purposes


def _solve(family: str, task: str, asked: _Asked) -> Selection:
    ranked = [
        name
        for name in table.ranking(family, task)
        if usable(name, family) is None and (not asked.symmetry_breaking or registry.breaks_symmetries(name, family))
    ]
    if not ranked:
        return Selection(family, "solve", task, (_full(_record(family).default_backend, family),), "fallback")
    light = [name for name in ranked if Spec.parse(name).backend not in KERNELS]
    if light and light[0] != ranked[0] and asked.level is not None and small(family, asked.level):
        ranked.remove(light[0])
        ranked.insert(0, light[0])
    return Selection(family, "solve", task, tuple(ranked), "table")


def _race(family: str, task: str, asked: _Asked) -> Selection:
    task = "count" if task == "all" else task
    extra = ("dimacs",) if asked.sat_command else ()
    if table.knows(family, task):
        measured = [name for name in table.ranking(family, task) if usable(name, family) is None]
        chosen, left_out = _usable_ones([*measured[: table.RACE_SIZE[task]], *extra], family)
        if measured:
            return Selection(family, "race", task, chosen, "table", left_out)
    chosen, left_out = _usable_ones([*declaring("PORTFOLIO"), *extra], family)
    return Selection(family, "race", task, chosen, "declared", left_out)


def _crosscheck(family: str, task: str, asked: _Asked) -> Selection:
    own = _record(family).crosscheck
    if own is None:
        chosen, left_out = _usable_ones(_variants(declaring("BY_DEFAULT"), family), family)
        return Selection(family, "crosscheck", task, chosen, "declared", left_out)
    chosen, left_out = _usable_ones(own, family)
    return Selection(family, "crosscheck", task, chosen, "family", left_out)


def _campaign(family: str, task: str, asked: _Asked) -> Selection:
    chosen, left_out = _usable_ones(_variants(declaring("BY_DEFAULT"), family), family)
    return Selection(family, "campaign", task, chosen, "declared", left_out)


def _bench(family: str, task: str, asked: _Asked) -> Selection:
    role = "PORTFOLIO" if task == "first" else "BY_DEFAULT"
    names = [name for name in declaring(role) if registry.catalog(name, family) is not None]
    chosen, left_out = _usable_ones(names, family)
    return Selection(family, "bench", task, chosen, "declared", left_out)


def _portfolio(family: str, task: str, asked: _Asked) -> Selection:
    task = "count" if task == "all" else task
    names = []
    for name in declaring("IN_PYTHON", task):
        offered = registry.catalog(name, family)
        if offered is not None:  # the compiled model beside the hand-written default: the defaults may follow either
            names += [name, *([f"{name}:{COMPILED}"] if COMPILED in offered.variants else [])]
    chosen, left_out = _usable_ones([*names, *(["dimacs"] if asked.sat_command else [])], family)
    return Selection(family, "portfolio", task, chosen, "declared", left_out)


def _mutate(family: str, task: str, asked: _Asked) -> Selection:
    names = [name for name in declaring("PORTFOLIO") if registry.catalog(name, family) is not None]
    chosen, left_out = _usable_ones(names, family)
    return Selection(family, "mutate", task, chosen, "declared", left_out)


def _counting(family: str, task: str, asked: _Asked) -> Selection:
    chosen, left_out = _usable_ones([_record(family).counting_backend], family)
    return Selection(family, "counting", task, chosen, "family", left_out)


_CHOOSERS = {
    "solve": _solve,
    "race": _race,
    "crosscheck": _crosscheck,
    "campaign": _campaign,
    "bench": _bench,
    "portfolio": _portfolio,
    "mutate": _mutate,
    "counting": _counting,
}


def _record(family: str):
    if family not in FAMILIES:
        raise UsageError(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")
    return FAMILIES[family]


# ------------------------------------------------------------------ what it says, for people


def everything(families: Iterable[str] | None = None) -> list[Selection]:
    """Every answer of the policy: per family (by name), per purpose, per task the purpose distinguishes."""
    return [
        choose(family, purpose, task)
        for family in (sorted(FAMILIES) if families is None else families)  # not load order: loaded on demand
        for purpose in PURPOSES
        for task in TASKS_OF.get(purpose, ("first",))
    ]


def markdown(families: Iterable[str] | None = None) -> str:
    """The defaults as a table (docs/backends.md's, written by ``scripts/write_docs.py``)."""
    lines = ["| family | purpose | task | runs without a named backend | from |", "|---|---|---|---|---|"]
    for selection in everything(families):
        task = selection.task if selection.purpose in TASKS_OF else "any"
        shown = ", ".join(f"`{name}`" for name in selection.shown) or "none"
        lines.append(f"| {selection.family} | {selection.purpose} | {task} | {shown} | {selection.source} |")
    return "\n".join(lines) + "\n"
