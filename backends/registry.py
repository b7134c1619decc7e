"""Names to backends: ``pysat``, ``pysat:totalizer``, ``clingo:count`` ...

A shipped backend is a folder ``backends/<name>/`` whose ``__init__`` exposes,
without importing its solver library:

* ``make(family, variant) -> Backend`` — imports the solver lazily;
* ``available() -> str | None`` — None when usable, else an install hint;
* optionally ``preload(family)`` — import the solver library and the family's
  translator now (see ``preload`` below);

and one translator module per family, ``backends/<name>/<family>.py``, that
declares its variants, default and capabilities once, as ``CATALOG``
(``backends/catalog.py``).  The registry reads that declaration without
importing the translator, so listing backends stays light.

A backend added at run time (``register``: the tests' mutants, users' own
encodings via --plugin) is a module with ``make`` and ``available`` and
either ``catalog(family) -> Catalog | None`` or the tables ``VARIANTS``
(``{family: {variant: description}}``), ``DEFAULT_VARIANT`` (``{family:
variant}``) and optionally ``NO_SYMMETRY_BREAKING`` (a set of families).
A translator for a family added at run time is registered with
``register_translator``.  An installed package adds a backend without a
flag: an entry point in the group ``trisolve.backends`` (name: the backend's
name; value: such a module or object), found by name in every process.

``backend:variant/orbits`` counts by orbits (``backends/orbits.py``).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable
from functools import cache
from types import ModuleType

from ..models.errors import TrisolveError
from . import orbits
from .base import Backend, BackendUnavailable, UnsupportedFamily
from .catalog import Catalog, from_tables, read

#: Backends in the order tables show them; the cross-checker runs these by default.
BACKENDS: tuple[str, ...] = ("pysat", "clingo", "cpsat", "dp", "mip", "ganak")
#: Backends ``--backend auto`` races for a first solution: the three paradigms.
#: (``dp`` counts well but rebuilds a first solution slowly: docs/bench/timing-notes.md.)
PORTFOLIO: tuple[str, ...] = ("pysat", "clingo", "cpsat")
#: Backends that work only with something outside Python (``dimacs`` runs an
#: external SAT solver binary): known by name, never run unless asked for.
OPTIONAL_BACKENDS: tuple[str, ...] = ("dimacs",)
#: Backends trisolve itself runs by name and never lists: ``mutated`` (a shipped backend with
#: one mutation applied, for ``trisolve mutate``).
INTERNAL_BACKENDS: tuple[str, ...] = ("mutated",)

_HERE = os.path.dirname(os.path.abspath(__file__))


class UnknownBackend(ValueError):
    pass


#: Backends added at run time (mutants in the tests, users' own encodings via --plugin).
_EXTRA: dict[str, ModuleType] = {}
#: Translators added at run time, for families added at run time: (backend, family) -> module.
_TRANSLATORS: dict[tuple[str, str], ModuleType] = {}
#: Plugin files loaded in this process (absolute paths, in load order): an executor
#: whose workers are not forked from here (Dask) ships them to load there.
_PLUGIN_FILES: list[str] = []
#: Installed packages add backends through this entry-point group (name = backend name,
#: value = a module or object exposing what ``register`` expects).
ENTRY_POINT_GROUP = "trisolve.backends"
_ENTRY_POINTS: dict[str, object] | None = None


class PluginError(TrisolveError):
    """A plugin file or entry point could not be loaded (the message names which and why): exit code 2."""


def register(name: str, module: ModuleType) -> None:
    """Add a backend under ``name`` (see the module docstring for what ``module`` exposes)."""
    _EXTRA[name] = module


def register_translator(backend: str, family: str, module: ModuleType) -> None:
    """Give a backend a translator for a family registered at run time (``module.CATALOG``, ``encode`` ...)."""
    _TRANSLATORS[backend, family] = module


def _entry_points() -> dict[str, object]:
    """Installed backends, by name (looked up once per process; loaded when first used)."""
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        from importlib.metadata import entry_points

        _ENTRY_POINTS = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return _ENTRY_POINTS


def names() -> tuple[str, ...]:
    known = BACKENDS + OPTIONAL_BACKENDS
    extra = list(_EXTRA) + list(_entry_points())
    return known + tuple(dict.fromkeys(n for n in extra if n not in known + INTERNAL_BACKENDS))


def _module(name: str) -> ModuleType:
    if name in _EXTRA:
        return _EXTRA[name]
    if name in BACKENDS + OPTIONAL_BACKENDS + INTERNAL_BACKENDS:
        return importlib.import_module(f"{__package__}.{name}")
    if name in _entry_points():
        point = _entry_points()[name]
        try:
            module = point.load()
        except Exception as error:  # noqa: BLE001 - a broken installed plugin is reported, not a traceback
            raise PluginError(
                f"backend {name!r} from entry point {point.value!r} failed to load: {type(error).__name__}: {error}"
            ) from None
        _EXTRA[name] = module
        return module
    raise UnknownBackend(f"unknown backend {name!r}; known: {', '.join(names())}")


def load_plugin(path: str) -> None:
    """Run a Python file that calls ``register`` (for --plugin); a file already loaded is not run again."""
    import runpy

    path = os.path.abspath(path)
    if path in _PLUGIN_FILES:
        return
    try:
        runpy.run_path(path, run_name="trisolve_plugin")
    except SyntaxError as error:
        raise PluginError(f"{path}:{error.lineno}: {error.msg} (in a --plugin file)") from None
    except Exception as error:  # noqa: BLE001 - the user's file: say where, without our traceback
        raise PluginError(f"{path}: {type(error).__name__}: {error} (in a --plugin file)") from None
    _PLUGIN_FILES.append(path)


def plugin_files() -> tuple[str, ...]:
    """The plugin files this process loaded, for workers that must load them too."""
    return tuple(_PLUGIN_FILES)


def split_spec(spec: str) -> tuple[str, str | None]:
    name, _, variant = spec.partition(":")
    return name.strip(), (variant.strip() or None)


@cache
def _declared(name: str, family: str) -> Catalog | None:
    path = os.path.join(_HERE, name, f"{family}.py")
    return read(path) if os.path.isfile(path) else None


def catalog(name: str, family: str) -> Catalog | None:
    """What backend ``name`` offers for ``family`` (None: no translator), read without importing solvers."""
    if (name, family) in _TRANSLATORS:
        return _TRANSLATORS[name, family].CATALOG
    module = _module(name)
    if hasattr(module, "catalog"):
        return module.catalog(family)
    if hasattr(module, "VARIANTS"):
        return from_tables(module, family)
    return _declared(name, family)


def _catalog(name: str, family: str) -> Catalog:
    found = catalog(name, family)
    if found is None:
        raise UnsupportedFamily(f"backend {name} has no translator for {family}")
    return found


def translator(backend: str, family: str) -> ModuleType:
    """The module that translates ``family`` for ``backend``: ``backends/<backend>/<family>.py``."""
    if (backend, family) in _TRANSLATORS:
        return _TRANSLATORS[backend, family]
    name = f"{__package__}.{backend}.{family}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name in (name, f"{__package__}.{backend}"):
            raise UnsupportedFamily(f"backend {backend} has no translator for {family}") from None
        raise


def default_variant(name: str, family: str) -> str:
    return _catalog(name, family).default


def resolve(spec: str, family: str) -> str:
    """The full ``backend:variant`` name a user's spec stands for (``/orbits`` kept: see backends/orbits.py)."""
    spec, by_orbits = orbits.split(spec)
    name, variant = split_spec(spec)
    return f"{name}:{variant or default_variant(name, family)}" + (orbits.SUFFIX if by_orbits else "")


def get(spec: str, family: str) -> Backend:
    """A ready backend for a family; raises UnknownBackend / UnsupportedFamily / BackendUnavailable."""
    spec, by_orbits = orbits.split(spec)
    if by_orbits:
        name = split_spec(spec)[0]
        found = catalog(name, family)
        if not breaks_symmetries(spec, family) or (found is not None and found.count_only):
            raise UnsupportedFamily(f"backend {name} lists no {family} lex-leaders, so it cannot count by orbits")
        return orbits.OrbitExpansion(get(spec, family), family)
    name, variant = split_spec(spec)
    module = _module(name)
    hint = module.available()
    if hint:
        raise BackendUnavailable(f"backend {name} is not usable: {hint}")
    offered = _catalog(name, family)
    return module.make(family, variant or offered.default)


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
    found = catalog(split_spec(orbits.split(spec)[0])[0], family)
    return found is None or found.symmetry_breaking


def variants(family: str, backends: tuple[str, ...] = BACKENDS) -> list[str]:
    """Every registered ``backend:variant`` for a family, defaults first per backend."""
    found = []
    for name in backends:
        offered = catalog(name, family)
        if offered is not None:
            found.extend(f"{name}:{v}" for v in offered.ordered())
    return found


def expand(specs: list[str], family: str) -> list[str]:
    """Turn a --backends list into full names: ``pysat`` alone means all its variants."""
    out: list[str] = []
    for spec in specs:
        spec, by_orbits = orbits.split(spec)
        name, variant = split_spec(spec)
        suffix = orbits.SUFFIX if by_orbits else ""
        if variant:
            out.append(f"{name}:{variant}{suffix}")
        else:
            out.extend(full + suffix for full in variants(family, (name,)))
    return list(dict.fromkeys(out))


def describe_all(family: str) -> list[tuple[str, str, bool]]:
    """(name, description, is_default) for every registered variant of a family."""
    rows = []
    for name in names():
        offered = catalog(name, family)
        for variant, text in offered.variants.items() if offered else ():
            rows.append((f"{name}:{variant}", text, variant == offered.default))
    return rows


__all__ = [
    "BACKENDS",
    "OPTIONAL_BACKENDS",
    "Backend",
    "BackendUnavailable",
    "Catalog",
    "UnknownBackend",
    "UnsupportedFamily",
    "PluginError",
    "catalog",
    "get",
    "load_plugin",
    "plugin_files",
    "register",
    "register_translator",
    "resolve",
    "translator",
    "variants",
    "expand",
]
