"""Run a cross-check campaign: every (instance, backend variant) in its own process.

Records are appended to a JSONL log as each run finishes (flushed and
fsynced), so a campaign that is killed keeps every finished result and
``resume=True`` skips them next time.
"""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from trisolve.backends.base import Limits, Options
from trisolve.backends.runner import Job, RunRecord, run_job
from trisolve.models.family import Family

from .compare import Verdict, expected_for, judge
from .jsonl import cut_torn_tail, read_lines


@dataclass(frozen=True)
class Instance:
    path: str
    family: Family
    level: Any


def plan_jobs(
    instances: Sequence[Instance],
    backends_for: Callable[[str], list[str]],
    *,
    timeout: float | None,
    limit: int | None,
    symmetry_breaking: bool = False,
    seed: int = 0,
) -> list[Job]:
    """All jobs of a campaign, interleaving backends so machine drift hits all alike.

    With symmetry breaking, each backend runs twice per instance: plain (the
    reference whose orbits are counted) and with lex-leader constraints
    (the latter only where the backend can break symmetries).
    """
    from trisolve.backends.registry import breaks_symmetries

    jobs = []
    limits = Limits(time=timeout, solutions=limit)
    modes = [False, True] if symmetry_breaking else [False]
    for instance in instances:
        for sb in modes:
            for backend in backends_for(instance.family.name):
                if sb and not breaks_symmetries(backend, instance.family.name):
                    continue  # e.g. dp on sigils: its plain count still takes part
                options = Options(enumerate=True, symmetry_breaking=sb, seed=seed)
                jobs.append(Job(instance.path, instance.family.name, backend, limits, options))
    return jobs


def read_log(path: str) -> dict[str, RunRecord]:
    """Finished records of an earlier run; a torn last line (killed mid-write) is ignored."""
    records: dict[str, RunRecord] = {}
    if not os.path.exists(path):
        return records
    for data in read_lines(path):
        try:
            record = RunRecord.from_json(data)
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
        records[record.key] = record
    return records


class Log:
    """Append-only JSONL, one record per finished run, durable at once."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.handle = None
        if path:
            folder = os.path.dirname(os.path.abspath(path))
            os.makedirs(folder, exist_ok=True)
            cut_torn_tail(path)
            self.handle = open(path, "a", encoding="utf-8")

    def write(self, record: RunRecord) -> None:
        if self.handle is None:
            return
        with self.lock:
            self.handle.write(json.dumps(record.to_json()) + "\n")
            self.handle.flush()
            os.fsync(self.handle.fileno())

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()


def reuse_finished(
    jobs: Sequence[Job], done: Mapping[str, RunRecord], on_record: Callable[[RunRecord, bool], None] | None = None,
) -> tuple[dict[int, RunRecord], list[tuple[int, Job]]]:
    """Split the jobs for an executor: (records already in ``done`` by job index, jobs still to run).

    Each reused record is reported to ``on_record`` with ``True`` (reused) at once.
    """
    results: dict[int, RunRecord] = {}
    pending: list[tuple[int, Job]] = []
    for index, job in enumerate(jobs):
        if job.key in done:
            results[index] = done[job.key]
            if on_record:
                on_record(done[job.key], True)
        else:
            pending.append((index, job))
    return results, pending


def execute(
    jobs: Sequence[Job],
    levels: dict[str, Any],
    *,
    parallel: int,
    log: Log | None = None,
    done: dict[str, RunRecord] | None = None,
    on_record: Callable[[RunRecord, bool], None] | None = None,
) -> list[RunRecord]:
    """Run the jobs ``parallel`` at a time; records already in ``done`` are reused, not rerun."""
    results, pending = reuse_finished(jobs, done or {}, on_record)
    if pending:
        _preload(job for _, job in pending)
        with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
            futures = {pool.submit(run_job, job, levels[job.path]): index for index, job in pending}
            try:
                for future in as_completed(futures):
                    record = future.result()
                    results[futures[future]] = record
                    if log is not None:
                        log.write(record)
                    if on_record:
                        on_record(record, False)
            except KeyboardInterrupt:
                for future in futures:
                    future.cancel()
                raise
    return [results[i] for i in sorted(results)]


def _preload(jobs: Iterable[Job]) -> None:
    """Import the solvers once here, so each forked run does not pay for it (registry.preload)."""
    from trisolve.backends import registry

    by_family: dict[str, set[str]] = {}
    for job in jobs:
        by_family.setdefault(job.family, set()).add(job.backend)
    for family, specs in by_family.items():
        registry.preload(sorted(specs), family)


def judge_all(instances: Sequence[Instance], records: Iterable[RunRecord], use_expected: bool = True) -> list[Verdict]:
    by_path: dict[str, list[RunRecord]] = {}
    for record in records:
        by_path.setdefault(record.path, []).append(record)
    verdicts = []
    for instance in instances:
        expected = expected_for(instance.path) if use_expected else None
        verdicts.append(judge(instance.family, instance.level, instance.path, by_path.get(instance.path, []), expected))
    return verdicts
