"""What a run is asked and what it answers: ``Job`` (with its ``Deadline``) and ``RunRecord``.

A job's time limit is a ``Deadline``: seconds counted from one moment, made
once at the edge (a command's start, or the run's own when many queue) and
handed down, so that the child, an in-process run, the kill behind it and a
race all count from the same moment and nobody assembles the limit again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from trisolve.backends.base import Limits, Options, Result, Status


@dataclass(frozen=True)
class Deadline:
    """A run's time limit: ``seconds`` (None: none) counted from ``started`` (a ``time.monotonic()`` value).

    ``time.monotonic()`` is one clock for every process of a machine, so a forked child reads the same
    deadline; a run shipped to another machine (Dask) starts its own (``starting_now``)."""

    seconds: float | None
    started: float

    @classmethod
    def starting_now(cls, seconds: float | None) -> Deadline:
        return cls(seconds, time.monotonic())

    @property
    def at(self) -> float | None:
        """The moment the limit is reached (``time.monotonic()``), or None."""
        return None if self.seconds is None else self.started + self.seconds

    def remaining(self) -> float | None:
        """Seconds left (never below zero), or None without a limit."""
        return None if self.seconds is None else max(0.0, self.seconds - (time.monotonic() - self.started))

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def limits(self, limits: Limits) -> Limits:
        """``limits`` with the time that is left: what a backend's own clock gets."""
        return limits if self.seconds is None else replace(limits, time=self.remaining())


@dataclass(frozen=True)
class Job:
    """One (instance, backend configuration) pair to run."""

    path: str
    family: str
    backend: str
    limits: Limits = Limits()
    options: Options = Options()
    #: keep solutions in the record (the cross-checker compares sets of them); without it only the first
    #: comes in full and the rest are counted (a count need not ship and validate every solution)
    keep_solutions: bool = True
    #: where the level goes, in order, when ``backend`` refuses it (``child.route``): the measured default's next
    #: rows when no backend was named, else nothing (a named backend that refuses answers unknown, saying why)
    instead: tuple[str, ...] = ()

    def deadline(self, started: float | None = None) -> Deadline:
        """The job's time limit counted from ``started`` (default: now): made once, where the run starts."""
        return Deadline(self.limits.time, time.monotonic() if started is None else started)

    @property
    def key(self) -> str:
        """Identifies the job in a JSONL log, for --resume."""
        o = self.options
        return "|".join(
            [
                os.path.normpath(self.path),
                self.backend,
                "all" if o.enumerate else "first",
                f"sb={int(o.symmetry_breaking)}",
                f"seed={o.seed}",
                *(["shuffle"] if o.shuffle else []),
                f"limit={self.limits.solutions}",
                f"time={self.limits.time}",
            ]
        )


@dataclass(frozen=True)
class RunRecord:
    """What one run produced, in a form that goes to JSON and back unchanged."""

    key: str
    path: str
    family: str
    backend: str
    mode: str
    symmetry_breaking: bool
    status: str
    count: int
    complete: bool
    duplicates: int = 0
    solutions: tuple = ()
    stats: Mapping[str, Any] = field(default_factory=dict)
    times: Mapping[str, float] = field(default_factory=dict)
    wall: float = 0.0
    cpu: float = 0.0
    peak_rss_mb: float = 0.0
    stopped_by: str | None = None
    error: str | None = None
    seed: int = 0

    @property
    def count_text(self) -> str:
        return f"{self.count}" if self.complete else f"{self.count}+"

    @property
    def interrupted(self) -> bool:
        """Cut short by Ctrl-C: not a finished run (never logged, rerun on resume)."""
        return (self.stopped_by or "").startswith("interrupted")

    def to_json(self) -> dict:
        data = asdict(self)
        data["solutions"] = list(self.solutions)
        return data

    @classmethod
    def from_json(cls, data: Mapping) -> RunRecord:
        known = {f for f in cls.__dataclass_fields__}
        values = {k: v for k, v in data.items() if k in known}
        values["solutions"] = tuple(values.get("solutions", ()))
        return cls(**values)


def record_of(job: Job, **fields: Any) -> RunRecord:
    """A record of ``job``: the job's own fields, then what the run produced."""
    return RunRecord(
        key=job.key,
        path=job.path,
        family=job.family,
        backend=job.backend,
        mode="all" if job.options.enumerate else "first",
        symmetry_breaking=job.options.symmetry_breaking,
        seed=job.options.seed,
        **fields,
    )


def record_from_result(
    job: Job, result: Result, wall: float, *, cpu: float = 0.0, peak_rss_mb: float = 0.0, solutions: tuple | None = None
) -> RunRecord:
    """The one way a backend's Result becomes a record: in the runner's child, in tests, in the dimacs bridge."""
    return record_of(
        job,
        status=result.status.value,
        count=result.count,
        complete=result.complete,
        duplicates=result.duplicates,
        solutions=tuple(s.to_json() for s in result.solutions) if solutions is None else solutions,
        stats=dict(result.stats),
        times=dict(result.times),
        wall=wall,
        cpu=cpu,
        peak_rss_mb=peak_rss_mb,
        stopped_by=result.stopped_by,
    )


def routed(record: RunRecord, backend: str, refused: str | None) -> RunRecord:
    """The record of a job that ``child.route`` gave to ``backend``: its backend named, and why in its stats."""
    if refused is None:
        return record
    return replace(record, backend=backend, stats={**record.stats, "refused": refused})


def answers(job: Job, record: RunRecord) -> bool:
    """Whether a run answered what its job asked (``race`` takes the first that did)."""
    if record.error is not None or record.status == Status.UNKNOWN.value:
        return False
    if not job.options.enumerate:
        return True
    return record.complete or (job.limits.solutions is not None and record.count >= job.limits.solutions)
