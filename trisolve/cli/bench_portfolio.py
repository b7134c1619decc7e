"""``trisolve bench --portfolio``: measure every backend per family and task, write the table and its page.

A thin layer over ``trisolve.api.measure_portfolio`` (and ``read_portfolio``, ``make_defaults``): this module
prints the plan and its bound on the run time, shows progress, writes OUT/ (runs.jsonl as runs finish: the
library's journal; portfolio.json, results.json, portfolio.md, portfolio.png), and with ``--write-defaults``
the shipped table ``solve`` takes its defaults from (``selection/portfolio.json``).  The pages of a source
checkout (docs/bench/portfolio.md, the README's table) are ``scripts/write_docs.py``'s to write, from that table.
"""

from __future__ import annotations

import os

import click

from .common import interrupted_exit
from .progress import for_command

DEFAULT_OUT = "portfolio-results"


def run(
    *,
    paths: tuple[str, ...],
    families: str | None,
    tasks: str | None,
    timeout: float | None,
    seeds: int,
    max_size: str | None,
    backends: str | None,
    sat_command: str | None,
    out_dir: str | None,
    write_defaults: bool,
    plots: bool,
    quiet: bool,
    command: str | None,
) -> None:
    from .. import api

    out_dir = out_dir or DEFAULT_OUT
    say = (lambda text: None) if quiet else (lambda text: click.echo(text, err=True))
    progress = None

    def planned(the_plan, config) -> None:
        nonlocal progress
        for note in the_plan.notes:
            say(f"portfolio: leaving out {note}")
        say(
            f"portfolio: {len(the_plan.backends)} family x task pair(s); at most {the_plan.most_runs} runs "
            f"({the_plan.shipped_runs} on fixed instances, up to {the_plan.most_generated_runs} on generated "
            f"ones), each stopped by {config.timeout:g} s + grace: at most {the_plan.most_seconds / 60:.0f} min "
            f"of runs (most runs take far less); writing to {out_dir}/"
        )
        # the plan's run count is an upper bound (a backend's sizes stop at the first it leaves unsolved)
        progress = for_command("bench", quiet=quiet)
        progress.phase("portfolio (at most)", the_plan.most_runs)

    def on_run(task: str, one, instance) -> None:
        outcome = "solved" if one.solved else (one.error or one.stopped_by or one.status)
        if task == "count" and one.complete:
            outcome += f" ({one.count})"
        size = "" if instance.size is None else f" size {instance.size}"
        what = f"{instance.family} {task} {instance.name}{size} {one.backend}"
        progress.advance(1, f"{what}: {one.time:.2f} s, {outcome.splitlines()[0][:60]}")

    def on_stop(stop) -> None:
        say(
            f"portfolio: {stop.backend} left a {stop.family} instance of size {stop.size} unsolved ({stop.task}): "
            f"no larger sizes for it ({stop.skipped} skipped, scored unsolved)"
        )

    try:
        measured = api.measure_portfolio(
            paths,
            families=families,
            tasks=tasks,
            timeout=timeout,
            seeds=seeds,
            max_size=max_size,
            backends=backends,
            sat_command=sat_command,
            folder=out_dir,
            command=command,
            on_plan=planned,
            on_run=on_run,
            on_stop=on_stop,
        )
    finally:
        if progress is not None:
            progress.close()
    _finish(measured, out_dir, write_defaults, plots, say)


def rescore(*, out_dir: str | None, write_defaults: bool, plots: bool, quiet: bool) -> None:
    """Rebuild the table, page and plot from OUT/results.json, or from the runs.jsonl journal of a run
    that was killed (then the table covers the runs that finished, and is never written as the defaults)."""
    from trisolve.models.errors import UsageError

    from .. import api

    out_dir = out_dir or DEFAULT_OUT
    say = (lambda text: None) if quiet else (lambda text: click.echo(text, err=True))
    measured = api.read_portfolio(out_dir)
    if write_defaults and measured.interrupted:
        raise UsageError(f"{measured.source}: the run was cut short; its table is not written as the defaults")
    _finish(measured, out_dir, write_defaults, plots, say)


def _finish(measured, out_dir: str, write_defaults: bool, plots: bool, say) -> None:
    """Write OUT/ (portfolio.json, results.json, portfolio.md, the plot) all or nothing, print the page; then,
    if asked, the shipped table (``api.make_defaults``)."""
    from trisolve.runs import interrupted

    from .. import api

    png = None
    if plots and not interrupted():
        png = _draw(measured.panels(), float(measured.header["timeout"]))
    page = measured.save(out_dir, png, shipped=write_defaults)
    click.echo(page, nl=False)
    say(f"portfolio: {len(measured.outcome.runs)} runs; results in {out_dir}/")
    interrupted_exit()  # a cut-short table is never written as the defaults
    if write_defaults:
        written = api.make_defaults(measured)
        say(f"portfolio: wrote {_shown(written)}")
        say(
            "portfolio: in a source checkout, python scripts/write_docs.py --portfolio "
            f"{_shown(out_dir)} writes its page (docs/bench/portfolio.md) and the README's table"
        )


def _draw(panels, timeout: float) -> bytes | None:
    from trisolve.bench.plots import PlotsUnavailable, portfolio

    try:
        return portfolio(panels, timeout)
    except PlotsUnavailable as problem:
        click.echo(f"portfolio: no plot: {problem}", err=True)
        return None


def _shown(path: str) -> str:
    """A path as the user would type it: relative to here when inside it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
