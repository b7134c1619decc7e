"""Generate many instances and cross-check them all, resumably.

The instances go to ``<jsonl stem>-instances/`` beside the log, one seed per
instance index (``instance_seed(seed, i)``), so a rerun regenerates exactly
the same files.  Then they are cross-checked as ``trisolve crosscheck`` does
it (``crosscheck.run.cross_check``): each finished run is appended to the
JSONL log at once, and a rerun reuses every record already there, so after a
crash or a kill nothing finished is lost and nothing is run twice.

Runs execute locally, N at a time, or on a Dask distributed cluster, where
each job runs through ``run_job`` inside a worker: the job's own time limit
and the runner's hard kill hold there too.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trisolve.crosscheck.run import Instance, Plan, Runs, cross_check
from trisolve.models import FAMILIES, files
from trisolve.models.errors import TrisolveError, UsageError, shorten
from trisolve.selection import choose

from .common import generator, instance_seed, suffix, watched, write_generated


@dataclass(frozen=True)
class Summary:
    """The outcome of a campaign (this session's runs and the reused ones together)."""

    instances: int
    runs: int
    reused: int
    generated: int  # instances written this session (the rest were already on disk)
    statuses: Mapping[str, int]
    disagreements: int
    invalid: int
    errors: int
    wall: float
    generate_seconds: float
    minimised: tuple[Mapping[str, Any], ...] = ()
    unique: int = 0
    #: a verdict with a disagreement, an invalid solution or a crashed run (exit code 1, docs/exit-codes.md)
    failed: bool = False
    #: minimised levels that could not be written, one line each (exit code 2 after the summary)
    problems: tuple[str, ...] = ()

    @property
    def throughput(self) -> float | None:
        """Instances cross-checked per minute of this session's wall time, generation included.

        Instances are counted pro rata to the runs made this session (a resumed
        campaign gets no credit for reused records); None when nothing ran.
        """
        made = self.runs - self.reused
        if made <= 0 or self.wall <= 0:
            return None
        return 60.0 * self.instances * made / self.runs / self.wall

    def to_json(self) -> dict:
        return {
            "instances": self.instances,
            "unique_instances": self.unique,
            "runs": self.runs,
            "reused_runs": self.reused,
            "generated": self.generated,
            "statuses": dict(self.statuses),
            "disagreements": self.disagreements,
            "invalid_solutions": self.invalid,
            "errors": self.errors,
            "wall_seconds": round(self.wall, 2),
            "generate_seconds": round(self.generate_seconds, 2),
            "instances_per_minute": None if self.throughput is None else round(self.throughput, 2),
            "minimised": [dict(m) for m in self.minimised],
            "failed": self.failed,
            **({"problems": list(self.problems)} if self.problems else {}),
        }


def instance_folder(jsonl: str) -> str:
    stem = os.path.splitext(os.path.basename(jsonl))[0]
    return os.path.join(os.path.dirname(jsonl), f"{stem}-instances")


class CampaignMismatch(UsageError):
    """The instance folder was made by a campaign with another family, seed or size."""


def _check_manifest(folder: str, family: str, seed: int, params: Mapping[str, Any]) -> None:
    """Record what the folder's instances are made of; refuse to mix two campaigns in one folder."""
    manifest = {"family": family, "seed": seed, "params": dict(sorted(params.items()))}
    path = os.path.join(folder, "campaign.json")
    if os.path.lexists(path):
        recorded = files.read_json(path, what="campaign manifest")
        if recorded != manifest:
            raise CampaignMismatch(
                f"{folder} holds instances of another campaign ({shorten(recorded, 300)}); "
                f"this one is {manifest}: use another --jsonl"
            )
        return
    files.make_folder(folder, "instance folder")
    files.write_text(path, files.dumps(manifest) + "\n", what="campaign manifest")


def prepare_instances(
    family: str,
    count: int,
    seed: int,
    folder: str,
    params: Mapping[str, Any],
    on_instance: Callable[[int], None] | None = None,
    on_attempt: Callable[[str], None] | None = None,
) -> tuple[list[Instance], int, int]:
    """Generate (or reuse) instances 0..count-1; (instances, newly generated, proved unique).  ``on_attempt``
    hears each attempt of a level being made (``common.watched``)."""
    _check_manifest(folder, family, seed, params)
    fam = FAMILIES[family]
    make = generator(family)
    instances, fresh, unique = [], 0, 0
    for index in range(count):
        stem = f"{family}-{index:05d}"
        path = os.path.join(folder, stem + suffix(family))
        sidecar = os.path.join(folder, stem + ".solution.json")
        level = None
        if os.path.exists(path) and os.path.exists(sidecar):
            try:
                level = fam.parse(path)
                unique += _sidecar_unique(sidecar)
            except TrisolveError:  # a torn file from a kill: regenerate it (same seed, same level)
                level = None
        if level is None:
            with watched(on_attempt):
                generated = make(instance_seed(seed, index), name=stem, **params)
            path = write_generated(generated, folder, stem)
            level = fam.parse(path)
            fresh += 1
            unique += generated.unique
        instances.append(Instance(path, fam, level))
        if on_instance:
            on_instance(index)
    return instances, fresh, unique


def _sidecar_unique(path: str) -> bool:
    """Whether the sidecar says its level's solution is unique (read as every input is: ``models.files``)."""
    data = files.read_json(path, what="solution sidecar")
    files.fields(data, {"unique": "bool"}, path, required=("unique",), what="solution sidecar")
    return data["unique"]


# ------------------------------------------------------------------ campaign


def run_campaign(
    family: str,
    count: int,
    jsonl: str,
    *,
    seed: int = 0,
    params: Mapping[str, Any] | None = None,
    backends: Sequence[str] | None = None,
    timeout: float = 10.0,
    executor: str = "local",
    scheduler: str | None = None,
    parallel: int = 2,
    minimise_folder: str | None = None,
    minimise_budget: float = 300.0,
    progress: Any = None,
) -> tuple[Summary, list]:
    """Generate ``count`` instances and cross-check them (``crosscheck.run.cross_check``); returns (summary,
    verdicts).  Every run goes to ``jsonl`` and a rerun reuses it; disagreements and invalid solutions are
    shrunk into ``minimise_folder``.  ``backends`` (full names) run on every instance; None: what the selection
    policy runs in a campaign (``selection.choose(family, "campaign")``), each left out where it refuses the
    instance (``registry.refusal``).

    ``progress`` (optional) gets ``generated(done, count)`` calls while instances are made (and, if it has them,
    ``attempt(text)`` for each attempt of the level being made), then ``start(total runs)`` and
    ``advance(record)`` once per finished run, and ``shrinking(path, index, total, budget)`` (if it has it)
    as each disagreement is shrunk.
    """
    params = dict(params or {})
    folder = instance_folder(jsonl)
    names = list(backends) if backends else list(choose(family, "campaign").backends)
    began = time.monotonic()
    on_instance = (lambda index: progress.generated(index + 1, count)) if progress is not None else None
    on_record = (lambda record, was_reused: progress.advance(record)) if progress is not None else None
    _check_manifest(folder, family, seed, params)  # another campaign's folder is refused before the journal opens
    # the journal is opened (and locked: a second campaign on it is refused) before any level is made
    with Runs(
        jsonl, resume=True, executor=executor, parallel=parallel, scheduler=scheduler, on_record=on_record
    ) as runs:
        on_attempt = getattr(progress, "attempt", None)
        instances, fresh, unique = prepare_instances(family, count, seed, folder, params, on_instance, on_attempt)
        generate_seconds = time.monotonic() - began
        select = None
        if not backends:  # the policy's: one that refuses an instance (registry.refusal) is left out there
            from trisolve.crosscheck.plan import refusals

            refusing = refusals([(i.path, family, i.level) for i in instances], lambda _: names)

            def select(path: str, _family: str, backend: str) -> bool:
                return backend not in refusing.get(path, {})

        checked = cross_check(
            instances,
            lambda _: names,
            runs,
            Plan(timeout=timeout, seed=seed),
            expected=False,
            minimise_to=minimise_folder,
            minimise_budget=minimise_budget,
            on_planned=progress.start if progress is not None else None,
            select=select,
            on_shrinking=getattr(progress, "shrinking", None),
        )
    statuses: dict[str, int] = {}
    for verdict in checked.verdicts:
        statuses[verdict.status] = statuses.get(verdict.status, 0) + 1
    summary = Summary(
        instances=len(instances),
        runs=checked.runs,
        reused=checked.reused,
        generated=fresh,
        statuses=statuses,
        disagreements=statuses.get("DISAGREE", 0),
        invalid=statuses.get("INVALID", 0),
        errors=statuses.get("ERROR", 0),
        wall=time.monotonic() - began,
        generate_seconds=generate_seconds,
        minimised=checked.minimised,
        unique=unique,
        failed=checked.failed,
        problems=checked.problems,
    )
    return summary, list(checked.verdicts)
