"""``trisolve explain``: step-wise explanations rebuild the unique solution, every claim confirmed by a second
paradigm; minimal causes of "no solution"; backbone and extra givens checked by counting; hints."""

from __future__ import annotations

import json
import os
import sys
import time
import types

import pytest
from click.testing import CliRunner
from pysat.solvers import Solver
from support import run_cli

import trisolve
from trisolve.backends.pysat.compiled import compile_model, compile_selected
from trisolve.cli.main import cli
from trisolve.constraints import Model
from trisolve.explaining.check import Checker, sub_model
from trisolve.explaining.explain import Explanation
from trisolve.explaining.units import Words, own_literals, units_of
from trisolve.models import FAMILIES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: a 4x4 Sudoku whose explanation the bench's greedies run in seconds
SMALL_SUDOKU = "sudoku 4x4\n. . 1 .\n. 2 . .\n2 4 . .\n. . . .\n"


def bench_module() -> types.ModuleType:
    """``scripts/bench_explain.py`` as a module (the scripts folder is not a package)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    try:
        import bench_explain
    finally:
        sys.path.pop(0)
    return bench_explain


def fresh_ocus_cost(units_in_cpmpy: tuple, known: list[int], unknown: list[int]) -> int:
    """The cost of the cheapest step from ``known`` to one of ``unknown``, by a fresh CPMpy ``ocus`` call over
    every unit, known fact (weight 1) and negated unknown fact (weight 0, exactly one taken);
    ``units_in_cpmpy`` is the bench's ``cpmpy_units`` of the model."""
    import cpmpy as cp
    from cpmpy.tools.explain import ocus

    _, lit, units, hard = units_in_cpmpy
    negated = [~lit(f) for f in unknown]
    soft = [*units, *(lit(f) for f in known), *negated]
    weights = [1] * (len(soft) - len(negated)) + [0] * len(negated)
    chosen = ocus(soft, hard=hard, weights=weights, meta_constraint=cp.sum(negated) == 1, solver="ortools")
    return len(chosen) - 1


EINSTEIN = os.path.join(ROOT, "levels", "logic", "einstein.toml")


def model_of(path: str, text: str | None = None) -> tuple[trisolve.Level, Model]:
    level = trisolve.load(text, "hexiom") if text is not None else trisolve.load(path)
    return level, FAMILIES[level.family].constraints(level.model)


def solutions(model: Model, limit: int = 1000) -> list[frozenset[int]]:
    """Every solution's own literals, by enumeration with the plain CNF compiler (the referee)."""
    encoding = compile_model(model.freeze(), connectivity="eager")
    found = []
    with Solver(name="g4", bootstrap_with=encoding.clauses) as solver:
        while len(found) < limit and solver.solve():
            true = {lit for lit in solver.get_model() if lit > 0}
            found.append(own_literals(model, true))
            solver.add_clause([-lit for lit in found[-1]])
    return found


@pytest.mark.parametrize("check", ["cpsat", "clingo"])
def test_einstein_steps_rebuild_the_unique_solution_each_checked(check: str) -> None:
    level, model = model_of(EINSTEIN)
    found = trisolve.explain(level, check=check)
    assert found.kind == "steps" and not found.partial and not found.findings
    # every step confirmed by the second paradigm: its units, its facts and the negated fact have no solution
    assert len(found.checks) == len(found.steps) > 0
    assert all(claim.verdict == "no solution" for claim in found.checks)
    # each step uses only facts already derived, and derives a new one
    known: list[int] = []
    for step in found.steps:
        assert set(step.facts) <= set(known) and step.fact not in known
        known.append(step.fact)
    (unique,) = solutions(model)
    assert set(known) == set(unique)
    rebuilt = model.decode(lit for lit in known if lit > 0)
    assert level.kind.validate(level.model, rebuilt) == []
    assert rebuilt == trisolve.solve(level, backend="clingo").solutions[0].model


def test_a_step_claim_is_not_vacuous() -> None:
    """Without the negated fact, a step's units and facts have a solution: the checker can say so."""
    level, model = model_of(EINSTEIN)
    found = trisolve.explain(level, check=None)
    checker = Checker("cpsat")
    for step in found.steps[:: max(1, len(found.steps) // 10)]:
        constraints = [i for unit in step.units for i in unit.constraints]
        assert checker.claim(found.model, constraints, step.facts, 10).answer == "a solution"
        assert checker.claim(found.model, constraints, (*step.facts, -step.fact), 10).answer == "no solution"


def test_selected_cnf_switches_units() -> None:
    _, model = model_of(EINSTEIN)
    model = model.freeze()
    units = units_of(model)
    cnf = compile_selected(model, lambda constraint: constraint.label)
    on = [cnf.selectors[unit.label] for unit in units]
    with Solver(name="g4", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve(assumptions=on)
        first = own_literals(model, {lit for lit in solver.get_model() if lit > 0})
        solver.add_clause([-lit for lit in first])
        assert not solver.solve(assumptions=on)  # unique with every unit on
        clues = [cnf.selectors[u.label] for u in units if u.role != "clue"]
        assert solver.solve(assumptions=clues)  # without the clues, other solutions
    assert first == solutions(model)[0]


def test_timeout_keeps_a_partial_explanation() -> None:
    level, _ = model_of(EINSTEIN)
    found = trisolve.explain(level, timeout=0.05)
    assert found.partial
    assert all(claim.verdict == "no solution" for claim in found.checks[: len(found.steps)])


# ------------------------------------------------------------------ no solution: minimal causes


def hexiom_with_an_extra_lock() -> str:
    """Hexiom level 10 with its 0 at row 2, place 2 locked where it stands (no solution keeps it there)."""
    with open(os.path.join(ROOT, "levels", "hexiom", "level10.txt")) as handle:
        lines = handle.read().split("\n")
    assert lines[2][3:5] == " 0"
    lines[2] = lines[2][:3] + "+0" + lines[2][5:]
    return "\n".join(lines)


def edited(path: str, header: str, row: int, col: int, entry: str) -> str:
    """A shipped grid level's text with the entry at (row, col) of its grid (from 0) replaced."""
    with open(os.path.join(ROOT, "levels", path)) as handle:
        return edited_text(handle.read(), header, row, col, entry)


def edited_text(text: str, header: str, row: int, col: int, entry: str) -> str:
    """A grid level's text (its grid under the line starting with ``header``) with one entry replaced."""
    lines = text.split("\n")
    top = next(i for i, line in enumerate(lines) if line.startswith(header)) + 1
    cells = lines[top + row].split()
    cells[col] = entry
    lines[top + row] = " ".join(cells)
    return "\n".join(lines)


def wrong_sudoku() -> Model:
    """sudoku01 with a 2 given at row 1, column 2 (its solution has a 5 there; no row, column or box has a 2
    given)."""
    level = trisolve.load(edited("sudoku/sudoku01.txt", "sudoku ", 0, 1, "2"), "sudoku")
    return FAMILIES["sudoku"].constraints(level.model)


def wrong_slither() -> Model:
    """slither02 with a 0 given at row 1, column 1, above its 3 (a 3 needs a side on the loop there)."""
    level = trisolve.load(edited("slither/slither02.txt", "slither ", 0, 0, "0"), "slither")
    return FAMILIES["slither"].constraints(level.model)


def wrong_einstein() -> tuple[trisolve.Level, Model]:
    level, model = model_of(EINSTEIN)
    brit = next(v for v in model.ints if "Brit" in str(v.key))
    model.fix(brit.eq(1), label="the Brit lives in the first house", role="given")  # the Norwegian does
    return level, model


@pytest.mark.parametrize("case", ["hexiom", "logic", "sudoku", "slither"])
@pytest.mark.parametrize("check", ["cpsat", "clingo"])
def test_a_wrong_given_is_in_a_minimal_cause_checked_minimal(case: str, check: str) -> None:
    from trisolve.explaining.explain import explain

    if case == "hexiom":
        _, model = model_of("", hexiom_with_an_extra_lock())
        wrong = "the locked 0 at row 2, place 2"
    elif case == "logic":
        _, model = wrong_einstein()
        wrong = "the Brit lives in the first house"
    elif case == "sudoku":
        model = wrong_sudoku()
        wrong = "the given 2 at row 1, column 2"
    else:
        model = wrong_slither()
        wrong = "the 0 at row 1, column 1"
    assert solutions(model) == []
    found = explain(model, check=check)
    assert found.kind == "unsolvable" and not found.findings
    (mus,) = found.muses
    labels = [unit.label for unit in mus]
    assert wrong in labels
    # the second paradigm: the cause has no solution, and each part of it less one unit has one
    assert [c.expected for c in found.checks] == ["no solution"] + ["a solution"] * len(mus)
    assert all(c.verdict == c.expected for c in found.checks)
    # the referee agrees: minimal
    for unit in mus:
        rest = [i for other in mus if other is not unit for i in other.constraints]
        assert solutions(sub_model(found.model, rest, ()), 1)
    assert solutions(sub_model(found.model, [i for u in mus for i in u.constraints], ()), 1) == []


def test_several_causes_within_a_limit() -> None:
    from trisolve.explaining.explain import explain

    _, model = model_of("", hexiom_with_an_extra_lock())
    found = explain(model, all_mus=3, timeout=120)
    assert 1 <= len(found.muses) <= 3
    assert len({frozenset(u.label for u in mus) for mus in found.muses}) == len(found.muses)
    assert all(c.verdict == c.expected for c in found.checks)


# ------------------------------------------------------------------ several solutions: backbone, extra givens


@pytest.mark.parametrize("name", ["einstein-somewhere", "zebra-somewhere"])
def test_backbone_and_extra_givens_checked_by_counting(name: str) -> None:
    level, model = model_of(os.path.join(ROOT, "levels", "logic", f"{name}.toml"))
    found = trisolve.explain(level)
    assert found.kind == "several" and not found.findings
    every = solutions(model)
    assert len(every) == trisolve.solve(level, backend="pysat", count=True).count > 1
    assert set(found.backbone) == frozenset.intersection(*every)
    # the places they differ: the rest of one solution, every fact of it broken by some other
    assert frozenset(found.differ) | frozenset(found.backbone) in every
    assert all(any(fact not in other for other in every) for fact in found.differ)
    # the extra givens leave exactly one solution: counted by CP-SAT inside, by enumeration here
    assert found.givens_count == "1"
    with_givens = sub_model(found.model, range(len(found.model.constraints)), found.givens)
    assert len(solutions(with_givens)) == 1
    # none superfluous
    for given in found.givens:
        rest = [g for g in found.givens if g != given]
        assert len(solutions(sub_model(found.model, range(len(found.model.constraints)), rest), 2)) == 2


def count_by_command(path: str, capsys) -> int:
    """The count ``trisolve solve --count`` gives for a level file (complete)."""
    capsys.readouterr()
    assert run_cli(["solve", path, "--count", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["complete"] is True
    return data["count"]


def test_a_sudoku_without_a_given_made_unique_again_by_the_extra_givens(tmp_path, capsys) -> None:
    """sudoku01 less its given 8 at row 2, column 5 has several solutions: explain names the backbone and
    extra givens; written into the grid, they leave one solution, counted by ``trisolve solve --count``."""
    text = edited("sudoku/sudoku01.txt", "sudoku ", 1, 4, ".")
    level = trisolve.load(text, "sudoku")
    model = FAMILIES["sudoku"].constraints(level.model)
    found = trisolve.explain(level)
    assert found.kind == "several" and not found.findings and found.givens_count == "1"
    every = solutions(model)
    assert len(every) > 1 and set(found.backbone) == frozenset.intersection(*every)
    cell_of = {lit: (v.key, value) for v in model.ints for value, lit in zip(v.values, v.literals)}
    grid = text
    for given in found.givens:
        assert given > 0  # a digit in a cell: something a Sudoku grid can say
        (_, row, col), digit = cell_of[given]
        grid = edited_text(grid, "sudoku ", row, col, str(digit))
    path = tmp_path / "sudoku.txt"
    path.write_text(text)
    assert count_by_command(str(path), capsys) == len(every) > 1
    path.write_text(grid)
    assert count_by_command(str(path), capsys) == 1


def test_a_logic_grid_without_a_clue_made_unique_again_by_the_extra_givens(tmp_path, capsys) -> None:
    """Einstein's riddle less its clue 14 (twelve solutions): the extra givens, written as ``at``/``not_at``
    clues, leave one solution (``trisolve solve --count``)."""
    with open(EINSTEIN) as handle:
        text = handle.read()
    text = text[: text.index("[[clues]]  # clue 14")] + text[text.index("[[clues]]  # clue 15") :]
    path = tmp_path / "einstein-less.toml"
    path.write_text(text)
    level = trisolve.load(str(path))
    model = FAMILIES["logic"].constraints(level.model)
    found = trisolve.explain(level)
    assert found.kind == "several" and not found.findings and found.givens_count == "1"
    assert count_by_command(str(path), capsys) == len(solutions(model)) > 1
    value_of = {lit: (v.key[1], value) for v in model.ints for value, lit in zip(v.values, v.literals)}
    for given in found.givens:
        name, position = value_of[abs(given)]
        text += f'\n[[clues]]\n{"at" if given > 0 else "not_at"} = ["{name}", {position}]\n'
    path.write_text(text)
    assert count_by_command(str(path), capsys) == 1


# ------------------------------------------------------------------ hints


def test_hint_from_a_partial_board(tmp_path) -> None:
    level, model = model_of(EINSTEIN)
    words = Words(model.freeze())
    (unique,) = solutions(model)
    right = sorted(unique, key=abs)[:20]
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(words.facts(right)))
    found = trisolve.explain(level, hint=True, partial=str(partial))
    assert found.kind == "hint" and not found.wrong and len(found.steps) == 1
    (step,) = found.steps
    assert step.fact in unique and step.fact not in right and set(step.facts) <= set(right)
    assert found.checks[0].verdict == "no solution"


def test_hint_names_the_wrong_entries(tmp_path) -> None:
    level, model = model_of(EINSTEIN)
    words = Words(model.freeze())
    brit = next(v for v in model.ints if "Brit" in str(v.key))
    partial = tmp_path / "partial.json"
    (unique,) = solutions(model)
    wrong_brit = next(lit for lit in brit.literals if lit not in unique)
    entries = ["position of Norwegian is 2", words.fact(brit.eq(3)), words.fact(wrong_brit)]
    partial.write_text(json.dumps(entries))
    found = trisolve.explain(level, hint=True, partial=str(partial))
    expected = [entry for entry, lit in zip(entries, found.known) if lit not in unique]
    assert words.facts(found.wrong) == expected == ["position of Norwegian is 2", words.fact(wrong_brit)]
    assert not found.steps
    # each wrong entry confirmed by the second paradigm: with the whole puzzle, it leaves no solution
    assert [c.verdict for c in found.checks] == ["no solution", "no solution"]


# ------------------------------------------------------------------ the command


def run(*args: str):
    return CliRunner().invoke(cli, ["explain", *args], catch_exceptions=False)


def test_command_text_and_json() -> None:
    result = run(EINSTEIN, "-q")
    assert result.exit_code == 0, result.output
    assert "checked by CP (OR-Tools CP-SAT): no solution" in result.output
    assert "complete" in result.output.splitlines()[-1]
    result = run(EINSTEIN, "-q", "--json", "--no-check")
    data = json.loads(result.output)
    assert data["kind"] == "steps" and not data["partial"] and len(data["steps"]) == 125
    assert all(step["check"] == "unchecked" for step in data["steps"])


def test_command_timeout_is_partial_exit_3() -> None:
    result = run(EINSTEIN, "-q", "--json", "--timeout", "0.05")
    assert result.exit_code == 3
    assert json.loads(result.output)["partial"] is True


@pytest.mark.parametrize(
    "args",
    [
        ["missing.toml"],
        [EINSTEIN, "--partial", "p.json"],
        [EINSTEIN, "--timeout", "-1"],
        [EINSTEIN, "--step", "2"],
    ],
)
def test_command_bad_input_exits_2_with_one_line(args: list[str], capsys) -> None:
    assert run_cli(["explain", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1, captured.err


def test_command_bad_partial_names_the_file_and_fact(tmp_path, capsys) -> None:
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(["position of Brit is 3", "the moon is 4"]))
    assert run_cli(["explain", EINSTEIN, "--hint", "--partial", str(partial)]) == 2
    err = capsys.readouterr().err
    assert "fact 2" in err and str(partial) in err and len(err.strip().splitlines()) == 1


def test_pictures_one_per_step(tmp_path) -> None:
    import xml.etree.ElementTree as ElementTree

    folder = tmp_path / "steps"
    result = run(EINSTEIN, "-q", "--no-check", "--svg", str(folder))
    assert result.exit_code == 0
    pictures = sorted(os.listdir(folder))
    assert len(pictures) == 125 and pictures[0] == "step-001.svg"
    root = ElementTree.parse(folder / "step-125.svg").getroot()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("✓") == 25 and texts.count("✗") == 100  # the whole solution is known after the last step
    assert run(EINSTEIN, "-q", "--no-check", "--svg", str(tmp_path / "one"), "--step", "3").exit_code == 0
    assert os.listdir(tmp_path / "one") == ["step-003.svg"]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sudoku02", "sudoku15"])
def test_sudokus_explained_completely_each_step_checked(name: str) -> None:
    """Every one of a shipped Sudoku's 729 facts derived step by step, each step confirmed by CP-SAT; the
    steps rebuild the published solution (scripts/bench_explain.py runs all fifteen)."""
    level = trisolve.load(os.path.join(ROOT, "levels", "sudoku", f"{name}.txt"))
    found = trisolve.explain(level, timeout=300)  # about 40 s of CPU each (docs/bench/explain.md)
    assert found.kind == "steps" and not found.partial and not found.findings
    assert len(found.steps) == len(found.checks) == 81 * 9
    assert all(claim.verdict == "no solution" for claim in found.checks)
    assert_steps_rebuild_the_solution(level, found)


def assert_steps_rebuild_the_solution(level: trisolve.Level, found: Explanation) -> None:
    """Each step's facts were known before it and its fact was not; the steps in order rebuild the unique
    solution (the one clingo finds)."""
    known: set[int] = set()
    for step in found.steps:
        assert set(step.facts) <= known and step.fact not in known
        known.add(step.fact)
    rebuilt = found.model.decode(step.fact for step in found.steps if step.fact > 0)
    assert level.kind.validate(level.model, rebuilt) == []
    assert rebuilt == trisolve.solve(level, backend="clingo").solutions[0].model


@pytest.mark.parametrize("path", ["hexiom/level04.txt", "hexiom/level10.txt", "sigils/corners-6x6.txt"])
def test_other_families_explain(path: str) -> None:
    level = trisolve.load(os.path.join(ROOT, "levels", path))
    found = trisolve.explain(level, timeout=120)
    assert not found.findings
    assert found.kind in ("steps", "several", "unsolvable")
    assert all(claim.agrees for claim in found.checks)
    if found.kind == "steps" and not found.partial:
        rebuilt = found.model.decode(step.fact for step in found.steps if step.fact > 0)
        assert level.kind.validate(level.model, rebuilt) == []


def test_a_check_that_disagrees_is_a_finding_exit_1(monkeypatch, capsys) -> None:
    """A second paradigm that finds a solution where the SAT solver found none: reported, exit code 1."""
    from trisolve.explaining import check

    def wrong(self, model, seconds):
        self.calls += 1
        return check.Verdict("a solution", 0.0)

    monkeypatch.setattr(check.Checker, "satisfiable", wrong)
    assert run_cli(["explain", EINSTEIN, "-q", "--json", "--timeout", "20"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["findings"] and "finds a solution where the SAT solver found no solution" in data["findings"][0]
    assert data["findings"][0].count('"') >= 2  # names the step's units in the puzzle's words


def test_a_claim_the_checker_does_not_settle_in_time_goes_to_the_other_paradigm(monkeypatch, capsys) -> None:
    """CP-SAT out of time on every claim: clingo (ASP, a paradigm other than SAT too) settles each, and each
    step says it was clingo that checked it."""
    from trisolve.explaining import check

    monkeypatch.setattr(check.Checker, "_cpsat", staticmethod(lambda model, seconds: "unknown"))
    found = trisolve.explain(trisolve.load(EINSTEIN), check="cpsat", timeout=120)
    assert not found.partial and len(found.checks) == len(found.steps) == 125
    assert all(c.verdict == "no solution" and c.by == check.CHECKERS["clingo"] for c in found.checks)
    assert "checked by ASP (clingo): no solution" in found.text()
    assert run_cli(["explain", EINSTEIN, "-q", "--json", "--timeout", "60"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {step["checked_by"] for step in data["steps"]} == {check.CHECKERS["clingo"]}


def test_a_limit_during_compiling_is_a_partial_result(monkeypatch) -> None:
    """The time limit passing while the CNF is built ends the explanation as partial, not as an error."""
    from trisolve.backends import base
    from trisolve.explaining import reasoner

    def late(*args, **kwargs):
        raise base.OutOfTime

    monkeypatch.setattr(reasoner, "compile_selected", late)
    level, _ = model_of(EINSTEIN)
    found = trisolve.explain(level, timeout=5)
    assert found.partial and not found.steps


# ------------------------------------------------------------------ every family, in its words, with pictures

#: Small levels with one solution each (made by ``trisolve generate ... --unique``), and Hexiom level 4.
SMALL_LEVELS = {
    "hexiom": None,
    "sigils": "4x3\nS L L\n",
    "sudoku": "sudoku 4x4\n. . 1 .\n. 2 . .\n2 4 . .\n. . . .\n",
    "slither": "slither 4x4\n. . 3 .\n1 . . .\n3 1 . 2\n. . 1 3\n",
    "nurikabe": "nurikabe 5x5\n1 . 1 . .\n. . . . 2\n. . . . .\n3 . . 3 .\n. . . . 1\n",
}


def small_level(family: str) -> trisolve.Level:
    text = SMALL_LEVELS[family]
    if text is None:
        return trisolve.load(os.path.join(ROOT, "levels", "hexiom", "level04.txt"))
    return trisolve.load(text, family)


@pytest.mark.parametrize("family", sorted(SMALL_LEVELS))
def test_every_board_family_explained_in_its_words_with_pictures(family: str) -> None:
    """Complete, each step confirmed by CP-SAT, the steps rebuild the unique solution; each fact reads in the
    puzzle's words (no bare variable key), and each step's picture is an SVG of the board with the new fact,
    the facts used and the units used marked."""
    import xml.etree.ElementTree as ElementTree

    level = small_level(family)
    found = trisolve.explain(level, timeout=120)
    assert found.kind == "steps" and not found.partial and not found.findings
    assert len(found.checks) == len(found.steps) > 0
    assert all(claim.verdict == "no solution" for claim in found.checks)
    known: list[int] = []
    for step in found.steps:
        assert set(step.facts) <= set(known) and step.fact not in known
        known.append(step.fact)
    (unique,) = solutions(found.model)
    assert set(known) == set(unique)
    rebuilt = found.model.decode(lit for lit in known if lit > 0)
    assert level.kind.validate(level.model, rebuilt) == []
    assert level.kind.step_picture is not None
    words = found.words
    assert all(words.fact(lit).startswith("the ") for lit in (*unique, *(-lit for lit in unique)))
    svg = "{http://www.w3.org/2000/svg}"
    tinted = 0
    for number, step in enumerate(found.steps, start=1):
        root = ElementTree.fromstring(found.picture(number))
        assert root.tag == f"{svg}svg"
        classes = [set(element.get("class", "").split()) for element in root.iter()]
        assert sum("new-fact" in c for c in classes) >= 1
        if step.facts:
            assert any("used-fact" in c for c in classes)
        tinted += any("unit" in c for c in classes)
        caption = " ".join(t.text or "" for t in root.iter(f"{svg}text"))
        assert words.fact(step.fact) in caption
        assert all(unit.label in caption for unit in step.units)
    assert tinted > 0  # the cells or clues of some step's constraints are marked


def test_pictures_of_a_board_by_the_command(tmp_path) -> None:
    hexiom = os.path.join(ROOT, "levels", "hexiom", "level04.txt")
    result = run(hexiom, "-q", "--no-check", "--svg", str(tmp_path), "--step", "3")
    assert result.exit_code == 0, result.output
    assert os.listdir(tmp_path) == ["step-003.svg"]
    text = (tmp_path / "step-003.svg").read_text()
    assert 'class="cell new-fact' in text and "step 3 of" in text


def test_a_picture_of_a_step_that_is_not_there() -> None:
    found = trisolve.explain(small_level("sudoku"), check=None)
    with pytest.raises(ValueError, match="steps"):
        found.picture(len(found.steps) + 1)
    from trisolve.explaining.explain import explain

    table = explain(found.model, check=None)  # no level: the table of variables
    assert "<svg" in table.picture(1)


@pytest.mark.parametrize("family", ["slither", "nurikabe"])
def test_graph_units_asked_lazily_answer_as_the_reachability_levels(family: str) -> None:
    """A unit with a graph constraint (the loop, a connected set) is asked on the lazy CNF with cuts; with the
    facts of the solution's first half known, it forces exactly what the same unit stated eagerly forces."""
    from trisolve.constraints import Connected, SingleCycle
    from trisolve.explaining.reasoner import LazyLocal, Local, Reasoner

    model = FAMILIES[family].constraints(small_level(family).model).freeze()
    units = units_of(model)
    (unique,) = solutions(model)
    known = sorted(unique, key=abs)[: len(unique) // 2]
    with Reasoner(model, units, None) as reasoner:
        for unit in units:
            if not any(isinstance(model.constraints[i], (Connected, SingleCycle)) for i in unit.constraints):
                continue
            selector = reasoner.selector[unit.label]
            lazy = reasoner.local([selector])
            eager = Local(reasoner.clauses_of([selector]), None)
            assert isinstance(lazy, LazyLocal)
            facts = [f for f in known if abs(f) in unit.scope]
            for fact in unique:
                if abs(fact) in unit.scope and fact not in facts:
                    assert lazy.solve([*facts, -fact]) == eager.solve([*facts, -fact])
            eager.close()


@pytest.mark.parametrize("family", ["slither", "nurikabe"])
def test_a_ring_of_switchable_units_asked_lazily_answers_as_the_reachability_levels(family: str) -> None:
    """A ring of several units, each switched on by assuming its selector (what ``_several_units`` asks):
    over the lazy CNF, with the cuts of a graph unit guarded by its selector, it answers as the same units
    stated eagerly, whichever units are on.  An assignment that breaks the graph unit's rule is refused while
    the unit is on (the cuts that refuse it are learnt then) and accepted once it is off: a cut must not bind
    a unit that is off."""
    from trisolve.constraints import semantics
    from trisolve.explaining.reasoner import LazyLocal, Local, Reasoner

    model = FAMILIES[family].constraints(small_level(family).model).freeze()
    units = units_of(model)
    (unique,) = solutions(model)
    known = sorted(unique, key=abs)[: len(unique) // 3]
    with Reasoner(model, units, None) as reasoner:
        lazy, lazy_units = reasoner.switchable(units)
        eager = Local(reasoner.clauses_of([reasoner.selector[unit.label] for unit in units], switchable=True), None)
        assert isinstance(lazy, LazyLocal)
        lazy_selector = {unit.label: s for s, unit in lazy_units.items()}

        def on(off: list, selector) -> list[int]:
            return [selector[unit.label] for unit in units if unit not in off]

        for off in ([], list(units[::2])):
            for fact in unique:
                if fact not in known:
                    question = [*known, -fact]
                    assert lazy.solve([*on(off, lazy_selector), *question]) == eager.solve(
                        [*on(off, reasoner.selector), *question]
                    )
        broken = 0
        for unit in (unit for unit in units if reasoner.graph_of(unit)):
            (rule,) = reasoner.graph_of(unit)
            for _ in range(50):  # an assignment of the own variables that breaks only this unit's rule
                if not eager.solve(on([unit], reasoner.selector)):
                    break
                true = eager.true_variables()
                facts = [v if v in true else -v for v in model.own]
                if not semantics.holds(rule, lambda lit, true=true: (abs(lit) in true) == (lit > 0)):
                    assert not lazy.solve([*on([], lazy_selector), *facts])
                    assert lazy.solve([*on([unit], lazy_selector), *facts])
                    broken += 1
                    break
                eager.solver.add_clause(eager._inside([-f for f in facts]))
        assert broken, "no assignment breaks a graph rule alone: the test proves nothing"
        lazy.close()
        eager.close()


def test_a_connected_set_question_given_too_few_rounds_of_cuts_is_not_settled() -> None:
    """``LazyLocal.settle``: a question about a connected set that needs k rounds of cuts is answered, as the
    eager unit answers it, within k + 1 rounds, and not settled (None, never a wrong answer) within k; ``spent``
    says k.  Each solver is new, with no cuts from another."""
    from trisolve.explaining.reasoner import Local, Reasoner

    model = FAMILIES["nurikabe"].constraints(small_level("nurikabe").model).freeze()
    units = units_of(model)
    (unique,) = solutions(model)
    with Reasoner(model, units, None) as reasoner:
        sea = next(unit for unit in units if unit.label == "the shaded cells are connected")
        eager = Local(reasoner.clauses_of([reasoner.selector[sea.label]]), None)
        cut = 0
        scattered = [var if i % 2 else -var for i, var in enumerate(sorted(sea.scope))]

        def settled(question: list[int], effort: int) -> tuple[bool | None, int]:
            local = reasoner._lazy_solver([sea], set(), None)[0]
            local.set_phases(scattered)  # every other cell shaded: a first candidate in pieces
            try:
                return local.settle(question, effort), local.spent
            finally:
                local.close()

        for fact in unique:
            answer, rounds = settled([-fact], 10_000)
            assert answer == eager.solve([-fact])
            if rounds:
                cut += 1
                assert settled([-fact], rounds) == (None, rounds)
                assert settled([-fact], rounds + 1) == (answer, rounds)
        eager.close()
    assert cut, "no question needed a round of cuts: the test proves nothing"


def slither_explained(name: str, check: str | None, timeout: float) -> Explanation:
    """A shipped Slitherlink explained: complete, each step's facts known before it, the steps in order rebuild
    the unique solution (the one clingo finds)."""
    level = trisolve.load(os.path.join(ROOT, "levels", "slither", f"{name}.txt"))
    found = trisolve.explain(level, check=check, timeout=timeout)
    assert found.kind == "steps" and not found.partial and not found.findings
    assert len(found.steps) == len(level.model.edges)
    assert_steps_rebuild_the_solution(level, found)
    return found


def test_a_slitherlink_explained_completely_each_step_checked() -> None:
    """A 6x6 Slitherlink: every edge's fact derived, each step confirmed by CP-SAT.  The one-loop rule is asked
    only for what it did not force before; its steps use the known facts nearest their fact, so most are the
    "two lines or none at a point" kind, with a few facts around one point."""
    found = slither_explained("slither04", "cpsat", 120)
    assert all(claim.verdict == "no solution" for claim in found.checks)
    loop = [step for step in found.steps if [u.label for u in step.units] == ["the lines form one loop"]]
    assert loop and sum(len(step.facts) <= 3 for step in loop) >= len(loop) // 2


@pytest.mark.heavy
def test_a_10x10_slitherlink_explained_completely() -> None:
    """slither02 (10x10, 220 facts), unchecked, within its limit: about two minutes (docs/bench/explain.md),
    so it runs with ``pytest -m heavy``; the 6x6 above is the case CI runs."""
    slither_explained("slither02", None, 300)


@pytest.mark.slow
def test_a_published_nurikabe_explained_completely_each_step_checked() -> None:
    """nurikabe01 (10x10, 90 cells), each step confirmed by CP-SAT: most steps need several units (who owns
    a cell is not a fact, so an island's size and the rule for its neighbours meet only through it); about a
    minute (docs/bench/explain.md)."""
    level = trisolve.load(os.path.join(ROOT, "levels", "nurikabe", "nurikabe01.txt"))
    found = trisolve.explain(level, check="cpsat", timeout=600)
    assert found.kind == "steps" and not found.partial and not found.findings
    assert len(found.steps) == len(found.model.own)
    assert all(claim.verdict == "no solution" for claim in found.checks) and len(found.checks) == len(found.steps)
    assert_steps_rebuild_the_solution(level, found)
    assert any(len(step.units) > 2 for step in found.steps)


@pytest.mark.parametrize("hitting_solver", ["rc2", "ortools"])
def test_the_incremental_cpmpy_greedy_takes_a_cheapest_step_each_time(hitting_solver: str) -> None:
    """The bench's incremental CPMpy greedy (sets to hit kept from step to step), with either hitting-set solver,
    is the greedy of its definition: at each step its cost is that of a fresh ``ocus`` call on the same known
    facts, and the steps are all of the solution's facts.  Its total is the sum of those costs.  Each fact's
    floor (its cheapest explanation with every other fact known) is what a fresh ``ocus`` call gives there, and
    no more than the greedy's step for that fact; floors cut short after two hitting sets are no higher.  Told
    to stop once its least total reaches what it is after the first step dearer than its floor, the same greedy
    stops right after that step."""

    bench_explain = bench_module()
    level = trisolve.load(SMALL_SUDOKU, "sudoku")
    found = trisolve.explain(level, check=None)
    trace: list = []
    floors = bench_explain.greedy_floors(found.model, found.solution, hitting_solver)
    run = bench_explain.cpmpy_greedy_incremental(
        found.model, found.solution, time.monotonic() + 300, trace, hitting_solver=hitting_solver, floors=floors
    )
    assert run.complete and run.steps == len(found.solution) == len(trace)
    assert {fact for fact, _ in trace} == set(found.solution)
    assert run.total == run.at_least == sum(cost for _, cost in trace)
    assert all(floors[fact] <= cost for fact, cost in trace)
    cut = bench_explain.greedy_floors(found.model, found.solution, hitting_solver, calls=2)
    assert all(cut[fact] <= floors[fact] for fact in floors) and cut != floors  # cut short: lower, never higher
    in_cpmpy = bench_explain.cpmpy_units(found.model)
    order = sorted(found.solution, key=lambda f: (f < 0, abs(f)))
    for k in range(0, len(trace), 7):
        known = [fact for fact, _ in trace[:k]]
        assert fresh_ocus_cost(in_cpmpy, known, [f for f in order if f not in known]) == trace[k][1], f"step {k + 1}"
    for fact in order[::5]:
        assert fresh_ocus_cost(in_cpmpy, [f for f in order if f != fact], [fact]) == floors[fact], f"floor of {fact}"
    excess = [cost - floors[fact] for fact, cost in trace]
    stop = next(k for k in range(len(trace) + 1) if sum(excess[:k]) >= 1)  # some step costs more than its floor
    decided = bench_explain.cpmpy_greedy_incremental(
        found.model,
        found.solution,
        time.monotonic() + 300,
        hitting_solver=hitting_solver,
        floors=floors,
        decided_at=sum(floors.values()) + sum(excess[:stop]),
    )
    assert (decided.steps, decided.total, decided.complete) == (stop, sum(c for _, c in trace[:stop]), False)
    assert decided.at_least == sum(floors.values()) + sum(excess[:stop])


def test_the_cheapest_step_at_trisolves_states_is_what_ocus_finds_there() -> None:
    """The bench's ``cheapest_at_states``: for each of trisolve's steps, the cost of the cheapest step from the
    facts trisolve knew before it is what a fresh ``ocus`` call gives there, and no more than trisolve's step
    (trisolve's is one such step).  Only steps above the cost asked for get a row."""

    bench_explain = bench_module()
    level = trisolve.load(SMALL_SUDOKU, "sudoku")
    found = trisolve.explain(level, check=None)
    rows = list(bench_explain.cheapest_at_states(found.model, found.solution, found.steps, 0, time.monotonic() + 300))
    assert [row.number for row in rows] == list(range(1, len(found.steps) + 1))
    assert all(row.cost == found.steps[row.number - 1].cost for row in rows)
    assert all(row.cheapest is not None and row.cheapest <= row.cost for row in rows)
    in_cpmpy = bench_explain.cpmpy_units(found.model)
    for row in rows[::6]:
        known = [step.fact for step in found.steps[: row.number - 1]]
        unknown = [f for f in found.solution if f not in known]
        assert fresh_ocus_cost(in_cpmpy, known, unknown) == row.cheapest, f"step {row.number}"
    above = sorted({step.cost for step in found.steps})[-2]  # only the dearest steps
    deadline = time.monotonic() + 300
    dear = list(bench_explain.cheapest_at_states(found.model, found.solution, found.steps, above, deadline))
    assert [row.number for row in dear] == [n for n, step in enumerate(found.steps, 1) if step.cost > above]
    assert dear == [row for row in rows if row.number in {d.number for d in dear}]


@pytest.mark.parametrize("seed", range(12))
def test_smallest_finds_a_set_of_facts_no_smaller_set_does_the_job_of(seed: int) -> None:
    """``Oracle.smallest``: with ``fixed``, the part of ``soft`` it returns has no solution, and no smaller part
    of ``soft`` has none (checked over every smaller subset), on random small formulas where a fact is forced
    by a few facts or by one, so deletion alone may stop at a larger set."""
    import itertools
    import random

    from trisolve.explaining.reasoner import Local

    rng = random.Random(seed)
    facts = list(range(1, 9))
    forced = 9
    clauses = [[*(-f for f in rng.sample(facts, rng.randint(1, 4))), forced] for _ in range(5)]
    clauses += [[-rng.choice(facts), -rng.choice(facts)] for _ in range(2)]  # some facts exclude each other
    local = Local(clauses, None)
    soft = [f for f in facts if local.solve([f])]
    if local.solve([-forced, *soft]):
        soft = [f for f in soft if f not in {-lit for c in clauses[5:] for lit in c}]
    if local.solve([-forced, *soft]):
        pytest.skip("this seed's facts do not force it")
    found = local.smallest([-forced], soft)
    assert set(found) <= set(soft) and not local.solve([-forced, *found])
    for size in range(len(found)):
        for part in itertools.combinations(soft, size):
            assert local.solve([-forced, *part]), f"{part} is smaller than {found} and does the job"
    local.close()


@pytest.mark.slow
def test_each_einstein_step_costs_what_the_cheapest_step_there_costs() -> None:
    """At each state of trisolve's Einstein sequence (the known facts before a step), no set of units and known
    facts forces an unknown fact more cheaply than the step trisolve takes there: its cost is that of a fresh
    CPMpy ``ocus`` call over every unit, known fact and negated unknown fact.  Every fourth state, and each
    state where trisolve took a step of two units (where one unit alone needed more facts)."""

    bench_explain = bench_module()
    found = trisolve.explain(trisolve.load(os.path.join(ROOT, "levels", "logic", "einstein.toml")), check=None)
    assert not found.partial
    in_cpmpy = bench_explain.cpmpy_units(found.model)
    order = sorted(found.solution, key=lambda f: (f < 0, abs(f)))
    asked = [k for k, step in enumerate(found.steps) if k % 4 == 0 or len(step.units) > 1]
    assert any(len(found.steps[k].units) > 1 for k in asked)
    for k in asked:
        known = [step.fact for step in found.steps[:k]]
        unknown = [f for f in order if f not in known]
        assert found.steps[k].cost == fresh_ocus_cost(in_cpmpy, known, unknown), f"step {k + 1}"


@pytest.mark.parametrize("name", ["slither04", "slither02"])
def test_a_loop_forces_what_the_eager_loop_forces_with_solutions_kept_from_look_to_look(name: str) -> None:
    """The loop's group is asked from the solution's phases and keeps each solution it finds (``apart``) from
    one look to the next.  After each batch of facts learnt, what it has found forced is exactly what the
    same unit stated eagerly forces with those facts; every kept solution keeps the loop rule and contradicts
    no known fact; and each variable a kept solution shows for a pair of the loop and a clue has a solution of
    both with the known facts that leaves the target there."""
    from trisolve.constraints import SingleCycle, semantics
    from trisolve.explaining.reasoner import Local, Reasoner
    from trisolve.explaining.steps import Step, Stepper

    level = trisolve.load(os.path.join(ROOT, "levels", "slither", f"{name}.txt"))
    model = FAMILIES["slither"].constraints(level.model).freeze()
    units = units_of(model)
    (unique,) = solutions(model)
    order = sorted(unique, key=abs)
    with Reasoner(model, units, None) as reasoner, Stepper(reasoner, unique) as stepper:
        (loop,) = [u for u, unit in enumerate(units) if reasoner.graph_of(unit)]
        (rule,) = [c for c in reasoner.graph_of(units[loop]) if isinstance(c, SingleCycle)]
        eager = Local(reasoner.clauses_of([reasoner.selector[units[loop].label]]), None)
        clue = next(u for u, unit in enumerate(units) if u != loop and unit.scope)
        both = Local(reasoner.clauses_of([reasoner.selector[units[u].label] for u in (loop, clue)]), None)
        kept = shown = 0
        for batch in range(4):
            stepper._look_at_graph((loop,))
            known = set(stepper.known)
            for fact in stepper.unknown:
                assert (fact in stepper.forced[(loop,)]) == (not eager.solve([*known, -fact])), fact
            for apart in stepper.apart[loop]:
                assert not apart & {abs(f) for f in known}
                assert semantics.holds(rule, lambda lit, apart=apart: (lit in unique) != (abs(lit) in apart))
            kept += len(stepper.apart[loop])
            for var in stepper._shown((loop, clue)):
                target = var if var in unique else -var
                assert both.solve([*known, -target]), target
                shown += 1
            for fact in order[batch * len(order) // 8 : (batch + 1) * len(order) // 8]:
                stepper.learn(Step(fact, (units[loop],), ()))
        assert kept and shown, "no solution was kept or shown for a pair: the test proves nothing"
        eager.close()
        both.close()


def test_a_deletion_whose_question_is_not_settled_keeps_the_fact() -> None:
    """``Oracle.shrink`` with an effort budget: a part whose question is not settled (``settle`` gives None)
    is taken to have a solution, so its fact is kept; the set kept still has no solution."""
    from trisolve.explaining.reasoner import Local

    class Unsettled(Local):
        def settle(self, assumptions, effort):
            return None

    clauses = [[-1, 3], [-2, 3]]  # 1 forces 3, and so does 2
    plain, unsettled = Local(clauses, None), Unsettled(clauses, None)
    assert plain.shrink([-3], [1, 2], effort=10) in ([1], [2])
    assert unsettled.shrink([-3], [1, 2], effort=10) in ([1], [2])  # the first core has one fact already
    chained = [[-1, -2, 3], [-4, 1], [-4, 2]]  # 4 forces 1 and 2, which together force 3
    plain, unsettled = Local(chained, None), Unsettled(chained, None)
    kept = unsettled.shrink([-3], [4, 1, 2], effort=10)
    assert not unsettled.solve([-3, *kept]) and len(kept) >= len(plain.shrink([-3], [4, 1, 2]))


def test_a_deletion_told_what_is_enough_stops_once_that_much_is_needed() -> None:
    """``Oracle.shrink(..., enough=k)``: once k members are shown to be needed it stops; the set kept still has
    no solution and has at least k members.  Without a reason to stop it gives what the plain deletion gives."""
    from trisolve.explaining.reasoner import Local

    chained = [[-1, -2, -5, 3], [-4, 1], [-4, 2]]  # 1, 2 and 5 together force 3 (so does 4 with 5)
    local = Local(chained, None)
    whole = local.shrink([-3], [1, 2, 5, 4])
    assert local.shrink([-3], [1, 2, 5, 4], enough=len(whole) + 1) == whole
    for enough in range(1, len(whole) + 1):
        kept = local.shrink([-3], [1, 2, 5, 4], enough=enough)
        assert not local.solve([-3, *kept]) and len(kept) >= enough
    local.close()


#: A Nurikabe with four solutions (the 2's island goes one of four ways) and one with none.
SEVERAL_NURIKABE = "nurikabe 3x3\n. . .\n. 2 .\n. . .\n"
NO_NURIKABE = "nurikabe 5x5\n1 . 1 . .\n. . . . .\n. . . . .\n3 . . 3 .\n. . . . 1\n"


@pytest.mark.parametrize(
    "family, text",
    [
        ("nurikabe", SMALL_LEVELS["nurikabe"]),
        ("nurikabe", SEVERAL_NURIKABE),
        ("nurikabe", NO_NURIKABE),
        ("slither", SMALL_LEVELS["slither"]),
        ("sudoku", SMALL_LEVELS["sudoku"]),
    ],
)
def test_the_first_solutions_are_solutions_two_when_there_are_several(family: str, text: str) -> None:
    """``Reasoner.solutions`` (a lazy solver over every unit when there are graph rules, else the reasoner's
    own): none when the referee finds none, the only one when it finds one, and two different solutions of
    the referee's when it finds several."""
    from trisolve.explaining.reasoner import Reasoner

    model = FAMILIES[family].constraints(trisolve.load(text, family).model).freeze()
    every = solutions(model)
    with Reasoner(model, units_of(model), None) as reasoner:
        found = [own_literals(model, true) for true in reasoner.solutions()]
    assert len(found) == min(len(every), 2)
    assert all(solution in every for solution in found) and len(set(found)) == len(found)


@pytest.mark.parametrize("name", ["small", "nurikabe10"])
def test_pairs_of_a_graph_unit_left_out_force_nothing_it_does_not_and_the_rest_are_asked_enough(name: str) -> None:
    """Pairs of a Nurikabe's sea or an island with another unit: one judged idle (``Stepper._idle``: the partner
    lets every assignment of what they share be, or is a clause a known fact satisfies) forces, with the known
    facts, only what its graph unit alone forces (stated eagerly, with the same facts); every other forces only
    facts among those asked (``_forced_with_partners``).  Checked as facts of the solution are learnt."""
    from trisolve.explaining.reasoner import Local, Reasoner
    from trisolve.explaining.steps import Step, Stepper

    if name == "small":
        level = small_level("nurikabe")
    else:
        level = trisolve.load(os.path.join(ROOT, "levels", "nurikabe", f"{name}.txt"))
    model = FAMILIES["nurikabe"].constraints(level.model).freeze()
    units = units_of(model)
    (unique,) = solutions(model)
    order = sorted(unique, key=abs)
    idle = busy = 0
    with Reasoner(model, units, None) as reasoner, Stepper(reasoner, unique) as stepper:
        stepper._add_pairs()

        def eager(group: tuple[int, ...]) -> Local:
            return Local(reasoner.clauses_of([reasoner.selector[units[u].label] for u in group]), None)

        for batch in range(3):
            known = list(stepper.known)
            for pair in stepper.levels[1]:
                graph = [u for u in pair if (u,) in stepper.near]
                if not graph:
                    continue
                both, alone = eager(pair), eager((graph[0],))
                forced = {f for f in stepper.unknown if not both.solve([*known, -f])}
                if stepper._idle(pair):
                    idle += 1
                    assert all(not alone.solve([*known, -f]) for f in forced), (pair, batch)
                else:
                    busy += 1
                    assert forced <= stepper._forced_with_partners(graph[0]), (pair, batch)
                both.close()
                alone.close()
            for fact in order[batch * len(order) // 3 : (batch + 1) * len(order) // 3]:
                stepper.learn(Step(fact, (units[0],), ()))
    assert idle and busy, "every pair idle or none: the test proves nothing"
