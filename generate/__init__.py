"""Instance generators: levels that are solvable by construction, optionally unique.

One module per family (``hexiom``, ``logic``, ``sigils``) with a
``generate(seed, ...) -> Generated`` function, and ``campaign`` which
generates and cross-checks many instances, resumably.
"""

from __future__ import annotations

from .common import (
    Generated,
    count_solutions,
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
    "generating_families",
    "generator",
    "instance_seed",
    "suffix",
    "watched",
    "write_generated",
]
