"""``trisolve solve`` itself, without click: instances one after another, one backend (or a portfolio race) each.

A thin layer over ``trisolve.api.solve``: this module prints each Result as text or JSON and turns the runs into
one exit code.  Click reads the options (``solve_cmd.py``), or, for files and flags alone, ``main.plain_solve``
does: a one-off solve need not import click.
"""

from __future__ import annotations

import contextlib
import sys
import time
from typing import Any, NamedTuple

from trisolve.models.errors import UsageError

from .progress import colour_wanted, for_command
from .running import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_USAGE,
    Exit,
    echo,
    instance_files,
    interrupted_exit,
    load_plugins,
    process_started,
)

#: how bad each exit code is, for the worst of many runs: an internal error (or an invalid
#: solution) outranks bad input, which outranks a run stopped by a limit
_SEVERITY = {EXIT_OK: 0, EXIT_LIMIT: 1, EXIT_USAGE: 2, EXIT_FAILED: 3, EXIT_INTERRUPTED: 4}


def solve_files(
    paths: tuple[str, ...],
    backend_spec: str | None,
    family: str | None,
    as_json: bool,
    jsonl: str | None,
    colour: bool | None,
    quiet: bool,
    svg_dir: str | None,
    memory: str | None,
    plugins: tuple[str, ...],
    **solving: Any,
) -> None:
    """Solve each file (and each instance file in each folder) as ``trisolve solve`` does; ``Exit`` with the
    worst run's exit code when it is not 0.  ``solving`` holds ``api.solve``'s own keyword arguments (all,
    count, limit, timeout, symmetry_breaking, seed, shuffle, sat_command)."""
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
    if memory is not None:
        from trisolve.backends import numbers

        solving["memory"] = numbers.memory_size(memory)
    else:
        solving["memory"] = None
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
                echo(("\n" if index else "") + f"==> {path} <==")
            code = _solve_one(path, family, backend_spec, {**solving, "started": started}, show)
            started = None
            worst = max(worst, code, key=_SEVERITY.__getitem__)
            if code == EXIT_INTERRUPTED:  # Ctrl-C: what finished is printed; the rest is not started
                break
    finally:
        if log is not None:
            log.close()
    if log is not None and log.failed is not None:  # the answers are printed; the file is not whole
        echo(f"trisolve: {log.failed}", err=True)
        worst = max(worst, EXIT_USAGE, key=_SEVERITY.__getitem__)
    interrupted_exit()
    if worst:
        raise Exit(worst)


class _Show(NamedTuple):
    """How the runs are shown: JSON lines or text, also to a --jsonl file, rendered with these options, with a
    header per file when there are ``many``, pictures to ``svg_dir``.  (A named tuple: this module's one
    record, read only here, need not cost a dataclass's making at every start.)"""

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
                echo(solution.level.describe())
                headed.append(True)
            echo(solution.render(**render_options), color=colour)

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
        echo(f"trisolve: {problem}", err=True)
        return problem.exit_code
    else:
        progress.close(finished=result.stopped_by is None)  # it ran to its end: its last line says done
    finally:
        progress.close()
    level = result.level
    if result.portfolio:
        for note in result.portfolio.get("left_out", ()):
            echo(f"trisolve: {note}", err=True)
    if result.error:
        echo(f"trisolve: {result.backend} failed: {result.error}", err=True)
    record = result.to_json(solutions=all_ or not enumerate_)
    found = answers(result, **_settling(solving, began)) if result.status == "sat" else ()
    if found:
        record["answers"] = answers_json(found)
    line = dumps(record) + "\n"
    if as_json:
        sys.stdout.write(line)
    else:
        if not headed:
            echo(level.describe() if level.model is not None else f"{path}: not parsed within the time limit")
        if result.solutions and (not enumerate_ or (count and result.complete and result.count == 1)):
            # the first solution, or the only one when a count proved it unique
            shown = {**render_options, **({"answers": found} if found else {})}
            echo(result.solutions[0].render(**shown), color=colour)
        elif found and all_:  # each grid listed says its own answer; over them all, how sure it is
            echo("\n".join(answer.text() for answer in found))
        echo(_summary(result))
        if result.portfolio:
            echo(_portfolio_line(result.portfolio))
        echo(_stats_line(result))
    if svg_dir:
        from .render_cmd import write_solution_pictures

        invalid = {i for i, _ in result.invalid}
        valid = [s for i, s in enumerate(result.solutions) if i not in invalid]
        for written in write_solution_pictures(svg_dir, path, valid):
            echo(f"wrote {written}", err=True)
    for i, violations in result.invalid:
        echo(f"trisolve: solution {i + 1} from {result.backend} is INVALID: " + "; ".join(violations[:5]), err=True)
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
