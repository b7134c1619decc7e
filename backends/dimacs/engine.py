"""The dimacs backend's mechanics: pysat's CNF, solved by an external SAT solver binary.

Any solver that reads a DIMACS file named on its command line and prints
SAT-competition output (``s SATISFIABLE`` / ``s UNSATISFIABLE`` and ``v``
lines) will do: ``--sat-command kissat``, ``"cadical -q"``, ``picosat``.
The CNF is the pysat translator's own (the variant names its encoding), so
this backend checks the translation against a solver outside Python, not an
independent translation; it is left out of the default cross-check because
it needs a binary.

A first solution or an unsat proof is one solver call.  Counting re-runs the
solver from scratch with one blocking clause per solution found (over the
puzzle's own variables only): correct, but one process per solution, so only
for levels with few solutions.  The time limit is kept with a subprocess
timeout and a kill.  Nothing here imports pysat until a run or an export.
Any pysat encoding runs (``dimacs:seqcounter``); the translator files
``backends/dimacs/<family>.py`` declare which one the cross-checker runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import resource
import shlex
import subprocess
import tempfile
import time
from typing import Any

from ...models.errors import shorten
from .. import base
from ..base import (
    BackendUnavailable,
    Limits,
    Options,
    Result,
    SolutionSink,
    Stopwatch,
    finish,
    luck_stats,
)
from ..catalog import UnknownVariant
from ..spec import Spec

#: Statistics lines of kissat/cadical (``c conflicts: 123``) and picosat -v (``c 123 conflicts``).
_STAT_NAMES = ("conflicts", "decisions", "propagations")
_STAT_AFTER = re.compile(r"^c\s+(conflicts|decisions|propagations):\s+(\d+)", re.MULTILINE)
_STAT_BEFORE = re.compile(r"^c\s+(\d+)\s+(conflicts|decisions|propagations)\b", re.MULTILINE)


class DimacsBackend:
    """One pysat CNF encoding, solved by whatever ``options.sat_command`` names."""

    def __init__(self, family: str, variant: str, translator: Any) -> None:
        """``translator`` is ``backends/dimacs/<family>.py``, a catalog alone: the CNF is pysat's translator's."""
        from ..pysat import cnf_translator
        from ..pysat.engine import encodings

        if Spec("dimacs").with_variant(variant).solver is not None:
            raise UnknownVariant(
                f"dimacs variants name a CNF encoding only (the solver is --sat-command): {shorten(variant)!r}"
            )
        self.family = family
        self.backend = "dimacs"  # export borrows PysatBackend.export, which names the backend
        self.name = f"dimacs:{variant}"
        self.encoding = variant
        # a translator of its own (a compiled model's: pysat's compiler) gives the CNF; a catalog alone
        # (``backends/dimacs/<family>.py``) means pysat's translator of the family
        self.translator = translator if hasattr(translator, "encode") else cnf_translator(family)
        if variant not in encodings(self.translator):
            known = ", ".join(encodings(self.translator))
            raise UnknownVariant(f"dimacs has no {family} encoding {shorten(variant)!r}; known: {known}")

    # ------------------------------------------------------------------ run

    def run(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        from ..pysat.engine import (
            blocking_clause,
            decode_model,
            parse_dimacs_model,
            shuffle_text,
            to_dimacs,
            translate,
        )

        argv = command_line(options.sat_command)
        deadline = limits.deadline()
        watch = Stopwatch()
        refused = base.without_symmetry_breaking(self.name, self.family, options, self.translator.CATALOG)
        if refused is not None:
            return refused

        # the solver binary's own seed is not known here: --seed reaches it as a shuffle of the file
        translation = translate(self.translator, level, self.encoding, options, deadline, watch)
        if translation is None:
            return finish(
                self.name, self.family, [], exhausted=False, stats={}, times=watch.times, stopped_by="time limit"
            )
        cnf, seed = translation

        wanted = limits.solutions if options.enumerate else 1
        solutions: list[Any] = []
        blocking: list[list[int]] = []
        exhausted = False
        stopped: str | None = None  # why the run stopped early, when it did
        stats: dict[str, Any] = {
            "command": " ".join(argv),
            "variables": cnf.variables,
            "clauses": len(cnf.clauses),
            "projection": len(cnf.projection),
            "solver_calls": 0,
            **luck_stats(options, seed, shuffle_text(options)),
        }
        solver_cpu = 0.0
        solver_peak_mb = 0.0

        with tempfile.TemporaryDirectory(prefix="trisolve-dimacs-") as folder:
            path = os.path.join(folder, "level.cnf")
            while True:
                if wanted is not None and len(solutions) >= wanted:
                    if options.enumerate:
                        stopped = "solution limit"
                    break
                # write the CNF with one blocking clause per solution found so far
                watch.start("write")
                current = dataclasses.replace(cnf, clauses=cnf.clauses + blocking)
                with open(path, "w", encoding="ascii") as handle:
                    handle.write(to_dimacs(current))
                watch.stop("write")

                watch.start("solve")
                call = _call_solver(argv, path, deadline)
                watch.stop("solve")
                stats["solver_calls"] += 1
                solver_cpu += call.cpu
                solver_peak_mb = max(solver_peak_mb, call.peak_mb)
                for name, value in _solver_stats(call.output).items():
                    stats[name] = stats.get(name, 0) + value
                if call.output is None:
                    stopped = "time limit"
                    break
                true = parse_dimacs_model(call.output)
                if true is None:  # s UNSATISFIABLE: no (further) solution
                    exhausted = True
                    break

                watch.start("decode")
                solution = decode_model(cnf, true)
                projected = frozenset(v for v in cnf.projection if v in true)
                watch.stop("decode")
                solutions.append(solution)
                if on_solution is not None:
                    on_solution(solution)
                blocking.append(blocking_clause(cnf, projected))

        stats["solver_cpu"] = round(solver_cpu, 6)
        stats["solver_peak_rss_mb"] = round(solver_peak_mb, 1)
        return finish(
            self.name, self.family, solutions, exhausted=exhausted, stats=stats, times=watch.times, stopped_by=stopped
        )

    # --------------------------------------------------------------- export

    def export(self, level: Any, options: Options) -> str:
        """The same DIMACS text ``pysat`` exports for this encoding (the external solver reads it)."""
        from ..pysat.engine import PysatBackend

        return PysatBackend.export(self, level, options)  # type: ignore[arg-type]  # same fields: translator, encoding


# ---------------------------------------------------------------- the binary


def command_line(sat_command: str | None) -> list[str]:
    """The solver's argv (the CNF path is appended, or replaces a ``{}``); checked before any run."""
    if not sat_command or not sat_command.strip():
        raise BackendUnavailable(
            'the dimacs backend needs a solver command: --sat-command "kissat" (or cadical, picosat)'
        )
    argv = shlex.split(sat_command)
    from shutil import which

    if which(argv[0]) is None:
        raise BackendUnavailable(f"SAT solver command {argv[0]!r} not found on PATH")
    return argv


class _Call:
    """One solver run: its standard output (None when the time limit came first) and its cost."""

    def __init__(self, output: str | None, cpu: float, peak_mb: float) -> None:
        self.output = output
        self.cpu = cpu
        self.peak_mb = peak_mb


def _call_solver(argv: list[str], path: str, deadline: float | None) -> _Call:
    """Run the binary on ``path`` until it answers or the deadline passes (then kill it)."""
    from trisolve.runs.processes import die_with_parent, reap_orphans, track_group

    from ..pysat.engine import SolverOutputError

    args = [path if a == "{}" else a for a in argv] if "{}" in argv else argv + [path]
    remaining = None if deadline is None else deadline - time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    if remaining is not None and remaining <= 0:
        return _Call(None, 0.0, 0.0)

    def own_group() -> None:
        os.setpgid(0, 0)  # the solver and any helper it starts: one group, killed after the call
        die_with_parent()

    try:
        process = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=own_group
        )
    except OSError as problem:
        raise SolverOutputError(f"{argv[0]}: cannot run: {problem.strerror or problem}") from None
    track_group(process.pid)  # killed by the runner too, should this process be killed mid-call
    try:
        output, errors = _communicate(process, remaining)
    finally:
        _kill_group(process.pid)  # helpers the solver left behind (and the solver, on a timeout or Ctrl-C)
        process.wait()
        reap_orphans()  # helpers that left the group (a new session) and were handed to this process
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    peak = after.ru_maxrss / 1024.0  # largest child so far: an upper bound for this one
    if output is not None and not re.search(r"^s\s", output, re.MULTILINE):
        tail = " | ".join(line[:200] for line in (errors or output).strip().splitlines()[-3:])
        code = process.returncode
        how = f"was killed by {_signal_name(-code)}" if code < 0 else f"exited with code {code}"
        raise SolverOutputError(f"{' '.join(argv)} {how} and printed no 's' line" + (f": {tail}" if tail else ""))
    return _Call(output, cpu, peak)


#: Most output read from a solver: its model lines for the largest instances are a few MB.
MAX_OUTPUT_BYTES = 256_000_000


def _communicate(process: subprocess.Popen, remaining: float | None) -> tuple[str | None, str]:
    """The solver's (stdout, stderr) as text; stdout None when the deadline came first.

    Reads until the solver exits, not until its pipes close: a helper it left in the background may
    hold them open for ever (it is killed right after, with the solver's process group).  The pipes
    are read raw, as bytes arrive, so what the solver printed is kept even then."""
    import threading

    chunks: dict[int, list[bytes]] = {1: [], 2: []}

    def drain(fd: int, key: int) -> None:
        size = 0
        try:
            while True:
                piece = os.read(fd, 65536)
                if not piece:
                    return
                size += len(piece)
                if size <= MAX_OUTPUT_BYTES:
                    chunks[key].append(piece)
        except OSError:
            return

    readers = [
        threading.Thread(target=drain, args=(process.stdout.fileno(), 1), daemon=True),
        threading.Thread(target=drain, args=(process.stderr.fileno(), 2), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        process.wait(timeout=remaining)
    except subprocess.TimeoutExpired:
        return None, ""
    # the solver has exited and all it printed is in the pipes: its helpers have no business left, and
    # may hold the pipes open; once they are dead the readers drain the pipes to their end
    _kill_group(process.pid)
    from trisolve.runs.processes import reap_orphans

    reap_orphans()
    for reader in readers:
        reader.join(5.0)
    # a helper that is still alive (outside a run's child, in a session of its own) holds the pipes:
    # what arrived is what there is
    text = {key: b"".join(parts).decode("utf-8", errors="replace") for key, parts in chunks.items()}
    return text[1], text[2]


def _kill_group(pgid: int) -> None:
    import signal

    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(pgid, signal.SIGKILL)


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _solver_stats(output: str | None) -> dict[str, int]:
    """Conflicts, decisions, propagations when the solver prints them (kissat, cadical, picosat -v)."""
    if not output:
        return {}
    found: dict[str, int] = {}
    for name, value in _STAT_AFTER.findall(output):
        found[name] = int(value)
    for value, name in _STAT_BEFORE.findall(output):
        found.setdefault(name, int(value))
    return {name: found[name] for name in _STAT_NAMES if name in found}
