"""``trisolve solve``: instances one after another, one backend (or a portfolio race) each.

A thin layer over ``trisolve.api.solve``: this module reads the options,
prints each Result as text or JSON, and turns the runs into one exit code.
"""

from __future__ import annotations

import contextlib
import sys
import time
from dataclasses import dataclass
from typing import Any

import click

from trisolve.backends import numbers
from trisolve.models.errors import UsageError

from .common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_USAGE,
    SEED,
    SOLUTION_LIMIT,
    TIMEOUT,
    colour_option,
    instance_files,
    interrupted_exit,
    load_plugins,
    plugin_option,
    process_started,
    quiet_option,
)
from .progress import colour_wanted, for_command

#: how bad each exit code is, for the worst of many runs: an internal error (or an invalid
#: solution) outranks bad input, which outranks a run stopped by a limit
_SEVERITY = {EXIT_OK: 0, EXIT_LIMIT: 1, EXIT_USAGE: 2, EXIT_FAILED: 3, EXIT_INTERRUPTED: 4}


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
def command(paths, backend_spec, family, as_json, jsonl, colour, quiet, svg_dir, memory, plugins, **solving):
    """Solve each FILE (and each instance file in each DIR): the first solution, every solution
    (--all) or the count (--count). The solver is imported once; each run is a forked child
    with a hard kill behind --timeout. Exit code: the worst of the runs; a count cut short is
    0 when it stopped at your own --limit (the question asked), 3 when --timeout (or --memory)
    stopped it first (docs/exit-codes.md)."""
    from trisolve.models import files as io

    # the options not named in the signature are api.solve's own keyword arguments (all, count, limit, ...)
    if solving["all"] and solving["count"]:
        raise UsageError("--all and --count cannot be used together")
    load_plugins(plugins)
    if solving["limit"] is not None and not (solving["all"] or solving["count"]):
        raise UsageError("--limit needs --all or --count")
    if backend_spec == "auto" and solving["all"]:
        raise UsageError("--backend auto races for a first solution or a --count; use one backend with --all")
    if svg_dir and solving["count"]:
        raise UsageError("--svg draws the solutions shown; --count shows none (use --all)")
    solving["memory"] = None if memory is None else numbers.memory_size(memory)
    files = instance_files(paths)  # this command's inputs: --jsonl may not overwrite one
    many = len(files) > 1
    render_options = {"colour": colour_wanted(colour)}
    log = io.Output(jsonl, what="--jsonl file") if jsonl else None
    show = _Show(as_json, log, render_options, many, svg_dir, quiet or as_json)
    worst = EXIT_OK
    started = process_started()  # the first instance's --timeout counts from the command's start
    try:
        for index, path in enumerate(files):
            if many and not as_json:
                click.echo(("\n" if index else "") + f"==> {path} <==")
            code = _solve_one(path, family, backend_spec, {**solving, "started": started}, show)
            started = None
            worst = max(worst, code, key=_SEVERITY.__getitem__)
            if code == EXIT_INTERRUPTED:  # Ctrl-C: what finished is printed; the rest is not started
                break
    finally:
        if log is not None:
            log.close()
    if log is not None and log.failed is not None:  # the answers are printed; the file is not whole
        click.echo(f"trisolve: {log.failed}", err=True)
        worst = max(worst, EXIT_USAGE, key=_SEVERITY.__getitem__)
    interrupted_exit()
    if worst:
        raise click.exceptions.Exit(worst)


@dataclass(frozen=True)
class _Show:
    """How the runs are shown: JSON lines or text, also to a --jsonl file, rendered with these options, with a
    header per file when there are ``many``, pictures to ``svg_dir``."""

    as_json: bool
    log: Any
    render_options: dict
    many: bool
    svg_dir: str | None
    quiet: bool = False


def _solve_one(path: str, family: str | None, backend_spec: str | None, solving: dict, show: _Show) -> int:
    """Solve one instance and print it; returns its exit code (bad input among many is reported, not raised)."""
    from trisolve.models.errors import TrisolveError
    from trisolve.models.files import dumps

    from .. import api
    from ..answers import answers
    from ..answers import to_json as answers_json

    all_, count, as_json, log, svg_dir = solving["all"], solving["count"], show.as_json, show.log, show.svg_dir
    render_options = show.render_options
    enumerate_ = all_ or count
    began = solving["started"] if solving.get("started") is not None else time.monotonic()
    colour = bool(render_options.get("colour"))
    progress = for_command("solve", quiet=show.quiet or not enumerate_, unit="solutions")
    progress.phase(f"{'counting' if count else 'listing'} {path}")

    headed = []  # with --all the level's header goes before its first solution, not after the last

    def on_solution(solution) -> None:
        progress.advance(1)
        if all_ and not as_json:
            if not headed:
                click.echo(solution.level.describe())
                headed.append(True)
            click.echo(solution.render(**render_options), color=colour)

    try:
        kind = api.family_of(path, family)
        render_options = {k: v for k, v in render_options.items() if k in kind.render_options}
        # the file is parsed in the run's child, so --timeout covers parsing too, and before the backend is
        # made there (its solver imported): a bad file is refused at once; an unusable backend, before any output
        result = api.solve(
            api.named(path),  # a path, even with a line break in its name (a link stays a link)
            backend_spec,
            family=kind.name,
            # a count shows no boards: the run ships them only for --all (and a count's progress is its tally)
            on_solution=None if count else on_solution,
            on_found=progress.completed if count else None,
            on_progress=progress.report,
            **solving,
        )
    except TrisolveError as problem:
        if not show.many:
            raise
        click.echo(f"trisolve: {problem}", err=True)
        return problem.exit_code
    else:
        progress.close(finished=result.stopped_by is None)  # it ran to its end: its last line says done
    finally:
        progress.close()
    level = result.level
    if result.portfolio:
        for note in result.portfolio.get("left_out", ()):
            click.echo(f"trisolve: {note}", err=True)
    if result.error:
        click.echo(f"trisolve: {result.backend} failed: {result.error}", err=True)
    record = result.to_json(solutions=all_ or not enumerate_)
    found = answers(result, **_settling(solving, began)) if result.status == "sat" else ()
    if found:
        record["answers"] = answers_json(found)
    line = dumps(record) + "\n"
    if as_json:
        sys.stdout.write(line)
    else:
        if not headed:
            click.echo(level.describe() if level.model is not None else f"{path}: not parsed within the time limit")
        if result.solutions and (not enumerate_ or (count and result.complete and result.count == 1)):
            # the first solution, or the only one when a count proved it unique
            shown = {**render_options, **({"answers": found} if found else {})}
            click.echo(result.solutions[0].render(**shown), color=colour)
        elif found and all_:  # each grid listed says its own answer; over them all, how sure it is
            click.echo("\n".join(answer.text() for answer in found))
        click.echo(_summary(result))
        if result.portfolio:
            click.echo(_portfolio_line(result.portfolio))
        click.echo(_stats_line(result))
    if svg_dir:
        from .render_cmd import write_solution_pictures

        invalid = {i for i, _ in result.invalid}
        valid = [s for i, s in enumerate(result.solutions) if i not in invalid]
        for written in write_solution_pictures(svg_dir, path, valid):
            click.echo(f"wrote {written}", err=True)
    for i, violations in result.invalid:
        click.echo(
            f"trisolve: solution {i + 1} from {result.backend} is INVALID: " + "; ".join(violations[:5]), err=True
        )
    if log is not None:  # after the answer is printed: a full disk must not cost the answer
        with contextlib.suppress(TrisolveError):  # kept in log.failed, reported once at the end
            log.write(line)
    return _exit_code(result, solving["limit"])


def _settling(solving: dict, began: float) -> dict:
    """How the answers to a level's questions are settled (``trisolve.answers``): a second solution is looked
    for within what is left of --timeout (the limit covers the whole run); none when nothing is left."""
    from .. import api

    if solving["timeout"] is None:
        return {"solve": api.solve, "timeout": None}
    left = solving["timeout"] - (time.monotonic() - began)
    return {"solve": api.solve if left > 0.05 else None, "timeout": max(left, 0.05)}


def _exit_code(result, limit: int | None) -> int:
    if result.stopped_by and result.stopped_by.startswith("interrupted"):
        return EXIT_INTERRUPTED
    if result.invalid or (result.error and result.count == 0):
        return EXIT_FAILED
    if result.status == "unknown":
        return EXIT_LIMIT
    if result.mode == "first" or result.complete:
        return EXIT_OK
    # an enumeration that stopped at the user's own --limit answered the question asked
    if limit is not None and result.count >= limit:
        return EXIT_OK
    return EXIT_LIMIT


def _portfolio_line(portfolio: dict) -> str:
    others = [r for r in portfolio["runs"] if r["backend"] != portfolio["winner"]]
    shown = ", ".join(f"{r['backend']} {r.get('stopped_by') or r['status']}" for r in others)
    if portfolio["winner"] is None:
        return "portfolio: no backend answered (" + shown + ")"
    return f"portfolio: {portfolio['winner']} answered first" + (f"; stopped the others ({shown})" if shown else "")


def _summary(result) -> str:
    what = {"sat": "solved", "unsat": "no solution exists", "unknown": "no answer within the limits"}[result.status]
    parts = [f"{result.backend}: {what}"]
    if result.mode == "all" or result.status == "unsat":
        noun = "symmetry classes" if result.symmetry_breaking else "solutions"
        if result.complete and result.count == 1:
            parts.append("exactly one " + ("symmetry class" if result.symmetry_breaking else "solution (unique)"))
        else:
            parts.append(f"{result.count_text} {noun}" + ("" if result.complete else " (incomplete)"))
    if result.stopped_by:
        parts.append(f"stopped: {result.stopped_by}")
    if result.duplicates:
        parts.append(f"{result.duplicates} duplicate reports ignored")
    return ", ".join(parts)


def _stats_line(result) -> str:
    shown = ", ".join(f"{k} {v:.3f}s" for k, v in result.times.items())
    stats = ", ".join(f"{k} {v}" for k, v in result.stats.items() if isinstance(v, (int, float, str)))
    return f"time: {shown}" + (f"\nstats: {stats}" if stats else "")
