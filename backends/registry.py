"""Names to backends: ``pysat``, ``pysat:totalizer``, ``clingo:count`` ...

A backend is declared one way, wherever it comes from (``backends/TEMPLATE/``
is the template to copy):

* a **backend module** exposes ``available() -> str | None`` (None when
  usable, else an install hint; it never raises), ``make(family, variant,
  translator) -> Backend`` (imports the solver lazily; ``get`` hands it the
  family's translator, so an engine never imports this module, which loads
  it), optionally ``preload(family)`` (imports the solver before runs are
  forked; ``preload`` here then imports the family's translator and calls its
  ``warm()``, if any), and
  what it is for, as constants: ``PORTFOLIO`` (``--backend auto`` races it,
  ``bench`` and ``mutate`` take it by default), ``OPTIONAL`` (left out of
  runs that do not name it: it needs something outside Python),
  ``BY_DEFAULT`` (False: a cross-check, a campaign and a counting bench run it
  only when named, though it needs nothing outside Python: it is slow or
  stops on many instances, and ``bench --portfolio`` still measures it),
  ``TASKS`` (the tasks ``bench --portfolio`` measures it for, so the only
  ones a default can give it), ``EXPORTS`` (the format ``trisolve export``
  writes from it) and ``MUTANTS`` (how ``trisolve mutate`` breaks its
  translators: ``"hooks"`` or ``"rules"``);
* **one translator per family**, a module whose ``CATALOG = Catalog(...)``
  (``backends/catalog.py``) declares its variants, default and abilities,
  beside ``encode`` (``make`` for dp) and, where the catalog says
  ``refuses``, ``refusal(level, options)``: the levels it will not take
  (``refusal`` here asks it; the defaults route such a level elsewhere).

A shipped backend is a folder ``backends/<name>/`` (a lower-case name): its
``__init__`` is the backend module and ``<family>.py`` its translators, found
by file name; the registry reads each ``CATALOG`` without importing the
translator, so listing backends never loads a solver.  A backend from
outside is the same module as an object, with its translators in a
``TRANSLATORS`` table (``{family: translator}``): a ``--plugin`` file calls
``register(name, module)``, an installed package names it in the entry-point
group ``trisolve.backends``.  A family added at run time gives a backend a
translator with ``register_translator``.  Neither may replace a shipped
backend or translator unless it says ``override=True``.

A name a user gives is a spec (``backends/spec.py``: ``Spec.parse`` reads
it, every function here takes a ``Spec`` or its text):
``backend:variant/orbits`` counts by orbits (``backends/orbits.py``);
``mutated:backend:variant~MUTATION`` is a shipped backend with one mutation
applied (``backends/mutated.py``, run by ``trisolve mutate``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from ..models.errors import TrisolveError, UsageError, shorten
from . import orbits
from .base import Backend, BackendUnavailable, Options, UnsupportedFamily
from .catalog import Catalog, read
from .spec import NAME, Spec

_HERE = os.path.dirname(os.path.abspath(__file__))
#: The tasks backends are measured and chosen for (a first solution, an exact count): ``bench --portfolio``'s,
#: ``selection/``'s.
TASKS: tuple[str, ...] = ("first", "count")
#: What a backend module may say of itself, and what it means when it says nothing.
ROLES: dict[str, Any] = {
    "PORTFOLIO": False,
    "OPTIONAL": False,
    "BY_DEFAULT": True,
    "TASKS": TASKS,
    "EXPORTS": None,
    "MUTANTS": None,
    "MIN_MEMORY": None,
}


class UnknownBackend(UsageError):
    """No backend of that name (shipped, registered or installed)."""


class PluginError(UsageError):
    """A plugin file, entry point or registered backend that cannot be used (the message says which and why)."""


#: Backends added at run time (users' own encodings via --plugin, the tests' mutants), by name.
_EXTRA: dict[str, Any] = {}
#: Translators added at run time: (backend, family) -> translator (a module or object with CATALOG).
_TRANSLATORS: dict[tuple[str, str], Any] = {}
#: Plugin files loaded in this process (absolute paths, in load order): an executor
#: whose workers are not forked from here (Dask) ships them to load there.
_PLUGIN_FILES: list[str] = []
#: Installed packages add backends through this entry-point group (name = backend name,
#: value = a module or object as ``register`` expects).
ENTRY_POINT_GROUP = "trisolve.backends"
_ENTRY_POINTS: dict[str, Any] | None = None


# ------------------------------------------------------------------ which backends there are


@cache
def shipped() -> tuple[str, ...]:
    """The backends that ship with trisolve, by name: each folder ``backends/<name>/`` whose
    ``__init__`` has ``make`` and ``available`` (``TEMPLATE`` is not one: the name is upper case)."""
    found = []
    for info in sorted(pkgutil.iter_modules([_HERE]), key=lambda info: info.name):
        if info.ispkg and info.name.isidentifier() and info.name == info.name.lower():
            module = importlib.import_module(f"{__package__}.{info.name}")
            if callable(getattr(module, "make", None)) and callable(getattr(module, "available", None)):
                found.append(info.name)
    return tuple(found)


def names() -> tuple[str, ...]:
    """Every backend that can be named: the shipped ones, then registered and installed ones."""
    known = shipped()
    return known + tuple(dict.fromkeys(n for n in [*_EXTRA, *_entry_points()] if n not in known))


def role(name: str, what: str) -> Any:
    """What backend ``name`` says of itself (``PORTFOLIO``, ``OPTIONAL``, ``EXPORTS``, ``MUTANTS``, ``MIN_MEMORY``)."""
    return getattr(_module(name), what, ROLES[what])


# ------------------------------------------------------------------ declaring backends from outside


def register(name: str, module: Any, *, override: bool = False) -> None:
    """Add backend ``name`` (a --plugin file, a test): ``module`` as the module docstring says, with its
    translators in ``TRANSLATORS``.  A shipped backend is replaced only with ``override=True``."""
    if not isinstance(name, str) or not NAME.match(name):
        raise PluginError(f"backend name {shorten(repr(name))}: use letters, digits, - and _ only")
    if name in shipped() and not override:
        raise PluginError(f"backend {name!r} ships with trisolve; a plugin replaces it only with override=True")
    translators = _checked_backend(name, module)
    _EXTRA[name] = module
    for key in [key for key in _TRANSLATORS if key[0] == name]:
        del _TRANSLATORS[key]  # a name registered again forgets the translators it had
    for family, translator in translators.items():
        _TRANSLATORS[name, family] = translator
    _clear_caches()


def register_translator(backend: str, family: str, translator: Any, *, override: bool = False) -> None:
    """Give ``backend`` a translator for ``family`` (a family added at run time; ``translator.CATALOG``, ``encode``).
    A shipped translator is replaced only with ``override=True``."""
    if _own_file(backend, family) is not None and not override:
        raise PluginError(
            f"backend {backend} ships a translator for {family}; a plugin replaces it only with override=True"
        )
    _check_translator(backend, family, translator)
    _TRANSLATORS[backend, family] = translator
    _clear_caches()


def unregister(name: str) -> None:
    """Forget a backend added at run time, and every translator added at run time for a family it had."""
    _EXTRA.pop(name, None)
    for key in [key for key in _TRANSLATORS if key[0] == name]:
        del _TRANSLATORS[key]
    _clear_caches()


def unregister_translator(backend: str, family: str) -> None:
    _TRANSLATORS.pop((backend, family), None)
    _clear_caches()


def _checked_backend(name: str, module: Any) -> dict[str, Any]:
    """The translators of a backend module from outside, after checking it has what a backend needs."""
    missing = [attribute for attribute in ("available", "make") if not callable(getattr(module, attribute, None))]
    if missing:
        raise PluginError(f"backend {name!r} has no {' and no '.join(f'{m}()' for m in missing)}")
    for what, default in ROLES.items():
        value = getattr(module, what, default)
        if what in ("PORTFOLIO", "OPTIONAL", "BY_DEFAULT") and not isinstance(value, bool):
            raise PluginError(f"backend {name!r}: {what} must be True or False")
        if what == "TASKS" and not (isinstance(value, tuple) and set(value) <= set(TASKS)):
            raise PluginError(f"backend {name!r}: TASKS must be a tuple of {', '.join(TASKS)}")
        if what == "MIN_MEMORY" and value is not None and (type(value) is not int or value < 1):
            raise PluginError(f"backend {name!r}: MIN_MEMORY must be None or a whole number of bytes, at least 1")
    translators = getattr(module, "TRANSLATORS", None)
    if not isinstance(translators, Mapping) or not translators:
        raise PluginError(f"backend {name!r} has no TRANSLATORS ({{family: translator with a CATALOG}})")
    for family, translator in translators.items():
        _check_translator(name, family, translator)
    return dict(translators)


def _check_translator(backend: str, family: str, translator: Any) -> None:
    if not isinstance(getattr(translator, "CATALOG", None), Catalog):
        raise PluginError(f"backend {backend!r}: its {family} translator has no CATALOG = Catalog(...)")


def _entry_points() -> dict[str, Any]:
    """Installed backends, by name (looked up once per process; loaded when first used)."""
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        from importlib.metadata import entry_points

        _ENTRY_POINTS = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in shipped()}
    return _ENTRY_POINTS


def _module(name: str) -> Any:
    if name in _EXTRA:
        return _EXTRA[name]
    if name in shipped():
        return importlib.import_module(f"{__package__}.{name}")
    if name in _entry_points():
        point = _entry_points()[name]
        try:
            module = point.load()
            register(name, module)
        except Exception as error:  # noqa: BLE001 - a broken installed plugin is reported, not a traceback
            raise PluginError(
                f"backend {name!r} from entry point {point.value!r} failed to load: "
                f"{type(error).__name__}: {shorten(error, 300)}"
            ) from None
        return module
    raise UnknownBackend(f"unknown backend {shorten(name)!r}; known: {', '.join(names())}")


def load_plugin(path: str) -> None:
    """Run a Python file that calls ``register`` (for --plugin); a file already loaded is not run again.

    The file is read as any input is (``models.files``: a regular file, at most ``MAX_PLUGIN_BYTES``,
    UTF-8), then run as a module named ``trisolve_plugin`` (as ``runpy.run_path`` would).  Whatever the
    file does wrong is a ``PluginError`` naming it: an exception, and ``sys.exit`` too (a plugin cannot
    end the command).
    """
    import builtins
    import sys
    import types

    from ..models import files

    path = os.path.abspath(path)
    if path in _PLUGIN_FILES:
        return
    try:
        source = files.read_text(path, what="Python plugin file", limit=files.MAX_PLUGIN_BYTES)
    except TrisolveError as problem:
        raise PluginError(f"{problem} (a --plugin file)") from None
    # as runpy.run_path runs it: a module of that name in sys.modules while it runs (dataclasses look it up)
    module = types.ModuleType("trisolve_plugin")
    module.__dict__.update(__file__=path, __builtins__=builtins, __loader__=None, __cached__=None)
    previous = sys.modules.get("trisolve_plugin")
    sys.modules["trisolve_plugin"] = module
    try:
        exec(compile(source, path, "exec"), module.__dict__)  # the user's own plugin, by design
    except SyntaxError as error:
        raise PluginError(f"{path}:{error.lineno}: {error.msg} (in a --plugin file)") from None
    except SystemExit as leaving:
        code = shorten(leaving.code)
        raise PluginError(
            f"{path}: called sys.exit({code}) while loading (a --plugin file cannot end the command)"
        ) from None
    except Exception as error:  # noqa: BLE001 - the user's file: say where, without our traceback
        raise PluginError(f"{path}: {type(error).__name__}: {shorten(error, 300)} (in a --plugin file)") from None
    finally:
        if previous is None:
            sys.modules.pop("trisolve_plugin", None)
        else:
            sys.modules["trisolve_plugin"] = previous
    _PLUGIN_FILES.append(path)


def plugin_files() -> tuple[str, ...]:
    """The plugin files this process loaded, for workers that must load them too."""
    return tuple(_PLUGIN_FILES)


# ------------------------------------------------------------------ catalogs and translators


def backend_of(spec: str | Spec) -> str:
    """The backend a spec runs in the end, without its variant: ``pysat`` for ``pysat:totalizer/orbits`` and for
    a mutated ``pysat:totalizer``.  Two specs with the same one are two variants of one opinion, not two."""
    return Spec.parse(spec).backend


@cache
def _own_file(name: str, family: str) -> Catalog | None:
    """The catalog of the family's own translator, read from its file (None: there is none): a module
    ``backends/<name>/<family>.py``, or a package ``backends/<name>/<family>/`` (one too large for a file: dp's
    Hexiom counter) whose ``__init__`` holds the ``CATALOG``."""
    for path in (os.path.join(_HERE, name, f"{family}.py"), os.path.join(_HERE, name, family, "__init__.py")):
        if os.path.isfile(path):
            return read(path)
    return None


@cache
def _generic(name: str) -> tuple[tuple[str, Catalog], ...]:
    """A shipped backend's generic translators (``Catalog.generic`` set): (module name, catalog), read from files."""
    folder = os.path.join(_HERE, name)
    found = []
    for file in sorted(os.listdir(folder)):
        stem = file[:-3]
        if file.endswith(".py") and stem.isidentifier() and not stem.startswith("_"):
            declared = read(os.path.join(folder, file))
            if declared is not None and declared.generic is not None:
                found.append((stem, declared))
    return tuple(found)


def _refusal(offered: Catalog, family: str) -> str | None:
    """Why a generic translator cannot take ``family`` (None: it can)."""
    from ..models import FAMILIES

    record = FAMILIES.get(family)
    if offered.generic == "asp":
        return None if record is not None and record.asp is not None else f"{family} has no rules of its own"
    if offered.generic == "constraints":
        if record is None or record.constraints is None:
            return f"{family} has no constraint model"
        missing = offered.missing(record.constraint_kinds)
        if missing:
            return f"its {family} model uses {', '.join(missing)}, which it cannot compile"
        return None
    return f"it needs {offered.generic}, which trisolve does not know"


def _generic_for(name: str, family: str) -> tuple[tuple[str, Catalog], ...]:
    """The generic translators of a shipped backend that take ``family`` (not cached: a family registered at
    run time changes the answer)."""
    return tuple((module, offered) for module, offered in _generic(name) if _refusal(offered, family) is None)


def left_out(name: str, family: str) -> list[str]:
    """Why each generic translator of backend ``name`` does not take ``family`` (for ``trisolve backends``)."""
    if name not in shipped():
        return []
    return [f"{name}:{module}: {why}" for module, offered in _generic(name) if (why := _refusal(offered, family))]


def _declared(name: str, family: str) -> Catalog | None:
    """A shipped backend's catalog for a family: its own translator's variants, then those of the generic ones
    that take the family (None: neither).  The default stays the family translator's."""
    if name not in shipped():
        return None
    parts = [found] if (found := _own_file(name, family)) is not None else []
    parts += [offered for _, offered in _generic_for(name, family)]
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    variants = {v: text for part in parts for v, text in part.variants.items()}
    return Catalog(
        default=first.default,
        variants=variants,
        symmetry_breaking=first.symmetry_breaking,
        count_only=first.count_only,
        cross_check=first.cross_check,
        refuses=first.refuses,
    )


def _variant_catalog(name: str, family: str, variant: str) -> Catalog | None:
    """The catalog of the translator that runs ``variant`` (a family's own, or a generic one)."""
    if name in shipped():
        encoding = Spec(name).with_variant(variant).variant
        for _, offered in _generic_for(name, family):
            if encoding in offered.variants:
                return offered
    return catalog(name, family)


@cache
def _catalog(name: str, family: str, record: int) -> Catalog | None:
    """Cached per family record (``record``, its id): a family registered again is read again."""
    if (name, family) in _TRANSLATORS:
        return _TRANSLATORS[name, family].CATALOG
    if name in shipped():
        return _declared(name, family)
    _module(name)  # unknown names are refused; an entry point registers its translators as it loads
    translator = _TRANSLATORS.get((name, family))
    return None if translator is None else translator.CATALOG


def _clear_caches() -> None:
    """Forget what was read of catalogs: a family or translator was added or removed at run time."""
    _catalog.cache_clear()


def catalog(name: str, family: str) -> Catalog | None:
    """What backend ``name`` offers for ``family`` (None: no translator), read without importing solvers."""
    from ..models import FAMILIES

    return _catalog(name, family, id(FAMILIES.get(family)))


def _required(name: str, family: str) -> Catalog:
    found = catalog(name, family)
    if found is None:
        raise UnsupportedFamily(f"backend {name} has no translator for {family}")
    return found


def translator(backend: str, family: str, variant: str | None = None) -> Any:
    """The translator of ``family`` for ``backend``: registered at run time, ``backends/<backend>/<family>.py``
    (or its package ``backends/<backend>/<family>/``), or, for a ``variant`` a generic translator offers
    (``compiled``), that one, made for the family."""
    if (backend, family) in _TRANSLATORS:
        return _TRANSLATORS[backend, family]
    if variant is not None and backend in shipped():
        encoding = Spec(backend).with_variant(variant).variant
        for module, offered in _generic_for(backend, family):
            if encoding in offered.variants:
                return importlib.import_module(f"{__package__}.{backend}.{module}").for_family(family)
    if _own_file(backend, family) is None:
        if _generic_for(backend, family):
            return translator(backend, family, _required(backend, family).default)
        raise UnsupportedFamily(f"backend {backend} has no translator for {family}")
    return importlib.import_module(f"{__package__}.{backend}.{family}")


def default_variant(name: str, family: str) -> str:
    return _required(name, family).default


def full(spec: str | Spec, family: str) -> Spec:
    """The spec with its variant filled in: the backend's default for the family when it names none (a mutated
    spec names its variant already)."""
    spec = Spec.parse(spec)
    if spec.variant is not None or spec.mutation is not None:
        return spec
    return spec.with_variant(default_variant(spec.backend, family))


def resolve(spec: str | Spec, family: str) -> str:
    """The full ``backend:variant`` name a user's spec stands for (``/orbits`` and ``mutated:`` kept)."""
    return str(full(spec, family))


def get(spec: str | Spec, family: str) -> Backend:
    """A ready backend for a family; raises UnknownBackend / UnsupportedFamily / BackendUnavailable / PluginError."""
    spec = Spec.parse(spec)
    if spec.orbits:
        found = catalog(spec.backend, family)
        if not breaks_symmetries(spec, family) or (found is not None and found.count_only):
            raise UnsupportedFamily(
                f"backend {spec.backend} lists no {family} lex-leaders, so it cannot count by orbits"
            )
        return orbits.OrbitExpansion(get(replace(spec, orbits=False), family), family)
    if spec.mutation is not None:
        from . import mutated  # trisolve mutate's alone: a plain run does not load it

        return mutated.MutatedBackend(family, spec, get(spec.plain, family))
    module = _module(spec.backend)
    hint = _ask(spec.backend, module.available)
    if hint:
        raise BackendUnavailable(f"backend {spec.backend} is not usable: {shorten(hint, 300)}")
    variant = spec.variant_name or _required(spec.backend, family).default
    return _ask(spec.backend, module.make, family, variant, translator(spec.backend, family, variant))


def available(name: str) -> str | None:
    """None when backend ``name`` can run here, else why not (its install hint)."""
    return _ask(name, _module(name).available)


def _ask(name: str, function: Callable[..., Any], *args: Any) -> Any:
    """Call a backend module's function; a plugin's that raises is a PluginError naming it, not a traceback.
    (A shipped backend's own errors propagate: they are trisolve's bugs, and a traceback finds them.)"""
    if name in shipped() and name not in _EXTRA:
        return function(*args)
    try:
        return function(*args)
    except TrisolveError:
        raise
    except Exception as error:  # noqa: BLE001 - someone else's code: say whose, and what it raised
        raise PluginError(
            f"backend {name!r}: {getattr(function, '__name__', 'a call')}() raised "
            f"{type(error).__name__}: {shorten(error, 300)}"
        ) from None


def preload(specs: Iterable[str | Spec], family: str) -> None:
    """Import the solvers ``specs`` need in this process, before runs are forked from it.

    Each run is a forked child; a child that imports OR-Tools itself pays about
    half a second per run, which in a campaign of thousands of small instances
    is most of the time.  Imported once in the parent, every child starts warm.
    A backend's ``preload`` imports its solver; the family's translator is
    imported here, after it, the same way for every backend that preloads, and
    a translator that keeps compiled code loads it with its ``warm()`` (dp's
    kernels).  Backends that cannot load are left alone: their runs report the error.
    """
    for name in dict.fromkeys(Spec.parse(spec).backend for spec in specs):
        try:
            module = _module(name)
            if _ask(name, module.available) is not None:
                continue
            if hasattr(module, "preload"):
                _ask(name, module.preload, family)
            found = translator(name, family)
            if callable(getattr(found, "warm", None)):
                found.warm()
        except Exception:  # noqa: BLE001 - the run itself reports it, with its own record
            continue


def breaks_symmetries(spec: str | Spec, family: str) -> bool:
    """Whether ``spec`` can run ``family`` with symmetry breaking (else it answers unknown)."""
    spec = Spec.parse(spec)
    if spec.variant is None:
        found = catalog(spec.backend, family)
    else:
        found = _variant_catalog(spec.backend, family, spec.variant_name)
    return found is None or found.symmetry_breaking


def refusal(spec: str | Spec, family: str, level: Any, options: Options) -> str | None:
    """Why ``spec`` will not run ``level`` as ``options`` ask (a level beyond what it can represent), or None
    when it will.  Only a translator whose catalog declares ``refuses`` is asked (and imported): choosing costs
    no solver import.  Its runs obey the same answer, so asking is a way to route a level, not a promise."""
    spec = Spec.parse(spec)
    if spec.variant is None:
        found = catalog(spec.backend, family)
    else:
        found = _variant_catalog(spec.backend, family, spec.variant_name)
    if found is None or not found.refuses:
        return None
    return _ask(spec.backend, translator(spec.backend, family, spec.variant_name).refusal, level, options)


def variants(family: str, backends: Iterable[str]) -> list[str]:
    """Every registered ``backend:variant`` of ``backends`` for a family, defaults first per backend (which
    backends run when none is named is the selection policy's to say: ``trisolve.selection``)."""
    found = []
    for name in backends:
        offered = catalog(name, family)
        if offered is not None:
            found.extend(str(Spec(name).with_variant(v)) for v in offered.ordered())
    return found


def expand(specs: Iterable[str | Spec], family: str) -> list[str]:
    """Turn a --backends list into full names: ``pysat`` alone means all its variants (with ``/orbits``, all that
    can count by orbits)."""
    out: list[str] = []
    for spec in map(Spec.parse, specs):
        if spec.variant is not None or spec.mutation is not None:
            out.append(str(spec))
        else:
            _module(spec.backend)  # an unknown name is refused here, not left out in silence
            offered = catalog(spec.backend, family)
            variants = [spec.with_variant(v) for v in (offered.ordered() if offered else ())]
            if spec.orbits:  # ``clingo/orbits``: the variants that list lex-leaders (a compiled one does not)
                variants = [v for v in variants if breaks_symmetries(v, family)]
            out.extend(map(str, variants))
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
    "Backend",
    "BackendUnavailable",
    "Catalog",
    "PluginError",
    "UnknownBackend",
    "UnsupportedFamily",
    "available",
    "catalog",
    "describe_all",
    "expand",
    "get",
    "left_out",
    "load_plugin",
    "names",
    "plugin_files",
    "preload",
    "register",
    "register_translator",
    "resolve",
    "role",
    "shipped",
    "translator",
    "unregister",
    "variants",
]
