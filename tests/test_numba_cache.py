"""numba's on-disk cache found damaged: the function is compiled again, never an UnpicklingError
(backends/numba_cache.py).  dp's kernels and xcover's Algorithm C are cached by numba with ``cache=True``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, level_path

#: a function numba caches, and a program that calls it with or without the guard
MODULE = "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
PROGRAM = """
import sys
sys.path.insert(0, {folder!r})
if {guarded!r}:
    from trisolve.backends import numba_cache
    numba_cache.guard()
import kernel
print(kernel.twice(21))
"""


def call(tmp_path, guarded: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    program = PROGRAM.format(folder=str(tmp_path), guarded=guarded)
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300, env=env)


def damage(tmp_path, suffix: str) -> list[str]:
    found = sorted(str(p) for p in (tmp_path / "cache").rglob(f"*{suffix}"))
    for path in found:
        with open(path, "wb") as handle:
            handle.write(b"\x80\x05not a pickle at all")
    return found


@pytest.mark.parametrize("suffix", [".nbi", ".nbc"])
def test_a_damaged_cache_entry_is_compiled_again_not_raised(tmp_path, suffix):
    (tmp_path / "kernel.py").write_text(MODULE)
    first = call(tmp_path, guarded=True)
    assert first.returncode == 0 and first.stdout.split() == ["42"], first.stderr
    assert damage(tmp_path, suffix)
    unguarded = call(tmp_path, guarded=False)
    assert unguarded.returncode != 0 and "Error" in unguarded.stderr  # what numba does alone
    again = call(tmp_path, guarded=True)
    assert again.returncode == 0 and again.stdout.split() == ["42"], again.stderr
    assert "numba's cache of kernel.twice could not be read" in again.stderr and "compiling again" in again.stderr
    after = call(tmp_path, guarded=True)  # the fresh entry was written: read silently
    assert after.returncode == 0 and after.stdout.split() == ["42"] and after.stderr == ""


def test_dp_and_exactcover_put_the_guard_in_before_their_first_compiled_call():
    program = (
        "from numba.core import caching\n"
        "before = caching.Cache.load_overload.__module__\n"
        "import trisolve.backends.dp.hexiom.runs\n"
        "print(before, caching.Cache.load_overload.__module__)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.stdout.split() == ["numba.core.caching", "trisolve.backends.numba_cache"], done.stderr
    from trisolve.backends.exactcover import engine

    source = Path(engine.__file__).read_text(encoding="utf-8")
    assert source.index("numba_cache.guard()") < source.index("from xcover import algorithm_c")


@pytest.mark.slow
def test_dp_counts_with_its_kernels_cache_damaged(tmp_path):
    """The row counter's kernels compiled into a fresh cache, the cache overwritten, the count run again."""
    program = f"""
from trisolve.backends.dp.hexiom import runs as hexiom_runs
from trisolve.backends.dp.hexiom.plan import fold, make_plan
from trisolve.backends.dp.hexiom.runs import RunCounter, RunPlan, count_runs
from trisolve.models.hexiom import model as hexiom

level = hexiom.parse({level_path("hexiom", "level38")!r})
hexiom_runs.NUMPY_WORK = 0
outcome = count_runs(RunPlan(level, make_plan(fold(level))))
print(outcome.count)
"""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    run = lambda: subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=600, env=env)  # noqa: E731
    first = run()
    assert first.returncode == 0 and first.stdout.split() == ["79"], first.stderr
    assert damage(tmp_path, ".nbi") and damage(tmp_path, ".nbc")
    again = run()
    assert again.returncode == 0 and again.stdout.split() == ["79"], again.stderr
    assert "could not be read" in again.stderr and "compiling again" in again.stderr
