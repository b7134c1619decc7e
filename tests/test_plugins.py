"""A user's own encoding plugs into every command: --plugin files, entry points, Dask workers.

The plugin is docs/examples/my_hexiom_cnf.py, the worked example of
docs/own-encoding.md: these tests run exactly what that page shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT

from trisolve.models.hexiom import model as hexiom

PLUGIN = os.path.join(ROOT, "docs", "examples", "my_hexiom_cnf.py")
LEVEL10 = os.path.join(ROOT, "levels", "hexiom", "level10.txt")


def trisolve(*args: str, cwd=None, env=None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "trisolve", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd or ROOT,
        env=env,
    )


def test_worked_example_finds_minimises_and_reports_the_bug(tmp_path):
    done = trisolve(
        "crosscheck",
        LEVEL10,
        "--plugin",
        PLUGIN,
        "--backends",
        "pysat,mine",
        "--no-expected",
        "--minimize",
        "--minimize-dir",
        str(tmp_path),
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "complete counts differ" in done.stdout and "mine:as-written 0" in done.stdout
    # the fixed variant agrees with the shipped ones: only as-written is a suspect
    assert "mine:fixed 8" in done.stdout
    small = hexiom.parse(str(tmp_path / "level10-min.txt"))
    assert small.board.size == 1 and small.tile_counts[0] == 1  # one cell holding a 0: the whole bug
    repro = next(line.strip() for line in done.stdout.splitlines() if line.strip().startswith("trisolve crosscheck"))
    assert "--plugin" in repro
    again = trisolve(*repro.split()[1:], cwd=tmp_path)
    assert again.returncode == 1 and "VERDICT: FAILED" in again.stdout


def test_the_fixed_encoding_agrees_with_the_shipped_ones():
    done = trisolve(
        "crosscheck",
        LEVEL10,
        os.path.join(ROOT, "levels", "hexiom", "level05.txt"),
        "--plugin",
        PLUGIN,
        "--backends",
        "clingo,mine:fixed",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VERDICT" in done.stdout and "FAILED" not in done.stdout


def test_solve_export_bench_and_backends_take_the_plugin(tmp_path):
    solved = trisolve("solve", LEVEL10, "--plugin", PLUGIN, "--backend", "mine", "--count", "--json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["count"] == 8
    exported = trisolve("export", LEVEL10, "--plugin", PLUGIN, "--backend", "mine:fixed", "--format", "dimacs")
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.splitlines()[1] == "c trisolve hexiom level10 mine:fixed" and "p cnf" in exported.stdout
    listed = trisolve("backends", "--plugin", PLUGIN, "--family", "hexiom")
    assert "mine:as-written" in listed.stdout
    bench = trisolve(
        "bench",
        LEVEL10,
        "--plugin",
        PLUGIN,
        "--backends",
        "mine,pysat:totalizer",
        "--repeat",
        "1",
        "--no-plots",
        "--quiet",
        "--out",
        str(tmp_path / "bench"),
    )
    assert bench.returncode == 0, bench.stdout + bench.stderr
    rows = json.loads((tmp_path / "bench" / "results.json").read_text())
    assert any(row.get("backend") == "mine:fixed" and row.get("solved") for row in _runs(rows))


def _runs(data) -> list[dict]:
    return data["runs"] if isinstance(data, dict) and "runs" in data else data


@pytest.mark.parametrize("executor", ["local", pytest.param("dask", marks=pytest.mark.slow)])
def test_campaign_runs_the_plugin_locally_and_on_dask_workers(tmp_path, executor):
    """Dask workers are not forked from the command: they load the plugin file themselves."""
    if executor == "dask":
        pytest.importorskip("distributed")
    log = str(tmp_path / "c.jsonl")
    done = trisolve(
        "campaign",
        "--family",
        "hexiom",
        "--generate",
        "2",
        "--side",
        "3",
        "--unique",
        "--seed",
        "3",
        "--jsonl",
        log,
        "--backends",
        "pysat:totalizer,mine:fixed",
        "--plugin",
        PLUGIN,
        "--executor",
        executor,
        "--jobs",
        "2",
        "--json",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert summary["statuses"] == {"agree": 2} and summary["errors"] == 0
    with open(log, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    mine = [r for r in records if r["backend"] == "mine:fixed"]
    assert len(mine) == 2 and all(r["complete"] and not r["error"] for r in mine)


def test_an_installed_package_adds_backends_through_entry_points(tmp_path):
    """No flag: a distribution on the path with a trisolve.backends entry point is found by name."""
    with open(PLUGIN, encoding="utf-8") as source:
        (tmp_path / "my_hexiom_cnf.py").write_text(source.read())
    info = tmp_path / "my_hexiom_cnf-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-hexiom-cnf\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[trisolve.backends]\nmine = my_hexiom_cnf:BACKEND\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    listed = trisolve("backends", "--family", "hexiom", env=env)
    assert "mine:fixed" in listed.stdout, listed.stderr
    solved = trisolve("solve", LEVEL10, "--backend", "mine", "--count", "--json", env=env)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["count"] == 8
    checked = trisolve("crosscheck", LEVEL10, "--backends", "pysat:totalizer,mine:as-written", env=env)
    assert checked.returncode == 1 and "mine:as-written" in checked.stdout


def test_a_broken_plugin_is_bad_input_naming_file_and_line(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import types\n\nx = (\n")
    done = trisolve("solve", LEVEL10, "--plugin", str(broken))
    assert done.returncode == 2
    assert f"{broken}:3" in done.stderr and "Traceback" not in done.stderr
    failing = tmp_path / "failing.py"
    failing.write_text("raise RuntimeError('no solver here')\n")
    done = trisolve("crosscheck", LEVEL10, "--plugin", str(failing))
    assert done.returncode == 2 and "no solver here" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_mutate_judges_the_mutants_against_a_plugin_backend(tmp_path):
    levels = tmp_path / "levels"
    levels.mkdir()
    (levels / "level10.txt").write_text(Path(LEVEL10).read_text(encoding="utf-8"))
    log = tmp_path / "m.jsonl"
    done = trisolve(
        "mutate",
        "hexiom",
        "--backend",
        "pysat:totalizer",
        "--levels",
        str(levels),
        "--retry",
        "0",
        "--references",
        "mine:fixed",
        "--plugin",
        PLUGIN,
        "--jsonl",
        str(log),
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert report["instances"] and sum(o["status"] == "killed" for o in report["outcomes"]) >= 5
    backends = {json.loads(line)["backend"] for line in log.read_text().splitlines()}
    assert "mine:fixed" in backends and "cpsat:int" not in backends


# ------------------------------------------------------------------ plugins that misbehave are contained

#: a plugin that registers the backend ``bad`` (one hexiom variant ``v``) with the given functions
MISBEHAVING = """
from types import SimpleNamespace
from trisolve.backends import registry
from trisolve.backends.catalog import Catalog

translator = SimpleNamespace(CATALOG=Catalog(default="v", variants={{"v": "a plugin that misbehaves"}}))
{body}
"""


def _plugin(tmp_path, body: str) -> str:
    path = tmp_path / "plugin.py"
    path.write_text(MISBEHAVING.format(body=body))
    return str(path)


@pytest.mark.parametrize(
    "body,args,fragment",
    [
        ("import sys; sys.exit(0)", ["solve", LEVEL10], "sys.exit(0)"),
        (
            'registry.register("pysat", SimpleNamespace(available=lambda: None, make=None, '
            'TRANSLATORS={"hexiom": translator}))',
            ["solve", LEVEL10],
            "ships with trisolve",
        ),
        (
            'registry.register_translator("pysat", "hexiom", translator)',
            ["solve", LEVEL10],
            "ships a translator for hexiom",
        ),
        (
            'def available(): raise RuntimeError("boom in available")\n'
            'registry.register("bad", SimpleNamespace(available=available, make=lambda f, v, t: None, '
            'TRANSLATORS={"hexiom": translator}))',
            ["backends", "--family", "hexiom"],
            "available() raised RuntimeError: boom in available",
        ),
        (
            'def make(family, variant, translator): raise KeyError("boom in make")\n'
            'registry.register("bad", SimpleNamespace(available=lambda: None, make=make, '
            'TRANSLATORS={"hexiom": translator}))',
            ["solve", LEVEL10, "--backend", "bad"],
            "make() raised KeyError",
        ),
        (
            'registry.register("bad", SimpleNamespace(available=lambda: None, make=lambda f, v, t: None, '
            'TRANSLATORS={"hexiom": SimpleNamespace()}))',
            ["solve", LEVEL10],
            "has no CATALOG",
        ),
    ],
    ids=["exits", "replaces-a-backend", "replaces-a-translator", "available-raises", "make-raises", "no-catalog"],
)
def test_a_misbehaving_plugin_is_an_error_naming_it_never_a_traceback_or_a_silent_exit(tmp_path, body, args, fragment):
    done = trisolve(*args, "--plugin", _plugin(tmp_path, body))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert fragment in done.stderr and "Traceback" not in done.stderr


def test_a_plugin_replaces_a_shipped_backend_only_when_it_says_so(tmp_path):
    plugin = _plugin(
        tmp_path,
        "from trisolve.backends import pysat\nfrom trisolve.backends.pysat import hexiom\n"
        "mine = SimpleNamespace(CATALOG=translator.CATALOG, encode=lambda level, variant, options: "
        'hexiom.encode(level, "totalizer", options))\n'
        'registry.register("pysat", pysat.backend("pysat", {"hexiom": mine}), override=True)',
    )
    done = trisolve("solve", LEVEL10, "--backend", "pysat", "--count", "--json", "--plugin", plugin)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["backend"] == "pysat:v" and data["count"] == 8
