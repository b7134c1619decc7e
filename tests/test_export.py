"""``trisolve export`` round trips, and the ``dimacs`` backend on a real SAT solver binary.

Each exported format is read back by its own tool, never by trisolve's code:
DIMACS by PySAT's parser (the ``c`` lines alone map variables to cells), ASP
facts by a fresh ``clingo.Control`` with the shipped ``.lp`` rules, the CP-SAT
proto by protobuf's ``text_format`` (then solved).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest
from support import LIMIT_SLACK, level_path, run_cli

from trisolve.selection import declaring

SMALL = ["level01", "level03", "level05", "level10"]
#: a side-2 board with a lone 6: it can never have six occupied neighbours
UNSAT_LEVEL = "2\n 6 .\n. . .\n . .\n"


def _level(name: str):
    from trisolve.models import FAMILIES

    return FAMILIES["hexiom"].parse(level_path("hexiom", name))


def _count(spec: str, level, symmetry_breaking: bool = False) -> int:
    from trisolve.backends import registry
    from trisolve.backends.base import Limits, Options

    result = registry.get(spec, "hexiom").run(
        level, Limits(time=30), Options(enumerate=True, symmetry_breaking=symmetry_breaking)
    )
    assert result.complete, f"{spec} did not finish counting"
    return result.count


def _hexiom_variants(backend: str) -> list[str]:
    from trisolve.backends import registry

    offered = registry.catalog(backend, "hexiom")
    if registry.available(backend) is not None or offered is None:
        return []
    return [f"{backend}:{v}" for v in offered.variants]


def _needs(backend: str) -> None:
    if not _hexiom_variants(backend):
        pytest.skip(f"the {backend} backend has no hexiom translator here")


# ------------------------------------------------------------------ DIMACS


def _solutions_from_dimacs(text: str, level) -> list:
    """Every solution of exported CNF, decoded from its ``c`` comment lines only."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from trisolve.models.hexiom.model import Solution

    tiles = {}  # variable -> (cell, number), from lines "c <var> tile <cell> <number>"
    for line in text.splitlines():
        words = line.split()
        if len(words) == 5 and words[0] == "c" and words[2] == "tile":
            tiles[int(words[1])] = (int(words[3]), int(words[4]))
    assert tiles, "no 'c <var> tile <cell> <number>' lines"
    formula = CNF(from_string=text)
    solutions = []
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as solver:
        while solver.solve():
            model = set(lit for lit in solver.get_model() if lit > 0)
            cells = [None] * level.board.size
            for var, (cell, number) in tiles.items():
                if var in model:
                    assert cells[cell] is None, f"two tiles on cell {cell}"
                    cells[cell] = number
            solutions.append(Solution(tuple(cells)))
            solver.add_clause([-v if v in model else v for v in tiles])
    return solutions


@pytest.mark.parametrize("name", ["level01", "level05", "level10"])
@pytest.mark.parametrize("spec", ["pysat:seqcounter", "pysat:totalizer", "pysat:seqcounter+binomial"])
def test_dimacs_export_parses_and_its_models_are_the_solutions(spec, name, tmp_path, capsys):
    from trisolve.models import FAMILIES

    family = FAMILIES["hexiom"]
    level = _level(name)
    target = tmp_path / f"{name}.cnf"
    assert (
        run_cli(["export", level_path("hexiom", name), "--format", "dimacs", "--backend", spec, "-o", str(target)]) == 0
    )
    text = target.read_text()
    header = [line for line in text.splitlines() if line.startswith("p ")]
    assert len(header) == 1
    _, _, variables, clauses = header[0].split()
    body = [line for line in text.splitlines() if line and not line.startswith(("c", "p"))]
    assert len(body) == int(clauses) and all(line.endswith(" 0") for line in body)
    assert max(abs(int(x)) for line in body for x in line.split()) <= int(variables)

    solutions = _solutions_from_dimacs(text, level)
    assert solutions and all(not family.validate(level, s) for s in solutions)
    assert len({s.cells for s in solutions}) == len(solutions) == _count("pysat:seqcounter@glucose4", level)


def test_dimacs_export_with_symmetry_breaking_keeps_one_per_class(tmp_path):
    level = _level("level03")
    target = tmp_path / "sb.cnf"
    assert (
        run_cli(["export", level_path("hexiom", "level03"), "-f", "dimacs", "--symmetry-breaking", "-o", str(target)])
        == 0
    )
    kept = _solutions_from_dimacs(target.read_text(), level)
    assert len(kept) == _count("pysat", level, symmetry_breaking=True) < _count("pysat", level)


# --------------------------------------------------------------------- ASP


@pytest.mark.parametrize("symmetry_breaking", [False, True], ids=["plain", "sb"])
@pytest.mark.parametrize("name", ["level01", "level03", "level11"])
def test_asp_facts_run_with_the_shipped_rules_under_a_fresh_control(name, symmetry_breaking, tmp_path, capsys):
    """The exact command printed to stderr, run through clingo's Python module, counts what the backends count."""
    import clingo

    _needs("clingo")
    target = tmp_path / f"{name}.lp"
    argv = ["export", level_path("hexiom", name), "--format", "asp", "-o", str(target)]
    assert run_cli(argv + (["--symmetry-breaking"] if symmetry_breaking else [])) == 0
    err = capsys.readouterr().err
    line = [x for x in err.splitlines() if x.startswith("run it with: ")]
    assert len(line) == 1, err
    command = shlex.split(line[0][len("run it with: ") :])
    start = 1 if command[0] == "clingo" else 3  # the binary, or python -m clingo
    assert command[:start] in (["clingo"], [command[0], "-m", "clingo"])
    arguments = [a for a in command[start:] if a.startswith("-") or a.isdigit()]
    files = [a for a in command[start:] if a not in arguments]
    # the printed command stops at the first solution; with 0 models in its place it counts them all
    assert arguments[0] == "1" and "--project" in arguments
    arguments[0] = "0"
    assert str(target) in files and all(f.endswith(".lp") and os.path.isfile(f) for f in files)
    assert any("/encodings/" in f for f in files), "the shipped rules should be named by absolute path"

    control = clingo.Control(arguments)
    for path in files:
        control.load(path)
    control.ground([("base", [])])
    models = []
    result = control.solve(on_model=lambda m: models.append(tuple(sorted(map(str, m.symbols(shown=True))))))
    assert result.exhausted and len(set(models)) == len(models)

    level = _level(name)
    assert len(models) == _count("clingo", level, symmetry_breaking)
    assert len(models) == _count("pysat", level, symmetry_breaking)


def test_the_printed_clingo_command_runs_as_printed_where_pip_installed_clingo(tmp_path, capsys, monkeypatch):
    """pip installs clingo's module, not its binary: without a clingo on the PATH the command is python -m clingo
    (the interpreter that has the module), and it answers as printed."""
    _needs("clingo")
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + "/usr/bin" + os.pathsep + "/bin")
    if shutil.which("clingo"):
        pytest.skip("a clingo binary on the PATH: the command names it")
    target = tmp_path / "level01.lp"
    assert run_cli(["export", level_path("hexiom", "level01"), "--format", "asp", "-o", str(target)]) == 0
    line = next(x for x in capsys.readouterr().err.splitlines() if x.startswith("run it with: "))
    command = shlex.split(line[len("run it with: ") :])
    assert command[1:3] == ["-m", "clingo"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "SATISFIABLE" in done.stdout and done.returncode in (0, 10, 30), done.stdout + done.stderr


# ------------------------------------------------------------------- CP-SAT


@pytest.mark.parametrize("name", ["level01", "level10"])
def test_cpsat_proto_parses_back_and_solves(name, tmp_path):
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2
    from ortools.sat.python import cp_model

    _needs("cpsat")
    target = tmp_path / f"{name}.pb.txt"
    assert run_cli(["export", level_path("hexiom", name), "--format", "cpsat", "-o", str(target)]) == 0
    proto = text_format.Parse(target.read_text(), cp_model_pb2.CpModelProto())
    assert len(proto.variables) > 0 and len(proto.constraints) > 0

    # solve what was written: OR-Tools' own reader, then the standard protobuf one must agree on the size
    model = cp_model.CpModel()
    model.proto.parse_text_format(target.read_text())
    assert len(model.proto.variables) == len(proto.variables)
    assert len(model.proto.constraints) == len(proto.constraints)
    assert not model.validate()
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 20
    solver.parameters.catch_sigint_signal = False  # else CP-SAT leaves SIGINT at SIG_DFL in this process
    assert solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


# -------------------------------------------------------------- CLI edges


def test_export_to_stdout_and_format_backend_mismatch(capsys):
    path = level_path("hexiom", "level01")
    assert run_cli(["export", path, "-b", "pysat:totalizer"]) == 0
    out = capsys.readouterr().out
    # the model counting competition's type line first, then ours
    assert out.startswith("c t pmc\nc trisolve hexiom") and "pysat:totalizer" in out.splitlines()[1]
    assert run_cli(["export", path, "--format", "cpsat", "--backend", "pysat"]) == 2
    assert "written by cpsat" in capsys.readouterr().err
    assert run_cli(["export", path]) == 2
    assert run_cli(["export", path, "-f", "dimacs", "-b", "pysat:nosuch"]) == 2


# ---------------------------------------------- the dimacs backend (binary)

#: SAT-competition style solvers from Debian's packages (kissat is not in bookworm; cadical and picosat are)
SAT_BINARIES = ["kissat", "cadical -q", "picosat", "cryptominisat5 --verb 0"]
INSTALLED = [command for command in SAT_BINARIES if shutil.which(command.split()[0])]
needs_binary = pytest.mark.skipif(
    not INSTALLED,
    reason="no DIMACS SAT solver binary on PATH (apt-get install -y picosat cadical; kissat where packaged)",
)
binaries = pytest.mark.parametrize("command", INSTALLED or ["none"], ids=lambda c: c.split()[0])


@needs_binary
@binaries
@pytest.mark.parametrize("name", ["level05", "level10", "level20"])
def test_dimacs_backend_first_solution_is_valid(command, name):
    from trisolve.backends import registry
    from trisolve.backends.base import Limits, Options, Status
    from trisolve.models import FAMILIES

    level = _level(name)
    result = registry.get("dimacs", "hexiom").run(level, Limits(time=30), Options(sat_command=command))
    assert result.status is Status.SAT and result.count == 1 and not result.complete
    assert not FAMILIES["hexiom"].validate(level, result.solutions[0])
    assert result.backend.startswith("dimacs:") and result.stats["solver_calls"] == 1


@needs_binary
@binaries
def test_dimacs_backend_proves_unsat(command, tmp_path):
    from trisolve.backends import registry
    from trisolve.backends.base import Limits, Options, Status
    from trisolve.models import FAMILIES

    path = tmp_path / "lonely6.txt"
    path.write_text(UNSAT_LEVEL)
    level = FAMILIES["hexiom"].parse(str(path))
    result = registry.get("dimacs", "hexiom").run(level, Limits(time=30), Options(sat_command=command))
    assert result.status is Status.UNSAT and result.complete and result.count == 0


@needs_binary
@binaries
@pytest.mark.parametrize("name", ["level03", "level05"])
def test_dimacs_backend_counts_by_blocking_clauses(command, name):
    from trisolve.backends import registry
    from trisolve.backends.base import Limits, Options
    from trisolve.models import FAMILIES

    level = _level(name)
    result = registry.get("dimacs", "hexiom").run(level, Limits(time=60), Options(enumerate=True, sat_command=command))
    assert result.complete and result.count == _count("pysat", level)
    assert len({s.cells for s in result.solutions}) == result.count
    assert all(not FAMILIES["hexiom"].validate(level, s) for s in result.solutions)


@needs_binary
def test_dimacs_backend_keeps_its_time_limit():
    from trisolve.backends import registry
    from trisolve.backends.base import Limits, Options

    level = _level("level38")
    began = time.monotonic()
    result = registry.get("dimacs", "hexiom").run(
        level, Limits(time=1.0), Options(enumerate=True, sat_command=INSTALLED[0])
    )
    assert time.monotonic() - began < 1.0 + LIMIT_SLACK
    assert not result.complete and result.stopped_by in ("time limit", None)


@needs_binary
def test_solve_cli_with_dimacs_backend(capsys):
    import json

    assert (
        run_cli(["solve", level_path("hexiom", "level10"), "-b", "dimacs", "--sat-command", INSTALLED[0], "--json"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["backend"].startswith("dimacs:") and data["status"] == "sat" and "invalid" not in data


def test_dimacs_backend_without_a_command_is_a_usage_error(capsys):
    path = level_path("hexiom", "level10")
    assert run_cli(["solve", path, "-b", "dimacs"]) == 2
    assert "--sat-command" in capsys.readouterr().err
    assert run_cli(["solve", path, "-b", "dimacs", "--sat-command", "no-such-sat-solver-xyz"]) == 2
    assert "not found" in capsys.readouterr().err


def test_dimacs_is_listed_but_not_cross_checked_by_default(capsys):
    from trisolve.backends import registry

    assert "dimacs" not in declaring("BY_DEFAULT") and "dimacs" in registry.names()
    assert not any(name.startswith("dimacs:") for name in registry.variants("hexiom", declaring("BY_DEFAULT")))
    assert run_cli(["backends", "--family", "hexiom"]) == 0
    listing = [line for line in capsys.readouterr().out.splitlines() if "dimacs:" in line]
    assert listing and "--sat-command" in listing[0] and "blocking clauses" in listing[0]


def test_a_format_for_a_family_it_does_not_cover_is_refused_by_what_it_covers(capsys):
    """Exact cover writes sigils, logic grids and Sudoku (its constraint model is all exactly-ones): asked for a
    Hexiom level, the format says so (not the backend's missing translator)."""
    assert run_cli(["export", level_path("hexiom", "level01"), "--format", "xc"]) == 2
    assert capsys.readouterr().err.strip() == "trisolve: xc: logic, sigils and sudoku only, not hexiom"
