"""``trisolve crosscheck``: run every backend variant and prove they agree."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import click

from .common import (
    EXIT_USAGE,
    JOBS,
    SEED,
    SOLUTION_LIMIT,
    TIMEOUT,
    RunProgress,
    UsageProblem,
    as_usage_problem,
    instance_files,
    interrupted_exit,
    load_plugins,
    plugin_option,
    print_json,
    split_list,
)


@click.command(name="crosscheck")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option(
    "--backends",
    default=None,
    metavar="LIST",
    help="Comma-separated backends or backend:variant (default: every registered variant).",
)
@click.option("--timeout", type=TIMEOUT, default=20.0, show_default=True, help="Wall-clock limit per run, seconds.")
@click.option("--limit", type=SOLUTION_LIMIT, default=None, help="Stop each enumeration after N solutions.")
@click.option(
    "--jobs", "-j", "parallel", type=JOBS, default=None, help="Runs at a time (default: the number of cores)."
)
@click.option("--jsonl", type=click.Path(dir_okay=False), default=None, help="Append one JSON record per run here.")
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
@click.option("--no-expected", is_flag=True, help="Ignore expected.json files beside the instances.")
@click.option(
    "--record-expected",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the established counts to this expected.json (merging with what it holds).",
)
@click.option("--family", default=None, help="Puzzle family for every file (default: detected per file).")
@plugin_option
@click.option("--seed", type=SEED, default=0, show_default=True)
def command(
    paths,
    backends,
    timeout,
    limit,
    parallel,
    jsonl,
    resume,
    as_json,
    symmetry_breaking,
    minimise_,
    minimize_dir,
    no_expected,
    record_expected,
    family,
    plugins,
    seed,
):
    """Cross-check backends on PATHS (files or folders); exit 0 agree, 1 disagree/invalid, 2 bad input."""
    from trisolve.backends.runner import interrupted
    from trisolve.models.errors import TrisolveError

    from .. import api

    load_plugins(plugins)
    if resume and not jsonl:
        raise UsageProblem("--resume needs --jsonl FILE")
    instance_files(paths)  # a missing path is a usage problem before anything runs
    parallel = parallel or os.cpu_count() or 1
    progress = RunProgress(enabled=sys.stderr.isatty() and not as_json)
    try:
        with as_usage_problem():
            report = api.cross_check(
                [Path(path) for path in paths],  # a file in a folder that cannot be read: its instance's ERROR
                split_list(backends),
                timeout=timeout,
                jobs=parallel,
                limit=limit,
                symmetry_breaking=symmetry_breaking,
                seed=seed,
                expected=not no_expected,
                log=jsonl,
                resume=resume,
                family=family,
                on_planned=progress.start,
                on_record=progress.update,
            )
    except api.Interrupted as stop:  # Ctrl-C: print what finished, shrink and record nothing
        report = stop.partial
    finally:
        progress.close()
    verdicts = report.verdicts
    stopped = interrupted()

    # a folder or file that cannot be written is reported after the table, which is printed whole
    problems: list[str] = []
    minimised = []
    if minimise_ and not stopped:
        minimised = _minimise_all(
            verdicts, report.levels, timeout, limit, symmetry_breaking, minimize_dir, plugins, problems
        )
    if record_expected and not stopped:
        try:
            _record_expected(record_expected, verdicts, symmetry_breaking)
        except TrisolveError as problem:
            problems.append(str(problem))

    if as_json:
        print_json({**report.to_json(), "minimized": minimised})
    else:
        click.echo(report.table(), nl=False)
        for line in report.findings:
            click.echo(line)
        for item in minimised:
            click.echo(
                f"minimised {item['instance']} to {item['file']} ({item['steps']} steps); reproduce with:\n  "
                f"{item['command']}"
            )
        reused = f" ({report.reused} reused from {jsonl})" if report.reused else ""
        click.echo(
            f"{report.runs} runs{reused} in {report.wall:.1f} s, {parallel} at a time, time limit {timeout:g} s per run"
        )
        click.echo(report.verdict)
    for problem in problems:
        click.echo(f"trisolve: {problem}", err=True)
    interrupted_exit()
    if problems:
        raise click.exceptions.Exit(EXIT_USAGE)
    if report.failed:
        raise click.exceptions.Exit(1)


def _minimise_all(verdicts, levels, timeout, limit, symmetry_breaking, folder, plugins, problems) -> list[dict]:
    from trisolve.crosscheck.minimize import minimise
    from trisolve.models import files

    out = []
    by_path = {level.run_path: level for level in levels}
    for verdict in verdicts:
        if not verdict.failed or verdict.path not in by_path:  # an unreadable file has nothing to shrink
            continue
        level = by_path[verdict.path]
        involved = []
        for finding in verdict.findings:
            involved.extend(b for b in finding.backends if b not in involved)
        if len(involved) < 2:
            # an invalid solution needs only its own backend; add any other for a reference
            others = [r.backend for r in verdict.records if r.backend not in involved]
            involved.extend(others[:1])
        result = minimise(
            level.kind, level.model, involved, timeout=timeout, limit=limit, symmetry_breaking=symmetry_breaking
        )
        if result is None:
            continue
        stem = os.path.splitext(os.path.basename(verdict.path))[0]
        target = os.path.join(folder, f"{stem}-min{level.kind.suffix}")
        try:
            files.make_folder(folder, "--minimize-dir folder")
            files.write_text(target, result.text, what="minimised instance")
        except files.FileProblem as problem:
            problems.append(f"{problem} (minimised {verdict.path}; not written)")
            continue
        parts = [
            "trisolve",
            "crosscheck",
            target,
            "--backends",
            ",".join(involved),
            "--no-expected",
            "--family",
            level.family,
        ]
        if symmetry_breaking:
            parts.append("--symmetry-breaking")
        for plugin in plugins:
            parts.extend(["--plugin", plugin])
        out.append(
            {
                "instance": verdict.path,
                "file": target,
                "steps": result.steps,
                "command": " ".join(shlex.quote(p) for p in parts),
            }
        )
    return out


def _record_expected(path: str, verdicts, symmetry_breaking: bool) -> None:
    """Merge established counts into an expected.json: exact where runs agreed and completed."""
    from trisolve.crosscheck.compare import load_expected
    from trisolve.models import files

    load_expected(path)  # what is there must be an expected.json (checked, field by field)
    data = files.read_json(path, what="expected.json") if os.path.lexists(path) else {}
    for verdict in verdicts:
        if verdict.failed:
            continue
        stem = os.path.splitext(os.path.basename(verdict.path))[0]
        plain = [r for r in verdict.records if not r.symmetry_breaking]
        if verdict.count is not None and plain and all(r.complete for r in plain):
            entry = {"count": verdict.count, "complete": True}
            if verdict.orbits is not None:
                entry["orbits"] = verdict.orbits
        elif plain:
            best = max(r.count for r in plain)
            old = data.get(stem, {})
            if old.get("complete") or old.get("count", -1) >= best:
                continue
            entry = {"count": best, "complete": False}
        else:
            continue
        data[stem] = entry
    text = files.dumps(dict(sorted(data.items())), indent=1) + "\n"
    files.write_text(path, text, what="expected.json", updating=True)  # merged from what it held
