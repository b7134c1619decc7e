"""Answers say how sure they are: a logic answer is determined only when no other solution gives another."""

from __future__ import annotations

import json

import pytest
from support import level_path, run_cli

import trisolve
from trisolve.models.logic import model as logic

#: two solutions: Kim has the red car in one, Max in the other
TWO = """\
positions = 2
question = { value = "red", category = "owner", text = "Who has the red car?" }

[categories]
owner = ["Kim", "Max"]
car = ["red", "blue"]

[[clues]]
same = ["Kim", "red"]
"""


@pytest.fixture
def two(tmp_path):
    path = tmp_path / "two.toml"
    path.write_text(TWO.replace('[[clues]]\nsame = ["Kim", "red"]\n', ""))
    return path


@pytest.mark.parametrize("backend", ["pysat", "clingo", "cpsat"])
def test_a_first_solution_of_a_puzzle_with_two_says_the_answer_is_not_determined(two, backend):
    result = trisolve.solve(two, backend=backend)
    (found,) = result.answers()
    assert not found.determined
    assert found.value in ("Kim", "Max") and found.others == ({"Kim": "Max", "Max": "Kim"}[found.value],)
    assert "not determined" in found.text() and "in another solution" in found.text()


def test_a_unique_puzzle_answers_firmly_and_says_so_in_json(capsys):
    assert run_cli(["solve", level_path("logic", "einstein"), "--json", "-q"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["answers"] == [
        {"question": "Who owns the fish?", "answer": "German", "position": 4, "determined": True}
    ]


def test_the_command_prints_not_determined_and_json_carries_it(two, capsys):
    assert run_cli(["solve", str(two), "--backend", "pysat"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("Who has the red car?"))
    assert "not determined" in line
    assert run_cli(["solve", str(two), "--backend", "pysat", "--json"]) == 0
    (answer,) = json.loads(capsys.readouterr().out)["answers"]
    assert answer["determined"] is False and {answer["answer"], *answer["others"]} == {"Kim", "Max"}


def test_a_complete_count_of_one_settles_the_answer_without_another_run(tmp_path):
    path = tmp_path / "one.toml"
    path.write_text(TWO + '[[clues]]\nat = ["Kim", 1]\n')
    counted = trisolve.solve(path, backend="pysat", count=True)
    assert (counted.count, counted.complete) == (1, True)
    (found,) = counted.answers(settle=False)
    assert found.determined and found.value == "Kim"


def test_without_settling_a_first_solution_is_not_determined():
    result = trisolve.solve(level_path("logic", "einstein"), backend="pysat")
    (found,) = result.answers(settle=False)
    assert not found.determined and found.why == "a second solution was not ruled out"
    (settled,) = result.answers()
    assert settled.determined


def test_answers_of_solutions_that_agree_but_are_not_all_found_are_not_determined():
    level = logic.parse_text(TWO.replace('same = ["Kim", "red"]', 'at = ["red", 1]'))
    one = logic.Solution.of(level, [[1, 2], [1, 2]])
    (found,) = logic.answers(level, [one, one], complete=False)
    assert not found.determined and "more were not ruled out" in found.why
    (firm,) = logic.answers(level, [one], complete=True)
    assert firm.determined and firm.text() == "Who has the red car? Kim (position 1)"


def test_a_listing_ends_with_the_answer_over_every_solution(two, capsys):
    assert run_cli(["solve", str(two), "--backend", "pysat", "--all"]) == 0
    out = capsys.readouterr().out
    last = [line for line in out.splitlines() if line.startswith("Who has the red car?")][-1]
    assert "not determined" in last and "in another solution" in last
