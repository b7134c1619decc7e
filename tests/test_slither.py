"""Slitherlink: what only this family has.  The text format's errors, the validator's verdicts, the pictures,
the grid's symmetries, and every loop of a 3x3 grid against clingo:hand's counts (links and the published
puzzles: test_puzzlink.py)."""

from __future__ import annotations

import random

import pytest
from puzzlink_brute import loops, slither_solutions
from support import level_path

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.models import FAMILIES, LevelSyntaxError
from trisolve.models.errors import InstanceTooLarge
from trisolve.models.slither import model
from trisolve.models.slither.model import UNKNOWN, Level, Solution

FAMILY = FAMILIES["slither"]

SQUARE = Solution.of([((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (1, 0)), ((1, 0), (0, 0))])


# ------------------------------------------------------------------ the text format


def test_a_level_file_reads_clues_numbers_and_question_marks() -> None:
    level = model.parse_text("# a comment\nslither 3x2\n3 . ?\n0 . 4  # the last row\n", "x.txt")
    assert (level.width, level.height) == (3, 2)
    assert level.clues == (3, None, UNKNOWN, 0, None, 4)
    assert model.parse_text("slither 3x2\n3.?\n0.4\n").clues == level.clues  # rows written together


def test_format_level_reads_back() -> None:
    level = model.parse(level_path("slither", "slither12"))
    assert model.parse_text(model.format_level(level)).clues == level.clues


BAD_FILES = [
    ("", None, "empty file: expected 'slither WxH'"),
    ("slither\n", 1, "expected 'slither WxH' (e.g. 'slither 5x5') on the first line, found 'slither'"),
    ("nurikabe 2x2\n. .\n. .\n", 1, "expected 'slither WxH'"),
    ("slither 0x0\n", 1, "a grid is at least 1x1, found 0x0"),
    ("slither 2x2\n. .\n", 2, "a 2x2 grid has 2 rows, found 1"),
    ("slither 2x2\n. .\n. .\n. .\n", 4, "a 2x2 grid has 2 rows; this is row 3"),
    ("slither 2x2\n. .\n. . .\n", 3, "row 2 of a 2x2 grid has 2 cells, found 3"),
    ("slither 2x2\n. .\n. 5\n", 3, "clue 5 is out of range: a cell has four sides (0-4)"),
    ("slither 2x2\n. .\n. x\n", 3, "unexpected 'x': expected '.' (no clue), a clue 0-4 or '?'"),
    ("slither 2x2\n. .\n. -1\n", 3, "unexpected '-1'"),
]


@pytest.mark.parametrize("text, line, words", BAD_FILES, ids=[w for _, _, w in BAD_FILES])
def test_a_bad_file_names_the_line_and_what_was_expected(text: str, line, words: str) -> None:
    with pytest.raises(LevelSyntaxError) as caught:
        model.parse_text(text, "bad.txt")
    assert caught.value.line == line and words in caught.value.message
    assert str(caught.value).startswith("bad.txt" + (f":{line}" if line else ""))


def test_a_clue_out_of_range_names_its_column() -> None:
    with pytest.raises(LevelSyntaxError) as caught:
        model.parse_text("slither 3x1\n1 2  7\n", "bad.txt")
    assert str(caught.value).startswith("bad.txt:2:6: clue 7 is out of range")


def test_a_huge_grid_is_refused_from_its_header() -> None:
    with pytest.raises(InstanceTooLarge, match="bad.txt:1: a 10000x10000 grid: slither grids are at most 100x100"):
        model.parse_text("slither 10000x10000\n", "bad.txt")


def test_a_file_is_recognised_by_its_header(tmp_path) -> None:
    from trisolve.models import detect_family

    path = tmp_path / "puzzle.txt"
    path.write_text("# mine\n\nslither 2x2\n. .\n. .\n")
    assert detect_family(str(path)).name == "slither"


# ------------------------------------------------------------------ the referee


def test_a_loop_around_one_cell_is_valid() -> None:
    level = Level(2, 2, (4, None, None, None))
    assert model.validate(level, SQUARE) == []


def rules(level: Level, solution: Solution) -> list[str]:
    return [v.rule for v in model.validate(level, solution)]


def test_a_clue_counts_the_sides_on_the_loop() -> None:
    assert rules(Level(2, 2, (3, 1, None, 0)), SQUARE) == ["clue"]  # the 1 beside the loop has its one side
    assert rules(Level(2, 2, (3, 2, None, 0)), SQUARE) == ["clue", "clue"]


def test_a_point_passed_three_times_and_two_loops_are_refused() -> None:
    level = Level(3, 1, (None,) * 3)
    square_at = [((0, c), (0, c + 1)) for c in (0, 2)] + [((1, c), (1, c + 1)) for c in (0, 2)]
    two = Solution.of(square_at + [((0, c), (1, c)) for c in (0, 1, 2, 3)])
    assert rules(level, two) == ["loop"]
    branch = Solution.of(list(SQUARE.edges) + [((0, 1), (0, 2))])
    assert rules(level, branch) == ["degree", "degree"]


def test_no_line_at_all_is_no_loop() -> None:
    assert rules(Level(1, 1, (None,)), Solution(())) == ["loop"]


def test_edges_that_are_not_grid_edges_are_refused() -> None:
    level = Level(2, 2, (None,) * 4)
    assert rules(level, Solution((((0, 0), (1, 1)),))) == ["edge"]
    assert rules(level, Solution((((0, 2), (0, 3)),))) == ["edge"]
    assert rules(level, Solution(SQUARE.edges + SQUARE.edges[:1])) == ["edge"]


def test_a_solution_reads_back_from_its_json_exactly() -> None:
    level = Level(2, 2, (4, None, None, None))
    data = SQUARE.to_json()
    assert data == {"edges": [[[0, 0], [0, 1]], [[0, 0], [1, 0]], [[0, 1], [1, 1]], [[1, 0], [1, 1]]]}
    assert model.solution_from_json(level, data) == SQUARE
    with pytest.raises(ValueError):
        model.solution_from_json(level, {"edges": [[[0, 0], [0, 1.0]]]})
    with pytest.raises(ValueError):
        model.solution_from_json(level, {"edges": [[[0, 0]]]})


# ------------------------------------------------------------------ text and pictures


def test_render_draws_the_loop_and_the_clues() -> None:
    level = Level(2, 2, (4, None, None, UNKNOWN))
    assert model.render(level, SQUARE) == "+---+   +\n| 4 |\n+---+   +\n      ?\n+   +   +\n"
    assert model.render(level) == "+   +   +\n  4\n+   +   +\n      ?\n+   +   +\n"


def test_the_picture_draws_every_point_and_the_loop() -> None:
    level = Level(2, 2, (4, None, None, UNKNOWN), name="tiny")
    svg = FAMILY.picture(level, SQUARE)
    assert svg.startswith("<?xml") and svg.count("<circle") == 9 and svg.count("<path") == 4
    assert "Slitherlink tiny 2x2, solved" in svg and ">?<" in svg
    assert FAMILY.picture(level, None).count("<path") == 0


def test_describe_counts_clues_and_symmetries() -> None:
    assert FAMILY.describe(model.parse(level_path("slither", "small-center-3"))) == (
        "slither 3x3: 1 clues, 24 edges, 8 symmetries"
    )


# ------------------------------------------------------------------ symmetries


def test_symmetries_keep_the_clues_and_move_loops_onto_loops() -> None:
    level = model.parse(level_path("slither", "small-corner-3s"))
    assert len(level.symmetries) == 4  # identity, half turn, the two diagonal mirrors
    for loop in slither_solutions(3, 3, [None if c is None else c for c in level.clues]):
        solution = Solution.of(loop)
        assert all(model.validate(level, image) == [] for image in FAMILY.images(level, solution))
    assert len(Level(3, 2, (None,) * 6).symmetries) == 4
    assert len(Level(3, 3, (None,) * 9).symmetries) == 8


# ------------------------------------------------------------------ brute force against clingo:hand


def test_the_brute_force_knows_every_loop_of_small_grids() -> None:
    assert [len(loops(n, n)) for n in (1, 2, 3)] == [1, 13, 213]  # OEIS A140517: cycles in the grid graph


def random_clues(rng: random.Random) -> tuple:
    return tuple(rng.choice([None, None, None, 0, 1, 2, 3, UNKNOWN]) for _ in range(9))


CLUE_SETS = [random_clues(random.Random(seed)) for seed in range(40)]


@pytest.mark.parametrize("clues", CLUE_SETS, ids=[f"seed{seed}" for seed in range(40)])
def test_every_loop_of_a_3x3_grid_counted_by_clingo_hand(clues: tuple) -> None:
    level = Level(3, 3, clues)
    brute = {tuple(sorted(loop)) for loop in slither_solutions(3, 3, [None if c is None else c for c in clues])}
    result = registry.get("clingo:hand", "slither").run(level, Limits(time=60), Options(enumerate=True))
    assert result.complete and result.count == len(brute)
    assert {FAMILY.canonical(level, s) for s in result.solutions} == brute
    assert all(model.validate(level, s) == [] for s in result.solutions)


def test_the_validator_takes_exactly_the_loops_the_brute_force_lists() -> None:
    level = Level(3, 3, (None, 2, None, None, 3, None, None, None, None))
    brute = slither_solutions(3, 3, list(level.clues))
    accepted = [loop for loop in loops(3, 3) if model.validate(level, Solution.of(loop)) == []]
    assert sorted(map(sorted, accepted)) == sorted(map(sorted, brute))
