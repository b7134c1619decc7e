"""trisolve mutate: ASP mutants from clingo.ast, translator mutants through the hooks, scores, suites, resume.

The end-to-end runs are kept small (one encoding file, a few tiny levels):
the full scores are measured with the command itself, not in CI.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT

from trisolve.backends import mutation, registry
from trisolve.backends.base import Limits, Options
from trisolve.backends.clingo import lp_mutants
from trisolve.crosscheck import mutate as mutate_module
from trisolve.crosscheck.mutate import Mutant, Outcome, explain, killing_suite, score_row
from trisolve.crosscheck.run import Instance
from trisolve.models import FAMILIES
from trisolve.runs import RunRecord

LEVELS = os.path.join(ROOT, "levels", "hexiom")
ENCODINGS = os.path.join(ROOT, "backends", "clingo", "encodings")

PROGRAM = """\
% the rule under test
{ pick(X) : item(X) } 2 :- box.
:- pick(X), X > 3, not big.
"""


def test_every_operator_makes_a_real_lp_file_with_the_statement_rewritten_in_place():
    made = lp_mutants.mutants(PROGRAM)
    by_operator = {m.operator for m in made}
    assert by_operator == set(lp_mutants.OPERATORS)
    for m in made:
        assert lp_mutants.parses(m.text) is None, m.text
        assert m.text.count("\n") == PROGRAM.count("\n")  # line numbers still match the original
        assert m.text.split("\n")[m.line - 1].strip() == m.mutated
    texts = {(m.operator, m.mutated) for m in made}
    assert ("negate-literal", "#false :- pick(X); X > 3; big.") in texts
    assert ("flip-comparison", "#false :- pick(X); X >= 3; not big.") in texts
    assert ("bound+1", "#false :- pick(X); X > 4; not big.") in texts
    assert ("swap-choice-bounds", "{ pick(X): item(X) } >= 2 :- box.") in texts
    assert ("delete-rule", "") in texts
    assert made[0].comment == "the rule under test"


@pytest.mark.parametrize("name", sorted(n for n in os.listdir(ENCODINGS) if n.endswith(".lp")))
def test_shipped_lp_files_give_mutants_that_clingo_parses(name):
    with open(os.path.join(ENCODINGS, name), encoding="utf-8") as handle:
        made = lp_mutants.mutants(handle.read())
    assert len(made) >= 10
    assert all(lp_mutants.parses(m.text) is None for m in made)


@pytest.mark.parametrize("spec", ["pysat:totalizer", "cpsat:int", "mip:highs"])
def test_hooks_record_sites_and_a_dropped_group_changes_the_count(spec):
    family = FAMILIES["hexiom"]
    level = family.parse(os.path.join(LEVELS, "level10.txt"))  # 8 solutions
    backend = registry.get(spec, "hexiom")
    with mutation.record() as sites:
        backend.export(level, Options())
    groups = {s.name: s for s in sites.values() if s.kind == "group"}
    assert "tile counts" in groups and "neighbour rule" in groups
    site = groups["neighbour rule"]
    change = site.mutation("drop-group")
    mutated = registry.get(f"mutated:{spec}~{change.spec}", "hexiom")
    result = mutated.run(level, Limits(time=30, solutions=50), Options(enumerate=True))
    assert result.count > 8
    # and nothing leaks: the plain backend still counts 8
    assert backend.run(level, Limits(time=30), Options(enumerate=True)).count == 8


def test_killing_suite_is_a_greedy_set_cover():
    kills = {"a": ["m1", "m2"], "b": ["m2", "m3", "m4"], "c": ["m1"], "d": ["m5"]}
    assert killing_suite(kills) == ["b", "a", "d"]
    assert killing_suite({}) == []


def test_score_counts_stillborn_and_explained_equivalents_out():
    m = Mutant("x#1", "clingo:count", "s", "f.lp", 1, "delete-rule", "a.", "", False)
    outcomes = [
        Outcome(m, "killed", "validator"),
        Outcome(m, "killed", "count"),
        Outcome(m, "killed", "timeout"),
        Outcome(m, "stillborn"),
        Outcome(m, "survived", reason="implied"),
        Outcome(m, "survived"),
    ]
    row = score_row("f.lp", outcomes)
    assert row["mutants"] == 6 and row["killed"] == 3
    assert (row["by_validator"], row["by_count"], row["by_timeout"]) == (1, 1, 1)
    assert row["score"] == round(3 / 4, 4)  # the unexplained survivor counts against it


RULES = """\
% at most two picks
{ pick(X) : item(X) } 2 :- box, ready.
:- pick(X), pick(Y), X < Y, Y > X+2.
"""
#: the markers of RULES, as its sidecar (RULES.mutants.toml) holds them: rules as written, spacing aside
SIDECAR = """\
[[equivalent]]
rule = "{pick(X):item(X)} 2 :- box,ready."
operator = "bound+1"
text = "3"
reason = "a third pick is refused by the rule below"

[[equivalent]]
rule = '''{ pick(X) : item(X) } 2 :-
        box, ready.'''
operator = "delete-literal"
reason = "box always holds here"

[[implied]]
rule = ":- pick(X), pick(Y), X < Y, Y > X+2."
reason = "the items are too few for picks three apart"
"""


def test_a_sidecar_marks_exactly_the_mutants_it_names_and_the_rules_stay_plain():
    made = lp_mutants.mutants(RULES, SIDECAR)
    marked = {(m.operator, m.mutated): m.equivalent for m in made if m.equivalent}
    assert marked == {
        ("bound+1", "3 >= { pick(X): item(X) } :- box; ready."): "a third pick is refused by the rule below",
        # without a text the marker names every mutant of its operator on the rule
        ("delete-literal", "2 >= { pick(X): item(X) } :- ready."): "box always holds here",
        ("delete-literal", "2 >= { pick(X): item(X) } :- box."): "box always holds here",
    }
    first_rule = [m for m in made if m.line == 2]
    assert first_rule and all(m.comment == "at most two picks" and not m.implied for m in first_rule)
    assert {m.implied for m in made if m.line == 3} == {"the items are too few for picks three apart"}
    assert not any(m.equivalent for m in made if m.line == 3)  # an entry speaks for its own rule only
    assert lp_mutants.stale_markers(RULES, SIDECAR) == []
    assert not any(m.equivalent or m.implied for m in lp_mutants.mutants(RULES))  # no sidecar, no marks


def test_a_stale_or_malformed_marker_is_found():
    stale = SIDECAR.replace('text = "3"', 'text = "7"')  # the bound+1 mutant writes 3, not 7
    assert [(m.kind, m.operator) for m in lp_mutants.stale_markers(RULES, stale)] == [("equivalent", "bound+1")]
    moved = RULES.replace("box, ready", "box, ready, set")  # the rule changed: its entries mark nothing now
    assert [m.entry for m in lp_mutants.stale_markers(moved, SIDECAR)] == [1, 2]
    for bad, fragment in (
        ('[[equivalent]]\nrule = "a :- b."\noperator = "bound+2"\nreason = "x"\n', "is not one of"),
        ('[[equivalent]]\nrule = "a :- b."\noperator = "delete-rule"\n', "want rule"),
        ('[[equivalnet]]\nrule = "a :- b."\nreason = "typo"\n', "unknown tables"),
        ('[[implied]]\nrule = "a :- b. c :- d."\nreason = "two rules"\n', "not one clingo rule"),
        ("rule = \n", "not TOML"),
    ):
        with pytest.raises(ValueError, match=fragment):
            lp_mutants.mutants("a :- b.\n", bad, file="x.mutants.toml")


@pytest.mark.parametrize("name", sorted(n for n in os.listdir(ENCODINGS) if n.endswith(".lp")))
def test_every_shipped_marker_marks_a_mutant_and_no_rules_file_carries_one(name):
    with open(os.path.join(ENCODINGS, name), encoding="utf-8") as handle:
        source = handle.read()
    assert "mutate:" not in source  # the markers live in the sidecar, the .lp file is the encoding alone
    sidecar = os.path.join(ENCODINGS, name.removesuffix(".lp") + ".mutants.toml")
    if os.path.exists(sidecar):
        with open(sidecar, encoding="utf-8") as handle:
            assert lp_mutants.stale_markers(source, handle.read(), file=sidecar) == []


def test_mutant_ids_come_from_file_line_and_operator_whatever_the_instances(tmp_path):
    """A mutant's id names it by its encoding file, line and operator: two instance sets give the same ids
    (issue 22: the hook mutants were numbered in the order the instances reached their sites)."""
    family = FAMILIES["logic"]
    puzzles = sorted(
        os.path.join(ROOT, "levels", "logic", n) for n in os.listdir(os.path.join(ROOT, "levels", "logic"))
    )
    instances = [Instance(p, family, family.parse(p)) for p in puzzles if p.endswith(".toml")]
    first = mutate_module.make_mutants("logic", "pysat", instances[:2], "unused")
    other = mutate_module.make_mutants("logic", "pysat", instances[-6:], "unused")
    by_id = {m.id: (m.file, m.line, m.operator) for m in first}
    assert len(by_id) == len(first)
    assert all(by_id.get(m.id, (m.file, m.line, m.operator)) == (m.file, m.line, m.operator) for m in other)
    assert all(m.id == f"{m.file.removeprefix('backends/')}:{m.line}:{m.operator}[{m.purpose}]" for m in first)
    clingo = mutate_module.make_mutants("logic", "clingo", instances[:1], str(tmp_path))
    # the hand rules and, for clingo:compiled, the generic rules file its facts run with
    files = {"backends/clingo/encodings/logic.lp", "backends/clingo/encodings/model.lp"}
    assert {m.file for m in clingo} == files and len({m.id for m in clingo}) == len(clingo)


def test_a_marked_survivor_is_equivalent_and_a_marked_mutant_killed_by_count_is_a_wrong_marker():
    m = Mutant("x#2", "clingo:count", "s", "f.lp", 1, "bound+1", "a.", "b.", False, equivalent="the reason")
    survivor, counted, slow = Outcome(m), Outcome(m, "killed", "count", "i.txt"), Outcome(m, "killed", "timeout")
    for outcome in (survivor, counted, slow):
        explain(outcome)
    assert survivor.reason == "marked equivalent: the reason" and survivor.wrong_marker is None
    assert "killed by count on i.txt" in counted.wrong_marker
    assert slow.wrong_marker is None  # an equivalent mutant may well be slower
    assert score_row("f.lp", [survivor, Outcome(m, "killed", "count")])["score"] == 1.0


def _record(backend: str, *, complete: bool, wall: float, stopped_by: str | None = None) -> RunRecord:
    return RunRecord(
        key=backend,
        path="x.txt",
        family="sigils",
        backend=backend,
        mode="all",
        symmetry_breaking=False,
        status="unsat" if complete else "unknown",
        count=0,
        complete=complete,
        wall=wall,
        stopped_by=stopped_by,
    )


@pytest.mark.parametrize("original_wall, killed", [(0.3, True), (2.5, False)])
def test_a_run_cut_short_kills_by_timeout_only_when_the_unmutated_variant_was_quick(tmp_path, original_wall, killed):
    family = FAMILIES["sigils"]
    level = family.parse(os.path.join(ROOT, "levels", "sigils", "gate-7x4-all-seven.txt"))  # no tiling (parity)
    instance = Instance(str(tmp_path / "x.txt"), family, level)
    ref = mutate_module._Reference(
        [
            _record("clingo:choice", complete=True, wall=original_wall),
            _record("pysat:totalizer", complete=True, wall=0.1),
        ],
        0,
        0,
    )
    m = Mutant("sigils#1", "clingo:choice", "s", "sigils.lp", 1, "delete-literal", "a.", "b.", False)
    outcome = Outcome(m)
    mutant_run = _record(m.spec, complete=False, wall=5.3, stopped_by="killed at time limit")
    mutate_module._classify(outcome, family, instance, ref, mutant_run, timeout=5.0)
    assert outcome.timeouts == 1
    assert (outcome.status, outcome.how) == (("killed", "timeout") if killed else ("survived", None))
    # a count kill on a later instance replaces a timeout kill: it needs no clock
    wrong = dataclasses.replace(_record(m.spec, complete=True, wall=0.1), status="sat", count=1)
    mutate_module._classify(outcome, family, instance, ref, wrong, timeout=5.0)
    assert (outcome.status, outcome.how) == ("killed", "count")
    # the cross-checker itself never calls a run cut short a finding
    verdict = mutate_module.judge(family, level, instance.path, [*ref.records, mutant_run])
    assert not verdict.failed and verdict.status == "incomplete"


def test_a_mutant_that_never_stops_grounding_is_killed_by_timeout(tmp_path):
    """sigils.lp without ``Q < 3`` turns a piece forever; the unmutated encoding tiles the 4x3 gate at once."""
    with open(os.path.join(ENCODINGS, "sigils.lp"), encoding="utf-8") as handle:
        made = lp_mutants.mutants(handle.read())
    (endless,) = [m for m in made if m.mutated == "turn(T,F,(Q+1),C,-R) :- turn(T,F,Q,R,C)."]
    family = FAMILIES["sigils"]
    paths = [os.path.join(ROOT, "levels", "sigils", f"{name}.txt") for name in ("gate-4x3", "trominoes-3x3")]
    report = mutate_module.run_mutate(
        family,
        "clingo",
        [Instance(p, family, family.parse(p)) for p in paths],
        folder=str(tmp_path),
        timeout=2.0,
        parallel=2,
        batch=1,
        ids=[f"sigils.lp:{endless.line}:{endless.operator}" + (f"#{endless.index}" if endless.index else "")],
        references=("clingo",),
    )
    (outcome,) = report.outcomes
    # killed on the first instance, and still run on the second (a stronger kill could come there)
    assert (outcome.status, outcome.how, outcome.tried, outcome.timeouts) == ("killed", "timeout", 2, 2), (
        outcome.finding
    )
    assert outcome.instance == paths[0] and report.suite == (paths[0],)
    assert (
        "cut short by the 2 s time limit" in outcome.finding
        and "clingo:choice unmutated completed it" in outcome.finding
    )
    assert score_row("sigils.lp", report.outcomes)["by_timeout"] == 1
    with pytest.raises(mutate_module.UnknownMutant):
        mutate_module.run_mutate(family, "clingo", [], folder=str(tmp_path), ids=["sigils.lp:9999:delete-rule"])


def _mutate(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "trisolve", "mutate", *args], capture_output=True, text=True, timeout=900, cwd=cwd
    )


SMALL = ["level01.txt", "level04.txt", "level08.txt"]


@pytest.mark.slow
def test_mutate_scores_one_lp_file_writes_a_killing_suite_and_resumes(tmp_path):
    levels = tmp_path / "levels"
    levels.mkdir()
    for name in SMALL:
        (levels / name).write_text(Path(os.path.join(LEVELS, name)).read_text(encoding="utf-8"))
    log = str(tmp_path / "m.jsonl")
    args = [
        "hexiom",
        "--backend",
        "clingo:count",
        "--only",
        "hexiom_count.lp",
        "--levels",
        str(levels),
        "--retry",
        "0",
        "--jsonl",
        log,
        "--suite",
        str(tmp_path / "suite"),
        "--json",
        "--timeout",
        "20",
    ]
    done = _mutate(*args, cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    files = {row["name"]: row for row in report["by_file"]}
    row = files["backends/clingo/encodings/hexiom_count.lp"]
    assert row["mutants"] >= 30 and row["killed"] >= 20
    assert row["by_validator"] > 0 and row["by_count"] > 0  # both kinds of kill happen
    for outcome in report["outcomes"]:
        m = outcome["mutant"]
        assert m["file"].endswith("hexiom_count.lp") and m["line"] > 0 and m["original"]
        if outcome["status"] == "killed":
            assert os.path.basename(outcome["instance"]) in SMALL
    assert report["suite"] and len(report["suite"]) <= len(SMALL)
    assert sorted(os.listdir(tmp_path / "suite")) == sorted(
        [os.path.basename(p) for p in report["suite"]] + ["expected.json"]
    )
    # each mutant file is a real .lp file: clingo runs it with the rest of the encoding
    first = report["outcomes"][0]["mutant"]["spec"].split("=", 1)[1]
    assert lp_mutants.parses(Path(first).read_text(encoding="utf-8")) is None
    again = _mutate(*args, "--resume", cwd=tmp_path)
    second = json.loads(again.stdout)
    assert second["reused_runs"] == second["runs"] == report["runs"]
    assert [o["status"] for o in second["outcomes"]] == [o["status"] for o in report["outcomes"]]


@pytest.mark.slow
@pytest.mark.parametrize("executor", ["local", "dask"])
def test_mutate_a_translator_through_its_hooks_locally_and_on_dask(tmp_path, executor):
    if executor == "dask":
        pytest.importorskip("distributed")
    levels = tmp_path / "levels"
    levels.mkdir()
    for name in ("level08.txt", "level10.txt"):  # with locks and several solutions: the tiniest kill little
        (levels / name).write_text(Path(os.path.join(LEVELS, name)).read_text(encoding="utf-8"))
    done = _mutate(
        "hexiom",
        "--backend",
        "pysat:totalizer",
        "--levels",
        str(levels),
        "--retry",
        "0",
        "--json",
        "--executor",
        executor,
        "--jobs",
        "2",
        "--timeout",
        "20",
        cwd=tmp_path,
    )
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    operators = {row["name"]: row for row in report["by_operator"]}
    assert {"drop-group", "bound+1", "bound-1", "reverse", "drop-symmetry"} <= set(operators)
    assert operators["drop-group"]["killed"] >= 3
    assert operators["total"]["stillborn"] == 0
    survivors = [o for o in report["outcomes"] if o["status"] == "survived"]
    assert all(o["mutant"]["file"] == "backends/pysat/hexiom.py" for o in report["outcomes"])
    # the redundant total count may go: its survivors carry the reason
    implied = [o for o in survivors if "implied" in o["mutant"]["purpose"]]
    assert all(o["reason"] for o in implied)


@pytest.mark.slow
def test_mutate_breaks_a_compiled_model_and_the_cross_check_with_hand_translators_catches_it(tmp_path):
    """The rules stated once are mutated once (``mutation.apply_to_model``): each mutant is a group of the model's
    constraints dropped or its bound shifted, run through a compiler, and judged against hand-written translators
    (``--references``): a broken neighbour rule or tile count is caught by their disagreeing counts."""
    levels = tmp_path / "levels"
    levels.mkdir()
    for name in ("level08.txt", "level10.txt"):
        (levels / name).write_text(Path(os.path.join(LEVELS, name)).read_text(encoding="utf-8"))
    done = _mutate(
        "hexiom",
        "--backend",
        "cpsat:compiled",
        "--references",
        "dp,clingo:count,pysat:totalizer",
        "--levels",
        str(levels),
        "--retry",
        "0",
        "--json",
        "--jobs",
        "1",
        "--timeout",
        "30",
        cwd=tmp_path,
    )
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert not report["reference_failures"]
    outcomes = report["outcomes"]
    assert outcomes and all(o["mutant"]["file"] == "backends/mutation.py" for o in outcomes)
    assert all(o["mutant"]["purpose"].startswith("model ") for o in outcomes)
    by_purpose = {(o["mutant"]["operator"], o["mutant"]["purpose"]): o for o in outcomes}
    neighbours = "model rule: a # at row #, place # has # occupied neighbours"
    assert by_purpose["bound+1", neighbours]["status"] == "killed"
    assert by_purpose["drop-group", neighbours]["status"] == "killed"
    total = {row["name"]: row for row in report["by_operator"]}["total"]
    assert total["by_count"] >= 5 and total["killed"] >= 10


def test_mutate_refuses_bad_usage(tmp_path):
    assert _mutate("hexiom", "--backend", "dp", cwd=tmp_path).returncode == 2
    assert _mutate("hexiom", "--backend", "nosuch", cwd=tmp_path).returncode == 2
    assert _mutate("hexiom", "--backend", "clingo", "--resume", cwd=tmp_path).returncode == 2


def test_the_quarter_turn_frame_kills_the_chain_mutant_that_drops_the_next_lower_rank(tmp_path):
    """sigils.lp line 97 with ``I != J+1`` drops pair(S,I,I-1): only a 4-cycle of a quarter turn shows it,
    and ``cycle-4x4`` (4 tilings, 1 class) is the shipped frame that does."""
    with open(os.path.join(ENCODINGS, "sigils.lp"), encoding="utf-8") as handle:
        source = handle.read()
    (mutant,) = [m for m in lp_mutants.mutants(source) if m.operator == "bound+1" and "I != (J+1)" in m.mutated]
    path = tmp_path / "sigils.lp"
    path.write_text(mutant.text)
    lvl = FAMILIES["sigils"].parse(os.path.join(ROOT, "levels", "sigils", "cycle-4x4.txt"))
    options = Options(enumerate=True, symmetry_breaking=True)
    result = registry.get(f"mutated:clingo:choice~lp:sigils.lp={path}", "sigils").run(lvl, Limits(time=60), options)
    assert result.complete and result.count == 0  # its one class lost; the shipped encoding keeps it
    assert registry.get("clingo:choice", "sigils").run(lvl, Limits(time=60), options).count == 1


SHARED_BUG = os.path.join(ROOT, "tests", "shared_bug.py")


def test_a_plugin_named_as_the_mutated_backend_is_told_to_be_a_reference(tmp_path):
    done = _mutate("logic", "--backend", "shared", "--plugin", SHARED_BUG, cwd=tmp_path)
    assert done.returncode == 2
    assert "mutants are made of" in done.stderr and "--references shared" in done.stderr, done.stderr


def test_failing_references_come_before_the_scores_and_no_temporary_folder_is_left(tmp_path):
    """References that disagree make every score meaningless: that is said first, then the tables; the mutants
    and generated levels went to a temporary folder, which is gone afterwards."""
    levels = tmp_path / "levels"
    levels.mkdir()
    source = os.path.join(ROOT, "levels", "logic", "einstein-somewhere.toml")
    (levels / "einstein-somewhere.toml").write_text(Path(source).read_text(encoding="utf-8"))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "trisolve", "mutate", "logic", "--backend", "pysat", "--plugin", SHARED_BUG,
         "--references", "pysat,shared", "--levels", str(levels), "--retry", "0", "--timeout", "20", "-q"],
        capture_output=True, text=True, timeout=900, cwd=tmp_path, env={**os.environ, "TMPDIR": str(scratch)},
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "UNMUTATED BACKENDS FAIL on " in out and "einstein-somewhere.toml" in out
    assert out.index("UNMUTATED BACKENDS FAIL") < out.index("score")
    assert os.listdir(scratch) == []
