"""``trisolve generate``: new levels of a family written to a folder, each with its intended solution."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.models.errors import UsageError, shorten
from trisolve.models.family import Family

from .levels import family_named


def sizes_of(family: Family, sizes: Mapping[str, Any] | None) -> dict[str, Any]:
    """A generator's size arguments, each checked against its ``Parameter`` (a size of another family is refused)."""
    own = {parameter.name: parameter for parameter in family.generator_parameters}
    given = {name: value for name, value in (sizes or {}).items() if value is not None}
    stray = [name for name in given if name not in own]
    if stray:
        raise UsageError(
            f"{', '.join(shorten(name) for name in stray)} does not apply to {family.name}; its sizes: "
            + (", ".join(own) or "none")
        )
    return {
        name: numbers.Range(own[name].kind, own[name].low, own[name].high, own[name].low_open).check(value, name)
        for name, value in given.items()
    }


def generating_family(name: str) -> Family:
    kind = family_named(name)
    if not kind.generate:
        from trisolve.generate import generating_families

        raise UsageError(f"the {name} family has no generator; families that do: {', '.join(generating_families())}")
    return kind


@dataclass(frozen=True)
class GeneratedLevel:
    """A level ``generate_levels`` wrote: its file (the intended solution beside it, ``<name>.solution.json``)."""

    path: str
    seed: int
    #: proved to have exactly one solution
    unique: bool
    #: uniqueness was asked for (or the family's levels always have it) but could not be proved
    unproved: bool
    info: Mapping[str, Any] = field(default_factory=dict)
    #: the time limit ended the work with this level: no further level was made
    stopped: bool = False

    def to_json(self) -> dict:
        return {"file": self.path, "seed": self.seed, "unique": self.unique, **dict(self.info)}


def generate_levels(
    family: str,
    folder: str | os.PathLike,
    *,
    count: int = 1,
    seed: int = 0,
    unique: bool = False,
    timeout: float | None = None,
    on_attempt: Callable[[str], None] | None = None,
    **sizes: Any,
) -> Iterable[GeneratedLevel]:
    """Write ``count`` generated levels of ``family`` to ``folder``, yielding each as it is written.

    Level i uses a seed derived from ``seed`` and i (same seed, same files);
    ``unique`` makes the solution unique (hexiom locks tiles and blocks
    cells, sigils redraws; logic puzzles always are).  ``sizes`` are the
    family's generator parameters (``Family.generator_parameters``: hexiom
    ``side``, ``fill``; sigils ``width``, ``height``; ...).  ``on_attempt`` hears
    each attempt of the level being made (a line of text: each counts solutions).
    ``timeout`` (seconds, from the call) ends the work: the level being made is
    finished at once without a uniqueness proof (``unproved``), and no further
    level is started (``GeneratedLevel.stopped`` on the last one says so).
    """
    from trisolve.generate import generator, instance_seed, watched, write_generated
    from trisolve.runs import raise_if_interrupted

    kind = generating_family(arguments.text(family, "family") or "")
    count = numbers.COUNT.check(count, "count")
    seed = numbers.SEED.check(seed, "seed")
    unique, folder = arguments.flag(unique, "unique"), arguments.path(folder, "folder") or ""
    timeout = numbers.TIMEOUT.check_optional(timeout, "timeout")
    on_attempt = arguments.callback(on_attempt, "on_attempt")
    params = sizes_of(kind, sizes)
    make = generator(kind.name)
    deadline = None if timeout is None else time.monotonic() + timeout
    for index in range(count):
        raise_if_interrupted()
        stem = f"{kind.name}-s{seed}-{index:04d}"
        with watched(on_attempt, deadline) as watch:
            try:
                made = make(instance_seed(seed, index), unique=unique, name=stem, **params)
            except ValueError as problem:  # a size the generator cannot make
                raise UsageError(str(problem)) from None
        path = write_generated(made, os.fspath(folder), stem)
        wanted = unique or kind.always_unique
        stopped = watch.past_deadline()
        yield GeneratedLevel(path, made.seed, made.unique, wanted and not made.unique, dict(made.info), stopped)
        if stopped:
            return
