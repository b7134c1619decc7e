"""``trisolve bench``: time backends against each other and draw the cactus plot; ``--portfolio`` measures
every backend per family and task and writes the table the defaults come from (``bench_portfolio``)."""

from __future__ import annotations

import os
import shlex
import sys
import time

import click

from trisolve.backends import numbers
from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES, files
from trisolve.models.errors import UsageError

from .common import (
    COUNT,
    PORTFOLIO_SEEDS,
    SEED,
    TIMEOUT,
    instance_files,
    load_level,
    load_plugins,
    plugin_option,
    split_list,
    verdict_exit,
)
from .progress import for_command


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
    default=None,
    help="Wall-clock limit per run, seconds (PAR-2 counts a miss as twice this). Default 60; 10 with --portfolio.",
)
@click.option(
    "--mode",
    type=click.Choice(["first", "count", "first,count"]),
    default="first",
    show_default=True,
    help="first: time to the first solution (or unsat proof); count: time to an exact count; first,count: both "
    "side by side, each backend in each mode a contender of its own (a first solution against a count).",
)
@click.option(
    "--count-backends",
    default=None,
    metavar="LIST",
    help="With --mode first,count: the backends that count (default: --backends, else the default counters, dp "
    "among them), e.g. --backends pysat,clingo,cpsat --count-backends dp.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder for results.csv, results.json, summary.md and the plots, each as .png, .svg and .pdf: cactus, "
    "ecdf, scatter, spread (default bench-results; with --portfolio: portfolio-results, for runs.jsonl, "
    "portfolio.json/md/png).",
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
@click.option(
    "--plots/--no-plots",
    default=True,
    show_default=True,
    help="Draw the cactus, ECDF, scatter and spread plots (PNG, SVG, PDF).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option(
    "--rescore", is_flag=True, help="Run nothing: re-read OUT/results.json and rewrite summary.md and the plots."
)
@click.option(
    "--portfolio",
    "measure_portfolio",
    is_flag=True,
    help="Measure every usable backend per family and task (first solution, exact count) on the shipped levels "
    "(or PATHS) and generated ones of growing size; write the ranked table that drives the defaults and auto.",
)
@click.option("--families", default=None, metavar="LIST", help="--portfolio: families to measure (default: all).")
@click.option("--tasks", default=None, metavar="LIST", help="--portfolio: first,count (default: both).")
@click.option(
    "--seeds",
    type=PORTFOLIO_SEEDS,
    default=3,
    show_default=True,
    help="--portfolio: generated levels per size (seeds 0..N-1; each run's solver seed is its level's).",
)
@click.option(
    "--max-size",
    default=None,
    metavar="N|FAMILY=SIZE,...",
    help="--portfolio: generate only the first N sizes of each family (0: none), or up to a size per family "
    "in its unit ("
    + "; ".join(f"{family.name}: {family.ladder.unit}" for family in FAMILIES.values() if family.ladder)
    + ").",
)
@click.option(
    "--write-defaults",
    is_flag=True,
    help="--portfolio: also write the measured table into the shipped one (selection/portfolio.json), the table "
    "solve takes its defaults from; a measurement of some families or tasks merges into it.",
)
@click.pass_context
def command(
    ctx,
    paths,
    backends,
    out_dir,
    scatter_pair,
    plugins,
    plots,
    quiet,
    rescore,
    measure_portfolio,
    families,
    tasks,
    seeds,
    max_size,
    write_defaults,
    **options,
):
    """Benchmark backends on PATHS (files or folders), one process per run, backends interleaved.

    Writes results.csv and results.json (one row per run: phase times, CPU,
    encoding size, solver statistics, peak memory; and where the figures
    come from: trisolve's version and commit, the solvers' versions, CPU
    model, memory, load average), summary.md (solved, median, PAR-2,
    virtual best, the distribution over seeds: min, median, p90, max, and
    per instance its quartiles and IQR) and the plots as PNG, SVG and PDF
    (cactus, ECDF of run times, scatter, spread over seeds per instance);
    prints the summary.

    With --portfolio: every usable backend per family and task (first
    solution, exact count) on the shipped levels (or PATHS) and generated
    levels of growing size, stopping a backend's sizes at the first it
    leaves unsolved; writes the ranked table (median, p90, worst wall and
    CPU seconds, solved, largest size solved), its page and a time-vs-size
    plot; --write-defaults makes it the table solve takes its defaults from.
    """
    # the options not named in the signature are api.benchmark's own keyword arguments, passed through
    from trisolve.bench.provenance import load, machine, provenance, solvers_reported
    from trisolve.runs import interrupted

    from .. import api

    _check_options(ctx, measure_portfolio)
    if measure_portfolio:
        from .bench_portfolio import rescore as rescore_portfolio
        from .bench_portfolio import run

        if rescore:
            return rescore_portfolio(out_dir=out_dir, write_defaults=write_defaults, plots=plots, quiet=quiet)
        load_plugins(plugins)
        return run(
            paths=paths,
            families=families,
            tasks=tasks,
            timeout=options["timeout"],
            seeds=seeds,
            max_size=max_size,
            backends=backends,
            sat_command=options["sat_command"],
            out_dir=out_dir,
            write_defaults=write_defaults,
            plots=plots,
            quiet=quiet,
            command=_command_line(),
        )
    options["timeout"] = 60.0 if options["timeout"] is None else options["timeout"]
    out_dir = out_dir or "bench-results"
    if rescore:
        return _rescore(out_dir, scatter_pair, plots)
    numbers.seeds(options["seed"], options["repeat"], "--seed")  # before any file is read
    if not paths:
        raise UsageError("give instance files or folders to benchmark (or --rescore)")
    load_plugins(plugins)
    levels = [load_level(path, options["family"]) for path in instance_files(paths)]  # fails early, naming it

    files.make_folder(out_dir, "--out folder")
    progress = for_command("bench", quiet=quiet)

    def planned(trials: int, settings, order: list[str]) -> None:
        _scatter_pair(scatter_pair, order)  # a bad pair is a usage problem before anything runs
        progress.start(trials)
        if not quiet:
            click.echo(
                f"bench: {trials} runs ({len(levels)} instance(s) x {len(order)} backend(s) x {settings.repeat}), "
                f"{settings.mode} mode, timeout {settings.timeout:g} s; writing to {out_dir}/",
                err=True,
            )

    def finished(index: int, run) -> None:
        progress.advance(1, _outcome(run))

    # each finished run goes to runs.jsonl at once: a killed benchmark keeps them (--rescore reads it)
    journal = os.path.join(out_dir, "runs.jsonl")
    started, load_at_start = time.monotonic(), load()
    try:
        result = api.benchmark(
            levels, backends, on_planned=planned, on_run=finished, skipped=_skipped, log=journal, **options
        )
    finally:
        progress.close()
    elapsed = time.monotonic() - started
    runs, settings, order, summary = result.runs, result.settings, list(result.backends), result.summary
    pair = _scatter_pair(scatter_pair, order)
    meta = {
        **machine(),
        "load_average": {"start": load_at_start, "end": load()},
        **provenance(),
        "solvers_reported": solvers_reported(run.stats for run in runs),
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "seconds": round(elapsed, 1),
        "command": _command_line(),
        "backends": order,
        "instances": [level.path for level in levels],
    }
    if interrupted():
        meta["partial"] = True
    result.write(out_dir, meta)
    report = result.markdown(meta)
    if interrupted():
        report = "**INTERRUPTED: partial results (the finished runs only)**\n\n" + report

    if plots and not interrupted():  # after Ctrl-C: the summary of the finished runs, no plots
        report += _draw(summary, runs, settings, out_dir, pair)
    click.echo(report, nl=False)
    files.write_text(os.path.join(out_dir, "summary.md"), report, what="summary")
    if not quiet:
        click.echo(f"bench: {len(runs)} runs in {elapsed:.1f} s; results in {out_dir}/", err=True)
    if summary["invalid"]:
        click.echo("trisolve: a backend returned an invalid solution (see summary.md)", err=True)
    crashed = [run for run in runs if run.error]
    if crashed:
        first = crashed[0]
        click.echo(
            f"trisolve: {len(crashed)} runs crashed (see results.csv), e.g. {first.backend} on {first.instance}: "
            f"{first.error}",
            err=True,
        )
    verdict_exit(bool(summary["invalid"] or crashed))


def _skipped(note: str) -> None:
    click.echo(f"bench: {note}", err=True)


#: options of a plain benchmark, and of --portfolio only
_BENCH_ONLY = ("repeat", "mode", "count_backends", "symmetry_breaking", "scatter_pair", "seed", "shuffle", "family")
_PORTFOLIO_ONLY = ("families", "tasks", "seeds", "max_size", "write_defaults")


def _check_options(ctx: click.Context, portfolio: bool) -> None:
    """An option of the other kind of benchmark is a usage problem, not silently ignored."""
    from click.core import ParameterSource

    given = [
        name
        for name in (_BENCH_ONLY if portfolio else _PORTFOLIO_ONLY)
        if ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)
    ]
    if given:
        shown = ", ".join("--" + name.replace("_pair", "").replace("_", "-") for name in given)
        if portfolio:
            raise UsageError(f"{shown}: not an option of bench --portfolio")
        raise UsageError(f"{shown}: only with --portfolio")


def _rescore(out_dir: str, scatter_pair: str | None, plots: bool) -> None:
    """Rewrite summary.md (and the plots) from an earlier run's results.json, or from the
    runs.jsonl journal of a benchmark that was killed before it could write results.json."""
    from .. import api

    result = api.read_benchmark(out_dir)
    order = list(result.backends)
    report = result.markdown(result.meta)
    if plots:
        report += _draw(result.summary, result.runs, result.settings, out_dir, _scatter_pair(scatter_pair, order))
    click.echo(report, nl=False)
    files.write_text(os.path.join(out_dir, "summary.md"), report, what="summary")


def _command_line() -> str | None:
    """How this benchmark was started, when it was started from the shell; without ``--out``, whose folder
    is this machine's business (the command is written into shipped pages)."""
    if not os.path.basename(sys.argv[0]).startswith("trisolve"):
        return None
    words, kept = sys.argv[1:], []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == "--out":
            skip = True
        elif not word.startswith("--out="):
            kept.append(word)
    return shlex.join(["trisolve", *kept])


def _scatter_pair(value: str | None, order: list[str]) -> tuple[str, str] | None:
    if value is None:
        return (order[0], order[1]) if len(order) >= 2 else None
    names = split_list(value)
    if len(names) != 2:
        raise UsageError("--scatter takes two backends: A,B")
    full = []
    for name in names:
        matches = [b for b in order if b == name or Spec.parse(b).backend == name]
        if not matches:
            raise UsageError(f"--scatter: {name} is not among the benchmarked backends ({', '.join(order)})")
        full.append(matches[0])
    return full[0], full[1]


def _draw(summary, runs, settings, out_dir: str, pair: tuple[str, str] | None) -> str:
    """Draw the plots (each as PNG, SVG and PDF); returns the lines the report gains (or a note when matplotlib
    is missing)."""
    from trisolve.bench.plots import PlotsUnavailable, cactus, ecdf, scatter, spread
    from trisolve.bench.runner import labelled

    mode = {"first": "first solution", "count": "exact count"}.get(settings.mode, "first solution and exact count")
    runs = labelled(runs, settings)
    contenders = [row["backend"] for row in summary["backends"]]
    one = len(summary["instances"]) == 1
    formats = "are also written as .svg and .pdf"
    try:
        cactus(
            summary,
            settings.timeout,
            os.path.join(out_dir, "cactus.png"),
            title=(
                f"{summary['instances'][0]['instance']}: time over the seeds\n({mode})"
                if one
                else f"Instances solved vs. time\n({mode}, timeout {settings.timeout:g} s)"
            ),
        )
        lines = ["", "![cactus plot](cactus.png)"]
        varied = "seeds and shuffles" if settings.shuffle else "seeds"
        ecdf(
            runs,
            contenders,
            settings.timeout,
            os.path.join(out_dir, "ecdf.png"),
            title=f"Run-time distribution over {varied}\n({mode}, {len(runs)} runs)",
        )
        lines.append(f"![run-time distribution over {varied}](ecdf.png)")
        spread(
            runs,
            contenders,
            settings.timeout,
            os.path.join(out_dir, "spread.png"),
            title=f"Run times over the {varied}, per instance\n({mode})",
        )
        lines.append(f"![run times over the {varied}, per instance](spread.png)")
        if pair:
            scatter(summary, pair[0], pair[1], settings.timeout, os.path.join(out_dir, "scatter.png"), runs=runs)
            lines.append(f"![{pair[0]} vs. {pair[1]}](scatter.png)")
        lines += ["", f"The plots {formats}."]
        return "\n".join(lines) + "\n"
    except PlotsUnavailable as problem:
        click.echo(f"bench: no plots: {problem}", err=True)
        return f"\n(no plots: {problem})\n"


def _outcome(run) -> str:
    """One benchmark run in a few words, for the progress line."""
    outcome = run.status if run.solved else (run.stopped_by or run.error or run.status)
    if run.mode == "count" and run.solved:
        outcome = f"{run.count} solutions"
    if run.valid is False:
        outcome = "INVALID solution"
    return f"{run.instance} {run.backend} #{run.round + 1}: {run.time:.2f} s, {str(outcome).splitlines()[0][:60]}"
