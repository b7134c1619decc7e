"""Nurikabe: what only this family has.  The text format's errors, the validator's verdicts, the pictures, the
grid's symmetries, and every shading of a 4x4 grid against clingo:hand's counts (links and the published
puzzles: test_puzzlink.py)."""

from __future__ import annotations

import random

import pytest
from puzzlink_brute import nurikabe_solutions, seas
from support import level_path

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES, LevelSyntaxError
from trisolve.models.errors import InstanceTooLarge
from trisolve.models.nurikabe import model
from trisolve.models.nurikabe.model import UNKNOWN, Level, Solution
from trisolve.selection import declaring

FAMILY = FAMILIES["nurikabe"]


def shading(*rows: str) -> Solution:
    """A solution drawn as rows, '#' a shaded cell."""
    return Solution.of((r, c) for r, row in enumerate(rows) for c, char in enumerate(row) if char == "#")


# ------------------------------------------------------------------ the text format


def test_a_level_file_reads_sizes_and_question_marks() -> None:
    level = model.parse_text("nurikabe 3x4\n# a comment\n 3 . ?\n . . 12\n. . .\n. . .  # the last row\n", "x.txt")
    assert level.clues == (3, None, UNKNOWN, None, None, 12) + (None,) * 6
    assert model.parse_text("nurikabe 3x2\n3.?\n...\n").clues == (3, None, UNKNOWN, None, None, None)


def test_format_level_reads_back() -> None:
    level = model.parse(level_path("nurikabe", "nurikabe13"))  # a 20 and a 14 among the clues
    assert model.parse_text(model.format_level(level)).clues == level.clues


BAD_FILES = [
    ("nurikabe 3x3\n30 . .\n. . .\n. . .\n", 2, "clue 30 cannot fit: an island of 30 cells in a grid of 9"),
    ("nurikabe 3x3\n0 . .\n. . .\n. . .\n", 2, "clue 0 is out of range"),
    ("nurikabe 3x3\n. . .\n. x .\n. . .\n", 3, "unexpected 'x'"),
    ("nurikabe 3x3\n. . .\n. . .\n", 3, "a 3x3 grid has 3 rows, found 2"),
    ("nurikabe 2x2\n. . .\n. .\n", 2, "row 1 of a 2x2 grid has 2 cells, found 3"),
    ("nurikabe 0x3\n", 1, "a grid is at least 1x1, found 0x3"),
    ("slither 2x2\n. .\n. .\n", 1, "expected 'nurikabe WxH'"),
]


@pytest.mark.parametrize("text, line, words", BAD_FILES, ids=[w for _, _, w in BAD_FILES])
def test_a_bad_file_names_the_line_and_what_was_expected(text: str, line: int, words: str) -> None:
    with pytest.raises(LevelSyntaxError) as caught:
        model.parse_text(text, "bad.txt")
    assert caught.value.line == line and words in caught.value.message
    assert str(caught.value).startswith(f"bad.txt:{line}")


def test_a_huge_grid_is_refused_from_its_header() -> None:
    with pytest.raises(InstanceTooLarge, match="bad.txt:1: a 10000x10000 grid: nurikabe grids are at most 64x64"):
        model.parse_text("nurikabe 10000x10000\n", "bad.txt")


def test_islands_that_need_more_cells_than_the_grid_has_are_an_obstruction() -> None:
    level = model.parse_text("nurikabe 3x2\n4 . 3\n. . .\n")
    assert level.obstruction == "the islands need at least 7 cells, the 3x2 grid has 6"
    assert "no solution" in FAMILY.describe(level)


# ------------------------------------------------------------------ the referee


LEVEL = Level(3, 3, (3, None, None, None, None, None, None, None, 1))


def rules(solution: Solution, level: Level = LEVEL) -> list[str]:
    return [v.rule for v in model.validate(level, solution)]


def test_a_valid_shading() -> None:
    assert rules(shading("..#", ".##", "##.")) == []


def test_each_rule_is_named_when_broken() -> None:
    # the 3 shaded: its cell is cut off from the sea, and its two neighbours are islands without a clue
    assert rules(shading("#.#", ".##", "##.")) == ["clue", "sea", "island", "island"]
    assert rules(shading("...", ".##", "##.")) == ["size"]  # the 3's island has 4 cells
    assert rules(shading("..#", ".#.", "#..")) == ["sea", "size"]  # three pieces of sea; the 1's island has 3


def test_a_2x2_pool_and_a_divided_sea_are_refused() -> None:
    assert rules(shading("...", ".##", ".##"), Level(3, 3, (5,) + (None,) * 8)) == ["pool"]
    middle = Level(3, 3, (None, None, None, None, 1, None, None, None, None))
    assert rules(shading("###", "#.#", "###"), middle) == []  # every 2x2 block holds the middle
    diagonal = Level(3, 3, (None, None, 1, None, 1, None, 1, None, None))
    assert rules(shading("##.", "#.#", ".##"), diagonal) == ["sea"]


def test_cells_outside_the_grid_and_repeated_cells_are_refused() -> None:
    assert rules(Solution(((3, 0),))) == ["cell"]
    assert rules(Solution(((0, 1), (0, 1)))) == ["cell"]


def test_an_island_with_two_clues_is_refused() -> None:
    level = Level(3, 1, (1, None, 1))
    assert rules(Solution(()), level) == ["island"]
    assert rules(shading(".#."), level) == []


def test_a_solution_reads_back_from_its_json_exactly() -> None:
    solution = shading("..#", ".##", "##.")
    assert solution.to_json() == {"shaded": [[0, 2], [1, 1], [1, 2], [2, 0], [2, 1]]}
    assert model.solution_from_json(LEVEL, solution.to_json()) == solution
    with pytest.raises(ValueError):
        model.solution_from_json(LEVEL, {"shaded": [[0, True]]})


# ------------------------------------------------------------------ text and pictures


def test_render_shows_the_shading_and_the_clues() -> None:
    assert model.render(LEVEL, shading("..#", ".##", "##.")) == "3 . #\n. # #\n# # 1\n"
    assert model.render(Level(2, 1, (12, UNKNOWN))) == "12  ?\n"


def test_the_picture_fills_the_shaded_cells() -> None:
    svg = FAMILY.picture(LEVEL, shading("..#", ".##", "##."))
    assert svg.count("#3b3b3b") == 5 and ">3<" in svg and "Nurikabe" in svg
    assert FAMILY.picture(LEVEL, None).count("#3b3b3b") == 0


# ------------------------------------------------------------------ symmetries


def test_symmetries_keep_the_clues() -> None:
    level = model.parse(level_path("nurikabe", "small-5-5"))
    assert len(level.symmetries) == 4
    for cells in nurikabe_solutions(4, 4, level.clues):
        assert all(model.validate(level, image) == [] for image in FAMILY.images(level, Solution.of(cells)))


# ------------------------------------------------------------------ brute force against clingo:hand


def random_clues(rng: random.Random) -> tuple:
    clues = [None] * 16
    for cell in rng.sample(range(16), rng.randint(1, 4)):
        clues[cell] = rng.choice([1, 2, 3, 4, 5, 6, UNKNOWN])
    return tuple(clues)


CLUE_SETS = [random_clues(random.Random(seed)) for seed in range(40)]


def test_the_brute_force_sees_every_shading() -> None:
    assert len(seas(2, 2)) == 13  # every shading of a 2x2 grid but the full one and the two diagonals
    assert len(seas(4, 4)) < 2**16


@pytest.mark.parametrize("clues", CLUE_SETS, ids=[f"seed{seed}" for seed in range(40)])
def test_every_shading_of_a_4x4_grid_counted_by_clingo_hand(clues: tuple) -> None:
    level = Level(4, 4, clues)
    brute = {tuple(sorted(cells)) for cells in nurikabe_solutions(4, 4, clues)}
    result = registry.get("clingo:hand", "nurikabe").run(level, Limits(time=60), Options(enumerate=True))
    assert result.complete and result.count == len(brute)
    assert {FAMILY.canonical(level, s) for s in result.solutions} == brute
    assert all(model.validate(level, s) == [] for s in result.solutions)


def test_the_validator_takes_exactly_the_shadings_the_brute_force_lists() -> None:
    level = model.parse(level_path("nurikabe", "small-unknown"))
    brute = {tuple(sorted(cells)) for cells in nurikabe_solutions(4, 4, level.clues)}
    free = [divmod(cell, 4) for cell in range(16) if level.clues[cell] is None]  # a shaded clue: test above
    accepted = set()
    for bits in range(1 << len(free)):
        solution = Solution.of(free[i] for i in range(len(free)) if bits >> i & 1)
        if not model.validate(level, solution):
            accepted.add(solution.shaded)
    assert accepted == brute and len(brute) == 4


#: every compiler of the constraint model that runs in Python (clingo's, PySAT's, CP-SAT's, HiGHS's, ...)
COMPILERS = [spec for spec in registry.variants("nurikabe", declaring("IN_PYTHON")) if "compiled" in spec]
#: clue sets with two clues side by side (no solution: one island would hold both), and a few of the random ones
TOUCHING = [(1, 1) + (None,) * 14, (2, None, None, None, 3) + (None,) * 11, (None, UNKNOWN, 1) + (None,) * 13]


@pytest.mark.parametrize(
    "clues", TOUCHING + CLUE_SETS[:6], ids=[f"touching{i}" for i in range(3)] + [f"seed{seed}" for seed in range(6)]
)
@pytest.mark.parametrize("spec", COMPILERS)
def test_every_shading_of_a_4x4_grid_counted_by_each_compiler_of_the_model(spec: str, clues: tuple) -> None:
    """The constraint model, through each compiler, counts what the brute force lists; two clues side by side
    are no solution (the model once let each be its own island)."""
    level = Level(4, 4, clues)
    brute = {tuple(sorted(cells)) for cells in nurikabe_solutions(4, 4, clues)}
    result = registry.get(spec, "nurikabe").run(level, Limits(time=60), Options(enumerate=True))
    assert result.complete and result.count == len(brute), spec
    if not registry.catalog(Spec.parse(spec).backend, "nurikabe").count_only:  # Ganak counts, lists none
        assert {FAMILY.canonical(level, s) for s in result.solutions} == brute
