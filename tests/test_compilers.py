"""The compilers of constraint models beyond the shared small cases (``test_compiled_cases.py``): which ones ship,
random small graphs against the brute force for every compiler and variant that takes graphs, exports that the
solvers' own tools read back with the same count, refusals with clear errors, and ``trisolve backends`` saying
why a compiler leaves a family out."""

from __future__ import annotations

import os
import random
import re
import shlex
import subprocess
import sys
from dataclasses import replace

import pytest
from model_cases import FAMILY, Case, Chosen, cases, family_of, register, unregister
from support import clingo_words, expected, level_path, run_cli

from trisolve import models
from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.constraints import KINDS, Linear, Model, ModelError, UnsupportedConstraint, compiling, semantics

#: The compilers this project ships for these backends, and their variants.
EXPECTED = {
    "clingo": {"compiled"},
    "cpsat": {"compiled", "compiled-flow"},
    "mip": {"compiled", "compiled-lazy"},
    "exactcover": {"compiled"},
}
GRAPHS = "random-graphs"


def _compilers() -> dict[str, tuple[str, ...]]:
    """Backend -> the variants of its constraint-model compilers (usable here, run by default or not)."""
    found: dict[str, tuple[str, ...]] = {}
    for name in registry.shipped():
        for _, offered in registry._generic(name):
            if offered.generic == "constraints":
                found[name] = found.get(name, ()) + tuple(offered.variants)
    return found


def _graph_specs() -> list[str]:
    """Every compiler variant that takes both graph constraints and can run here."""
    specs = []
    for name in registry.shipped():
        if registry.available(name) is not None or registry.role(name, "OPTIONAL"):
            continue
        for _, offered in registry._generic(name):
            if offered.generic == "constraints" and {"connected", "single_cycle"} <= set(offered.kinds()):
                specs.extend(f"{name}:{variant}" for variant in offered.variants)
    return specs


@pytest.fixture(scope="module", autouse=True)
def families():
    register()
    models.register(replace(FAMILY, name=GRAPHS, constraint_kinds=frozenset(KINDS)))
    yield
    models.unregister(GRAPHS)
    unregister()


def _decoded(model: Model) -> Model:
    own = list(model.own)
    model.decode_with(lambda values: Chosen(tuple(model.keys[v - 1] for v in own if values[v])))
    return model


def _truth(model: Model) -> tuple[int, set]:
    model.freeze()
    own = frozenset(model.own)
    projections = {true & own for true in semantics.solutions(model)}
    return len(projections), {model.decode(p) for p in projections}


# ------------------------------------------------------------------ which compilers ship


def test_the_expected_compilers_ship_with_their_variants():
    found = _compilers()
    for name, variants in EXPECTED.items():
        assert set(found.get(name, ())) == variants, name
    for name, variants in found.items():
        assert "compiled" in variants, name
        assert all(v == "compiled" or v.startswith("compiled-") for v in variants), (name, variants)


def test_exact_cover_is_left_out_of_a_model_it_cannot_state_and_backends_says_why(capsys):
    (reason,) = registry.left_out("exactcover", "cases")
    assert reason.startswith("exactcover:compiled: its cases model uses ")
    assert "clause" in reason and "connected" in reason and "cannot compile" in reason
    assert not any(v.startswith("exactcover:") for v in registry.variants("cases", ("exactcover",)))
    cover = family_of(next(case for case in cases() if case.name == "cover"))
    assert registry.left_out("exactcover", cover) == []
    assert run_cli(["backends", "--family", "cases"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^cases\s+exactcover:compiled: its cases model uses .*cannot compile$", out, re.MULTILINE)
    assert "clingo:compiled" in out


def test_a_family_without_a_constraint_model_gets_no_compiled_variant_and_backends_says_so(capsys):
    models.register(replace(FAMILY, name="no-model", constraints=None, constraint_kinds=frozenset()))
    try:
        assert run_cli(["backends", "--family", "no-model"]) == 0
    finally:
        models.unregister("no-model")
    out = capsys.readouterr().out
    assert "no-model   no constraint model, so no compiled variants" in out
    assert ":compiled" not in out


# ------------------------------------------------------------------ what the compilers add holds in every solution


def _small_levels(family: str, most: int = 4) -> list[Case]:
    """Shipped levels of ``family`` small enough for the brute force, as cases."""
    record = models.FAMILIES[family]
    found = []
    for stem in sorted(expected(family)):
        level = record.parse(level_path(family, stem))
        model = record.constraints(level)
        size = 2 ** (model.variables - sum(len(v.literals) for v in model.ints))
        for variable in model.ints:
            size *= len(variable.literals)
        if size <= 1 << 16:
            found.append(Case(f"{family}-{stem}", lambda level=level: record.constraints(level)))
        if len(found) >= most:
            break
    return found


@pytest.mark.parametrize("case", [*cases(), *_small_levels("hexiom")], ids=lambda case: case.name)
def test_what_a_compiler_adds_holds_in_every_solution(case):
    """Forced values, channelled equalities, implied totals and grouped sums are consequences of the model:
    each holds in every solution the brute force finds (the compilers' counts rest on it)."""
    model = case.build().freeze()
    groups = compiling.exclusive_groups(model)
    where = compiling.group_index(groups)
    added = [channel.equality() for channel in compiling.channelled_equalities(model, groups)]
    added += compiling.implied_total(model)
    fixed = compiling.forced(model)
    for true in semantics.solutions(model):

        def value(literal: int, true=true) -> bool:
            return (abs(literal) in true) == (literal > 0)

        for channel in compiling.channelled_equalities(model, groups):
            if any(value(m) for m in channel.members):
                assert semantics.holds(channel.equality(), value), channel
        for implied in added[len(compiling.channelled_equalities(model, groups)) :]:
            assert semantics.holds(implied, value), implied
        assert all(value(v) == known for v, known in fixed.items())
        for group in groups:
            assert sum(value(lit) for lit in group) <= 1
        for constraint in model.constraints:
            if isinstance(constraint, Linear):
                plain, by_group = compiling.grouped(constraint.terms, groups, where)
                total = sum(w for w, lit in plain if value(lit))
                total += sum(w for w, members in by_group if any(value(m) for m in members))
                assert total == sum(w for w, lit in constraint.terms if value(lit))


def test_the_additions_are_exercised():
    numbers = next(case for case in cases() if case.name == "numbers-int").build().freeze()
    groups = compiling.exclusive_groups(numbers)
    assert compiling.channelled_equalities(numbers, groups) and compiling.implied_total(numbers)
    latin = next(case for case in cases() if case.name == "latin").build().freeze()
    assert compiling.forced(latin) and compiling.stated_once(latin)


# ------------------------------------------------------------------ random small graphs against the brute force


def _vertex_literals(rng: random.Random, model: Model, n: int, key: str) -> list[int]:
    """Own Booleans, some of them used negated (a vertex chosen when its variable is false)."""
    return [v if rng.random() < 0.8 else -v for v in (model.boolean((key, i), own=True) for i in range(n))]


def _extra(rng: random.Random, model: Model, literals: list[int]) -> None:
    """A few random constraints over the graph's literals: a clause, a cardinality, an enforced weighted sum."""
    if len(literals) < 2:
        return
    if rng.random() < 0.5:
        model.clause(rng.sample(literals, 2), label="a random clause")
    if rng.random() < 0.5:
        picked = rng.sample(literals, rng.randint(1, len(literals)))
        op = rng.choice(["==", "<=", ">="])
        model.linear(((1, lit) for lit in picked), op, rng.randint(0, len(picked)), label="a random count")
    if rng.random() < 0.4:
        picked = rng.sample(literals, min(3, len(literals)))
        terms = [(rng.choice([1, 2, -1]), lit) for lit in picked]
        model.linear(terms, "<=", rng.randint(0, 2), label="a random sum", enforce=[rng.choice(literals)])


def _random_graph(
    rng: random.Random, least_vertices: int, most_vertices: int, most_edges: int
) -> tuple[int, list[tuple[int, int]]]:
    """A random graph, rather dense: at least as many edges as vertices where it can."""
    n = rng.randint(least_vertices, most_vertices)
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    most = min(most_edges, len(pairs))
    return n, sorted(rng.sample(pairs, rng.randint(min(n, most), most)))


def random_connected(seed: int) -> Case:
    def build() -> Model:
        rng = random.Random(f"connected-{seed}")
        n, edges = _random_graph(rng, 1, 7, 10)
        model = Model(f"random-connected-{seed}")
        vertices = _vertex_literals(rng, model, n, "v")
        model.connected(vertices, edges, label="the chosen vertices are connected")
        _extra(rng, model, vertices)
        return _decoded(model)

    return Case(f"connected-{seed}", build)


def random_cycle(seed: int) -> Case:
    def build() -> Model:
        rng = random.Random(f"cycle-{seed}")
        n, edges = _random_graph(rng, 3, 7, 10)
        model = Model(f"random-cycle-{seed}")
        chosen = _vertex_literals(rng, model, len(edges), "e")
        model.single_cycle(n, [(a, b, lit) for (a, b), lit in zip(edges, chosen)], label="one loop")
        _extra(rng, model, chosen)
        return _decoded(model)

    return Case(f"cycle-{seed}", build)


def random_loop_and_region(seed: int) -> Case:
    """A loop over the edges and, on auxiliaries defined by it (a vertex is used when an edge at it is
    chosen), a connected set: two graph constraints sharing variables, counted on the edges only."""

    def build() -> Model:
        rng = random.Random(f"both-{seed}")
        n, edges = _random_graph(rng, 3, 6, 8)
        model = Model(f"random-both-{seed}")
        chosen = [model.boolean(("e", a, b), own=True) for a, b in edges]
        used = [model.boolean(("used", v)) for v in range(n)]
        for v in range(n):
            around = [lit for (a, b), lit in zip(edges, chosen) if v in (a, b)]
            model.clause([-used[v], *around], label=f"{v} is used only with an edge")
            for lit in around:
                model.implies(lit, used[v], label=f"an edge at {v} uses it")
        model.single_cycle(n, [(a, b, lit) for (a, b), lit in zip(edges, chosen)], label="one loop")
        model.connected(used, edges, label="the used vertices are connected")
        _extra(rng, model, chosen)
        return _decoded(model)

    return Case(f"both-{seed}", build)


RANDOM = (
    [random_connected(seed) for seed in range(10)]
    + [random_cycle(seed) for seed in range(10)]
    + [random_loop_and_region(seed) for seed in range(6)]
)


@pytest.mark.parametrize("case", RANDOM, ids=lambda case: case.name)
@pytest.mark.parametrize("spec", _graph_specs())
def test_a_random_small_graph_counts_as_the_brute_force(spec, case):
    expected, valid = _truth(case.build())
    found = []
    result = registry.get(spec, GRAPHS).run(case, Limits(time=120), Options(enumerate=True), on_solution=found.append)
    assert result.complete, result.stopped_by
    assert (result.count, result.duplicates) == (expected, 0)
    if found:
        assert set(found) == valid and len(found) == expected
    first = registry.get(spec, GRAPHS).run(case, Limits(time=120), Options())
    assert first.status is (Status.SAT if expected else Status.UNSAT)
    assert not expected or first.solutions[0] in valid


def test_the_random_graphs_are_not_all_trivial():
    counts = [_truth(case.build())[0] for case in RANDOM]
    assert sum(1 for c in counts if c == 0) >= 1 and sum(1 for c in counts if c > 3) >= 5


# ------------------------------------------------------------------ exports, read back by the solvers' own tools

SMALL = [case for case in cases() if case.build().variables <= 30]


@pytest.mark.parametrize("case", SMALL, ids=lambda case: case.name)
def test_clingo_exported_facts_with_model_lp_count_the_same_on_the_command_line(case, tmp_path):
    model = case.build()
    expected, _ = _truth(model)
    family = family_of(case)
    backend = registry.get("clingo:compiled", family)
    options = Options(enumerate=True)
    facts = tmp_path / "facts.lp"
    facts.write_text(backend.export(case, options), encoding="utf-8")
    command = clingo_words(shlex.split(backend.run_command(case, options, str(facts))))
    # projected unless every variable is the puzzle's own (then an answer set is its shown atoms)
    auxiliaries = set(model.own) != set(range(1, model.variables + 1))
    assert command[:2] == ["clingo", "0"] and ("--project" in command) == auxiliaries
    assert os.path.basename(command[-2]) == "model.lp"
    done = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, timeout=120)
    # the clingo binary exits 10, 20 or 30 (sat, unsat, exhausted), python -m clingo 0: the summary decides
    assert done.returncode in (0, 10, 20, 30), done.stderr
    assert int(re.search(r"^Models\s*:\s*(\d+)", done.stdout, re.MULTILINE).group(1)) == expected


def _highs_count(path: str, own: list[int]) -> int:
    """Count the 0-1 points of an LP file, read by HiGHS itself, on the columns of the own variables."""
    import highspy
    import numpy as np

    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(path) == highspy.HighsStatus.kOk
    names = list(highs.getLp().col_names_)
    columns = [names.index(f"x{v}") for v in own]
    count = 0
    while True:
        highs.run()
        if highs.getModelStatus() == highspy.HighsModelStatus.kInfeasible:
            return count
        assert highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
        count += 1
        if not columns:
            return count
        values = highs.getSolution().col_value
        true = [c for c in columns if values[c] > 0.5]
        coefficients = [-1.0 if c in true else 1.0 for c in columns]
        highs.addRow(1.0 - len(true), highs.getInfinity(), len(columns), np.array(columns), np.array(coefficients))


@pytest.mark.parametrize("variant", sorted(EXPECTED["mip"]))
@pytest.mark.parametrize("case", SMALL, ids=lambda case: case.name)
def test_mip_exported_lp_read_back_by_highs_counts_the_same(case, variant, tmp_path):
    model = case.build()
    expected, _ = _truth(model)
    path = tmp_path / "model.lp"
    path.write_text(registry.get(f"mip:{variant}", family_of(case)).export(case, Options()), encoding="utf-8")
    assert _highs_count(str(path), list(model.own)) == expected


def _exact_cover_kinds() -> set[str]:
    return {kind for _, offered in registry._generic("exactcover") for kind in offered.kinds()}


#: the cases exact cover takes whose covers are their solutions one to one (no auxiliaries, some variable)
COVERS = [
    case
    for case in SMALL
    if (model := case.build()).kinds() <= _exact_cover_kinds() and 0 < len(model.own) == model.variables
]


def test_some_cases_are_exported_as_exact_cover():
    assert {case.name for case in COVERS} >= {"cover", "latin"}


@pytest.mark.parametrize("case", COVERS, ids=lambda c: c.name)
def test_exactcover_exported_rows_read_back_by_xcover_count_the_same(case, tmp_path):
    model = case.build()
    import xcover
    from xcover.io import read_xcover_from_file

    expected, _ = _truth(model)
    path = tmp_path / "model.xc"
    path.write_text(registry.get("exactcover:compiled", family_of(case)).export(case, Options()), encoding="utf-8")
    options, primary, secondary, colored = read_xcover_from_file(str(path))
    assert sum(1 for _ in xcover.covers(options, primary, secondary, colored)) == expected


# ------------------------------------------------------------------ bad models: clear errors


def _bad(build) -> Case:
    def model() -> Model:
        made = Model("bad")
        build(made)
        return _decoded(made)

    return Case("bad", model)


BAD = [
    (lambda m: (m.boolean("a", own=True), m.clause([5], label="the 3 at row 1")), "literal 5 is not a variable"),
    (lambda m: m.integer("x", [], own=True), "empty domain"),
    (
        lambda m: m.connected([m.boolean("a", own=True)], [(0, 3)], label="the island"),
        "edge (0, 3) joins a vertex the graph lacks",
    ),
    (
        lambda m: m.single_cycle(2, [(0, 2, m.boolean("a", own=True))], label="the loop"),
        "edge (0, 2) joins a vertex the graph lacks",
    ),
]


@pytest.mark.parametrize(("build", "message"), BAD)
@pytest.mark.parametrize("spec", [f"{name}:compiled" for name in EXPECTED])
def test_a_bad_model_is_a_clear_error_from_every_compiler(spec, build, message):
    cover = next(case for case in cases() if case.name == "cover")
    backend = registry.get(spec, family_of(cover) if spec.startswith("exactcover") else GRAPHS)
    with pytest.raises(ModelError, match=re.escape(message)):
        backend.run(_bad(build), Limits(time=30), Options())


def test_a_compiler_handed_a_kind_it_cannot_state_says_which():
    cover = next(case for case in cases() if case.name == "cover")
    translator = registry.translator("exactcover", family_of(cover), "compiled")
    clause = _bad(lambda m: m.clause([m.boolean("a", own=True), m.boolean("b", own=True)], label="a or b"))
    models.register(replace(FAMILY, name="one-clause", constraint_kinds=frozenset({"clause"})))
    try:
        with pytest.raises(UnsupportedConstraint, match="cannot compile clause constraints .*'a or b'"):
            type(translator)("one-clause").encode(clause, "compiled", Options())
    finally:
        models.unregister("one-clause")


def test_a_family_without_a_model_is_refused_by_the_compilers():
    translator = registry.translator("cpsat", family_of(cases()[0]), "compiled")
    models.register(replace(FAMILY, name="no-model", constraints=None, constraint_kinds=frozenset()))
    try:
        assert not any(":compiled" in spec for spec in registry.variants("no-model", registry.names()))
        with pytest.raises(ModelError, match="no-model has no constraint model"):
            type(translator)("no-model").encode(None, "compiled", Options())
    finally:
        models.unregister("no-model")


# ------------------------------------------------------------------ mutation: the rules stated once, broken once


@pytest.mark.parametrize("spec", ["cpsat:compiled", "mip:compiled", "clingo:compiled"])
def test_a_mutation_of_the_model_reaches_the_compiled_solver(spec):
    """``trisolve mutate`` breaks a rule of the constraint model (``mutation.apply_to_model``) before any
    compiler sees it: dropping Hexiom's neighbour rule gives more than level 10's 8 solutions."""
    from trisolve.backends import mutation

    level = models.FAMILIES["hexiom"].parse(level_path("hexiom", "level10"))
    backend = registry.get(spec, "hexiom")
    with mutation.record() as sites:
        backend.export(level, Options())
    groups = {site.name: site for site in sites.values() if site.kind == "group"}
    rule = next(site for name, site in groups.items() if "occupied neighbours" in name)
    with mutation.active(rule.mutation("drop-group")):
        broken = backend.run(level, Limits(time=60, solutions=20), Options(enumerate=True))
    assert broken.count > 8
    assert backend.run(level, Limits(time=60), Options(enumerate=True)).count == 8  # nothing leaks
