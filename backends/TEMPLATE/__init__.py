"""The TEMPLATE backend: copy this folder to start a backend (see docs/adding-a-backend.md).

[GUIDELINE] Copy ``backends/TEMPLATE/`` to ``backends/<name>/`` (a lower-case
name: the registry finds a backend by its folder, and skips this one because
its name is upper case), replace TEMPLATE by the name everywhere, fill in
the pieces marked [GUIDELINE] and delete those comments.  Then add
``"trisolve.backends.<name>"`` to pyproject.toml's ``packages`` (and the
solver library to its dependencies).  Nothing else in trisolve lists
backends: ``trisolve backends``, ``crosscheck``, ``bench``, ``export`` and the
contract tests (``tests/test_contract.py``) find yours from this folder.

This module is the backend's declaration.  It must never import the solver
library: ``trisolve backends`` and ``--help`` import it to read what it says.

<one paragraph on the solver: what paradigm, what it is good at, its URL>
"""

from __future__ import annotations

from typing import Any

# [GUIDELINE] What the backend is for.  Leave out a line to keep its default (shown).
#: ``--backend auto`` races it for a first solution; ``bench`` and ``mutate`` take it by default (False)
PORTFOLIO = False
#: left out of runs that do not name it, because it needs something outside Python, like a binary (False)
OPTIONAL = False
#: run only when named, though it needs nothing outside Python: crosscheck, campaign and a counting bench leave it
#: out (it is slow or stops on many instances); ``bench --portfolio`` still measures it (True)
BY_DEFAULT = True
#: the tasks ``bench --portfolio`` measures it for, and so the only ones a default can give it (("first", "count"))
TASKS = ("first", "count")
#: the format ``trisolve export --format F`` writes from it, or None (None)
EXPORTS = None
#: how ``trisolve mutate`` breaks its translators: "hooks" (they call backends/mutation.py), or None (None)
MUTANTS = None
#: the smallest ``--memory`` (bytes) it runs under, when it keeps ``Options.memory`` as a budget and stops as
#: incomplete ("memory budget") rather than pass it; None: it keeps none, and ``solve --memory`` is refused (None)
MIN_MEMORY = None


def available() -> str | None:
    """None when the solver is installed here, else how to install it.  Never raises.

    [GUIDELINE] ``load=True`` imports the library (a broken install shows here, not mid-run): only when that
    is cheap; else it is only looked up.
    """
    from ..base import install_hint

    return install_hint("TEMPLATEpy", "pip install TEMPLATEpy")


def make(family: str, variant: str, translator: Any):
    """A ready ``TEMPLATE:<variant>`` backend for ``family`` (the engine imports the solver)."""
    from .engine import TemplateBackend

    return TemplateBackend(family, variant, translator)


def preload(family: str) -> None:
    """Import the solver library now, before runs are forked (``registry.preload`` then imports the family's
    translator).

    [GUIDELINE] Optional: leave it out when importing the library is cheap.
    """
    from . import engine

    engine.solver_library()
