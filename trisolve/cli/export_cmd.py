"""``trisolve export``: an instance in a solver's own format, to run without trisolve.

Each format is one backend's ``export(level, options)``: DIMACS from pysat
(``c`` lines name each puzzle variable, ``c p show ... 0`` is the projection
a model counter needs), ASP facts from clingo (they run with the shipped
``.lp`` rules under the plain ``clingo`` command, printed to stderr), the
CP-SAT model proto as text from cpsat, the 0-1 model in CPLEX LP from mip.
"""

from __future__ import annotations

import os
import sys

import click

from .common import UsageProblem, check_backend, load_instance, load_plugins, plugin_option

#: format -> the backends whose export writes it (the first is the default)
FORMATS: dict[str, tuple[str, ...]] = {
    "dimacs": ("pysat", "dimacs", "ganak"),
    "asp": ("clingo",),
    "cpsat": ("cpsat",),
    "lp": ("mip",),
}


@click.command(name="export")
@click.argument("level", type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "-f",
    "format_",
    type=click.Choice(list(FORMATS)),
    default=None,
    help="dimacs (CNF with its projection line), asp (facts for the .lp rules), cpsat (model proto, text) "
    "or lp (the 0-1 model, CPLEX LP). Default: the --backend's format.",
)
@click.option(
    "--output",
    "-o",
    default="-",
    show_default=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="File to write; - for stdout.",
)
@click.option(
    "--backend",
    "-b",
    "backend_spec",
    default=None,
    metavar="NAME[:VARIANT]",
    help="Which encoding variant, e.g. pysat:totalizer (its backend must write the format).",
)
@click.option("--symmetry-breaking", is_flag=True, help="Include the lex-leader symmetry-breaking constraints.")
@click.option("--family", default=None, help="Puzzle family, when it cannot be told from the file.")
@plugin_option
def command(level, format_, output, backend_spec, symmetry_breaking, family, plugins):
    """Write LEVEL as DIMACS CNF, ASP facts, a CP-SAT model or an LP file, e.g. export L --format dimacs -o L.cnf."""
    from trisolve.backends import registry
    from trisolve.backends.base import Options

    load_plugins(plugins)
    fam, puzzle = load_instance(level, family)
    format_, spec = _format_and_backend(format_, backend_spec)
    name = check_backend(spec, fam.name)
    backend = registry.get(name, fam.name)
    options = Options(symmetry_breaking=symmetry_breaking)
    text = backend.export(puzzle, options)

    if output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        folder = os.path.dirname(os.path.abspath(output))
        os.makedirs(folder, exist_ok=True)
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
    if format_ == "asp" and name.startswith("clingo:"):
        click.echo("run it with: " + clingo_command(backend, puzzle, options, output), err=True)


def _format_and_backend(format_: str | None, spec: str | None) -> tuple[str, str]:
    """The format and the backend spec, each filled in from the other; a mismatch is a usage problem."""
    from trisolve.backends.registry import BACKENDS, OPTIONAL_BACKENDS, split_spec

    if spec is None:
        if format_ is None:
            raise UsageProblem("give --format dimacs|asp|cpsat|lp (or a --backend)")
        return format_, FORMATS[format_][0]
    name, _ = split_spec(spec)
    writers = [f for f, names in FORMATS.items() if name in names]
    if not writers and name not in BACKENDS + OPTIONAL_BACKENDS:
        # a plugin's backend: its export writes whatever format it writes; the user says which
        if format_ is None:
            raise UsageProblem(f"backend {name!r} comes from a plugin: say which --format its export writes")
        return format_, spec
    if not writers:
        raise UsageProblem(
            f"backend {name!r} does not export a format; "
            + "; ".join(f"{f}: {', '.join(n)}" for f, n in FORMATS.items())
        )
    if format_ is None:
        return writers[0], spec
    if format_ not in writers:
        raise UsageProblem(f"--format {format_} is written by {', '.join(FORMATS[format_])}, not by {name}")
    return format_, spec


def clingo_command(backend, level, options, facts_file: str) -> str:
    """The exact plain-``clingo`` call that counts the exported facts' solutions (projected on ``#show``).

    The clingo engine builds it: the shipped ``.lp`` files of the variant (and
    of symmetry breaking), the options the variant runs with, ``0`` models.
    """
    from dataclasses import replace

    from trisolve.backends.clingo import engine

    program = backend.encode(level, options)
    return engine.command_line(program, replace(options, enumerate=True), facts_file)
