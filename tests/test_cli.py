"""The command line as a user meets it: exit codes, JSON shape, errors without tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from support import ROOT, level_path, run_cli

from trisolve.backends import registry
from trisolve.selection import declaring

#: each paradigm's backend (the portfolio): SAT, ASP, CP
BACKENDS = list(declaring("PORTFOLIO"))


def trisolve(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "trisolve", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_solve_json_has_the_documented_fields_and_a_valid_board(backend):
    from trisolve.models.hexiom import model as hexiom

    done = trisolve("solve", level_path("hexiom", "level10"), "--backend", backend, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {"family", "backend", "status", "count", "complete", "solutions", "stats", "time"} <= set(data)
    assert data["family"] == "hexiom" and data["status"] == "sat" and data["backend"].startswith(backend + ":")
    assert data["count"] == 1 and data["complete"] is False  # first solution only: 1+
    level = hexiom.parse(level_path("hexiom", "level10"))
    cells = data["solutions"][0]["cells"]
    assert len(cells) == level.board.size
    assert hexiom.validate(level, hexiom.Solution(tuple(cells))) == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_count_is_exact_and_complete(backend):
    done = trisolve("solve", level_path("hexiom", "level01"), "--backend", backend, "--count", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["count"], data["complete"]) == (12, True)


def test_all_prints_every_board_and_the_count():
    done = trisolve("solve", level_path("hexiom", "level01"), "--all")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("1 1") + done.stdout.count("1\n") >= 1
    assert "12 solutions" in done.stdout


def test_a_solution_limit_answers_with_n_plus():
    done = trisolve("solve", level_path("hexiom", "level01"), "--count", "--limit", "5", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["count"], data["complete"]) == (5, False)
    text = trisolve("solve", level_path("hexiom", "level01"), "--count", "--limit", "5")
    assert "5+ solutions" in text.stdout


def test_a_time_limit_before_an_answer_exits_3():
    done = trisolve(
        "solve", level_path("hexiom", "level40"), "--backend", "pysat", "--count", "--timeout", "1", "--json"
    )
    assert done.returncode == 3, done.stderr
    data = json.loads(done.stdout)
    assert data["complete"] is False


def test_the_time_limit_counts_from_trisolves_start_though_a_shell_exec_made_it():
    """``bash -c "... && trisolve ..."`` runs trisolve by exec in the shell's process, whose start is long past:
    the limit counts from trisolve's own start (``cli.common.process_started``), not the shell's."""
    command = f"sleep 3; exec {sys.executable} -m trisolve solve {level_path('hexiom', 'level01')} --json --timeout 2"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "sat" and data["time"]["wall"] < 2.5


def test_a_command_run_in_process_counts_its_limit_from_its_own_call(capsys):
    """``run_cli`` called by a program (here pytest, alive for a while) starts the clock at the call, not
    at the process's start: a 2 s limit 3 s after the process began still leaves the whole 2 s."""
    import time

    time.sleep(3)
    code = run_cli(["solve", level_path("hexiom", "level01"), "--json", "--timeout", "2"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["status"] == "sat" and data["time"]["wall"] < 2.0


def test_unsat_is_an_answer(tmp_path):
    level = tmp_path / "impossible.txt"
    level.write_text("2\n6 .\n. . .\n. .\n")  # a 6 needs six neighbours: only the centre has them, all empty
    done = trisolve("solve", str(level), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "unsat" and data["count"] == 0 and data["complete"] is True


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["solve", "no-such-file.txt"], "no such file"),
        (["solve", "levels/hexiom/level01.txt", "--backend", "nosuch"], "unknown backend"),
        (["solve", "levels/hexiom/level01.txt", "--backend", "pysat:nosuch"], "nosuch"),
        (["solve", "levels/hexiom/level01.txt", "--all", "--count"], "cannot be used together"),
        (["solve", "levels/hexiom/level01.txt", "--timeout", "-1"], "timeout"),
        (["crosscheck", "no-such-folder"], "no such file"),
        (["solve"], "FILE_OR_DIR"),
    ],
)
def test_bad_usage_exits_2_with_a_message_and_no_traceback(args, fragment):
    done = trisolve(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert fragment.lower() in done.stderr.lower()
    assert "Traceback" not in done.stderr


def test_a_malformed_level_names_file_and_line(tmp_path):
    level = tmp_path / "broken.txt"
    level.write_text("2\n. .\n. x .\n. .\n")
    done = trisolve("solve", str(level))
    assert done.returncode == 2
    assert f"{level}:3" in done.stderr and "Traceback" not in done.stderr


def test_help_lists_the_commands_without_importing_solvers():
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "trisolve", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0
    for command in ("solve", "crosscheck", "backends"):
        assert command in done.stdout
    imported = done.stderr
    for heavy in ("ortools", "clingo", "pysat"):
        assert f" {heavy}" not in imported, f"--help imported {heavy}"


def test_crosscheck_agrees_on_small_levels_and_writes_jsonl(tmp_path):
    log = tmp_path / "runs.jsonl"
    paths = [level_path("hexiom", n) for n in ("level01", "level02", "level04")]
    done = trisolve("crosscheck", *paths, "--jsonl", str(log), "--timeout", "30")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VERDICT: all backends agree on 3 of 3 instances" in done.stdout
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) >= 3 * 3
    again = trisolve("crosscheck", *paths, "--jsonl", str(log), "--resume", "--json", "--timeout", "30")
    assert again.returncode == 0
    summary = json.loads(again.stdout)
    assert summary["verdict"] == "ok"
    assert len(log.read_text().splitlines()) == len(lines)  # nothing ran twice


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_one_command_solves_a_folder_and_writes_one_valid_line_per_level(backend, tmp_path):
    from support import HEXIOM_LEVELS

    from trisolve.models.hexiom import model as hexiom

    out = tmp_path / "out.jsonl"
    done = trisolve("solve", "levels/hexiom", "--backend", backend, "--jsonl", str(out), timeout=600)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == len(HEXIOM_LEVELS) == 41
    assert done.stdout.count("==> ") == 41
    for line, path in zip(lines, HEXIOM_LEVELS):
        assert os.path.samefile(os.path.join(ROOT, line["instance"]), path)
        assert line["status"] == "sat" and line["backend"].startswith(backend + ":")
        level = hexiom.parse(path)
        assert hexiom.validate(level, hexiom.Solution(tuple(line["solutions"][0]["cells"]))) == []


def test_many_instances_exit_with_the_worst_code_and_keep_going(tmp_path):
    folder = tmp_path / "hexiom"
    folder.mkdir()
    with open(level_path("hexiom", "level01")) as handle:
        (folder / "a-good.txt").write_text(handle.read())
    (folder / "b-bad.txt").write_text("3\n. x .\n")
    (folder / "c-impossible.txt").write_text("2\n6 .\n. . .\n. .\n")
    done = trisolve("solve", str(folder), "--json")
    assert done.returncode == 2, done.stderr
    assert "b-bad.txt:2" in done.stderr and "Traceback" not in done.stderr
    statuses = [json.loads(line)["status"] for line in done.stdout.splitlines()]
    assert statuses == ["sat", "unsat"]
    stopped = trisolve(
        "solve",
        level_path("hexiom", "level01"),
        level_path("hexiom", "level40"),
        "--count",
        "--backend",
        "pysat",
        "--timeout",
        "5",  # counted from the command's start: level01 (0.1 s) completes even on a loaded machine
        "--json",
    )
    assert stopped.returncode == 3, stopped.stderr
    assert [json.loads(line)["complete"] for line in stopped.stdout.splitlines()] == [True, False]


def test_solve_help_lists_every_shipped_backend_and_the_memory_default_the_code_uses():
    from trisolve.backends.dp.hexiom import DEFAULT_MEMORY

    done = trisolve("solve", "--help")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    for name in registry.shipped():
        assert f"{name}," in text or f"{name} (" in text, name
    # the rule, not this machine's figure (docs/usage.md is written from the help): the code follows the rule
    assert "default: half this machine's memory, at most 12G)" in text and "default 4G" not in text
    physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert max(1 << 30, min(12 << 30, physical // 2)) == DEFAULT_MEMORY
