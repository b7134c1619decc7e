"""Generating instances: each family's generator (``models/<family>/generate.py``) run with a solution
counter, the files written, and ``campaign``, which generates and cross-checks many instances, resumably.
"""

from __future__ import annotations

from .common import (
    Generated,
    count_solutions,
    counter,
    generating_families,
    generator,
    instance_seed,
    suffix,
    watched,
    write_generated,
)

__all__ = [
    "Generated",
    "count_solutions",
    "counter",
    "generating_families",
    "generator",
    "instance_seed",
    "suffix",
    "watched",
    "write_generated",
]
