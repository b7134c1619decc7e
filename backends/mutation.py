"""Mutation sites: where a translator marks its constraint groups, so ``trisolve mutate`` can break one.

A translator states each constraint group, bound, implication and symmetry
constraint through these hooks.  Unmutated (always, outside ``mutate``) each
one hands its input back unchanged after one global test.  A mutation names
one operator at one site (the hook's call: file, line and group name) and is
switched on, in the forked child that runs it, by ``MutatedBackend`` (see
``backends/mutated.py``); the translator source is never edited.

Operators and the hooks they act on:

* ``drop-group``    ``keep(name)``: False, so the group is not added;
* ``bound+1``, ``bound-1``  ``bound(name, value)``: a cardinality bound or
  linear constant shifted by one;
* ``reverse``       ``implication(name, premise, conclusion)``: the two sides swapped;
* ``drop-symmetry`` ``keep_symmetry(name, index)``: the first symmetry's
  lex-leader constraint that reaches the site is left out.

``record()`` lists every site a translation reaches (``mutate`` finds its
mutants that way, per variant and with and without symmetry breaking).
A group whose name starts with ``implied`` is redundant by design: dropping
it is expected to change no answer, and ``mutate`` says so for its survivors.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..models.errors import shorten

#: Hook kind -> the operators that apply to it.
OPERATORS: dict[str, tuple[str, ...]] = {
    "group": ("drop-group",),
    "bound": ("bound+1", "bound-1"),
    "implication": ("reverse",),
    "symmetry": ("drop-symmetry",),
}

#: The folder holding the ``backends`` package: sites are named by paths relative to it.
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass(frozen=True)
class Site:
    """One hook call in a translator, of one ``kind`` (see ``OPERATORS``): ``backends/pysat/hexiom.py:71
    [locked tiles]``."""

    kind: str
    file: str
    line: int
    name: str

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    def mutation(self, operator: str) -> Mutation:
        """``operator`` applied at this site."""
        return Mutation(operator, self.file, self.line, self.name)


@dataclass(frozen=True)
class Mutation:
    """One operator at one site (its file, line and name); ``spec`` is its text form (it travels in a backend
    name: ``OPERATOR@FILE:LINE[NAME]``)."""

    operator: str
    file: str
    line: int
    name: str

    @property
    def spec(self) -> str:
        return f"{self.operator}@{self.file}:{self.line}[{self.name}]"

    @classmethod
    def parse(cls, spec: str) -> Mutation:
        try:
            operator, rest = spec.split("@", 1)
            where, name = rest.split("[", 1)
            file, line = where.rsplit(":", 1)
            if not name.endswith("]"):
                raise ValueError
            mutation = cls(operator, file, int(line), name[:-1])
        except ValueError:
            raise ValueError(f"not a mutation: {shorten(spec)!r} (want OPERATOR@FILE:LINE[NAME])") from None
        if not any(operator in ops for ops in OPERATORS.values()):
            raise ValueError(f"unknown mutation operator {operator!r}")
        return mutation


_active: Mutation | None = None
_sites: dict[tuple[str, int, str], Site] | None = None
_first_symmetry: dict[tuple[str, int, str], int] = {}


def _caller() -> tuple[str, int]:
    frame = sys._getframe(3)  # the translator line that called the hook
    path = os.path.abspath(frame.f_code.co_filename)
    return os.path.relpath(path, _ROOT), frame.f_lineno


def _hit(kind: str, name: str) -> str | None:
    """Record the site when recording; the operator applied here when the active mutation targets it."""
    file, line = _caller()
    if _sites is not None:
        _sites.setdefault((file, line, name), Site(kind, file, line, name))
    active = _active
    if (
        active is not None
        and (active.file, active.line, active.name) == (file, line, name)
        and active.operator in OPERATORS[kind]
    ):
        return active.operator
    return None


def keep(name: str) -> bool:
    """Whether the constraint group ``name`` is added (False only under ``drop-group`` here)."""
    if _active is None and _sites is None:
        return True
    return _hit("group", name) is None


def bound(name: str, value: Any) -> Any:
    """A cardinality bound or linear constant, shifted by one under ``bound+1``/``bound-1`` here."""
    if _active is None and _sites is None:
        return value
    operator = _hit("bound", name)
    return value + 1 if operator == "bound+1" else value - 1 if operator == "bound-1" else value


def implication(name: str, premise: Any, conclusion: Any) -> tuple[Any, Any]:
    """``(premise, conclusion)`` of "premise implies conclusion", swapped under ``reverse`` here."""
    if _active is None and _sites is None:
        return premise, conclusion
    return (conclusion, premise) if _hit("implication", name) else (premise, conclusion)


def keep_symmetry(name: str, index: int) -> bool:
    """Whether symmetry ``index``'s lex-leader constraint is added (``drop-symmetry``: the first one is not)."""
    if _active is None and _sites is None:
        return True
    if _hit("symmetry", name) is None:
        return True
    key = (_active.file, _active.line, _active.name)
    first = _first_symmetry.setdefault(key, index)
    return index != first


@contextmanager
def active(mutation: Mutation | None) -> Iterator[None]:
    """Apply ``mutation`` to every translation inside the block."""
    global _active
    previous, _active = _active, mutation
    _first_symmetry.clear()
    try:
        yield
    finally:
        _active = previous


@contextmanager
def record() -> Iterator[dict[tuple[str, int, str], Site]]:
    """Collect every site the translations inside the block reach."""
    global _sites
    previous, _sites = _sites, {}
    try:
        yield _sites
    finally:
        _sites = previous


# ------------------------------------------------------------------ constraint models


def rule_shape(label: str) -> str:
    """A constraint's label with its numbers and quoted names taken out: the rule it instantiates
    ("a # at row #, place # has # occupied neighbours"), the group a model mutation acts on."""
    import re

    shape = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", label)
    return re.sub(r"\d+", "#", shape)


def apply_to_model(model: Any) -> Any:
    """A constraint model (``trisolve.constraints.Model``) with the active mutation applied, for the compilers
    of constraint models, which call it before compiling: so ``trisolve mutate`` breaks the rules stated once,
    the same way for every compiler.  A group is a role and rule shape (``rule_shape``): ``drop-group`` leaves
    out all its constraints, ``bound+1``/``bound-1`` shifts the bound of its linear ones.  Unchanged (the same
    object) outside ``mutate``."""
    if _active is None and _sites is None:
        return model
    import dataclasses

    from ..constraints import Linear

    groups: dict[str, list[Any]] = {}
    for constraint in model.constraints:
        groups.setdefault(f"model {constraint.role}: {rule_shape(constraint.label)}", []).append(constraint)
    changed = []
    for group, members in groups.items():
        if not keep(group):
            continue
        linear = [c for c in members if isinstance(c, Linear)]
        shift = bound(group, 0) if linear else 0
        changed += [dataclasses.replace(c, bound=c.bound + shift) if isinstance(c, Linear) else c for c in members]
    if len(changed) == len(model.constraints) and all(a is b for a, b in zip(changed, model.constraints)):
        return model
    copy = dataclasses.replace(model, constraints=changed, _frozen=False)
    return copy.freeze()
