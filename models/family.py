"""The shape every puzzle family has, so the commands, the cross-checker and the benchmark need no special cases.

A family is a package ``models/<family>/``: its model (parser, validator,
renderer, a way to turn solutions into JSON and canonical keys), its picture,
its generator, and one ``FAMILY = Family(...)`` record in its ``__init__``.
The record bundles those functions and every fact the layers above would
otherwise hard-code about the family: the file suffix, the fallback backend,
render options, the generator and its sizes, the sizes ``bench --portfolio``
grows through (``Ladder``), the backends a default cross-check runs and the
backend its generator counts with.  ``models.FAMILIES`` finds the packages by
folder; ``models.register`` adds a family at run time.  See docs/adding-a-family.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .records import AspRules, Generated, UrlFormat

#: A web address (``https://...``): what a command reads as a link, not as a file name.
ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S*", re.ASCII)


def is_address(text: str) -> bool:
    """Whether an argument is a web address (a puzz.link link) rather than a file name."""
    return ADDRESS.fullmatch(text) is not None


@dataclass(frozen=True)
class Parameter:
    """One size parameter of a family's generator; ``trisolve generate`` offers it as ``--<name>``."""

    name: str  # the generator's keyword argument
    kind: type  # int or float
    low: float
    high: float
    help: str
    low_open: bool = False  # low itself is not allowed


@dataclass(frozen=True)
class Rung:
    """One generated size of ``bench --portfolio``: the generator's size keywords and the size they make."""

    size: int
    parameters: Mapping[str, int]

    @property
    def label(self) -> str:
        return "x".join(str(v) for v in self.parameters.values())


@dataclass(frozen=True)
class Ladder:
    """A family's growing sizes for ``bench --portfolio``, and how a level's size is measured (the same unit
    for shipped levels)."""

    unit: str
    measure: Callable[[Any], int]
    rungs: tuple[Rung, ...]
    #: ask the generator for levels with one solution (Hexiom levels without locks have millions)
    unique: bool = False


class SolutionCounter(Protocol):
    """What a generator counts solutions with, handed to it by the layer above (the models import no solver):
    ``(count, complete, solutions)`` of ``level`` with at most ``limit`` solutions within ``time`` seconds.  A
    complete count of 1 proves a level unique; an incomplete one proves nothing."""

    def __call__(self, level: Any, limit: int, time: float) -> tuple[int, bool, tuple]: ...


@dataclass(frozen=True)
class Family:
    name: str
    #: path -> level; raises LevelSyntaxError naming file and line
    parse: Callable[[str], Any]
    #: (text, file) -> level: a level given as text (``trisolve.load`` of a string); errors name ``file``
    parse_text: Callable[[str, str], Any]
    #: (level, solution) -> list of violations; empty means valid
    validate: Callable[[Any, Any], list]
    #: (level, solution or None) -> text
    render: Callable[..., str]
    #: (level, solution) -> hashable key equal for equal solutions
    canonical: Callable[[Any, Any], Hashable]
    #: (level, json dict) -> solution
    solution_from_json: Callable[[Any, Mapping], Any]
    #: level -> one-line summary
    describe: Callable[[Any], str]
    #: level file text -> True when this family's format (first meaningful line decides)
    sniff: Callable[[str, str], bool]
    #: (level) -> symmetries as permutations of the solution's variables, identity first
    symmetries: Callable[[Any], Sequence] | None = None
    #: (level, solution) -> the solution's images under every one of those symmetries (repeats included)
    images: Callable[[Any, Any], Sequence] | None = None
    #: (level, solution) -> key of the solution's orbit under those symmetries
    orbit_representative: Callable[[Any, Any], Hashable] | None = None
    #: (level, solution) -> is it the lex-leader of its orbit
    is_lex_leader: Callable[[Any, Any], bool] | None = None
    #: level -> file text in the family's own format (minimiser, generators)
    format_level: Callable[[Any], str] | None = None
    #: level -> smaller variants of it, for the minimiser
    shrink: Callable[[Any], list] | None = None
    #: level -> why it plainly has no solution (e.g. areas differ), or None: callers may report
    #: "no solution" without running a solver (translators give an immediate unsat anyway)
    obstruction: Callable[[Any], str | None] | None = None
    #: (level, solution or None) -> an SVG picture (the family's picture.py; the drawing library loads on first use)
    picture: Callable[[Any, Any], str] | None = None
    #: (level, constraint model, ``pictures.StepMarks``) -> an SVG of the board after one step of an explanation
    #: (``trisolve explain --svg``): what is known, the new fact and the clues and facts the step used highlighted
    #: (None: explain draws the table of the model's variables, the same for every family)
    step_picture: Callable[[Any, Any, Any], str] | None = None
    #: (level, solutions found, complete, count) -> the answers to the level's questions, each with ``text()``,
    #: ``to_json()`` and whether it is ``determined`` (no solution gives another): logic grids ask questions
    answers: Callable[..., Sequence[Any]] | None = None
    #: the suffix generated and minimised level files get
    suffix: str = ".txt"
    #: the fallback ``trisolve solve`` uses without --backend while the measured portfolio table
    #: (selection/portfolio.json, ``selection/``) does not know the family, or none of its backends runs
    default_backend: str = "pysat"
    #: keyword options ``render`` accepts beyond (level, solution); "colour" is the only one the CLI knows
    render_options: tuple[str, ...] = ()
    #: the generator, ``generate(request, **sizes) -> Generated``: ``request`` (a ``Request``) holds what every
    #: generator is asked alike (seed, counter, uniqueness, name, time), ``sizes`` its own ``generator_parameters``
    generate: Callable[..., Generated] | None = None
    #: the generator's size parameters
    generator_parameters: tuple[Parameter, ...] = ()
    #: whether every generated level is unique, asked or not
    always_unique: bool = False
    #: the generated sizes ``bench --portfolio`` measures on, smallest first (None: shipped levels only)
    ladder: Ladder | None = None
    #: the backends (bare names: each one's default variant) a cross-check runs when none is named, chosen so
    #: that it ends in minutes (None: every variant whose catalog says ``cross_check``)
    crosscheck: tuple[str, ...] | None = None
    #: the backend the generator's ``counter`` runs (in process; it must list solutions: a uniqueness check
    #: looks at the second one)
    counting_backend: str = "pysat"
    #: level -> its constraint model (``trisolve.constraints.Model``): the rules stated once, which every backend
    #: with a ``compiled`` translator compiles (None: the family has none)
    constraints: Callable[[Any], Any] | None = None
    #: the constraint kinds that model uses (``trisolve.constraints.KINDS``), declared so that the registry can
    #: tell which compilers take the family without building a model; a test checks it against the shipped levels
    constraint_kinds: frozenset[str] = frozenset()
    #: the family's own hand-written ASP rules (clingo's variant ``hand``), or None
    asp: AspRules | None = None
    #: how the family reads and writes its puzzles as web addresses, or None
    url: UrlFormat | None = None


#: The records only some families or commands use (a hand-written ASP program, a link format, a generated level
#: and what its generator is asked): made in ``records.py`` the first time one is asked for here, so that solving a
#: file does not create them.
_ON_FIRST_USE = ("AspRules", "UrlFormat", "Generated", "Request")


def __getattr__(name: str) -> Any:
    if name in _ON_FIRST_USE:
        from . import records

        return getattr(records, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def first_line(text: str) -> str:
    """The first line of a level file that is neither blank nor a comment (what most ``sniff`` functions read)."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped
    return ""


def from_model(name: str, model: ModuleType, **declared: Any) -> Family:
    """A family whose model module names its functions the usual way (``parse``, ``parse_text``, ``validate``,
    ``render``, ``canonical``, ``solution_from_json``, ``describe``, ``format_level``, ``shrink_candidates``):
    those come from the module, ``declared`` holds what differs from family to family."""
    return Family(
        name=name,
        parse=model.parse,
        parse_text=lambda text, file: model.parse_text(text, file=file),
        validate=model.validate,
        render=model.render,
        canonical=model.canonical,
        solution_from_json=model.solution_from_json,
        describe=model.describe,
        format_level=getattr(model, "format_level", None),
        shrink=getattr(model, "shrink_candidates", None),
        **declared,
    )
