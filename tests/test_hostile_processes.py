"""SAT commands and backends that misbehave at the process level (issue 23).

Background helpers, helpers that leave the process group, grandchildren, crashes by signal, exits
without an answer, hangs, plugins that hang or die when a Dask worker loads them.  Each must end in
the exit code the issue says (0 answered, 1 a backend failed, 3 a limit came first), name the cause on
one line, never print a traceback, never hang past the limit, and leave no process running: every
process the misbehaving helper starts writes its pid to a file, checked after the command.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import LIMIT_SLACK, ROOT, level_path

HEXIOM = level_path("hexiom", "level01")
FAKE_SAT = os.path.join(ROOT, "tests", "fake_sat.py")
MISBEHAVING = os.path.join(ROOT, "tests", "misbehaving.py")


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for init to reap it is not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def left_running(pidfile) -> list[int]:
    if not os.path.exists(pidfile):
        return []
    pids = [int(line) for line in Path(pidfile).read_text(encoding="ascii").splitlines() if line.strip()]
    deadline = time.monotonic() + 3  # a killed process may take a moment to go
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


def run(tmp_path, *args: str, timeout: float = 120) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, "TRISOLVE_PIDFILE": str(tmp_path / "pids")}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "trisolve", *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=timeout
    )
    return done, time.monotonic() - started


def clean(done, code: int, *fragments: str) -> None:
    assert done.returncode == code, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    for fragment in fragments:
        assert fragment in done.stdout + done.stderr, (done.stdout, done.stderr)


# ------------------------------------------------------------------ --sat-command

SAT_CASES = [
    # mode, exit code, words the output must hold
    ("helper", 0, ["dimacs:totalizer: solved"]),
    ("setsid", 0, ["dimacs:totalizer: solved"]),
    ("crash", 1, ["killed by SIGSEGV"]),
    ("garbage", 1, ["printed no 's' line"]),
    ("hang", 3, ["time limit"]),
]


@pytest.mark.parametrize("mode,code,fragments", SAT_CASES, ids=[c[0] for c in SAT_CASES])
def test_a_misbehaving_sat_command_is_contained(tmp_path, mode, code, fragments):
    command = f"{sys.executable} {FAKE_SAT} {mode} {tmp_path / 'pids'}"
    limit = 4.0 if code == 3 else 30.0  # a loaded machine takes seconds to start the solver's Python
    done, took = run(
        tmp_path, "solve", HEXIOM, "--backend", "dimacs", "--sat-command", command, "--timeout", str(limit)
    )
    clean(done, code, *fragments)
    assert took < limit + LIMIT_SLACK
    assert left_running(tmp_path / "pids") == []


@pytest.mark.slow
def test_a_count_through_a_sat_command_with_helpers_leaves_none_behind(tmp_path):
    """One solver call per solution, each starting a helper: not one survives (13 did)."""
    command = f"{sys.executable} {FAKE_SAT} helper {tmp_path / 'pids'}"
    done, _ = run(
        tmp_path, "solve", HEXIOM, "--backend", "dimacs", "--sat-command", command, "--count", "--timeout", "8"
    )
    assert done.returncode in (0, 3) and "Traceback" not in done.stderr, done.stderr
    assert len(Path(tmp_path / "pids").read_text().split()) >= 4  # several calls, each with its helper
    assert left_running(tmp_path / "pids") == []


# ------------------------------------------------------------------ backends

BACKEND_CASES = [
    ("grandchild", 0, ["12 solutions"]),
    ("orphan", 0, ["12 solutions"]),
    ("late", 0, ["12 solutions"]),
    ("segfault", 1, ["killed by SIGSEGV"]),
    ("oom", 1, ["killed by SIGKILL"]),
    ("exit", 1, ["exited with code 0 before sending its result"]),
    ("hang", 3, ["killed at time limit"]),
]


@pytest.mark.parametrize("variant,code,fragments", BACKEND_CASES, ids=[c[0] for c in BACKEND_CASES])
def test_a_misbehaving_backend_is_contained(tmp_path, variant, code, fragments):
    """A grandchild or a thread that outlives the answer no longer keeps the command waiting (300 s)."""
    limit = 60.0 if code != 3 else 3.0
    done, took = run(
        tmp_path, "solve", HEXIOM, "--count", "--backend", f"misbehave:{variant}", "--plugin", MISBEHAVING,
        "--timeout", str(limit),
    )  # fmt: skip
    clean(done, code, *fragments)
    assert took < (LIMIT_SLACK if code != 3 else limit + LIMIT_SLACK)
    assert left_running(tmp_path / "pids") == []


def test_a_crashed_backend_is_an_error_verdict_in_crosscheck(tmp_path):
    done, _ = run(
        tmp_path, "crosscheck", HEXIOM, "--backends", "pysat:totalizer,misbehave:segfault", "--plugin", MISBEHAVING
    )
    clean(done, 1, "killed by SIGSEGV", "VERDICT: FAILED")


def test_the_library_reports_the_signal_that_killed_a_backend():
    import trisolve
    from trisolve.backends import registry

    registry.load_plugin(MISBEHAVING)
    result = trisolve.solve(HEXIOM, "misbehave:segfault", count=True)
    assert result.error == "backend process killed by SIGSEGV" and not result.complete


# ------------------------------------------------------------------ plugins in Dask workers


@pytest.mark.slow
@pytest.mark.parametrize("trap", ["hang", "die"])
def test_a_plugin_that_hangs_or_dies_when_a_dask_worker_loads_it_costs_runs_not_the_campaign(tmp_path, trap):
    """Loading happens in each run's child under the run's limit: no hang, no worker death, one load per run."""
    pytest.importorskip("distributed")
    env = {
        **os.environ,
        "TRISOLVE_PIDFILE": str(tmp_path / "pids"),
        "TRISOLVE_LOAD_TRAP": trap,
        "TRISOLVE_TEST_FOLDER": str(tmp_path),
    }
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable, "-m", "trisolve", "campaign", "--family", "hexiom", "--generate", "1", "--side", "2",
            "--jsonl", str(tmp_path / "c.jsonl"), "--backends", "pysat:totalizer,misbehave:grandchild",
            "--plugin", MISBEHAVING, "--executor", "dask", "--jobs", "1", "--timeout", "3",
        ],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
    )  # fmt: skip
    assert time.monotonic() - started < 120
    clean(done, 1)  # a verdict with an ERROR is exit 1 in campaign too (docs/exit-codes.md)
    assert "ERROR" in done.stdout, done.stdout
    cause = "did not load within the time limit" if trap == "hang" else "killed by SIGKILL"
    assert cause in done.stdout, done.stdout
    loads = Path(tmp_path / "loads").read_text().split()
    assert len(loads) == 2  # one per run, each in its own child: no retry after a death
    assert left_running(tmp_path / "pids") == []
