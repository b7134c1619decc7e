"""A Dask worker process that dies mid-run: its run is retried, or recorded as an error and rerun on resume.

The backends come from tests/worker_killer.py (a --plugin file): ``killer:once``
kills the worker running it on its first try only, ``killer:always`` on every
try.  The trap is armed only through TRISOLVE_KILL_WORKER, which this test sets
for its own command (and so for that command's local cluster) alone.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import ROOT

from trisolve.models.hexiom import model as hexiom

pytest.importorskip("distributed")

PLUGIN = os.path.join(ROOT, "tests", "worker_killer.py")
#: Dask's default for distributed.scheduler.allowed-failures: a run is tried this many times + 1
ALLOWED_FAILURES = 3


def _campaign(folder, *extra: str, armed: bool = True) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, "TRISOLVE_KILL_WORKER": str(folder) if armed else "", "TRISOLVE_TEST_FOLDER": str(folder)}
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "trisolve",
            "campaign",
            "--family",
            "hexiom",
            "--generate",
            "1",
            "--side",
            "3",
            "--unique",
            "--seed",
            "3",
            "--jsonl",
            str(folder / "c.jsonl"),
            "--backends",
            "pysat:totalizer,killer:once,killer:always",
            "--plugin",
            PLUGIN,
            "--executor",
            "dask",
            "--jobs",
            "2",
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=folder,
        env=env,
    )
    return done, time.monotonic() - started


def _logged(folder) -> dict[str, dict]:
    records = [json.loads(line) for line in Path(folder / "c.jsonl").read_text(encoding="utf-8").splitlines()]
    return {r["backend"]: r for r in records if "backend" in r}


def _left_running(folder) -> list[int]:
    """Our own processes whose environment names the test's folder (the command, its cluster, their runs)."""
    marker = f"TRISOLVE_TEST_FOLDER={folder}".encode()
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                if marker in environ.read().split(b"\0"):
                    left.append(int(pid))
        except OSError:  # gone, or not ours
            continue
    return left


@pytest.mark.slow
def test_a_lost_worker_run_is_retried_or_an_error_that_resume_reruns(tmp_path):
    (tmp_path / "once").touch()
    done, seconds = _campaign(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr  # a verdict with ERROR is exit 1 (docs/exit-codes.md)
    assert seconds < 240
    assert "3 runs (0 reused" in done.stdout and "errors 1;" in done.stdout, done.stdout

    # the first try of killer:once killed its worker; the scheduler's retry finished it
    assert not (tmp_path / "once").exists()
    once_tries = (tmp_path / "tries-once").read_text().split()
    assert len(set(once_tries)) >= 2  # tried on a second worker process
    logged = _logged(tmp_path)
    assert sorted(logged) == ["killer:once", "pysat:totalizer"]  # every run that finished, and only those
    level = hexiom.parse(logged["killer:once"]["path"])
    for backend in logged:
        record = logged[backend]
        assert record["complete"] and record["count"] == 1 and not record.get("error"), record
        assert all(not hexiom.validate(level, hexiom.Solution(tuple(s["cells"]))) for s in record["solutions"]), record

    # killer:always killed a worker on every try, until the scheduler gave up: a clear error, not logged
    always_tries = (tmp_path / "tries-always").read_text().split()
    assert 1 <= len(always_tries) <= ALLOWED_FAILURES + 1  # a run queued on a dying worker counts a try too
    message = next(line for line in done.stdout.splitlines() if line.startswith("ERROR ") and "killer:always" in line)
    assert "killer:once" not in message and "pysat" not in message
    assert re.search(rf"lost worker: {ALLOWED_FAILURES + 1} tries, each ended by its worker process dying", message), (
        done.stdout + done.stderr
    )
    assert "a resume reruns it" in message
    assert not _left_running(tmp_path)

    # resumed with the trap disarmed: only the lost run executes, and now it is logged
    again, _ = _campaign(tmp_path, armed=False)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "3 runs (2 reused" in again.stdout and "1 agree" in again.stdout and "errors 0;" in again.stdout, (
        again.stdout
    )
    assert sorted(_logged(tmp_path)) == ["killer:always", "killer:once", "pysat:totalizer"]
    assert not _left_running(tmp_path)
