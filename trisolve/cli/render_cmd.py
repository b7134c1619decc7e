"""``trisolve render``: a level, or one of its solutions, as an SVG or PNG picture."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from trisolve.models.errors import shorten

from .common import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    TIMEOUT,
    UsageProblem,
    as_usage_problem,
    load_level,
    process_started,
)

#: Largest solution file read (a ``solve --all --json`` of thousands of tilings is a few MB).
MAX_SOLUTION_BYTES = 64_000_000
PICTURE_KINDS = (".svg", ".png")

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
    type=click.IntRange(min=1),
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
    help="Backend for --solve (default: the measured fastest for the family).",
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
    check_output(output)
    if solve_now and solution_file:
        raise UsageProblem("give either --solution or --solve, not both")
    if (backend_spec or timeout) and not solve_now:
        raise UsageProblem("--backend and --timeout go with --solve")
    loaded = load_level(level, family)
    if solution_file:
        picture = read_solution(solution_file, index, loaded).picture()
    elif solve_now:
        solution = _solve(loaded, backend_spec, timeout)
        picture = solution.picture() if solution is not None else loaded.picture()
    else:
        picture = loaded.picture()
    write_picture(output, picture)
    click.echo(f"wrote {output}", err=True)


def check_output(path: str) -> None:
    """A picture's file name must say its kind; checked before any work is done."""
    if os.path.splitext(path)[1].lower() not in PICTURE_KINDS:
        raise UsageProblem(f"{path}: the picture must be a .svg or .png file")


def write_picture(path: str, svg: str) -> None:
    from trisolve.models.pictures import PngUnavailable, save

    try:
        with as_usage_problem():  # a file that cannot be written (models.files.FileProblem)
            save(svg, path)
    except PngUnavailable as missing:
        raise UsageProblem(str(missing)) from None


def write_solution_pictures(directory: str, instance: str, solutions: Sequence[api.Solution]) -> list[str]:
    """``solve --svg DIR``: one picture per solution, named after the instance file
    (``level38.svg``; with several, ``level38-1.svg``, ``level38-2.svg``, ...)."""
    from trisolve.models import files

    with as_usage_problem():
        files.make_folder(directory, "--svg folder")
    stem = os.path.splitext(os.path.basename(instance))[0]
    names = [f"{stem}.svg"] if len(solutions) == 1 else [f"{stem}-{k}.svg" for k in range(1, len(solutions) + 1)]
    written = []
    for name, solution in zip(names, solutions):
        path = os.path.join(directory, name)
        write_picture(path, solution.picture())
        written.append(path)
    return written


def read_solution(path: str, index: int, level: api.Level) -> api.Solution:
    """The solution a JSON file holds, checked against the level by the family's validator.

    The file is ``solve --json`` output, one solution object from it, or JSON
    lines (``solve --jsonl``, or ``--json`` over many files): then the line
    about this level's file is used.
    """
    from trisolve.models import files

    with as_usage_problem():
        text = files.read_text(path, what="solution file", limit=MAX_SOLUTION_BYTES)
        try:
            data = files.parse_json(text, path)
        except files.NotJson as problem:
            if "Extra data" not in problem.message:
                raise
            data = _line_about(path, text, level)
    if not isinstance(data, dict):
        raise UsageProblem(f"{path}: expected a JSON object (solve --json output or one solution)")
    if data.get("family", level.family) != level.family:
        raise UsageProblem(
            f"{path}: holds a {shorten(data['family'])} solution; {level.run_path} is a {level.family} level"
        )
    if "solutions" in data:
        solutions = data["solutions"]
        if not isinstance(solutions, list):
            raise UsageProblem(f"{path}: 'solutions' is not a list")
        if not solutions:
            raise UsageProblem(f"{path}: holds no solution (status {data.get('status', 'unknown')})")
        if index > len(solutions):
            raise UsageProblem(f"{path}: holds {len(solutions)} solution(s); --index {index} is past the end")
        data = solutions[index - 1]
    elif index != 1:
        raise UsageProblem(f"{path}: holds one solution; --index {index} is past the end")
    if not isinstance(data, dict):
        raise UsageProblem(f"{path}: solution {index} is not a JSON object")
    try:
        solution = level.solution(data)
    except (KeyError, TypeError, ValueError, AttributeError) as problem:
        reason = shorten(f"{type(problem).__name__}: {problem}", 200)
        raise UsageProblem(f"{path}: not a {level.family} solution ({reason})") from None
    violations = solution.violations()
    if violations:
        shown = "; ".join(violations[:3]) + ("; ..." if len(violations) > 3 else "")
        raise UsageProblem(f"{path}: not a solution of {level.run_path}: {shown}")
    return solution


def _line_about(path: str, text: str, level: api.Level) -> dict:
    """From JSON lines, the record whose ``instance`` is the level's file (by path, else by name)."""
    from trisolve.models import files

    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            with as_usage_problem():
                records.append(files.parse_json(line, path, number))
    records = [r for r in records if isinstance(r, dict) and isinstance(r.get("instance"), str)]
    wanted = os.path.abspath(level.run_path)
    same = [r for r in records if os.path.abspath(r["instance"]) == wanted]
    if not same:
        name = os.path.basename(level.run_path)
        same = [r for r in records if os.path.basename(r["instance"]) == name]
    if len({r["instance"] for r in same}) != 1:
        what = "no line" if not same else "lines about different files"
        raise UsageProblem(f"{path}: {what} for {level.run_path} among its {len(records)} JSON lines")
    return same[0]


def _solve(level: api.Level, backend_spec: str | None, timeout: float | None) -> api.Solution | None:
    """The first solution, from a run as ``solve`` makes it (own process, hard limit); None when none exists."""
    from .. import api

    with as_usage_problem():
        result = api.solve(level, backend_spec, timeout=timeout, started=process_started())
    if result.interrupted:  # Ctrl-C or SIGTERM: nothing is drawn, and it is not "no solution"
        click.echo(f"trisolve: interrupted before {result.backend} found a solution; nothing drawn", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
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
    raise click.exceptions.Exit(EXIT_INTERNAL)
