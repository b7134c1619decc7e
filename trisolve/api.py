"""trisolve as a library: the functions the ``trisolve`` command is a thin layer over.

One function per command: ``solve`` (and ``solve_many``), ``cross_check``,
``benchmark``, ``render`` (with ``read_solution``), ``export``,
``list_backends``, ``generate_levels``, ``campaign``, ``mutate``; and
``load`` for levels.  Every number is checked as the command line checks it
(``backends/numbers.py``), and bad input or usage raises ``UsageError``
(exit code 2 on the command line; docs/exit-codes.md).

``import trisolve`` loads none of this (nor any solver): the package's
``__getattr__`` imports this module on first use of ``trisolve.load`` and
friends, and the solvers load only when a run needs them.

>>> import trisolve
>>> level = trisolve.load("levels/hexiom/level01.txt")
>>> level.family, level.name
('hexiom', 'level01')
>>> result = trisolve.solve(level, backend="pysat", count=True)
>>> result.status, result.count, result.complete, result.count_text
('sat', 12, True, '12')
>>> listed = trisolve.solve(level, backend="pysat", all=True)
>>> [s.violations() for s in listed.solutions] == [[]] * 12
True
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES, address_list, check_address_list, detect_family, is_address
from trisolve.models.errors import LevelSyntaxError, TrisolveError, UsageError, shorten
from trisolve.models.family import Family

if TYPE_CHECKING:  # imported lazily at run time: they load multiprocessing machinery
    from trisolve.bench.runner import BenchRun
    from trisolve.crosscheck.compare import Verdict
    from trisolve.crosscheck.mutate import Report as MutationReport
    from trisolve.runs import RunRecord
    from trisolve.selection import Selection


# ------------------------------------------------------------------ levels and solutions


@dataclass(frozen=True)
class Level:
    """A parsed puzzle instance of one family; ``model`` is the family's own level object."""

    family: str
    model: Any = field(repr=False)
    path: str | None = None
    #: seconds spent reading and parsing (reported as the ``parse`` phase of a solve)
    parse_time: float = field(default=0.0, compare=False, repr=False)

    @property
    def kind(self) -> Family:
        """The family's functions (parser, validator, renderer, ...)."""
        return FAMILIES[self.family]

    @property
    def name(self) -> str:
        return getattr(self.model, "name", "") or (
            os.path.splitext(os.path.basename(self.path))[0] if self.path else ""
        )

    def describe(self) -> str:
        """One line: size, pieces, clues."""
        return self.kind.describe(self.model)

    def render(self, **options: Any) -> str:
        """The puzzle as text (sigils take ``colour=True``)."""
        return self.kind.render(self.model, None, **options)

    def __str__(self) -> str:
        return self.render().rstrip("\n")

    def picture(self) -> str:
        """The level as an SVG picture: locked and blocked cells, the empty frame and its pieces, the clues."""
        return self.kind.picture(self.model, None)

    def _repr_svg_(self) -> str:  # notebooks show the picture
        return self.picture()

    def solution(self, data: Mapping[str, Any]) -> Solution:
        """A solution of this level from its JSON form (``Solution.to_json``, ``solve --json``)."""
        return Solution(self, self.kind.solution_from_json(self.model, data))

    @property
    def run_path(self) -> str:
        """What runs and reports call this level: its file, or ``<name>`` for text."""
        return self.path or f"<{self.name or 'string'}>"


@dataclass(frozen=True)
class Solution:
    """One solution of a level; printing it draws the solved board, grid or tiling."""

    level: Level = field(repr=False, compare=False)
    model: Any

    def render(self, **options: Any) -> str:
        """The solved puzzle as text (sigils take ``colour=True``)."""
        return self.level.kind.render(self.level.model, self.model, **options)

    def __str__(self) -> str:
        return self.render().rstrip("\n")

    def picture(self) -> str:
        """The solved board, tiling or grid as an SVG picture."""
        return self.level.kind.picture(self.level.model, self.model)

    def _repr_svg_(self) -> str:  # notebooks show the picture
        return self.picture()

    def to_json(self) -> dict:
        return self.model.to_json()

    def violations(self) -> list[str]:
        """The family validator's verdict: rules this solution breaks (empty when valid)."""
        return [v.message for v in self.level.kind.validate(self.level.model, self.model)]


def load(path_or_text: str | os.PathLike, family: str | None = None) -> Level:
    """Parse an instance file, or an instance given as text.

    A ``pathlib.Path`` (any ``os.PathLike``) is always a file; a ``str`` is
    text when it holds a line break (every instance format has more than one
    line) and a file name otherwise.  A file whose name holds a line break is
    given as a ``pathlib.Path``.  The family is told by the file's folder,
    then by its content (logic grids given as text need ``family="logic"``).

    Bad input raises ``LevelSyntaxError`` (a ``UsageError``) naming file and line.
    """
    started = time.monotonic()
    text = os.fspath(arguments.path(path_or_text, "path_or_text") or "")
    kind = _family(arguments.text(family, "family")) if family else None
    if isinstance(path_or_text, os.PathLike) or "\n" not in text:
        # the reader refuses missing, special and oversized files (models.files.read_instance_text)
        kind = kind or detect_family(text)
        model, path = kind.parse(text), text
    else:
        kind = kind or _sniff(text)
        model, path = kind.parse_text(text, "<string>"), None
    return Level(kind.name, model, path, parse_time=time.monotonic() - started)


def family_of(path: str | os.PathLike, family: str | None = None) -> Family:
    """The family of an instance file (``family`` if given), without parsing it."""
    return _family(family) if family else detect_family(os.fspath(path))


def _family(name: str) -> Family:
    if name not in FAMILIES:
        raise UsageError(f"unknown family {shorten(name)!r}; known: {', '.join(FAMILIES)}")
    return FAMILIES[name]


def _sniff(text: str) -> Family:
    for kind in FAMILIES.values():
        if kind.sniff("<string>", text):
            return kind
    raise LevelSyntaxError(
        "<string>", None, f"cannot tell which puzzle family this text is (known: {', '.join(FAMILIES)}); give family="
    )


def named(argument: str | os.PathLike) -> str | os.PathLike:
    """An instance argument as ``load`` takes it: a web address (a puzz.link link) as it is, anything else as a
    file name (``FileName``: a file whose name holds a line break is still a file; a path would fold a link's
    ``//``)."""
    if isinstance(argument, str) and is_address(argument):
        return argument
    return FileName(argument)


class FileName(os.PathLike):
    """A file name that is always a file (``os.PathLike``), spelt as ``pathlib.PurePosixPath`` spells it (``./a//b/``
    is ``a/b``), without importing ``pathlib`` (with ``urllib.parse`` and ``fnmatch`` it costs a solve's start-up
    milliseconds)."""

    __slots__ = ("_text",)

    def __init__(self, name: str | os.PathLike) -> None:
        text = os.fspath(name)
        root = "//" if text.startswith("//") and not text.startswith("///") else "/" if text.startswith("/") else ""
        self._text = root + "/".join(part for part in text.split("/") if part not in ("", ".")) or "."

    def __fspath__(self) -> str:
        return self._text

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"FileName({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FileName) and other._text == self._text

    def __hash__(self) -> int:
        return hash(self._text)


def instance_files(paths: Iterable[str | os.PathLike]) -> list[str]:
    """Files named, and instance files inside named folders (sorted), for many-instance runs.

    A web address is an instance of its own; a file listing web addresses, one per line, is a collection of
    them, as a folder is of its files (every link is read first: a bad one is refused at its line)."""
    found: list[str] = []
    for path in map(os.fspath, paths):
        if is_address(path):
            found.append(path)
        elif os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.startswith(".") or name.endswith((".json", ".jsonl", ".md")):
                        continue
                    found.extend(_listed(os.path.join(root, name)))
        elif os.path.lexists(path):  # a broken link or a loop is the reader's to explain
            found.extend(_listed(path))
        else:
            raise UsageError(f"{path}: no such file or folder")
    if not found:
        raise UsageError("no instance files found in " + ", ".join(map(os.fspath, paths)))
    return found


def _listed(path: str) -> list[str]:
    """A file as instances: itself, or the links it lists."""
    links = address_list(path)
    if links is None:
        return [path]
    check_address_list(path, links)
    return [link for _, link in links]


def _levels(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    family: str | None,
    unreadable: list[tuple[str, TrisolveError]] | None = None,
) -> list[Level]:
    """Levels given as Level objects, files or folders (folders expand to their instance files).

    With ``unreadable``, a file found inside a folder that cannot be read goes there (path, problem)
    instead of stopping everything; a file named by itself always raises."""
    if isinstance(levels, (Level, str, os.PathLike)):
        levels = [levels]
    out: list[Level] = []
    for item in levels:
        if isinstance(item, Level):
            out.append(item)
            continue
        inside_folder = unreadable is not None and os.path.isdir(item)
        for path in instance_files([item]):
            try:
                out.append(load(named(path), family))  # a file name with a line break is still a name
            except TrisolveError as problem:
                if not inside_folder:
                    raise
                unreadable.append((path, problem))
    return out


# ------------------------------------------------------------------ backends


def _backend_list(backends: str | Sequence[str] | None) -> list[str]:
    """Backends given as a list, or as one string of comma-separated names (``"pysat,clingo"``)."""
    if backends is None:
        return []
    if isinstance(backends, str):
        return [name.strip() for name in backends.split(",") if name.strip()]
    names = list(backends)
    if not all(isinstance(name, str) for name in names):
        raise UsageError("backends must be names such as 'pysat' or 'clingo:count'")
    return names


def backend_name(spec: str | None, family: str, task: str = "first", symmetry_breaking: bool = False) -> str:
    """The full ``backend:variant`` a spec stands for, checked usable.

    None stands for the default of the task (``first``, ``count`` or ``all``): the selection policy's
    (``trisolve.selection``: the measured table's winner, among those that break symmetries if asked, else
    the family's fallback).
    """
    from trisolve.backends import registry

    name = _resolved(spec, family, task, symmetry_breaking)
    try:
        registry.get(name, family)  # instantiation is cheap; solvers import lazily at run time
    except (registry.UnknownBackend, registry.UnsupportedFamily, registry.BackendUnavailable, ValueError) as problem:
        raise UsageError(str(problem)) from None
    return name


def _resolved(spec: str | None, family: str, task: str = "first", symmetry_breaking: bool = False) -> str:
    """``backend_name`` without making the backend (so without importing its solver): the run's child makes
    it after reading the level, so a bad file is refused before any solver library is imported."""
    from trisolve.backends import registry
    from trisolve.selection import choose

    try:
        chosen = spec or choose(family, "solve", task, symmetry_breaking=symmetry_breaking).first
        return registry.resolve(chosen, family)
    except (registry.UnknownBackend, registry.UnsupportedFamily, registry.BackendUnavailable, ValueError) as problem:
        raise UsageError(str(problem)) from None


def backend_names(specs: Sequence[str], family: str, purpose: str = "crosscheck") -> list[str]:
    """A backends list made full (a bare name means all its variants); empty: what the selection policy runs
    for ``purpose`` (a cross-check's, by default)."""
    from trisolve.backends import registry
    from trisolve.selection import choose

    try:
        return registry.expand(list(specs), family) if specs else list(choose(family, purpose).backends)
    except (registry.UnknownBackend, registry.UnsupportedFamily) as problem:
        raise UsageError(str(problem)) from None


def portfolio(family: str, sat_command: str | None = None, task: str = "first") -> tuple[list[str], list[str]]:
    """What ``backend="auto"`` races: (usable backends, notes on those left out).

    The selection policy's race (``trisolve.selection``): the measured table's top backends for the task
    (three for a first solution, two for a count), else those that say ``PORTFOLIO``; ``sat_command`` adds
    the dimacs backend.
    """
    from trisolve.selection import choose

    chosen = choose(family, "race", task, sat_command=sat_command)
    names, left_out = [], [f"auto: leaving out {note}" for note in chosen.left_out]
    for backend in chosen.backends:
        try:
            names.append(backend_name(backend, family))
        except UsageError as problem:
            left_out.append(f"auto: leaving out {backend}: {problem}")
    if sat_command:
        check_sat_command(sat_command)
    if not names:
        raise UsageError(f"backend auto: no usable backend for the {family} family")
    return names, left_out


def check_sat_command(sat_command: str | None) -> None:
    """An external SAT solver command line that can run, else a UsageError saying why."""
    from trisolve.backends.base import BackendUnavailable
    from trisolve.backends.dimacs.engine import command_line

    try:
        command_line(sat_command)
    except BackendUnavailable as problem:
        raise UsageError(str(problem)) from None


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
    for name in [_family(family).name] if family else list(FAMILIES):
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
    for name in [_family(family).name] if family else list(FAMILIES):
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

    names = [_family(family).name] if family else sorted(FAMILIES)
    return table.header(), everything(names)


@dataclass(frozen=True)
class Export:
    """A level in a solver's own format: ``text``, and how to run the written file without trisolve."""

    text: str
    format: str
    backend: str
    #: the command that solves the file written (``export(..., file=)``), when the backend gives one
    command: str | None = None


def export(
    level: Level | str | os.PathLike,
    backend: str | None = None,
    *,
    format: str | None = None,
    symmetry_breaking: bool = False,
    file: str = "-",
    family: str | None = None,
) -> Export:
    """``level`` as DIMACS, ASP facts, a CP-SAT model, exact cover or an LP file (``format``; the backends that
    say so with ``EXPORTS``), from ``backend`` (default: the format's first writer).  ``command`` says how to run the
    text once written to ``file`` (clingo's facts need the shipped rules beside them).  A family's own link format
    (``puzzlink``: ``Family.url``) gives the puzzle's web address, written by the family, no backend."""
    from trisolve.backends import registry
    from trisolve.backends.base import Options

    level = arguments.level(level, Level)
    level = level if isinstance(level, Level) else load(level, arguments.text(family, "family"))
    format, backend = arguments.text(format, "format"), arguments.text(backend, "backend")
    symmetry_breaking = arguments.flag(symmetry_breaking, "symmetry_breaking")
    if format in _link_formats():
        if level.kind.url is None or level.kind.url.format != format:
            having = ", ".join(name for name, kind in FAMILIES.items() if kind.url and kind.url.format == format)
            raise UsageError(f"{level.family} puzzles have no {format} links (the families that have: {having})")
        if backend is not None:
            raise UsageError(f"a {format} link is the puzzle's own address, written without a backend")
        return Export(level.kind.url.write(level.model) + "\n", format, "")
    format, spec = _format_and_backend(format, backend)
    _check_format_family(format, spec, level.family)
    name = backend_name(spec, level.family)
    options = Options(symmetry_breaking=symmetry_breaking)
    made = registry.get(name, level.family)
    try:
        text = made.export(level.model, options)
    except UsageError as refused:  # a level this format cannot hold (too large, nothing to write): name the file
        raise UsageError(f"{level.run_path}: {refused}") from None
    runner = getattr(made, "run_command", None)
    return Export(text, format, name, runner(level.model, options, file) if runner else None)


def _check_format_family(format: str, spec: str, family: str) -> None:
    """A format no writer of it translates this family into is refused by what the format covers: ``xc: sigils
    and logic only``, not the backend's missing translator."""
    from trisolve.backends import registry
    from trisolve.selection import writers as exporters

    writers = exporters()[format]
    if registry.catalog(Spec.parse(spec).backend, family) is not None:
        return
    covered = sorted({name for name in FAMILIES for writer in writers if registry.catalog(writer, name) is not None})
    shown = " and ".join([", ".join(covered[:-1]), covered[-1]] if len(covered) > 1 else covered) or "no family"
    raise UsageError(f"{format}: {shown} only, not {family}")


def _link_formats() -> list[str]:
    """The link formats families write (``Family.url``), for ``export``."""
    return sorted({kind.url.format for kind in FAMILIES.values() if kind.url is not None})


def _format_and_backend(format: str | None, spec: str | None) -> tuple[str, str]:
    """The format and the backend spec, each filled in from the other; a mismatch is a usage error."""
    from trisolve.backends import registry
    from trisolve.selection import writers as exporters

    writers = exporters()
    if format is not None and format not in writers:
        raise UsageError(f"unknown format {shorten(format)!r}; known: {', '.join([*writers, *_link_formats()])}")
    if spec is None:
        if format is None:
            raise UsageError(f"give a format ({'|'.join(writers)}) or a backend")
        return format, writers[format][0]
    name = Spec.parse(spec).backend
    written = registry.role(name, "EXPORTS")
    if written is None:
        raise UsageError(
            f"backend {name!r} does not export a format; "
            + "; ".join(f"{f}: {', '.join(names)}" for f, names in writers.items())
        )
    if format is not None and format != written:
        raise UsageError(f"format {format} is written by {', '.join(writers[format])}, not by {name}")
    return written, spec


# ------------------------------------------------------------------ solving


@dataclass(frozen=True)
class Result:
    """One run's answer: ``status`` is ``sat``, ``unsat`` or ``unknown`` (a limit came first).

    ``count`` is exact only when ``complete``; otherwise it is a lower bound
    and ``count_text`` reads ``N+``.  ``solutions`` are every solution the
    run returned, each checked by the family's validator (``invalid`` lists
    any that broke a rule: a backend bug).
    """

    level: Level = field(repr=False)
    backend: str
    status: str
    count: int
    complete: bool
    solutions: tuple[Solution, ...] = field(repr=False)
    mode: str = "first"
    stats: Mapping[str, Any] = field(default_factory=dict, repr=False)
    #: seconds per phase: parse, translate, (ground,) solve, decode, and wall for the whole run
    times: Mapping[str, float] = field(default_factory=dict, repr=False)
    cpu: float = field(default=0.0, repr=False)
    symmetry_breaking: bool = False
    stopped_by: str | None = None
    error: str | None = None
    #: solutions the solver reported more than once (ignored, and a finding for the cross-checker)
    duplicates: int = 0
    #: (index into solutions, the rules it breaks) for each invalid solution
    invalid: tuple[tuple[int, tuple[str, ...]], ...] = ()
    #: for ``backend="auto"``: the winner, the raced backends and each one's outcome
    portfolio: Mapping[str, Any] | None = field(default=None, repr=False)

    @property
    def count_text(self) -> str:
        return f"{self.count}" if self.complete else f"{self.count}+"

    @property
    def interrupted(self) -> bool:
        """Ctrl-C (or SIGTERM) stopped the run: what it found is here, marked incomplete."""
        return (self.stopped_by or "").startswith("interrupted")

    @property
    def count_method(self) -> str:
        """How the count was made: plain enumeration, symmetry classes, orbits expanded (``/orbits``), or what a
        counter says of itself (``stats.count_method``: dp's dynamic programs)."""
        if "count_method" in self.stats:
            return self.stats["count_method"]
        if _counts_without_listing(self.backend, self.level.family):  # stopped before it said which method
            return f"{self.backend}'s own count (stopped before it reported its method)"
        if self.symmetry_breaking:
            return "symmetry classes (one lex-leader per class)"
        return "plain enumeration"

    def answers(self, settle: bool = True, timeout: float | None = None) -> tuple[Any, ...]:
        """The answers to the level's questions (logic grids), each ``determined`` or not (``trisolve.answers``)."""
        from .answers import answers

        return answers(self, solve=solve if settle else None, timeout=timeout)

    def to_json(self, solutions: bool = True) -> dict:
        """The object ``trisolve solve --json`` prints (and ``--jsonl`` writes, one per line)."""
        return {
            "family": self.level.family,
            "instance": self.level.run_path,
            "backend": self.backend,
            "status": self.status,
            "count": self.count,
            "complete": self.complete,
            "solutions": [s.to_json() for s in self.solutions] if solutions else [],
            "stats": dict(self.stats),
            "time": dict(self.times),
            "cpu": round(self.cpu, 6),
            "symmetry_breaking": self.symmetry_breaking,
            **({"count_method": self.count_method} if self.mode != "first" else {}),
            **({"portfolio": dict(self.portfolio)} if self.portfolio else {}),
            **({"stopped_by": self.stopped_by} if self.stopped_by else {}),
            **({"error": self.error} if self.error else {}),
            **({"invalid": [{"solution": i, "violations": list(v)} for i, v in self.invalid]} if self.invalid else {}),
        }


#: files at most this big are read here when the policy asks for the level (``_defaults_for``): a few milliseconds
SMALL_FILE = 4096


def _defaults_for(level: Level, task: str, symmetry_breaking: bool) -> tuple[str, ...]:
    """What the selection policy runs on ``level`` without a named backend, best first: the first runs, and a
    level it refuses goes to the next (``runs.child.route``).  A small level skips kernel loads, so the policy
    may ask for the level: one not parsed yet is read here when its file is small (a few KB parse in
    milliseconds, so the time limit loses nothing), else the policy answers without it."""
    from trisolve.selection import choose

    def parsed() -> Any:
        if level.model is not None:
            return level.model
        try:
            if os.path.getsize(level.run_path) > SMALL_FILE:
                return None
            return level.kind.parse(level.run_path)
        except (OSError, TrisolveError):
            return None  # the run's own parse says what is wrong

    return choose(level.family, "solve", task, symmetry_breaking=symmetry_breaking, level=parsed).backends


def _counts_without_listing(backend: str, family: str) -> bool:
    """Whether ``backend`` counts without listing solutions (dp, ganak): its count is never "plain enumeration"."""
    from trisolve.backends import registry

    try:
        found = registry.catalog(Spec.parse(backend).backend, family)
    except TrisolveError:
        return False
    return found is not None and found.count_only


def solve(
    level: Level | str | os.PathLike,
    backend: str | None = None,
    *,
    count: bool = False,
    all: bool = False,
    limit: int | None = None,
    timeout: float | None = None,
    seed: int = 0,
    shuffle: bool = False,
    symmetry_breaking: bool = False,
    isolate: bool = True,
    sat_command: str | None = None,
    memory: int | None = None,
    on_solution: Callable[[Solution], None] | None = None,
    family: str | None = None,
    started: float | None = None,
    on_progress: Callable[[int, int | None, str], None] | None = None,
    on_found: Callable[[int], None] | None = None,
) -> Result:
    """Solve a level: its first solution, or every solution (``all``), or the count (``count``).

    ``backend`` is ``"pysat"``, ``"clingo:count"``, ``"auto"`` (race the
    portfolio table's top three for a first solution, top two for a count),
    ... (None: the selection policy's default for the task, ``trisolve.selection``, or the next row
    where it refuses the level, ``registry.refusal``; the Result's ``stats["refused"]`` says so).  ``limit``
    stops an enumeration after that many solutions; ``timeout`` is seconds of
    wall clock.  With ``isolate`` (the default) the run is a forked child
    with a hard kill behind the backend's own time limit, and the solver is
    imported once in this process (from the second run on) so that later runs start warm; without it
    the run happens in this process (no kill, exceptions propagate).
    ``on_solution`` sees each solution as it is found (a count ships and validates its solutions only
    for it: without it a count's Result holds the first solution alone); ``on_found(n)`` hears how many
    were found so far, solution by solution, without them; ``on_progress(done,
    total, text)`` how far a long count is (``dp``'s steps), in an isolated
    run (without it the reports are dropped).  ``seed`` varies the
    search (pysat, which has no seed, renumbers its variables from it);
    ``shuffle`` also reorders every backend's input from it: the same
    solutions, other luck.  The stats record both, and ``times`` gains CPU
    seconds per phase (``solve_cpu``, ...).  ``memory`` is the ``dp``
    counter's budget in bytes, ``exactcover``'s for the problem it builds, and the cap on Ganak's counting
    process; with a backend that keeps no budget it is a ``UsageError``.

    ``timeout`` covers the whole run, from this call on: given a file (not a
    Level), the child parses it, so a parse that runs long is stopped too
    (the Result's ``level.model`` is then None, and ``stopped_by`` says so).
    After Ctrl-C the run stops at once and ``stopped_by`` is ``interrupted`` (``Result.interrupted``).
    ``started`` (a ``time.monotonic()`` value) moves the start of ``timeout`` earlier: the
    command passes its own start, so that its whole run keeps the limit.
    """
    if started is None:
        started = time.monotonic()
    from trisolve.backends.base import Limits, Options, cpu_phase_times
    from trisolve.runs import Job

    _new_request()
    timeout = numbers.TIMEOUT.check_optional(timeout, "timeout")
    limit = numbers.SOLUTION_LIMIT.check_optional(limit, "limit")
    seed = numbers.SEED.check(seed, "seed")
    memory = numbers.MEMORY.check_optional(memory, "memory")
    level, backend = arguments.level(level, Level), arguments.text(backend, "backend")
    count, all, shuffle = arguments.flag(count, "count"), arguments.flag(all, "all"), arguments.flag(shuffle, "shuffle")
    symmetry_breaking, isolate = (
        arguments.flag(symmetry_breaking, "symmetry_breaking"),
        arguments.flag(isolate, "isolate"),
    )
    sat_command, family = arguments.text(sat_command, "sat_command"), arguments.text(family, "family")
    on_solution, on_found = arguments.callback(on_solution, "on_solution"), arguments.callback(on_found, "on_found")
    on_progress = arguments.callback(on_progress, "on_progress")
    if not isinstance(level, Level):
        path = os.fspath(level)
        text = not isinstance(level, os.PathLike) and "\n" in path  # as ``load`` tells them apart
        if text or not isolate or backend == "auto":
            level = load(level, family)
        else:  # parsed in the run's child, within the time limit (_run_isolated)
            level = Level(family_of(path, family).name, None, path)
    enumerate_ = count or all
    if limit is not None and not enumerate_:
        raise UsageError("a solution limit needs all=True or count=True")
    limits = Limits(time=timeout, solutions=limit)
    options = Options(
        enumerate=enumerate_,
        symmetry_breaking=symmetry_breaking,
        seed=seed,
        shuffle=shuffle,
        sat_command=sat_command,
        memory=memory,
    )

    race_info = None
    task = task_for(count, all, limit)
    if backend == "auto":
        if all:
            raise UsageError("backend auto races for a first solution or a count; use one backend to list")
        if not isolate:
            raise UsageError("backend auto races child processes; it needs isolate=True")
        if memory is not None:
            raise UsageError("memory: backend auto races backends that keep no memory budget; name one backend")
        with cpu_phase_times():
            record, race_info = _race(level, limits, options, sat_command, started, task)
    else:
        # a file not parsed yet is read in the child before the backend is made (and its solver imported):
        # here the name is only resolved, and the child refuses an unusable backend after reading the file
        resolve = _resolved if level.model is None else backend_name
        defaults = () if backend else _defaults_for(level, task, symmetry_breaking)
        name = resolve(backend or defaults[0], level.family, task, symmetry_breaking)
        arguments.memory_for(name, memory)
        if name.startswith("dimacs:"):
            check_sat_command(sat_command)
        # a count ships its solutions only to a caller who asked to see them (on_solution); a level the default
        # refuses goes to the next default (runs.child.route)
        job = Job(
            level.run_path,
            level.family,
            name,
            limits,
            options,
            keep_solutions=not count or bool(on_solution),
            instead=tuple(defaults[1:]),
        )
        with cpu_phase_times():
            level, record = _run(job, level, isolate, started, on_solution, on_progress, on_found)
    return _result(level, record, race_info)


def task_for(count: bool, all: bool, limit: int | None) -> str:
    """Which measured default a request takes: ``first``, ``count``, or ``all`` (listing, and a count
    stopped after ``limit`` solutions: an enumeration, which a count-only backend does not do)."""
    if all or (count and limit is not None):
        return "all"
    return "count" if count else "first"


#: (backend, family) this process has run once already (``_run`` preloads their solver)
_RAN: set[tuple[str, str]] = set()


def _run(
    job: Any,
    level: Level,
    isolate: bool,
    started: float,
    on_solution: Callable[[Solution], None] | None,
    on_progress: Callable[[int, int | None, str], None] | None = None,
    on_found: Callable[[int], None] | None = None,
) -> tuple[Level, RunRecord]:
    """One run (``runs.run``): isolated, a level not parsed yet is parsed in the child, under the time limit."""
    from dataclasses import replace

    from trisolve.backends import registry
    from trisolve.runs import run

    parsed: list[Level] = [level] if level.model is not None else []

    def take_level(model: Any, seconds: float) -> None:
        parsed.append(replace(level, model=model, parse_time=seconds))

    found = 0

    def stream(data: Any) -> None:  # solutions come after the level, so parsed[0] is there
        nonlocal found
        found += 1
        if on_found is not None:
            on_found(found)
        if on_solution is not None and data is not None:
            on_solution(parsed[0].solution(data))

    load = None if parsed else (lambda: level.kind.parse(level.path))
    if isolate and (job.backend, level.family) in _RAN:
        # from the second run on, the solver is imported here once, and every later fork starts warm; the
        # first run imports it in its child, under its time limit and the runner's kill (a one-off solve
        # pays no import outside them)
        registry.preload([job.backend], level.family)
    _RAN.add((job.backend, level.family))
    # an unusable backend is found in the child, after the file is read: runs.isolated.UnusableBackend, a UsageError
    record = run(
        job,
        level.model,
        isolate=isolate,
        started=started,
        on_solution=stream,
        load=load,
        on_level=take_level,
        on_progress=on_progress,
    )
    if not parsed:  # stopped (or crashed) before the parse was done
        return level, replace(record, stopped_by=record.stopped_by and f"{record.stopped_by} (while parsing)")
    return parsed[0], record


def _race(
    level: Level, limits: Any, options: Any, sat_command: str | None, started: float | None = None, task: str = "first"
) -> tuple[RunRecord, dict]:
    from trisolve.runs import Job
    from trisolve.runs.executors import race

    names, left_out = portfolio(level.family, sat_command, task)
    jobs = [Job(level.run_path, level.family, name, limits, options) for name in names]
    winner, records = race(jobs, level.model, started=started)
    info = {
        "winner": winner.backend if winner else None,
        "raced": names,
        "left_out": left_out,
        "runs": [
            {
                "backend": r.backend,
                "status": r.status,
                "wall": round(r.wall, 6),
                **({"stopped_by": r.stopped_by} if r.stopped_by else {}),
                **({"error": r.error} if r.error else {}),
            }
            for r in records
        ],
    }
    record = winner or (max(records, key=lambda r: r.count) if records else None)
    if record is None:
        raise UsageError("no backend could run")
    return record, info


def _result(level: Level, record: RunRecord, race_info: Mapping[str, Any] | None = None) -> Result:
    """A run record as a Result, every solution decoded and validated (a backend that returned something that
    is not a solution of the level's family failed: its Result has the ``error`` and no solutions)."""
    from dataclasses import replace

    try:
        solutions = tuple(level.solution(data) for data in record.solutions)
        invalid = tuple((i, tuple(v)) for i, v in enumerate(s.violations() for s in solutions) if v)
    except Exception as problem:  # noqa: BLE001 - a backend's output, never trusted
        error = f"returned something that is not a {level.family} solution ({type(problem).__name__}: {problem})"
        record = replace(record, solutions=(), count=0, complete=False, status="unknown", error=shorten(error, 300))
        solutions, invalid = (), ()
    times = {
        "parse": round(level.parse_time, 6),
        **{k: round(v, 6) for k, v in record.times.items()},
        "wall": round(record.wall, 6),
    }
    return Result(
        level=level,
        backend=record.backend,
        status=record.status,
        count=record.count,
        complete=record.complete,
        solutions=solutions,
        mode=record.mode,
        stats=dict(record.stats),
        times=times,
        cpu=record.cpu,
        symmetry_breaking=record.symmetry_breaking,
        stopped_by=record.stopped_by,
        error=record.error,
        duplicates=record.duplicates,
        invalid=invalid,
        portfolio=race_info,
    )


def solve_many(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    backend: str | None = None,
    *,
    family: str | None = None,
    **options: Any,
) -> Iterable[Result]:
    """``solve`` each level (files, folders, Level objects) in turn, yielding each Result as it is done.

    Each run is a forked child of this process, which imports each solver once.
    """
    for level in _levels(arguments.levels(levels, Level), arguments.text(family, "family")):
        result = solve(level, backend, **options)
        yield result
        if result.interrupted:
            return  # Ctrl-C stops the batch, not just this run: the last Result says so


def _new_request() -> None:
    """A new call starts afresh after an earlier one was interrupted (Ctrl-C in a notebook, say)."""
    from trisolve.runs import INTERRUPT

    INTERRUPT.clear()


# ------------------------------------------------------------------ cross-checking


@dataclass(frozen=True)
class Report:
    """A cross-check: one verdict per instance (``agree``, ``incomplete``, ``DISAGREE``, ``INVALID``, ``ERROR``)."""

    verdicts: tuple[Verdict, ...]
    levels: tuple[Level, ...] = field(default=(), repr=False)
    runs: int = 0
    reused: int = 0
    wall: float = 0.0
    #: each level shrunk (``minimise_to``): its ``file``, ``steps`` and the reproducing ``command``
    minimised: tuple[Mapping[str, Any], ...] = ()
    #: Ctrl-C (or SIGTERM) cut the runs short: the verdicts judge those that finished
    interrupted: bool = False
    #: what could not be written (``minimise_to``, ``record_expected``), one line each; the verdicts stand
    problems: tuple[str, ...] = ()

    @property
    def failed(self) -> bool:
        """Any disagreement, invalid solution or crashed run (exit code 1)."""
        return any(v.failed for v in self.verdicts)

    @property
    def findings(self) -> list[str]:
        """Each finding as a line naming its instance and the suspect runs."""
        from trisolve.crosscheck.report import findings_text

        return findings_text(self.verdicts)

    @property
    def verdict(self) -> str:
        """The one-line verdict: ``VERDICT: ...``."""
        from trisolve.crosscheck.report import verdict_line

        return verdict_line(self.verdicts)

    def table(self, colour: bool = False) -> str:
        """Instance by run: counts (``N+`` when incomplete) and times; ``colour``: a coloured table (ANSI)."""
        import io

        from trisolve.crosscheck.report import print_table

        out = io.StringIO()
        print_table(self.verdicts, file=out, colour=colour)
        return out.getvalue()

    def to_json(self) -> dict:
        from trisolve.crosscheck.report import summary_json

        return {
            **summary_json(self.verdicts),
            "wall_seconds": round(self.wall, 2),
            "minimized": [dict(m) for m in self.minimised],
            **({"interrupted": True} if self.interrupted else {}),
            **({"problems": list(self.problems)} if self.problems else {}),
        }

    def __str__(self) -> str:
        stopped = ["interrupted: the verdicts judge the runs that finished"] if self.interrupted else []
        return "\n".join([self.table().rstrip("\n"), *self.findings, self.verdict, *stopped, *self.problems])


def cross_check(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    backends: str | Sequence[str] | None = None,
    *,
    timeout: float | None = 20.0,
    jobs: int | None = None,
    limit: int | None = None,
    symmetry_breaking: bool = False,
    seed: int = 0,
    family: str | None = None,
    expected: bool = True,
    log: str | None = None,
    resume: bool = False,
    minimise_to: str | None = None,
    record_expected: str | None = None,
    on_planned: Callable[[int], None] | None = None,
    on_record: Callable[[RunRecord, bool], None] | None = None,
    on_plan: Callable[[Sequence[str]], None] | None = None,
    on_shrinking: Callable[[str, int, int, float], None] | None = None,
) -> Report:
    """Run the backends named (or the default plan) on each level, each run in its own process,
    ``jobs`` at a time (default: the cores), and judge whether they agree.

    Without ``backends``: the default plan (``crosscheck/plan.py``): the few backends of different paradigms
    that finish which the family's record names (``Family.crosscheck``), each left out where ``expected.json``
    records that it takes minutes; on other families every registered variant.  ``on_plan`` hears, before the
    first run, what the default plan runs and what it may leave incomplete (lines of text).

    ``expected`` checks counts against ``expected.json`` beside instance
    files; ``log`` appends one JSON record per run as it finishes, and
    ``resume`` skips runs already in it.  ``minimise_to`` shrinks each level
    with a disagreement or an invalid solution into that folder (the report's
    ``minimised`` says where, and the command that reproduces it);
    ``record_expected`` merges the established counts into that
    ``expected.json``; a file either cannot write is a line in the report's
    ``problems`` (the verdicts stand).  ``on_planned`` hears how many runs
    there are, ``on_record`` each record as it finishes (and whether it was reused), ``on_shrinking(path,
    index, total, budget)`` each level as its shrinking starts.

    A file inside a named folder that cannot be read is that instance's ERROR verdict (the others
    are still checked); a file named by itself that cannot be read raises ``LevelSyntaxError``, and
    so does a bad ``expected.json``, before anything runs.  Ctrl-C stops every run at once and the
    report, of the runs that finished, says ``interrupted``.
    """
    _new_request()
    from trisolve.crosscheck.compare import expected_for
    from trisolve.crosscheck.run import Instance, Plan, Runs, unreadable_verdict
    from trisolve.crosscheck.run import cross_check as check

    timeout = numbers.TIMEOUT.check_optional(timeout, "timeout")
    jobs = numbers.JOBS.check_optional(jobs, "jobs")
    limit = numbers.SOLUTION_LIMIT.check_optional(limit, "limit")
    seed = numbers.SEED.check(seed, "seed")
    levels, family = arguments.levels(levels, Level), arguments.text(family, "family")
    symmetry_breaking, expected = (
        arguments.flag(symmetry_breaking, "symmetry_breaking"),
        arguments.flag(expected, "expected"),
    )
    resume, log = arguments.flag(resume, "resume"), arguments.path(log, "log")
    minimise_to, record_expected = (
        arguments.path(minimise_to, "minimise_to"),
        arguments.path(record_expected, "record_expected"),
    )
    for name, function in (("on_planned", on_planned), ("on_record", on_record), ("on_plan", on_plan)):
        arguments.callback(function, name)
    on_shrinking = arguments.callback(on_shrinking, "on_shrinking")
    if resume and not log:
        raise UsageError("resume needs a log file")
    backends = _backend_list(arguments.backends(backends))
    unreadable: list[tuple[str, TrisolveError]] = []
    chosen = _levels(levels, family, unreadable)
    if expected:  # a bad expected.json is bad input, found before anything runs
        for level in chosen:
            if level.path is not None:
                expected_for(level.path)
    names: dict[str, list[str]] = {}
    select = None
    if not backends:
        from trisolve.crosscheck.plan import default_plan, refusals

        parsed = {level.run_path: level.model for level in chosen}
        planned = default_plan([(level.run_path, level.family) for level in chosen], backend_name, parsed)
        for name in planned.backends:
            names[name] = planned.candidates(name, [level.run_path for level in chosen if level.family == name])
        if on_plan is not None:
            on_plan(planned.describe(timeout))
    for level in chosen:
        if level.family not in names:
            names[level.family] = backend_names(backends, level.family)
        if not names[level.family]:
            raise UsageError(f"no backend handles the {level.family} family")
    if not backends:
        # a family without a default plan runs every variant: one that refuses an instance is left out there
        unplanned = [
            (level.run_path, level.family, level.model) for level in chosen if level.family not in planned.backends
        ]
        refusing = refusals(unplanned, names.__getitem__)

        def select(path: str, family: str, backend: str) -> bool:
            if family in planned.backends:
                return planned.runs(path, family, backend)
            return backend not in refusing.get(path, {})

    instances = [Instance(level.run_path, level.kind, level.model) for level in chosen]
    with Runs(log, resume=resume, parallel=jobs or os.cpu_count() or 1, on_record=on_record) as runs:
        plan = Plan(timeout, limit, symmetry_breaking, seed)
        checked = check(
            instances,
            names.__getitem__,
            runs,
            plan,
            expected=expected,
            minimise_to=minimise_to,
            record_expected_in=record_expected,
            on_planned=on_planned,
            select=select,
            on_shrinking=on_shrinking,
        )
    return Report(
        checked.verdicts + tuple(unreadable_verdict(path, family, problem) for path, problem in unreadable),
        tuple(chosen),
        runs=checked.runs,
        reused=checked.reused,
        wall=checked.wall,
        minimised=checked.minimised,
        interrupted=checked.interrupted,
        problems=checked.problems,
    )


# ------------------------------------------------------------------ benchmarking


@dataclass(frozen=True)
class Benchmark:
    """Every run of a benchmark and their scores (solved, median, PAR-2, virtual best)."""

    runs: tuple[BenchRun, ...]
    summary: Mapping[str, Any] = field(repr=False)
    settings: Any = field(repr=False)
    #: the benchmarked ``backend:variant`` names, in table order
    backends: tuple[str, ...] = ()
    #: Ctrl-C (or SIGTERM) stopped it part way: ``runs`` are those that finished, of ``planned``
    interrupted: bool = False
    planned: int = 0

    def markdown(self, meta: Mapping[str, Any] | None = None) -> str:
        """The report ``trisolve bench`` prints and writes to summary.md."""
        from trisolve.bench.provenance import machine
        from trisolve.bench.summary import markdown

        return markdown(self.summary, self.settings, dict(meta or machine()))


def benchmark(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    backends: str | Sequence[str] | None = None,
    *,
    repeat: int = 3,
    timeout: float = 60.0,
    mode: str = "first",
    symmetry_breaking: bool = False,
    seed: int = 0,
    shuffle: bool = False,
    sat_command: str | None = None,
    family: str | None = None,
    count_backends: str | Sequence[str] | None = None,
    on_planned: Callable[[int, Any, list[str]], None] | None = None,
    on_run: Callable[[int, BenchRun], None] | None = None,
    skipped: Callable[[str], None] | None = None,
) -> Benchmark:
    """Time backends on instance files: each (instance, backend, round) a child process forked
    from this one (so a solver this process has not imported yet is imported in every run's
    time, as for the command); ``mode`` is ``first`` (first solution), ``count`` (exact count), or
    ``first,count``: both, side by side, a backend in each mode a contender of its own ("dp:frontier (count)");
    ``count_backends`` are the backends of the counts then (default: ``backends``, else the defaults).

    Default backends: each paradigm's default (and ``dp`` when counting).
    Round r uses seed + r (with ``shuffle``, also to reorder each backend's input);
    backends are interleaved so machine drift hits all alike.
    ``on_planned`` hears (runs, settings, backends) before the first run, ``on_run``
    each run as it finishes, ``skipped`` each default backend left out as unusable.
    Ctrl-C stops the run in progress at once: the Benchmark of the runs that finished says
    ``interrupted`` (and how many were ``planned``).
    """
    _new_request()
    from trisolve.bench.runner import Settings, label, plan, run_all
    from trisolve.bench.summary import score

    repeat = numbers.COUNT.check(repeat, "repeat")
    timeout = numbers.TIMEOUT.check(timeout, "timeout")
    seed = numbers.seeds(seed, repeat)
    mode = arguments.choice(mode, "mode", ("first", "count", "first,count", "count,first"))
    symmetry_breaking, shuffle = (
        arguments.flag(symmetry_breaking, "symmetry_breaking"),
        arguments.flag(shuffle, "shuffle"),
    )
    sat_command = arguments.text(sat_command, "sat_command")
    for name, function in (("on_planned", on_planned), ("on_run", on_run), ("skipped", skipped)):
        arguments.callback(function, name)
    backends = _backend_list(arguments.backends(backends))
    files = _levels(arguments.levels(levels, Level), arguments.text(family, "family"))
    if any(level.path is None for level in files):
        raise UsageError("bench times parsing too: give instance files, not text")
    try:
        settings = Settings(
            timeout=timeout,
            repeat=repeat,
            mode=mode,
            symmetry_breaking=symmetry_breaking,
            seed=seed,
            shuffle=shuffle,
            sat_command=sat_command,
        )
    except ValueError as problem:
        raise UsageError(str(problem)) from None
    count_backends = _backend_list(count_backends) or backends
    chosen: dict[tuple[str, str], list[str]] = {}  # (family, mode) -> backends
    for one in settings.modes:
        for level in files:
            if (level.family, one) not in chosen:
                specs = list((count_backends if one == "count" else backends) or ())
                chosen[level.family, one] = bench_backends(level.family, specs, sat_command, one, skipped)
    pairs = [(level.path, level.family) for level in files]
    trials = plan(pairs, lambda name, one: chosen[name, one], repeat, settings.modes)
    order = list(dict.fromkeys(label(b, one, settings) for (_, one), names in chosen.items() for b in names))
    if on_planned is not None:
        on_planned(len(trials), settings, order)
    runs = run_all(trials, {level.family: FAMILIES[level.family] for level in files}, settings, on_run=on_run)
    from trisolve.runs import interrupted

    stopped = interrupted()
    return Benchmark(tuple(runs), score(runs, settings, order), settings, tuple(order), stopped, len(trials))


def bench_backends(
    family: str, specs: Sequence[str], sat_command: str | None, mode: str, skipped: Callable[[str], None] | None = None
) -> list[str]:
    """The backends to benchmark on a family: those asked for (all checked now), or the selection policy's
    (``bench``: the paradigms' defaults; those run by default when counting). ``skipped`` hears of unusable
    defaults."""
    from trisolve.selection import choose

    if specs:
        names = backend_names(specs, family)
        for name in names:
            backend_name(name, family)
            if name.startswith("dimacs:"):
                check_sat_command(sat_command)
        return names
    chosen = choose(family, "bench", mode)
    for note in chosen.left_out:
        if skipped is not None:
            skipped(f"skipping {note}")
    names = []
    for backend in chosen.backends:
        try:
            names.append(backend_name(backend, family))
        except UsageError as problem:
            if skipped is not None:
                skipped(f"skipping {backend}: {problem}")
    if not names:
        raise UsageError(f"no usable backend for the {family} family")
    return names


# ------------------------------------------------------------------ generating


def _sizes(family: Family, sizes: Mapping[str, Any] | None) -> dict[str, Any]:
    """A generator's size arguments, each checked against its ``Parameter`` (a size of another family is refused)."""
    own = {parameter.name: parameter for parameter in family.generator_parameters}
    given = {name: value for name, value in (sizes or {}).items() if value is not None}
    stray = [name for name in given if name not in own]
    if stray:
        raise UsageError(
            f"{', '.join(shorten(name) for name in stray)} does not apply to {family.name}; its sizes: "
            + (", ".join(own) or "none")
        )
    return {
        name: numbers.Range(own[name].kind, own[name].low, own[name].high, own[name].low_open).check(value, name)
        for name, value in given.items()
    }


def _generating(name: str) -> Family:
    kind = _family(name)
    if not kind.generate:
        from trisolve.generate import generating_families

        raise UsageError(f"the {name} family has no generator; families that do: {', '.join(generating_families())}")
    return kind


@dataclass(frozen=True)
class GeneratedLevel:
    """A level ``generate_levels`` wrote: its file (the intended solution beside it, ``<name>.solution.json``)."""

    path: str
    seed: int
    #: proved to have exactly one solution
    unique: bool
    #: uniqueness was asked for (or the family's levels always have it) but could not be proved
    unproved: bool
    info: Mapping[str, Any] = field(default_factory=dict)
    #: the time limit ended the work with this level: no further level was made
    stopped: bool = False

    def to_json(self) -> dict:
        return {"file": self.path, "seed": self.seed, "unique": self.unique, **dict(self.info)}


def generate_levels(
    family: str,
    folder: str | os.PathLike,
    *,
    count: int = 1,
    seed: int = 0,
    unique: bool = False,
    timeout: float | None = None,
    on_attempt: Callable[[str], None] | None = None,
    **sizes: Any,
) -> Iterable[GeneratedLevel]:
    """Write ``count`` generated levels of ``family`` to ``folder``, yielding each as it is written.

    Level i uses a seed derived from ``seed`` and i (same seed, same files);
    ``unique`` makes the solution unique (hexiom locks tiles and blocks
    cells, sigils redraws; logic puzzles always are).  ``sizes`` are the
    family's generator parameters (``Family.generator_parameters``: hexiom
    ``side``, ``fill``; sigils ``width``, ``height``; ...).  ``on_attempt`` hears
    each attempt of the level being made (a line of text: each counts solutions).
    ``timeout`` (seconds, from the call) ends the work: the level being made is
    finished at once without a uniqueness proof (``unproved``), and no further
    level is started (``GeneratedLevel.stopped`` on the last one says so).
    """
    from trisolve.generate import generator, instance_seed, watched, write_generated
    from trisolve.runs import raise_if_interrupted

    kind = _generating(arguments.text(family, "family") or "")
    count = numbers.COUNT.check(count, "count")
    seed = numbers.SEED.check(seed, "seed")
    unique, folder = arguments.flag(unique, "unique"), arguments.path(folder, "folder") or ""
    timeout = numbers.TIMEOUT.check_optional(timeout, "timeout")
    on_attempt = arguments.callback(on_attempt, "on_attempt")
    params = _sizes(kind, sizes)
    make = generator(kind.name)
    deadline = None if timeout is None else time.monotonic() + timeout
    for index in range(count):
        raise_if_interrupted()
        stem = f"{kind.name}-s{seed}-{index:04d}"
        with watched(on_attempt, deadline) as watch:
            try:
                made = make(instance_seed(seed, index), unique=unique, name=stem, **params)
            except ValueError as problem:  # a size the generator cannot make
                raise UsageError(str(problem)) from None
        path = write_generated(made, os.fspath(folder), stem)
        wanted = unique or kind.always_unique
        stopped = watch.past_deadline()
        yield GeneratedLevel(path, made.seed, made.unique, wanted and not made.unique, dict(made.info), stopped)
        if stopped:
            return


def campaign(
    family: str,
    count: int,
    log: str | os.PathLike,
    *,
    seed: int = 0,
    unique: bool = False,
    sizes: Mapping[str, Any] | None = None,
    backends: str | Sequence[str] | None = None,
    timeout: float = 10.0,
    executor: str = "local",
    scheduler: str | None = None,
    jobs: int = 2,
    minimise_to: str | None = None,
    progress: Any = None,
) -> Campaign:
    """Generate ``count`` levels of ``family`` and cross-check them all, resumably: every run goes to the
    JSONL ``log`` at once and a rerun of the same call reuses it; the levels go to ``<log stem>-instances/``.

    ``executor`` is ``local`` (``jobs`` runs at a time) or ``dask`` (``jobs`` workers of a local cluster, or the
    one at ``scheduler``).  Disagreements and invalid solutions are shrunk into ``minimise_to`` (default
    ``<log stem>-disagreements/``).  ``progress`` hears ``generated(done, count)``, ``start(runs)`` and
    ``advance(record)``.
    """
    _new_request()
    from trisolve.generate.campaign import run_campaign
    from trisolve.runs.executors import EXECUTORS

    kind = _generating(arguments.text(family, "family") or "")
    count = numbers.COUNT.check(count, "count")
    seed = numbers.SEED.check(seed, "seed")
    timeout = numbers.TIMEOUT.check(timeout, "timeout")
    jobs = numbers.JOBS.check(jobs, "jobs")
    log, unique = arguments.path(log, "log") or "", arguments.flag(unique, "unique")
    backends, minimise_to = arguments.backends(backends), arguments.path(minimise_to, "minimise_to")
    executor, scheduler = arguments.text(executor, "executor"), arguments.text(scheduler, "scheduler")
    if executor not in EXECUTORS:
        raise UsageError(f"unknown executor {shorten(executor)!r}; known: {', '.join(EXECUTORS)}")
    if scheduler and executor != "dask":
        raise UsageError("a scheduler needs the dask executor")
    if executor == "dask":
        _needs_dask()
    params = {**_sizes(kind, sizes), "unique": unique}
    named = _backend_list(backends)
    names = backend_names(named, kind.name, purpose="campaign")  # checked before anything is generated
    if scheduler:  # before any level or journal is written
        from trisolve.runs.executors import check_scheduler

        check_scheduler(scheduler)
    log = os.fspath(log)
    if minimise_to is None:
        stem = os.path.splitext(os.path.basename(log))[0]
        minimise_to = os.path.join(os.path.dirname(log), f"{stem}-disagreements")
    summary, verdicts = run_campaign(
        kind.name,
        count,
        log,
        seed=seed,
        params=params,
        backends=names if named else None,  # the policy's: each left out where it refuses an instance
        timeout=timeout,
        executor=executor,
        scheduler=scheduler,
        parallel=jobs,
        minimise_folder=minimise_to,
        progress=progress,
    )
    return Campaign(summary, tuple(verdicts))


@dataclass(frozen=True)
class Campaign:
    """A campaign's summary (``generate.campaign.Summary``: counts, throughput, minimised levels) and verdicts."""

    summary: Any
    verdicts: tuple[Verdict, ...] = field(repr=False)

    @property
    def failed(self) -> bool:
        """A verdict with a disagreement, an invalid solution or a crashed run (exit code 1)."""
        return self.summary.failed


def _needs_dask() -> None:
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        raise UsageError('the dask executor needs the dask extra: pip install "trisolve[dask]"')


# ------------------------------------------------------------------ mutation testing


def mutate(
    family: str,
    backend: str,
    *,
    levels: str | os.PathLike | None = None,
    generate: int | None = None,
    sizes: Mapping[str, Any] | None = None,
    retry: int = 20,
    retry_budget: float = 300.0,
    timeout: float = 10.0,
    jobs: int | None = None,
    batch: int = 4,
    log: str | None = None,
    resume: bool = False,
    suite: str | None = None,
    out: str | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    seed: int = 0,
    references: str | Sequence[str] | None = None,
    only: Sequence[str] = (),
    mutants: Sequence[str] = (),
    on_record: Callable[[RunRecord, bool], None] | None = None,
) -> MutationReport:
    """Mutate ``family``'s encodings of ``backend`` (every variant, or the one named) and score how well the
    levels kill the mutants (docs/mutation.md): the shipped levels, those under ``levels``, or ``generate``
    generated ones, smallest first, ``batch`` at a time; survivors are re-tried on ``retry`` generated levels
    within ``retry_budget`` seconds.  ``suite`` writes a small killing set there; ``out`` holds the mutant
    files and generated levels (default: beside ``log``, else a temporary folder, removed at the end);
    ``mutants`` runs only those ids; ``references`` are the unmutated backends each mutant is judged against
    (default: the portfolio).  ``failed`` on the report is the exit-code rule.
    """
    _new_request()
    import tempfile

    from trisolve.backends import registry
    from trisolve.crosscheck.mutate import default_references, run_mutate

    kind = _family(arguments.text(family, "family") or "")
    backend = arguments.text(backend, "backend") or ""
    levels, log, suite, out = (
        arguments.path(value, name)
        for name, value in (("levels", levels), ("log", log), ("suite", suite), ("out", out))
    )
    resume = arguments.flag(resume, "resume")
    executor, scheduler = arguments.text(executor, "executor"), arguments.text(scheduler, "scheduler")
    references = arguments.backends(references, "references")
    on_record = arguments.callback(on_record, "on_record")
    timeout = numbers.TIMEOUT.check(timeout, "timeout")
    jobs = numbers.JOBS.check_optional(jobs, "jobs")
    seed = numbers.SEED.check(seed, "seed")
    batch = numbers.COUNT.check(batch, "batch")
    retry = numbers.COUNT_OR_NONE.check(retry, "retry")
    retry_budget = numbers.BUDGET.check(retry_budget, "retry budget")
    generate = numbers.COUNT.check_optional(generate, "generate")
    if resume and not log:
        raise UsageError("resume needs a log file")
    if levels is not None and generate:
        raise UsageError("give levels or generate, not both")
    if scheduler and executor != "dask":
        raise UsageError("a scheduler needs the dask executor")
    name = Spec.parse(backend).backend
    if registry.role(name, "MUTANTS") is None:
        mutable = [n for n in registry.names() if registry.role(n, "MUTANTS")]
        plugin = name in registry.names() and name not in registry.shipped()
        hint = f"; your own backend takes part as a reference the mutants are judged against: --references {name}"
        raise UsageError(
            f"backend {shorten(name)}: mutants are made of {', '.join(mutable)} encodings" + (hint if plugin else "")
        )
    backend_names([backend], kind.name)
    backend_name(backend, kind.name)
    chosen = _backend_list(references) or default_references(kind.name)
    for spec in chosen:
        backend_name(spec, kind.name)
    params = _sizes(kind, sizes) if (generate or retry) else {}
    if scheduler:  # before any mutant, level or journal is written
        _needs_dask()
        from trisolve.runs.executors import check_scheduler

        check_scheduler(scheduler)
    scratch = out is None and not log  # a temporary folder: removed at the end
    if out is None:
        out = (os.path.splitext(log)[0] + "-mutants") if log else tempfile.mkdtemp(prefix=f"mutate-{kind.name}-")

    def generated(how_many: int, folder: str, base_seed: int) -> list:
        from trisolve.generate.campaign import prepare_instances

        _generating(kind.name)
        return prepare_instances(kind.name, how_many, base_seed, os.path.join(out, folder), params)[0]

    if generate:
        instances = generated(generate, "instances", seed)
    else:
        instances = _smallest_first(levels or os.path.join(_levels_root(), kind.name), kind)
    try:
        return run_mutate(
            kind,
            backend,
            instances,
            folder=out,
            timeout=timeout,
            parallel=jobs or os.cpu_count() or 1,
            jsonl=log,
            resume=resume,
            executor=executor,
            scheduler=scheduler,
            batch=batch,
            generate=(lambda: generated(retry, "retry-instances", seed + 1_000_003)) if retry else None,
            retry_budget=retry_budget,
            suite=suite,
            seed=seed,
            only=only,
            ids=mutants,
            references=chosen,
            on_record=on_record,
        )
    finally:
        if scratch:
            import shutil

            shutil.rmtree(out, ignore_errors=True)


def _levels_root() -> str:
    """The shipped levels' folder (``levels/`` beside the package's folders)."""
    from trisolve.backends import registry

    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(registry.__file__))), "levels")


def _smallest_first(path: str | os.PathLike, kind: Family) -> list:
    """The instances under ``path``, smallest file first (cheap kills come first)."""
    from trisolve.crosscheck.run import Instance

    files = sorted(instance_files([path]), key=lambda p: (os.path.getsize(p), p))
    return [Instance(p, kind, load(p, kind.name).model) for p in files]


# ------------------------------------------------------------------ pictures


#: Largest solution file read (a ``solve --all --json`` of thousands of tilings is a few MB).
MAX_SOLUTION_BYTES = 64_000_000
PICTURE_KINDS = (".svg", ".png")


def check_picture_path(path: str | os.PathLike) -> str:
    """A picture's file name must say its kind (``.svg`` or ``.png``)."""
    path = os.fspath(path)
    if os.path.splitext(path)[1].lower() not in PICTURE_KINDS:
        raise UsageError(f"{path}: the picture must be a .svg or .png file")
    return path


def render(level: Level | Solution, output: str | os.PathLike) -> str:
    """Draw a level (locked and blocked cells, the empty frame and its pieces, the clues) or a solution
    to ``output``: an SVG, or a PNG (which needs cairosvg: ``pip install 'trisolve[png]'``).  The path written."""
    from trisolve.models.pictures import save

    if not isinstance(level, (Level, Solution)):
        raise UsageError(f"render draws a Level or a Solution, not {type(level).__name__}")
    path = check_picture_path(arguments.path(output, "output") or "")
    try:
        save(level.picture(), path)
    except OSError as problem:
        raise UsageError(f"{path}: cannot write: {problem.strerror or problem}") from None
    return path


def read_solution(path: str | os.PathLike, level: Level, index: int = 1) -> Solution:
    """The solution a JSON file holds, checked against the level by the family's validator.

    The file is ``solve --json`` output, one solution object from it, a
    generated level's ``<name>.solution.json`` (its intended solution under
    ``solution``), or JSON lines (``solve --jsonl``, or ``--json`` over many
    files): then the line about this level's file is used; ``index`` picks
    one of its solutions.
    """
    from trisolve.models import files

    path = os.fspath(arguments.path(path, "path") or "")
    if not isinstance(level, Level):
        raise UsageError(f"level must be a Level, not {type(level).__name__}")
    index = numbers.INDEX.check(index, "index")
    # read as every input is (models.files): a regular file, size-capped, UTF-8, JSON with limits
    text = files.read_text(path, what="solution file", limit=MAX_SOLUTION_BYTES)
    try:
        data = files.parse_json(text, path)
    except files.NotJson as problem:
        if "Extra data" not in problem.message:
            raise
        data = _line_about(path, text, level)
    if not isinstance(data, dict):
        raise UsageError(f"{path}: expected a JSON object (solve --json output or one solution)")
    if data.get("family", level.family) != level.family:
        raise UsageError(
            f"{path}: holds a {shorten(data['family'])} solution; {level.run_path} is a {level.family} level"
        )
    if "solution" in data and "solutions" not in data:  # trisolve generate's <name>.solution.json
        data = data["solution"]
        if not isinstance(data, dict):
            raise UsageError(f"{path}: 'solution' is not a JSON object")
    if "solutions" in data:
        solutions = data["solutions"]
        if not isinstance(solutions, list):
            raise UsageError(f"{path}: 'solutions' is not a list")
        if not solutions:
            raise UsageError(f"{path}: holds no solution (status {shorten(data.get('status', 'unknown'))})")
        if index > len(solutions):
            raise UsageError(f"{path}: holds {len(solutions)} solution(s); index {index} is past the end")
        data = solutions[index - 1]
    elif index != 1:
        raise UsageError(f"{path}: holds one solution; index {index} is past the end")
    if not isinstance(data, dict):
        raise UsageError(f"{path}: solution {index} is not a JSON object")
    try:
        solution = level.solution(data)
    except (KeyError, TypeError, ValueError, AttributeError) as problem:
        raise UsageError(
            f"{path}: not a {level.family} solution ({type(problem).__name__}: {shorten(problem)})"
        ) from None
    violations = solution.violations()
    if violations:
        shown = "; ".join(violations[:3]) + ("; ..." if len(violations) > 3 else "")
        raise UsageError(f"{path}: not a solution of {level.run_path}: {shown}")
    return solution


def _line_about(path: str, text: str, level: Level) -> dict:
    """From JSON lines, the record whose ``instance`` is the level's file (by path, else by name)."""
    from trisolve.models import files

    records = [files.parse_json(line, path, number) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    records = [r for r in records if isinstance(r, dict) and isinstance(r.get("instance"), str)]
    wanted = os.path.abspath(level.run_path)
    same = [r for r in records if os.path.abspath(r["instance"]) == wanted]
    if not same:
        name = os.path.basename(level.run_path)
        same = [r for r in records if os.path.basename(r["instance"]) == name]
    if len({r["instance"] for r in same}) != 1:
        what = "no line" if not same else "lines about different files"
        raise UsageError(f"{path}: {what} for {level.run_path} among its {len(records)} JSON lines")
    return same[0]
