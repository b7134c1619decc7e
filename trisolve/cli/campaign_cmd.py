"""``trisolve campaign``: generate instances and cross-check them all, resumably (``trisolve.api.campaign``)."""

from __future__ import annotations

import click

from trisolve.crosscheck.report import plural

from .common import (
    COUNT,
    JOBS,
    SEED,
    TIMEOUT,
    load_plugins,
    plugin_option,
    print_json,
    print_minimised,
    quiet_option,
    split_list,
    verdict_exit,
)
from .generate_cmd import size_options
from .progress import Progress, for_command


@click.command(name="campaign")
@click.option("--family", required=True, help="A family with a generator (see trisolve generate).")
@click.option("--generate", "count", type=COUNT, required=True, help="How many instances.")
@size_options
@click.option("--unique", is_flag=True, help="Generate levels with a unique solution (see trisolve generate).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Base seed; instance i's seed derives from it.")
@click.option(
    "--jsonl",
    type=click.Path(dir_okay=False),
    required=True,
    help="Append one record per run; rerunning the same command resumes from it.",
)
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Dask scheduler (tcp://host:8786); without it --executor dask starts a local cluster.",
)
@click.option(
    "--jobs",
    "-j",
    "parallel",
    type=JOBS,
    default=2,
    show_default=True,
    help="Runs at a time (local), or workers of the local Dask cluster.",
)
@click.option(
    "--backends", default=None, metavar="LIST", help="Comma-separated backends (default: every registered variant)."
)
@click.option("--timeout", type=TIMEOUT, default=10.0, show_default=True, help="Wall-clock limit per run, seconds.")
@click.option(
    "--minimize-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Where minimised disagreements go (default: <jsonl stem>-disagreements/).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@quiet_option
@plugin_option
def command(
    family,
    count,
    sizes,
    unique,
    seed,
    jsonl,
    executor,
    scheduler,
    parallel,
    backends,
    timeout,
    minimize_dir,
    as_json,
    quiet,
    plugins,
):
    """Generate and cross-check instances; exit 0 when all agree, 1 on any disagreement, invalid solution or
    crashed run."""
    from trisolve.runs import interrupted

    from .. import api

    load_plugins(plugins)
    with for_command("campaign", quiet=quiet or as_json) as reporter:
        done = api.campaign(
            family,
            count,
            jsonl,
            seed=seed,
            unique=unique,
            sizes=sizes,
            backends=split_list(backends),
            timeout=timeout,
            executor=executor,
            scheduler=scheduler,
            jobs=parallel,
            minimise_to=minimize_dir,
            progress=_Phases(reporter),
        )
        reporter.close(finished=not interrupted())  # its last line says done, whatever phase it ended in
    summary = done.summary
    if as_json:
        print_json(summary.to_json())
    else:
        for verdict in done.verdicts:
            if verdict.failed:
                click.echo(
                    f"{verdict.status} {verdict.path}: "
                    + "; ".join(f.message for f in verdict.findings if f.kind != "note")
                )
        print_minimised(summary.minimised)
        statuses = ", ".join(f"{n} {s}" for s, n in sorted(summary.statuses.items()))
        rate = "n/a (all reused)" if summary.throughput is None else f"{summary.throughput:.1f} instances/min"
        click.echo(
            f"{plural(summary.instances, 'instance')} ({summary.generated} generated now, "
            f"{summary.unique} proved unique), "
            f"{summary.runs} runs ({summary.reused} reused from {jsonl}): {statuses}"
        )
        click.echo(
            f"disagreements {summary.disagreements}, invalid solutions {summary.invalid}, errors {summary.errors}; "
            f"{summary.wall:.1f} s ({summary.generate_seconds:.1f} s generating), {rate}"
        )
    verdict_exit(done.failed, summary.problems)  # a minimised level that could not be written: said after the summary


class _Phases:
    """What ``api.campaign`` tells its ``progress`` (levels generated, then runs), for the one reporter."""

    def __init__(self, reporter: Progress) -> None:
        self.reporter = reporter

    def generated(self, done: int, count: int) -> None:
        if self.reporter.label != "generating":
            self.reporter.phase("generating", count, unit="levels")
        self.reporter.completed(done)

    def attempt(self, text: str) -> None:
        self.reporter.note_only(text)

    def start(self, total: int) -> None:
        self.reporter.phase("cross-checking", total, unit="runs")

    def advance(self, record) -> None:
        self.reporter.record(record)

    def shrinking(self, path: str, index: int, total: int, budget: float) -> None:
        self.reporter.shrinking(path, index, total, budget)
