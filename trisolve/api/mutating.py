"""``trisolve mutate``: break a backend's encodings on purpose and score how well the levels catch it."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.backends.spec import Spec
from trisolve.models.errors import UsageError, shorten
from trisolve.models.family import Family

from .generating import generating_family, sizes_of
from .levels import family_named, instance_files, load
from .running import new_request

if TYPE_CHECKING:
    from trisolve.crosscheck.mutate import Report as MutationReport
    from trisolve.runs import RunRecord


def mutate(
    family: str,
    backend: str,
    *,
    levels: str | os.PathLike | None = None,
    generate: int | None = None,
    sizes: Mapping[str, Any] | None = None,
    retry: int = 20,
    retry_budget: float = 300.0,
    timeout: float = 10.0,
    jobs: int | None = None,
    batch: int = 4,
    log: str | None = None,
    resume: bool = False,
    suite: str | None = None,
    out: str | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    seed: int = 0,
    references: str | Sequence[str] | None = None,
    only: Sequence[str] = (),
    mutants: Sequence[str] = (),
    on_record: Callable[[RunRecord, bool], None] | None = None,
) -> MutationReport:
    """Mutate ``family``'s encodings of ``backend`` (every variant, or the one named) and score how well the
    levels kill the mutants (docs/mutation.md): the shipped levels, those under ``levels``, or ``generate``
    generated ones, smallest first, ``batch`` at a time; survivors are re-tried on ``retry`` generated levels
    within ``retry_budget`` seconds.  ``suite`` writes a small killing set there; ``out`` holds the mutant
    files and generated levels (default: beside ``log``, else a temporary folder, removed at the end);
    ``mutants`` runs only those ids; ``references`` are the unmutated backends each mutant is judged against
    (default: the portfolio).  ``failed`` on the report is the exit-code rule.
    """
    new_request()
    import tempfile

    from trisolve.backends import registry
    from trisolve.crosscheck.mutate import default_references, run_mutate
    from trisolve.selection.names import backend_list, backend_name, backend_names

    kind = family_named(arguments.text(family, "family") or "")
    backend = arguments.text(backend, "backend") or ""
    levels, log, suite, out = (
        arguments.path(value, name)
        for name, value in (("levels", levels), ("log", log), ("suite", suite), ("out", out))
    )
    resume = arguments.flag(resume, "resume")
    executor, scheduler = arguments.text(executor, "executor"), arguments.text(scheduler, "scheduler")
    references = arguments.backends(references, "references")
    on_record = arguments.callback(on_record, "on_record")
    timeout = numbers.TIMEOUT.check(timeout, "timeout")
    jobs = numbers.JOBS.check_optional(jobs, "jobs")
    seed = numbers.SEED.check(seed, "seed")
    batch = numbers.COUNT.check(batch, "batch")
    retry = numbers.COUNT_OR_NONE.check(retry, "retry")
    retry_budget = numbers.BUDGET.check(retry_budget, "retry budget")
    generate = numbers.COUNT.check_optional(generate, "generate")
    if resume and not log:
        raise UsageError("resume needs a log file")
    if levels is not None and generate:
        raise UsageError("give levels or generate, not both")
    if scheduler and executor != "dask":
        raise UsageError("a scheduler needs the dask executor")
    name = Spec.parse(backend).backend
    if registry.role(name, "MUTANTS") is None:
        mutable = [n for n in registry.names() if registry.role(n, "MUTANTS")]
        plugin = name in registry.names() and name not in registry.shipped()
        hint = f"; your own backend takes part as a reference the mutants are judged against: --references {name}"
        raise UsageError(
            f"backend {shorten(name)}: mutants are made of {', '.join(mutable)} encodings" + (hint if plugin else "")
        )
    backend_names([backend], kind.name)
    backend_name(backend, kind.name)
    chosen = backend_list(references) or default_references(kind.name)
    for spec in chosen:
        backend_name(spec, kind.name)
    params = sizes_of(kind, sizes) if (generate or retry) else {}
    if scheduler:  # before any mutant, level or journal is written
        from trisolve.runs.executors import check_scheduler, needs_dask

        needs_dask()

        check_scheduler(scheduler)
    scratch = out is None and not log  # a temporary folder: removed at the end
    if out is None:
        out = (os.path.splitext(log)[0] + "-mutants") if log else tempfile.mkdtemp(prefix=f"mutate-{kind.name}-")

    def generated(how_many: int, folder: str, base_seed: int) -> list:
        from trisolve.generate.campaign import prepare_instances

        generating_family(kind.name)
        return prepare_instances(kind.name, how_many, base_seed, os.path.join(out, folder), params)[0]

    if generate:
        instances = generated(generate, "instances", seed)
    else:
        instances = _smallest_first(levels or os.path.join(_levels_root(), kind.name), kind)
    try:
        return run_mutate(
            kind,
            backend,
            instances,
            folder=out,
            timeout=timeout,
            parallel=jobs or os.cpu_count() or 1,
            jsonl=log,
            resume=resume,
            executor=executor,
            scheduler=scheduler,
            batch=batch,
            generate=(lambda: generated(retry, "retry-instances", seed + 1_000_003)) if retry else None,
            retry_budget=retry_budget,
            suite=suite,
            seed=seed,
            only=only,
            ids=mutants,
            references=chosen,
            on_record=on_record,
        )
    finally:
        if scratch:
            import shutil

            shutil.rmtree(out, ignore_errors=True)


def _levels_root() -> str:
    """The shipped levels' folder (``levels/`` beside the package's folders)."""
    from trisolve.backends import registry

    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(registry.__file__))), "levels")


def _smallest_first(path: str | os.PathLike, kind: Family) -> list:
    """The instances under ``path``, smallest file first (cheap kills come first)."""
    from trisolve.crosscheck.run import Instance

    files = sorted(instance_files([path]), key=lambda p: (os.path.getsize(p), p))
    return [Instance(p, kind, load(p, kind.name).model) for p in files]


#: Largest solution file read (a ``solve --all --json`` of thousands of tilings is a few MB).
