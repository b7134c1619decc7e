"""``trisolve bench``: the plan interleaves backends, the scores are right, every output file is written."""

from __future__ import annotations

import csv
import dataclasses
import json
import time

import pytest
from support import LIMIT_SLACK, level_path, plugin_backend, run_cli

import trisolve
from trisolve.models import FAMILIES
from trisolve.runs import grace_for

LEVELS = ["level01", "level05"]


# ------------------------------------------------------------- test backends


class _Fake:
    """A backend whose run is given: sleeps past its limit, or returns an empty (invalid) board."""

    def __init__(self, family: str, variant: str, translator: object = None) -> None:
        self.family = family
        self.variant = variant
        self.name = f"fake:{variant}"

    def run(self, level, limits, options, on_solution=None):
        from trisolve.backends.base import finish
        from trisolve.models.hexiom.model import Solution

        if self.variant == "sleepy":
            time.sleep(120)
        board = Solution(tuple(None for _ in range(level.board.size)))
        if on_solution is not None:
            on_solution(board)
        return finish(self.name, self.family, [board], exhausted=False, proved_unsat=False, stats={}, times={})

    def export(self, level, options) -> str:
        return ""


@pytest.fixture
def fake(monkeypatch):
    from trisolve.backends import registry

    registry.register("fake", plugin_backend(_Fake, {"sleepy": "never answers", "empty": "an empty board (invalid)"}))
    yield
    registry.unregister("fake")


# ------------------------------------------------------------------- plan


def test_plan_runs_every_backend_before_any_runs_again_and_rotates_the_order():
    from trisolve.bench.runner import plan

    backends = ["a:1", "b:1", "c:1"]
    trials = plan([("x", "hexiom"), ("y", "hexiom")], lambda family: backends, repeat=2)
    assert len(trials) == 2 * 3 * 2
    blocks = [trials[i : i + 3] for i in range(0, len(trials), 3)]
    for block in blocks:
        assert sorted(t.backend for t in block) == backends
        assert len({(t.path, t.round) for t in block}) == 1
    firsts = [block[0].backend for block in blocks]
    assert len(set(firsts)) > 1, "the backend order should rotate"
    assert [t.round for t in trials] == [0] * 6 + [1] * 6


# ---------------------------------------------------------------- scoring


def _run(instance: str, backend: str, seconds: float, solved: bool, round_: int = 0):
    from trisolve.bench.runner import BenchRun

    return BenchRun(
        instance=instance,
        path=f"/{instance}.txt",
        family="hexiom",
        backend=backend,
        round=round_,
        seed=round_,
        mode="first",
        symmetry_breaking=False,
        timeout=10.0,
        status="sat" if solved else "unknown",
        solved=solved,
        count=int(solved),
        complete=False,
        valid=True if solved else None,
        time=seconds,
        wall=seconds,
        cpu=seconds,
        parse=0.001,
        parse_cpu=0.001,
        translate=0.01,
        translate_cpu=0.01,
        ground=None,
        ground_cpu=None,
        solve=seconds - 0.1,
        solve_cpu=seconds - 0.1,
        decode=0.001,
        decode_cpu=0.001,
        other=0.05,
        variables=10,
        constraints=20,
        conflicts=1,
        decisions=2,
        propagations=3,
        peak_rss_mb=30.0,
    )


def test_par2_median_and_virtual_best_by_hand():
    from trisolve.bench.runner import Settings
    from trisolve.bench.summary import markdown, score

    settings = Settings(timeout=10.0)
    runs = [
        _run("i1", "A", 1.0, True),
        _run("i2", "A", 10.5, False),
        _run("i1", "B", 3.0, True),
        _run("i2", "B", 5.0, True),
    ]
    summary = score(runs, settings)
    by_name = {row["backend"]: row for row in summary["backends"]}
    assert by_name["A"]["solved"] == 1 and by_name["B"]["solved"] == 2
    assert by_name["A"]["par2"] == pytest.approx((1.0 + 20.0) / 2)
    assert by_name["B"]["par2"] == pytest.approx((3.0 + 5.0) / 2)
    assert by_name["A"]["median"] == pytest.approx(1.0)
    assert by_name["A"]["total"] == pytest.approx(11.5)
    best = summary["virtual_best"]
    assert best["solved"] == 2
    assert best["par2"] == pytest.approx((1.0 + 5.0) / 2)
    assert (by_name["A"]["best_on"], by_name["B"]["best_on"]) == (1, 1)
    text = markdown(summary, settings, {"cores": 2})
    assert "PAR-2 s (timeout 10 s)" in text and "2 × 10 s = 20 s" in text
    assert "| *virtual best* | 2/2 | 3.00 |" in text


def test_the_distribution_over_seeds_by_hand():
    """Nearest-rank percentiles; an unsolved run is slower than any, so it can be the p90 and the max."""
    from trisolve.bench.runner import Settings
    from trisolve.bench.summary import distribution, luck, markdown, score

    assert distribution([3.0, 1.0, 2.0]) == {"runs": 3, "min": 1.0, "median": 2.0, "p90": 3.0, "max": 3.0}
    ten = distribution([float(i) for i in range(1, 10)], unsolved=1)
    assert (ten["median"], ten["p90"], ten["max"]) == (5.0, 9.0, float("inf"))
    settings = Settings(timeout=10.0, repeat=3)
    runs = [
        _run("i1", "A", 1.0, True, 0),
        _run("i1", "A", 12.0, False, 1),
        _run("i1", "A", 3.0, True, 2),
        _run("i1", "B", 2.0, True, 0),
        _run("i1", "B", 2.5, True, 1),
        _run("i1", "B", 9.0, True, 2),
    ]
    rows = {row["backend"]: row for row in luck(runs, settings, ["A", "B"])}
    assert rows["A"]["solved"] == 2 and rows["A"]["time"]["max"] is None  # JSON: null, shown as unsolved
    assert rows["A"]["par2"] == pytest.approx((1.0 + 20.0 + 3.0) / 3)
    assert rows["B"]["time"] == {"runs": 3, "min": 2.0, "median": 2.5, "p90": 9.0, "max": 9.0}
    # per round the fastest: 1.0 (A), 2.5 (B), 3.0 (A)
    assert rows["virtual best"]["time"] == {"runs": 3, "min": 1.0, "median": 2.5, "p90": 3.0, "max": 3.0}
    text = markdown(score(runs, settings), settings, {"cores": 2})
    assert "| A | 2/3 | 1.00 / 3.00 / unsolved / unsolved |" in text


def test_a_pair_is_solved_when_most_of_its_runs_are():
    from trisolve.bench.runner import Settings
    from trisolve.bench.summary import cells

    runs = [_run("i1", "A", 1.0, True, 0), _run("i1", "A", 12.0, False, 1), _run("i1", "A", 3.0, True, 2)]
    cell = cells(runs, Settings(timeout=10.0, repeat=3))[("/i1.txt", "A")]
    assert cell.solved and cell.solved_runs == 2
    assert cell.time == pytest.approx(2.0)  # median of the solved runs
    assert cell.par2 == pytest.approx(3.0)  # median of 1, 20, 3


# ------------------------------------------------------------ real runs


def test_bench_writes_every_output_and_they_parse(tmp_path, capsys):
    from trisolve.bench.runner import CSV_COLUMNS

    out = tmp_path / "out"
    paths = [level_path("hexiom", name) for name in LEVELS]
    backends = "pysat:seqcounter,clingo:count"
    code = run_cli(
        [
            "bench",
            *paths,
            "--backends",
            backends,
            "--repeat",
            "2",
            "--timeout",
            "20",
            "--out",
            str(out),
            "--quiet",
            "--shuffle",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0

    with open(out / "results.csv", newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
    assert tuple(reader.fieldnames) == CSV_COLUMNS
    assert len(rows) == len(LEVELS) * 2 * 2
    for row in rows:
        assert row["solved"] == "True" and row["valid"] == "True" and row["status"] == "sat"
        for column in (
            "time",
            "wall",
            "cpu",
            "parse",
            "translate",
            "solve",
            "decode",
            "translate_cpu",
            "solve_cpu",
            "decode_cpu",
            "peak_rss_mb",
        ):
            assert float(row[column]) >= 0, column
        if row["backend"].startswith("clingo:"):
            assert float(row["ground"]) >= 0 and float(row["ground_cpu"]) >= 0
        assert int(row["variables"]) > 0 and int(row["constraints"]) > 0
        assert row["conflicts"] != "" and row["decisions"] != ""
        assert float(row["time"]) >= float(row["parse"]) + float(row["solve"])

    data = json.loads((out / "results.json").read_text())
    assert data["settings"]["timeout"] == 20 and data["penalty_seconds"] == 40
    assert len(data["runs"]) == len(rows)
    assert [b["backend"] for b in data["summary"]["backends"]] == backends.split(",")
    assert data["summary"]["virtual_best"]["solved"] == len(LEVELS)
    # every run is reproducible: its seed and the shuffle it ran with are in its stats
    assert data["settings"]["shuffle"] is True
    for run in data["runs"]:
        assert run["stats"]["seed"] == run["seed"] and f"(seed {run['seed']})" in run["stats"]["shuffle"]
    luck = {row["backend"]: row for row in data["summary"]["luck"]}
    assert set(luck) == {*backends.split(","), "virtual best"}
    assert all(row["runs"] == len(LEVELS) * 2 and row["solved"] == row["runs"] for row in luck.values())

    summary = (out / "summary.md").read_text()
    assert summary == printed
    assert "PAR-2 s (timeout 20 s)" in summary and "virtual best" in summary
    assert "## Luck: every run, 2 per instance and backend, each with its own seed and input shuffle" in summary
    for picture in ("cactus", "ecdf", "scatter", "spread"):
        content = (out / f"{picture}.png").read_bytes()
        assert content.startswith(b"\x89PNG") and len(content) > 1000, picture
        assert (out / f"{picture}.pdf").read_bytes().startswith(b"%PDF"), picture
        assert "<svg" in (out / f"{picture}.svg").read_text(), picture
    # where the figures come from: code, solvers, machine, load
    meta = data["meta"]
    assert meta["trisolve"] == trisolve.__version__ and meta["git"]["commit"]
    assert meta["versions"]["clingo"] and meta["versions"]["PySAT (CaDiCaL, Glucose, ...)"]
    assert meta["cpu_model"] and meta["memory_bytes"] > 0 and meta["cores"] >= 1
    assert len(meta["load_average"]["start"]) == 3 and len(meta["load_average"]["end"]) == 3
    assert "cadical195" in meta["solvers_reported"]
    assert "trisolve " + trisolve.__version__ + ", commit " in summary and "Machine: " in summary
    # the spread over the seeds, per instance: quartiles and IQR, in the JSON and the report
    spread = data["summary"]["spread"]
    assert {(row["instance"], row["backend"]) for row in spread} == {
        (i, b) for i in LEVELS for b in backends.split(",")
    }
    assert all(row["runs"] == 2 and row["q1"] <= row["median"] <= row["q3"] and row["iqr"] >= 0 for row in spread)
    assert "## Spread over the seeds and input shuffles, per instance" in summary

    # the report can be rebuilt from results.json alone
    (out / "summary.md").unlink()
    assert run_cli(["bench", "--rescore", "--out", str(out), "--no-plots"]) == 0
    assert capsys.readouterr().out == (out / "summary.md").read_text()
    assert (out / "summary.md").read_text().rstrip() == summary.split("![cactus")[0].rstrip()


def test_a_killed_benchmark_keeps_its_finished_runs_in_a_journal_that_rescore_reads(tmp_path, capsys):
    out = tmp_path / "killed"
    paths = [level_path("hexiom", name) for name in LEVELS]
    assert (
        run_cli(
            [
                "bench",
                *paths,
                "--backends",
                "pysat:seqcounter",
                "--repeat",
                "1",
                "--timeout",
                "20",
                "--out",
                str(out),
                "--quiet",
                "--no-plots",
            ]
        )
        == 0
    )
    capsys.readouterr()
    lines = (out / "runs.jsonl").read_text().splitlines()
    assert len(lines) == 1 + len(LEVELS)  # a header, then one line per run as it finished
    # as if killed after the first run, mid-way through writing the second
    (out / "results.json").unlink()
    (out / "runs.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:30])
    assert run_cli(["bench", "--rescore", "--out", str(out), "--no-plots"]) == 0
    summary = capsys.readouterr().out
    assert "pysat:seqcounter" in summary and "| 1/1 |" in summary


def test_a_first_solution_against_a_count_in_one_bench_with_plots_readable_for_one_instance(tmp_path, capsys):
    """--mode first,count: each backend in each mode is a contender of its own, interleaved in one run (what a
    paper comparing a SAT solver's first solution with dp's count needs); with one instance the cactus shows the
    contenders' times over the seeds and the scatter one point per seed."""
    out = tmp_path / "both"
    code = run_cli(
        [
            "bench",
            level_path("hexiom", "level05"),
            "--mode",
            "first,count",
            "--backends",
            "pysat:totalizer,clingo:count",
            "--count-backends",
            "dp",
            "--repeat",
            "2",
            "--timeout",
            "30",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0, printed
    data = json.loads((out / "results.json").read_text())
    contenders = [row["backend"] for row in data["summary"]["backends"]]
    assert contenders == ["pysat:totalizer (first)", "clingo:count (first)", "dp:frontier (count)"]
    modes = {(run["backend"], run["mode"]) for run in data["runs"]}
    assert modes == {("pysat:totalizer", "first"), ("clingo:count", "first"), ("dp:frontier", "count")}
    counted = [run for run in data["runs"] if run["mode"] == "count"]
    assert counted and all(run["count"] == 6 and run["complete"] for run in counted)
    assert "first solution and count, side by side" in printed and "| level05 |" in printed
    assert "(6)" in printed.split("## Per instance")[1]  # the count's cell shows the count
    assert "time over the seeds" in (out / "cactus.svg").read_text()
    assert "one point per seed" in (out / "scatter.svg").read_text()
    # rescored from results.json: the same contenders
    assert run_cli(["bench", "--rescore", "--out", str(out), "--no-plots"]) == 0
    assert "dp:frontier (count)" in capsys.readouterr().out


def test_the_virtual_best_is_drawn_under_the_backends_it_follows(tmp_path):
    """A backend that is the virtual best everywhere has the same steps: the band is drawn first, beneath."""
    pytest.importorskip("matplotlib")
    from trisolve.bench import plots

    cells = {"a": {"solved": True, "time": 0.1}, "b": {"solved": True, "time": 0.3}}
    summary = {
        "backends": [{"backend": "a"}, {"backend": "b"}],
        "instances": [{"instance": f"i{k}", "path": f"i{k}", "cells": cells} for k in range(3)],
    }
    plots.cactus(summary, 10.0, str(tmp_path / "cactus.png"))
    svg = (tmp_path / "cactus.svg").read_text()
    assert svg.index("virtual best") < svg.index("a (3)") < svg.index("b (3)")  # drawn (and listed) first
    assert all((tmp_path / f"cactus.{suffix}").exists() for suffix in ("png", "svg", "pdf"))


def test_count_mode_times_exact_counts(tmp_path, capsys):
    out = tmp_path / "count"
    path = level_path("hexiom", "level05")
    code = run_cli(
        [
            "bench",
            path,
            "--backends",
            "pysat:seqcounter,pysat:cardnetwrk",
            "--mode",
            "count",
            "--repeat",
            "1",
            "--timeout",
            "20",
            "--out",
            str(out),
            "--quiet",
            "--no-plots",
        ]
    )
    capsys.readouterr()
    assert code == 0
    runs = json.loads((out / "results.json").read_text())["runs"]
    assert {r["count"] for r in runs} == {6} and all(r["complete"] and r["solved"] for r in runs)
    assert not (out / "cactus.png").exists()


def test_a_run_past_its_time_limit_is_killed_and_scored_as_unsolved(tmp_path, fake, capsys):
    out = tmp_path / "slow"
    path = level_path("hexiom", "level01")
    began = time.monotonic()
    code = run_cli(
        [
            "bench",
            path,
            "--backends",
            "fake:sleepy,pysat:seqcounter",
            "--repeat",
            "1",
            "--timeout",
            "0.5",
            "--out",
            str(out),
            "--quiet",
            "--no-plots",
        ]
    )
    elapsed = time.monotonic() - began
    capsys.readouterr()
    assert code == 0
    data = json.loads((out / "results.json").read_text())
    sleepy = [r for r in data["runs"] if r["backend"] == "fake:sleepy"][0]
    assert not sleepy["solved"] and sleepy["stopped_by"] == "killed at time limit"
    assert elapsed < 0.5 + grace_for(0.5) + LIMIT_SLACK, "the kill behind the time limit did not hold"
    rows = {row["backend"]: row for row in data["summary"]["backends"]}
    assert rows["fake:sleepy"]["solved"] == 0 and rows["fake:sleepy"]["par2"] == pytest.approx(1.0)
    assert data["summary"]["virtual_best"]["solved"] == 1


def test_an_invalid_solution_is_unsolved_and_fails_the_command(tmp_path, fake, capsys):
    out = tmp_path / "bad"
    code = run_cli(
        [
            "bench",
            level_path("hexiom", "level01"),
            "--backends",
            "fake:empty",
            "--repeat",
            "1",
            "--timeout",
            "5",
            "--out",
            str(out),
            "--quiet",
            "--no-plots",
        ]
    )
    captured = capsys.readouterr()
    assert code == 1
    assert "invalid solution" in captured.err
    run = json.loads((out / "results.json").read_text())["runs"][0]
    assert run["valid"] is False and run["solved"] is False


def test_unknown_backend_and_bad_scatter_are_usage_errors(tmp_path, capsys):
    path = level_path("hexiom", "level01")
    assert run_cli(["bench", path, "--backends", "nosuch", "--out", str(tmp_path)]) == 2
    assert (
        run_cli(
            [
                "bench",
                path,
                "--backends",
                "pysat:seqcounter,pysat:totalizer",
                "--scatter",
                "cpsat,pysat",
                "--out",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "not among the benchmarked backends" in capsys.readouterr().err


def test_missing_matplotlib_is_a_clear_message(monkeypatch):
    import builtins

    from trisolve.bench import plots

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(plots.PlotsUnavailable, match=r"pip install 'trisolve\[bench\]'"):
        plots.cactus({"backends": [], "instances": []}, 1.0, "unused.png")


# ------------------------------------------------------------------ the portfolio


@pytest.mark.slow  # about 20 s on the shared machine, most of it matplotlib drawing the plot
def test_portfolio_measures_ranks_stops_growing_and_writes_the_defaults(tmp_path, fake, capsys, monkeypatch):
    """End to end on one tiny level and two generated sizes: pysat solves everything; a backend that never
    answers is killed at the limit, stops growing after the first generated size, and ranks last."""
    from trisolve.selection import choose, table

    table_path = tmp_path / "portfolio.json"
    monkeypatch.setattr(table, "TABLE_PATH", str(table_path))
    # levels with many solutions are generated at once (the shipped ladder's unique ones take seconds)
    hexiom = FAMILIES["hexiom"]
    quick = dataclasses.replace(hexiom.ladder, rungs=hexiom.ladder.rungs[:2], unique=False)
    monkeypatch.setitem(FAMILIES, "hexiom", dataclasses.replace(hexiom, ladder=quick))
    out = tmp_path / "out"
    argv = ["bench", "--portfolio", level_path("hexiom", "level01"), "--families", "hexiom", "--tasks", "first"]
    argv += [
        "--backends",
        "fake:sleepy,pysat",
        "--max-size",
        "2",
        "--seeds",
        "1",
        "--timeout",
        "4",
    ]  # 4 s: pysat on a loaded machine
    code = run_cli([*argv, "--out", str(out), "--write-defaults"])
    page = capsys.readouterr().out
    assert code == 0

    data = json.loads(table_path.read_text())
    assert data == json.loads((out / "portfolio.json").read_text())
    entry = data["families"]["hexiom"]["first"]
    assert entry["instances"] == 3  # level01 and one level each of sides 3 and 4
    first, last = entry["rows"]
    assert first["backend"] == "pysat:totalizer" and first["solved"] == 3 and first["largest_size"] == 4
    assert first["wall"]["max"] is not None and first["cpu"]["median"] is not None
    assert last["backend"] == "fake:sleepy" and last["solved"] == 0 and last["wall"]["p90"] is None
    assert last["stopped_at"] == 3 and last["not_run"] == 1
    assert choose("hexiom", "solve", "first").first == "pysat:totalizer"

    results = json.loads((out / "results.json").read_text())
    assert len(results["runs"]) == 5  # pysat 3, fake 2 (side 4 skipped)
    for run in results["runs"]:
        assert run["valid"] is True if run["backend"].startswith("pysat") else run["stopped_by"]
    assert page == (out / "portfolio.md").read_text()
    assert "| 1 | pysat:totalizer | 3/3 |" in page and "stopped growing at size 3 (1 not run)" in page
    assert (out / "portfolio.png").read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "portfolio.json"], "only the table and OUT/"

    # the table and page are rebuilt from the results alone
    (out / "portfolio.json").unlink()
    assert run_cli(["bench", "--portfolio", "--rescore", "--out", str(out), "--no-plots", "--quiet"]) == 0
    capsys.readouterr()
    assert json.loads((out / "portfolio.json").read_text())["families"] == data["families"]
    # only the shipped table's page says it is written by --write-defaults, not to be edited by hand
    assert "do not edit by hand" in page
    own = (out / "portfolio.md").read_text()
    assert "do not edit by hand" not in own and "`solve`'s defaults are unchanged" in own


def test_a_wrong_count_is_not_solved():
    from trisolve.bench.portfolio import Instance, judge
    from trisolve.bench.runner import BenchRun

    fields = {f: None for f in BenchRun.__dataclass_fields__ if f not in ("stats", "times")}
    run = BenchRun(**{**fields, "status": "sat", "solved": True, "count": 11, "complete": True})
    level = Instance("x.txt", "hexiom", "x", 3, expected=12)
    assert judge(run, level, "count").solved is False and "expected 12" in judge(run, level, "count").error
    assert judge(replace_count(run, 12), level, "count").solved is True
    generated = Instance("g.txt", "hexiom", "g", 3, rung=0, at_least=1)
    unsat = replace_count(run, 0, status="unsat")
    assert judge(unsat, generated, "first").solved is False and judge(unsat, generated, "count").solved is False


def replace_count(run, count: int, status: str = "sat"):
    from dataclasses import replace

    return replace(run, count=count, status=status)


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--portfolio", "--mode", "count"], "--mode: not an option of bench --portfolio"),
        (["--families", "hexiom", "levels/hexiom"], "--families: only with --portfolio"),
        (["--portfolio", "--tasks", "list"], "tasks: unknown list; known: first, count"),
        (["--portfolio", "--max-size", "hexiom=big"], "--max-size"),
        (["--portfolio", "--families", "nope"], "families: unknown nope; known: "),
        (["--portfolio", "--seeds", "99999999999999999999999"], "is not in the range 1<=x<=100"),
        (["--portfolio", "--seeds", "0"], "is not in the range 1<=x<=100"),
        (["--portfolio", "--max-size", "hexiom=\u00b2"], "--max-size"),
    ],
)
def test_portfolio_usage_problems_exit_2(args, fragment, capsys):
    assert run_cli(["bench", *args]) == 2
    assert fragment in capsys.readouterr().err


@pytest.mark.parametrize(
    "backend, mode, times, other",
    [
        # clingo decodes on its main thread while the search thread goes on: decode lies within solve
        ("clingo:choice", "count", {"translate": 0.1, "ground": 0.1, "solve": 3.6, "decode": 1.1}, 0.2),
        # CP-SAT decodes in its solution callback when it enumerates
        ("cpsat:booleans", "count", {"translate": 0.1, "solve": 4.9, "decode": 0.5}, 0.0),
        # pysat decodes between its solver calls: the phases add up
        ("pysat:totalizer", "count", {"translate": 0.1, "solve": 2.0, "decode": 0.4}, 1.5),
        # an unknown backend whose phases overlap: counted once, never below zero
        ("mine:x", "count", {"translate": 0.1, "solve": 3.9, "decode": 0.5}, 0.0),
    ],
)
def test_other_time_is_never_negative_and_counts_overlapping_phases_once(backend, mode, times, other):
    from trisolve.backends.base import Limits, Options
    from trisolve.bench.runner import Settings, Trial, measure
    from trisolve.runs import Job, record_of

    job = Job("x.txt", "sigils", backend, Limits(time=10), Options(enumerate=mode == "count"))
    record = record_of(job, status="sat", count=3, complete=True, wall=4.0, times=times)
    run = measure(Trial("x.txt", "sigils", backend, 0), record, Settings(timeout=10, mode=mode), 0.0, 0.0, True)
    assert run.other == pytest.approx(other, abs=1e-9) and run.other >= 0


def test_entries_measured_together_are_named_together_in_one_phrase():
    from trisolve.bench import portfolio

    def entry(stamp):
        return {"rows": [{"backend": "clingo:compiled"}], **({"measured": stamp} if stamp else {})}

    early = {"command": "trisolve bench --portfolio --families sudoku", "date": "d1", "timeout": 10.0}
    late = {"command": "trisolve bench --portfolio --families slither", "date": "d2", "timeout": 10.0}
    data = {
        "header": {},
        "families": {
            "hexiom": {"first": entry(None), "count": entry(None)},
            "sudoku": {"first": entry(early), "count": entry(early)},
            "slither": {"first": entry(late), "count": entry(early)},
        },
    }
    phrases = portfolio.other_measurements(data)
    assert len(phrases) == 2, phrases
    assert phrases[0].startswith("sudoku first solution and `--count`, slither `--count`: d1 by `trisolve bench")
    assert phrases[1].startswith("slither first solution: d2 by `trisolve bench --portfolio --families slither`")
