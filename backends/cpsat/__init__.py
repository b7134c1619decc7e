"""The cpsat backend: OR-Tools CP-SAT (see backends/registry.py for what this module must expose).

Mechanics live in ``engine.py``; each family has a translator module
``<family>.py`` that declares its variants (``CATALOG``).  Nothing here
imports OR-Tools: ``available()`` only asks whether it is installed.
"""

from __future__ import annotations

from typing import Any

#: ``--backend auto`` races it; ``bench`` and ``mutate`` take it by default
PORTFOLIO = True
#: ``trisolve export --format cpsat`` writes its model proto as text
EXPORTS = "cpsat"
#: ``trisolve mutate`` breaks its translators at their mutation hooks (backends/mutation.py)
MUTANTS = "hooks"


def available() -> str | None:
    """None when OR-Tools is installed, else how to install it (looked up, not imported: half a second)."""
    from ..base import install_hint

    return install_hint("ortools", "pip install ortools")


def make(family: str, variant: str, translator: Any):
    """A CpsatBackend for ``family`` using ``backends/cpsat/<family>.py``."""
    from .engine import CpsatBackend

    return CpsatBackend(family, variant, translator)


def preload(family: str) -> None:
    """Import OR-Tools (about half a second; ``registry.preload`` then imports the family's translator)."""
    from . import engine

    engine.cp_model()
