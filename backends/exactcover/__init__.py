"""The exactcover backend: puzzles as exact cover with colours, solved by Knuth's Algorithm C.

Exact cover is the paradigm made for tilings (TAOCP 7.2.2.1): items to
cover exactly once, options that each cover some of them.  The solver is
``xcover`` (https://github.com/johnrudge/xcover, numba): its kernel is
compiled once per machine and kept in numba's cache (``engine.kernel`` says
so on stderr the first time).  Translators: sigils and logic grids (a
Hexiom board is counted neighbours, not a cover: no translator).  Nothing
here imports xcover or numba: ``make`` loads ``engine`` (and the family's
translator) only when a backend is actually wanted.
"""

from __future__ import annotations

from typing import Any

# Not PORTFOLIO: it translates two families of three, so ``--backend auto``'s fallback race (families the measured
# table does not know) leaves it out; where it is the best, the table (selection/portfolio.json) says so.
#: ``trisolve export --format xc`` writes its rows (Knuth's exact-cover format)
EXPORTS = "xc"
#: ``trisolve mutate`` breaks its translators at their mutation hooks (backends/mutation.py)
MUTANTS = "hooks"
#: ``--memory`` is a budget for the problem it builds (any size: a problem over it is not built)
MIN_MEMORY = 1


def available() -> str | None:
    """None when xcover is installed, else how to install it.

    Looked up, not imported: importing xcover loads numba and its compiled kernels, which a machine's first
    use compiles (about a minute, ``engine.kernel``): listing backends must not pay that."""
    from ..base import install_hint

    return install_hint("xcover", "pip install xcover")


def make(family: str, variant: str, translator: Any):
    """A ready ``exactcover:<variant>`` backend for a family (imports xcover when it runs)."""
    from .engine import ExactCoverBackend

    return ExactCoverBackend(family, variant, translator)


def preload(family: str) -> None:
    """Load the compiled kernel now (``registry.preload`` then imports the family's translator)."""
    from . import engine

    engine.kernel()
