"""``trisolve mutate``: mutation scores of the shipped encodings on an instance set (``trisolve.api.mutate``)."""

from __future__ import annotations

import os

import click

from trisolve.crosscheck.report import plural

from .common import (
    BUDGET,
    COUNT,
    COUNT_OR_NONE,
    JOBS,
    SEED,
    TIMEOUT,
    load_plugins,
    plugin_option,
    print_json,
    quiet_option,
    verdict_exit,
)
from .generate_cmd import size_options
from .progress import for_command


@click.command(name="mutate")
@click.argument("family")
@click.option(
    "--backend",
    "-b",
    required=True,
    metavar="NAME[:VARIANT]",
    help="A backend whose encodings can be mutated (its declaration's MUTANTS): every variant's encoding files, "
    "or only the variant named.",
)
@click.option(
    "--levels", type=click.Path(exists=True), help="Instance folder or file (default: the family's shipped levels)."
)
@click.option("--generate", type=COUNT, help="Run on N generated instances instead of --levels.")
@size_options
@click.option(
    "--retry",
    type=COUNT_OR_NONE,
    default=20,
    show_default=True,
    help="Generated instances to re-try the survivors on (0: none).",
)
@click.option("--retry-budget", type=BUDGET, default=300.0, show_default=True, help="Seconds the re-try may take.")
@click.option("--timeout", type=TIMEOUT, default=10.0, show_default=True, help="Wall-clock limit per run, seconds.")
@click.option("--jobs", "-j", type=JOBS, help="Runs at a time (default: the cores), or workers of the Dask cluster.")
@click.option("--batch", type=COUNT, default=4, show_default=True, help="Instances per round; killed mutants stop.")
@click.option("--jsonl", "log", type=click.Path(dir_okay=False), help="Append one JSON record per run here.")
@click.option("--resume", is_flag=True, help="Reuse the runs already recorded in --jsonl.")
@click.option(
    "--suite",
    type=click.Path(file_okay=False),
    help="Write a small instance set that kills every killed mutant (greedy set cover) here.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    help="Where the mutant .lp files and generated instances go (default: beside --jsonl, else a temporary folder, "
    "removed at the end).",
)
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", metavar="ADDRESS", help="Dask scheduler; without it a local cluster.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option(
    "--references",
    metavar="LIST",
    help="Unmutated backends to judge each mutant against (default: the "
    "portfolio, each its default variant); a --plugin backend may be one.",
)
@click.option(
    "--only",
    multiple=True,
    metavar="FILE",
    help="Mutate only encoding files whose name contains this (e.g. a rules file's name); repeatable.",
)
@click.option(
    "--mutant",
    "mutants",
    multiple=True,
    metavar="ID",
    help="Run only the mutant with this id (as the report names it: FILE:LINE:OPERATOR); repeatable.",
)
@click.option("--show", type=COUNT_OR_NONE, default=30, show_default=True, help="Survivors listed at most.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@quiet_option
@plugin_option
def command(family, backend, show, as_json, quiet, plugins, **options):
    """Mutate FAMILY's encodings of --backend and score the instance set: exit 0 when every mutant is
    killed or explained as equivalent, 1 when one survives unexplained, a mutant marked equivalent is
    killed (the marker is wrong), or the unmutated backends themselves fail on an instance.  A mutant
    cut short by --timeout where its variant, unmutated, finished within a fifth of it is killed by timeout."""
    from .. import api

    # the options not named in the signature are api.mutate's own keyword arguments, passed through

    load_plugins(plugins)
    with for_command("mutate", quiet=quiet or as_json) as progress:
        report = api.mutate(family, backend, on_record=progress.record, **options)
    if as_json:
        print_json(report.to_json())
    else:
        _print(report, show, options["suite"])
    if report.interrupted:
        click.echo(
            "trisolve: INTERRUPTED: the mutants not yet run are listed as survivors and the scores are partial",
            err=True,
        )
    verdict_exit(report.failed)


def _print(report, show: int, suite_dir: str | None) -> None:
    def table(title: str, rows: list[dict]) -> None:
        click.echo(
            f"{title:46} {'mutants':>7} {'stillb.':>7} {'killed':>6} {'valid.':>6} {'count':>5} "
            f"{'timeout':>7} {'surv.':>5} {'equiv.':>6} {'score':>7}"
        )
        for row in rows:
            score = "n/a" if row["score"] is None else f"{100 * row['score']:.1f}%"
            click.echo(
                f"{row['name']:46} {row['mutants']:7} {row['stillborn']:7} {row['killed']:6} "
                f"{row['by_validator']:6} {row['by_count']:5} {row['by_timeout']:7} {row['survived']:5} "
                f"{row['equivalent']:6} {score:>7}"
            )
        click.echo(
            "(killed = by the validator + by count only + by timeout: cut short where the unmutated "
            "variant finished within a fifth of the limit)\n"
            if title == "encoding file"
            else ""
        )

    click.echo(
        ("INTERRUPTED (partial report): " if report.interrupted else "")
        + f"mutate {report.family} --backend {report.backend}: {len(report.outcomes)} mutants, "
        f"{plural(len(report.instances), 'instance')} used, {len(report.generated)} generated for survivors\n"
    )
    # first: a score judged against references that fail is no score (exit 1 says so too)
    for path, why in report.failures.items():
        click.echo(f"UNMUTATED BACKENDS FAIL on {path}: {why}")
    if report.failures:
        click.echo(
            f"(the scores below leave {plural(len(report.failures), 'instance')} out: the unmutated backends "
            "must agree before a mutant can be judged; fix them first)\n"
        )
    table("encoding file", report.table(lambda o: o.mutant.file))
    table("operator", report.table(lambda o: o.mutant.operator))
    for outcome in report.outcomes:
        if outcome.wrong_marker:
            m = outcome.mutant
            click.echo(f"WRONG MARKER: {m.location} {m.operator} ({m.id}): {outcome.wrong_marker}")
            click.echo(f"    mutated:  {m.mutated}")
            click.echo(f"    finding:  {outcome.finding}")
    survivors = [o for o in report.outcomes if o.status == "survived"]
    for outcome in survivors[:show]:
        m = outcome.mutant
        label = ("equivalent" if m.equivalent else "candidate equivalent") if outcome.reason else "SURVIVED"
        click.echo(
            f"{label}: {m.location} {m.operator} ({m.id}, tried on {plural(outcome.tried, 'instance')}"
            f"{f', {outcome.timeouts} cut short by the time limit' if outcome.timeouts else ''})"
        )
        click.echo(f"    original: {m.original}")
        click.echo(f"    mutated:  {m.mutated}")
        if outcome.reason:
            click.echo(f"    why: {outcome.reason}")
    if len(survivors) > show:
        click.echo(f"... and {len(survivors) - show} more survivors (--show N, or --json)")
    stillborn = [o for o in report.outcomes if o.status == "stillborn"]
    if stillborn:
        click.echo(
            f"{len(stillborn)} stillborn (do not run), e.g. {stillborn[0].mutant.location} "
            f"{stillborn[0].mutant.operator}: {stillborn[0].finding}"
        )
    for path, why in list(report.excluded.items())[:5]:
        click.echo(f"not used: {path}: {why}")
    if len(report.excluded) > 5:
        click.echo(f"... {len(report.excluded) - 5} more instances not used")
    where = f" written to {suite_dir}" if suite_dir else ""
    click.echo(
        f"killing suite: {plural(len(report.suite), 'instance')}{where}: "
        + ", ".join(os.path.basename(p) for p in report.suite)
    )
    click.echo(
        f"{report.runs} runs ({report.reused} reused) in {report.wall:.1f} s"
        + ("; INTERRUPTED: partial, scores cover the runs that finished" if report.interrupted else "")
    )
