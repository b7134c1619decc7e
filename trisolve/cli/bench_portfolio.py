"""``trisolve bench --portfolio``: measure every backend per family and task, write the table and its page.

The measuring is ``trisolve.bench.portfolio``; this module reads the
options, prints the plan and its bound on the run time, shows progress,
writes OUT/ (runs.jsonl as runs finish, portfolio.json, portfolio.md,
portfolio.png), and with ``--write-defaults`` the shipped table
(``selection/portfolio.json``) and page (``docs/bench/portfolio.md``).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict

import click

from trisolve.backends import numbers
from trisolve.models.errors import UsageError

from .common import interrupted_exit, split_list
from .progress import for_command

DEFAULT_TIMEOUT = 10.0
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
    from trisolve.bench import portfolio
    from trisolve.models import FAMILIES, files

    from .common import instance_files

    chosen = split_list(families) or list(FAMILIES)
    unknown = [f for f in chosen if f not in FAMILIES]
    if unknown:
        raise UsageError(f"--families: unknown {', '.join(unknown)}; known: {', '.join(FAMILIES)}")
    task_list = split_list(tasks) or list(portfolio.TASKS)
    wrong = [t for t in task_list if t not in portfolio.TASKS]
    if wrong:
        raise UsageError(f"--tasks: unknown {', '.join(wrong)}; known: {', '.join(portfolio.TASKS)}")
    seeds = numbers.PORTFOLIO_SEEDS.check(seeds, "--seeds")
    try:
        limits = portfolio.parse_max_size(max_size, chosen)
    except ValueError as problem:
        raise UsageError(str(problem)) from None
    found = tuple(instance_files(paths)) if paths else None
    config = portfolio.Config(
        families=tuple(chosen),
        tasks=tuple(task_list),
        timeout=timeout or DEFAULT_TIMEOUT,
        seeds=seeds,
        max_size=limits,
        backends=tuple(split_list(backends)),
        sat_command=sat_command,
        paths=found,
    )
    the_plan = portfolio.plan(config)
    if not the_plan.backends:
        raise UsageError("no usable backend for the families and tasks asked: nothing to measure")
    out_dir = out_dir or DEFAULT_OUT
    files.make_folder(out_dir, "--out folder")

    say = (lambda text: None) if quiet else (lambda text: click.echo(text, err=True))
    for note in the_plan.notes:
        say(f"portfolio: leaving out {note}")
    bound = the_plan.most_seconds
    say(
        f"portfolio: {len(the_plan.backends)} family x task pair(s); at most {the_plan.most_runs} runs "
        f"({the_plan.shipped_runs} on fixed instances, up to {the_plan.most_generated_runs} on generated ones), "
        f"each stopped by {config.timeout:g} s + grace: at most {bound / 60:.0f} min of runs "
        f"(most runs take far less); writing to {out_dir}/"
    )

    journal = files.Output(os.path.join(out_dir, "runs.jsonl"), what="portfolio journal")
    started = time.monotonic()
    load_start = portfolio.load_average()
    journal.write(json.dumps({"config": _config_json(config), "command": command, "load_start": load_start}) + "\n")

    def on_instance(instance) -> None:
        journal.write(json.dumps({"instance": instance.to_json()}) + "\n")

    def on_run(task: str, one, instance) -> None:
        journal.write(json.dumps({"task": task, "run": one.to_json()}) + "\n")
        outcome = "solved" if one.solved else (one.error or one.stopped_by or one.status)
        if task == "count" and one.complete:
            outcome += f" ({one.count})"
        size = "" if instance.size is None else f" size {instance.size}"
        what = f"{instance.family} {task} {instance.name}{size} {one.backend}"
        progress.advance(1, f"{what}: {one.time:.2f} s, {outcome.splitlines()[0][:60]}")

    def on_stop(stop) -> None:
        journal.write(json.dumps({"stop": asdict(stop)}) + "\n")
        say(
            f"portfolio: {stop.backend} left a {stop.family} instance of size {stop.size} unsolved ({stop.task}): "
            f"no larger sizes for it ({stop.skipped} skipped, scored unsolved)"
        )

    # the plan's run count is an upper bound (a backend's sizes stop at the first it leaves unsolved)
    progress = for_command("bench", quiet=quiet)
    progress.phase("portfolio (at most)", the_plan.most_runs)
    try:
        outcome = portfolio.run(
            config,
            the_plan,
            os.path.join(out_dir, "instances"),
            on_run=on_run,
            on_instance=on_instance,
            on_stop=on_stop,
        )
    finally:
        progress.close()
        journal.close()
    seconds = time.monotonic() - started
    head = portfolio.header(config, command, seconds, {"start": load_start, "end": portfolio.load_average()})
    _finish(outcome, head, config.timeout, out_dir, write_defaults, plots, say)


def rescore(*, out_dir: str | None, write_defaults: bool, plots: bool, quiet: bool) -> None:
    """Rebuild the table, page and plot from OUT/results.json, or from the runs.jsonl journal of a run
    that was killed (then the table covers the runs that finished, and is never written as the defaults)."""
    from trisolve.bench import portfolio

    out_dir = out_dir or DEFAULT_OUT
    say = (lambda text: None) if quiet else (lambda text: click.echo(text, err=True))
    source = os.path.join(out_dir, "results.json")
    try:
        if os.path.exists(source):
            with open(source, encoding="utf-8") as handle:
                data = json.load(handle)
            head = data["header"]
        else:
            source = os.path.join(out_dir, "runs.jsonl")
            data, head = _read_journal(source)
        outcome = portfolio.outcome_from_json(data)
    except (OSError, ValueError, KeyError, TypeError) as problem:
        raise UsageError(f"{source}: cannot be read as portfolio results ({problem})") from None
    if write_defaults and outcome.interrupted:
        raise UsageError(f"{source}: the run was cut short; its table is not written as the defaults")
    _finish(outcome, head, float(head["timeout"]), out_dir, write_defaults, plots, say)


def _read_journal(path: str) -> tuple[dict, dict]:
    from trisolve.bench import portfolio
    from trisolve.crosscheck.jsonl import read_lines

    first, *lines = read_lines(path)
    config = portfolio.Config(**first["config"])
    head = portfolio.header(config, first.get("command"), 0.0, {"start": first.get("load_start"), "end": None})
    head["seconds"] = None
    data = {
        "instances": [line["instance"] for line in lines if "instance" in line],
        "runs": [{"task": line["task"], **line["run"]} for line in lines if "run" in line],
        "stops": [line["stop"] for line in lines if "stop" in line],
        "interrupted": True,
    }
    return data, head


def _finish(outcome, head: dict, timeout: float, out_dir: str, write_defaults: bool, plots: bool, say) -> None:
    """Write OUT/ (portfolio.json, results.json, portfolio.md, the plot) all or nothing, print the page; then,
    if asked, the defaults (``_write_defaults``)."""
    from trisolve.bench import portfolio
    from trisolve.models import files
    from trisolve.runs import interrupted
    from trisolve.selection import table

    data = portfolio.table(outcome, head)
    if not data["families"]:
        raise UsageError("no run finished: no table to write")
    png = None
    if plots and not interrupted():
        png = _draw(portfolio.panels(outcome), timeout)
    found = portfolio.findings(outcome)
    page = portfolio.markdown(data, portfolio.PLOT_FILE if png else None, found, shipped=write_defaults)
    results = {"header": head, **portfolio.outcome_to_json(outcome)}
    changes = [
        files.Change.text(os.path.join(out_dir, "portfolio.json"), portfolio.table_text(data), "portfolio table"),
        files.Change.text(os.path.join(out_dir, "results.json"), json.dumps(results, indent=1) + "\n", "results"),
        files.Change.text(os.path.join(out_dir, "portfolio.md"), page, "portfolio page"),
    ]
    if png:
        changes.append(files.Change(os.path.join(out_dir, portfolio.PLOT_FILE), png, "plot"))
    files.write_files(changes)
    click.echo(page, nl=False)
    say(f"portfolio: {len(outcome.runs)} runs; results in {out_dir}/")
    interrupted_exit()  # a cut-short table is never written as the defaults
    if write_defaults:
        if outcome.interrupted:
            raise UsageError("the run was cut short: its table is not written as the defaults")
        _write_defaults(data, found, png, out_dir, table.TABLE_PATH, portfolio.DOCS_DIR, say)


def _config_json(config) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(config).items()}


def _draw(panels, timeout: float) -> bytes | None:
    from trisolve.bench.plots import PlotsUnavailable, portfolio

    try:
        return portfolio(panels, timeout)
    except PlotsUnavailable as problem:
        click.echo(f"portfolio: no plot: {problem}", err=True)
        return None


def _write_defaults(
    data: dict, found: list[str], png: bytes | None, out_dir: str, table_path: str, docs_dir: str, say
) -> None:
    """The shipped table, and in a checkout the page, its plot and the README's table: all or none of them.

    A measurement of some families or tasks merges into the shipped table (``portfolio.merge``).  Every
    file is checked, then written whole (``files.write_files``): a full disk or a read-only README leaves
    all of them as they were.
    """
    from trisolve.bench import portfolio
    from trisolve.models import files

    old = files.read_json(table_path, what="portfolio table") if os.path.lexists(table_path) else None
    merged = portfolio.merge(old, data)
    changes = [files.Change.text(table_path, portfolio.table_text(merged), "defaults table", updating=True)]
    readme = os.path.normpath(os.path.join(docs_dir, os.pardir, os.pardir, "README.md"))
    checkout = os.path.isdir(docs_dir)
    if checkout:
        # the plot shows one measurement's runs: a partial one leaves the last full measurement's plot
        plot_path = os.path.join(docs_dir, portfolio.PLOT_FILE)
        whole = merged["header"] == data["header"]
        if whole and png:
            changes.append(files.Change(plot_path, png, "plot"))
        shown = portfolio.PLOT_FILE if (whole and png) or (not whole and os.path.isfile(plot_path)) else None
        page = portfolio.markdown(merged, shown, found)
        changes.append(files.Change.text(os.path.join(docs_dir, portfolio.DOCS_PAGE), page, "portfolio page"))
        if os.path.isfile(readme):
            text = files.read_text(readme, what="README")
            updated = portfolio.replace_readme_table(text, merged)
            if updated != text:
                changes.append(files.Change.text(readme, updated, "README", updating=True))
    files.write_files(changes)
    for change in changes:
        say(f"portfolio: wrote {_shown(change.path)}")
    if not checkout:
        say(f"portfolio: no {_shown(docs_dir)} here (not a source checkout): the page stays in {out_dir}/")


def _shown(path: str) -> str:
    """A path as the user would type it: relative to here when inside it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
