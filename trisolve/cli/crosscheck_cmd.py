"""``trisolve crosscheck``: run every backend variant and prove they agree."""

from __future__ import annotations

import os

import click

from trisolve.models.errors import UsageError

from .common import (
    JOBS,
    SEED,
    SOLUTION_LIMIT,
    TIMEOUT,
    colour_option,
    instance_files,
    load_plugins,
    plugin_option,
    print_json,
    print_minimised,
    quiet_option,
    verdict_exit,
)
from .progress import colour_wanted, for_command


@click.command(name="crosscheck")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option(
    "--backends",
    default=None,
    metavar="LIST",
    help="Comma-separated backends or backend:variant; a bare name means all its variants (default: the plan "
    "printed up front: a family's own few backends of different paradigms that finish, each left out where "
    "expected.json says it takes minutes; a family without them runs every registered variant).",
)
@click.option("--timeout", type=TIMEOUT, default=20.0, show_default=True, help="Wall-clock limit per run, seconds.")
@click.option("--limit", type=SOLUTION_LIMIT, default=None, help="Stop each enumeration after N solutions.")
@click.option("--jobs", "-j", type=JOBS, default=None, help="Runs at a time (default: the number of cores).")
@click.option("--jsonl", "log", type=click.Path(dir_okay=False), default=None, help="Append one JSON record per run.")
@click.option("--resume", is_flag=True, help="Skip runs already recorded in --jsonl.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as one JSON object.")
@click.option(
    "--symmetry-breaking",
    is_flag=True,
    help="Also run with lex-leader constraints and check counts against the orbits of the full set.",
)
@click.option(
    "--minimize",
    "--minimise",
    "minimise_",
    is_flag=True,
    help="Shrink each instance with a disagreement and write the smallest one found.",
)
@click.option("--minimize-dir", type=click.Path(file_okay=False), default="minimized", show_default=True)
@click.option("--expected/--no-expected", default=True, help="Check counts against expected.json beside the files.")
@click.option(
    "--record-expected",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the established counts to this expected.json (merging with what it holds).",
)
@click.option("--family", default=None, help="Puzzle family for every file (default: detected per file).")
@plugin_option
@click.option("--seed", type=SEED, default=0, show_default=True)
@quiet_option
@colour_option
def command(paths, backends, as_json, minimise_, minimize_dir, plugins, quiet, colour, **options):
    """Cross-check backends on PATHS (files or folders); exit 0 agree, 1 disagree/invalid/error, 2 bad input."""
    from .. import api

    # the options not named in the signature are api.cross_check's own keyword arguments, passed through

    load_plugins(plugins)
    if options["resume"] and not options["log"]:
        raise UsageError("--resume needs --jsonl FILE")
    instance_files(paths)  # a missing path is a usage problem before anything runs; no output overwrites one

    def say_plan(lines) -> None:
        if not as_json:
            for line in lines:
                click.echo(f"plan: {line}")

    with for_command("crosscheck", quiet=quiet or as_json, colour=colour) as progress:
        progress.bounds(options["timeout"], options["jobs"] or os.cpu_count() or 1)  # "at most" once the pace is off
        report = api.cross_check(
            [api.named(path) for path in paths],  # a file in a folder that cannot be read: its instance's ERROR
            backends,
            minimise_to=minimize_dir if minimise_ else None,
            on_planned=progress.start,
            on_record=progress.record,
            on_shrinking=progress.shrinking,
            on_plan=say_plan,
            **options,
        )
        progress.close(finished=not report.interrupted)  # its last line says done, whatever phase it ended in
    if as_json:
        print_json(report.to_json())
    else:
        click.echo(report.table(colour=colour_wanted(colour)), nl=False, color=colour_wanted(colour))
        for line in report.findings:
            click.echo(line)
        print_minimised(report.minimised)
        reused = f" ({report.reused} reused from {options['log']})" if report.reused else ""
        parallel = options["jobs"] or os.cpu_count() or 1
        click.echo(
            f"{runs_done(report)}{reused} in {report.wall:.1f} s"
            + (" (shrinking included)" if report.minimised else "")
            + f", {parallel} at a time, time limit {options['timeout']:g} s per run"
        )
        click.echo(report.verdict)
    verdict_exit(report.failed, report.problems)  # a file that could not be written: said after the table


def runs_done(report) -> str:
    """``109 runs``; after Ctrl-C, how many of them were done: a run cut short or never started is not one."""
    if not report.interrupted:
        return f"{report.runs} runs"
    done = sum(1 for verdict in report.verdicts for record in verdict.records if not record.interrupted)
    return f"{done} of {report.runs} runs done before the interruption"
