"""``trisolve explain``: why a level's answer is what it is."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.models import FAMILIES
from trisolve.models.errors import UsageError, shorten

from .levels import Level, load, named
from .pictures import MAX_SOLUTION_BYTES


def explain(
    level: Level | str | os.PathLike,
    *,
    hint: bool = False,
    partial: str | os.PathLike | None = None,
    timeout: float | None = None,
    check: str | None = "cpsat",
    all_mus: int = 1,
    on_progress: Callable[[str], None] | None = None,
) -> Any:
    """Why the level's answer is what it is: a step-wise explanation of its unique solution (``hint``: only
    the next step, from the facts of the ``partial`` file), the backbone and extra givens when it has
    several, its minimal causes when it has none (up to ``all_mus`` of them).  Each claim is confirmed by
    the ``check`` paradigm ("cpsat" or "clingo"; None: unchecked).  An ``Explanation``
    (``trisolve.explaining.explain``); ``partial`` is then True when ``timeout`` cut it short."""
    from trisolve.explaining.check import CHECKERS
    from trisolve.explaining.explain import explain as run
    from trisolve.explaining.explain import known_facts
    from trisolve.models import files

    if not isinstance(level, Level):
        level = load(named(level))
    timeout = numbers.TIMEOUT.check(timeout, "timeout") if timeout is not None else None
    all_mus = numbers.COUNT.check(all_mus, "all_mus")
    if check is not None and check not in CHECKERS:
        raise UsageError(f"check must be one of {', '.join(CHECKERS)} (or None), not {shorten(check)!r}")
    if partial is not None and not hint:
        raise UsageError("a partly filled board (partial) goes with hint")
    if level.kind.constraints is None:
        with_models = ", ".join(name for name, family in FAMILIES.items() if family.constraints is not None)
        raise UsageError(f"{level.family} has no constraint model to explain with (families that have: {with_models})")
    model = level.kind.constraints(level.model)
    known: tuple[int, ...] = ()
    if partial is not None:
        path = os.fspath(arguments.path(partial, "partial") or "")
        data = files.parse_json(files.read_text(path, what="partial board", limit=MAX_SOLUTION_BYTES), path)
        known = known_facts(data, model.freeze(), path)
    return run(
        model,
        hint=hint,
        known=known,
        timeout=timeout,
        check=check,
        all_mus=all_mus,
        on_progress=on_progress,
        level=level,
    )
