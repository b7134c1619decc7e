"""``trisolve bench``: time backends against each other and draw the cactus plot."""

from __future__ import annotations

import os
import shlex
import sys
import time
from dataclasses import asdict

import click

from trisolve.models import files
from trisolve.models.errors import TrisolveError, shorten

from .common import (
    COUNT,
    MAX_INT32,
    SEED,
    TIMEOUT,
    UsageProblem,
    as_usage_problem,
    instance_files,
    interrupted_exit,
    load_level,
    load_plugins,
    plugin_option,
    split_list,
)


@click.command(name="bench")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--backends",
    default=None,
    metavar="LIST",
    help="Comma-separated backends or backend:variant; a bare name means all its variants "
    "(default: each backend's default variant).",
)
@click.option(
    "--repeat", type=COUNT, default=3, show_default=True, help="Runs per (instance, backend); round r uses seed + r."
)
@click.option(
    "--timeout",
    type=TIMEOUT,
    default=60.0,
    show_default=True,
    help="Wall-clock limit per run, seconds (PAR-2 counts a miss as twice this).",
)
@click.option(
    "--mode",
    type=click.Choice(["first", "count"]),
    default="first",
    show_default=True,
    help="first: time to the first solution (or unsat proof); count: time to an exact count.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="bench-results",
    show_default=True,
    help="Folder for results.csv, results.json, summary.md, cactus.png, ecdf.png, scatter.png.",
)
@click.option("--symmetry-breaking", is_flag=True, help="Run with lex-leader symmetry breaking.")
@click.option(
    "--scatter",
    "scatter_pair",
    default=None,
    metavar="A,B",
    help="Two backends for the per-instance scatter plot (default: the first two).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the first round.")
@click.option(
    "--shuffle",
    is_flag=True,
    help="Each round also reorders every backend's input from its seed (variables, clauses, facts): "
    "luck measured on every backend, pysat included.",
)
@click.option("--sat-command", default=None, metavar="CMD", help="External SAT solver for the dimacs backend.")
@click.option("--family", default=None, help="Puzzle family for every file (default: detected per file).")
@plugin_option
@click.option("--plots/--no-plots", default=True, show_default=True, help="Draw cactus.png, ecdf.png and scatter.png.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option(
    "--rescore", is_flag=True, help="Run nothing: re-read OUT/results.json and rewrite summary.md and the plots."
)
def command(
    paths,
    backends,
    repeat,
    timeout,
    mode,
    out_dir,
    symmetry_breaking,
    scatter_pair,
    seed,
    shuffle,
    sat_command,
    family,
    plugins,
    plots,
    quiet,
    rescore,
):
    """Benchmark backends on PATHS (files or folders), one process per run, backends interleaved.

    Writes results.csv and results.json (one row per run: phase times, CPU,
    encoding size, solver statistics, peak memory), summary.md (solved,
    median, PAR-2, virtual best, and the distribution over seeds: min,
    median, p90, max) and the plots (cactus, ECDF of run times, scatter);
    prints the summary.
    """
    from trisolve.backends.runner import interrupted
    from trisolve.bench.summary import machine, markdown, write_csv, write_json

    from .. import api

    if rescore:
        return _rescore(out_dir, scatter_pair, plots)
    if seed + repeat - 1 > MAX_INT32:
        raise UsageProblem(
            f"--seed {seed} with --repeat {repeat}: round seeds run up to {seed + repeat - 1}, "
            f"over the largest seed, {MAX_INT32}"
        )
    if not paths:
        raise UsageProblem("give instance files or folders to benchmark (or --rescore)")
    load_plugins(plugins)
    levels = [load_level(path, family) for path in instance_files(paths)]  # fails early, naming the file

    with as_usage_problem():
        files.make_folder(out_dir, "--out folder")
        journal = files.Output(os.path.join(out_dir, "runs.jsonl"), what="bench journal")
    progress = _Progress(enabled=not quiet)

    def planned(trials: int, settings, order: list[str]) -> None:
        _scatter_pair(scatter_pair, order)  # a bad pair is a usage problem before anything runs
        progress.total = trials
        if not quiet:
            click.echo(
                f"bench: {trials} runs ({len(levels)} instance(s) x {len(order)} backend(s) x {repeat}), "
                f"{mode} mode, timeout {timeout:g} s; writing to {out_dir}/",
                err=True,
            )
        journal.write(files.dumps({"settings": asdict(settings), "backends": order}) + "\n")

    def finished(index: int, run) -> None:
        # each finished run goes to runs.jsonl at once: a killed benchmark keeps them (--rescore reads it)
        journal.write(files.dumps(run.to_json()) + "\n")
        progress.update(index, run)

    started = time.monotonic()
    try:
        with as_usage_problem():
            result = api.benchmark(
                levels,
                split_list(backends),
                repeat=repeat,
                timeout=timeout,
                mode=mode,
                symmetry_breaking=symmetry_breaking,
                seed=seed,
                shuffle=shuffle,
                sat_command=sat_command,
                on_planned=planned,
                on_run=finished,
                skipped=lambda note: click.echo(f"bench: {note}", err=True),
            )
    except api.Interrupted as stop:  # Ctrl-C: the summary of the finished runs, marked partial below
        result = stop.partial
    finally:
        progress.close()
        journal.close()
    elapsed = time.monotonic() - started
    runs, settings, order, summary = result.runs, result.settings, list(result.backends), result.summary
    pair = _scatter_pair(scatter_pair, order)
    meta = {
        **machine(),
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "seconds": round(elapsed, 1),
        "command": _command_line(),
        "backends": order,
        "instances": [level.path for level in levels],
    }
    if interrupted():
        meta["partial"] = True
    with as_usage_problem():
        write_csv(runs, os.path.join(out_dir, "results.csv"))
        write_json(runs, summary, settings, meta, os.path.join(out_dir, "results.json"))
    report = markdown(summary, settings, meta)
    if interrupted():
        report = "**INTERRUPTED: partial results (the finished runs only)**\n\n" + report

    if plots and not interrupted():  # after Ctrl-C: the summary of the finished runs, no plots
        report += _draw(summary, runs, settings, out_dir, pair)
    click.echo(report, nl=False)
    with as_usage_problem():
        files.write_text(os.path.join(out_dir, "summary.md"), report, what="summary")
    if not quiet:
        click.echo(f"bench: {len(runs)} runs in {elapsed:.1f} s; results in {out_dir}/", err=True)
    interrupted_exit()
    if summary["invalid"]:
        click.echo("trisolve: a backend returned an invalid solution (see summary.md)", err=True)
        raise click.exceptions.Exit(1)


def _rescore(out_dir: str, scatter_pair: str | None, plots: bool) -> None:
    """Rewrite summary.md (and the plots) from an earlier run's results.json, or from the
    runs.jsonl journal of a benchmark that was killed before it could write results.json."""
    from trisolve.bench.runner import BenchRun, Settings
    from trisolve.bench.summary import markdown, score

    source = os.path.join(out_dir, "results.json")
    try:
        if os.path.lexists(source):
            data = files.read_json(source, what="bench results file")
        else:
            source = os.path.join(out_dir, "runs.jsonl")
            data = _read_journal(source)
        settings = Settings(**data["settings"])
        runs = [BenchRun.from_json(run) for run in data["runs"]]
    except TrisolveError as problem:
        raise UsageProblem(str(problem)) from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as problem:
        raise UsageProblem(f"{source}: cannot be read as bench results ({shorten(problem, 200)})") from None
    order = data.get("meta", {}).get("backends") or list(dict.fromkeys(r.backend for r in runs))
    summary = score(runs, settings, order)
    report = markdown(summary, settings, data.get("meta", {}))
    if plots:
        report += _draw(summary, runs, settings, out_dir, _scatter_pair(scatter_pair, order))
    click.echo(report, nl=False)
    with as_usage_problem():
        files.write_text(os.path.join(out_dir, "summary.md"), report, what="summary")


def _read_journal(path: str) -> dict:
    """runs.jsonl as results.json's shape: a header line, then one run per line (a torn last line is dropped)."""
    from trisolve.crosscheck.jsonl import read_lines

    header, *runs = read_lines(path)
    return {"settings": header["settings"], "meta": {"backends": header["backends"], "partial": True}, "runs": runs}


def _command_line() -> str | None:
    """How this benchmark was started, when it was started from the shell."""
    if os.path.basename(sys.argv[0]).startswith("trisolve"):
        return shlex.join(["trisolve", *sys.argv[1:]])
    return None


def _scatter_pair(value: str | None, order: list[str]) -> tuple[str, str] | None:
    if value is None:
        return (order[0], order[1]) if len(order) >= 2 else None
    names = split_list(value)
    if len(names) != 2:
        raise UsageProblem("--scatter takes two backends: A,B")
    full = []
    for name in names:
        matches = [b for b in order if b == name or b.split(":")[0] == name]
        if not matches:
            raise UsageProblem(f"--scatter: {name} is not among the benchmarked backends ({', '.join(order)})")
        full.append(matches[0])
    return full[0], full[1]


def _draw(summary, runs, settings, out_dir: str, pair: tuple[str, str] | None) -> str:
    """Draw the plots; returns the lines the report gains (or a note when matplotlib is missing)."""
    from trisolve.bench.plots import PlotsUnavailable, cactus, ecdf, scatter

    mode = "first solution" if settings.mode == "first" else "exact count"
    try:
        cactus(
            summary,
            settings.timeout,
            os.path.join(out_dir, "cactus.png"),
            title=f"Instances solved vs. time ({mode}, timeout {settings.timeout:g} s)",
        )
        lines = ["", "![cactus plot](cactus.png)"]
        varied = "seeds and shuffles" if settings.shuffle else "seeds"
        ecdf(
            runs,
            [row["backend"] for row in summary["backends"]],
            settings.timeout,
            os.path.join(out_dir, "ecdf.png"),
            title=f"Run-time distribution over {varied} ({mode}, {len(runs)} runs)",
        )
        lines.append(f"![run-time distribution over {varied}](ecdf.png)")
        if pair:
            scatter(summary, pair[0], pair[1], settings.timeout, os.path.join(out_dir, "scatter.png"))
            lines.append(f"![{pair[0]} vs. {pair[1]}](scatter.png)")
        return "\n".join(lines) + "\n"
    except PlotsUnavailable as problem:
        click.echo(f"bench: no plots: {problem}", err=True)
        return f"\n(no plots: {problem})\n"


class _Progress:
    """One line per finished run on stderr (rewritten in place on a terminal)."""

    def __init__(self, enabled: bool) -> None:
        self.total = 0
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.started = time.monotonic()

    def update(self, index: int, run) -> None:
        if not self.enabled:
            return
        outcome = run.status if run.solved else (run.stopped_by or run.error or run.status)
        if run.mode == "count" and run.solved:
            outcome = f"{run.count} solutions"
        if run.valid is False:
            outcome = "INVALID solution"
        line = (
            f"[{index + 1}/{self.total}] {run.instance} {run.backend} #{run.round + 1}: "
            f"{run.time:.2f} s, {outcome}  ({time.monotonic() - self.started:.0f} s elapsed)"
        )
        if self.tty:
            sys.stderr.write("\r\033[K" + line[:160])
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.tty:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
