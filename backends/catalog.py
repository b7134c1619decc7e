"""What one backend offers for one family, declared once beside its translator.

Each translator module (``backends/<backend>/<family>.py``) starts with::

    CATALOG = Catalog(
        default="count",
        variants={"count": "one line: what this encoding does", ...},
    )

(``symmetry_breaking`` and ``count_only`` say what its runs can do;
``cross_check=False`` keeps it out of the cross-checker's unnamed set;
``refuses=True`` says the module has ``refusal(level, options)``, which names
the levels its representation cannot hold.)  That
one declaration is read two ways: the engine imports the module and
uses ``CATALOG`` as an object; the registry, ``trisolve backends`` and
``--help`` read the same lines *without* importing the module (``read``
parses the file), because a translator imports its solver library and
OR-Tools alone costs most of a second.  So ``CATALOG = Catalog(...)`` must
hold literals only (strings, booleans, a dict of strings).  A generic
translator that compiles every kind of constraint says so by name,
``supports="every kind"`` (``EVERY_KIND``), rather than by a list each of
them would have to keep equal to ``trisolve.constraints.KINDS``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..models.errors import UsageError, shorten

if TYPE_CHECKING:
    from ..constraints.model import Model
    from .base import Options

#: ``supports=EVERY_KIND``: the translator compiles every kind of constraint there is (``KINDS``; a kind added
#: there is claimed by each such translator at once, and their tests run every kind through them).
EVERY_KIND = "every kind"


class UnknownVariant(UsageError):
    """A ``backend:variant`` whose variant the backend's catalog does not list."""


@dataclass(frozen=True)
class Catalog:
    """A (backend, family) pair's registered variants, its default and what its runs can do."""

    #: the measured fastest variant; listed first wherever variants are listed
    default: str
    #: variant -> one-line description: the configurations the cross-checker runs by default
    variants: Mapping[str, str] = field(default_factory=dict)
    #: whether runs can keep one solution per symmetry class (else they answer unknown)
    symmetry_breaking: bool = True
    #: whether enumerations report a count without listing the solutions (dp)
    count_only: bool = False
    #: whether a cross-check or a campaign runs these variants when no backend is named (False: the family has
    #: instances out of the translator's reach, e.g. exactcover on large logic grids: it runs only when named;
    #: tests and ``bench --portfolio`` take it still)
    cross_check: bool = True
    #: whether some levels are beyond what its runs can represent: then the translator module has
    #: ``refusal(level, options) -> str | None`` (why not, or None), which its runs obey (they answer unknown with
    #: that reason, never a count) and which the defaults ask before choosing it (``registry.refusal``)
    refuses: bool = False
    #: a generic translator (one file serving every family that has what it needs, ``backends/<b>/compiled.py``):
    #: what a family must offer, "constraints" (a constraint model) or "asp" (its own ASP rules, ``Family.asp``:
    #: ``backends/clingo/hand.py``); None: a translator of one family
    generic: str | None = None
    #: for a generic translator of constraint models: the constraint kinds it compiles
    #: (``trisolve.constraints.KINDS``), or ``EVERY_KIND`` for all of them (read as ``KINDS``); a family whose
    #: model uses another kind is left out, with the reason
    supports: tuple[str, ...] | str = ()

    def __post_init__(self) -> None:
        if isinstance(self.supports, str) and self.supports != EVERY_KIND:
            raise ValueError(f"supports is a tuple of constraint kinds or {EVERY_KIND!r}, not {self.supports!r}")
        if self.default not in self.variants:
            raise ValueError(f"default variant {self.default!r} is not among {', '.join(self.variants)}")

    def kinds(self) -> tuple[str, ...]:
        """The constraint kinds this translator compiles (``EVERY_KIND`` read as ``trisolve.constraints.KINDS``)."""
        if self.supports == EVERY_KIND:
            from ..constraints.model import KINDS  # only here: a hand translator's run needs no model layer

            return KINDS
        return tuple(self.supports)

    def missing(self, kinds: Iterable[str]) -> list[str]:
        """The kinds among ``kinds`` this translator cannot compile, sorted (none when it takes every kind: then
        nothing is imported, so listing the variants of a backend costs no model layer)."""
        return [] if self.supports == EVERY_KIND else sorted(set(kinds) - set(self.supports))

    def ordered(self) -> list[str]:
        """The variants, default first."""
        return [self.default] + [v for v in self.variants if v != self.default]

    def require(self, variant: str, backend: str, family: str) -> None:
        """Refuse a variant this catalog does not list, naming the ones it does."""
        if variant not in self.variants:
            raise UnknownVariant(
                f"{backend} has no variant {shorten(variant)!r} for {family}; known: {', '.join(self.variants)}"
            )


@dataclass(frozen=True)
class ModelCompiler:
    """A generic compiler of constraint models (``backends/<backend>/compiled.py``, ``generic="constraints"``) as
    one family's translator (``registry.translator``).  ``encode`` refuses a variant ``CATALOG`` does not list,
    takes the family's constraint model of the level, its kinds checked against ``CATALOG.kinds()`` and open to
    ``trisolve mutate`` (``constraints.compiling.model_of``), and hands it to ``compile``: the backend's own
    translation, all that its subclass states besides ``BACKEND`` and ``CATALOG``."""

    family: str
    BACKEND: ClassVar[str]
    CATALOG: ClassVar[Catalog]

    def encode(self, level: Any, variant: str, options: Options) -> Any:
        # imported here: this module is read whenever a backend's variants are listed, a compiler's run is rarer
        from ..constraints.compiling import model_of
        from . import mutation

        self.CATALOG.require(variant, self.BACKEND, self.family)
        compiler = f"{self.BACKEND}:{variant}"
        model = model_of(self.family, level, self.CATALOG.kinds(), compiler, mutation.apply_to_model)
        return self.compile(model, variant, options)

    def compile(self, model: Model, variant: str, options: Options) -> Any:
        """The backend's encoding of ``model`` under ``variant``."""
        raise NotImplementedError


def read(path: str) -> Catalog | None:
    """The ``CATALOG = Catalog(...)`` of a translator file, without importing it (None if it has none).

    Only the declaration's own lines are parsed (from ``CATALOG`` to the first line that closes it),
    not the whole translator: listing backends reads a dozen files.
    """
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    # looked for in the text, not line by line: listing a backend's catalogs reads every file of its folder
    at = 0 if text.startswith("CATALOG") else text.find("\nCATALOG") + 1
    if at == 0 and not text.startswith("CATALOG"):
        return None
    first = text.count("\n", 0, at)  # the declaration's line, counted from 0
    lines = text[at:].split("\n")
    tree = None
    for end in range(len(lines)):
        if end == 0 or lines[end].startswith(")"):
            try:
                tree = ast.parse("\n" * first + "\n".join(lines[: end + 1]), filename=path)
                break
            except SyntaxError:
                continue
    if tree is None:
        raise ValueError(f"{path}:{first + 1}: CATALOG must be Catalog(keyword=literal, ...), closed by ')'")
    for node in tree.body:
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == "CATALOG":
            if not (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id == "Catalog"
                and not value.args
            ):
                raise ValueError(f"{path}:{node.lineno}: CATALOG must be Catalog(keyword=literal, ...)")
            try:
                fields = {k.arg: ast.literal_eval(k.value) for k in value.keywords}
            except ValueError:
                raise ValueError(f"{path}:{node.lineno}: CATALOG must hold literals only") from None
            return Catalog(**fields)
    return None
