"""The dimacs backend: pysat's CNF translators, solved by an external SAT solver binary.

``--sat-command kissat`` (or cadical, picosat: any solver that prints
SAT-competition output) names the binary; ``engine.py`` writes the CNF,
runs it under the time limit and reads its answer.  The CNF is the pysat
translator's own, so each ``<family>.py`` here declares only the catalog of
what the cross-checker runs.  It needs a binary, so it is ``OPTIONAL``:
run only when named.  Nothing here imports pysat.
"""

from __future__ import annotations

from typing import Any

#: left out of runs that do not name it: it needs a SAT solver binary (--sat-command)
OPTIONAL = True
#: ``trisolve export --format dimacs`` can write its CNF (pysat's)
EXPORTS = "dimacs"


def available() -> str | None:
    """Usable when pysat is (it writes the CNF); the binary is checked when a run names it."""
    from .. import pysat

    return pysat.available()


def make(family: str, variant: str, translator: Any):
    """A DimacsBackend for ``family`` solving pysat's ``variant`` CNF with ``options.sat_command``."""
    from .engine import DimacsBackend

    return DimacsBackend(family, variant, translator)
