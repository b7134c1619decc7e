"""The dp backend: exact solution counts by dynamic programming, no solver at all.

A fourth, solver-free opinion for the cross-checker, and the only exact
reference where a level has too many solutions to list.  Enumeration runs
are count-only (``solutions=()``, so the cross-checker compares them by
count); first-solution runs rebuild one board.  What each family's counter
can do (symmetry classes, say) is declared in its ``CATALOG``,
``backends/dp/<family>.py``.  Python and numpy (a dependency): always
available; nothing here imports a counter.
"""

from __future__ import annotations

from typing import Any

# Not PORTFOLIO: it counts well but rebuilds a first solution slowly (docs/bench/timing-notes.md,
# "dp and the portfolio"), so ``--backend auto`` does not race it.
#: ``--memory`` is the budget of a count's layers (any size: a count that would pass it stops)
MIN_MEMORY = 1


def available() -> str | None:
    """Always usable: the programs need only Python and numpy."""
    return None


def make(family: str, variant: str, translator: Any):
    """The dp backend for ``family``: its counter's ``make`` (``backends/dp/<family>.py`` or
    ``backends/dp/<family>/``, which the registry hands in as the translator)."""
    return translator.make(variant)
