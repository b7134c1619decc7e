"""The pysat backend on Hexiom, beyond the contract (tests/test_contract.py): unregistered
encoding@solver pairs, one long solve's time limit, symmetry breaking on more levels, DIMACS.

Every solution a run returns is checked with the model's validator, never
with anything from the backend.
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path

import pytest
from support import LIMIT_SLACK

pytest.importorskip("pysat")

from trisolve.backends import pysat as pysat_backend
from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.backends.pysat import engine
from trisolve.models.hexiom import model as hexiom

LEVELS = Path(__file__).resolve().parents[1] / "levels" / "hexiom"
REGISTERED = registry.catalog("pysat", "hexiom").ordered()
DEFAULT = registry.catalog("pysat", "hexiom").default
#: the two kinds of time limit: CaDiCaL (conflict budgets) and an interruptible solver
TIMED = [DEFAULT, "totalizer@glucose4"]


@cache
def level(number: int) -> hexiom.Level:
    return hexiom.parse(str(LEVELS / f"level{number:02d}.txt"))


def assert_valid(lv: hexiom.Level, solutions) -> None:
    for solution in solutions:
        violations = hexiom.validate(lv, solution)
        assert not violations, f"{lv.name}: {violations[0].message}"


def run(variant: str, number: int, limits: Limits = Limits(), **options):
    return registry.get(f"pysat:{variant}", "hexiom").run(level(number), limits, Options(**options))


# ---------------------------------------------------------------- registry


def test_registry_promises() -> None:
    assert pysat_backend.available() is None
    assert DEFAULT in REGISTERED
    encodings = {engine.split_variant(v)[0].partition("+")[0] for v in REGISTERED}
    solvers = {engine.split_variant(v)[1] for v in REGISTERED}
    assert len(encodings) >= 2 and len(solvers) >= 2


@pytest.mark.parametrize("variant", ["nosuchencoding", "seqcounter@nosuchsolver"])
def test_unknown_variant_is_refused(variant: str) -> None:
    with pytest.raises(ValueError, match="known"):
        registry.get(f"pysat:{variant}", "hexiom")


# ------------------------------------------------------------ first solution


def test_statistics_describe_the_cnf() -> None:
    # solving every small level, on every backend's default, is tests/test_contract.py's
    result = run(DEFAULT, 10)
    assert result.status is Status.SAT
    assert result.stats["variables"] > 0 and result.stats["clauses"] > 0


def test_empty_board_has_one_solution() -> None:
    result = run(DEFAULT, 0, enumerate=True)
    assert result.count == 1 and result.complete
    assert result.solutions[0].cells == (None,)


# ----------------------------------------------------------------- counting


#: unregistered pairs work too: the other cardinality encodings and solvers (the registered
#: variants keep the contract in tests/test_contract.py)
OTHER_PAIRS = [
    "cardnetwrk+binomial@minisat22",
    "sortnetwrk@cadical153",
    "mtotalizer+gated@maplesat",
    "kmtotalizer@glucose3",
]


@pytest.mark.parametrize("variant", OTHER_PAIRS)
def test_level01_has_12_solutions(variant: str) -> None:
    result = run(variant, 1, enumerate=True)
    assert (result.count, result.complete) == (12, True)
    assert_valid(level(1), result.solutions)
    assert len({hexiom.canonical(level(1), s) for s in result.solutions}) == 12


@pytest.mark.parametrize("variant", TIMED)
def test_time_limit_holds_in_one_long_solve(variant: str) -> None:
    # level 38 without symmetry breaking can take longer than the limit: the
    # run either finds its solution in time or stops on time
    began = time.monotonic()
    result = run(variant, 38, Limits(time=0.3))
    elapsed = time.monotonic() - began
    assert elapsed < 0.3 + LIMIT_SLACK, f"a 0.3 s limit took {elapsed:.1f} s"
    if result.status is Status.SAT:
        assert_valid(level(38), result.solutions)
    else:
        assert result.status is Status.UNKNOWN and result.stopped_by == "time limit"


# -------------------------------------------------------- symmetry breaking


@pytest.mark.parametrize("variant", ["totalizer+binomial@glucose4"])  # unregistered; the registered: test_contract
@pytest.mark.parametrize("number", [1, 3, 5, 7, 10, 11, 12, 17, 18], ids=lambda n: f"level{n:02d}")
def test_symmetry_breaking_keeps_one_solution_per_orbit(variant: str, number: int) -> None:
    lv = level(number)
    everything = run(variant, number, enumerate=True)
    leaders = run(variant, number, enumerate=True, symmetry_breaking=True)
    assert everything.complete and leaders.complete
    assert_valid(lv, leaders.solutions)
    orbits = {hexiom.orbit_representative(lv, s) for s in everything.solutions}
    assert leaders.count == len(orbits)
    assert all(hexiom.is_lex_leader(lv, s) for s in leaders.solutions)
    assert {hexiom.symmetry_key(s) for s in leaders.solutions} == orbits


# ------------------------------------------------------------------- DIMACS


def parse_dimacs(text: str) -> tuple[int, int, list[list[int]], dict[int, str]]:
    header = None
    names = {}
    clauses: list[list[int]] = []
    current: list[int] = []
    for line in text.splitlines():
        if line.startswith("c "):
            words = line.split()
            if words[1].isdigit():
                names[int(words[1])] = " ".join(words[2:])
        elif line.startswith("p "):
            _, kind, variables, count = line.split()
            assert kind == "cnf"
            header = (int(variables), int(count))
        else:
            for token in line.split():
                literal = int(token)
                if literal == 0:
                    clauses.append(current)
                    current = []
                else:
                    current.append(literal)
    assert header is not None and not current
    return header[0], header[1], clauses, names


@pytest.mark.parametrize("symmetry_breaking", [False, True])
@pytest.mark.parametrize("variant", [DEFAULT, "kmtotalizer+gated"])
def test_dimacs_export_is_consistent(variant: str, symmetry_breaking: bool) -> None:
    lv = level(4)
    options = Options(symmetry_breaking=symmetry_breaking)
    text = registry.get(f"pysat:{variant}", "hexiom").export(lv, options)
    variables, count, clauses, names = parse_dimacs(text)
    assert count == len(clauses)
    assert max(abs(literal) for clause in clauses for literal in clause) <= variables
    # one comment per placement variable, in puzzle words
    assert names and all(name.startswith("tile ") for name in names.values())
    cell, number = map(int, names[min(names)].split()[1:])
    assert 0 <= cell < lv.board.size and 0 <= number <= hexiom.MAX_TILE

    # solve the exported text as an outside solver would, and read its answer back
    from pysat.solvers import Solver

    with Solver(name="glucose4", bootstrap_with=clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    output = (
        "c some solver\ns SATISFIABLE\n"
        + "\n".join("v " + " ".join(map(str, model[i : i + 10])) for i in range(0, len(model), 10))
        + "\nv 0\n"
    )
    true = engine.parse_dimacs_model(output)
    # the comment lines alone say which variable is which tile
    solution = hexiom.Solution(tuple(_cells_from_names(lv, names, true)))
    assert not hexiom.validate(lv, solution)


def _cells_from_names(lv: hexiom.Level, names: dict[int, str], true: set[int]) -> list[int | None]:
    cells: list[int | None] = [None] * lv.board.size
    for var, name in names.items():
        if var in true:
            _, cell, number = name.split()
            cells[int(cell)] = int(number)
    return cells


def test_dimacs_output_parsing() -> None:
    assert engine.parse_dimacs_model("s SATISFIABLE\nv 1 -2\nv 3\nv -4 0\n") == {1, 3}
    assert engine.parse_dimacs_model("c comment\ns UNSATISFIABLE\n") is None
    assert engine.parse_dimacs_model("s SATISFIABLE\r\nv -1 2 0\r\n") == {2}
    with pytest.raises(engine.SolverOutputError):
        engine.parse_dimacs_model("s UNKNOWN\n")
    with pytest.raises(engine.SolverOutputError):
        engine.parse_dimacs_model("c nothing\n")
    with pytest.raises(engine.SolverOutputError):
        engine.parse_dimacs_model("s SATISFIABLE\n")


@pytest.mark.parametrize("n", range(0, 8))
def test_the_two_way_counter_counts_exactly_under_every_assignment(n):
    """engine.count_up_to: output k is true if and only if k inputs are, for every cut-off,
    with inputs given as negative literals too (the neighbour counter's building block)."""
    import itertools

    from pysat.formula import IDPool
    from pysat.solvers import Solver

    lits = [-v if v % 3 == 0 else v for v in range(1, n + 1)]
    for cap in range(1, n + 2):
        pool = IDPool()
        pool.top = n
        clauses: list[list[int]] = []
        outputs = engine.count_up_to(pool, lits, cap, clauses)
        assert len(outputs) == min(n, cap)
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            for bits in itertools.product([False, True], repeat=n):
                assumed = [lit if bit else -lit for lit, bit in zip(lits, bits)]
                for k, output in enumerate(outputs, start=1):
                    holds = sum(bits) >= k
                    assert solver.solve(assumptions=assumed + [output if holds else -output])
                    assert not solver.solve(assumptions=assumed + [-output if holds else output]), (bits, cap, k)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_first_solution_is_searched_among_lex_leaders_and_counts_are_plain(seed):
    """Level 38: the first solution is a valid lex-leader (a few conflicts, not thousands); a count is untouched."""
    backend = registry.get("pysat:totalizer", "hexiom")
    board = level(38)
    first = backend.run(board, Limits(time=60), Options(seed=seed))
    assert first.status is Status.SAT and first.stats["first_solution"] == "lex-leaders only"
    assert hexiom.validate(board, first.solutions[0]) == []
    assert hexiom.is_lex_leader(board, first.solutions[0])
    counted = backend.run(level(3), Limits(time=60), Options(enumerate=True, seed=seed))
    assert counted.count == 18 and counted.complete and "first_solution" not in counted.stats


def test_ctrl_c_during_a_cardinality_encoding_is_left_to_pythons_handler():
    """PySAT's own SIGINT handler longjmps out of its C encoders (a corrupt heap, a crash later; its
    error is "Caught keyboard interrupt").  Within ``python_sigint`` Python's handler stays: the
    encoding finishes and the program's handler runs.  The signal comes from another process: a
    thread of this one waits for the GIL, which the encoder holds, until the encoding is over."""
    import os
    import signal
    import subprocess

    from pysat.card import CardEnc, EncType

    from trisolve.backends.pysat.signals import python_sigint

    seen: list[str] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append("handled"))
    try:
        with python_sigint():
            sender = subprocess.Popen(["sh", "-c", f"sleep 0.2; kill -INT {os.getpid()}"])
            clauses = CardEnc.atmost(lits=list(range(1, 1801)), bound=900, encoding=EncType.seqcounter).clauses
            seen.append("encoded")
            sender.wait()
        time.sleep(0.05)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert sorted(seen) == ["encoded", "handled"] and len(clauses) > 1_000_000
