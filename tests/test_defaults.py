"""The measured defaults: ``solve`` without --backend runs the portfolio table's winner per family and task.

These tests read the shipped table (selection/portfolio.json) and never run the portfolio; the rule is
written out here again, so a ranking that drifted from the documented rule fails.  Tables made here are
written to a file the selection policy then reads (``table.TABLE_PATH``).
"""

from __future__ import annotations

import json
import math

import pytest
from support import level_path, run_cli

from trisolve import selection
from trisolve.backends import registry
from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES
from trisolve.selection import choose, declaring, table

SHIPPED_FAMILIES = ("hexiom", "logic", "sigils")


def _usable(name: str, family: str) -> bool:
    try:
        registry.get(name, family)
    except Exception:  # noqa: BLE001 - any reason: not usable on this machine
        return False
    return True


def _inf(value) -> float:
    return math.inf if value is None else value


def documented_winner(rows: list[dict], family: str, listing: bool = False) -> str | None:
    """The rule as docs/bench/portfolio.md states it: most solved, then p90 wall, then worst wall
    (unsolved beyond the limit); ties there by the solved runs' p90, worst, median. First usable row."""
    ordered = sorted(
        rows,
        key=lambda r: (
            -r["solved"],
            _inf(r["wall"]["p90"]),
            _inf(r["wall"]["max"]),
            _inf(r["solved_wall"]["p90"]),
            _inf(r["solved_wall"]["max"]),
            _inf(r["solved_wall"]["median"]),
        ),
    )
    for row in ordered:
        name = row["backend"]
        if listing and registry.catalog(Spec.parse(name).backend, family).count_only:
            continue
        if _usable(name, family):
            return name
    return None


def shipped_table() -> dict:
    with open(table.TABLE_PATH, encoding="utf-8") as handle:
        return json.load(handle)


def test_the_shipped_table_covers_every_family_and_task_and_says_how_it_was_made():
    shipped = shipped_table()
    head = shipped["header"]
    assert head["command"].startswith("trisolve bench --portfolio") and "--write-defaults" in head["command"]
    assert head["date"] and head["trisolve"] and head["load"]["start"] and head["seconds"] > 0
    for family in SHIPPED_FAMILIES:
        for task in table.TASKS:
            entry = shipped["families"][family][task]
            assert entry["rows"], (family, task)
            for row in entry["rows"]:
                assert registry.catalog(Spec.parse(row["backend"]).backend, family) is not None, row["backend"]
                assert 0 <= row["solved"] <= row["total"] == entry["instances"]


def test_the_readmes_backend_table_is_the_shipped_table():
    """The README's "which backend for which task" block is written from selection/portfolio.json."""
    import os

    from trisolve.bench import portfolio

    readme = os.path.join(os.path.dirname(table.TABLE_PATH), os.pardir, "README.md")
    with open(readme, encoding="utf-8") as handle:
        text = handle.read()
    assert portfolio.README_START in text and portfolio.README_END in text
    assert portfolio.replace_readme_table(text, shipped_table()) == text, "run python scripts/write_docs.py"


@pytest.mark.parametrize("task", ["first", "count", "all"])
@pytest.mark.parametrize("family", SHIPPED_FAMILIES)
def test_each_default_is_the_tables_winner(family, task):
    from trisolve import api

    rows = shipped_table()["families"][family]["count" if task == "all" else task]["rows"]
    winner = documented_winner(rows, family, listing=task == "all")
    expected = winner or registry.resolve(FAMILIES[family].default_backend, family)
    # the function the command line uses for solve without --backend
    assert api.backend_name(None, family, task) == expected


def test_solve_count_without_a_backend_runs_the_count_winner(capsys):
    """On a level past the small sizes (``selection.small``): level 32, side 4."""
    winner = documented_winner(shipped_table()["families"]["hexiom"]["count"]["rows"], "hexiom")
    assert run_cli(["solve", level_path("hexiom", "level32"), "--count", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["backend"] == winner and data["count"] == 1052 and data["complete"] is True


@pytest.mark.parametrize("task", ["first", "count"])
def test_auto_races_the_tables_top_backends(task):
    from trisolve import api

    rows = shipped_table()["families"]["hexiom"][task]["rows"]
    usable = [r["backend"] for r in sorted(rows, key=table.rank_key) if _usable(r["backend"], "hexiom")]
    assert documented_winner(rows, "hexiom") == usable[0]
    raced, _ = api.portfolio("hexiom", task=task)
    assert raced == usable[: {"first": 3, "count": 2}[task]]


def test_auto_counts_exactly(capsys):
    assert run_cli(["solve", level_path("hexiom", "level01"), "--backend", "auto", "--count", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 12 and data["complete"] is True
    assert data["portfolio"]["winner"] == data["backend"] and len(data["portfolio"]["raced"]) == 2


# ------------------------------------------------------------- fallbacks, on tables made here


def _table(family: str, task: str, rows: list[dict]) -> dict:
    return {"header": {"date": "then"}, "families": {family: {task: {"rows": rows}}}}


@pytest.fixture
def measured(tmp_path, monkeypatch):
    """Make the selection policy read a table made here: ``measured(table)``."""

    def use(made: dict) -> None:
        path = tmp_path / "portfolio.json"
        path.write_text(json.dumps(made))
        monkeypatch.setattr(table, "TABLE_PATH", str(path))

    return use


def _row(backend: str, solved: int, p90: float | None, worst: float | None, total: int = 10) -> dict:
    spread = {"median": 0.1, "p90": p90, "max": worst}
    return {"backend": backend, "solved": solved, "total": total, "wall": spread, "solved_wall": spread}


def test_the_rule_ranks_by_solved_then_p90_then_worst_not_the_median():
    rows = [
        {**_row("a:x", 9, None, None), "solved_wall": {"median": 0.01, "p90": 0.02, "max": 0.03}},
        _row("b:x", 10, 2.0, 9.0),
        _row("c:x", 10, 1.0, 9.5),
        _row("d:x", 10, 1.0, 5.0),
    ]
    assert table.ranking("hexiom", "count", _table("hexiom", "count", rows)) == ["d:x", "c:x", "b:x", "a:x"]


def test_a_family_the_table_does_not_know_keeps_its_fallback(tmp_path, monkeypatch):
    from trisolve import api

    path = tmp_path / "portfolio.json"
    path.write_text(json.dumps(_table("hexiom", "count", [_row("pysat:totalizer", 10, 1.0, 1.0)])))
    monkeypatch.setattr(table, "TABLE_PATH", str(path))
    assert api.backend_name(None, "hexiom", "count") == "pysat:totalizer"
    for family, task in (("logic", "first"), ("sigils", "count"), ("hexiom", "first")):
        assert api.backend_name(None, family, task) == registry.resolve(FAMILIES[family].default_backend, family)
    assert api.portfolio("logic")[0] == [registry.resolve(b, "logic") for b in declaring("PORTFOLIO")]


@pytest.mark.parametrize("content", [None, "{not json", "[]"], ids=["missing", "broken", "not-a-table"])
def test_no_readable_table_means_every_family_falls_back(tmp_path, monkeypatch, content):
    from trisolve import api

    path = tmp_path / "portfolio.json"
    if content is not None:
        path.write_text(content)
    monkeypatch.setattr(table, "TABLE_PATH", str(path))
    for family in SHIPPED_FAMILIES:
        for task in ("first", "count"):
            assert api.backend_name(None, family, task) == registry.resolve(FAMILIES[family].default_backend, family)


def test_a_winner_that_cannot_run_here_gives_way_to_the_next(monkeypatch, measured):
    import types

    missing = types.SimpleNamespace(
        VARIANTS={"hexiom": {"v": "needs a solver that is not installed"}},
        available=lambda: "pip install nothing-here",
        make=lambda family, variant, translator: None,
    )
    monkeypatch.setitem(registry._EXTRA, "missing", missing)
    rows = [_row("missing:v", 10, 0.1, 0.1), _row("gone:v", 10, 0.2, 0.2), _row("clingo:count", 9, 1.0, 1.0)]
    measured(_table("hexiom", "count", rows))
    assert choose("hexiom", "solve", "count").backends == ("clingo:count",)


def test_a_listing_skips_backends_that_only_count(measured):
    rows = [_row("dp:frontier", 10, 0.1, 0.1), _row("clingo:count", 9, 1.0, 1.0)]
    measured(_table("hexiom", "count", rows))
    assert choose("hexiom", "solve", "count").first == "dp:frontier"
    assert choose("hexiom", "solve", "all").first == "clingo:count"
    assert choose("hexiom", "race", "count").backends == ("dp:frontier", "clingo:count")


def test_backends_lists_the_defaults_per_task_and_the_tables_date(capsys):
    assert run_cli(["backends"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert any(f"measured {shipped_table()['header']['date']}" in line for line in out)
    for family in SHIPPED_FAMILIES:
        for task in ("first", "count"):
            line = next(line for line in out if line.split()[:3] == [family, "solve", task])
            assert choose(family, "solve", task).first in line
    assert run_cli(["backends", "--json", "--family", "hexiom"]) == 0
    rows = json.loads(capsys.readouterr().out)
    count_winner = [r["backend"] for r in rows if "count" in r["default_for"]]
    assert count_winner == [choose("hexiom", "solve", "count").first]


def test_symmetry_breaking_skips_backends_that_cannot_break_symmetries(measured):
    rows = [_row("dp:scanline", 10, 0.1, 0.1), _row("clingo:choice", 9, 1.0, 1.0)]
    measured(_table("sigils", "count", rows))
    assert not registry.breaks_symmetries("dp:scanline", "sigils")
    assert choose("sigils", "solve", "count").first == "dp:scanline"
    assert choose("sigils", "solve", "count", symmetry_breaking=True).first == "clingo:choice"


@pytest.mark.parametrize("task", table.TASKS)
@pytest.mark.parametrize("family", SHIPPED_FAMILIES)
def test_the_portfolio_measures_every_backend_for_the_tasks_it_declares(family, task):
    """bench --portfolio takes every shipped backend that needs nothing outside Python (run by default or not)
    whose TASKS hold the task; the cross-check's default set leaves out those that say BY_DEFAULT = False."""
    from trisolve.bench import portfolio

    names = portfolio.backends_for(family, task)[0]
    measured = {Spec.parse(name).backend for name in names}
    # the compiled constraint model is measured beside each hand-written default, so the defaults may follow it
    compiled = {f"{name}:compiled" for name in measured if "compiled" in registry.catalog(name, family).variants}
    assert compiled <= set(names)
    if FAMILIES[family].constraints is not None:
        assert {"pysat:compiled", "cpsat:compiled"} <= compiled
    declared = {
        name
        for name in registry.shipped()
        if not registry.role(name, "OPTIONAL")
        and task in registry.role(name, "TASKS")
        and registry.catalog(name, family)
        and registry.available(name) is None
    }
    assert measured == declared
    crosschecked = {Spec.parse(spec).backend for spec in choose(family, "campaign").backends}
    offered = {n: registry.catalog(n, family) for n in declaring("BY_DEFAULT")}
    assert crosschecked == {n for n, catalog in offered.items() if catalog is not None and catalog.cross_check}
    # the decision for the two slow ones (docs/ganak.md, docs/mip.md): measured where they apply, never run
    # by a cross-check that does not name them; ganak for counts only
    assert not {"ganak", "mip"} & crosschecked
    assert ("mip" in measured) == (registry.available("mip") is None)
    assert ("ganak" in measured) == (task == "count" and registry.available("ganak") is None)


def test_a_plugin_declares_its_tasks_as_a_tuple_of_known_tasks():
    from support import plugin_backend

    module = plugin_backend(lambda family, variant, translator: None, {"plain": "a plain encoding"})
    module.TASKS = ["count"]
    with pytest.raises(registry.PluginError, match="TASKS"):
        registry.register("tasks_plugin", module)
    module.TASKS = ("count", "all")
    with pytest.raises(registry.PluginError, match="TASKS"):
        registry.register("tasks_plugin", module)
    module.TASKS = ("count",)
    registry.register("tasks_plugin", module)
    try:
        assert registry.role("tasks_plugin", "TASKS") == ("count",)
    finally:
        registry.unregister("tasks_plugin")


BROKEN_TABLES = {
    "a family as a list": {"families": {"hexiom": []}},
    "a task as a list": {"families": {"hexiom": {"first": []}}},
    "rows as an object": {"families": {"hexiom": {"first": {"rows": {}}}}},
    "solved as text": {"families": {"hexiom": {"first": {"rows": [{"backend": "pysat", "solved": "x"}]}}}},
    "a time as text": {"families": {"hexiom": {"first": {"rows": [{"backend": "pysat", "wall": {"p90": "slow"}}]}}}},
    "a backend as a number": {"families": {"hexiom": {"first": {"rows": [{"backend": 5}]}}}},
    "not a table": [1],
    "not JSON": "{families",
}


@pytest.mark.parametrize("name", sorted(BROKEN_TABLES))
def test_a_broken_table_falls_back_to_the_family_default_with_one_warning(name, tmp_path, monkeypatch, capsys):
    """A damaged selection/portfolio.json: one warning line naming the file, then the family's own default runs
    (never an internal error, never an exit-2 message that names no file)."""
    path = tmp_path / "portfolio.json"
    broken = BROKEN_TABLES[name]
    path.write_text(broken if isinstance(broken, str) else json.dumps(broken))
    monkeypatch.setattr(table, "TABLE_PATH", str(path))
    assert run_cli(["solve", level_path("hexiom", "level01"), "--json"]) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and str(path) in warnings[0] and "Traceback" not in captured.err, captured.err
    fallback = registry.resolve(FAMILIES["hexiom"].default_backend, "hexiom")
    assert json.loads(captured.out)["backend"] == fallback
    assert choose("hexiom", "solve", "count").backends == (fallback,)
    assert "warning" not in capsys.readouterr().err  # said once per process and file


@pytest.mark.parametrize(
    "family, stem, small",
    [("hexiom", "level05", True), ("hexiom", "level22", False), ("sigils", "gate-4x4", True)],
)
def test_a_small_instance_counts_without_loading_compiled_kernels(family, stem, small):
    """The table ranks over every size: dp (hexiom) and exactcover (sigils) count best overall but load compiled
    kernels for about half a CPU second, where pysat counts a side-3 board or a 4x4 frame in milliseconds."""
    from support import expected

    import trisolve

    path = level_path(family, stem)
    overall = choose(family, "solve", "count").first
    result = trisolve.solve(path, count=True, timeout=120)
    assert result.complete and result.count == expected(family)[stem]["count"]
    assert selection.small(family, trisolve.load(path).model) == small
    if small and Spec.parse(overall).backend in selection.KERNELS:
        assert Spec.parse(result.backend).backend not in selection.KERNELS, result.backend
        chosen = choose(family, "solve", "count", level=lambda: trisolve.load(path).model)
        assert result.backend == chosen.first
    if not small:
        assert result.backend == overall
