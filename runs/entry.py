"""``run``: where every run starts, whoever asks (the API, the executors, the benchmark, the generators).

One call decides where a run happens — a forked child with a hard kill
behind its limit (``isolated.py``), or this process (``child.run_here``) —
and makes the run's ``Deadline`` once, from the moment the caller gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from trisolve.backends.base import Status

from . import processes
from .child import run_here
from .isolated import run_isolated
from .jobs import Job, RunRecord, record_of


def run(
    job: Job,
    level: Any = None,
    *,
    isolate: bool = True,
    started: float | None = None,
    grace: float | None = None,
    on_solution: Callable[[Any], None] | None = None,
    on_progress: Callable[[int, int | None, str], None] | None = None,
    stop: Callable[[], bool] | None = None,
    load: Callable[[], Any] | None = None,
    on_level: Callable[[Any, float], None] | None = None,
    plugins: Iterable[str] = (),
) -> RunRecord:
    """Run ``job`` on ``level``; its time limit counts from ``started`` (a ``time.monotonic()`` value; default:
    now).  After Ctrl-C (``processes.INTERRUPT``) no run starts: the record says ``interrupted``.

    With ``isolate`` (the default) the run is a forked child, killed ``grace`` seconds after its deadline
    (``isolated.run_isolated``: ``stop``, ``load``, ``on_level``, ``plugins`` and ``on_progress`` are its);
    without it the run happens here (no kill; the backend's exceptions propagate).  ``on_solution`` hears each
    solution's JSON as it is found, either way.
    """
    deadline = job.deadline(started)
    if processes.INTERRUPT.is_set():
        return record_of(
            job,
            status=Status.UNKNOWN.value,
            count=0,
            complete=False,
            wall=deadline.elapsed(),
            stopped_by="interrupted",
        )
    if not isolate:
        return run_here(job, level, deadline, on_solution)
    return run_isolated(
        job,
        level,
        deadline,
        grace=grace,
        on_solution=on_solution,
        stop=stop,
        load=load,
        on_level=on_level,
        plugins=plugins,
        on_progress=on_progress,
    )
