"""Minimised repros reproduce: the printed command, run as printed, fails as the original did.

The plugin tests/shared_bug.py has two variants sharing one bug.  They agree with each other, so a
shrunk instance rerun on them alone shows nothing: the minimiser must keep a backend that disagrees with
them in its checks and in the printed command, whatever kind of finding it chases (a count off
expected.json, a disagreement between runs, a count off the record that no backend disagrees with).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest
from support import ROOT

from trisolve.models.logic import model as logic

PLUGIN = os.path.join(ROOT, "tests", "shared_bug.py")

#: 70 solutions; the shared bug (somewhere_left_of read as immediately left) finds 42
PUZZLE = """\
title = "Four friends"
positions = 4

[categories]
name = ["Ann", "Bob", "Cy", "Di"]
pet = ["cat", "dog", "eel", "fox"]
drink = ["tea", "milk", "beer", "wine"]

[[clues]]
somewhere_left_of = ["Ann", "dog"]
[[clues]]
same = ["Bob", "tea"]
[[clues]]
not_at = ["Cy", 1]
[[clues]]
next_to = ["eel", "wine"]
[[clues]]
at = ["fox", 4]
"""


def trisolve(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "trisolve", *args], capture_output=True, text=True, timeout=600, cwd=cwd
    )


def size(level: logic.Level) -> int:
    return level.positions * len(level.categories) + len(level.clues)


def printed_command(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("minimised ") and "reproduce with:" in line)
    return shlex.split(lines[at + 1].strip())


def run_as_printed(command: list[str], cwd) -> subprocess.CompletedProcess:
    assert command[:2] == ["trisolve", "crosscheck"]
    return trisolve(*command[1:], cwd=cwd)


@pytest.mark.parametrize(
    "backends, expected, suspects_only",
    [
        # a count off expected.json: the shared variants outvote pysat, only the record says they are wrong
        pytest.param("pysat:pairwise,shared", 70, False, id="off-expected"),
        # without the record the majority decides: pysat is the suspect, a shared variant the reference
        pytest.param("pysat:pairwise,shared", None, False, id="majority"),
        # only the suspects ran: a shipped backend recounts the original and joins as the reference
        pytest.param("shared", 70, True, id="shipped-reference"),
    ],
)
def test_the_printed_command_reproduces_the_finding(tmp_path, backends, expected, suspects_only):
    (tmp_path / "puzzles").mkdir()
    (tmp_path / "puzzles" / "friends.toml").write_text(PUZZLE)
    args = ["crosscheck", "puzzles", "--plugin", PLUGIN, "--backends", backends, "--minimize", "-q"]
    if expected is None:
        args.append("--no-expected")
    else:
        (tmp_path / "puzzles" / "expected.json").write_text(
            json.dumps({"friends": {"count": expected, "complete": True}})
        )
    done = trisolve(*args, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "friends.toml: disagree" in done.stdout
    small = logic.parse(str(tmp_path / "minimized" / "friends-min.toml"))
    assert size(small) < size(logic.parse(str(tmp_path / "puzzles" / "friends.toml")))
    command = printed_command(done.stdout)
    named = command[command.index("--backends") + 1].split(",")
    assert any(not name.startswith("shared:") for name in named) and any(name.startswith("shared:") for name in named)
    if suspects_only:
        assert "pysat:pairwise" in named  # the family's measured counter, recounted to 70 on the original
    again = run_as_printed(command, tmp_path)
    assert again.returncode == 1, again.stdout + again.stderr
    assert "VERDICT: FAILED" in again.stdout and "friends-min.toml: disagree" in again.stdout
    assert " ".join(command) in (tmp_path / "minimized" / "friends-min.repro.md").read_text().replace("\n", " ")


@pytest.mark.slow
def test_a_count_no_backend_disagrees_with_is_checked_against_its_record(tmp_path):
    """expected.json says 71, every backend counts 70: nothing disagrees with the suspect, so the instance is
    kept whole with its record beside it, and the command checks against that record."""
    (tmp_path / "puzzles").mkdir()
    (tmp_path / "puzzles" / "friends.toml").write_text(PUZZLE)
    (tmp_path / "puzzles" / "expected.json").write_text(json.dumps({"friends": {"count": 71, "complete": True}}))
    done = trisolve("crosscheck", "puzzles", "--backends", "pysat:pairwise", "--minimize", "-q", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "pysat:pairwise: 70 solutions, expected 71" in done.stdout
    recorded = json.loads((tmp_path / "minimized" / "expected.json").read_text())
    assert recorded == {"friends-min": {"count": 71, "complete": True}}
    command = printed_command(done.stdout)
    assert "--no-expected" not in command
    again = run_as_printed(command, tmp_path)
    assert again.returncode == 1, again.stdout + again.stderr
    assert "pysat:pairwise: 70 solutions, expected 71" in again.stdout
