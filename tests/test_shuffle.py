"""Input shuffles (``Options.shuffle``; pysat also from ``--seed``): same solutions, other luck, recorded.

Every backend reorders its own input (pysat renumbers variables and
reorders clauses and literals, clingo reorders facts, CP-SAT permutes
variables and constraints); these tests prove, for every backend and
family, that the set of solutions after mapping back is exactly the set
without a shuffle, and that the stats say which shuffle ran.
"""

from __future__ import annotations

import pytest
from support import level_path

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.models import FAMILIES
from trisolve.selection import declaring

#: small instances with several solutions each (expected.json): (family, stem)
INSTANCES = [
    ("hexiom", "level03"),  # 18 solutions
    ("hexiom", "level10"),  # 8
    ("sigils", "gate-5x4"),  # 14
    ("sigils", "free-6x4"),  # 16
    ("logic", "einstein-somewhere"),
    ("logic", "zebra"),
]
#: each paradigm's backend (the portfolio): SAT, ASP, CP
BACKENDS = list(declaring("PORTFOLIO"))


def _solutions(backend: str, family: str, stem: str, options: Options):
    fam = FAMILIES[family]
    level = fam.parse(level_path(family, stem))
    result = registry.get(backend, family).run(level, Limits(time=120), options)
    assert result.complete
    for solution in result.solutions:
        assert fam.validate(level, solution) == []
    keys = [fam.canonical(level, s) for s in result.solutions]
    assert len(keys) == len(set(keys)) and result.duplicates == 0
    return set(keys), result


@pytest.mark.parametrize("family,stem", INSTANCES, ids=[f"{f}-{s}" for f, s in INSTANCES])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shuffle_keeps_the_solution_set(backend, family, stem):
    plain, result = _solutions(backend, family, stem, Options(enumerate=True))
    assert result.stats.get("shuffle") is None
    for seed in (1, 7):
        shuffled, result = _solutions(backend, family, stem, Options(enumerate=True, seed=seed, shuffle=True))
        assert shuffled == plain
        assert result.stats["seed"] == seed and f"(seed {seed})" in result.stats["shuffle"]


def test_pysat_has_no_seed_of_its_own_so_the_seed_shuffles():
    """--seed alone varies pysat (it would otherwise change nothing); seed 0 is the input as translated."""
    plain, zero = _solutions("pysat", "hexiom", "level03", Options(enumerate=True))
    same, seeded = _solutions("pysat", "hexiom", "level03", Options(enumerate=True, seed=5))
    assert same == plain
    assert zero.stats["shuffle"] is None
    assert seeded.stats["shuffle"] == "clauses and literals reordered (seed 5)"
    _, shuffled = _solutions("pysat", "hexiom", "level03", Options(enumerate=True, seed=5, shuffle=True))
    assert shuffled.stats["shuffle"] == "clauses and literals reordered, variables renumbered (seed 5)"


def test_clingo_seed_alone_reorders_the_facts():
    """A seed alone changes almost nothing in clasp, so a seed other than 0 also reorders the facts."""
    _, zero = _solutions("clingo", "hexiom", "level03", Options(enumerate=True))
    _, seeded = _solutions("clingo", "hexiom", "level03", Options(enumerate=True, seed=5))
    assert zero.stats["shuffle"] is None and seeded.stats["shuffle"] == "facts reordered (seed 5)"


def test_a_cnf_shuffle_is_reproducible_and_a_renumbering():
    from trisolve.backends.pysat import hexiom
    from trisolve.backends.pysat.engine import shuffled, to_dimacs

    level = FAMILIES["hexiom"].parse(level_path("hexiom", "level10"))
    cnf = hexiom.encode(level, "totalizer", Options())
    one, again, other = shuffled(cnf, 3), shuffled(cnf, 3), shuffled(cnf, 4)
    assert one.clauses == again.clauses and one.projection == again.projection
    assert one.clauses != other.clauses
    # without renumbering (--seed alone): the same clauses as sets, in another order
    reordered = shuffled(cnf, 3, renumber=False)
    assert reordered.projection == cnf.projection and reordered.clauses != cnf.clauses
    assert sorted(map(sorted, reordered.clauses)) == sorted(map(sorted, cnf.clauses))
    # the same clauses once each variable is mapped back to its number before the shuffle
    back = sorted(
        sorted((1 if lit > 0 else -1) * one.renumbered_from[abs(lit)] for lit in clause) for clause in one.clauses
    )
    assert back == sorted(sorted(clause) for clause in cnf.clauses)
    # exported names follow the variables: "c <var> tile <cell> <number>" still names the right tile
    names = {line.split()[1]: tuple(line.split()[2:]) for line in to_dimacs(one).splitlines() if line.startswith("c ")}
    for var in one.projection:
        assert names[str(var)] == tuple(str(w) for w in cnf.pool.obj(one.renumbered_from[var]))


def test_shuffled_facts_are_the_same_statements():
    from trisolve.backends.clingo import hexiom
    from trisolve.backends.clingo.engine import shuffled_facts

    level = FAMILIES["hexiom"].parse(level_path("hexiom", "level38"))
    facts = hexiom.facts(level, Options(symmetry_breaking=True))
    statements = shuffled_facts(facts, 2).split("\n")
    assert shuffled_facts(facts, 2) == shuffled_facts(facts, 2) != shuffled_facts(facts, 3)
    assert "cell(0..60)." in statements
    assert sorted(s for s in statements if s) == sorted(s for s in facts.replace("\n", " ").split(" ") if s)
