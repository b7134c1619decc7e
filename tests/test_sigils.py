"""Sigils (polyomino tiling): the file format and its errors, the validator,
symmetries, rendering, and every backend against the shipped instances."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from support import small_instances

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES, detect_family
from trisolve.models.errors import InstanceTooLarge, LevelSyntaxError
from trisolve.models.sigils import model as sigils
from trisolve.models.sigils.model import Solution
from trisolve.selection import declaring

LEVELS = Path(__file__).resolve().parent.parent / "levels" / "sigils"
EXPECTED = json.loads((LEVELS / "expected.json").read_text())
INSTANCES = sorted(path.stem for path in LEVELS.glob("*.txt"))
VARIANTS = registry.variants("sigils", declaring("BY_DEFAULT"))
#: backends that list their tilings (dp only counts them)
LISTING = [spec for spec in VARIANTS if not spec.startswith("dp:")]
COUNTING = [spec for spec in VARIANTS if spec.startswith("dp:")]
#: listing backends that break symmetries (the compiled variants answer unknown, tests/test_contract.py)
CLASSES = [spec for spec in LISTING if registry.breaks_symmetries(spec, "sigils")]
#: Counting these takes each backend from seconds to minutes.
#: The pentomino rectangles with published counts: seconds for exactcover and dp, minutes for the other listers.
RECTANGLES = {"pentominoes-3x20", "pentominoes-4x15", "pentominoes-5x12", "pentominoes-6x10"}
SLOW = {"gate-6x6", "gate-8x5", "gate-8x6", "gate-8x7", "gate-8x7-b"} | RECTANGLES
FAST = [stem for stem in INSTANCES if stem not in SLOW]


def level(stem: str) -> sigils.Level:
    return sigils.parse(str(LEVELS / f"{stem}.txt"))


def parse(text: str) -> sigils.Level:
    return sigils.parse_text(text, file="t.txt")


def run(spec: str, lvl: sigils.Level, symmetry_breaking: bool = False, time: float = 600):
    """Enumerate; every solution must validate and be new (a counting backend lists none)."""
    options = Options(enumerate=True, symmetry_breaking=symmetry_breaking)
    result = registry.get(spec, "sigils").run(lvl, Limits(time=time), options)
    for solution in result.solutions:
        assert sigils.validate(lvl, solution) == [], f"{spec} returned an invalid tiling"
    assert result.duplicates == 0
    if spec in COUNTING:
        assert result.solutions == ()
    else:
        assert len({sigils.canonical(lvl, s) for s in result.solutions}) == result.count
    return result


def reference_count(lvl: sigils.Level) -> int:
    """An independent count: fill the first empty cell in reading order, every way, memoised."""
    if lvl.obstruction:
        return 0
    starting_at: list[list[tuple[int, int]]] = [[] for _ in range(lvl.cell_count)]
    for t, piece in enumerate(lvl.pieces):
        for shape in piece.orientations(lvl.mirroring):
            for top in range(lvl.height):
                for left in range(lvl.width):
                    cells = [(top + r, left + c) for r, c in shape]
                    if all(r < lvl.height and c < lvl.width for r, c in cells):
                        indices = [lvl.cell(r, c) for r, c in cells]
                        starting_at[min(indices)].append((t, sum(1 << i for i in indices)))
    full = (1 << lvl.cell_count) - 1
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(filled: int, left: tuple[int, ...]) -> int:
        if filled == full:
            return 1
        if (filled, left) not in memo:
            first = ((~filled & full) & -(~filled & full)).bit_length() - 1
            memo[filled, left] = sum(
                count(filled | mask, left[:t] + (left[t] - 1,) + left[t + 1 :])
                for t, mask in starting_at[first]
                if left[t] and not mask & filled
            )
        return memo[filled, left]

    return count(0, lvl.piece_counts)


# ---------------------------------------------------------------- the file format


def test_the_family_is_registered_and_sniffed(tmp_path):
    assert FAMILIES["sigils"].parse is sigils.parse
    path = tmp_path / "gate.txt"
    path.write_text("# a gate\n\n4x3\nL J O\n")
    assert detect_family(str(path)).name == "sigils"


def test_a_level_reads_with_comments_blank_lines_and_crlf():
    lvl = parse("# a comment\r\n\r\n  5x4   # width x height\r\nI L L J J\r\n")
    assert (lvl.width, lvl.height) == (5, 4)
    assert lvl.counts == {"I": 1, "L": 2, "J": 2}
    assert not lvl.mirroring and lvl.obstruction is None


def test_the_builtin_sigils_follow_the_convention():
    drawn = {name: piece.drawing("#") for name, piece in sigils.BUILTIN_PIECES.items()}
    assert drawn == {
        "I": "####",
        "O": "##\n##",
        "T": "###\n.#.",
        "S": ".##\n##.",
        "Z": "##.\n.##",
        "L": "#.\n#.\n##",
        "J": ".#\n.#\n##",
    }
    assert {n: len(p.orientations()) for n, p in sigils.BUILTIN_PIECES.items()} == {
        "I": 2,
        "O": 1,
        "T": 4,
        "S": 2,
        "Z": 2,
        "L": 4,
        "J": 4,
    }


def test_custom_pieces_and_mirroring():
    lvl = parse("5x3\nA O L L\nmirror\npiece A\n  AA\n  A.   # the L tromino\n")
    assert lvl.mirroring
    assert lvl.piece["A"].shape == ((0, 0), (0, 1), (1, 0))
    with_l_redrawn = parse("5x1\nL\npiece L\nLLLLL\n")
    assert with_l_redrawn.piece["L"].size == 5


@pytest.mark.parametrize("stem", INSTANCES)
def test_format_level_reads_back(stem):
    lvl = level(stem)
    again = sigils.parse_text(sigils.format_level(lvl), name=lvl.name)
    assert again == lvl


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("", None, "empty file"),
        ("4 by 3\nI\n", 1, "WxH"),
        ("0x3\nI\n", 1, "at least 1x1"),
        ("4x3\n", 1, "piece list"),
        ("4x3\nmirror\n", 2, "piece list"),
        ("4x3\nL J Q\n", 2, "unknown piece 'Q'"),
        ("4x3\nLJO\n", 2, "one letter or digit"),
        ("4x3\nL J O\nrotate\n", 3, "expected 'piece <name>'"),
        ("4x3\nL J O\nmirror please\n", 3, "takes no arguments"),
        ("4x3\nA\npiece AB\nAA\n", 3, "one letter or digit"),
        ("4x3\nA\npiece A\nmirror\n", 3, "has no drawing"),
        ("4x3\nA\npiece A\nAx\n", 4, "malformed piece A: 'x'"),
        ("4x3\nA\npiece A\n...\n", 3, "malformed piece A: its drawing has no cells"),
        ("4x3\nA\npiece A\nA.A\n", 3, "malformed piece A: its cells are not connected"),
        ("4x3\nA\npiece A\nAA\npiece A\nA\n", 5, "drawn twice"),
        ("4x4\nS Z S Z\nmirror\n", 2, "S and Z are the same piece turned over"),
        ("4x3\nT Q\npiece Q\n.Q.\nQQQ\n", 2, "T and Q are the same piece"),
    ],
)
def test_parse_errors_name_the_line(text, line, message):
    with pytest.raises(LevelSyntaxError) as caught:
        parse(text)
    assert caught.value.line == line
    assert message in caught.value.message


def test_an_unknown_letter_points_at_its_column():
    with pytest.raises(LevelSyntaxError) as caught:
        parse("4x3\n  L  J  K\n")
    assert caught.value.column == 9


def test_frames_and_pieces_too_large_are_refused_before_anything_is_built():
    with pytest.raises(InstanceTooLarge):
        parse("41x2\nI\n")
    with pytest.raises(InstanceTooLarge):
        parse("100000x100000\nI\n")
    with pytest.raises(InstanceTooLarge):
        parse("4x4\nA\npiece A\n" + "A" * 41 + "\n")


def test_an_area_mismatch_is_an_unsolvable_level_not_an_error():
    lvl = level("area-mismatch")
    assert lvl.obstruction == "the pieces cover 12 cells, the 4x4 frame has 16"
    assert "no solution" in sigils.describe(lvl)
    assert FAMILIES["sigils"].obstruction(lvl) == lvl.obstruction


def test_a_piece_that_fits_nowhere_makes_the_level_unsolvable():
    assert parse("3x3\nI I I\npiece I\nIII\n").obstruction is None
    assert "fits nowhere" in parse("8x1\nO O\n").obstruction


@pytest.mark.parametrize("spec", VARIANTS)
def test_an_obstructed_level_is_unsat_at_once(spec):
    result = run(spec, level("area-mismatch"), time=30)
    assert result.status is Status.UNSAT and result.complete
    assert result.stats.get("conflicts", 0) <= 1  # no search: refuted at the root


# -------------------------------------------------------------------- validator

L_J_O = "4x3\nL J O\n"
#   L O O J      a tiling of the 4x3 gate, cells in reading order:
#   L O O J        0  1  2  3
#   L L J J        4  5  6  7
#                  8  9 10 11
GOOD = Solution.of([("L", [0, 4, 8, 9]), ("O", [1, 2, 5, 6]), ("J", [3, 7, 10, 11])])


def rules(violations) -> Counter:
    return Counter(v.rule for v in violations)


def test_the_validator_accepts_a_tiling():
    assert sigils.validate(parse(L_J_O), GOOD) == []


def test_the_validator_catches_an_overlap_and_a_hole():
    bad = Solution.of([("L", [0, 4, 8, 9]), ("O", [1, 2, 5, 6]), ("J", [2, 6, 10, 11])])
    found = rules(sigils.validate(parse(L_J_O), bad))
    assert found["overlap"] == 2 and found["cover"] == 2


def test_the_validator_catches_a_wrong_shape():
    # the L's cells drawn as a J: allowed only when pieces may be turned over
    mirrored = Solution.of([("J", [0, 4, 8, 9]), ("O", [1, 2, 5, 6]), ("L", [3, 7, 10, 11])])
    assert rules(sigils.validate(parse(L_J_O), mirrored)) == {"shape": 2}
    scattered = Solution.of([("L", [0, 4, 8, 10]), ("O", [1, 2, 5, 6]), ("J", [3, 7, 9, 11])])
    assert rules(sigils.validate(parse(L_J_O), scattered))["shape"] == 2


def test_the_validator_catches_a_wrong_multiset():
    lvl = parse("4x3\nL L O\n")
    found = sigils.validate(lvl, GOOD)
    assert rules(found) == {"pieces": 2}  # one L too few; J is not a piece of this level
    two_o = parse("4x4\nO O O O\n")
    three = Solution.of([("O", [0, 1, 4, 5]), ("O", [2, 3, 6, 7]), ("O", [8, 9, 12, 13])])
    assert rules(sigils.validate(two_o, three)) == {"cover": 4, "pieces": 1}


def test_the_validator_survives_cells_outside_the_frame():
    lvl = parse(L_J_O)
    broken = Solution((sigils.Placement("L", (0, 4, 8, 99)),))
    assert "cells" in rules(sigils.validate(lvl, broken))


def test_equal_pieces_are_interchangeable_but_different_cuts_are_not():
    lvl = parse("4x4\nI I O O\n")
    a = Solution.of([("I", [0, 1, 2, 3]), ("I", [4, 5, 6, 7]), ("O", [8, 9, 12, 13]), ("O", [10, 11, 14, 15])])
    b = Solution.of([("O", [10, 11, 14, 15]), ("I", [4, 5, 6, 7]), ("O", [8, 9, 12, 13]), ("I", [0, 1, 2, 3])])
    assert a == b and sigils.canonical(lvl, a) == sigils.canonical(lvl, b)
    # the same letters on every cell, cut into different pieces
    c = Solution.of([("I", [0, 1, 2, 3]), ("I", [4, 5, 6, 7]), ("O", [8, 9, 12, 13]), ("O", [10, 11, 14, 15])])
    d = Solution.of([("I", [0, 4, 8, 12]), ("I", [1, 5, 9, 13]), ("O", [2, 3, 6, 7]), ("O", [10, 11, 14, 15])])
    assert sigils.validate(lvl, d) == []
    assert sigils.canonical(lvl, c) != sigils.canonical(lvl, d)


def test_a_solution_survives_json():
    lvl = parse(L_J_O)
    again = sigils.solution_from_json(lvl, json.loads(json.dumps(GOOD.to_json())))
    assert again == GOOD


# ------------------------------------------------------------------- symmetries


@pytest.mark.parametrize(
    "text, expected",
    [
        ("4x3\nL J O\n", 4),  # mirror-closed: L <-> J
        ("4x3\nI L L\n", 2),  # an L without its J: only the half turn
        ("4x4\nT T T T\n", 8),  # the square's eight
        ("4x4\nL L J J\n", 8),
        ("4x4\nL L L J\n", 4),  # the four turns only
        ("6x4\nI O T T S L\nmirror\n", 4),  # mirroring allowed: every piece is its own mirror image
        ("4x1\nI\n", 2),  # a 1-high frame: the half turn is the left-right mirror; I is achiral
    ],
)
def test_the_symmetries_that_keep_a_level(text, expected):
    lvl = parse(text)
    assert len(lvl.symmetries) == expected
    assert lvl.symmetries[0].name == "identity"


@pytest.mark.parametrize("stem", [s for s in FAST if s != "area-mismatch"])
def test_symmetries_map_tilings_to_tilings(stem):
    lvl = level(stem)
    result = run(VARIANTS[0], lvl, time=60)
    keys = {sigils.canonical(lvl, s) for s in result.solutions}
    for symmetry in lvl.symmetries:
        for solution in result.solutions:
            image = symmetry.apply(solution)
            assert sigils.validate(lvl, image) == []
            assert sigils.canonical(lvl, image) in keys
    leaders = [s for s in result.solutions if sigils.is_lex_leader(lvl, s)]
    orbits = {sigils.orbit_representative(lvl, s) for s in result.solutions}
    assert len(leaders) == len(orbits) == EXPECTED[stem].get("orbits", len(orbits))


# -------------------------------------------------------------------- rendering


def test_render_draws_walls_between_pieces_and_a_letter_per_cell():
    text = sigils.render(parse(L_J_O), GOOD)
    assert text == ("+-+---+-+\n|L|O O|J|\n| |   | |\n|L|O O|J|\n| +-+-+ |\n|L L|J J|\n+---+---+\n")
    assert "\x1b[" not in text


def test_render_colour_is_optional():
    coloured = sigils.render(parse(L_J_O), GOOD, colour=True)
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == sigils.render(parse(L_J_O), GOOD)


def test_render_without_a_solution_shows_the_empty_frame_and_the_pieces():
    text = sigils.render(parse("4x3\nL L O\nmirror\n"))
    assert text.startswith("+-------+\n|. . . .|\n")
    assert text.endswith("pieces: 2xL O (mirroring allowed)\n")


# --------------------------------------------------------------------- backends


def test_every_paradigm_dp_and_exactcover_have_a_sigils_translator():
    assert set(declaring("PORTFOLIO")) | {"dp", "exactcover"} <= {Spec.parse(spec).backend for spec in VARIANTS}


def test_expected_counts_cover_every_instance():
    assert sorted(EXPECTED) == INSTANCES
    assert all(entry["complete"] for entry in EXPECTED.values())


@pytest.mark.parametrize("stem", FAST)
def test_expected_counts_match_an_independent_count(stem):
    assert reference_count(level(stem)) == EXPECTED[stem]["count"]


def _count_case(spec: str, stem: str, symmetry_breaking: bool) -> None:
    lvl = level(stem)
    result = run(spec, lvl, symmetry_breaking)
    assert result.complete, f"{spec} did not finish {stem}"
    key = "orbits" if symmetry_breaking else "count"
    assert result.count == EXPECTED[stem][key]
    if symmetry_breaking:
        assert all(sigils.is_lex_leader(lvl, s) for s in result.solutions)


#: the contract test (tests/test_contract.py) already counts its small instances on every variant
NOT_IN_CONTRACT = [stem for stem in FAST if stem not in small_instances("sigils")]


@pytest.mark.parametrize("stem", NOT_IN_CONTRACT)
@pytest.mark.parametrize("spec", VARIANTS)
def test_counts_agree_with_expected(spec, stem):
    _count_case(spec, stem, symmetry_breaking=False)


@pytest.mark.parametrize("stem", NOT_IN_CONTRACT)
@pytest.mark.parametrize("spec", CLASSES)
def test_symmetry_breaking_keeps_one_tiling_per_class(spec, stem):
    _count_case(spec, stem, symmetry_breaking=True)


def _large_case(spec: str, stem: str):
    """The default variants count the large gates in seconds (slow: CI runs them); the
    other variants, and every listing backend but exactcover on the pentomino rectangles, take minutes (heavy)."""
    default = spec == registry.resolve(Spec.parse(spec).backend, "sigils")
    heavy = (stem in RECTANGLES and not spec.startswith("exactcover:")) or not default
    return pytest.param(spec, stem, marks=pytest.mark.heavy if heavy else pytest.mark.slow, id=f"{spec}-{stem}")


@pytest.mark.parametrize("spec, stem", [_large_case(spec, stem) for spec in LISTING for stem in sorted(SLOW)])
@pytest.mark.parametrize("symmetry_breaking", [False, True], ids=["all", "classes"])
def test_large_counts_agree_with_expected(spec, stem, symmetry_breaking):
    _count_case(spec, stem, symmetry_breaking)


# The counting backend is fast enough to count every shipped instance, the
# large ones included (the 6x10 rectangle takes it about half a minute).
@pytest.mark.parametrize("stem", [pytest.param(s, marks=pytest.mark.slow) if s in RECTANGLES else s for s in INSTANCES])
@pytest.mark.parametrize("spec", COUNTING)
def test_the_counting_backend_counts_every_instance(spec, stem):
    _count_case(spec, stem, symmetry_breaking=False)


@pytest.mark.parametrize("spec", COUNTING)
def test_the_counting_backend_agrees_with_the_reference_on_transposed_and_square_frames(spec):
    pentominoes = "P L\npiece P\nPP\nPP\nP.\npiece L\nL.\nL.\nL.\nLL\nmirror\n"
    for text in (
        "5x2\n" + pentominoes,
        "2x5\n" + pentominoes,
        "4x4\nT T T T\n",
        "4x5\nL L S S T\nmirror\n",
        "5x4\nL L S S T\nmirror\n",
        "6x2\nI T T\n",
        "2x6\nI T T\n",
    ):
        lvl = parse(text)
        assert run(spec, lvl, time=60).count == reference_count(lvl), text


@pytest.mark.parametrize("spec", COUNTING)
def test_the_counting_backend_rebuilds_one_valid_tiling_for_a_first_solution(spec):
    for stem in ("gate-8x7", "pentominoes-5x5", "trominoes-5x3"):
        lvl = level(stem)
        result = registry.get(spec, "sigils").run(lvl, Limits(time=60), Options())
        assert result.status is Status.SAT and result.count == 1 and not result.complete
        assert sigils.validate(lvl, result.solutions[0]) == []


@pytest.mark.parametrize("spec", COUNTING)
def test_the_counting_backend_says_unknown_to_symmetry_breaking_and_the_crosschecker_runs_it_plain(spec):
    from trisolve.crosscheck.run import Instance, Plan, plan_jobs

    lvl = level("gate-4x3")
    result = registry.get(spec, "sigils").run(lvl, Limits(time=60), Options(enumerate=True, symmetry_breaking=True))
    assert result.status is Status.UNKNOWN and not result.complete and "symmetry" in result.stopped_by
    jobs = plan_jobs(
        [Instance("gate-4x3.txt", FAMILIES["sigils"], lvl)],
        lambda _: VARIANTS,
        Plan(timeout=10, symmetry_breaking=True),
    )
    assert [(j.backend, j.options.symmetry_breaking) for j in jobs if j.backend == spec] == [(spec, False)]
    assert sum(j.options.symmetry_breaking for j in jobs) == len(CLASSES)


@pytest.mark.parametrize("spec", LISTING)
def test_a_first_solution_is_not_a_count(spec):
    lvl = level("gate-6x6")
    result = registry.get(spec, "sigils").run(lvl, Limits(time=60), Options())
    assert result.status is Status.SAT and result.count == 1 and not result.complete
    assert sigils.validate(lvl, result.solutions[0]) == []


def test_piece_names_never_reach_clingo():
    from trisolve.backends.clingo import sigils as asp

    lvl = level("pentominoes-5x5")
    facts = asp.facts(lvl, symmetry_breaking=True)
    for line in facts.splitlines():
        assert re.fullmatch(r"[a-z_]+(\((-?\d+)(,-?\d+)*\))?\.", line), line


def test_clingo_enumerates_tilings_without_projection_and_still_counts_each_once():
    from trisolve.backends.clingo import engine
    from trisolve.backends.clingo import sigils as asp

    lvl = level("gate-6x6")
    program = asp.encode(lvl, "choice", Options(enumerate=True))
    assert not program.projective and "--project" not in engine.solver_arguments(program, Options(enumerate=True))
    result = run("clingo:choice", lvl)
    assert result.complete and result.count == EXPECTED["gate-6x6"]["count"] and result.duplicates == 0
