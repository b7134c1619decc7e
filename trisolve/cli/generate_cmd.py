"""``trisolve generate``: levels solvable by construction, optionally with a unique solution."""

from __future__ import annotations

import click

from trisolve.backends.numbers import Range
from trisolve.models.errors import UsageError

from .common import COUNT, SEED, number_type, print_json


def family_params(family: str, sizes: dict) -> dict:
    """The generator's size options for one family; options of other families are refused."""
    from trisolve.models import FAMILIES

    own = [parameter.name for parameter in FAMILIES[family].generator_parameters]
    stray = [f"--{name}" for name, value in sizes.items() if value is not None and name not in own]
    if stray:
        raise UsageError(
            f"{', '.join(stray)} does not apply to {family}; its options: " + ", ".join(f"--{name}" for name in own)
        )
    return {name: value for name, value in sizes.items() if value is not None}


def size_options(function):
    """Every generating family's size options (``Family.generator_parameters``), shared with ``trisolve campaign``.

    The command receives them as one ``sizes`` dict, for ``family_params``.
    """
    import functools

    from trisolve.models import FAMILIES

    parameters = {}  # name -> (family names, parameter): a name two families share is one option
    for family in FAMILIES.values():
        for parameter in family.generator_parameters:
            parameters.setdefault(parameter.name, ([], parameter))[0].append(family.name)

    @functools.wraps(function)
    def wrapper(**kwargs):
        sizes = {name: kwargs.pop(name) for name in parameters}
        return function(sizes=sizes, **kwargs)

    for name, (families, parameter) in reversed(parameters.items()):
        kind = number_type(Range(parameter.kind, parameter.low, parameter.high, parameter.low_open))
        wrapper = click.option(f"--{name}", type=kind, default=None, help=f"{', '.join(families)}: {parameter.help}.")(
            wrapper
        )
    return wrapper


def generating_families() -> click.Choice:
    from trisolve.generate.common import generating_families as names

    return click.Choice(names())


@click.command(name="generate")
@click.argument("family", type=generating_families())
@size_options
@click.option("--seed", type=SEED, default=0, show_default=True, help="Same seed, same files.")
@click.option(
    "--unique",
    is_flag=True,
    help="Make the solution unique (hexiom: lock tiles/block cells; sigils: redraw; logic: always).",
)
@click.option("--count", "-n", type=COUNT, default=1, show_default=True)
@click.option("--output", "-o", "folder", type=click.Path(file_okay=False), required=True, help="Folder to write to.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per level.")
def command(family, sizes, seed, unique, count, folder, as_json):
    """Write COUNT generated FAMILY levels to a folder, each with its intended solution
    in ``<name>.solution.json``; instance i uses a seed derived from --seed and i."""
    from trisolve.backends.runner import raise_if_interrupted
    from trisolve.generate import generator, instance_seed, write_generated
    from trisolve.models import FAMILIES

    params = family_params(family, sizes)
    make = generator(family)
    failed = 0
    for index in range(count):
        raise_if_interrupted()
        stem = f"{family}-s{seed}-{index:04d}"
        try:
            generated = make(instance_seed(seed, index), unique=unique, name=stem, **params)
        except ValueError as problem:
            raise UsageError(str(problem)) from None
        path = write_generated(generated, folder, stem)
        wanted_unique = unique or FAMILIES[family].always_unique
        if wanted_unique and not generated.unique:
            failed += 1
            click.echo(
                f"trisolve: {path}: could not prove a unique solution (time limit or attempts ran out)", err=True
            )
        if as_json:
            print_json({"file": path, "seed": generated.seed, "unique": generated.unique, **dict(generated.info)})
        else:
            extra = ", ".join(f"{k} {v}" for k, v in generated.info.items())
            click.echo(f"{path}: {'unique' if generated.unique else 'solvable'} ({extra})")
    if failed:
        raise click.exceptions.Exit(3)
