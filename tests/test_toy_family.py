"""A family registered from a test module runs through solve and crosscheck: no CLI file names it, and no
backend either: it is stated only as a constraint model, which every compiling backend runs."""

from __future__ import annotations

import json
import math
import os

import pytest
import toy_family
from support import assert_listed_once, run_cli

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.backends.spec import Spec
from trisolve.selection import choose, declaring

pytest.importorskip("pysat")
pytest.importorskip("ortools")

BACKENDS = os.path.join(os.path.dirname(registry.__file__))
#: every backend this machine runs in Python (dimacs needs an outside SAT command; its tests give it one)
IN_PYTHON = [name for name in declaring("IN_PYTHON") if registry.available(name) is None]
#: the compiling backends the toy family must reach (its model's kinds are ones exact cover states too)
COMPILERS = ("pysat", "clingo", "cpsat", "mip", "exactcover", "ganak")


def _compiled_variants() -> list[str]:
    toy_family.register()
    try:
        return registry.variants("toy", IN_PYTHON)
    finally:
        toy_family.unregister()


@pytest.fixture
def toy(tmp_path):
    toy_family.register()
    path = tmp_path / "six.toy"
    path.write_text("choose 6 2\n")
    yield str(path)
    toy_family.unregister()


def trisolve(*argv: str) -> int:
    return run_cli(list(argv))


def test_the_registry_runs_the_toy_on_every_compiling_backend_and_no_file_names_it(toy):
    found = registry.variants("toy", registry.names())
    assert all(Spec.parse(spec).variant_name.startswith("compiled") for spec in found), found
    assert {Spec.parse(spec).backend for spec in found} >= set(COMPILERS) | {"dimacs"}
    assert not registry.breaks_symmetries("pysat", "toy")
    named = [
        os.path.join(folder, file)
        for folder, _, files in os.walk(BACKENDS)
        for file in files
        if "toy" in file or "toy" in os.path.basename(folder)
    ]
    assert named == []


def test_a_toy_level_given_as_text_goes_through_the_familys_parse_text(toy):
    import trisolve

    level = trisolve.load("choose 5 3\n")  # told apart from the shipped families by its sniff
    assert level.family == "toy" and (level.model.cells, level.model.chosen) == (5, 3)
    with pytest.raises(trisolve.UsageError, match="<string>:1: expected 'choose N K'"):
        trisolve.load("choose 5\n", family="toy")


def test_solve_finds_the_family_by_content_and_uses_its_default_backend(toy, capsys):
    assert trisolve("solve", toy, "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["family"] == "toy" and data["backend"] == "cpsat:compiled" and data["status"] == "sat"
    level = toy_family.parse(toy)
    assert toy_family.validate(level, toy_family.Solution(tuple(data["solutions"][0]["cells"]))) == []


@pytest.mark.parametrize("spec", _compiled_variants())
def test_every_compiled_variant_counts_and_lists_valid_solutions(toy, spec):
    level = toy_family.parse(toy)
    result = registry.get(spec, "toy").run(level, Limits(time=60), Options(enumerate=True))
    assert result.complete and result.count == math.comb(6, 2), (result.status, result.stopped_by)
    assert_listed_once(toy_family.TOY, level, result)
    first = registry.get(spec, "toy").run(level, Limits(time=60), Options())
    if not registry.catalog(Spec.parse(spec).backend, "toy").count_only:
        assert toy_family.validate(level, first.solutions[0]) == []


@pytest.mark.parametrize("backend", ["pysat", "cpsat", "clingo"])
def test_solve_counts(toy, backend, capsys):
    assert trisolve("solve", toy, "--backend", backend, "--count", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == math.comb(6, 2) and data["complete"] is True
    assert data["backend"] == f"{backend}:compiled"


def test_crosscheck_runs_every_compiled_variant_and_they_agree(toy, capsys):
    assert trisolve("crosscheck", toy, "--no-expected", "--json", "--jobs", "1", "--timeout", "30") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "ok"
    (instance,) = data["instances"]
    assert instance["family"] == "toy" and instance["status"] == "agree" and instance["count"] == math.comb(6, 2)
    runs = {run["backend"]: run for run in instance["runs"]}
    assert set(runs) == set(choose("toy", "crosscheck").backends)
    assert {Spec.parse(name).backend for name in runs} >= {"pysat", "clingo", "cpsat", "exactcover"}
    assert all(run["complete"] and run["count"] == math.comb(6, 2) for run in runs.values())


def test_crosscheck_loads_the_family_as_a_plugin(tmp_path):
    # the same module through --plugin, in a fresh process: nothing in the package knows "toy"
    import subprocess
    import sys

    path = tmp_path / "four.toy"
    path.write_text("choose 4 1\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "trisolve",
            "crosscheck",
            str(path),
            "--no-expected",
            "--json",
            "--jobs",
            "1",
            "--plugin",
            toy_family.__file__,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["instances"][0]["count"] == 4
