"""Exact-cover mechanics shared by every family: Algorithm C (xcover), listing, limits, export.

A family's translator (``backends/exactcover/<family>.py``) turns a level into
an ``ExactCover``: primary items (covered exactly once), secondary items
(at most once, or by several options that agree on its colour) and the
options, each a list of items.  Everything after that -- running Knuth's
Algorithm C, turning covers into solutions, the time and solution limits,
statistics, luck and export -- lives here.

The solver is ``xcover.algorithm_c``, Knuth's Algorithm C with dancing
cells, compiled by numba.  It is a generator: it hands over one cover at a
time, and between covers this engine checks the clock.  A search that finds
no cover for a long time cannot be stopped from inside (numba code never
returns to Python meanwhile); there the runner's process kill stands behind
the limit, and every solution streamed before it is kept.

xcover's other solver, ``covers_zdd`` / ``algorithm_z``, is never used: with
``use_memo_cache=True`` it miscounts (9,357 tilings of the 6x10 pentomino
rectangle instead of 9,356; docs/solver-bug.md), and
tests/test_exactcover.py fails if this package ever names it.
"""

from __future__ import annotations

import glob
import os
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...models.comments import comment_text
from ...models.errors import UsageError
from .. import base, numba_cache
from ..base import (
    Limits,
    Options,
    Result,
    SolutionSink,
    Stopwatch,
    default_memory,
    finish,
    luck_stats,
    shuffle_seed,
    shuffler,
)

Cover = Sequence[int]


@dataclass(frozen=True)
class ExactCover:
    """A level as exact cover with colours, in Knuth's terms, and the way back to solutions.

    ``options[i]`` lists the items option i covers; a secondary item may carry
    a colour as ``item:colour`` (options that agree on the colour may share
    it).  ``solutions_of`` turns one cover (option indices) into the
    solutions it stands for: usually one; none when the cover is not the one
    kept for its symmetry class; several when the translator searched one
    representative per class and expands it.  ``notes`` are comment lines
    for the exported file (what the items mean, in the puzzle's words).
    """

    primary: tuple[str, ...]
    secondary: tuple[str, ...]
    options: tuple[tuple[str, ...], ...]
    solutions_of: Callable[[Cover], Sequence[Any]]
    notes: tuple[str, ...] = ()

    def uncoverable(self) -> list[str]:
        """Primary items no option covers: the problem has no cover (e.g. an obstructed level)."""
        covered = {item.partition(":")[0] for option in self.options for item in option}
        return [item for item in self.primary if item not in covered]

    def arrays(self) -> tuple[Any, Any, Any, int, int]:
        """xcover's sparse form: item numbers (primary first), option bounds, colour numbers.

        The first option also covers a secondary item of its own, which no other option names, so it
        changes no cover: xcover chooses an item only when it has fewer options than the problem has
        entries, and a problem whose entries all name one item (one free choice) looked covered before
        any choice was made (it yielded an empty cover, then failed)."""
        import numpy as np

        number = {item: i for i, item in enumerate(self.primary + self.secondary)}
        padding = len(number)
        colours: dict[str, int] = {}
        items, colour_of, bounds = [], [], [0]
        for index, option in enumerate(self.options):
            for entry in option:
                item, _, colour = entry.partition(":")
                items.append(number[item])
                colour_of.append(colours.setdefault(colour, len(colours) + 1) if colour else 0)
            if index == 0:
                items.append(padding)
                colour_of.append(0)
            bounds.append(len(items))
        return (
            np.array(items, dtype=np.uint32),
            np.array(bounds, dtype=np.uint32),
            np.array(colour_of, dtype=np.uint32),
            len(number) + 1,
            len(self.secondary) + 1,
        )


# ------------------------------------------------------------------ sizes

#: Most option entries (one item of one option) a problem is built with: past it a run stops before building
#: anything (``stopped_by: "size limit"``) and an export is refused.  At ``BYTES_PER_ENTRY``, about 1.2 GB.
MAX_ENTRIES = 10_000_000
#: Bytes one option entry costs at the peak of a run: the options as Python tuples of item names, the numbered
#: arrays handed to xcover and xcover's own working arrays (measured: 97 on frames of 0.26 to 6.5 million
#: entries; scripts/exactcover_sizes.py), with a margin.
BYTES_PER_ENTRY = 120
#: The budget a problem must fit in unless ``--memory`` says otherwise: half the machine's memory, at most 4 GiB.
DEFAULT_MEMORY = default_memory(4 << 30)


class TooLarge(UsageError):
    """A problem too large to build: over ``MAX_ENTRIES``, or over the memory budget.  ``reason`` is what a run's
    ``stopped_by`` says ("size limit", "memory budget"); the message says how large and what to do instead."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def check_size(entries: int, memory: int | None = None) -> None:
    """Refuse (``TooLarge``) a problem of ``entries`` option entries before it is built: past ``MAX_ENTRIES``,
    or past the memory budget ``memory`` (bytes; None: ``DEFAULT_MEMORY``) at ``BYTES_PER_ENTRY``."""
    need = entries * BYTES_PER_ENTRY
    if entries > MAX_ENTRIES:
        raise TooLarge(
            "size limit",
            f"the exact-cover problem would hold {entries:,} option entries (about {_size(need)}), more than the "
            f"{MAX_ENTRIES:,} exactcover builds; --backend dp counts such frames without a solver",
        )
    budget = DEFAULT_MEMORY if memory is None else memory
    if need > budget:
        raise TooLarge(
            "memory budget",
            f"the exact-cover problem would hold {entries:,} option entries, about {_size(need)}, over the memory "
            f"budget of {_size(budget)} (--memory)",
        )


def _size(count: int) -> str:
    return f"{count / (1 << 30):.1f} GB" if count >= 1 << 30 else f"{max(1, round(count / (1 << 20)))} MB"


# ------------------------------------------------------------------ the kernel

_KERNEL: Callable[..., Any] | None = None


def _cached_kernel_exists() -> bool:
    """Whether numba has Algorithm C compiled on this machine already (a guess, for the notice only)."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("xcover")
        folders = list(spec.submodule_search_locations or []) if spec else []
    except (ImportError, ValueError):
        return False
    # numba looks in NUMBA_CACHE_DIR alone when it is set; else beside the package, then in the user's cache
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    patterns = [] if chosen else [os.path.join(f, "__pycache__", "dancing_cells.algorithm_c-*.nbi") for f in folders]
    for root in [chosen] if chosen else [os.path.join(os.path.expanduser("~"), ".cache", "numba")]:
        patterns.append(os.path.join(root, "**", "dancing_cells.algorithm_c-*.nbi"))
    return any(glob.glob(pattern, recursive=True) for pattern in patterns)


def kernel() -> Callable[..., Any]:
    """xcover's compiled Algorithm C, loaded once per process and compiled once per machine.

    xcover declares its kernels with numba's ``cache=True``: the first
    process on a machine compiles them (about a minute) and numba keeps the
    machine code beside the package (or in its user cache when that folder
    is read-only); every later process loads it in about a second.  The
    first compile is announced on stderr, so a slow first run is explained.
    """
    global _KERNEL
    if _KERNEL is None:
        announced = not _cached_kernel_exists()
        if announced:
            print(
                "exactcover: compiling xcover's Algorithm C with numba (first use on this machine, "
                "about a minute; later runs load it from numba's cache)",
                file=sys.stderr,
                flush=True,
            )
        began = time.perf_counter()
        numba_cache.guard()  # a damaged cache entry is compiled again, not raised (backends/numba_cache.py)
        with warnings.catch_warnings():
            # importing xcover compiles its ZDD kernel too (never used here), which warns about a cast
            warnings.filterwarnings("ignore", message="unsafe cast")
            from xcover import algorithm_c

        stats = getattr(algorithm_c, "stats", None)
        if stats is not None and stats.cache_misses:
            print(
                f"exactcover: compiled in {time.perf_counter() - began:.0f} s, cached in {stats.cache_path}",
                file=sys.stderr,
                flush=True,
            )
        _KERNEL = algorithm_c
    return _KERNEL


def kernel_cache_hits() -> int:
    """How many signatures of Algorithm C this process loaded from numba's cache (0: it compiled them)."""
    stats = getattr(kernel(), "stats", None)
    return sum(stats.cache_hits.values()) if stats is not None else 0


# ------------------------------------------------------------------ the backend


class ExactCoverBackend(base.Engine):
    """One (family, translation) configuration, e.g. ``exactcover:quadrant`` on sigils."""

    BACKEND = "exactcover"

    def encode(self, level: Any, options: Options) -> ExactCover:
        return self.translator.encode(level, self.variant, options)

    def solve(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        """First solution, or every one: covers from Algorithm C, each turned into its solutions."""
        started = time.monotonic()
        deadline = limits.deadline(started)
        watch = Stopwatch()

        watch.start("translate")
        seed = shuffle_seed(options, seeded_solver=False)
        try:
            problem = self.encode(level, options)
        except TooLarge as refused:  # nothing was built
            watch.stop("translate")
            stats = {"solver": "xcover Algorithm C", "refused": str(refused), **luck_stats(options, seed, "")}
            return finish(
                self.name, self.family, [], exhausted=False, stats=stats, times=watch.times, stopped_by=refused.reason
            )
        if seed is not None:
            problem = shuffled(problem, seed)
        watch.stop("translate")

        wanted = limits.solutions
        if not options.enumerate:
            wanted = 1 if wanted is None else min(wanted, 1)
        solutions: list[Any] = []
        seen: set[Any] = set()
        duplicates = 0
        covers = 0
        exhausted = False
        stopped_by: str | None = None
        stats: dict[str, Any] = {
            "solver": "xcover Algorithm C",
            "primary_items": len(problem.primary),
            "secondary_items": len(problem.secondary),
            "options": len(problem.options),
            **luck_stats(options, seed, "options and items reordered"),
        }

        if problem.uncoverable():
            exhausted = True  # a primary item no option covers: no cover at all, proved without a search
        elif wanted is not None and wanted <= 0:
            stopped_by = "solution limit"
        elif deadline is not None and time.monotonic() >= deadline:
            stopped_by = "time limit"
        else:
            watch.start("load")
            algorithm_c = kernel()
            arrays = problem.arrays()
            watch.stop("load")
            watch.start("solve")
            search = algorithm_c(*arrays)
            try:
                for cover in search:
                    covers += 1
                    for solution in problem.solutions_of(cover):
                        if solution in seen:
                            duplicates += 1  # a translation slip (a finding), never counted
                            continue
                        seen.add(solution)
                        if wanted is None or len(solutions) < wanted:
                            solutions.append(solution)
                            if on_solution is not None:
                                on_solution(solution)
                    if wanted is not None and len(seen) >= wanted:
                        if options.enumerate:
                            stopped_by = "solution limit"
                        break
                    if deadline is not None and time.monotonic() >= deadline:
                        stopped_by = "time limit"
                        break
                else:
                    exhausted = True
            finally:
                del search  # numba's generators have no close(): dropping it frees the search
                watch.stop("solve")
        stats["covers"] = covers
        return finish(
            self.name,
            self.family,
            solutions,
            exhausted=exhausted,
            stats=stats,
            times=watch.times,
            duplicates=duplicates,
            stopped_by=stopped_by,
        )

    def export(self, level: Any, options: Options) -> str:
        """The translation as a plain exact-cover file (Knuth's format, see ``to_text``)."""
        exported = getattr(self.translator, "export_problem", None)
        name = getattr(level, "name", "") or "level"
        try:
            problem = exported(level, self.variant, options) if exported else self.encode(level, options)
        except TooLarge as refused:
            raise UsageError(f"cannot export as exact cover: {refused}") from None
        if not problem.options:
            # Knuth's programs and xcover's reader need at least one option; none means no cover at all
            why = "".join(
                f": {n.removeprefix('no solution: ')}" for n in problem.notes if n.startswith("no solution: ")
            )
            raise UsageError(
                "cannot export as exact cover: no option at all (nothing fits), and exact-cover readers need one; "
                f"the level has no solution{why}"
            )
        header = f"trisolve {self.family} {name} {self.name}"
        if exported:
            header += ": the rows whose covers are the solutions one to one"
        return to_text(problem, [header])


# ------------------------------------------------------------------ luck


def shuffled(problem: ExactCover, seed: int) -> ExactCover:
    """The same problem with options and primary items reordered (Algorithm C's ties follow that order).

    Which item is branched on among those with the fewest options, and in
    which order its options are tried, follow the input order: that is the
    luck of an exact-cover search.  The covers are the same sets of options,
    renumbered back before ``solutions_of``.
    """
    rng = shuffler(seed)
    order = list(range(len(problem.options)))
    rng.shuffle(order)
    primary = list(problem.primary)
    rng.shuffle(primary)
    solutions_of = problem.solutions_of

    def renumbered(cover: Cover) -> Sequence[Any]:
        return solutions_of([order[i] for i in cover])

    return ExactCover(
        primary=tuple(primary),
        secondary=problem.secondary,
        options=tuple(problem.options[i] for i in order),
        solutions_of=renumbered,
        notes=problem.notes,
    )


# ------------------------------------------------------------------ export


def to_text(problem: ExactCover, comments: Sequence[str] = ()) -> str:
    """Knuth's exact-cover format, as read by his DLX1/DLX2 programs and by ``xcover.io``.

    Lines starting with ``|`` are comments.  The first other line names the
    items: primary ones, then ``|``, then secondary ones.  Each further line
    is one option: its items, a secondary item's colour after ``:``.  The
    comments and notes (a logic grid's notes name its categories and values)
    pass through ``comment_text``: a name cannot end its line and become the
    items line.
    """
    lines = [f"| {comment_text(text, width=None)}" for text in (*comments, *problem.notes)]
    items = " ".join(problem.primary)
    if problem.secondary:
        items += " | " + " ".join(problem.secondary)
    lines.append(items)
    lines.extend(" ".join(option) for option in problem.options)
    return "\n".join(lines) + "\n"


def read_text(text: str) -> tuple[list[str], list[str], list[list[str]]]:
    """Parse ``to_text``'s format back: (primary, secondary, options).  For tests and tools."""
    primary: list[str] | None = None
    secondary: list[str] = []
    options: list[list[str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("|"):
            continue
        if primary is None:
            head, _, tail = line.partition("|")
            primary, secondary = head.split(), tail.split()
        else:
            options.append(line.split())
    return primary or [], secondary, options
