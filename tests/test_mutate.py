"""trisolve mutate: ASP mutants from clingo.ast, translator mutants through the hooks, scores, suites, resume.

The end-to-end runs are kept small (one encoding file, a few tiny levels):
the full scores are measured with the command itself, not in CI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from support import ROOT
from trisolve.backends import mutation, registry
from trisolve.backends.base import Limits, Options
from trisolve.backends.clingo import lp_mutants
from trisolve.crosscheck.mutate import killing_suite, score_row, Outcome, Mutant
from trisolve.models import FAMILIES

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


@pytest.mark.parametrize("spec", ["pysat:totalizer", "cpsat:int"])
def test_hooks_record_sites_and_a_dropped_group_changes_the_count(spec):
    family = FAMILIES["hexiom"]
    level = family.parse(os.path.join(LEVELS, "level10.txt"))  # 8 solutions
    backend = registry.get(spec, "hexiom")
    with mutation.record() as sites:
        backend.export(level, Options())
    groups = {s.name: s for s in sites.values() if s.kind == "group"}
    assert "tile counts" in groups and "neighbour rule" in groups
    site = groups["neighbour rule"]
    change = mutation.Mutation("drop-group", site.file, site.line, site.name)
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
    outcomes = [Outcome(m, "killed", "validator"), Outcome(m, "killed", "count"), Outcome(m, "stillborn"),
                Outcome(m, "survived", reason="implied"), Outcome(m, "survived")]
    row = score_row("f.lp", outcomes)
    assert row["mutants"] == 5 and row["killed"] == 2 and row["by_validator"] == 1 and row["by_count"] == 1
    assert row["score"] == round(2 / 3, 4)  # the unexplained survivor counts against it


def _mutate(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "trisolve", "mutate", *args], capture_output=True, text=True,
                          timeout=900, cwd=cwd)


SMALL = ["level01.txt", "level04.txt", "level08.txt"]


@pytest.mark.slow
def test_mutate_scores_one_lp_file_writes_a_killing_suite_and_resumes(tmp_path):
    levels = tmp_path / "levels"
    levels.mkdir()
    for name in SMALL:
        (levels / name).write_text(open(os.path.join(LEVELS, name), encoding="utf-8").read())
    log = str(tmp_path / "m.jsonl")
    args = ["hexiom", "--backend", "clingo:count", "--only", "hexiom_count.lp", "--levels", str(levels), "--retry", "0",
            "--jsonl", log, "--suite", str(tmp_path / "suite"), "--json", "--timeout", "20"]
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
    assert sorted(os.listdir(tmp_path / "suite")) == sorted([os.path.basename(p) for p in report["suite"]] + ["expected.json"])
    # each mutant file is a real .lp file: clingo runs it with the rest of the encoding
    first = report["outcomes"][0]["mutant"]["spec"].split("=", 1)[1]
    assert lp_mutants.parses(open(first, encoding="utf-8").read()) is None
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
        (levels / name).write_text(open(os.path.join(LEVELS, name), encoding="utf-8").read())
    done = _mutate("hexiom", "--backend", "pysat:totalizer", "--levels", str(levels), "--retry", "0", "--json",
                   "--executor", executor, "--jobs", "2", "--timeout", "20", cwd=tmp_path)
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


def test_mutate_refuses_bad_usage(tmp_path):
    assert _mutate("hexiom", "--backend", "dp", cwd=tmp_path).returncode == 2
    assert _mutate("hexiom", "--backend", "nosuch", cwd=tmp_path).returncode == 2
    assert _mutate("hexiom", "--backend", "clingo", "--resume", cwd=tmp_path).returncode == 2
