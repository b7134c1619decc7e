"""The shape every puzzle family has, so the CLI and the cross-checker need no special cases.

A family is a module with a parser, a validator, a renderer and a way to turn
solutions into JSON and canonical keys.  ``Family`` bundles those functions
and the facts the commands would otherwise hard-code (file suffix, fallback
backend, render options, generator and its size parameters);
``models.FAMILIES`` lists the known families by name, and ``models.register``
adds one at run time.  See docs/adding-a-family.md.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


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
    #: (level, solution or None) -> an SVG picture (models/pictures.py; the drawing library loads on first use)
    picture: Callable[[Any, Any], str] | None = None
    #: (level, solutions found, complete, count) -> the answers to the level's questions, each with ``text()``,
    #: ``to_json()`` and whether it is ``determined`` (no solution gives another): logic grids ask questions
    answers: Callable[..., Sequence[Any]] | None = None
    #: the suffix generated and minimised level files get
    suffix: str = ".txt"
    #: the fallback ``trisolve solve`` uses without --backend while the measured portfolio table
    #: (backends/portfolio.json, ``backends/defaults.py``) does not know the family, or none of its backends runs
    default_backend: str = "pysat"
    #: keyword options ``render`` accepts beyond (level, solution); "colour" is the only one the CLI knows
    render_options: tuple[str, ...] = ()
    #: "module:function" of the generator, ``function(seed, unique=..., name=..., **sizes) -> Generated``
    generator: str | None = None
    #: the generator's size parameters
    generator_parameters: tuple[Parameter, ...] = ()
    #: whether every generated level is unique, asked or not
    always_unique: bool = False
    #: level -> its constraint model (``trisolve.constraints.Model``): the rules stated once, which every backend
    #: with a ``compiled`` translator compiles (None: the family has none)
    constraints: Callable[[Any], Any] | None = None
    #: the constraint kinds that model uses (``trisolve.constraints.KINDS``), declared so that the registry can
    #: tell which compilers take the family without building a model; a test checks it against the shipped levels
    constraint_kinds: frozenset[str] = frozenset()
