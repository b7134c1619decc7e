"""Ganak mechanics shared by every family: projected counts in a child process, limits, error bound, export.

A family's translator (``backends/ganak/<family>.py``) hands over the pysat
translator's ``CnfEncoding``; Ganak counts its models projected on
``projection`` (the puzzle's own variables).  Unprojected, the auxiliaries of
PySAT's cardinality encodings are counted too: Hexiom level 10 has 8
solutions and 2,357,103,969,959,936 models.

Why a child process: ``pyganak.Counter.count()`` cannot be interrupted and may
be called once per counter.  Every count runs in one forked child (a counting
server: the parent sends the units to add, the child builds a fresh counter
over the inherited CNF and answers), and the parent waits for each answer
only until the run's deadline, then kills the child.  A count that did not
finish is unknown (``0+``), never a number.  The child's address space is
capped (``Options.memory``, default ``DEFAULT_MEMORY``), so a count that
outgrows it ends as an error, not as a machine out of memory.

Ganak is *probabilistically* exact: its component cache keys are 128-bit
hashes, and Ganak bounds the probability of a wrong count by
``cache lookups x cache entries / 2^128`` (the ``c s pac guarantees epsilon: 0
delta: ...`` line of its command-line tool).  pyganak returns neither figure,
so the child runs Ganak with ``verbose=1`` and reads its statistics line
``cache K (lookup/ stores/ hits/ dels)``, in thousands rounded down; with one
more thousand each, and stores (which bound the entries from above), that
gives an upper bound of Ganak's own figure: the run's ``error_probability_at_most``.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import re
import resource
import select
import signal
import struct
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ...models.errors import TrisolveError
from .. import base
from ..base import (
    Limits,
    Options,
    Result,
    SolutionSink,
    Status,
    Stopwatch,
    default_memory,
    finish,
    luck_stats,
)

#: Address space the counting child may use unless ``--memory`` says otherwise: half the machine's memory, at
#: most 4 GiB (Ganak's cache grows with the count's difficulty).
DEFAULT_MEMORY = default_memory(4 << 30)
#: Address space Ganak needs beyond what its process starts with (a copy of the process that forks it) to count
#: the smallest levels: a cap that leaves less stops the run before it starts ("memory budget").
HEADROOM = 16 << 20
#: Ganak's component cache hashes are this many bits wide (MurmurHash3_x64_128 since Ganak's June 2026 sources).
HASH_BITS = 128
#: What the run's stats say about the answer's certainty (and the docs: docs/ganak.md).
ERROR_BOUND_TEXT = (
    "Ganak is probabilistically exact: a wrong count needs a collision of its 128-bit component-cache hashes; "
    "Ganak bounds its probability by cache lookups x cache entries / 2^128"
)

_STATS_LINE = re.compile(r"cache K \(lookup/ stores/ hits/ dels\)\s+(\d+)\s+(\d+)")


def pyganak() -> ModuleType:
    """The pyganak module, imported on first use."""
    import pyganak as module

    return module


# ------------------------------------------------------------ the counting child


@dataclass(frozen=True)
class Count:
    """One answer of the counting child: the projected count and what Ganak printed of its cache.

    ``cache`` is ``(lookups, stores)`` in thousands (Ganak's statistics line),
    ``()`` when Ganak printed its statistics without a cache line (it settled
    the count without its component cache: a few models enumerated by its
    SAT solver), None when it printed nothing.
    """

    models: int
    cache: tuple[int, ...] | None

    @property
    def error_bound(self) -> float | None:
        """An upper bound of Ganak's stated probability that ``models`` is wrong (see the module docstring)."""
        if self.cache is None:
            return None
        if not self.cache:
            return 0.0  # as Ganak's own tool states it when no cache lookup was made
        lookups_k, stores_k = self.cache
        return (lookups_k + 1) * 1000.0 * (stores_k + 1) * 1000.0 / 2.0**HASH_BITS


class CountingChild:
    """A forked process that counts ``cnf`` under extra unit clauses, one request at a time.

    ``count(units, deadline)`` returns a ``Count``, or None when the deadline
    came first (the child is then killed: Ganak cannot be interrupted).
    ``close()`` ends the child and returns the CPU seconds it used.
    """

    def __init__(
        self, clauses: Sequence[Sequence[int]], variables: int, projection: Sequence[int], seed: int, memory: int
    ) -> None:
        from trisolve.runs.processes import die_with_parent

        module = pyganak()  # imported before the fork: the child imports nothing
        log = tempfile.TemporaryFile(prefix="trisolve-ganak-")  # noqa: SIM115 - the child's, closed here once forked
        to_child_r, to_child_w = os.pipe()
        to_parent_r, to_parent_w = os.pipe()
        # (not under runs.processes.FORK_LOCK: a run's own process was forked holding it, and inherited it held)
        pid = os.fork()
        if pid == 0:  # ------------------------------------------------ the child
            code = 0
            try:
                os.close(to_child_w)
                os.close(to_parent_r)
                die_with_parent()
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
                os.dup2(log.fileno(), 1)  # Ganak's statistics (verbose=1) go to the log, not to the user
                os.dup2(log.fileno(), 2)
                _serve(module, clauses, variables, projection, seed, log, to_child_r, to_parent_w)
            except BaseException:  # noqa: BLE001 - the parent reads a dead child as an error
                code = 1
            finally:
                os._exit(code)
        # ------------------------------------------------------------ the parent
        log.close()
        os.close(to_child_r)
        os.close(to_parent_w)
        self.pid = pid
        self._send = to_child_w
        self._receive = to_parent_r
        self.cpu = 0.0
        self.peak_rss_mb = 0.0
        self.calls = 0
        self.ended = "running"

    def count(self, units: Sequence[int], deadline: float | None) -> Count | None:
        """The projected count with ``units`` added; None when ``deadline`` passed first."""
        if self.pid is None:
            return None
        self.calls += 1
        try:
            _write_message(self._send, list(units))
        except BrokenPipeError:
            reply = None
        else:
            reply = _read_message(self._receive, deadline)
        if reply is _TIMEOUT:
            self.close()
            return None
        if reply is None or reply[0] == "error":
            self.close()
            message = f"the Ganak process ended ({self.ended})" if reply is None else reply[1]
            raise GanakError(_explain(message))
        _, models, cache = reply
        return Count(models, cache)

    def close(self) -> float:
        """Stop the child (killed: a count in progress cannot be interrupted); its CPU seconds so far."""
        if self.pid is None:
            return self.cpu
        for fd in (self._send, self._receive):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        _, status, usage = os.wait4(self.pid, 0)
        if os.WIFSIGNALED(status):
            self.ended = f"signal {signal.Signals(os.WTERMSIG(status)).name}"
        else:
            self.ended = f"exit status {os.WEXITSTATUS(status)}"
        self.cpu = usage.ru_utime + usage.ru_stime
        self.peak_rss_mb = usage.ru_maxrss / 1024.0
        self.pid = None
        return self.cpu

    def __enter__(self) -> CountingChild:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class GanakError(TrisolveError):
    """Ganak failed (out of the memory allowed, or an internal error): the run has no answer."""


def _explain(message: str) -> str:
    if "bad_alloc" in message or "MemoryError" in message:
        return f"Ganak stopped: {message}: out of the memory allowed (--memory)"
    return f"Ganak stopped: {message} (running out of the memory allowed, --memory, is the usual cause)"


def _serve(module, clauses, variables, projection, seed, log, receive: int, send: int) -> None:
    """The child's loop: read units, count, answer; until the parent closes the pipe."""
    while True:
        units = _read_message(receive, None)
        if units is None:
            return
        try:
            log.seek(0)
            log.truncate()
            counter = module.Counter(verbose=1, seed=seed)
            counter.new_vars(variables)
            counter.add_clauses(clauses)
            counter.add_clauses([unit] for unit in units)
            counter.set_sampling_set(projection)
            models = counter.count()
            if _FFLUSH is not None:  # Ganak prints through C stdio: flush it into the log before reading it
                _FFLUSH(None)
            log.seek(0)
            text = log.read().decode("utf-8", "replace")
            found = [(int(a), int(b)) for a, b in _STATS_LINE.findall(text)]
            if found:
                cache: tuple[int, ...] | None = (max(a for a, _ in found), max(b for _, b in found))
            else:
                cache = () if "c o " in text else None
            _write_message(send, ("count", int(models), cache))
        except Exception as error:  # noqa: BLE001 - sent to the parent, which raises it
            _write_message(send, ("error", f"{type(error).__name__}: {error}"))
            return


def _find_fflush() -> Any:
    """libc's fflush, looked up in the parent: a forked child should not call dlopen (runs.processes._find_prctl)."""
    try:
        import ctypes

        return ctypes.CDLL(None).fflush
    except (OSError, AttributeError):
        return None


_FFLUSH = _find_fflush()
_TIMEOUT = object()


def _write_message(fd: int, payload: Any) -> None:
    data = pickle.dumps(payload)
    view = memoryview(struct.pack("!Q", len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes | object | None:
    chunks = []
    while size:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return _TIMEOUT
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                return _TIMEOUT
        chunk = os.read(fd, size)
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _read_message(fd: int, deadline: float | None) -> Any:
    """The next message; None when the other side closed the pipe, ``_TIMEOUT`` past ``deadline``."""
    head = _read_exactly(fd, 8, deadline)
    if head is None or head is _TIMEOUT:
        return head
    body = _read_exactly(fd, struct.unpack("!Q", head)[0], deadline)
    if body is None or body is _TIMEOUT:
        return body
    return pickle.loads(body)


# ------------------------------------------------------------------ the backend


class GanakBackend(base.Engine):
    """One (family, CNF encoding) pair counted by Ganak, e.g. ``ganak:totalizer``."""

    BACKEND = "ganak"

    def run(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        """Count (enumeration is count-only: the count stays exact whatever ``limits.solutions``), or
        rebuild one solution from counts (``first_solution``)."""
        from ..pysat.engine import require_every_constraint, shuffle_text, translate

        started = time.monotonic()
        deadline = limits.deadline(started)
        watch = Stopwatch()
        if not options.enumerate and limits.solutions is not None and limits.solutions <= 0:
            return self._unknown({}, watch, "solution limit")
        refused = self.refused(options)
        if refused is not None:
            return refused

        translation = translate(
            self.translator, level, self.variant, options, deadline, watch, seeded_solver=True, renumber=True
        )
        if translation is None:
            return self._unknown({}, watch, "time limit")
        cnf, seed = translation
        require_every_constraint(cnf)  # Ganak counts the clauses alone
        memory = DEFAULT_MEMORY if options.memory is None else options.memory
        stats: dict[str, Any] = {
            "variables": cnf.variables,
            "clauses": len(cnf.clauses),
            "projection": len(cnf.projection),
            "error_bound": ERROR_BOUND_TEXT,
            "memory_limit_mb": round(memory / (1 << 20), 1),
            **luck_stats(options, seed, shuffle_text(options)),
        }
        if options.enumerate:
            stats["count_method"] = "projected model count (Ganak) on the puzzle's own variables" + (
                ", lex-leaders only (one per symmetry class)" if options.symmetry_breaking else ""
            )
        start = address_space()
        if memory < start + HEADROOM:  # the cap holds: Ganak could not even start under it
            stats["refused"] = (
                f"--memory {memory / (1 << 20):.1f}M leaves Ganak no room: its process starts with the "
                f"{start / (1 << 20):.0f}M of the process that forks it and needs {HEADROOM >> 20}M more"
            )
            return self._unknown(stats, watch, "memory budget")

        child = CountingChild(cnf.clauses, cnf.variables, cnf.projection, options.seed, memory)
        try:
            if options.enumerate:
                watch.start("count")
                answer = child.count([], deadline)
                watch.stop("count")
                counts, solution = (None if answer is None else [answer]), None
            else:
                watch.start("solve")
                counts, solution = first_solution(child, cnf, deadline)
                watch.stop("solve")
        finally:
            stats["ganak_calls"] = child.calls
            ganak_cpu = child.close()
            stats["ganak_cpu"] = round(ganak_cpu, 6)
            stats["ganak_peak_rss_mb"] = round(child.peak_rss_mb, 1)
            # the phase's CPU is Ganak's: it counts in its own process, which this one's clock never sees
            phase_cpu = ("count" if options.enumerate else "solve") + "_cpu"
            if phase_cpu in watch.times:
                watch.times[phase_cpu] += ganak_cpu

        if counts is None:
            return self._unknown(stats, watch, "time limit")
        bound = error_bound(counts)
        stats["error_probability_at_most"] = None if bound is None else float(f"{bound:.2g}")
        if options.enumerate:
            models = counts[0].models
            status = Status.SAT if models else Status.UNSAT
            return Result(self.name, self.family, status, (), True, models, stats, dict(watch.times))
        if solution is None:
            return finish(self.name, self.family, [], exhausted=True, stats=stats, times=watch.times)
        stats["first_solution"] = "rebuilt from Ganak counts: projection variables fixed block by block"
        if on_solution is not None:
            on_solution(solution)
        return finish(self.name, self.family, [solution], exhausted=False, stats=stats, times=watch.times)

    def export(self, level: Any, options: Options) -> str:
        """The pysat encoding as DIMACS with its projection line (``c p show ... 0``): what Ganak counts."""
        from ..pysat.engine import refuse_symmetry_breaking, to_dimacs

        refuse_symmetry_breaking(self.name, self.translator.CATALOG, options)
        cnf = self.translator.encode(level, self.variant, options)
        return to_dimacs(cnf, [f"trisolve {self.family} {getattr(level, 'name', '') or 'level'} ganak:{self.variant}"])

    def _unknown(self, stats: dict, watch: Stopwatch, why: str) -> Result:
        return Result(self.name, self.family, Status.UNKNOWN, (), False, 0, stats, dict(watch.times), stopped_by=why)


def address_space() -> int:
    """This process's address space in bytes (``VmSize``; 0 where /proc does not say): a forked child starts
    with as much, and ``RLIMIT_AS`` caps the total."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def first_solution(child: CountingChild, cnf: Any, deadline: float | None) -> tuple[list[Count] | None, Any]:
    """One solution found by counting alone: ``(the counts made, solution)``; the solution is None when there
    is none, the counts are None when the deadline came first.

    Self-reduction by group testing.  While the fixed units leave solutions,
    a block of undecided projection variables is set false at once if some
    solution allows it; otherwise the block is halved, and a single variable
    that cannot be false is true in every remaining solution.  The solutions
    of these encodings set few projection variables true, so this takes
    about (true variables) x 2 log2(projection) counts instead of one per
    variable.  The assignment found is counted once more: exactly one
    projection must remain.
    """
    counts: list[Count] = []

    def count(units: list[int]) -> Count | None:
        answer = child.count(units, deadline)
        if answer is not None:
            counts.append(answer)
        return answer

    total = count([])
    if total is None:
        return None, None
    if total.models == 0:
        return counts, None
    fixed: list[int] = []

    def settle(block: list[int]) -> bool:
        """Fix every variable of ``block``; False when the deadline came first."""
        if not block:
            return True
        answer = count(fixed + [-v for v in block])
        if answer is None:
            return False
        if answer.models > 0:
            fixed.extend(-v for v in block)
            return True
        if len(block) == 1:
            fixed.append(block[0])
            return True
        middle = len(block) // 2
        return settle(block[:middle]) and settle(block[middle:])

    if not settle(list(cnf.projection)):
        return None, None
    check = count(fixed)
    if check is None:
        return None, None
    if check.models != 1:
        raise GanakError(f"the rebuilt assignment leaves {check.models} solutions instead of 1 (Ganak miscounted)")
    return counts, cnf.decode(frozenset(v for v in fixed if v > 0))


def error_bound(counts: Sequence[Count]) -> float | None:
    """Ganak's bound on the chance that any of ``counts`` is wrong (their sum); None when Ganak did not state it."""
    bounds = [c.error_bound for c in counts]
    return None if any(b is None for b in bounds) else sum(bounds)
