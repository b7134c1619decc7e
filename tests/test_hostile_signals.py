"""Ctrl-C and SIGTERM on the commands and library calls that did not stop cleanly (issue 23).

``mutate`` ran on and reported "100%", exit 0; ``render --solve`` said "found no solution", exit 3;
``trisolve.cross_check`` swallowed Ctrl-C and came back 60 s later with a backend missing;
``trisolve.benchmark`` returned part of its runs unmarked.  Now: commands exit 130 with their partial
output marked partial, library calls return at once with a result that says ``interrupted`` (the
runs that finished, never passed off as whole); all stop within seconds, leave no run behind.
(solve, crosscheck, bench, campaign and generate: tests/test_hostile.py.)
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from support import LIMIT_SLACK, ROOT, level_path


def _children(pid: int) -> list[int]:
    listing = subprocess.run(["ps", "--ppid", str(pid), "-o", "pid="], capture_output=True, text=True).stdout
    return [int(p) for p in listing.split()]


def interrupt(argv: list[str], signum: int, after: float = 1.0) -> tuple[subprocess.CompletedProcess, float, list]:
    """Start ``argv``, wait until a run is going (a child process), then ``after`` seconds, send ``signum``."""
    process = subprocess.Popen(
        argv,
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # as a terminal starts it: a test run started in the background (``&``) ignores SIGINT, and ignored it
        # would be inherited, so Python would install no Ctrl-C handler at all
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not _children(process.pid) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    time.sleep(after)
    runs = _children(process.pid)
    sent = time.monotonic()
    process.send_signal(signum)
    out, err = process.communicate(timeout=120)
    return subprocess.CompletedProcess(argv, process.returncode, out, err), time.monotonic() - sent, runs


def _gone(pids: list[int]) -> bool:
    time.sleep(0.5)
    return not any(subprocess.run(["kill", "-0", str(p)], capture_output=True).returncode == 0 for p in pids)


SIGNALS = [signal.SIGINT, signal.SIGTERM]


@pytest.mark.slow
@pytest.mark.parametrize("signum", SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_mutate_stops_with_130_and_a_report_marked_partial(tmp_path, signum):
    argv = [sys.executable, "-m", "trisolve", "mutate", "hexiom", "--backend", "pysat:totalizer", "--timeout", "30"]
    done, took, runs = interrupt([*argv, "--jobs", "2", "--out", str(tmp_path / "m")], signum, after=3)
    assert done.returncode == 130, (done.stdout[-500:], done.stderr)
    assert done.stdout.startswith("INTERRUPTED (partial report)") and "INTERRUPTED" in done.stderr
    # first and last line say partial (operators whose mutants all finished may still read 100%)
    assert "INTERRUPTED: partial" in done.stdout.strip().splitlines()[-1] and "Traceback" not in done.stderr
    assert took < LIMIT_SLACK and _gone(runs)


@pytest.mark.slow
@pytest.mark.parametrize("signum", SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_render_solve_stops_with_130_not_no_solution(tmp_path, signum):
    # level 38 takes SCIP tens of seconds (docs/bench/level38-paradigms.md): the signal comes mid-search
    argv = [sys.executable, "-m", "trisolve", "render", level_path("hexiom", "level38"), "--solve", "-b", "mip:scip"]
    done, took, runs = interrupt([*argv, "-o", str(tmp_path / "x.svg")], signum)
    assert done.returncode == 130, (done.stdout, done.stderr)
    assert "interrupted" in done.stderr and "Traceback" not in done.stderr
    assert "no solution exists" not in done.stderr and "within the limits" not in done.stderr
    assert not (tmp_path / "x.svg").exists()
    assert took < LIMIT_SLACK and _gone(runs)


LIBRARY = {
    "cross_check": (
        "r = trisolve.cross_check([{a!r}, {b!r}], timeout=60, jobs=2)\n"
        "print('REPORT', r.interrupted, sum(len(v.records) for v in r.verdicts), 'records')\n"
    ),
    "benchmark": (
        "r = trisolve.benchmark([{c!r}, {a!r}], ['clingo:count'], mode='count', repeat=1, timeout=60)\n"
        "print('BENCHMARK', r.interrupted, len(r.runs), 'of', r.planned, 'runs')\n"
    ),
    "solve": (
        "r = trisolve.solve({a!r}, 'clingo', count=True, timeout=60)\nprint('RESULT', r.interrupted, r.count_text)\n"
    ),
    "solve_many": (
        "for r in trisolve.solve_many([{a!r}, {b!r}], 'clingo', count=True, timeout=60):\n"
        "    print('RESULT', r.interrupted, r.count_text)\n"
    ),
}
SAYS = {
    "cross_check": "REPORT True",
    "benchmark": "BENCHMARK True 1 of 2 runs",
    "solve": "RESULT True",
    "solve_many": "RESULT True",
}


@pytest.mark.slow
@pytest.mark.parametrize("call", list(LIBRARY))
def test_a_library_call_interrupted_says_so_at_once(call):
    code = "import trisolve\n" + LIBRARY[call].format(
        a=level_path("hexiom", "level40"), b=level_path("hexiom", "level39"), c=level_path("hexiom", "level01")
    )
    done, took, runs = interrupt([sys.executable, "-c", code], signal.SIGINT, after=2)
    assert SAYS[call] in done.stdout, (done.stdout, done.stderr)
    assert done.stdout.count("RESULT") == (1 if call.startswith("solve") else 0)  # solve_many stops the batch
    assert took < LIMIT_SLACK and _gone(runs)


@pytest.mark.parametrize("process_entry", [False, True], ids=["in-process", "process-entry"])
def test_an_interrupted_command_run_in_process_gives_the_handlers_back(monkeypatch, process_entry):
    """Only a process started for the command ignores a late signal after Ctrl-C; a command run inside another
    program (run_cli) leaves SIGINT as it found it, else every process that program starts inherits it ignored."""
    from trisolve.cli import running
    from trisolve.runs import processes

    before = signal.getsignal(signal.SIGINT)
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    monkeypatch.setattr(running, "_command_entered", None)  # given back after the test
    running.entered(process_entry=process_entry)
    previous = running.catch_interrupts()
    processes.INTERRUPT.set()
    try:
        running.restore_signals(previous)
        after = signal.getsignal(signal.SIGINT)
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        processes.INTERRUPT.clear()
    assert after == (signal.SIG_IGN if process_entry else before)
