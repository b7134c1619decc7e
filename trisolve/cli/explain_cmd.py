"""``trisolve explain``: why a level's answer is what it is (``trisolve.api.explain``): the steps to its unique
solution, a hint, the backbone and extra givens of a puzzle with several solutions, or the minimal causes of
"no solution"; each claim confirmed by a second paradigm."""

from __future__ import annotations

import click

from trisolve.models.errors import UsageError

from .common import COUNT, EXIT_FAILED, EXIT_LIMIT, TIMEOUT, interrupted_exit, load_level, print_json, quiet_option


@click.command(name="explain")
@click.argument("level", type=click.Path(dir_okay=False))
@click.option("--hint", is_flag=True, help="Only the next step (from the --partial board, if given).")
@click.option(
    "--partial",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FACTS.json",
    help="A partly filled board for --hint: a JSON list of facts as explain prints them (or explain --json "
    "output). Entries that contradict the puzzle are named.",
)
@click.option("--all-mus", type=COUNT, default=1, show_default=True, help="List up to N minimal causes of no solution.")
@click.option(
    "--check",
    type=click.Choice(["cpsat", "clingo"]),
    default="cpsat",
    show_default=True,
    help="The second paradigm confirming each claim (CP-SAT or clingo).",
)
@click.option("--no-check", is_flag=True, help="Skip the second paradigm's checks.")
@click.option(
    "--timeout", type=TIMEOUT, default=None, help="Wall-clock limit in seconds; a partial explanation is kept."
)
@click.option(
    "--svg",
    "svg_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Write a picture of each step (step-001.svg, ...): the board after it, the new fact and the clues "
    "and facts it used highlighted.",
)
@click.option("--step", "only_step", type=COUNT, default=None, help="With --svg: only the picture of step N.")
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as JSON.")
@click.option("--family", default=None, help="Puzzle family, when it cannot be told from the file.")
@quiet_option
def command(level, hint, partial, all_mus, check, no_check, timeout, svg_dir, only_step, as_json, family, quiet):
    """Explain LEVEL: step by step why its solution is the only one, a hint, or why it has none."""
    from .. import api

    if only_step is not None and svg_dir is None:
        raise UsageError("--step goes with --svg")
    loaded = load_level(level, family)

    def progress(text: str) -> None:
        if not quiet:
            click.echo(text, err=True)

    found = api.explain(
        loaded,
        hint=hint,
        partial=partial,
        timeout=timeout,
        check=None if no_check else check,
        all_mus=all_mus,
        on_progress=progress,
    )
    if as_json:
        print_json({"instance": level, "family": loaded.family, **found.to_json()})
    else:
        click.echo(found.text())
    if svg_dir is not None:
        _pictures(found, svg_dir, only_step)
    interrupted_exit()
    if found.findings:
        raise click.exceptions.Exit(EXIT_FAILED)
    if found.partial:
        raise click.exceptions.Exit(EXIT_LIMIT)


def _pictures(found, folder: str, only: int | None) -> None:
    """One SVG per step (or only step ``only``) in ``folder``."""
    import os

    from trisolve.models import files

    if only is not None and only > len(found.steps):
        raise UsageError(f"--step {only}: the explanation has {len(found.steps)} steps")
    files.make_folder(folder, "--svg folder")
    numbers = [only] if only is not None else range(1, len(found.steps) + 1)
    for number in numbers:
        path = os.path.join(folder, f"step-{number:03d}.svg")
        files.write_text(path, found.picture(number), what="picture")
    click.echo(f"wrote {len(numbers)} pictures to {folder}", err=True)
