"""The constraint model itself: its checks (clear errors naming the constraint), its semantics (the referee)
and the brute force every compiler is measured against."""

from __future__ import annotations

import pytest
from model_cases import Chosen, cases, grid

from trisolve.constraints import KINDS, Model, ModelError, kind_of, semantics


def _frozen(build) -> Model:
    model = Model("m")
    build(model)
    if model.decoder is None:
        model.decode_with(lambda values: None)
    return model.freeze()


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda m: (m.boolean("a", own=True), m.clause([2], label="the 3 at row 1")), "'the 3 at row 1': literal 2"),
        (lambda m: (m.boolean("a", own=True), m.clause([0], label="zero")), "literal 0"),
        (lambda m: m.integer("x", [], own=True), "empty domain"),
        (lambda m: (m.boolean("a", own=True), m.boolean("a")), "two variables are named a"),
        (
            lambda m: m.connected([m.boolean("a", own=True)], [(0, 1)], label="island"),
            "'island': edge (0, 1) joins a vertex the graph lacks",
        ),
        (
            lambda m: m.single_cycle(2, [(0, 0, m.boolean("a", own=True))], label="loop"),
            "edge (0, 0) is a loop",
        ),
        (lambda m: m.linear([(1, m.boolean("a", own=True))], "!=", 1, label="odd"), "operator '!='"),
        (lambda m: m.clause([m.boolean("a", own=True)], label="x", role="hint"), "role 'hint'"),
    ],
)
def test_a_bad_model_is_refused_naming_the_constraint(build, message):
    with pytest.raises(ModelError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _frozen(build)


def test_a_model_with_nothing_to_decide_has_one_solution_or_none():
    empty = _frozen(lambda m: None)
    assert semantics.projected_count(empty) == 1  # the empty assignment (a board with every cell blocked)
    impossible = _frozen(lambda m: m.clause([], label="never"))
    assert semantics.projected_count(impossible) == 0


def test_a_frozen_model_refuses_changes():
    model = _frozen(lambda m: m.boolean("a", own=True))
    with pytest.raises(ModelError, match="frozen"):
        model.boolean("b")


def test_kinds_cover_every_constraint_of_the_cases():
    used = set()
    for case in cases():
        used |= case.build().kinds()
    assert used == set(KINDS), "the cases exercise every kind of constraint"


@pytest.mark.parametrize(
    ("literals", "op", "bound", "enforce", "kind"),
    [
        ((1, 2), "==", 1, (), "exactly_one"),
        ((1, 2), "<=", 1, (), "at_most_one"),
        ((1, -2), "==", 1, (), "cardinality"),
        ((1, 2), "==", 1, (3,), "cardinality"),
        ((1, 2), ">=", 1, (), "cardinality"),
        ((1, 2, 3), "==", 2, (), "exactly_k"),
        ((1, 2, 3), "==", 0, (), "exactly_k"),
    ],
)
def test_kind_of_a_linear(literals, op, bound, enforce, kind):
    model = Model()
    for i in range(3):
        model.boolean(i, own=True)
    assert kind_of(model.linear([(1, lit) for lit in literals], op, bound, label="l", enforce=enforce)) == kind


# ------------------------------------------------------------------ the referee, against numbers known by hand


def _count(name: str) -> int:
    (case,) = [c for c in cases() if c.name == name]
    return semantics.projected_count(case.build().freeze())


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("connected-path4", 11),  # empty + 4 + 3 + 2 + 1 intervals
        ("connected-star", 1 + 5 + 15),  # empty, one leaf alone, the centre with any subset of leaves (16) + 4 leaves
        ("connected-isolated", 4),  # empty or one vertex
        ("connected-two-parts", 1 + 6 + 3),  # empty, an interval of the path 0-1-2, or of 3-4
        ("cycle-points3x3", 13),  # four unit squares, four dominoes, four L-shapes, the border
        ("cycle-k4", 7),  # four triangles, three squares
        ("cycle-two-triangles", 2),
        ("cycle-no-edges", 0),
        ("auxiliary", 4),
        ("unsat", 0),
        ("cover", 1),  # the right column upright; on the left two flat ones (two upright ones break "one upright")
    ],
)
def test_the_brute_force_counts_what_hand_counting_says(name, expected):
    assert _count(name) == expected


def test_star_count_by_hand():
    # spelled out, since 21 is easy to get wrong: the empty set (1), a single leaf (4), the centre with any
    # subset of its 4 leaves (16)
    assert _count("connected-star") == 1 + 4 + 16


def test_a_decoder_reads_only_own_variables():
    model = Model("m")
    a = model.boolean("a", own=True)
    b = model.boolean("b")
    model.decode_with(lambda values: values[b])
    model.freeze()
    with pytest.raises(ModelError, match="not one of the puzzle's own"):
        model.decode({a})


def test_decode_gives_the_family_solution():
    (case,) = [c for c in cases() if c.name == "cycle-points3x3-top"]
    model = case.build().freeze()
    first = next(semantics.solutions(model))
    solution = model.decode(first)
    assert isinstance(solution, Chosen) and solution.keys
    assert grid(2, 2)[0] == 4


def test_search_hints_are_ordered_by_rank_then_as_given_and_apply_to_their_mode():
    """``Model.prefer``: higher ranks first, equal ranks in the order given, a variable's first hint kept; a
    counting hint only for counts; a hint over a literal the model lacks is refused when the model is frozen."""
    from trisolve.constraints import Model, ModelError

    model = Model("hints")
    a, b, c, d = (model.boolean(name, own=True) for name in "abcd")
    model.prefer([c, -a, b], rank=[0, 5, 0])
    model.prefer([-d, -c], counting=True)
    assert model.hints(False) == [(-a, 2), (c, 1), (b, 1)]
    assert model.hints(True) == [(-a, 2), (c, 1), (b, 1), (-d, 1)]
    assert Model("plain").hints(True) == []
    given = Model("given")
    x, y, z = (given.boolean(name, own=True) for name in "xyz")
    given.prefer([x, -y, z])  # without ranks: in the order given
    assert given.hints(False) == [(x, 3), (-y, 2), (z, 1)]
    with pytest.raises(ModelError, match="ranks"):
        model.prefer([a], rank=[1, 2])
    broken = Model("broken")
    broken.boolean("x", own=True)
    broken.prefer([7])
    broken.decode_with(lambda values: None)
    with pytest.raises(ModelError, match="search hint"):
        broken.freeze()


# ------------------------------------------------------------------ anchoring a connected set


def test_hops_and_the_most_central_vertex() -> None:
    from trisolve.constraints import graphs

    vertices, edges = grid(3, 3)
    neighbours = graphs.adjacency(vertices, edges)
    assert graphs.hops(neighbours, 0) == [0, 1, 2, 1, 2, 3, 2, 3, 4]
    assert graphs.hops(graphs.adjacency(3, [(0, 1)]), 0) == [0, 1, None]
    assert graphs.central(neighbours, [0, 5, 4]) == 4
    assert graphs.central(neighbours, [2, 1]) == 1
    assert graphs.central(neighbours, []) is None


def test_small_sets_are_connected_each_once() -> None:
    from trisolve.constraints import graphs

    neighbours = graphs.adjacency(4, [(0, 1), (1, 2), (2, 3)])
    assert graphs.small_sets(neighbours, 2) == [(0,), (1,), (2,), (3,), (0, 1), (1, 2), (2, 3)]
    assert graphs.small_sets(neighbours, 3, avoid=[1]) == [(0,), (2,), (3,), (2, 3)]


def test_every_pocket_is_crossed_by_every_connected_set_holding_the_root() -> None:
    from itertools import product

    from trisolve.constraints import graphs

    vertices, edges = grid(3, 3)
    neighbours = graphs.adjacency(vertices, edges)
    pockets = graphs.anchored_separations(neighbours, 4, size=3, fence=3)
    assert graphs.Pocket((0,), (1, 3)) in pockets and all(4 not in p.inside for p in pockets)
    for chosen in product([False, True], repeat=vertices):
        if not chosen[4] or len(graphs.components(chosen, neighbours)) != 1:
            continue
        for pocket in pockets:
            if any(chosen[v] for v in pocket.inside):
                assert any(chosen[b] for b in pocket.fence), (chosen, pocket)


def test_an_anchor_only_where_the_model_forces_a_vertex() -> None:
    from trisolve.constraints import Connected, compiling

    def build(fixed: bool) -> tuple:
        model = Model("anchor")
        chosen = [model.boolean(("v", i), own=True) for i in range(5)]
        model.connected(chosen, [(0, 1), (1, 2), (3, 4)], label="connected")
        if fixed:
            model.fix(chosen[3], label="vertex 3")
        model.decode_with(lambda values: None)
        model.freeze()
        return compiling.forced(model), next(c for c in model.constraints if isinstance(c, Connected))

    assert compiling.anchored(*build(False)) is None
    anchor = compiling.anchored(*build(True))
    assert anchor is not None and anchor.root == 3 and anchor.unreachable == [0, 1, 2]
