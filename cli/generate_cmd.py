"""``trisolve generate``: levels solvable by construction, optionally with a unique solution."""

from __future__ import annotations

import click

from .common import COUNT, FiniteRange, SEED, UsageProblem, print_json


def family_params(family: str, side, width, height, positions, categories, fill) -> dict:
    """The generator's size options for one family; options of other families are refused."""
    given = {"--side": side, "--fill": fill, "--width": width, "--height": height,
             "--positions": positions, "--categories": categories}
    own = {"hexiom": {"--side": "side", "--fill": "fill"},
           "sigils": {"--width": "width", "--height": "height"},
           "logic": {"--positions": "positions", "--categories": "categories"}}[family]
    stray = [option for option, value in given.items() if value is not None and option not in own]
    if stray:
        raise UsageProblem(f"{', '.join(stray)} does not apply to {family}; its options: {', '.join(own)}")
    return {name: given[option] for option, name in own.items() if given[option] is not None}


def size_options(function):
    """The per-family size options, shared with ``trisolve campaign``."""
    for decorator in reversed([
        click.option("--side", type=click.IntRange(1, 16), default=None, help="hexiom: board side (default 3)."),
        click.option("--fill", type=FiniteRange(0, 1, min_open=True), default=None,
                     help="hexiom: share of cells holding a tile (default 0.5)."),
        click.option("--width", type=click.IntRange(1, 40), default=None, help="sigils: frame width (default 4)."),
        click.option("--height", type=click.IntRange(1, 40), default=None, help="sigils: frame height (default 4)."),
        click.option("--positions", type=click.IntRange(1, 50), default=None, help="logic: positions (default 4)."),
        click.option("--categories", type=click.IntRange(1, 8), default=None, help="logic: categories (default 3)."),
    ]):
        function = decorator(function)
    return function


@click.command(name="generate")
@click.argument("family", type=click.Choice(["hexiom", "logic", "sigils"]))
@size_options
@click.option("--seed", type=SEED, default=0, show_default=True, help="Same seed, same files.")
@click.option("--unique", is_flag=True,
              help="Make the solution unique (hexiom: lock tiles/block cells; sigils: redraw; logic: always).")
@click.option("--count", "-n", type=COUNT, default=1, show_default=True)
@click.option("--output", "-o", "folder", type=click.Path(file_okay=False), required=True, help="Folder to write to.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per level.")
def command(family, side, fill, width, height, positions, categories, seed, unique, count, folder, as_json):
    """Write COUNT generated FAMILY levels to a folder, each with its intended solution
    in ``<name>.solution.json``; instance i uses a seed derived from --seed and i."""
    from trisolve.generate import generator, instance_seed, write_generated

    params = family_params(family, side, width, height, positions, categories, fill)
    make = generator(family)
    failed = 0
    for index in range(count):
        stem = f"{family}-s{seed}-{index:04d}"
        try:
            generated = make(instance_seed(seed, index), unique=unique, name=stem, **params)
        except ValueError as problem:
            raise UsageProblem(str(problem)) from None
        path = write_generated(generated, folder, stem)
        wanted_unique = unique or family == "logic"
        if wanted_unique and not generated.unique:
            failed += 1
            click.echo(f"trisolve: {path}: could not prove a unique solution (time limit or attempts ran out)", err=True)
        if as_json:
            print_json({"file": path, "seed": generated.seed, "unique": generated.unique, **dict(generated.info)})
        else:
            extra = ", ".join(f"{k} {v}" for k, v in generated.info.items())
            click.echo(f"{path}: {'unique' if generated.unique else 'solvable'} ({extra})")
    if failed:
        raise click.exceptions.Exit(3)
