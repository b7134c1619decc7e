"""``trisolve solve``: its options, read by click; the command itself is ``solving.solve_files``.

``trisolve solve`` given files and flags alone is read without click (``main.plain_solve``); a test checks
that both readings hand ``solve_files`` the same arguments.
"""

from __future__ import annotations

import click

from .common import SEED, SOLUTION_LIMIT, TIMEOUT, colour_option, plugin_option, quiet_option
from .running import Exit
from .solving import solve_files


def _backend_names() -> list[str]:
    """Every shipped backend, from the registry (the help text lists what there is, dp and dimacs too)."""
    from trisolve.backends import registry

    return list(registry.shipped())


@click.command(name="solve")
@click.argument("paths", nargs=-1, required=True, type=click.Path(), metavar="FILE_OR_DIR...")
@click.option(
    "--backend",
    "-b",
    "backend_spec",
    default=None,
    metavar="NAME[:VARIANT]",
    help=f"{', '.join(_backend_names())} (optionally :variant; trisolve backends lists them), or auto (race the "
    "measured best: three for a first solution, two for --count). Default: the measured best for the family and task "
    "(trisolve backends shows it).",
)
@click.option("--all", is_flag=True, help="Print every solution.")
@click.option("--count", is_flag=True, help="Count the solutions (prints the count, not the boards).")
@click.option("--limit", type=SOLUTION_LIMIT, default=None, help="Stop after N solutions (count shows N+).")
@click.option("--timeout", type=TIMEOUT, default=None, help="Wall-clock limit in seconds, per instance.")
@click.option("--symmetry-breaking", is_flag=True, help="Keep one solution per symmetry class (the lex-leader).")
@click.option("--family", default=None, help="Puzzle family, when it cannot be told from the file.")
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Solver random seed (pysat, whose solver has none, reorders its clauses from it; --shuffle also "
    "renumbers its variables).",
)
@click.option(
    "--shuffle",
    is_flag=True,
    help="Also reorder the solver's input from the seed (variables, clauses, facts): same solutions, "
    "different luck. The JSON's stats record seed and shuffle.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object per instance (one per line) instead of text."
)
@click.option(
    "--jsonl",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    metavar="FILE",
    help="Also write one JSON object per instance to FILE (overwritten), each line as its run finishes.",
)
@colour_option
@quiet_option
@click.option(
    "--sat-command",
    default=None,
    metavar="CMD",
    help='External SAT solver for --backend dimacs (e.g. "kissat"); with auto it joins the race.',
)
@click.option(
    "--svg",
    "svg_dir",
    default=None,
    metavar="DIR",
    help="Also draw each solution shown (the first, or every one with --all) as DIR/NAME.svg.",
)
@click.option(
    "--memory",
    default=None,
    metavar="SIZE",
    help="Memory budget of --backend dp's layers, e.g. 12G or 800M (default: half this machine's memory, at most "
    "12G); a count that would exceed it stops as incomplete; for --backend exactcover, "
    "the problem it builds (default: half the machine's memory, at most 4G); for --backend ganak, the counting "
    "process's address space (at least 64M; default: half the machine's memory, at most 4G), past which the run is "
    "an error. Refused with the other backends (they keep no budget).",
)
@plugin_option
def command(**options):
    """Solve each FILE (and each instance file in each DIR): the first solution, every solution
    (--all) or the count (--count). The solver is imported once; each run is a forked child
    with a hard kill behind --timeout. Exit code: the worst of the runs; a count cut short is
    0 when it stopped at your own --limit (the question asked), 3 when --timeout (or --memory)
    stopped it first (docs/exit-codes.md)."""
    try:
        solve_files(**options)
    except Exit as done:
        raise click.exceptions.Exit(done.exit_code) from None
