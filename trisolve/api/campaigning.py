"""``trisolve campaign``: generate levels and cross-check them all, resumably."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.models.errors import UsageError, shorten

from .generating import generating_family, sizes_of
from .running import new_request

if TYPE_CHECKING:
    from trisolve.crosscheck.compare import Verdict


def campaign(
    family: str,
    count: int,
    log: str | os.PathLike,
    *,
    seed: int = 0,
    unique: bool = False,
    sizes: Mapping[str, Any] | None = None,
    backends: str | Sequence[str] | None = None,
    timeout: float = 10.0,
    executor: str = "local",
    scheduler: str | None = None,
    jobs: int = 2,
    minimise_to: str | None = None,
    progress: Any = None,
) -> Campaign:
    """Generate ``count`` levels of ``family`` and cross-check them all, resumably: every run goes to the
    JSONL ``log`` at once and a rerun of the same call reuses it; the levels go to ``<log stem>-instances/``.

    ``executor`` is ``local`` (``jobs`` runs at a time) or ``dask`` (``jobs`` workers of a local cluster, or the
    one at ``scheduler``).  Disagreements and invalid solutions are shrunk into ``minimise_to`` (default
    ``<log stem>-disagreements/``).  ``progress`` hears ``generated(done, count)``, ``start(runs)`` and
    ``advance(record)``.
    """
    new_request()
    from trisolve.generate.campaign import run_campaign
    from trisolve.runs.executors import EXECUTORS, needs_dask
    from trisolve.selection.names import backend_list, backend_names

    kind = generating_family(arguments.text(family, "family") or "")
    count = numbers.COUNT.check(count, "count")
    seed = numbers.SEED.check(seed, "seed")
    timeout = numbers.TIMEOUT.check(timeout, "timeout")
    jobs = numbers.JOBS.check(jobs, "jobs")
    log, unique = arguments.path(log, "log") or "", arguments.flag(unique, "unique")
    backends, minimise_to = arguments.backends(backends), arguments.path(minimise_to, "minimise_to")
    executor, scheduler = arguments.text(executor, "executor"), arguments.text(scheduler, "scheduler")
    if executor not in EXECUTORS:
        raise UsageError(f"unknown executor {shorten(executor)!r}; known: {', '.join(EXECUTORS)}")
    if scheduler and executor != "dask":
        raise UsageError("a scheduler needs the dask executor")
    if executor == "dask":
        needs_dask()
    params = {**sizes_of(kind, sizes), "unique": unique}
    named = backend_list(backends)
    names = backend_names(named, kind.name, purpose="campaign")  # checked before anything is generated
    if scheduler:  # before any level or journal is written
        from trisolve.runs.executors import check_scheduler

        check_scheduler(scheduler)
    log = os.fspath(log)
    if minimise_to is None:
        stem = os.path.splitext(os.path.basename(log))[0]
        minimise_to = os.path.join(os.path.dirname(log), f"{stem}-disagreements")
    summary, verdicts = run_campaign(
        kind.name,
        count,
        log,
        seed=seed,
        params=params,
        backends=names if named else None,  # the policy's: each left out where it refuses an instance
        timeout=timeout,
        executor=executor,
        scheduler=scheduler,
        parallel=jobs,
        minimise_folder=minimise_to,
        progress=progress,
    )
    return Campaign(summary, tuple(verdicts))


@dataclass(frozen=True)
class Campaign:
    """A campaign's summary (``generate.campaign.Summary``: counts, throughput, minimised levels) and verdicts."""

    summary: Any
    verdicts: tuple[Verdict, ...] = field(repr=False)

    @property
    def failed(self) -> bool:
        """A verdict with a disagreement, an invalid solution or a crashed run (exit code 1)."""
        return self.summary.failed
