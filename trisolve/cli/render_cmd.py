"""``trisolve render``: a level, or one of its solutions, as an SVG or PNG picture (``trisolve.api.render``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from trisolve.models.errors import UsageError

from .common import EXIT_FAILED, EXIT_LIMIT, INDEX, TIMEOUT

if TYPE_CHECKING:  # pragma: no cover
    from .. import api


@click.command(name="render")
@click.argument("level", type=click.Path(dir_okay=False))
@click.option("--output", "-o", required=True, metavar="OUT.svg|OUT.png", help="The picture to write (.svg, or .png).")
@click.option(
    "--solution",
    "solution_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE.json",
    help="Draw this solution: the output of solve --json, or one solution object from it.",
)
@click.option(
    "--index",
    type=INDEX,
    default=1,
    show_default=True,
    help="Which solution of a solve --all --json file to draw.",
)
@click.option("--solve", "solve_now", is_flag=True, help="Solve the level now and draw its first solution.")
@click.option(
    "--backend",
    "-b",
    "backend_spec",
    default=None,
    metavar="NAME[:VARIANT]",
    help="Backend for --solve (default: the measured best first-solution backend for the family).",
)
@click.option(
    "--timeout",
    type=TIMEOUT,
    default=None,
    help="Wall-clock limit in seconds for --solve.",
)
@click.option("--family", default=None, help="Puzzle family, when it cannot be told from the file.")
def command(level, output, solution_file, index, solve_now, backend_spec, timeout, family):
    """Draw LEVEL (locked and blocked cells, pieces or clues), or a solution of it, to OUT."""
    from .. import api

    api.check_picture_path(output)  # before any work is done
    if solve_now and solution_file:
        raise UsageError("give either --solution or --solve, not both")
    if (backend_spec or timeout) and not solve_now:
        raise UsageError("--backend and --timeout go with --solve")
    loaded = api.load(level, family)
    drawn = loaded
    if solution_file:
        drawn = api.read_solution(solution_file, loaded, index)
    elif solve_now:
        drawn = _solve(loaded, backend_spec, timeout) or loaded
    api.render(drawn, output)
    click.echo(f"wrote {output}", err=True)


def write_solution_pictures(directory: str, instance: str, solutions: Sequence[api.Solution]) -> list[str]:
    """``solve --svg DIR``: one picture per solution, named after the instance file
    (``level38.svg``; with several, ``level38-1.svg``, ``level38-2.svg``, ...)."""
    from .. import api

    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as problem:
        raise UsageError(f"{directory}: cannot create folder: {problem.strerror or problem}") from None
    stem = os.path.splitext(os.path.basename(instance))[0]
    names = [f"{stem}.svg"] if len(solutions) == 1 else [f"{stem}-{k}.svg" for k in range(1, len(solutions) + 1)]
    return [api.render(solution, os.path.join(directory, name)) for name, solution in zip(names, solutions)]


def _solve(level: api.Level, backend_spec: str | None, timeout: float | None) -> api.Solution | None:
    """The first solution, from a run as ``solve`` makes it (own process, hard limit); None when none exists."""
    from .. import api

    result = api.solve(level, backend_spec, timeout=timeout)
    if result.error and not result.solutions:
        _fail(f"{result.backend} failed: {result.error}")
    if result.invalid:
        _fail(f"{result.backend} returned an INVALID solution: {'; '.join(result.invalid[0][1][:3])}")
    if result.status == "unknown":
        click.echo(f"trisolve: {result.backend} found no solution within the limits; nothing drawn", err=True)
        raise click.exceptions.Exit(EXIT_LIMIT)
    if not result.solutions:
        click.echo(f"trisolve: {result.backend}: no solution exists; drawing the level alone", err=True)
        return None
    return result.solutions[0]


def _fail(message: str) -> None:
    """Our own failure (not the user's input): exit code 1."""
    click.echo(f"trisolve: {message}", err=True)
    raise click.exceptions.Exit(EXIT_FAILED)
