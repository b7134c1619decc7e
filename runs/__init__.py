"""The run home: how a backend runs on a level, one run or many, with limits that hold.

Above the registry and below the cross-checker, the benchmark, the
generators and the API, from the bottom up:

* ``processes.py`` — the operating system's side: signals and the one
  ``INTERRUPT`` flag, process groups, helpers that must not outlive a run.
  It imports nothing of trisolve, so the engines may use it;
* ``jobs.py`` — what a run is asked (``Job``, with its ``Deadline``, made
  once where the run starts) and what it answers (``RunRecord``);
* ``child.py`` — where the backend runs: a forked child's body, or this
  process; the only caller of a backend's ``run``;
* ``isolated.py`` — the parent's side of a forked run: the pipe, the kill;
* ``entry.py`` — ``run``, where every run starts;
* ``executors.py`` — many runs: here a few at a time, on Dask, or raced.
"""

from __future__ import annotations

from .entry import run
from .jobs import Deadline, Job, RunRecord, answers, record_from_result, record_of
from .processes import INTERRUPT, grace_for, interrupted, raise_if_interrupted

__all__ = [
    "INTERRUPT",
    "Deadline",
    "Job",
    "RunRecord",
    "answers",
    "grace_for",
    "interrupted",
    "raise_if_interrupted",
    "record_from_result",
    "record_of",
    "run",
]
