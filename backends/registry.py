"""Names to backends: ``pysat``, ``pysat:totalizer``, ``clingo:count`` ...

Each backend package (``trisolve.backends.<name>``) exposes, without
importing its solver library:

* ``VARIANTS``: ``{family: {variant: one-line description}}`` — the
  configurations the cross-checker runs by default;
* ``DEFAULT_VARIANT``: ``{family: variant}`` — the measured fastest;
* ``make(family, variant) -> Backend`` — imports the solver lazily;
* ``available() -> str | None`` — None when usable, else an install hint;
* optionally ``preload(family)`` — import the solver library and the family's
  translator now (see ``preload`` below);
* optionally ``NO_SYMMETRY_BREAKING: set[str]`` — families whose runs cannot
  break symmetries (the cross-checker then runs them plain only).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Iterable

from .base import Backend, BackendUnavailable, UnsupportedFamily

#: Backends in the order tables show them; the cross-checker runs these by default.
BACKENDS: tuple[str, ...] = ("pysat", "clingo", "cpsat", "dp")
#: Backends ``--backend auto`` races for a first solution: the three paradigms.
#: (``dp`` counts well but finds a first solution slowly: 45 s CPU on level 38.)
PORTFOLIO: tuple[str, ...] = ("pysat", "clingo", "cpsat")
#: Backends that work only with something outside Python (``dimacs`` runs an
#: external SAT solver binary): known by name, never run unless asked for.
OPTIONAL_BACKENDS: tuple[str, ...] = ("dimacs",)


class UnknownBackend(ValueError):
    pass


#: Backends added at run time (mutants in the tests, users' own encodings via --plugin).
_EXTRA: dict[str, ModuleType] = {}


def register(name: str, module: ModuleType) -> None:
    """Add a backend under ``name``; ``module`` exposes VARIANTS, DEFAULT_VARIANT, make, available."""
    _EXTRA[name] = module


def names() -> tuple[str, ...]:
    known = BACKENDS + OPTIONAL_BACKENDS
    return known + tuple(n for n in _EXTRA if n not in known)


def _module(name: str) -> ModuleType:
    if name in _EXTRA:
        return _EXTRA[name]
    if name not in BACKENDS + OPTIONAL_BACKENDS:
        raise UnknownBackend(f"unknown backend {name!r}; known: {', '.join(names())}")
    return importlib.import_module(f"{__package__}.{name}")


def load_plugin(path: str) -> None:
    """Run a Python file that calls ``register`` (for --plugin)."""
    import runpy

    runpy.run_path(path, run_name="trisolve_plugin")


def split_spec(spec: str) -> tuple[str, str | None]:
    name, _, variant = spec.partition(":")
    return name.strip(), (variant.strip() or None)


def default_variant(name: str, family: str) -> str:
    module = _module(name)
    try:
        return module.DEFAULT_VARIANT[family]
    except KeyError:
        raise UnsupportedFamily(f"backend {name} has no translator for {family}") from None


def resolve(spec: str, family: str) -> str:
    """The full ``backend:variant`` name a user's spec stands for."""
    name, variant = split_spec(spec)
    return f"{name}:{variant or default_variant(name, family)}"


def get(spec: str, family: str) -> Backend:
    """A ready backend for a family; raises UnknownBackend / UnsupportedFamily / BackendUnavailable."""
    name, variant = split_spec(spec)
    module = _module(name)
    hint = module.available()
    if hint:
        raise BackendUnavailable(f"backend {name} is not usable: {hint}")
    if family not in module.DEFAULT_VARIANT:
        raise UnsupportedFamily(f"backend {name} has no translator for {family}")
    return module.make(family, variant or module.DEFAULT_VARIANT[family])


def preload(specs: Iterable[str], family: str) -> None:
    """Import the solvers ``specs`` need in this process, before runs are forked from it.

    Each run is a forked child; a child that imports OR-Tools itself pays about
    half a second per run, which in a campaign of thousands of small instances
    is most of the time.  Imported once in the parent, every child starts warm.
    Backends that cannot load are left alone: their runs report the error.
    """
    for name in dict.fromkeys(split_spec(spec)[0] for spec in specs):
        try:
            module = _module(name)
            if module.available() is None and hasattr(module, "preload"):
                module.preload(family)
        except Exception:  # noqa: BLE001 - the run itself reports it, with its own record
            continue


def breaks_symmetries(spec: str, family: str) -> bool:
    """Whether ``spec`` can run ``family`` with symmetry breaking (else it answers unknown)."""
    return family not in getattr(_module(split_spec(spec)[0]), "NO_SYMMETRY_BREAKING", ())


def variants(family: str, backends: tuple[str, ...] = BACKENDS) -> list[str]:
    """Every registered ``backend:variant`` for a family, defaults first per backend."""
    names = []
    for name in backends:
        module = _module(name)
        if family not in module.VARIANTS:
            continue
        default = module.DEFAULT_VARIANT[family]
        ordered = [default] + [v for v in module.VARIANTS[family] if v != default]
        names.extend(f"{name}:{v}" for v in ordered)
    return names


def expand(specs: list[str], family: str) -> list[str]:
    """Turn a --backends list into full names: ``pysat`` alone means all its variants."""
    out: list[str] = []
    for spec in specs:
        name, variant = split_spec(spec)
        if variant:
            out.append(f"{name}:{variant}")
        else:
            out.extend(variants(family, (name,)))
    return list(dict.fromkeys(out))


def describe_all(family: str) -> list[tuple[str, str, bool]]:
    """(name, description, is_default) for every registered variant of a family."""
    rows = []
    for name in BACKENDS + OPTIONAL_BACKENDS:
        module = _module(name)
        for variant, text in module.VARIANTS.get(family, {}).items():
            rows.append((f"{name}:{variant}", text, variant == module.DEFAULT_VARIANT.get(family)))
    return rows


__all__ = ["BACKENDS", "OPTIONAL_BACKENDS", "Backend", "BackendUnavailable", "UnknownBackend", "UnsupportedFamily", "get", "resolve", "variants", "expand"]
