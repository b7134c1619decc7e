"""Logic-grid puzzles: the file format and its errors, the validator, and every
backend against the shipped puzzles, a brute-force referee and hostile names."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import small_instances

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES, detect_family
from trisolve.models.errors import InstanceTooLarge, LevelSyntaxError
from trisolve.models.logic import model as logic
from trisolve.models.logic.model import Category, Clue, Item, Level, Solution
from trisolve.selection import declaring

LEVELS = Path(__file__).resolve().parent.parent / "levels" / "logic"
EXPECTED = json.loads((LEVELS / "expected.json").read_text())
PUZZLES = sorted(path.stem for path in LEVELS.glob("*.toml"))
VARIANTS = registry.variants("logic", declaring("IN_PYTHON"))
BACKENDS = sorted({Spec.parse(spec).backend for spec in VARIANTS})
ENUMERATE = Options(enumerate=True)


def puzzle(stem: str) -> Level:
    return logic.parse(str(LEVELS / f"{stem}.toml"))


def solve_all(spec: str, level: Level, limits: Limits = Limits(time=60)):
    result = registry.get(spec, "logic").run(level, limits, ENUMERATE)
    for solution in result.solutions:
        assert logic.validate(level, solution) == [], f"{spec} returned an invalid solution"
    assert result.duplicates == 0
    return result


def brute_force_count(level: Level) -> int:
    """Try every assignment (one permutation per category) against the validator."""
    n = level.positions
    rows = [list(itertools.permutations(range(1, n + 1))) for _ in level.categories]
    return sum(1 for grid in itertools.product(*rows) if not logic.validate(level, Solution.of(level, grid)))


# ---------------------------------------------------------------- the file format

SMALL = """\
positions = 3
question = { value = "fish", category = "owner" }

[categories]
owner = ["Ann", "Bob", "Cy"]
pet = ["cat", "dog", "fish"]

[[clues]]
same = ["Ann", "cat"]

[[clues]]
left_of = ["Bob", "dog"]
"""


def error_of(text: str) -> LevelSyntaxError:
    with pytest.raises(LevelSyntaxError) as caught:
        logic.parse_text(text, file="p.toml")
    return caught.value


def test_small_puzzle_parses():
    level = logic.parse_text(SMALL)
    assert level.positions == 3
    assert [c.name for c in level.categories] == ["owner", "pet"]
    assert level.clues == (Clue("same", (Item(0, 0), Item(1, 0))), Clue("left_of", (Item(0, 1), Item(1, 1))))
    assert level.questions == (logic.Question(Item(1, 2), 0),)


@pytest.mark.parametrize(
    "old, new, line, words",
    [
        ('same = ["Ann", "cat"]', 'same = ["Ann", "cow"]', 9, "unknown value 'cow'"),
        ('same = ["Ann", "cat"]', 'same = ["pets.cat", "Ann"]', 9, "'pets' is not a category"),
        ('category = "owner"', 'category = "colour"', 2, "unknown category 'colour'"),
        ('pet = ["cat", "dog", "fish"]', 'pet = ["cat", "dog"]', 6, "has 2 values; every category needs exactly 3"),
        ('pet = ["cat", "dog", "fish"]', 'pet = ["cat", "dog", "cat"]', 6, "lists the value 'cat' twice"),
        ('left_of = ["Bob", "dog"]', 'left_of = ["Bob"]', 12, "takes 2 arguments"),
        ('left_of = ["Bob", "dog"]', 'left_of = ["Bob", "dog", "cat"]', 12, "takes 2 arguments"),
        ('left_of = ["Bob", "dog"]', 'at = ["Bob", 4]', 12, "position 4 is out of range 1..3"),
        ('left_of = ["Bob", "dog"]', 'not_at = ["Bob", 0]', 12, "position 0 is out of range 1..3"),
        ('left_of = ["Bob", "dog"]', 'one_of = ["Bob", [1, 7]]', 12, "position 7 is out of range 1..3"),
        ('left_of = ["Bob", "dog"]', 'distance = ["Bob", "dog", 3]', 12, "distance 3 is out of range 1..2"),
        ('left_of = ["Bob", "dog"]', 'left_off = ["Bob", "dog"]', 11, "unknown clue kind 'left_off'; known: same"),
        ('left_of = ["Bob", "dog"]', 'at = ["Bob", "first"]', 12, "expected a position"),
        ('owner = ["Ann", "Bob", "Cy"]', 'owner = ["Ann", "Bob", 3]', 5, "must be a string in quotes"),
        ('owner = ["Ann", "Bob", "Cy"]', 'owner = ["Ann", "Bob", "C\\ny"]', 5, "control character"),
        ('owner = ["Ann", "Bob", "Cy"]', 'owner = ["Ann", "Bob" "Cy"]', 5, "not valid TOML"),
        ("positions = 3", "positions = 3.0", 1, "whole number"),
        ("positions = 3", "positions = 3\nsize = 4", 2, "unknown key 'size'"),
    ],
)
def test_errors_name_the_line(old: str, new: str, line: int, words: str):
    assert old in SMALL
    error = error_of(SMALL.replace(old, new))
    assert error.file == "p.toml"
    assert error.line == line, error
    assert words in error.message, error


def test_malformed_toml_at_end_of_file():
    error = error_of(SMALL + 'same = ["Ann"\n')
    assert error.line is not None and "not valid TOML" in error.message


def test_inline_clue_array_errors_point_at_the_clue():
    text = (
        SMALL.split("[[clues]]")[0]
        .replace("[categories]", "")
        .replace("owner =", "categories.owner =")
        .replace("pet =", "categories.pet =")
    )
    text = text.replace(
        "positions = 3\n",
        'positions = 3\nclues = [\n  { same = ["Ann", "cat"] },  # "{ tricky"\n  { at = ["Bob", 9] },\n]\n',
    )
    error = error_of(text)
    assert error.line == 4 and "position 9" in error.message
    good = logic.parse_text(text.replace('"Bob", 9', '"Bob", 2'))
    assert good.clues[1] == Clue("at", (Item(0, 1),), (2,))


def test_a_name_in_two_categories_must_be_qualified():
    text = SMALL.replace('"fish"]', '"Cy"]').replace('value = "fish"', 'value = "pet.Cy"')
    error = error_of(text.replace('same = ["Ann", "cat"]', 'same = ["Cy", "cat"]'))
    assert error.line == 9 and "'Cy' is a value of 'owner' and 'pet'; qualify it" in error.message
    level = logic.parse_text(text.replace('same = ["Ann", "cat"]', 'same = ["owner.Cy", "pet.Cy"]'))
    assert level.clues[0].items == (Item(0, 2), Item(1, 2))
    assert level.questions[0].value == Item(1, 2)
    assert logic.parse_text(logic.format_level(level)) == level


def test_missing_parts_are_named():
    assert "missing 'positions" in error_of("[categories]\na = ['x']\n").message
    assert "missing the [categories]" in error_of("positions = 1\n").message
    assert "exactly one kind" in error_of(SMALL + '\n[[clues]]\ntext = "nothing"\n').message


def test_absurd_sizes_are_refused_up_front():
    with pytest.raises(InstanceTooLarge):
        logic.parse_text("positions = 51\n[categories]\na = []\n")
    many = "\n".join(f"c{i} = ['x']" for i in range(51))
    with pytest.raises(InstanceTooLarge):
        logic.parse_text(f"positions = 1\n[categories]\n{many}\n")


def test_the_family_is_registered_and_detected(tmp_path: Path):
    assert FAMILIES["logic"].parse is logic.parse
    assert detect_family(str(LEVELS / "einstein.toml")).name == "logic"
    elsewhere = tmp_path / "riddle.toml"
    elsewhere.write_text(SMALL)
    assert detect_family(str(elsewhere)).name == "logic"


@pytest.mark.parametrize("stem", PUZZLES)
def test_format_level_round_trips(stem: str):
    level = puzzle(stem)
    assert logic.parse_text(logic.format_level(level), name=level.name) == level


@pytest.mark.parametrize("stem", PUZZLES)
def test_shrink_candidates_are_puzzles(stem: str):
    level = puzzle(stem)
    candidates = logic.shrink_candidates(level)
    halves = 2 if len(level.clues) >= 4 else 0  # half the clues dropped, either half
    assert len(candidates) == 1 + len(level.categories) + halves + len(level.clues)
    assert all(len(smaller.clues) < len(level.clues) for smaller in candidates[-len(level.clues) - halves :])
    for smaller in candidates:
        assert logic.parse_text(logic.format_level(smaller), name=smaller.name) == smaller


# ------------------------------------------------------------------- validator


def test_validator_finds_broken_clues_and_rows():
    level = logic.parse_text(SMALL)
    good = Solution.of(level, [[1, 2, 3], [1, 3, 2]])  # Ann+cat at 1, Bob at 2 left of dog at 3
    assert logic.validate(level, good) == []
    broken = logic.validate(level, Solution.of(level, [[1, 2, 3], [2, 3, 1]]))
    assert [v.rule for v in broken] == ["same"] and broken[0].clue == 0
    twice = logic.validate(level, Solution.of(level, [[1, 1, 3], [1, 3, 2]]))
    assert {v.rule for v in twice} >= {"one per position"}
    assert logic.validate(level, Solution.of(level, [[1, 2, 4], [1, 3, 2]]))[0].rule == "position"
    assert logic.validate(level, Solution.of(level, [[1, 2], [1, 3, 2]]))[0].rule == "shape"


@pytest.mark.parametrize(
    "kind, numbers, holds, fails",
    [
        ("same", (), (2, 2), (2, 3)),
        ("not_same", (), (2, 3), (2, 2)),
        ("next_to", (), (3, 2), (2, 4)),
        ("left_of", (), (2, 3), (3, 2)),
        ("somewhere_left_of", (), (1, 3), (3, 3)),
        ("distance", (2,), (4, 2), (2, 3)),
    ],
)
def test_meanings_of_two_value_clues(kind, numbers, holds, fails):
    assert logic.MEANINGS[kind](holds, numbers)
    assert not logic.MEANINGS[kind](fails, numbers)


def test_meanings_of_the_other_clues():
    assert logic.MEANINGS["at"]((3,), (3,)) and not logic.MEANINGS["at"]((2,), (3,))
    assert logic.MEANINGS["not_at"]((2,), (3,)) and not logic.MEANINGS["not_at"]((3,), (3,))
    assert logic.MEANINGS["one_of"]((3,), (1, 3)) and not logic.MEANINGS["one_of"]((2,), (1, 3))
    either = logic.MEANINGS["either_or"]
    assert either((1, 1, 2), ()) and either((1, 2, 1), ())
    assert not either((1, 1, 1), ()) and not either((1, 2, 3), ())


def test_solution_json_round_trip_and_render():
    level = puzzle("einstein")
    solution = solve_all(VARIANTS[0], level).solutions[0]
    data = json.loads(json.dumps(solution.to_json()))
    assert data["positions"]["pet"]["fish"] == 4
    assert logic.solution_from_json(level, data) == solution
    text = logic.render(level, solution)
    assert re.search(r"^pet\s+cats\s+horses\s+birds\s+fish\s+dogs$", text, re.M)
    assert "Who owns the fish? German (position 4)" in text
    assert "15 clues" in logic.describe(level)
    assert "Who owns the fish?" in logic.render(level)


# -------------------------------------------------- the two readings of "left of"


def _count_only(spec: str) -> bool:
    """A count-only variant (ganak) lists no solutions: its answers are checked by count alone."""
    return registry.catalog(Spec.parse(spec).backend, "logic").count_only


@pytest.mark.parametrize("spec", VARIANTS)
def test_einstein_immediately_left_has_one_solution_german_owns_the_fish(spec: str):
    level = puzzle("einstein")
    result = solve_all(spec, level)
    assert (result.count, result.complete) == (1, True)
    if _count_only(spec):
        return
    assert logic.answer(level, result.solutions[0]) == "Who owns the fish? German (position 4)"


@pytest.mark.parametrize("spec", VARIANTS)
def test_einstein_somewhere_left_has_several(spec: str):
    level = puzzle("einstein-somewhere")
    result = solve_all(spec, level)
    assert result.complete and result.count == 7
    if _count_only(spec):
        return
    owners = {logic.answer(level, s).split("? ")[1].split(" (")[0] for s in result.solutions}
    assert len(owners) > 1  # the question no longer has one answer


@pytest.mark.parametrize("spec", VARIANTS)
def test_zebra_as_printed_japanese_owns_the_zebra_norwegian_drinks_water(spec: str):
    level = puzzle("zebra")
    result = solve_all(spec, level)
    assert (result.count, result.complete) == (1, True)
    if _count_only(spec):
        return
    assert logic.answer(level, result.solutions[0]).splitlines() == [
        "Who drinks water? Norwegian (position 1)",
        "Who owns the zebra? Japanese (position 5)",
    ]


@pytest.mark.parametrize("spec", VARIANTS)
def test_zebra_somewhere_right_has_several(spec: str):
    result = solve_all(spec, puzzle("zebra-somewhere"))
    assert result.complete and result.count == 11


@pytest.mark.parametrize("spec", VARIANTS)
@pytest.mark.parametrize("stem, unique", [("einstein", True), ("einstein-somewhere", False)])
def test_uniqueness_is_decided_by_asking_for_two(spec: str, stem: str, unique: bool):
    result = registry.get(spec, "logic").run(puzzle(stem), Limits(time=60, solutions=2), ENUMERATE)
    assert (result.count == 1 and result.complete) is unique
    # a count-only variant's count is exact whatever the solution limit
    assert result.count == (1 if unique else 2) or (_count_only(spec) and result.complete)


# ------------------------------------------------- every backend, every puzzle


def test_expected_counts_cover_the_shipped_puzzles():
    assert sorted(EXPECTED) == PUZZLES
    assert set(declaring("PORTFOLIO")) <= set(BACKENDS), f"logic is registered only on {BACKENDS}"


#: (variant, puzzle) pairs that take seconds rather than milliseconds
SLOW = {("cpsat:boolean", "beach-10")}
#: pairs out of reach in CI time: Algorithm C meets a clue only when it branches on it (docs/exactcover.md)
HEAVY = {("exactcover:colours", "beach-10")}
#: counts by no-good cuts are one MIP solve per solution (docs/mip.md): not for 256 of them
#: (every mip variant, the compiled ones included)
TOO_MANY_FOR_CUTS = {"market-8-loose"}


def count_cases():
    # the contract test (tests/test_contract.py) already counts its small instances on every variant
    for spec in VARIANTS:
        for stem in [
            s
            for s in PUZZLES
            if s not in small_instances("logic") and not (spec.startswith("mip:") and s in TOO_MANY_FOR_CUTS)
        ]:
            marks = [pytest.mark.slow] if (spec, stem) in SLOW else [pytest.mark.heavy] if (spec, stem) in HEAVY else []
            yield pytest.param(spec, stem, marks=marks, id=f"logic-{stem}-{spec}")


@pytest.mark.parametrize("spec, stem", list(count_cases()))
def test_counts_match_expected(spec: str, stem: str):
    result = solve_all(spec, puzzle(stem))
    assert {"count": result.count, "complete": result.complete} == EXPECTED[stem]
    assert len(set(result.solutions)) == (0 if _count_only(spec) else result.count)


@pytest.mark.parametrize("spec", VARIANTS)
def test_first_solution_run_is_valid(spec: str):
    # a count-only variant rebuilds its first solution from counts, one per few variables: a smaller puzzle
    level = puzzle("einstein" if _count_only(spec) else "market-8")
    result = registry.get(spec, "logic").run(level, Limits(time=60), Options())
    assert result.count == 1 and logic.validate(level, result.solutions[0]) == []


# --------------------------------------------------------- hostile names


INJECTION = "a). #show x. b("

HOSTILE = f"""\
positions = 3
[categories]
{json.dumps(INJECTION)} = [{json.dumps(INJECTION)}, "#const n=1.", "%*"]
pet = ["cat", ":- place(0,0,1).", "x\\"). #show y/0. z(\\""]

[[clues]]
next_to = [{json.dumps(INJECTION)}, "cat"]

[[clues]]
not_at = [":- place(0,0,1).", 2]
"""


def test_hostile_names_are_just_names():
    level = logic.parse_text(HOSTILE)
    assert level.categories[0].values[0] == INJECTION
    assert level.categories[1].values[2] == 'x"). #show y/0. z("'
    assert brute_force_count(level) == 12


@pytest.mark.parametrize("spec", VARIANTS)
def test_hostile_names_solve_normally(spec: str):
    level = logic.parse_text(HOSTILE)
    result = solve_all(spec, level)
    assert (result.count, result.complete) == (12, True)
    if not _count_only(spec):
        assert INJECTION in logic.render(level, result.solutions[0])


def test_clingo_facts_are_integers_only():
    from trisolve.backends.clingo import logic as asp

    for level in [logic.parse_text(HOSTILE), puzzle("odd-names")]:
        facts = asp.facts(level)
        assert all(re.fullmatch(r"[a-z_]+\(\d+(,\d+)*\)\.", line) for line in facts.splitlines()), facts
        exported = registry.get("clingo", "logic").export(level, Options())
        assert INJECTION not in exported and "#show x" not in exported


@pytest.mark.parametrize("stem", ["einstein", "zebra-somewhere", "odd-names"])
def test_logic_lp_runs_with_plain_clingo(stem: str):
    """The contract: the .lp file and exported facts run without trisolve's engine."""
    import clingo

    from trisolve.backends.clingo import logic as asp

    level = puzzle(stem)
    control = clingo.Control(["0", "--project", "--warn=none"])
    control.load(str(Path(asp.__file__).parent / "encodings" / "logic.lp"))
    control.add("base", [], asp.facts(level))
    control.ground([("base", [])])
    models = []
    control.solve(on_model=lambda model: models.append(model.symbols(shown=True)))
    assert len(models) == EXPECTED[stem]["count"]
    assert all(logic.validate(level, asp.encode(level, "choice", Options()).decode(m)) == [] for m in models)


# ------------------------------------------ random small puzzles vs brute force


@st.composite
def small_puzzles(draw) -> Level:
    """Tiny puzzles with any clues (often unsatisfiable): small enough to brute-force."""
    n, c = draw(st.sampled_from([(1, 2), (2, 3), (2, 4), (3, 2), (3, 3), (4, 2)]))
    categories = tuple(Category(f"k{i}", tuple(f"v{i}_{j}" for j in range(n))) for i in range(c))
    items = [Item(i, j) for i in range(c) for j in range(n)]
    kinds = [k for k in logic.SHAPES if not (k == "distance" and n == 1)]
    clues = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(kinds))
        shape = logic.SHAPES[kind]
        count = shape.count("value")
        if len(items) < count:
            continue
        chosen = tuple(draw(st.permutations(items))[:count])
        numbers: tuple[int, ...] = ()
        if "position" in shape:
            numbers = (draw(st.integers(1, n)),)
        elif "distance" in shape:
            numbers = (draw(st.integers(1, n - 1)),)
        elif "positions" in shape:
            numbers = tuple(sorted(draw(st.sets(st.integers(1, n), min_size=1))))
        clues.append(Clue(kind, chosen, numbers))
    return Level(n, categories, tuple(clues))


@pytest.mark.parametrize("spec", VARIANTS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(level=small_puzzles())
def test_random_small_puzzles_match_brute_force(spec: str, level: Level):
    assert math.factorial(level.positions) ** len(level.categories) <= 576
    # counts by no-good cuts take one MIP solve per solution: checked up to 30, and as 30+ beyond
    cap = 30 if spec.startswith("mip:") else None
    result = solve_all(spec, level, Limits(time=60, solutions=cap))
    truth = brute_force_count(level)
    if cap is not None and truth >= cap:  # stopped at the cap: "30+" (exactly 30 may be known complete or not)
        assert result.count == cap and (not result.complete or truth == cap)
        return
    assert result.complete
    assert result.count == truth
    assert logic.parse_text(logic.format_level(level)) == level


@pytest.mark.slow
@pytest.mark.parametrize("stem", ["six-houses", "market-8", "beach-10"])
def test_generated_puzzles_need_every_clue(stem: str):
    """Their files say so: without any one clue, a second solution appears."""
    level = puzzle(stem)
    backend = registry.get("pysat", "logic")
    for index in range(len(level.clues)):
        weaker = Level(level.positions, level.categories, level.clues[:index] + level.clues[index + 1 :])
        assert backend.run(weaker, Limits(time=60, solutions=2), ENUMERATE).count == 2, f"clue {index + 1} is redundant"
