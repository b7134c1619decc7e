"""Generated levels: they parse, their recorded solution is valid, --unique means exactly one
solution on every backend, and a seed always gives the same files."""

from __future__ import annotations

import filecmp
import json
import os

import pytest
from click.testing import CliRunner

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.models import FAMILIES
from trisolve.selection import declaring

SIZES = {
    "hexiom": [{"side": 2}, {"side": 3}],
    "logic": [{"positions": 3, "categories": 2}, {"positions": 4, "categories": 3}],
    "sigils": [{"width": 4, "height": 2}, {"width": 4, "height": 4}],
    "slither": [{"width": 4, "height": 3}, {"width": 6, "height": 6}],
    "nurikabe": [{"width": 4, "height": 4}, {"width": 7, "height": 5}],
    "sudoku": [{"size": 4}, {"size": 9}],
}
CASES = [(family, params, seed) for family, sizes in SIZES.items() for params in sizes for seed in (0, 1, 2)]


def _generate(family, params, seed, unique):
    from trisolve.generate import generator

    return generator(family)(seed, unique=unique, name="t", **params)


@pytest.mark.parametrize("family,params,seed", CASES)
def test_generated_level_parses_and_its_solution_is_valid(family, params, seed, tmp_path):
    from trisolve.generate import write_generated

    fam = FAMILIES[family]
    generated = _generate(family, params, seed, unique=False)
    path = write_generated(generated, str(tmp_path), "t")
    level = fam.parse(path)
    assert level == generated.level
    with open(tmp_path / "t.solution.json", encoding="utf-8") as handle:
        sidecar = json.load(handle)
    solution = fam.solution_from_json(level, sidecar["solution"])
    assert fam.validate(level, solution) == []


UNIQUE_CASES = (
    [("hexiom", {"side": 2}, s) for s in (0, 1)]
    + [("hexiom", {"side": 3}, s) for s in (0, 1, 2)]
    + [("logic", {"positions": 4, "categories": 3}, s) for s in (0, 1)]
    + [("sigils", {"width": 4, "height": 2}, 0)]
    + [("slither", {"width": 5, "height": 5}, s) for s in (0, 1)]
    + [("nurikabe", {"width": 5, "height": 5}, 1)]
    + [("sudoku", {"size": 4}, 0), ("sudoku", {"size": 6}, 0)]
)


@pytest.mark.parametrize("family,params,seed", UNIQUE_CASES)
def test_unique_levels_have_exactly_one_solution_on_every_backend(family, params, seed):
    fam = FAMILIES[family]
    generated = _generate(family, params, seed, unique=True)
    assert generated.unique
    for name in registry.variants(family, declaring("BY_DEFAULT")):
        result = registry.get(name, family).run(generated.level, Limits(solutions=2, time=20), Options(enumerate=True))
        assert result.complete and result.count == 1, name
        if not result.solutions:  # a count-only backend (dp:frontier) reports no solutions
            continue
        assert fam.validate(generated.level, result.solutions[0]) == [], name
        assert fam.canonical(generated.level, result.solutions[0]) == fam.canonical(
            generated.level, generated.solution
        ), name


def test_hexiom_unique_keeps_no_redundant_lock():
    from trisolve.generate import count_solutions
    from trisolve.models.hexiom.generate import level_of

    generated = _generate("hexiom", {"side": 3}, 5, unique=True)
    level = generated.level
    pins = [("lock", c) for c, _ in level.locked_tiles] + [("block", c) for c in level.blocked_cells]
    assert generated.info["locks"] == len(pins)
    for kind, cell in pins:
        locked = {c: n for c, n in level.locked_tiles if not (kind == "lock" and c == cell)}
        blocked = set(level.blocked_cells) - ({cell} if kind == "block" else set())
        count, _, _ = count_solutions("hexiom", level_of(level.board, generated.solution, locked, blocked), 2)
        assert count == 2, f"{kind} on cell {cell} is redundant"


def test_logic_unique_keeps_no_redundant_clue():
    from trisolve.generate import count_solutions
    from trisolve.models.logic.model import Level

    level = _generate("logic", {"positions": 4, "categories": 3}, 3, unique=True).level
    for index in range(len(level.clues)):
        fewer = Level(level.positions, level.categories, level.clues[:index] + level.clues[index + 1 :])
        assert count_solutions("logic", fewer, 2)[0] == 2


@pytest.mark.parametrize(
    "family,options",
    [
        ("hexiom", ["--side", "3", "--unique"]),
        ("logic", ["--positions", "4"]),
        ("sigils", ["--width", "4", "--height", "4"]),
    ],
)
def test_same_seed_same_files(family, options, tmp_path):
    from trisolve.cli.main import cli

    runner = CliRunner()
    for folder in ("a", "b"):
        result = runner.invoke(
            cli, ["generate", family, *options, "--seed", "11", "--count", "2", "-o", str(tmp_path / folder)]
        )
        assert result.exit_code == 0, result.output
    names = sorted(os.listdir(tmp_path / "a"))
    assert len(names) == 4 and names == sorted(os.listdir(tmp_path / "b"))
    match, mismatch, errors = filecmp.cmpfiles(tmp_path / "a", tmp_path / "b", names, shallow=False)
    assert mismatch == [] and errors == []
    other = runner.invoke(
        cli, ["generate", family, *options, "--seed", "12", "--count", "2", "-o", str(tmp_path / "c")]
    )
    assert other.exit_code == 0
    assert not all(
        filecmp.cmp(tmp_path / "a" / n, tmp_path / "c" / n.replace("-s11-", "-s12-"), shallow=False)
        for n in names
        if not n.endswith(".json")
    )


def test_generated_folder_is_read_by_solve_and_crosscheck(tmp_path):
    from trisolve.cli.main import cli

    runner = CliRunner()
    assert (
        runner.invoke(cli, ["generate", "hexiom", "--side", "3", "--unique", "-n", "2", "-o", str(tmp_path)]).exit_code
        == 0
    )
    result = runner.invoke(
        cli, ["crosscheck", str(tmp_path), "--backends", "pysat,cpsat:int", "--timeout", "10", "-j", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "2 of 2" in result.output  # the .solution.json sidecars are not taken for instances
    solved = runner.invoke(cli, ["solve", str(tmp_path / "hexiom-s0-0000.txt")])
    assert solved.exit_code == 0, solved.output


def test_options_of_another_family_are_refused(tmp_path):
    from trisolve.cli.main import cli

    result = CliRunner().invoke(cli, ["generate", "sigils", "--side", "3", "-o", str(tmp_path)])
    assert result.exit_code == 2


def test_a_size_option_families_share_says_what_it_means_to_each(tmp_path):
    import click
    from support import run_cli

    from trisolve.cli.main import cli

    command = cli.get_command(click.Context(cli), "generate")
    (width,) = [p for p in command.params if p.name == "width"]
    assert "sigils: frame width (default 4)" in width.help
    assert "slither" in width.help and "cells across (default 10)" in width.help
    assert run_cli(["generate", "sigils", "--width", "50", "-o", str(tmp_path), "--quiet"]) == 2  # sigils' own range


@pytest.mark.parametrize("seed", [0, 1])
def test_nurikabe_10x10_unique_is_counted_once_by_a_second_backend(seed):
    """--unique proves a 10x10 Nurikabe unique (a few seconds), and a backend other than the counting one
    agrees: exactly one solution, the intended shading."""
    from trisolve.generate.common import counting_backend

    fam = FAMILIES["nurikabe"]
    generated = _generate("nurikabe", {"width": 10, "height": 10}, seed, unique=True)
    assert generated.unique
    second = next(name for name in ("pysat:compiled-lazy", "cpsat:compiled") if name != counting_backend("nurikabe"))
    result = registry.get(second, "nurikabe").run(
        generated.level, Limits(solutions=2, time=20), Options(enumerate=True)
    )
    assert result.complete and result.count == 1
    assert fam.canonical(generated.level, result.solutions[0]) == fam.canonical(generated.level, generated.solution)
