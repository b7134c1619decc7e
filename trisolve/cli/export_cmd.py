"""``trisolve export``: an instance in a solver's own format, to run without trisolve.

Each format is one backend's ``export(level, options)``: DIMACS from pysat
(``c`` lines name each puzzle variable, ``c p show ... 0`` is the projection
a model counter needs; ganak writes the CNF it counts), ASP facts from clingo
(they run with the shipped ``.lp`` rules under the plain ``clingo`` command,
printed to stderr), the CP-SAT model proto as text from cpsat, exact cover in
Knuth's format (items line, then one option per line) from exactcover, the
0-1 model in CPLEX LP from mip.  A family with links (``Family.url``) writes its
own: ``--format puzzlink`` prints the puzzle's puzz.link address.
"""

from __future__ import annotations

import os
import sys

import click

from .common import load_plugins, plugin_option


@click.command(name="export")
@click.argument("level", type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "-f",
    "format_",
    metavar="dimacs|asp|cpsat|xc|lp|puzzlink",
    default=None,
    help="dimacs (CNF with its projection line), asp (facts for the .lp rules), cpsat (model proto, text), "
    "xc (exact cover, Knuth's format), lp (the 0-1 model, CPLEX LP) or puzzlink (the puzzle's puzz.link link, "
    "for the families that have one). Default: the --backend's format.",
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
    """Write LEVEL as DIMACS CNF, ASP facts, a CP-SAT model, exact cover, an LP file or a puzz.link link
    (export L -f dimacs -o L.cnf)."""
    from .. import api

    load_plugins(plugins)
    exported = api.export(
        api.named(level),  # a file argument is a path, even with a line break in its name (a link stays a link)
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
