"""The clingo backend (see backends/registry.py for what this module must expose).

Nothing here imports clingo: ``make`` loads ``engine`` (and the family's
translator) only when a backend is actually wanted.  A family plugs in by
adding ``backends/clingo/<family>.py`` (CATALOG, rules, encode) and its
``encodings/<family>*.lp`` files, or by declaring rules of its own on its
record (``Family.asp``), which the generic translator ``hand.py`` runs as the
variant ``hand``.
"""

from __future__ import annotations

from typing import Any

#: ``--backend auto`` races it; ``bench`` and ``mutate`` take it by default
PORTFOLIO = True
#: ``trisolve export --format asp`` writes its facts (run with the shipped .lp rules)
EXPORTS = "asp"
#: ``trisolve mutate`` rewrites the .lp rules files its variants load (lp_mutants.py)
MUTANTS = "rules"


def available() -> str | None:
    """None when clingo can be imported (cheap: a broken install shows here, not mid-run), else how to install it."""
    from ..base import install_hint

    return install_hint("clingo", "pip install clingo", load=True)


def make(family: str, variant: str, translator: Any):
    """A ready ``clingo:<variant>`` backend for a family (imports clingo)."""
    from . import engine

    return engine.ClingoBackend(family, variant, translator)


def preload(family: str) -> None:
    """Import clingo (``registry.preload`` then imports the family's translator)."""
    from . import engine  # noqa: F401
