"""``trisolve mutate``: mutation scores of the shipped encodings on an instance set."""

from __future__ import annotations

import os
import sys
import tempfile

import click

from .common import (
    JOBS,
    MAX_TIMEOUT,
    SEED,
    TIMEOUT,
    FiniteRange,
    RunProgress,
    UsageProblem,
    instance_files,
    interrupted_exit,
    load_instance,
    load_plugins,
    plugin_option,
    print_json,
    split_list,
)
from .generate_cmd import family_params, size_options

#: Mutants are made from these backends' encodings.
MUTABLE = ("pysat", "clingo", "cpsat")
#: Most instances mutate generates or takes per round: each is run by every mutant still alive, so more
#: is hours of runs (and 99,999,999,999 wrote 1.2 GB of levels in a minute before any run).
MAX_MUTATE_INSTANCES = 10_000
MUTATE_INSTANCES = click.IntRange(1, MAX_MUTATE_INSTANCES)


@click.command(name="mutate")
@click.argument("family", type=click.Choice(["hexiom", "logic", "sigils"]))
@click.option(
    "--backend",
    "-b",
    required=True,
    metavar="NAME[:VARIANT]",
    help="pysat, clingo or cpsat: every variant's encoding files, or only the variant named.",
)
@click.option(
    "--levels",
    "levels_dir",
    type=click.Path(exists=True),
    default=None,
    help="Instance folder or file (default: the shipped levels of the family).",
)
@click.option(
    "--generate",
    "generate_count",
    type=MUTATE_INSTANCES,
    default=None,
    help="Run on N generated instances instead of --levels.",
)
@size_options
@click.option(
    "--retry",
    type=click.IntRange(0, MAX_MUTATE_INSTANCES),
    default=20,
    show_default=True,
    help="Generated instances to re-try the survivors on (0: none).",
)
@click.option(
    "--retry-budget",
    type=FiniteRange(0, MAX_TIMEOUT),
    default=300.0,
    show_default=True,
    help="Seconds the re-try may take.",
)
@click.option(
    "--timeout",
    type=TIMEOUT,
    default=10.0,
    show_default=True,
    help="Wall-clock limit per run, seconds.",
)
@click.option(
    "--jobs",
    "-j",
    "parallel",
    type=JOBS,
    default=None,
    help="Runs at a time (default: the number of cores), or workers of the local Dask cluster.",
)
@click.option(
    "--batch",
    type=click.IntRange(1, MAX_MUTATE_INSTANCES),
    default=4,
    show_default=True,
    help="Instances per round; killed mutants stop after each round.",
)
@click.option("--jsonl", type=click.Path(dir_okay=False), default=None, help="Append one JSON record per run here.")
@click.option("--resume", is_flag=True, help="Reuse the runs already recorded in --jsonl.")
@click.option(
    "--suite",
    "suite_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write a small instance set that kills every killed mutant (greedy set cover) here.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Where the mutant .lp files and generated instances go (default: beside --jsonl, else a temp folder).",
)
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler; without it a local cluster.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option(
    "--references",
    default=None,
    metavar="LIST",
    help="Unmutated backends to judge each mutant against (default: pysat,clingo,cpsat, each its default "
    "variant); a --plugin backend may be one.",
)
@click.option(
    "--only",
    multiple=True,
    metavar="FILE",
    help="Mutate only encoding files whose name contains this (e.g. hexiom_count.lp); repeatable.",
)
@click.option(
    "--mutant",
    "mutant_ids",
    multiple=True,
    metavar="ID",
    help="Run only the mutant with this id (as the report names it, e.g. sigils#25); repeatable.",
)
@click.option(
    "--show", type=click.IntRange(0, 1_000_000), default=30, show_default=True, help="Survivors listed at most."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@plugin_option
def command(
    family,
    backend,
    levels_dir,
    generate_count,
    sizes,
    retry,
    retry_budget,
    timeout,
    parallel,
    batch,
    jsonl,
    resume,
    suite_dir,
    out_dir,
    executor,
    scheduler,
    seed,
    references,
    only,
    mutant_ids,
    show,
    as_json,
    plugins,
):
    """Mutate FAMILY's encodings of --backend and score the instance set: exit 0 when every mutant is
    killed or explained as equivalent, 1 when one survives unexplained or a mutant marked equivalent is
    killed (the marker is wrong).  A mutant cut short by --timeout where its variant, unmutated, finished
    within a fifth of it is killed by timeout."""
    from trisolve.backends import registry
    from trisolve.crosscheck.mutate import REFERENCES, UnknownMutant, run_mutate
    from trisolve.models import FAMILIES

    load_plugins(plugins)
    name, _ = registry.split_spec(backend)
    if name not in MUTABLE:
        raise UsageProblem(f"--backend {name}: mutants are made of {', '.join(MUTABLE)} encodings")
    try:
        registry.expand([backend], family)
        registry.get(backend, family)
    except (registry.UnknownBackend, registry.UnsupportedFamily, registry.BackendUnavailable, ValueError) as problem:
        raise UsageProblem(str(problem)) from None
    chosen = split_list(references) if references else list(REFERENCES)
    for spec in chosen:
        try:
            registry.get(spec, family)
        except (
            registry.UnknownBackend,
            registry.UnsupportedFamily,
            registry.BackendUnavailable,
            ValueError,
        ) as problem:
            raise UsageProblem(f"--references: {problem}") from None
    if resume and not jsonl:
        raise UsageProblem("--resume needs --jsonl FILE")
    if levels_dir and generate_count:
        raise UsageProblem("give --levels or --generate, not both")
    if scheduler and executor != "dask":
        raise UsageProblem("--scheduler needs --executor dask")
    params = family_params(family, sizes)
    if out_dir is None:
        out_dir = (os.path.splitext(jsonl)[0] + "-mutants") if jsonl else tempfile.mkdtemp(prefix=f"mutate-{family}-")
    parallel = parallel or os.cpu_count() or 1
    fam = FAMILIES[family]

    def generated(count: int, folder: str, base_seed: int):
        from trisolve.generate.campaign import prepare_instances

        try:
            return prepare_instances(family, count, base_seed, os.path.join(out_dir, folder), params)[0]
        except ValueError as problem:
            raise UsageProblem(str(problem)) from None

    if generate_count:
        instances = generated(generate_count, "instances", seed)
    else:
        instances = _shipped(levels_dir or os.path.join(_levels_root(), family), fam)
    retry_instances = (lambda: generated(retry, "retry-instances", seed + 1_000_003)) if retry else None
    progress = RunProgress(enabled=sys.stderr.isatty() and not as_json)
    try:
        report = run_mutate(
            fam,
            backend,
            instances,
            folder=out_dir,
            timeout=timeout,
            parallel=parallel,
            jsonl=jsonl,
            resume=resume,
            executor=executor,
            scheduler=scheduler,
            batch=batch,
            generate=retry_instances,
            retry_budget=retry_budget,
            suite=suite_dir,
            seed=seed,
            only=only,
            ids=mutant_ids,
            references=chosen,
            on_record=progress.update,
        )
    except UnknownMutant as problem:
        raise UsageProblem(str(problem)) from None
    finally:
        progress.close()
    if as_json:
        print_json(report.to_json())
    else:
        _print(report, show, suite_dir)
    if report.interrupted:
        click.echo(
            "trisolve: INTERRUPTED: the mutants not yet run are listed as survivors and the scores are partial",
            err=True,
        )
    interrupted_exit()
    unexplained = [o for o in report.outcomes if o.status == "survived" and o.reason is None]
    if unexplained or any(o.wrong_marker for o in report.outcomes):
        raise click.exceptions.Exit(1)


def _levels_root() -> str:
    from trisolve.backends import registry

    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(registry.__file__))), "levels")


def _shipped(path: str, family):
    """The instances under ``path``, smallest file first (cheap kills come first)."""
    from trisolve.crosscheck.run import Instance

    files = sorted(instance_files([path]), key=lambda p: (os.path.getsize(p), p))
    return [Instance(p, *load_instance(p, family.name)) for p in files]


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
        f"{len(report.instances)} instances used, {len(report.generated)} generated for survivors\n"
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
            f"{label}: {m.location} {m.operator} ({m.id}, tried on {outcome.tried} instances"
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
        f"killing suite: {len(report.suite)} instances{where}: " + ", ".join(os.path.basename(p) for p in report.suite)
    )
    click.echo(
        f"{report.runs} runs ({report.reused} reused) in {report.wall:.1f} s"
        + ("; INTERRUPTED: partial, scores cover the runs that finished" if report.interrupted else "")
    )
