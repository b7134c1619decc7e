"""The numbers a user gives trisolve, checked once for the library and the command line alike.

A time limit, a seed, a solution limit, a number of parallel runs: each has
one ``Range`` here.  The library (``trisolve.api``) checks its arguments
with ``Range.check``; the command line's option types (``trisolve.cli.common``)
are the same ranges, so ``solve(timeout=nan)`` and ``solve --timeout nan``
are refused alike, with a ``UsageError`` naming the number, before anything
runs.  A number no solver takes never reaches one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..models.errors import UsageError, shorten

#: Largest solution limit and seed every backend takes: clingo's model count and seed and
#: CP-SAT's random_seed are 32-bit signed integers.
MAX_INT32 = 2**31 - 1
#: Longest time limit accepted (about 11.6 days): finite, and far inside every solver's range.
MAX_TIMEOUT = 1_000_000.0
#: More runs at a time than this only thrashes the machine.
MAX_JOBS = 256
#: Most instances, rounds or retries one command makes.
MAX_COUNT = 1_000_000
#: Largest memory budget (1 PiB): a typo, not a machine.
MAX_MEMORY = 2**50
#: Most generated levels per size ``bench --portfolio`` measures (every backend runs on each, at every size).
MAX_PORTFOLIO_SEEDS = 100


@dataclass(frozen=True)
class Range:
    """Whole (``int``) or finite real (``float``) numbers from ``low`` to ``high``."""

    kind: type
    low: float
    high: float
    #: ``low`` itself is not allowed (a time limit of 0 s)
    low_open: bool = False

    def check(self, value: object, name: str) -> int | float:
        """``value`` when it is in range, else a ``UsageError`` naming ``name`` (the option or argument).

        Python's whole numbers have no size limit: one with 400 digits is compared as it is (never turned into
        a float, which would overflow) and refused as out of range."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise UsageError(f"{name} must be a number, not {shorten(repr(value))}")
        if self.kind is int and not isinstance(value, int):
            if not (math.isfinite(value) and value == int(value)):
                raise UsageError(f"{name} must be a whole number, not {shorten(value)}")
            value = int(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise UsageError(f"{name} must be a finite number, not {value}")
        below = value <= self.low if self.low_open else value < self.low
        if below or value > self.high:
            raise UsageError(f"{name} {shown(value)} is out of range: {self.describe()}")
        return self.kind(value)

    def check_optional(self, value: object, name: str) -> int | float | None:
        """Like ``check``, with None (no limit) let through."""
        return None if value is None else self.check(value, name)

    def describe(self) -> str:
        low = f"{self.low:g}" if self.kind is float else f"{int(self.low)}"
        high = f"{self.high:g}" if self.kind is float else f"{int(self.high)}"
        return f"{low} {'<' if self.low_open else '<='} x <= {high}"


def shown(value: int | float) -> str:
    """A number for a message: a whole number longer than 18 digits by its size (``str`` of one with 5,000
    digits raises, and nobody reads them)."""
    if isinstance(value, int) and abs(value) >= 10**18:
        digits = int(abs(value).bit_length() * math.log10(2)) + 1
        return f"{'-' if value < 0 else ''}(a whole number of about {digits} digits)"
    return shorten(value)


#: a time limit in seconds
TIMEOUT = Range(float, 0.0, MAX_TIMEOUT, low_open=True)
#: seconds a search may go on (0: none)
BUDGET = Range(float, 0.0, MAX_TIMEOUT)
SEED = Range(int, 0, MAX_INT32)
#: stop after this many solutions
SOLUTION_LIMIT = Range(int, 1, MAX_INT32)
#: runs at a time
JOBS = Range(int, 1, MAX_JOBS)
#: instances, rounds or items to make or take (at least one)
COUNT = Range(int, 1, MAX_COUNT)
#: the same, where none is allowed
COUNT_OR_NONE = Range(int, 0, MAX_COUNT)
#: a position in a list, from 1
INDEX = Range(int, 1, MAX_INT32)
#: bytes
MEMORY = Range(int, 1, MAX_MEMORY)
#: generated levels per size of ``bench --portfolio``
PORTFOLIO_SEEDS = Range(int, 1, MAX_PORTFOLIO_SEEDS)


def memory_size(text: str, name: str = "--memory") -> int:
    """Bytes from "12G", "800M", "64K" or a plain number of bytes; refused when not a size in ``MEMORY``."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    spec = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = units.get(spec[-1:], 1)
    try:
        number = float(spec[:-1] if spec[-1:] in units else spec)
    except ValueError:
        raise UsageError(f"{name} {shorten(repr(text))}: expected a size such as 12G, 800M or 1000000") from None
    if not math.isfinite(number) or number <= 0 or number * scale > MAX_MEMORY:
        raise UsageError(f"{name} {shorten(repr(text))}: expected a positive size up to 1P")
    return MEMORY.check(max(1, int(number * scale)), name)


def seeds(seed: int, rounds: int, name: str = "seed") -> int:
    """A first seed whose ``rounds`` successive seeds all stay in range (bench's round r uses seed + r)."""
    SEED.check(seed, name)
    if seed + rounds - 1 > MAX_INT32:
        raise UsageError(
            f"{name} {seed} with {rounds} rounds: round seeds run up to {seed + rounds - 1}, "
            f"over the largest seed, {MAX_INT32}"
        )
    return seed
