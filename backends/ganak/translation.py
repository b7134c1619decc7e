"""What a Ganak translator is: the pysat translator's CNF of the same family, counted projected on its
puzzle variables (the ``CnfEncoding.projection``).

Ganak counts what the CNF says, so a count here checks the pysat
translation by a method other than enumeration (a different tool, no
blocking clauses), not an independent translation.  Each family file
(``backends/ganak/<family>.py``) declares only the pysat encodings worth
counting (figures: docs/bench/ganak.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import Options
from ..catalog import Catalog
from ..pysat import cnf_translator


def pysat_cnf(family: str, catalog: Catalog) -> Callable[[Any, str, Options], Any]:
    """The ``encode`` of the Ganak translator of ``family``, whose file declares ``catalog`` (the registry
    reads it from there without importing); pysat is imported only when ``encode`` runs."""

    def encode(level: Any, variant: str, options: Options) -> Any:
        """The pysat translator's ``CnfEncoding`` of the level under encoding ``variant``."""
        cnf = cnf_translator(family)
        catalog.require(variant, "ganak", family)
        return cnf.encode(level, variant, options)

    return encode
