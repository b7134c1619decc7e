"""``trisolve backends``: what can be asked for with a backend name, and what runs without one.

The names themselves are the selection policy's (``trisolve.selection.names``): a spec made full and checked, the
race of ``auto``, the backends of a benchmark; this library offers them as they are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES
from trisolve.selection.names import (
    backend_name,
    backend_names,
    bench_backends,
    check_sat_command,
    portfolio,
    task_for,
)

from .levels import family_named

if TYPE_CHECKING:
    from trisolve.selection import Selection

__all__ = [
    "BackendInfo",
    "backend_name",
    "backend_names",
    "bench_backends",
    "check_sat_command",
    "compilers_left_out",
    "default_choices",
    "list_backends",
    "portfolio",
    "task_for",
]


@dataclass(frozen=True)
class BackendInfo:
    """One ``backend:variant`` a family can be run with, as ``trisolve backends`` lists it."""

    family: str
    backend: str
    default: bool  # the default variant of its backend
    description: str
    #: None when it can run here, else how to make it run (its install hint)
    install: str | None = None
    #: the tasks (first, count, all) that run this variant when no --backend is given
    default_for: tuple[str, ...] = ()

    @property
    def available(self) -> bool:
        return self.install is None

    def to_json(self) -> dict:
        """The row as ``trisolve backends --json`` prints it: ``install`` only where the variant cannot run."""
        said = {key: getattr(self, key) for key in ("family", "backend", "default", "description", "available")}
        return {**said, "default_for": list(self.default_for), **({"install": self.install} if self.install else {})}


def list_backends(family: str | None = None) -> list[BackendInfo]:
    """Every backend variant of every family (or of ``family``), shipped and registered (plugins)."""
    from trisolve.backends import registry
    from trisolve.selection import TASKS, choose

    rows = []
    for name in [family_named(family).name] if family else list(FAMILIES):
        picks = {task: choose(name, "solve", task).first for task in TASKS}
        for spec, text, is_default in registry.describe_all(name):
            tasks = tuple(task for task, pick in picks.items() if pick == spec)
            rows.append(BackendInfo(name, spec, is_default, text, registry.available(Spec.parse(spec).backend), tasks))
    return rows


def compilers_left_out(family: str | None = None) -> dict[str, list[str]]:
    """Per family (or for ``family``), why the compilers of constraint models that do not take it leave it out
    (``backend:variant: reason``); a family without a constraint model gets that one reason instead of one per
    compiler."""
    from trisolve.backends import registry

    found: dict[str, list[str]] = {}
    for name in [family_named(family).name] if family else list(FAMILIES):
        if FAMILIES[name].constraints is None:
            found[name] = ["no constraint model, so no compiled variants"]
            continue
        reasons = [why for backend in registry.names() for why in registry.left_out(backend, name)]
        if reasons:
            found[name] = reasons
    return found


def default_choices(family: str | None = None) -> tuple[dict, list[Selection]]:
    """The measured table's header (date, command, load) and every answer of the selection policy for the
    family (or every family): per purpose and task, the backends that run without a named one, and where the
    choice comes from (``trisolve.selection.Selection``)."""
    from trisolve.selection import everything, table

    names = [family_named(family).name] if family else sorted(FAMILIES)
    return table.header(), everything(names)
