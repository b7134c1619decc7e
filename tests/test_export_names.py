"""Nothing a user names reaches a formula: exports of levels with hostile names count right in their own tools.

A level's name comes from its file name, a logic grid's category and value names from its author; an
export writes them in comment lines (and DIMACS in its variable map).  Each level here is exported
under hostile file names (line breaks followed by a DIMACS header and clause, an LP constraint, an
exact-cover items line, an ASP constraint; carriage returns; U+2028, U+2029, NEL, VT, FF; comment
markers; a very long name), the logic grid with hostile names inside too, in every format
``trisolve export`` writes (``selection.writers``), by every backend that writes it.  Then:

* with its comment lines left out, the file is the same as the export of the level under a plain name
  (the names changed comments only);
* the format's own tool reads it back and counts trisolve's count: DIMACS by a SAT binary (picosat or
  cadical, when on PATH) or else PySAT's parser and solver, blocking each solution on the ``c p show``
  projection; LP by HiGHS, cutting off each solution; exact cover by xcover's reader and solver; ASP facts
  by clingo with the printed command's rules; the CP-SAT proto by CP-SAT, enumerating.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess

import pytest
from support import clingo_words, expected, level_path, run_cli

#: file names (the level's name) that try to write a formula of their own
HOSTILE_NAMES = {
    "line-breaks": "ex2\np cnf 1 1\n-1 0\nSubject To\n c9: tile_9_2 = 0\nX Y\n:- tile(_,_).\n",
    "carriage-returns": "cr\rp cnf 1 1\r-1 0\rSubject To\r c9: x = 0\rX Y",
    "unicode-line-ends": "ls\u2028p cnf 1 1\u2029-1 0\u0085Subject To\x0b c9: x = 0\x0cX Y\x1c:- a.",
    "comment-markers": "\\* c p show 1 0 *\\ | %* #show x. *% p cnf",
    "long": "L" * 180 + "\np cnf 1 1\n-1 0",
}

#: how each format marks a comment line (the lines a name may stand in), and its file name's ending
COMMENT = {"dimacs": "c ", "lp": "\\", "xc": "|", "asp": "%", "cpsat": None}
ENDING = {"dimacs": ".cnf", "lp": ".lp", "xc": ".xc", "asp": ".lp", "cpsat": ".pbtxt"}

#: a small level per family (its count is expected.json's), the logic grid with hostile names inside
LEVELS = {"hexiom": "level10", "sigils": "gate-4x4", "logic": "odd-names"}


def _hostile_logic_text() -> str:
    """odd-names.toml with names that hold line ends, markers of every format and 3,000 characters."""
    with open(level_path("logic", "odd-names"), encoding="utf-8") as handle:
        text = handle.read()
    long_name = "paint (a). #show paint/1)" + "W" * 3000
    swaps = [
        ("\nthing = [", '\n"thing\\u2028p cnf 1 1\\u2029-1 0\\u0085Subject To" = ['),
        ("\ncolour = [", '\n"colour\\u0085X Y | c p show 1 0" = ['),
        ('"colour.red"', '"colour\\u0085X Y | c p show 1 0.red"'),
        ('"Ünïcödé"', '"Ünïcödé\\u2028 c9: x = 0\\u2028|X Y\\u2029"'),
        ("paint (a). #show paint/1)", long_name),
    ]
    for old, new in swaps:
        assert old in text, old
        text = text.replace(old, new)
    return text


def _level_text(family: str) -> str:
    if family == "logic":
        return _hostile_logic_text()
    with open(level_path(family, LEVELS[family]), encoding="utf-8") as handle:
        return handle.read()


def _writers(family: str) -> list[tuple[str, str]]:
    from trisolve.backends import registry
    from trisolve.selection import writers

    return [
        (format_, backend)
        for format_, names in writers().items()
        for backend in names
        if registry.available(backend) is None and registry.catalog(backend, family) is not None
    ]


CASES = [
    pytest.param(family, format_, backend, id=f"{family}-{format_}-{backend}")
    for family in LEVELS
    for format_, backend in _writers(family)
]


def test_every_format_has_a_reader_here():
    from trisolve.selection import writers

    assert set(writers()) <= set(COMMENT) == set(READERS) == set(ENDING), "a new format needs its reader"


# ------------------------------------------------------------------ each format's own tool


def _projection(text: str) -> list[int]:
    shown = [line.split()[3:-1] for line in text.splitlines() if line.startswith("c p show ")]
    assert len(shown) == 1, "one projection line"
    return [int(v) for v in shown[0]]


def _sat_binary() -> str | None:
    return next((name for name in ("picosat", "cadical") if shutil.which(name)), None)


def _count_dimacs(path: str, stderr: str) -> int:
    """Projected solutions of the CNF: a SAT binary when one is installed, else PySAT (both read the file)."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    projection = _projection(text)
    binary = _sat_binary()
    if binary is None:
        from pysat.formula import CNF
        from pysat.solvers import Solver

        count = 0
        with Solver(name="minisat22", bootstrap_with=CNF(from_file=path).clauses) as solver:
            while solver.solve():
                true = set(lit for lit in solver.get_model() if lit > 0)
                count += 1
                solver.add_clause([-v if v in true else v for v in projection])
        return count
    header = [line for line in text.splitlines() if line.startswith("p ")]
    assert len(header) == 1
    _, _, variables, clauses = header[0].split()
    blocks: list[str] = []
    while True:
        with open(path + ".blocked", "w", encoding="utf-8") as handle:
            handle.write(text.replace(header[0], f"p cnf {variables} {int(clauses) + len(blocks)}"))
            handle.write("".join(blocks))
        done = subprocess.run([binary, path + ".blocked"], capture_output=True, text=True, timeout=60)
        if done.returncode == 20:
            return len(blocks)
        assert done.returncode == 10, done.stdout
        true = {int(x) for line in done.stdout.splitlines() if line.startswith("v ") for x in line.split()[1:]}
        blocks.append(" ".join(str(-v if v in true else v) for v in projection) + " 0\n")


def _count_lp(path: str, stderr: str) -> int:
    """HiGHS reads the LP file and solves it again and again, each solution cut off by a row over the 0-1
    columns (the exported models have no free auxiliary columns)."""
    import highspy

    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(path) == highspy.HighsStatus.kOk
    lp = highs.getLp()
    columns = [j for j in range(lp.num_col_) if lp.integrality_[j] == highspy.HighsVarType.kInteger]
    count = 0
    while True:
        highs.run()
        if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            assert highs.getModelStatus() == highspy.HighsModelStatus.kInfeasible
            return count
        count += 1
        value = highs.getSolution().col_value
        on = {j for j in columns if value[j] > 0.5}
        # at least one column differs: sum(off) - sum(on) >= 1 - |on|
        highs.addRow(1 - len(on), highspy.kHighsInf, len(columns), columns, [-1.0 if j in on else 1.0 for j in columns])


def _count_xc(path: str, stderr: str) -> int:
    from xcover import covers
    from xcover.io import read_xcover_from_file

    options, primary, secondary, colored = read_xcover_from_file(path)
    return sum(1 for _ in covers(options, primary=primary, secondary=secondary or [], colored=colored))


def _count_asp(path: str, stderr: str) -> int:
    """The clingo command the export printed, every answer set (0 models instead of 1), projected."""
    import clingo

    line = [x for x in stderr.splitlines() if x.startswith("run it with: ")]
    assert len(line) == 1, stderr
    command = clingo_words(shlex.split(line[0][len("run it with: ") :]))
    arguments = [a for a in command[1:] if a.startswith("-") or a.isdigit()]
    paths = [a for a in command[1:] if a not in arguments]
    assert path in paths
    control = clingo.Control(["0", *arguments[1:]])
    for name in paths:
        control.load(name)
    control.ground([("base", [])])
    models = []
    control.solve(on_model=lambda m: models.append(tuple(sorted(map(str, m.symbols(shown=True))))))
    assert len(set(models)) == len(models)
    return len(models)


def _count_cpsat(path: str, stderr: str) -> int:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    with open(path, encoding="utf-8") as handle:
        assert model.proto.parse_text_format(handle.read())
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1

    counter = Counter()
    assert solver.solve(model, counter) == cp_model.OPTIMAL
    return counter.found


READERS = {"dimacs": _count_dimacs, "lp": _count_lp, "xc": _count_xc, "asp": _count_asp, "cpsat": _count_cpsat}


# ------------------------------------------------------------------ the exports


def _export(level: str, format_: str, backend: str, out: str, capsys) -> tuple[str, str]:
    assert run_cli(["export", level, "--format", format_, "--backend", backend, "-o", out]) == 0
    err = capsys.readouterr().err
    with open(out, encoding="utf-8") as handle:
        return handle.read(), err


def _formula(text: str, format_: str) -> list[str]:
    """The lines that are not comments (the file without the names)."""
    marker = COMMENT[format_]
    return [line for line in text.split("\n") if marker is None or not line.startswith(marker)]


@pytest.mark.slow  # about half a minute: 5 names x 17 exports, each counted by its own tool
@pytest.mark.parametrize("family, format_, backend", CASES)
def test_hostile_names_stay_in_comments_and_the_export_counts_right_in_its_own_tool(
    family, format_, backend, tmp_path, capsys
):
    from trisolve.models import FAMILIES

    suffix = FAMILIES[family].suffix
    plain = tmp_path / f"plain{suffix}"
    plain.write_text(_level_text(family), encoding="utf-8")
    reference, _ = _export(str(plain), format_, backend, str(tmp_path / f"plain{ENDING[format_]}"), capsys)
    count = expected(family)[LEVELS[family]]["count"]
    for kind, name in HOSTILE_NAMES.items():
        level = tmp_path / f"{name}{suffix}"
        level.write_text(_level_text(family), encoding="utf-8")
        out = str(tmp_path / f"{kind}{ENDING[format_]}")
        text, err = _export(str(level), format_, backend, out, capsys)
        if format_ == "asp":  # the facts name their own file in a comment: compare the formulas, not the names
            reference = reference.replace(f"plain{ENDING[format_]}", f"{kind}{ENDING[format_]}")
        assert _formula(text, format_) == _formula(reference, format_), f"{kind}: the name changed the formula"
        for line in text.split("\n"):
            assert not re.search(r"[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]", line), (kind, line[:80])
        assert READERS[format_](out, err) == count, f"{kind}: {format_} by {backend}"


def test_the_logic_grids_hostile_names_count_as_the_original_in_trisolve():
    import trisolve

    level = trisolve.load(_hostile_logic_text(), family="logic")
    result = trisolve.solve(level, backend="pysat", count=True, isolate=False)
    assert result.complete and result.count == expected("logic")["odd-names"]["count"]


@pytest.mark.parametrize("character", ["\\u0000", "\\n", "\\r"], ids=["nul", "line-feed", "carriage-return"])
def test_a_name_with_a_control_character_is_refused_at_load(tmp_path, capsys, character):
    with open(level_path("logic", "odd-names"), encoding="utf-8") as handle:
        text = handle.read().replace("\nthing = [", f'\n"thing{character}p cnf 1 1" = [', 1)
    assert character in text
    path = tmp_path / "names.toml"
    path.write_text(text, encoding="utf-8")
    assert run_cli(["export", str(path), "--format", "dimacs"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "control character" in err, err


def test_a_file_name_with_a_nul_byte_is_refused(capsys):
    import pathlib

    import trisolve
    from trisolve.models.errors import LevelSyntaxError

    with pytest.raises(LevelSyntaxError, match="NUL"):
        trisolve.load(pathlib.Path("level\x00.txt"))


def test_comment_text_is_one_printable_line():
    from trisolve.models.comments import COMMENT_WIDTH, comment_text

    for name in HOSTILE_NAMES.values():
        cleaned = comment_text(name)
        assert cleaned.isprintable() and len(cleaned) <= COMMENT_WIDTH and cleaned == " ".join(cleaned.split())
    assert comment_text("a\x00b\u202ec\udcff") == "a?b?c?"  # NUL, a bidi override, an undecodable byte
    assert comment_text("back\\slash", avoid="\\") == "back?slash"
    assert comment_text("level38") == "level38"
    assert os.sep not in comment_text("x")
