"""``trisolve generate``: levels solvable by construction, optionally with a unique solution
(``trisolve.api.generate_levels``)."""

from __future__ import annotations

import functools
from typing import Any

import click

from .common import COUNT, EXIT_LIMIT, SEED, TIMEOUT, number_type, print_json, quiet_option
from .progress import for_command


def size_options(function):
    """Every generating family's size options (``Family.generator_parameters``), shared with ``campaign`` and
    ``mutate``.  The command receives them as one ``sizes`` dict; the API checks them against the family."""
    from trisolve.backends.numbers import Range
    from trisolve.models import FAMILIES

    # name -> help text -> (family names, parameter): a name families share is one option, whose range spans
    # theirs (the API checks a value against the family's own) and whose help says each family's meaning
    parameters: dict[str, dict[str, tuple[list[str], Any]]] = {}
    for family in FAMILIES.values():
        for parameter in family.generator_parameters:
            meanings = parameters.setdefault(parameter.name, {})
            meanings.setdefault(parameter.help, ([], parameter))[0].append(family.name)

    @functools.wraps(function)
    def wrapper(**kwargs):
        sizes = {name: kwargs.pop(name) for name in parameters}
        return function(sizes=sizes, **kwargs)

    for name, meanings in reversed(parameters.items()):
        shared = [parameter for _, parameter in meanings.values()]
        low = min(shared, key=lambda parameter: parameter.low)
        high = max(parameter.high for parameter in shared)
        kind = number_type(Range(low.kind, low.low, high, low.low_open))
        text = "; ".join(f"{', '.join(families)}: {meaning}" for meaning, (families, _) in meanings.items())
        wrapper = click.option(f"--{name}", type=kind, default=None, help=f"{text}.")(wrapper)
    return wrapper


@click.command(name="generate")
@click.argument("family")
@size_options
@click.option("--seed", type=SEED, default=0, show_default=True, help="Same seed, same files.")
@click.option(
    "--unique",
    is_flag=True,
    help="Make the solution unique (each family its own way, e.g. by locking tiles or drawing again; some "
    "families' levels always are).",
)
@click.option("--count", "-n", type=COUNT, default=1, show_default=True)
@click.option("--output", "-o", "folder", type=click.Path(file_okay=False), required=True, help="Folder to write to.")
@click.option(
    "--timeout",
    type=TIMEOUT,
    default=None,
    help="Wall-clock limit of the whole command, seconds: the level being made is written without a uniqueness "
    "proof and no further level is started (exit 3).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per level.")
@quiet_option
def command(family, sizes, seed, unique, count, folder, timeout, as_json, quiet):
    """Write COUNT generated FAMILY levels to a folder, each with its intended solution
    in ``<name>.solution.json``; level i uses a seed derived from --seed and i.  Progress on stderr
    shows each attempt of the level being made.  Exit 3 when a unique solution was asked for and
    could not be proved for some level, or --timeout stopped the work."""
    from .. import api

    unproved = 0
    stopped = False
    with for_command("generate", quiet=quiet or as_json, unit="levels") as progress:
        progress.phase("generating", count)
        levels = api.generate_levels(
            family,
            folder,
            count=count,
            seed=seed,
            unique=unique,
            timeout=timeout,
            on_attempt=progress.note_only,
            **sizes,
        )
        for made in levels:
            progress.advance(1, made.path)
            unproved += _show(made, as_json)
            stopped = made.stopped
    if stopped:
        click.echo(
            f"trisolve: --timeout {timeout:g} s: stopped at level {progress.done} of {count} (the levels so far are "
            "written; no further level made)",
            err=True,
        )
    if unproved or stopped:
        raise click.exceptions.Exit(EXIT_LIMIT)


def _show(made, as_json: bool) -> int:
    """Print one written level; 1 when its unique solution could not be proved."""
    if made.unproved:
        click.echo(
            f"trisolve: {made.path}: could not prove a unique solution (time limit or attempts ran out)", err=True
        )
    if as_json:
        print_json(made.to_json())
    else:
        extra = ", ".join(f"{k} {v}" for k, v in made.info.items())
        click.echo(f"{made.path}: {'unique' if made.unique else 'solvable'} ({extra})")
    return 1 if made.unproved else 0
