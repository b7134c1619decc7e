"""Sudoku: what only this family has.  The text format's errors, the validator's verdicts, the pictures, the
symmetries that keep the boxes, and every 4x4 sudoku against clingo:hand's counts (links and the published
puzzles: test_puzzlink.py)."""

from __future__ import annotations

import random

import pytest
from puzzlink_brute import sudoku_grids, sudoku_solutions
from support import level_path

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.models import FAMILIES, LevelSyntaxError
from trisolve.models.sudoku import model
from trisolve.models.sudoku.model import Level, Solution

FAMILY = FAMILIES["sudoku"]
GRID = ((1, 2, 3, 4), (3, 4, 1, 2), (2, 1, 4, 3), (4, 3, 2, 1))


def grid(*rows: str) -> Solution:
    return Solution(tuple(tuple(int(d) for d in row) for row in rows))


# ------------------------------------------------------------------ the text format


def test_a_level_file_reads_givens() -> None:
    level = model.parse_text("sudoku 4x4\n1 . . .\n. . 2 .\n....\n...4  # the last row\n", "x.txt")
    assert level.givens == (1, None, None, None, None, None, 2, None) + (None,) * 7 + (4,)
    assert level.box == (2, 2)


def test_sixteen_by_sixteen_takes_numbers_above_nine() -> None:
    rows = ["16 " + " ".join(["."] * 15)] + [" ".join(["."] * 16)] * 15
    level = model.parse_text("sudoku 16x16\n" + "\n".join(rows) + "\n")
    assert level.givens[0] == 16 and level.box == (4, 4)
    assert model.parse_text(model.format_level(level)).givens == level.givens


BAD_FILES = [
    ("sudoku 5x5\n", 1, "a 5x5 sudoku: the grids are 4x4, 6x6 (boxes 3 wide and 2 tall), 9x9, 16x16 or 25x25"),
    ("sudoku 9x6\n", 1, "a 9x6 sudoku"),
    ("sudoku 100x100\n", 1, "sudoku grids are at most 25x25"),
    ("sudoku 4x4\n1...\n..2.\n....\n...0\n", 5, "0 is out of range: the digits of a 4x4 sudoku are 1-4"),
    ("sudoku 4x4\n1...\n..2.\n....\n...5\n", 5, "5 is out of range"),
    ("sudoku 4x4\n1...\n..?.\n....\n....\n", 3, "a given without its digit ('?') means nothing in sudoku"),
    ("sudoku 4x4\n1...\n..a.\n....\n....\n", 3, "unexpected 'a': expected '.' (to fill) or a digit 1-4"),
    ("sudoku 4x4\n1...\n....\n....\n", 4, "a 4x4 grid has 4 rows, found 3"),
]


@pytest.mark.parametrize("text, line, words", BAD_FILES, ids=[w[:40] for _, _, w in BAD_FILES])
def test_a_bad_file_names_the_line_and_what_was_expected(text: str, line: int, words: str) -> None:
    with pytest.raises(LevelSyntaxError) as caught:
        model.parse_text(text, "bad.txt")
    assert caught.value.line == line and words in caught.value.message
    assert str(caught.value).startswith(f"bad.txt:{line}")


def test_two_equal_givens_in_a_unit_are_an_obstruction() -> None:
    level = model.parse_text("sudoku 4x4\n1...\n.1..\n....\n....\n")
    assert level.obstruction == "the 1s at (0, 0) and (1, 1) share a box"
    assert model.parse(level_path("sudoku", "small-no-grid")).obstruction is None


# ------------------------------------------------------------------ the referee


ONE_GIVEN = Level(4, (1,) + (None,) * 15)


def rules(solution: Solution, level: Level = ONE_GIVEN) -> list[str]:
    return [v.rule for v in model.validate(level, solution)]


def test_a_valid_grid() -> None:
    assert rules(Solution(GRID)) == []


def test_each_rule_is_named_when_broken() -> None:
    assert rules(grid("2134", "3412", "1243", "4321")) == ["given"]  # a valid grid, but the 1 is not kept
    assert sorted(rules(grid("1234", "1234", "3412", "3412"))) == ["box"] * 8 + ["column"] * 8
    assert sorted(rules(grid("1234", "3412", "2143", "4331"))) == ["box", "column", "row"]
    assert rules(grid("1234", "3412", "2143")) == ["shape"]
    assert rules(grid("1234", "3412", "2150", "4321")) == ["digit", "digit"]


def test_a_solution_reads_back_from_its_json_exactly() -> None:
    level = Level(4, (None,) * 16)
    assert Solution(GRID).to_json() == {"grid": [list(row) for row in GRID]}
    assert model.solution_from_json(level, Solution(GRID).to_json()) == Solution(GRID)
    with pytest.raises(ValueError):
        model.solution_from_json(level, {"grid": [[1, 2, 3, "4"]]})


# ------------------------------------------------------------------ text and pictures


def test_render_marks_the_boxes() -> None:
    level = Level(6, (1,) + (None,) * 35)
    text = model.render(level)
    assert text.splitlines()[0] == "1 . . | . . ."
    assert text.splitlines()[2] == "------+------"
    drawn = model.render(Level(4, (None,) * 16), Solution(GRID))
    assert drawn == "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n"


def test_the_picture_shows_givens_bold_and_the_rest_in_blue() -> None:
    level = Level(4, (1,) + (None,) * 15, name="tiny")
    svg = FAMILY.picture(level, Solution(GRID))
    assert svg.count('font-weight="bold"') == 1 and svg.count("#1f5fa8") == 15 and "Sudoku tiny 4x4, solved" in svg


# ------------------------------------------------------------------ symmetries


def test_symmetries_keep_the_boxes() -> None:
    assert len(Level(4, (None,) * 16).symmetries) == 8
    assert len(Level(6, (None,) * 36).symmetries) == 4  # a quarter turn makes boxes 2 wide and 3 tall
    level = model.parse(level_path("sudoku", "small-two-givens"))
    for found in sudoku_solutions(level.givens):
        solution = Solution(tuple(tuple(found[r * 4 : r * 4 + 4]) for r in range(4)))
        assert all(model.validate(level, image) == [] for image in FAMILY.images(level, solution))


# ------------------------------------------------------------------ brute force against clingo:hand


def test_the_brute_force_knows_every_4x4_sudoku() -> None:
    grids = sudoku_grids()
    assert len(grids) == 288
    empty = Level(4, (None,) * 16)
    assert all(rules(Solution(tuple(tuple(g[r * 4 : r * 4 + 4]) for r in range(4))), empty) == [] for g in grids)


def random_givens(rng: random.Random) -> tuple:
    givens = [None] * 16
    for cell in rng.sample(range(16), rng.randint(0, 5)):
        givens[cell] = rng.randint(1, 4)
    return tuple(givens)


GIVENS = [random_givens(random.Random(seed)) for seed in range(40)]


@pytest.mark.parametrize("givens", GIVENS, ids=[f"seed{seed}" for seed in range(40)])
def test_every_4x4_sudoku_counted_by_clingo_hand(givens: tuple) -> None:
    level = Level(4, givens)
    brute = set(sudoku_solutions(givens))
    result = registry.get("clingo:hand", "sudoku").run(level, Limits(time=60), Options(enumerate=True))
    assert result.complete and result.count == len(brute)
    assert {tuple(d for row in s.grid for d in row) for s in result.solutions} == brute
    assert all(model.validate(level, s) == [] for s in result.solutions)
