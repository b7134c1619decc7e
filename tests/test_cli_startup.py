"""A one-off ``trisolve solve FILE`` imports what it needs and no more (docs/bench/startup.md), and the path that
reads its command line without click reads it as click does."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import click
import pytest
from support import ROOT, level_path

from trisolve.cli import main as entry
from trisolve.cli import running, solve_cmd
from trisolve.cli.common import run_cli
from trisolve.cli.group import cli

#: a solve reports the modules its process loaded (its run's child loads the translator: -X importtime says it)
_REPORT = (
    "import sys, json\n"
    "from trisolve.cli.main import main\n"
    "try:\n"
    "    main()\n"
    "finally:\n"
    "    sys.stderr.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n')\n"
)

#: what a solve of a Hexiom level must not import: click, the other families (the logic grids bring TOML and
#: their constraint model), the model layer, the records no solve makes, Hexiom's picture and generator, other solvers
NOT_ON_THE_SOLVE_PATH = (
    "click",
    "trisolve.cli.group",
    "trisolve.cli.common",
    "trisolve.cli.solve_cmd",
    "trisolve.models.logic",
    "trisolve.models.sigils",
    "trisolve.models.sudoku",
    "trisolve.models.nurikabe",
    "trisolve.models.slither",
    "trisolve.models.records",
    "trisolve.models.pictures",
    "trisolve.models.hexiom.picture",
    "trisolve.models.hexiom.generate",
    "trisolve.constraints",  # the model layer: a hand translator needs none (a catalog's "every kind" read lazily)
    "tomllib",
    "tomli",
    "multiprocessing",
    "pysat.solvers",  # (the registry's look for the library, find_spec, loads pysat's small package itself)
    "ortools",
)


def _imported(*args: str) -> tuple[set[str], subprocess.CompletedProcess]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", _REPORT, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    modules: set[str] = set()
    for line in done.stderr.splitlines():
        if line.startswith("MODULES "):
            modules.update(json.loads(line[len("MODULES ") :]))
        elif line.startswith("import time:") and "|" in line:
            modules.add(line.rpartition("|")[2].strip())
    return modules, done


def _banned(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == name or m.startswith(name + ".") for name in NOT_ON_THE_SOLVE_PATH))


@pytest.mark.parametrize("flags", [["--quiet"], [], ["--json", "--count"]], ids=["quiet", "plain", "json-count"])
def test_a_plain_solve_imports_only_what_it_needs(flags):
    modules, done = _imported("solve", level_path("hexiom", "level38"), *flags)
    assert done.returncode == 0, done.stderr[-2000:]
    assert {"clingo", "trisolve.models.hexiom", "trisolve.cli.solving"} <= modules  # the check sees imports
    assert _banned(modules) == []


def test_a_solve_with_an_option_value_goes_through_click_and_still_imports_no_other_family():
    modules, done = _imported("solve", level_path("hexiom", "level38"), "--backend", "clingo", "--quiet")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "click" in modules  # the check sees imports
    assert _banned(modules - {m for m in modules if m.startswith(("click", "trisolve.cli"))}) == []


#: command lines read without click: each as click reads it
PLAIN = [
    ["solve", "levels/hexiom/level38.txt"],
    ["solve", "levels/hexiom/level38.txt", "--quiet"],
    ["solve", "-q", "levels/hexiom/level01.txt", "levels/hexiom/level02.txt", "--json"],
    ["solve", "levels/hexiom", "--all", "--symmetry-breaking", "--shuffle", "--colour"],
    ["solve", "levels/hexiom/level01.txt", "--count", "--no-color", "--color", "--no-colour"],
    ["solve", "no-such-file.txt", "--all", "--count"],  # refused by the command, alike on both paths
]

#: command lines left to click
CLICKS = [
    [],
    ["solve"],
    ["solve", "--help"],
    ["solve", "levels/hexiom/level38.txt", "--backend", "clingo"],
    ["solve", "levels/hexiom/level38.txt", "--timeout=3"],
    ["solve", "levels/hexiom/level38.txt", "-qq"],
    ["solve", "levels/hexiom/level38.txt", "--quite"],
    ["solve", "--", "levels/hexiom/level38.txt"],
    ["solve", "-"],
    ["solve", ""],
    ["crosscheck", "levels/hexiom/level38.txt"],
    ["--version"],
]


@pytest.mark.parametrize("args", PLAIN, ids=lambda args: " ".join(args))
def test_the_plain_reading_hands_the_command_what_click_hands_it(args, monkeypatch):
    heard: list[dict] = []
    monkeypatch.setattr(solve_cmd, "solve_files", lambda **options: heard.append(options))
    assert run_cli(cli, args) == 0
    assert entry.plain_solve(args) == heard[0]


@pytest.mark.parametrize("args", CLICKS, ids=lambda args: " ".join(args) or "nothing")
def test_anything_else_is_left_to_click(args):
    assert entry.plain_solve(args) is None


def test_shell_completion_and_an_ascii_stream_are_left_to_click(monkeypatch):
    args = ["solve", "levels/hexiom/level38.txt"]
    assert entry.plain_solve(args) is not None
    monkeypatch.setenv("_TRISOLVE_COMPLETE", "bash_complete")
    assert entry.plain_solve(args) is None
    monkeypatch.delenv("_TRISOLVE_COMPLETE")
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert entry.plain_solve(args) is None


def test_an_unreadable_file_is_left_to_click(tmp_path, monkeypatch):
    level = tmp_path / "level.txt"
    level.write_text("2\n. .\n. . .\n. .\n")
    assert entry.plain_solve(["solve", str(level)]) is not None
    monkeypatch.setattr(entry.os, "access", lambda path, mode: False)  # as for a file without read permission
    assert entry.plain_solve(["solve", str(level)]) is None


class _Terminal(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
@pytest.mark.parametrize("color", [None, True, False])
@pytest.mark.parametrize("err", [False, True], ids=["stdout", "stderr"])
def test_echo_writes_what_click_echo_writes(terminal, color, err, monkeypatch):
    message = "\033[1;31mred\033[0m and plain: é"
    written = []
    for say in (click.echo, running.echo):
        stream = (_Terminal if terminal else io.TextIOWrapper)(io.BytesIO(), encoding="utf-8")
        monkeypatch.setattr(sys, "stderr" if err else "stdout", stream)
        say(message, err=err, color=color)
        written.append(stream.buffer.getvalue())
    assert written[0] == written[1]
    assert (b"\033[" in written[1]) == (color if color is not None else terminal)
