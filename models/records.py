"""The records of ``family.py`` that only some families or commands use: a family's own answer-set program
(``AspRules``), its puzzles written as web addresses (``UrlFormat``), a generated level (``Generated``) and what a
generator is asked (``Request``).

They are reached as ``trisolve.models.family.AspRules`` and so on; this module is imported the first time one
of them is asked for there.  Creating a frozen dataclass costs Python a fraction of a millisecond (it compiles
the class's generated methods), and a command that solves one Hexiom level uses none of these.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class AspRules:
    """A family's own answer-set program, written by hand beside its model, independent of any translator.

    ``rules`` is a real ``.lp`` file a person can run with the ``clingo`` command next to the facts
    ``facts(level)`` writes (integers only: nothing a user typed reaches the program).  The rules'
    ``#show`` statements are the projection: answer sets differing only in hidden atoms are one solution.
    ``decode(level, atoms)`` turns a model's shown atoms, each a plain tuple ``(name, int, ...)``, into the
    family's Solution.  The clingo backend offers these rules as its variant ``hand``
    (``backends/clingo/hand.py``) for every family that declares them.
    """

    rules: str  # absolute path of the .lp file
    facts: Callable[[Any], str]
    decode: Callable[[Any, Sequence[tuple]], Any]


@dataclass(frozen=True)
class UrlFormat:
    """A family's puzzles written as web addresses (a puzz.link link): read, and written back.

    The loader hands an argument that ``is_address`` to the family whose ``genres`` hold the genre
    ``genre(address)`` finds in it; ``parse`` reads it (errors name "the URL" and the position),
    ``write`` gives a level's own address back (``trisolve export --format <format>``).
    """

    format: str  # the export format's name, e.g. "puzzlink"
    genres: tuple[str, ...]  # the genre names in addresses this family reads
    #: address -> (the genre it names, its 1-based position), or None: not an address of this format
    genre: Callable[[str], tuple[str, int] | None]
    parse: Callable[[str], Any]
    write: Callable[[Any], str]
    #: what an address of this format looks like, for messages
    example: str = ""


@dataclass(frozen=True)
class Request:
    """What the layer above asks of a family's generator, alike for every family; the generator's own sizes
    (``Family.generator_parameters``) come beside it as keywords.

    The same ``seed`` always gives the same level.  ``counter`` (a ``SolutionCounter``) is how the generator
    counts solutions: the models import no solver.  With ``unique`` the level must be proved to have exactly one
    solution, each count taking at most ``time`` seconds; ``name`` is written into the level where its format has
    a place for one."""

    seed: int
    counter: Any
    unique: bool = False
    name: str = ""
    time: float = 30.0


@dataclass(frozen=True)
class Generated:
    """A generated level, the solution it was built around, and how it was made."""

    family: str
    level: Any
    text: str  # the level in the family's own file format
    solution: Any  # the intended solution (valid by construction)
    seed: int
    unique: bool  # proved to have exactly one solution
    info: Mapping[str, Any] = field(default_factory=dict)  # e.g. {"locks": 3}
