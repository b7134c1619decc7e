"""A family registered from a test module runs through solve and crosscheck: no CLI file names it."""

from __future__ import annotations

import json
import math

import pytest
import toy_family
from support import run_cli

from trisolve.selection import declaring

pytest.importorskip("pysat")
pytest.importorskip("ortools")


@pytest.fixture
def toy(tmp_path):
    toy_family.register()
    path = tmp_path / "six.toy"
    path.write_text("choose 6 2\n")
    yield str(path)
    toy_family.unregister()


def trisolve(*argv: str) -> int:
    return run_cli(list(argv))


def test_the_registry_lists_the_toys_translators(toy):
    from trisolve.backends import registry

    assert sorted(registry.variants("toy", declaring("BY_DEFAULT"))) == ["cpsat:plain", "pysat:plain"]
    assert not registry.breaks_symmetries("pysat", "toy")


def test_a_toy_level_given_as_text_goes_through_the_familys_parse_text(toy):
    import trisolve

    level = trisolve.load("choose 5 3\n")  # told apart from the shipped families by its sniff
    assert level.family == "toy" and (level.model.cells, level.model.chosen) == (5, 3)
    with pytest.raises(trisolve.UsageError, match="<string>:1: expected 'choose N K'"):
        trisolve.load("choose 5\n", family="toy")


def test_solve_finds_the_family_by_content_and_uses_its_default_backend(toy, capsys):
    assert trisolve("solve", toy, "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["family"] == "toy" and data["backend"] == "cpsat:plain" and data["status"] == "sat"
    level = toy_family.parse(toy)
    assert toy_family.validate(level, toy_family.Solution(tuple(data["solutions"][0]["cells"]))) == []


@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_solve_counts(toy, backend, capsys):
    assert trisolve("solve", toy, "--backend", backend, "--count", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == math.comb(6, 2) and data["complete"] is True


def test_crosscheck_runs_every_translator_and_they_agree(toy, capsys):
    assert trisolve("crosscheck", toy, "--no-expected", "--json", "--jobs", "1", "--timeout", "30") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "ok"
    (instance,) = data["instances"]
    assert instance["family"] == "toy" and instance["status"] == "agree" and instance["count"] == math.comb(6, 2)
    runs = {run["backend"]: run for run in instance["runs"]}
    assert set(runs) == {"pysat:plain", "cpsat:plain"}
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
