"""Generate many instances and cross-check them all, resumably.

The instances go to ``<jsonl stem>-instances/`` beside the log, one seed per
instance index (``instance_seed(seed, i)``), so a rerun regenerates exactly
the same files.  The runs are the cross-checker's own jobs (``plan_jobs``);
each finished run is appended to the JSONL log at once, and a rerun reuses
every record already there: after a crash or a kill nothing finished is
lost and nothing is run twice.

Runs execute through ``crosscheck/executors.py``: locally, N at a time, or
on a Dask distributed cluster, where each job runs through ``run_job`` inside
a worker: the job's own time limit and the runner's hard kill hold there too.
"""

from __future__ import annotations

import os
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trisolve.backends.runner import INTERRUPT
from trisolve.crosscheck.executors import execute
from trisolve.crosscheck.jsonl import Log, read_log
from trisolve.crosscheck.run import Instance, judge_all, plan_jobs
from trisolve.models import FAMILIES, files
from trisolve.models.errors import TrisolveError, shorten

from .common import generator, instance_seed, suffix, write_generated


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
        }


def instance_folder(jsonl: str) -> str:
    stem = os.path.splitext(os.path.basename(jsonl))[0]
    return os.path.join(os.path.dirname(jsonl), f"{stem}-instances")


class CampaignMismatch(ValueError):
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
) -> tuple[list[Instance], int, int]:
    """Generate (or reuse) instances 0..count-1; (instances, newly generated, proved unique)."""
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


# ------------------------------------------------------------------ executors


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
    """Generate ``count`` instances and cross-check them; returns (summary, verdicts).

    ``progress`` (optional) gets ``generated(done, count)`` calls while instances are made,
    then ``start(total runs)`` and ``advance(record)`` once per finished run.
    """
    from trisolve.backends import registry

    params = dict(params or {})
    folder = instance_folder(jsonl)
    names = list(backends) if backends else registry.variants(family)
    began = time.monotonic()
    on_instance = (lambda index: progress.generated(index + 1, count)) if progress is not None else None
    instances, fresh, unique = prepare_instances(family, count, seed, folder, params, on_instance)
    generate_seconds = time.monotonic() - began

    jobs = plan_jobs(instances, lambda _: names, timeout=timeout, limit=None, seed=seed)
    done = read_log(jsonl)  # skips a torn last line; Log cuts it before appending
    reused = sum(1 for job in jobs if job.key in done)
    if progress is not None:
        progress.start(len(jobs))
    on_record = (lambda record, was_reused: progress.advance(record)) if progress is not None else None
    log = Log(jsonl)
    levels = {i.path: i.level for i in instances}
    try:
        records = execute(
            jobs,
            levels,
            executor=executor,
            parallel=parallel,
            scheduler=scheduler,
            log=log,
            done=done,
            on_record=on_record,
        )
    finally:
        log.close()
    verdicts = judge_all(instances, records, use_expected=False)
    wall = time.monotonic() - began

    minimised = []
    if minimise_folder is not None and not INTERRUPT.is_set():  # after Ctrl-C: report, do not shrink
        minimised = minimise_failures(verdicts, instances, timeout, minimise_folder, minimise_budget)
    statuses: dict[str, int] = {}
    for verdict in verdicts:
        statuses[verdict.status] = statuses.get(verdict.status, 0) + 1
    summary = Summary(
        instances=len(instances),
        runs=len(jobs),
        reused=reused,
        generated=fresh,
        statuses=statuses,
        disagreements=statuses.get("DISAGREE", 0),
        invalid=statuses.get("INVALID", 0),
        errors=statuses.get("ERROR", 0),
        wall=wall,
        generate_seconds=generate_seconds,
        minimised=tuple(minimised),
        unique=unique,
    )
    return summary, verdicts


def minimise_failures(
    verdicts, instances: Sequence[Instance], timeout: float, folder: str, budget: float
) -> list[dict]:
    """Shrink each instance with a disagreement or an invalid solution (the cross-checker's minimiser)
    and write it beside a ``.repro.md`` with its findings and the command that reproduces them."""
    from trisolve.backends import registry
    from trisolve.crosscheck.minimize import minimise

    out = []
    by_path = {i.path: i for i in instances}
    for verdict in verdicts:
        if verdict.status not in ("DISAGREE", "INVALID"):  # a crash is reported, not chased
            continue
        instance = by_path[verdict.path]
        involved: list[str] = []
        for finding in verdict.findings:
            involved.extend(b for b in finding.backends if b not in involved)
        if len(involved) < 2:  # an invalid solution needs only its backend: add one for reference
            involved.extend([r.backend for r in verdict.records if r.backend not in involved][:1])
        result = minimise(instance.family, instance.level, involved, timeout=timeout, budget_seconds=budget)
        level_text = result.text if result is not None else instance.family.format_level(instance.level)
        files.make_folder(folder, "--minimize-dir folder")
        stem = os.path.splitext(os.path.basename(verdict.path))[0]
        target = os.path.join(folder, f"{stem}-min{instance.family.suffix}")
        files.write_text(target, level_text, what="minimised instance")
        parts = [
            "trisolve",
            "crosscheck",
            target,
            "--backends",
            ",".join(involved),
            "--no-expected",
            "--family",
            instance.family.name,
            "--timeout",
            f"{timeout:g}",
        ]
        for plugin in registry.plugin_files():
            parts.extend(["--plugin", plugin])
        command = " ".join(shlex.quote(p) for p in parts)
        repro = [f"# {stem}: {verdict.status}\n\n"]
        repro += [f"- {finding.kind}: {finding.message}\n" for finding in verdict.findings]
        repro.append(f"\nReproduce with:\n\n    {command}\n")
        files.write_text(os.path.splitext(target)[0] + ".repro.md", "".join(repro), what="reproduction note")
        out.append(
            {
                "instance": verdict.path,
                "status": verdict.status,
                "file": target,
                "steps": result.steps if result is not None else 0,
                "command": command,
            }
        )
    return out
