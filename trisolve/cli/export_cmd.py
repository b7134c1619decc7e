"""``trisolve export``: an instance in a solver's own format, to run without trisolve.

Each format is one backend's ``export(level, options)``: DIMACS from pysat
(``c`` lines name each puzzle variable), ASP facts from clingo (they run with
the shipped ``.lp`` rules under the plain ``clingo`` command, printed to
stderr), the CP-SAT model proto as text from cpsat, exact cover in Knuth's
format (items line, then one option per line) from exactcover.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .common import load_plugins, plugin_option


@click.command(name="export")
@click.argument("level", type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "-f",
    "format_",
    metavar="dimacs|asp|cpsat|xc",
    default=None,
    help="dimacs (CNF), asp (facts for the .lp rules), cpsat (model proto, text) or xc (exact cover, Knuth's "
    "format). Default: the --backend's format.",
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
    """Write LEVEL as DIMACS CNF, ASP facts, a CP-SAT model or exact cover, e.g. export L --format dimacs -o L.cnf."""
    from .. import api

    load_plugins(plugins)
    exported = api.export(
        Path(level),  # a file argument is a path, even with a line break in its name
        backend_spec,
        format=format_,
        symmetry_breaking=symmetry_breaking,
        file=output,
        family=family,
    )
    if output == "-":
        sys.stdout.write(exported.text)
        sys.stdout.flush()
    else:
        from trisolve.models import files

        # never over the instance itself (it was read through models.files); a full disk leaves the old file whole
        files.make_folder(os.path.dirname(os.path.abspath(output)), "output folder")
        files.write_text(output, exported.text, what="export file")
    if exported.command:
        click.echo("run it with: " + exported.command, err=True)
