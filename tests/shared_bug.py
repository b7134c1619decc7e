"""A user's logic plugin whose two variants share one bug: ``somewhere_left_of`` read as immediately left.

The two variants agree with each other everywhere, so a minimised instance checked on them alone shows
nothing: the minimiser must bring a backend that disagrees with them (tests/test_minimise.py).
Loaded with ``--plugin tests/shared_bug.py``: it registers the backend ``shared``.
"""

from __future__ import annotations

import dataclasses
import types


def encode(level, variant: str, options):
    """The shipped logic CNF, on a copy of the puzzle whose ``somewhere_left_of`` clues read ``left_of``."""
    from trisolve.backends.pysat import logic as shipped

    clues = tuple(
        dataclasses.replace(clue, kind="left_of") if clue.kind == "somewhere_left_of" else clue for clue in level.clues
    )
    return shipped.encode(dataclasses.replace(level, clues=clues), shipped.CATALOG.default, options)


def backend() -> types.SimpleNamespace:
    from trisolve.backends import pysat
    from trisolve.backends.catalog import Catalog

    catalog = Catalog(default="first", variants={"first": "the bug", "second": "the same bug, written again"})
    return pysat.backend("shared", {"logic": types.SimpleNamespace(CATALOG=catalog, encode=encode)})


if __name__ == "trisolve_plugin":  # loaded with --plugin
    from trisolve.backends import registry

    registry.register("shared", backend())
