"""The Hexiom model on its own: parser edges and errors, validator, renderer, symmetries."""

from __future__ import annotations

import os

import pytest
from support import HEXIOM_LEVELS, stem

from trisolve.models.errors import LevelSyntaxError
from trisolve.models.hexiom import model as hexiom


def test_all_41_levels_are_shipped_byte_for_byte():
    shared = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "hexiom")
    assert len(HEXIOM_LEVELS) == 41
    if os.path.isdir(shared):
        for path in HEXIOM_LEVELS:
            with open(path, "rb") as ours, open(os.path.join(shared, os.path.basename(path)), "rb") as theirs:
                assert ours.read() == theirs.read(), path
    with open(HEXIOM_LEVELS[0], "rb") as handle:
        assert b"\r\n" in handle.read()


@pytest.mark.parametrize("path", HEXIOM_LEVELS, ids=stem)
def test_every_level_parses_and_round_trips(path):
    level = hexiom.parse(path)
    assert level.board.size == hexiom.cell_count(level.side)
    assert level.tile_total <= level.board.size - len(level.blocked_cells)
    again = hexiom.parse_text(hexiom.format_level(level), name=level.name)
    assert again == level


def test_level38_contents():
    level = hexiom.parse(os.path.join(os.path.dirname(HEXIOM_LEVELS[0]), "level38.txt"))
    assert level.side == 5 and level.board.size == 61
    assert level.tile_total == 48
    assert len(level.locked_tiles) == 6 and all(n == 3 for _, n in level.locked_tiles)
    assert len(level.symmetries) == 12


def test_adjacent_tokens_and_ragged_spacing():
    text = "2\r\n\t+1  .\r\n 1 .+.\r\n  .    .\r\n   \r\n"
    level = hexiom.parse_text(text)
    assert level.locked == {0: 1}
    assert level.blocked_cells == frozenset({4})
    assert level.tile_counts[1] == 2


def test_neighbours_of_the_centre_and_a_corner():
    board = hexiom.Board(2)
    assert len(board.neighbours[3]) == 6  # the centre of a side-2 board
    assert all(len(board.neighbours[c]) == 3 for c in (0, 1, 2, 4, 5, 6))
    for cell, adjacent in enumerate(board.neighbours):
        for other in adjacent:
            assert cell in board.neighbours[other]


@pytest.mark.parametrize("side", [1, 2, 3, 5])
def test_the_twelve_symmetries_are_automorphisms(side):
    board = hexiom.Board(side)
    assert len(set(board.symmetries)) == (1 if side == 1 else 12)
    for perm in board.symmetries:
        assert sorted(perm) == list(range(board.size))
        for cell in range(board.size):
            assert sorted(perm[n] for n in board.neighbours[cell]) == list(board.neighbours[perm[cell]])


def test_level_symmetries_preserve_locks_and_blocks():
    level = hexiom.parse_text("2\n+1 .\n. . .\n. .\n")
    for perm in level.symmetries:
        assert perm[0] == 0  # the lock on cell 0 must stay put
    assert len(level.symmetries) == 2  # identity and the mirror through cell 0


BAD_LEVELS = [
    ("", None, "empty file"),
    ("   \n\n", None, "empty file"),
    ("x\n. .\n", 1, "side length"),
    ("0\n", 1, "at least 1"),
    ("2\n. .\n. . .\n. . .\n", 4, "row 3"),
    ("2\n. .\n. . .\n", 3, "3 rows"),
    ("2\n. .\n. . .\n. .\n. .\n", 5, "3 rows"),
    ("2\n. .\n. a .\n. .\n", 3, "unexpected character 'a'"),
    ("2\n. .\n. 7 .\n. .\n", 3, "above 6"),
    ("2\n. .\n. + .\n. .\n", 3, "'+' must be followed"),
    ("99\n", 1, "largest supported side"),
]


@pytest.mark.parametrize("text,line,fragment", BAD_LEVELS, ids=[b[2] for b in BAD_LEVELS])
def test_malformed_levels_name_file_line_and_fault(tmp_path, text, line, fragment):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(LevelSyntaxError) as caught:
        hexiom.parse(str(path))
    error = caught.value
    assert error.file == str(path)
    assert error.line == line
    assert fragment in str(error)
    assert str(path) in str(error)


def test_binary_and_huge_files_are_refused(tmp_path):
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"2\n\xff\xfe\n")
    with pytest.raises(LevelSyntaxError, match="UTF-8"):
        hexiom.parse(str(binary))
    huge = tmp_path / "huge.txt"
    huge.write_text("3\n" + " ." * 600_000)
    with pytest.raises(LevelSyntaxError, match="bytes"):
        hexiom.parse(str(huge))


# ---------------------------------------------------------------- validator

LEVEL01_SOLUTION = (None, None, None, None, None, None, None)


def _level01():
    return hexiom.parse(os.path.join(os.path.dirname(HEXIOM_LEVELS[0]), "level01.txt"))


def test_a_correct_solution_has_no_violations():
    level = _level01()  # two tiles numbered 1: they must touch each other and nothing else
    solution = hexiom.Solution((1, 1, None, None, None, None, None))
    assert hexiom.validate(level, solution) == []


def test_one_wrong_tile_is_caught_with_the_right_violation():
    level = hexiom.parse_text("2\n. .\n. 2 .\n1 1\n")
    good = hexiom.Solution((1, 2, None, None, 1, None, None))  # a chain 1-2-1 along the rim
    assert hexiom.validate(level, good) == []
    wrong = hexiom.Solution((1, 2, None, None, None, None, 1))  # the last 1 moved away from the 2
    violations = hexiom.validate(level, wrong)
    assert {(v.rule, v.cell) for v in violations} == {("neighbours", 1), ("neighbours", 6)}


def test_validator_catches_locks_blocks_counts_and_shape():
    level = hexiom.parse_text("2\n+1 +.\n. . .\n1 .\n")
    assert hexiom.validate(level, hexiom.Solution((1, None, 1, None, None, None, None))) == []
    moved_lock = hexiom.Solution((None, None, 1, 1, None, None, None))
    assert "locked" in {v.rule for v in hexiom.validate(level, moved_lock)}
    on_block = hexiom.Solution((1, 1, None, None, None, None, None))
    assert "blocked" in {v.rule for v in hexiom.validate(level, on_block)}
    extra = hexiom.Solution((1, None, None, 1, 2, None, None))
    assert "tiles" in {v.rule for v in hexiom.validate(level, extra)}
    assert {v.rule for v in hexiom.validate(level, hexiom.Solution((1, None)))} == {"shape"}
    assert {v.rule for v in hexiom.validate(level, hexiom.Solution((9,) + (None,) * 6))} == {"value"}


def test_render_draws_the_solved_hexagon():
    level = _level01()
    text = hexiom.render(level, hexiom.Solution((1, 1, None, None, None, None, None)))
    assert text.splitlines() == ["  1 1", " . . .", "  . ."]


def test_lex_leader_and_orbits():
    level = _level01()
    solutions = [
        hexiom.Solution(tuple(1 if c in pair else None for c in range(7)))
        for pair in [(0, 1), (1, 4), (0, 3), (5, 6), (3, 4), (2, 5)]
    ]
    reps = {hexiom.orbit_representative(level, s) for s in solutions}
    assert len(reps) == 2  # edge pairs on the rim, and pairs through the centre
    leaders = [s for s in solutions if hexiom.is_lex_leader(level, s)]
    assert all(hexiom.symmetry_key(s) == hexiom.orbit_representative(level, s) for s in leaders)
    assert len(leaders) >= 1


def test_shrink_candidates_are_smaller_valid_levels():
    level = hexiom.parse(os.path.join(os.path.dirname(HEXIOM_LEVELS[0]), "level38.txt"))
    candidates = hexiom.shrink_candidates(level)
    assert candidates
    for candidate in candidates:
        assert candidate != level
        assert hexiom.parse_text(hexiom.format_level(candidate)) == candidate.__class__(
            candidate.board, candidate.tile_counts, tuple(sorted(candidate.locked_tiles)), candidate.blocked_cells, ""
        )
