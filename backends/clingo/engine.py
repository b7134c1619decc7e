"""clingo mechanics shared by every family: load rules, add facts, ground, solve.

A translator (``backends/clingo/<family>.py``) turns a level into an
``AspProgram``: the names of real ``.lp`` rule files shipped in
``encodings/`` plus integer-only facts.  This module owns the rest: projected
enumeration (``--project`` on the ``#show``n atoms), the wall-clock deadline
(grounding included), statistics, and export of a facts file that runs under
the plain ``clingo`` command next to the shipped rules.
"""

from __future__ import annotations

import dataclasses
import os
import queue
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import clingo

from ...models.comments import comment_text
from .. import base
from ..base import Limits, Options, Result, SolutionSink, Stopwatch, finish, luck_stats, shuffle_seed, shuffler

ENCODINGS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "encodings")


@dataclass(frozen=True)
class AspProgram:
    """A family's level as clingo input.

    ``rules`` are file names in ``encodings/`` (loaded in order); ``facts``
    use integers only; the rules' ``#show`` statements are exactly the
    projection.  ``decode`` turns a model's shown symbols into a Solution.
    ``arguments`` are extra clingo command-line options the variant was
    measured fastest with (e.g. ``--configuration=crafty``).

    ``projective`` False says that no two answer sets show the same atoms
    (every atom follows from the shown ones), so clasp may enumerate plainly,
    without ``--project``: on the 6x10 pentomino rectangle that lists tilings
    about twice as fast.  The engine still drops (and counts) any answer set
    whose shown atoms it has seen, so a wrong claim shows up as duplicates,
    never as a wrong count.
    """

    rules: list[str]
    facts: str
    decode: Callable[[Sequence[clingo.Symbol]], Any]
    arguments: tuple[str, ...] = field(default=())
    projective: bool = True


#: Shipped ``.lp`` files replaced by others (a mutant, in ``trisolve mutate``): name -> path.
_REPLACED: dict[str, str] = {}


@contextmanager
def replaced_encoding(name: str, path: str) -> Iterator[None]:
    """Load ``path`` wherever the shipped ``name`` would be loaded, inside the block."""
    previous = _REPLACED.get(name)
    _REPLACED[name] = path
    try:
        yield
    finally:
        if previous is None:
            _REPLACED.pop(name, None)
        else:
            _REPLACED[name] = previous


def encoding_path(name: str) -> str:
    """Absolute path of a shipped ``.lp`` file (package data), or of its replacement."""
    path = _REPLACED.get(name) or os.path.join(ENCODINGS_DIR, name)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"clingo encoding {name!r} is not in {ENCODINGS_DIR}")
    return path


def solver_arguments(program: AspProgram, options: Options) -> list[str]:
    """clingo command-line options for a run (everything but the model count and files).

    ``options.seed`` goes to clasp's ``--seed``; since a seed alone changes
    almost nothing in clasp, a seed other than 0 also reorders the facts
    (``shuffled_facts``), which does.  No random decisions (``--rand-freq``):
    they gave level 38 a heavy tail (docs/bench/timing-notes.md, "clingo").
    """
    arguments = ["--project"] if program.projective else []
    arguments += program.arguments
    if options.seed:
        arguments.append(f"--seed={options.seed}")
    if options.workers and options.workers > 1:
        arguments.append(f"--parallel-mode={options.workers}")
    return arguments


def clingo_program() -> list[str]:
    """How to start clingo here: the ``clingo`` binary when it is on the PATH; else clingo's Python module (a
    ``pip install clingo`` brings the module, not the binary), by ``python`` when that is this interpreter."""
    import shutil

    if shutil.which("clingo"):
        return ["clingo"]
    python = shutil.which("python")
    same = python is not None and os.path.realpath(python) == os.path.realpath(sys.executable)
    return ["python" if same else sys.executable, "-m", "clingo"]


def command_line(program: AspProgram, options: Options, facts_file: str) -> str:
    """The ``clingo`` command that solves the exported facts like ``run`` does, as it runs here."""
    models = "0" if options.enumerate else "1"
    paths = [encoding_path(name) for name in program.rules]
    import shlex

    return shlex.join([*clingo_program(), models, *solver_arguments(program, options), *paths, facts_file])


def _statistics(control: clingo.Control) -> dict[str, Any]:
    """The handful of counters worth comparing across runs."""
    stats = control.statistics
    out: dict[str, Any] = {}
    try:
        solvers = stats["solving"]["solvers"]
        out["choices"] = int(solvers["choices"])
        out["conflicts"] = int(solvers["conflicts"])
        out["restarts"] = int(solvers["restarts"])
        lp = stats["problem"]["lp"]
        out["atoms"] = int(lp["atoms"])
        out["rules"] = int(lp["rules"])
        out["bodies"] = int(lp["bodies"])
        generator = stats["problem"]["generator"]
        out["variables"] = int(generator["vars"])
        out["constraints"] = int(
            generator["constraints"] + generator["constraints_binary"] + generator["constraints_ternary"]
        )
        out["models"] = int(stats["summary"]["models"]["enumerated"])
    except (KeyError, RuntimeError):  # statistics are absent when solving never started
        pass
    return out


#: One fact or rule: text up to a full stop that ends the statement (not the ``..`` of a range).
STATEMENT = re.compile(r"\S[^%]*?\.(?=\s|$)")


def shuffled_facts(facts: str, seed: int) -> str:
    """The same facts in a reproducible random order, one statement per line.

    clasp's search follows the order atoms are grounded in, which follows the
    order of the facts: reordering them is how an ASP solve meets luck beyond
    ``--seed``.  A set of facts means the same in any order.
    """
    statements = [
        match.group(0)
        for line in facts.splitlines()
        if not line.lstrip().startswith("%")
        for match in STATEMENT.finditer(line)
    ]
    shuffler(seed).shuffle(statements)
    return "\n".join(statements) + "\n"


#: How often the search thread looks at the stop flag while clasp searches.
POLL_SECONDS = 0.05
#: How long a run waits, past its deadline, for the search thread to report statistics: less than the
#: runner's kill margin (``runs.processes.GRACE_FIXED``), so the run's own record (its count so far) comes first.
GRACE_SECONDS = 0.15


class _Search:
    """Grounding and solving on a worker thread, so a deadline holds in every phase.

    clingo's ``ground`` and the preparation inside ``solve`` (SAT
    preprocessing) cannot be interrupted; on boards of side 8 and more with
    symmetry breaking they take seconds.  The run waits for models with a
    timeout instead, and at the deadline sets a stop flag: the thread cancels
    the search (``handle.cancel``) as soon as it is searching, or gives up
    right after grounding.  A run never waits for it more than
    ``GRACE_SECONDS`` past the deadline; the process's exit does wait for it.
    """

    def __init__(self, control: clingo.Control) -> None:
        self._control = control
        self._events: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        # not a daemon: interpreter exit waits for a thread left behind (it stops
        # as soon as grounding or preparation returns) instead of tearing clingo
        # down under it, which crashes
        self._thread = threading.Thread(target=self._work, name="clingo-search", daemon=False)
        self._grace_end = 0.0
        self.timed_out = False
        #: the thread reported back; outcome, statistics and times are then final
        self.finished = False
        self.outcome: clingo.SolveResult | None = None
        self.statistics: dict[str, Any] = {}
        self.times: dict[str, float] = {}

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def models(self, deadline: float | None) -> Iterator[tuple[clingo.Symbol, ...]]:
        """Each model's shown symbols (sorted) as found, until the search ends or the deadline."""
        while True:
            if self.timed_out:
                timeout = max(0.0, self._grace_end - time.monotonic())
            elif deadline is None:
                timeout = None
            else:
                timeout = max(0.0, deadline - time.monotonic())
            try:
                kind, payload = self._events.get(timeout=timeout)
            except queue.Empty:
                if self.timed_out:
                    return  # the thread is still grounding or preparing: leave it behind
                self.timed_out = True
                self._stop.set()
                self._grace_end = time.monotonic() + GRACE_SECONDS
                continue
            if kind == "model":
                yield payload
            elif kind == "error":
                raise payload
            else:
                self.finished = True
                return

    def _work(self) -> None:
        control, events, stop = self._control, self._events, self._stop
        try:
            began, began_cpu = time.perf_counter(), time.process_time()
            control.ground([("base", [])])
            self.times["ground"] = time.perf_counter() - began
            if Stopwatch.record_cpu:  # whole-process CPU, as Stopwatch measures it
                self.times["ground_cpu"] = time.process_time() - began_cpu
            if stop.is_set():
                events.put(("done", None))
                return
            began, began_cpu = time.perf_counter(), time.process_time()
            with control.solve(yield_=True, async_=True) as handle:
                while not stop.is_set():
                    handle.resume()
                    while not handle.wait(POLL_SECONDS):
                        if stop.is_set():
                            handle.cancel()
                            break
                    if stop.is_set():
                        break
                    model = handle.model()
                    if model is None:
                        break
                    events.put(("model", tuple(sorted(model.symbols(shown=True)))))
                else:
                    handle.cancel()
                self.outcome = handle.get()
            self.times["solve"] = time.perf_counter() - began
            if Stopwatch.record_cpu:
                self.times["solve_cpu"] = time.process_time() - began_cpu
            self.statistics = _statistics(control)
            events.put(("done", None))
        except BaseException as error:  # noqa: BLE001 - reported to, and raised in, the run's thread
            events.put(("error", error))


def _debug(text: str, *values: Any) -> None:
    """A debug record on this module's logger, when the program uses ``logging`` at all (it is then imported): a
    run in a program that does not pays no import for messages nobody reads."""
    logging = sys.modules.get("logging")
    if logging is not None:
        logging.getLogger(__name__).debug(text, *values)


class ClingoBackend(base.Engine):
    """One clingo configuration (``clingo:<variant>``) for one family."""

    BACKEND = "clingo"

    def __repr__(self) -> str:
        return f"ClingoBackend({self.family!r}, {self.variant!r})"

    def rule_paths(self, options: Options | None = None) -> list[str]:
        """The ``.lp`` files this variant loads, as absolute paths."""
        return [encoding_path(name) for name in self.translator.rules(self.variant, options or Options())]

    def encode(self, level: Any, options: Options) -> AspProgram:
        return self.translator.encode(level, self.variant, options)

    def solve(
        self,
        level: Any,
        limits: Limits,
        options: Options,
        on_solution: SolutionSink | None = None,
    ) -> Result:
        deadline = limits.deadline()
        watch = Stopwatch()
        messages: list[str] = []

        def logger(code: clingo.MessageCode, message: str) -> None:
            # keep clingo's infos and warnings off stderr; count them in the stats
            messages.append(message.strip())
            _debug("clingo %s: %s", code, message.strip())

        wanted = limits.solutions if options.enumerate else 1
        if wanted is not None and wanted <= 0:
            wanted = None if options.enumerate else 1

        watch.start("translate")
        program = self.encode(level, options)
        seed = shuffle_seed(options, seeded_solver=False)
        if seed is not None:
            program = dataclasses.replace(program, facts=shuffled_facts(program.facts, seed))
        control = clingo.Control(
            [str(wanted or 0), *solver_arguments(program, options)], logger=logger, message_limit=100
        )
        for name in program.rules:
            control.load(encoding_path(name))
        control.add("base", [], program.facts)
        watch.stop("translate")

        search = _Search(control)
        solutions: list[Any] = []
        seen: set[tuple[clingo.Symbol, ...]] = set()
        duplicates = 0
        stopped_by: str | None = None
        if deadline is not None and time.monotonic() >= deadline:
            stopped_by = "time limit"
        else:
            search.start()
            try:
                for symbols in search.models(deadline):
                    if symbols in seen:
                        duplicates += 1
                        continue
                    seen.add(symbols)
                    watch.start("decode")
                    solution = program.decode(symbols)
                    watch.stop("decode")
                    solutions.append(solution)
                    if on_solution is not None:
                        on_solution(solution)
            finally:
                search.stop()
            if search.timed_out:
                stopped_by = "time limit"

        outcome = search.outcome if search.finished else None
        exhausted = bool(outcome is not None and outcome.exhausted and stopped_by is None)
        unsat = bool(outcome is not None and outcome.unsatisfiable and stopped_by is None)
        if (
            stopped_by is None
            and options.enumerate
            and wanted is not None
            and not exhausted
            and len(solutions) >= wanted
        ):
            stopped_by = "solution limit"
        if not options.enumerate and solutions:
            exhausted = False  # a first-solution run is never a count, even if clasp exhausted the space
        stats: dict[str, Any] = luck_stats(options, seed, "facts reordered")
        if search.finished:  # else the thread is still busy and its figures are not final
            for phase, seconds in search.times.items():
                watch.add(phase, seconds)
            stats.update(search.statistics)
        if messages:
            stats["messages"] = len(messages)
        return finish(
            self.name,
            self.family,
            solutions,
            exhausted=exhausted,
            proved_unsat=unsat,
            stats=stats,
            times=watch.times,
            duplicates=duplicates,
            stopped_by=stopped_by,
        )

    def rules_loaded(self) -> set[str]:
        """The shipped ``.lp`` files this variant loads, with symmetry breaking or without (what a rules mutant
        may replace)."""
        return {
            rule for sb in (False, True) for rule in self.translator.rules(self.variant, Options(symmetry_breaking=sb))
        }

    def rules_replaced(self, name: str, path: str) -> AbstractContextManager[None]:
        """Inside the block, load the rules file ``path`` wherever the shipped ``name`` would be (mutate's
        ``rules`` mutants: backends/mutated.py)."""
        return replaced_encoding(name, path)

    def run_command(self, level: Any, options: Options, exported: str) -> str:
        """The plain ``clingo`` call that solves the exported facts in ``exported`` (projected on ``#show``):
        the variant's shipped ``.lp`` files (and symmetry breaking's), its options, ``1`` model.  A first
        solution, because that finishes on every shipped level; ``0`` in its place counts (on level 38 that
        takes clasp minutes, where ``--backend dp`` counts in a fraction of a second)."""
        return command_line(self.encode(level, options), options, exported)

    def export(self, level: Any, options: Options) -> str:
        """The level's facts, headed by the ``clingo`` command that solves them."""
        program = self.encode(level, options)
        # a level's name comes from its file name: in comment lines only, one line each (comment_text)
        name = comment_text(getattr(level, "name", "") or self.family)
        facts_file = f"{name}.lp"
        command = comment_text(command_line(program, options, facts_file), width=None)
        header = [
            f"% {self.family} {name}: facts for {self.name}.",
            f"% Save as {facts_file} and run (`python -m clingo` works where the clingo binary is missing):",
            f"%   {command}",
            "% (0 enumerates every solution, 1 stops at the first; --project counts boards, not auxiliaries)",
            "",
        ]
        return "\n".join(header) + program.facts
