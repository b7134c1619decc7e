"""What every generator shares: the solution counter a family's generator is given, writing generated files.

A family's generator lives in its package (``models/<family>/generate.py``)
and imports no solver: it counts solutions with the ``counter`` it is
handed, made here with the backend the selection policy counts with.  The campaign then
cross-checks the final level on every backend.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from time import monotonic
from typing import Any

from trisolve.backends.base import Limits, Options
from trisolve.models import files
from trisolve.models.family import Generated, Request, SolutionCounter

#: Seconds one uniqueness check may take before the generator gives up on it.
COUNT_TIME = 30.0


@dataclass
class Watch:
    """Who hears of each attempt of the level being generated, and when generating must be over.

    Every generator makes its level by attempts that each count solutions (its ``counter``, which is
    ``count_solutions``): a clue added, a tile locked, a frame redrawn.  Each count is one attempt, reported as
    it ends, so a level that takes minutes shows it is alive and how far it got.  Past ``deadline``
    (``time.monotonic``) every count returns at once, incomplete: the generator ends with a level it could not
    prove unique.
    """

    on_attempt: Callable[[str], None] | None = None
    deadline: float | None = None
    attempts: int = 0

    def past_deadline(self) -> bool:
        return self.deadline is not None and monotonic() >= self.deadline


#: The watch of the level being generated in this process (``watched``); None: nobody listens, no deadline.
_WATCH: Watch | None = None


@contextmanager
def watched(on_attempt: Callable[[str], None] | None = None, deadline: float | None = None) -> Iterator[Watch]:
    """Generate under a ``Watch`` (the attempts reported to ``on_attempt``, every count stopped by ``deadline``)."""
    global _WATCH
    previous, _WATCH = _WATCH, Watch(on_attempt, deadline)
    try:
        yield _WATCH
    finally:
        _WATCH = previous


def count_solutions(family: str, level: Any, limit: int = 2, time: float = COUNT_TIME) -> tuple[int, bool, tuple]:
    """(count, complete, solutions) with at most ``limit`` solutions, in this process, by the backend the
    selection policy counts with for the family (its ``counting_backend``).

    A count of 1 that is complete proves uniqueness; an incomplete run (time
    limit) proves nothing and is reported as such.  Under ``watched`` the
    count is one attempt, reported, and stopped by the watch's deadline too.
    """
    from trisolve.models import FAMILIES
    from trisolve.runs import Job, raise_if_interrupted, run

    raise_if_interrupted()
    watch = _WATCH
    if watch is not None and watch.deadline is not None:
        time = max(0.0, min(time, watch.deadline - monotonic()))
    began = monotonic()
    kind = FAMILIES[family]
    job = Job(
        "<generated>", family, counting_backend(family), Limits(solutions=limit, time=time), Options(enumerate=True)
    )
    record = run(job, level, isolate=False)
    raise_if_interrupted()
    if watch is not None:
        watch.attempts += 1
        if watch.on_attempt is not None:
            found = f"{record.count}{'' if record.complete else '+'} solution{'' if record.count == 1 else 's'}"
            watch.on_attempt(
                f"attempt {watch.attempts}: {kind.describe(level)}: {found} "
                f"({monotonic() - began:.1f} s{', time limit' if watch.past_deadline() else ''})"
            )
    return record.count, record.complete, tuple(kind.solution_from_json(level, data) for data in record.solutions)


def counting_backend(family: str) -> str:
    """The backend a family's generator counts with: the selection policy's (``counting``)."""
    from trisolve.selection import choose

    return choose(family, "counting").first


def counter(family: str) -> SolutionCounter:
    """The ``counter`` a family's generator counts with (``count_solutions`` for that family)."""
    return functools.partial(count_solutions, family)


def instance_seed(base_seed: int, index: int) -> int:
    """The seed of instance ``index`` of a batch: distinct, and the same on every rerun."""
    return base_seed * 1_000_003 + index


def suffix(family: str) -> str:
    """The file suffix of a family's levels (``Family.suffix``)."""
    from trisolve.models import FAMILIES

    return FAMILIES[family].suffix if family in FAMILIES else ".txt"


def write_generated(generated: Generated, folder: str, stem: str) -> str:
    """Write ``<stem><ext>`` and ``<stem>.solution.json`` atomically; returns the level path.

    The sidecar ends in ``.json`` so instance-folder scans skip it.
    """
    files.make_folder(folder, "output folder")
    path = os.path.join(folder, stem + suffix(generated.family))
    sidecar = {
        "family": generated.family,
        "seed": generated.seed,
        "unique": generated.unique,
        **dict(generated.info),
        "solution": generated.solution.to_json(),
    }
    # both or neither, each whole: a kill or a full disk never leaves a level without its solution
    # ``updating``: the generator's own files, which a campaign reads back and rewrites when a kill tore them
    sidecar_text = files.dumps(sidecar, indent=1) + "\n"
    files.write_files(
        [
            files.Change.text(os.path.join(folder, stem + ".solution.json"), sidecar_text, "solution", updating=True),
            files.Change.text(path, generated.text, "generated level", updating=True),
        ]
    )
    return path


def generating_families() -> list[str]:
    """The families that have a generator (``Family.generate``)."""
    from trisolve.models import FAMILIES

    return [name for name, family in FAMILIES.items() if family.generate]


def generator(family: str) -> Callable[..., Generated]:
    """A family's generator, ``make(seed, unique=..., name=..., time=..., **sizes) -> Generated``, counting with
    the family's ``counter``."""
    from trisolve.models import FAMILIES

    if family not in generating_families():
        raise KeyError(f"no generator for {family!r}; known: {', '.join(generating_families())}")
    generate, counts = FAMILIES[family].generate, counter(family)

    def make(seed: int, unique: bool = False, name: str = "", time: float = 30.0, **sizes: Any) -> Generated:
        return generate(Request(seed, counts, unique, name, time), **sizes)

    return make
