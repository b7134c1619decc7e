"""The exactcover backend's own checks: the exported file, the variants against each other, limits,
the numba cache, and that xcover's memoised ZDD (which miscounts) is never used.

What every backend keeps (valid solutions, exact counts, orbits, limits) is in tests/test_contract.py.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import ROOT, expected, level_path, run_trisolve

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.models import FAMILIES
from trisolve.models.logic import model as logic
from trisolve.models.sigils import model as sigils
from trisolve.runs import Job, run
from trisolve.selection import declaring

pytestmark = pytest.mark.skipif(registry.available("exactcover") is not None, reason="xcover is not installed")

ENUMERATE = Options(enumerate=True)
PACKAGE = os.path.join(ROOT, "backends", "exactcover")


def sigil(stem: str) -> sigils.Level:
    return sigils.parse(level_path("sigils", stem))


def listed(spec: str, level, options: Options = ENUMERATE, family: str = "sigils"):
    result = registry.get(spec, family).run(level, Limits(time=120), options)
    fam = FAMILIES[family]
    for solution in result.solutions:
        assert fam.validate(level, solution) == []
    assert result.duplicates == 0
    return result


# ------------------------------------------------------------------ never the memo cache


FORBIDDEN = {"covers_zdd", "covers_bool_zdd", "algorithm_z", "use_memo_cache", "dancing_cells_zdd"}


def test_the_backend_never_names_xcovers_memoised_zdd():
    """``covers_zdd(..., use_memo_cache=True)`` counts 9,357 tilings of the 6x10 rectangle (true: 9,356).

    Code only: names, attributes, keywords and imports, not the docstrings that explain why.
    """
    for name in sorted(os.listdir(PACKAGE)):
        if not name.endswith(".py"):
            continue
        tree = ast.parse(Path(os.path.join(PACKAGE, name)).read_text(encoding="utf-8"))
        used = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                used.add(node.id)
            elif isinstance(node, ast.Attribute):
                used.add(node.attr)
            elif isinstance(node, ast.keyword) and node.arg:
                used.add(node.arg)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                used.update(part for alias in node.names for part in alias.name.split("."))
                used.update((getattr(node, "module", None) or "").split("."))
        assert not used & FORBIDDEN, f"backends/exactcover/{name} uses {sorted(used & FORBIDDEN)}"


def test_the_backend_runs_with_the_zdd_solvers_gone(monkeypatch):
    import xcover
    import xcover.dancing_cells_zdd

    def refuse(*args, **kwargs):
        raise AssertionError("the exactcover backend called xcover's ZDD solver")

    for module, name in ((xcover, "covers_zdd"), (xcover, "algorithm_z"), (xcover.dancing_cells_zdd, "algorithm_z")):
        monkeypatch.setattr(module, name, refuse)
    for spec in registry.variants("sigils", ("exactcover",)):
        assert listed(spec, sigil("gate-6x6")).count == expected("sigils")["gate-6x6"]["count"]


# ------------------------------------------------------------------ which runs take it unnamed


def test_a_cross_check_runs_exactcover_on_logic_grids_only_when_named():
    """Algorithm C meets a clue only when it branches on it: beach-10 takes minutes (docs/exactcover.md), so the
    cross-checker's unnamed set leaves the logic translator out; tests and bench --portfolio still take it."""
    from trisolve import api

    assert "exactcover:colours" not in api.backend_names([], "logic")
    assert "exactcover:quadrant" in api.backend_names([], "sigils")
    assert api.backend_names(["exactcover"], "logic") == ["exactcover:colours"]
    assert "exactcover:colours" in registry.variants("logic", declaring("BY_DEFAULT"))


# ------------------------------------------------------------------ export, read back by xcover


@pytest.mark.parametrize(
    "family, stem",
    [
        ("sigils", "gate-5x4"),  # repeated pieces: ordered copies
        ("sigils", "gate-6x6"),
        ("sigils", "pentominoes-5x5"),  # mirroring
        ("sigils", "corners-6x6"),  # twelve copies of one piece
        ("sigils", "gate-7x4-all-seven"),  # none
        ("sigils", "area-mismatch"),  # no tiling: the real rows, which have no cover
        ("sigils", "dominoes-4x4"),  # one repeated type only: it has no item
        ("logic", "einstein-somewhere"),
        ("logic", "odd-names"),  # names that look like code: only numbers reach the file's rows
    ],
)
def test_an_exported_file_counts_right_with_xcovers_own_reader(tmp_path, family, stem):
    from xcover import covers
    from xcover.io import read_xcover_from_file

    path = tmp_path / f"{stem}.xc"
    done = run_trisolve("export", level_path(family, stem), "--format", "xc", "-o", str(path))
    assert done.returncode == 0, done.stderr
    options, primary, secondary, colored = read_xcover_from_file(str(path))
    found = sum(1 for _ in covers(options, primary=primary, secondary=secondary or [], colored=colored))
    assert found == expected(family)[stem]["count"]


def test_export_names_the_items_and_says_what_symmetry_breaking_does():
    done = run_trisolve("export", level_path("sigils", "gate-4x3"), "--format", "xc")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0].startswith("| trisolve sigils gate-4x3 exactcover:")
    items = next(line for line in lines if not line.startswith("|"))
    assert items.split()[:2] == ["r0c0", "r0c1"] and "L" in items.split()
    with_sb = run_trisolve("export", level_path("sigils", "gate-4x3"), "--format", "xc", "--symmetry-breaking")
    assert with_sb.returncode == 0 and "these rows' covers are all tilings" in with_sb.stdout
    rows = [line for line in with_sb.stdout.splitlines() if not line.startswith("|")]
    assert rows == [line for line in lines if not line.startswith("|")]


def test_the_engine_reads_back_what_it_writes():
    from trisolve.backends.exactcover import engine
    from trisolve.backends.exactcover import logic as translator

    problem = translator.encode(logic.parse(level_path("logic", "einstein")), "colours", Options())
    primary, secondary, options = engine.read_text(engine.to_text(problem, ["a comment"]))
    assert (tuple(primary), tuple(secondary)) == (problem.primary, problem.secondary)
    assert [tuple(option) for option in options] == list(problem.options)


# ------------------------------------------------------------------ the variants


#: square frames where the restricted piece sits on an axis, at the centre, or nowhere useful
CUSTOM = {
    "plus in a square": "3x3\nX M M M M\npiece X\n.X.\nXXX\n.X.\npiece M\nM\n",
    "plus and pentominoes": "5x5\nX L L P P\nmirror\npiece X\n.X.\nXXX\n.X.\npiece L\nL.\nL.\nL.\nLL\n"
    "piece P\nPP\nPP\nP.\n",
    "no piece once": "4x4\nO O O O\n",
    "mirrors rename": "4x4\nI S Z T T\n",
    "two repeated types": "4x4\nI I O O\n",
    "dominoes and squares": "4x3\nD D O O\npiece D\nDD\n",
}


@pytest.mark.parametrize("name", sorted(CUSTOM))
@pytest.mark.parametrize("symmetry_breaking", [False, True], ids=["all", "classes"])
def test_quadrant_and_plain_and_pysat_list_the_same_tilings(name, symmetry_breaking):
    level = sigils.parse_text(CUSTOM[name], file=f"{name}.txt")
    options = Options(enumerate=True, symmetry_breaking=symmetry_breaking)
    found = {spec: set(listed(spec, level, options).solutions) for spec in ("exactcover:quadrant", "exactcover:plain")}
    reference = listed("pysat", level, options)
    assert reference.complete
    assert found["exactcover:quadrant"] == found["exactcover:plain"]
    assert len(found["exactcover:plain"]) == reference.count
    if symmetry_breaking:
        assert all(sigils.is_lex_leader(level, s) for s in found["exactcover:plain"])
    else:
        assert found["exactcover:plain"] == set(reference.solutions)


def test_repeated_pieces_give_one_cover_per_tiling():
    """Copies of a type are numbered in reading order, so a tiling is one cover, never k! of them."""
    level = sigil("gate-8x6")  # S and Z three times each
    result = listed("exactcover:plain", level)
    assert result.complete and result.count == expected("sigils")["gate-8x6"]["count"]
    assert result.stats["covers"] == result.count


def test_the_quadrant_variant_searches_one_cover_per_class_on_the_6x10_rectangle_s_little_brother():
    level = sigil("pentominoes-5x5")
    result = listed("exactcover:quadrant", level)
    assert result.count == 24 and result.stats["covers"] < result.count


# ------------------------------------------------------------------ identical pieces, sizes


def frame(width: int, height: int, piece: str, count: int, drawing: str = "") -> sigils.Level:
    text = f"{width}x{height}\n{' '.join([piece] * count)}\n" + (f"piece {piece}\n{drawing}\n" if drawing else "")
    return sigils.parse_text(text, file=f"{count}{piece}.txt")


@pytest.mark.parametrize("variant", ["quadrant", "plain"])
def test_a_frame_of_identical_pieces_is_one_option_per_placement(variant):
    """100 identical squares: no item per copy (the cells alone say where they go), so 361 options, one cover;
    one item per copy, ordered, took millions of entries and no answer within minutes."""
    level = frame(20, 20, "O", 100)
    result = registry.get(f"exactcover:{variant}", "sigils").run(level, Limits(time=60), ENUMERATE)
    assert result.complete and result.count == 1 and result.stats["options"] == 19 * 19
    assert result.stats["primary_items"] == 400 and result.stats["secondary_items"] == 0
    assert sigils.validate(level, result.solutions[0]) == []
    dominoes = frame(20, 10, "D", 100, "DD")
    listed_ = registry.get(f"exactcover:{variant}", "sigils").run(dominoes, Limits(time=60, solutions=1000), ENUMERATE)
    assert listed_.count == 1000 and listed_.stopped_by == "solution limit" and listed_.duplicates == 0
    assert all(sigils.validate(dominoes, s) == [] for s in listed_.solutions[:50])


def test_1600_monominoes_export_as_1600_rows(tmp_path):
    path = tmp_path / "mono.txt"
    path.write_text("40x40\n" + " ".join(["M"] * 1600) + "\npiece M\nM\n")
    done = run_trisolve("export", str(path), "--format", "xc")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if not line.startswith("|")]
    assert len(rows) == 1 + 1600 and "no item; its 1600 copies" in done.stdout


@pytest.mark.parametrize("variant", ["quadrant", "plain"])
@pytest.mark.parametrize(
    "stem",
    sorted(os.path.splitext(n)[0] for n in os.listdir(os.path.join(ROOT, "levels", "sigils")) if n.endswith(".txt")),
)
def test_the_size_is_worked_out_exactly_before_anything_is_built(monkeypatch, stem, variant):
    from trisolve.backends.exactcover import sigils as translator

    level = sigil(stem)
    if level.obstruction:
        pytest.skip("a plain obstruction is one item, nothing to size")
    told = []
    monkeypatch.setattr(translator, "check_size", lambda entries, memory=None: told.append(entries))
    problem = translator.encode(level, variant, Options())
    assert told == [sum(len(option) for option in problem.options)]


def test_a_problem_past_the_size_limit_is_not_built_and_not_exported(monkeypatch):
    from trisolve import api
    from trisolve.backends.exactcover import engine
    from trisolve.models.errors import UsageError

    monkeypatch.setattr(engine, "MAX_ENTRIES", 100)
    result = registry.get("exactcover:quadrant", "sigils").run(sigil("gate-6x6"), Limits(time=60), ENUMERATE)
    assert result.stopped_by == "size limit" and not result.complete and result.count == 0
    assert (
        "option entries" in result.stats["refused"] and "more than the 100 exactcover builds" in result.stats["refused"]
    )
    with pytest.raises(UsageError, match=r"gate-6x6.txt: cannot export as exact cover: .* option entries"):
        api.export(level_path("sigils", "gate-6x6"), format="xc")


def test_the_memory_budget_holds_on_exactcover():
    """--memory too small for the problem: stopped before building it (exit 3), as dp's budget stops."""
    done = run_trisolve(
        "solve", level_path("sigils", "gate-6x6"), "--count", "--backend", "exactcover", "--memory", "64K", "--json"
    )
    assert done.returncode == 3, done.stderr
    record = json.loads(done.stdout)
    assert record["stopped_by"] == "memory budget" and record["complete"] is False
    assert "over the memory budget of" in record["stats"]["refused"]


def test_a_level_where_nothing_fits_is_refused_by_the_export_in_one_line(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("1x1\nO\n")
    done = run_trisolve("export", str(path), "--format", "xc")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and str(path) in done.stderr
    assert "no option at all" in done.stderr and "the pieces cover 4 cells, the 1x1 frame has 1" in done.stderr


# ------------------------------------------------------------------ limits


def test_the_time_limit_is_checked_between_covers():
    level = sigil("pentominoes-6x10")
    began = time.monotonic()
    result = registry.get("exactcover:plain", "sigils").run(level, Limits(time=1.0), ENUMERATE)
    assert result.stopped_by == "time limit" and not result.complete
    assert 0 < result.count < 9356 and result.count_text.endswith("+")
    assert time.monotonic() - began < 30  # one cover apart: the 6x10 rectangle gives one every few ms


def test_a_killed_run_keeps_what_it_streamed():
    """The runner's kill (here: asked for after 2 s, no limit of the backend's own): what was streamed is kept."""
    job = Job(level_path("sigils", "pentominoes-6x10"), "sigils", "exactcover:plain", Limits(), ENUMERATE)
    began = time.monotonic()
    record = run(job, sigil("pentominoes-6x10"), stop=lambda: time.monotonic() - began > 2)
    assert 0 < record.count < 9356 and not record.complete
    assert record.status == "sat"


# ------------------------------------------------------------------ compiled once per machine


@pytest.mark.slow
def test_the_kernel_is_compiled_once_per_machine_and_loaded_from_numba_s_cache_after(tmp_path):
    """A fresh numba cache (a new machine): the benchmark's warm-up compiles the kernel in a child, untimed, and
    leaves its own process cold; the next process loads the kernel from the cache and compiles nothing."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    warm = (
        "import sys\nfrom trisolve.runs.executors import warm_machine\n"
        "warm_machine(['exactcover:quadrant'], 'sigils')\nprint('xcover' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", warm], capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "False"  # the benchmark's own process stays cold
    assert "compiling xcover's Algorithm C" in done.stderr
    assert list(tmp_path.rglob("dancing_cells.algorithm_c-*.nbi"))
    load = "from trisolve.backends.exactcover import engine\nengine.kernel()\nprint(engine.kernel_cache_hits())\n"
    done = subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) >= 1
    assert "compil" not in done.stderr
    # the cache overwritten (a full disk, a kill, another build): compiled again, and the count is right
    for path in tmp_path.rglob("dancing_cells.algorithm_c-*.nb[ic]"):
        path.write_bytes(b"\x80\x05not a pickle")
    count = ["-m", "trisolve", "solve", level_path("sigils", "gate-4x3"), "--count", "--backend", "exactcover"]
    done = subprocess.run([sys.executable, *count], capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    assert done.returncode == 0 and "2 solutions" in done.stdout, done.stderr
    assert "algorithm_c could not be read" in done.stderr and "compiling again" in done.stderr


# ------------------------------------------------------------------ the worked example (docs/solver-bug.md)


@pytest.mark.slow
def test_the_memoised_zdd_is_caught_on_the_minimised_gate_as_docs_solver_bug_shows():
    done = run_trisolve(
        "crosscheck",
        "docs/examples/xcover-memo-min.txt",
        "--plugin",
        "docs/examples/xcover_memo_zdd.py",
        "--backends",
        "exactcover:quadrant,exactcover:plain,zdd",
        "--no-expected",
        "--family",
        "sigils",
        "--timeout",
        "300",
        timeout=900,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert (
        "complete counts differ: exactcover:quadrant 752, exactcover:plain 752, zdd:memo 750, zdd:no-memo 752"
        in done.stdout
    )
    assert "VERDICT: FAILED on 1 of 1 instance (xcover-memo-min.txt)" in done.stdout
