"""The default cross-check plan (crosscheck/plan.py): a few backends of different paradigms, each left out where
expected.json records that it takes minutes, and what may stay incomplete said up front (issue 22 item 2)."""

from __future__ import annotations

import json
import os

from support import LEVELS, level_path

import trisolve
from trisolve import api
from trisolve.backends.spec import Spec
from trisolve.crosscheck.compare import load_expected, record_expected
from trisolve.crosscheck.plan import default_plan
from trisolve.models import FAMILIES


def _plan(*stems: str):
    return default_plan([(level_path("hexiom", stem), "hexiom") for stem in stems], api.backend_name)


def test_each_default_runs_except_where_it_takes_minutes():
    plan = _plan("level01", "level22", "level40")
    names = plan.backends["hexiom"]
    assert {Spec.parse(name).backend for name in names} == {"dp", "clingo", "pysat"}
    quick, many = level_path("hexiom", "level01"), level_path("hexiom", "level22")
    assert all(plan.runs(quick, "hexiom", name) for name in names)
    assert [name for name in names if plan.runs(many, "hexiom", name)] == ["dp:frontier"]
    said = "\n".join(plan.describe(20))
    assert "level22" in said and "may stay incomplete within the 20 s limit: level40" in said


def test_every_shipped_instance_gets_a_default_backend():
    for family in [name for name, kind in FAMILIES.items() if kind.crosscheck]:
        folder = os.path.join(LEVELS, family)
        paths = [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".txt")]
        plan = default_plan([(path, family) for path in paths], api.backend_name)
        for path in paths:
            running = {name for name in plan.backends[family] if plan.runs(path, family, name)}
            assert running, (family, path)


def test_default_cross_check_follows_the_plan_and_agrees():
    said = []
    report = trisolve.cross_check(
        [level_path("hexiom", "level01"), level_path("hexiom", "level22")], on_plan=said.extend, jobs=2
    )
    assert not report.failed and [v.status for v in report.verdicts] == ["agree", "agree"], report
    by_level = [sorted(Spec.parse(r.backend).backend for r in v.records) for v in report.verdicts]
    assert by_level == [["clingo", "clingo", "dp", "pysat", "pysat"], ["dp"]]
    assert report.verdicts[1].count == 109821 and any("level22" in line for line in said)


def _compiled(name: str) -> bool:
    return (Spec.parse(name).variant_name or "").startswith("compiled")


def test_every_family_with_a_model_and_a_plan_sets_compiled_variants_against_hand_written_ones():
    for family in [name for name, kind in FAMILIES.items() if kind.crosscheck and kind.constraints]:
        folder = os.path.join(LEVELS, family)
        paths = [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".txt")]
        names = default_plan([(path, family) for path in paths], api.backend_name).backends[family]
        assert any(map(_compiled, names)) and not all(map(_compiled, names)), (family, names)


def test_the_default_cross_check_agrees_across_compiled_and_hand_written_variants():
    """hexiom and sigils levels checked with the defaults: compiled variants run beside the hand-written ones,
    and every run's count is the one expected.json records."""
    levels = [level_path("hexiom", "level10"), level_path("sigils", "gate-5x4"), level_path("sigils", "cycle-4x4")]
    report = trisolve.cross_check(levels, jobs=2)
    assert not report.failed and [v.status for v in report.verdicts] == ["agree"] * 3, report
    for verdict, known in zip(report.verdicts, (8, 14, 4)):
        names = {record.backend for record in verdict.records}
        compiled = {name for name in names if _compiled(name)}
        assert compiled and names - compiled, names
        assert verdict.count == known
        assert all(record.complete and record.count == known for record in verdict.records)


def test_recording_counts_keeps_the_plan_notes_and_the_classes(tmp_path):
    path = tmp_path / "expected.json"
    with open(os.path.join(LEVELS, "hexiom", "expected.json"), encoding="utf-8") as handle:
        shipped = json.load(handle)
    path.write_text(json.dumps({"level22": shipped["level22"]}))
    report = trisolve.cross_check([level_path("hexiom", "level22")], "dp")
    record_expected(str(path), report.verdicts)
    kept = load_expected(str(path))["level22"]
    orbits = shipped["level22"]["orbits"]
    assert (kept.count, kept.complete, kept.orbits, kept.slow_for) == (109821, True, orbits, ("clingo", "pysat"))
