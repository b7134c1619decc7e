"""Paths and helpers shared by the tests (importable because pytest puts tests/ on the path)."""

from __future__ import annotations

import glob
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS = os.path.join(ROOT, "levels")
HEXIOM_LEVELS = sorted(glob.glob(os.path.join(LEVELS, "hexiom", "level*.txt")))


def level_path(family: str, stem_name: str) -> str:
    folder = os.path.join(LEVELS, family)
    for name in os.listdir(folder):
        if os.path.splitext(name)[0] == stem_name:
            return os.path.join(folder, name)
    raise FileNotFoundError(f"{family}/{stem_name}")


def stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def run_trisolve(*args: str, timeout: float = 120, **kwargs) -> "subprocess.CompletedProcess[str]":
    """``python -m trisolve ARGS`` from the repository root, output captured as text."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "trisolve", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, **kwargs)
