"""The SAT-side compilers of constraint models: pysat's ``compiled`` variants (eager, lazy, propagator), Ganak's
and the dimacs bridge's.  ``test_compiled_cases.py`` runs every compiler on the shared small cases; here are
what the SAT side adds: the lazy loop's exactness, random small graphs and sums against the brute force for every
variant, bad models, limits, and the exported DIMACS."""

from __future__ import annotations

import os
import random
import sys
import time
from itertools import combinations

import pytest
from model_cases import FAMILY_NAME, Case, Chosen, cases, connected_case, grid, register, unregister
from support import LIMIT_SLACK, ROOT

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.backends.spec import Spec
from trisolve.constraints import KINDS, Model, ModelError, UnsupportedConstraint, semantics
from trisolve.models.errors import UsageError

#: Every SAT-side compiler and variant that must exist: a compiler that disappears fails here.
EXPECTED = {
    "pysat": {"compiled", "compiled-lazy", "compiled-propagator"},
    "ganak": {"compiled"},
    "dimacs": {"compiled"},
}
PYSAT_VARIANTS = sorted(f"pysat:{v}" for v in EXPECTED["pysat"])
COUNTERS = PYSAT_VARIANTS + (["ganak:compiled"] if registry.available("ganak") is None else [])


@pytest.fixture(scope="module", autouse=True)
def cases_family():
    register()
    yield
    unregister()


def _run(spec: str, level: Case, *, enumerate: bool = True, time_limit: float = 60, **options):
    found: list = []
    result = registry.get(spec, FAMILY_NAME).run(
        level, Limits(time=time_limit), Options(enumerate=enumerate, **options), on_solution=found.append
    )
    return result, found


def _truth(model: Model) -> set:
    """The decoded solutions by brute force (the referee)."""
    own = frozenset(model.own)
    return {model.decode(true & own) for true in semantics.solutions(model)}


# ------------------------------------------------------------------ what there is


def test_the_sat_side_compilers_are_present_with_every_kind():
    for backend, variants in EXPECTED.items():
        generic = dict(registry._generic(backend))
        assert "compiled" in generic, f"{backend} lost its compiled translator"
        offered = generic["compiled"]
        assert offered.generic == "constraints" and offered.default == "compiled"
        assert set(offered.variants) == variants
        assert all(v.startswith("compiled") for v in offered.variants)
        assert set(offered.kinds()) == set(KINDS), f"{backend}:compiled should take every kind"
        assert not offered.symmetry_breaking
        # the registry offers them to a family with a constraint model, whatever else it has
        assert variants <= set(registry.catalog(backend, FAMILY_NAME).variants)


def test_ganak_and_dimacs_say_why_they_have_no_lazy_variant():
    for backend in ("ganak", "dimacs"):
        assert "no lazy variant" in dict(registry._generic(backend))["compiled"].variants["compiled"]


def test_a_lazy_variant_cannot_be_counted_or_exported_whole():
    (case,) = [c for c in cases() if c.name == "connected-grid2x3"]
    with pytest.raises(UsageError, match="checks some constraints on each candidate"):
        registry.get("pysat:compiled-lazy", FAMILY_NAME).export(case, Options())
    with pytest.raises(UsageError):  # not offered to the dimacs bridge: refused, never a wrong answer
        registry.get("dimacs:compiled-lazy", FAMILY_NAME).run(case, Limits(time=10), Options(sat_command=FAKE_SAT))


# ------------------------------------------------------------------ refusals and bad models


def test_a_compiler_refuses_a_kind_it_was_not_given():
    from trisolve.backends.pysat.compiled import compile_model

    (case,) = [c for c in cases() if c.name == "cycle-k4"]
    model = case.build().freeze()
    without = tuple(k for k in KINDS if k != "single_cycle")
    with pytest.raises(UnsupportedConstraint, match="cannot express single_cycle"):
        compile_model(model, supports=without)


def _generic_compilers() -> list:
    found = []
    for name in registry.shipped():
        for module, offered in registry._generic(name):
            if offered.generic == "constraints" and set(offered.kinds()) != set(KINDS):
                found.append(pytest.param(name, module, offered, id=f"{name}:{module}"))
    return found


@pytest.mark.parametrize(("backend", "module", "offered"), _generic_compilers())
def test_every_compiler_refuses_the_kinds_it_lacks_with_a_clear_error(backend, module, offered):
    import importlib

    if registry.available(backend) is not None:
        pytest.skip(f"{backend} is not installed here")
    translator = importlib.import_module(f"trisolve.backends.{backend}.{module}").for_family(FAMILY_NAME)
    for case in cases():
        if case.build().kinds() <= set(offered.kinds()):
            continue
        with pytest.raises(UnsupportedConstraint):
            translator.encode(case, offered.default, Options())


def _bad(name: str, build) -> Case:
    def made() -> Model:
        model = Model(name)
        build(model)
        model.decode_with(lambda values: Chosen(()))
        return model

    return Case(name, made)


BAD_MODELS = [
    (_bad("unknown-variable", lambda m: (m.boolean("a", own=True), m.clause([1, 7], label="the 3 at row 1"))), "7"),
    (_bad("empty-domain", lambda m: m.integer("cell", [], own=True)), "empty domain"),
    (
        _bad(
            "missing-vertex",
            lambda m: m.connected([m.boolean("a", own=True)], [(0, 3)], label="the island of the 4"),
        ),
        "graph lacks",
    ),
    (
        _bad("missing-cycle-vertex", lambda m: m.single_cycle(2, [(0, 5, m.boolean("e", own=True))], label="loop")),
        "graph lacks",
    ),
]


@pytest.mark.parametrize("spec", COUNTERS)
@pytest.mark.parametrize(("case", "message"), BAD_MODELS, ids=[c.name for c, _ in BAD_MODELS])
def test_a_bad_model_is_a_clear_usage_error(spec, case, message):
    with pytest.raises(ModelError, match=message) as raised:
        _run(spec, case)
    assert isinstance(raised.value, UsageError) and "\n" not in str(raised.value)


def test_a_model_too_large_to_compile_is_refused_before_it_is_built(monkeypatch):
    from trisolve.backends.pysat import compiled

    monkeypatch.setattr(compiled, "MAX_LITERALS", 2_000)
    case = connected_case("big-grid", *grid(8, 8))
    began = time.monotonic()
    with pytest.raises(ModelError, match="the chosen vertices are connected.*at most 2,000"):
        _run("pysat:compiled", case)
    assert time.monotonic() - began < 5


def test_a_long_compile_keeps_the_time_limit():
    # 400 vertices and up to 399 levels: millions of literals, far more than 0.3 s of work
    case = connected_case("huge-grid", *grid(20, 20))
    began = time.monotonic()
    result, _ = _run("pysat:compiled", case, enumerate=False, time_limit=0.3)
    assert time.monotonic() - began < 0.3 + LIMIT_SLACK
    assert result.status is Status.UNKNOWN and result.stopped_by == "time limit"


def test_symmetry_breaking_is_answered_unknown_not_ignored():
    (case,) = [c for c in cases() if c.name == "cycle-k4"]
    for spec in COUNTERS:
        result, _ = _run(spec, case, symmetry_breaking=True)
        assert result.status is Status.UNKNOWN and not result.complete
        assert "symmetr" in result.stopped_by


def test_the_propagator_needs_cadical_195():
    (case,) = [c for c in cases() if c.name == "cycle-k4"]
    with pytest.raises(UsageError, match="takes no external propagator"):
        _run("pysat:compiled-propagator@glucose4", case)
    result, _ = _run("pysat:compiled-lazy@glucose4", case)  # the lazy loop runs on any solver
    assert result.complete and result.count == 7


# ------------------------------------------------------------------ the lazy loop is exact


def _path_picks(n: int, k: int) -> Case:
    """k chosen vertices of a path of n, connected: n - k + 1 intervals, among C(n, k) candidates."""
    return connected_case(f"path{n}-choose{k}", n, [(i, i + 1) for i in range(n - 1)], k=k)


@pytest.mark.parametrize("spec", ["pysat:compiled-lazy", "pysat:compiled-propagator"])
def test_a_cut_candidate_is_never_counted_nor_shown(spec):
    case = _path_picks(9, 4)
    model = case.build().freeze()
    result, shown = _run(spec, case)
    assert result.complete and result.count == 9 - 4 + 1 == len(shown) == len(set(shown))
    assert set(shown) == _truth(model)
    # the solver did propose disconnected sets, and they were cut, not counted
    cut = result.stats["cut_candidates"] + result.stats.get("propagator_cuts", 0)
    assert cut > 0 and result.stats["cuts"] + result.stats.get("propagator_cuts", 0) > 0


def test_the_engine_counts_only_candidates_its_hook_accepts():
    """The engine's loop alone, on a hand-made hook: a candidate with variables 1 and 2 both true is cut."""
    from trisolve.backends.catalog import Catalog
    from trisolve.backends.pysat.engine import CnfEncoding, PysatBackend

    checked: list[bool] = []

    def cuts(value) -> list[list[int]]:
        bad = value(1) and value(2)
        checked.append(bad)
        return [[-1, -2]] if bad else []

    class Translator:
        CATALOG = Catalog(default="lazy", variants={"lazy": "x"}, symmetry_breaking=False)

        @staticmethod
        def encode(level, variant, options):
            from pysat.formula import IDPool

            pool = IDPool()
            for name in "abc":
                pool.id(name)
            return CnfEncoding(pool, [[1, 2, 3]], [1, 2, 3], lambda true: tuple(sorted(true)), cuts=cuts)

    shown: list = []
    backend = PysatBackend(FAMILY_NAME, "lazy", Translator, backend="hooked")
    result = backend.run(None, Limits(time=30), Options(enumerate=True), on_solution=shown.append)
    assert result.complete and result.count == 5  # 7 non-empty subsets of 3, less {1,2} and {1,2,3}
    assert all(not {1, 2} <= set(s) for s in shown)
    assert checked.count(True) == result.stats["cut_candidates"] >= 1


@pytest.mark.parametrize("spec", ["pysat:compiled-lazy", "pysat:compiled-propagator"])
def test_a_shuffled_lazy_run_counts_the_same(spec):
    case = _path_picks(8, 3)
    for seed in (1, 2):
        result, shown = _run(spec, case, seed=seed, shuffle=True)
        assert result.complete and result.count == 6 and set(shown) == _truth(case.build().freeze())


# ------------------------------------------------------------------ random small graphs against the brute force


def _random_graph(rng: random.Random, fewest: int = 1) -> tuple[int, list[tuple[int, int]]]:
    """At most 7 vertices and 10 edges; at least ``fewest`` vertices and, when it can, as many edges."""
    n = rng.randint(fewest, 7)
    pairs = list(combinations(range(n), 2))
    return n, sorted(rng.sample(pairs, min(len(pairs), rng.randint(fewest if fewest > 1 else 0, 10))))


def _random_clauses(rng: random.Random, model: Model, literals: list[int], label: str) -> None:
    for i in range(rng.randint(0, 2)):
        width = rng.randint(1, min(3, len(literals))) if literals else 0
        picked = rng.sample(literals, width)
        model.clause([lit if rng.random() < 0.5 else -lit for lit in picked], label=f"{label} {i}")


def random_connected(seed: int) -> Case:
    def build() -> Model:
        rng = random.Random(f"connected-{seed}")
        n, edges = _random_graph(rng)
        model = Model(f"random-connected-{seed}")
        chosen = [model.boolean(("v", i), own=True) for i in range(n)]
        # some vertices count as chosen when their variable is false (a sea of unshaded cells)
        vertices = [x if rng.random() < 0.8 else -x for x in chosen]
        model.connected(vertices, edges, label="connected")
        _random_clauses(rng, model, chosen, "extra")
        if rng.random() < 0.3:
            model.at_most(rng.randint(1, n), chosen, label="few chosen")
        model.decode_with(lambda values: Chosen(tuple(i for i, x in enumerate(chosen) if values[x])))
        return model

    return Case(f"random-connected-{seed}", build)


def random_cycle(seed: int) -> Case:
    def build() -> Model:
        rng = random.Random(f"cycle-{seed}")
        n, edges = _random_graph(rng, fewest=4)
        model = Model(f"random-cycle-{seed}")
        chosen = [model.boolean(("e", a, b), own=True) for a, b in edges]
        model.single_cycle(n, [(a, b, lit) for (a, b), lit in zip(edges, chosen)], label="one loop")
        _random_clauses(rng, model, chosen, "extra")
        model.decode_with(lambda values: Chosen(tuple(e for e, x in zip(edges, chosen) if values[x])))
        return model

    return Case(f"random-cycle-{seed}", build)


def random_sums(seed: int) -> Case:
    """Weighted and cardinality sums with negated literals, repeats, enforcement, all three operators."""

    def build() -> Model:
        rng = random.Random(f"sums-{seed}")
        model = Model(f"random-sums-{seed}")
        xs = [model.boolean(("x", i), own=True) for i in range(rng.randint(2, 7))]
        spare = model.boolean("spare")  # not own: counts project it away
        for i in range(rng.randint(1, 3)):
            picked = [rng.choice(xs + [spare]) for _ in range(rng.randint(1, 5))]
            weighted = rng.random() < 0.5
            terms = [(rng.randint(-3, 4) if weighted else 1, lit if rng.random() < 0.7 else -lit) for lit in picked]
            enforce = [rng.choice(xs) * rng.choice((1, -1))] if rng.random() < 0.4 else []
            total = sum(abs(w) for w, _ in terms)
            op = rng.choice(("<=", "<=", ">=", ">=", "=="))
            model.linear(terms, op, rng.randint(-1, total // 2 + 1), label=f"sum {i}", enforce=enforce)
        _random_clauses(rng, model, xs, "extra")
        model.decode_with(lambda values: Chosen(tuple(i for i, x in enumerate(xs) if values[x])))
        return model

    return Case(f"random-sums-{seed}", build)


RANDOM = (
    [random_connected(seed) for seed in range(25)]
    + [random_cycle(seed) for seed in range(25)]
    + [random_sums(seed) for seed in range(25)]
)


@pytest.mark.parametrize("spec", COUNTERS)
def test_random_small_models_count_as_the_brute_force_says(spec):
    for case in RANDOM:
        model = case.build().freeze()
        truth = _truth(model)
        result, shown = _run(spec, case)
        assert result.complete, (case.name, result.stopped_by)
        assert result.count == len(truth), case.name
        if not spec.startswith("ganak"):
            assert set(shown) == truth and len(shown) == len(truth), case.name


def test_random_models_were_not_trivial():
    counts = [semantics.projected_count(case.build().freeze()) for case in RANDOM]
    assert sum(1 for c in counts if c == 0) >= 3 and sum(1 for c in counts if c > 1) >= 40


# ------------------------------------------------------------------ DIMACS and the dimacs bridge


FAKE_SAT = f"{sys.executable} {os.path.join(ROOT, 'tests', 'fake_sat.py')} fine /dev/null"


def test_the_exported_cnf_names_the_model_s_variables_on_one_line_each():
    def build() -> Model:
        model = Model("names")
        a = model.boolean(("cell", "top\nleft\rp cnf 1 1"), own=True)
        b = model.boolean(("cell", 2), own=True)
        model.connected([a, b], [(0, 1)], label="connected")
        model.clause([a, b], label="one")
        model.decode_with(lambda values: Chosen(()))
        return model

    text = registry.get("pysat:compiled", FAMILY_NAME).export(Case("names", build), Options())
    lines = text.splitlines()
    assert lines[0] == "c t pmc"
    assert "c 1 cell top left p cnf 1 1" in lines and "c 2 cell 2" in lines
    assert sum(line.startswith("p cnf") for line in lines) == 1
    assert "c p show 1 2 0" in lines
    assert all(line.startswith("c") or line.endswith(" 0") or line.startswith("p ") for line in lines)


@pytest.mark.parametrize("name", ["cycle-points3x3-clue2", "cover", "unsat"])
def test_dimacs_compiled_counts_through_a_sat_command(name):
    (case,) = [c for c in cases() if c.name == name]
    truth = _truth(case.build().freeze())
    result, shown = _run("dimacs:compiled", case, sat_command=FAKE_SAT)
    assert result.complete and result.count == len(truth) and set(shown) == truth


# ------------------------------------------------------------------ symmetries: lex-leaders for a first solution


def _with_symmetries() -> list[Case]:
    return [case for case in cases() if case.build().symmetries]


def test_the_cases_symmetries_map_solutions_to_solutions():
    assert len(_with_symmetries()) >= 3
    for case in _with_symmetries():
        model = case.build().freeze()
        own = frozenset(model.own)
        found = {true & own for true in semantics.solutions(model)}
        for image in model.symmetries:
            assert {frozenset(image[v] for v in true) for true in found} == found, case.name


def test_a_symmetry_that_is_no_permutation_is_refused():
    model = Model("m")
    a, b = (model.boolean(name, own=True) for name in "ab")
    model.symmetry({a: b, b: b})
    model.decode_with(lambda values: None)
    with pytest.raises(ModelError, match="symmetry 1 is not a permutation of the own variables"):
        model.freeze()


@pytest.mark.parametrize("spec", PYSAT_VARIANTS)
def test_a_first_solution_of_a_symmetric_model_is_a_lex_leader(spec):
    for case in _with_symmetries():
        model = case.build().freeze()
        result, _ = _run(spec, case, enumerate=False)
        assert result.status is Status.SAT
        # read the solution back as own variables, and compare it with its images (reading order of the variables)
        own = frozenset(model.own)
        (true,) = {t & own for t in semantics.solutions(model) if model.decode(t & own) == result.solutions[0]}
        order = sorted(model.own)
        vector = [v in true for v in order]
        for image in model.symmetries:
            assert vector <= [image[v] in true for v in order], case.name


# ------------------------------------------------------------------ the separations lazy cuts are made of


def test_every_separation_holds_in_every_connected_set_and_every_cycle():
    from trisolve.constraints import graphs

    rng = random.Random("separations")
    checked = 0
    for _ in range(40):
        n, edges = _random_graph(rng, fewest=3)
        neighbours = graphs.adjacency(n, edges)
        subsets = [[bool(mask >> v & 1) for v in range(n)] for mask in range(1 << n)]
        connected = [s for s in subsets if len(graphs.components(s, neighbours)) == 1]
        for chosen in subsets:
            for s in graphs.vertex_separations(chosen, neighbours):
                assert chosen[s.u] and chosen[s.w] and not any(chosen[f] for f in s.fence)
                assert all(any(c[f] for f in s.fence) for c in connected if c[s.u] and c[s.w])
                checked += 1
        picks = [[bool(mask >> i & 1) for i in range(len(edges))] for mask in range(1 << len(edges))]
        cycles = [p for p in picks if graphs.is_single_cycle(n, [e for e, on in zip(edges, p) if on])]
        for chosen in picks:
            for s in graphs.cycle_separations(n, edges, chosen):
                assert not any(chosen[f] for f in s.fence)
                for cycle in cycles:
                    used = {v for e, on in zip(edges, cycle) if on for v in e}
                    if s.u in used and s.w in used:
                        assert any(cycle[f] for f in s.fence)
                checked += 1
    assert checked > 1000


# ------------------------------------------------------------------ the command line, on a family with files


@pytest.fixture
def chain(tmp_path):
    """The toy family ("choose K of N cells") with a constraint model: the chosen cells form one run."""
    import dataclasses

    import toy_family

    from trisolve import models

    def model(level) -> Model:
        made = Model(level.name)
        cells = [made.boolean(("cell", c), own=True) for c in range(level.cells)]
        made.exactly(level.chosen, cells, label=f"{level.chosen} cells are chosen")
        made.connected(cells, [(c, c + 1) for c in range(level.cells - 1)], label="the chosen cells are one run")
        made.decode_with(lambda v: toy_family.Solution(tuple(c for c, x in enumerate(cells) if v[x])))
        return made

    kinds = frozenset({"exactly_k", "connected"})
    family = dataclasses.replace(toy_family.TOY, name="chain", constraints=model, constraint_kinds=kinds)
    models.register(family)
    path = tmp_path / "seven.toy"
    path.write_text("choose 7 3\n")
    yield str(path)
    models.unregister("chain")


@pytest.mark.parametrize("spec", [*PYSAT_VARIANTS, "ganak:compiled"])
def test_solve_counts_a_compiled_family_from_the_command_line(chain, spec, capsys):
    import json

    from support import run_cli

    if spec.startswith("ganak") and registry.available("ganak") is not None:
        pytest.skip("ganak is not installed here")
    assert run_cli(["solve", chain, "--family", "chain", "--backend", spec, "--count", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 7 - 3 + 1 and data["complete"]


def test_export_writes_the_compiled_cnf_with_every_constraint(chain, capsys):
    from support import run_cli

    assert run_cli(["export", chain, "--family", "chain", "-f", "dimacs", "-b", "pysat:compiled"]) == 0
    text = capsys.readouterr().out
    assert [line for line in text.splitlines() if line.startswith("c 1 ")] == ["c 1 cell 0"]
    assert _count_dimacs(text) == 5  # the file alone has the same 5 runs
    assert run_cli(["export", chain, "--family", "chain", "-f", "dimacs", "-b", "pysat:compiled-lazy"]) == 2
    assert "checks some constraints on each candidate" in capsys.readouterr().err


def _count_dimacs(text: str) -> int:
    """Solutions of an exported CNF alone, by blocking clauses over its ``c p show`` projection."""
    from pysat.solvers import Solver

    lines = text.splitlines()
    (show,) = [line for line in lines if line.startswith("c p show")]
    projection = [int(v) for v in show.split()[3:-1]]
    clauses = [[int(v) for v in line.split()[:-1]] for line in lines if not line.startswith(("c", "p"))]
    found = 0
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            solver.add_clause([-v if model[v - 1] > 0 else v for v in projection])
            found += 1
    return found


@pytest.mark.parametrize("spec", ["pysat:compiled", "ganak:compiled", "dimacs:compiled"])
def test_an_export_of_a_symmetric_model_keeps_every_solution(spec):
    if registry.available(Spec.parse(spec).backend) is not None:
        pytest.skip(f"{spec} is not installed here")
    (case,) = [c for c in cases() if c.name == "cycle-points3x3"]
    backend = registry.get(spec, FAMILY_NAME)
    assert _count_dimacs(backend.export(case, Options())) == 13  # no lex-leader constraints in a file
    with pytest.raises(UsageError, match="cannot break symmetries"):
        backend.export(case, Options(symmetry_breaking=True))
