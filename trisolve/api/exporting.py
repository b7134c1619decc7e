"""``trisolve export``: a level in a solver's own format, or a family's own link."""

from __future__ import annotations

import os
from dataclasses import dataclass

from trisolve import arguments
from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES
from trisolve.models.errors import UsageError, shorten
from trisolve.selection.names import backend_name

from .levels import Level, load


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
