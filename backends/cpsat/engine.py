"""CP-SAT mechanics shared by every family: solve, enumerate, limits, statistics, export.

A translator (``backends/cpsat/<family>.py``) builds a ``CpsatModel``; this
module never knows which puzzle it is solving.  ``ortools.sat.python.cp_model``
costs about half a second to import, so it is imported only when a run or an
export needs it.
"""

from __future__ import annotations

import importlib
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from .. import base
from ..base import Limits, Options, OutOfTime, Result, SolutionSink, Stopwatch, building

#: Workers for a first-solution run when neither ``options.workers`` nor the
#: translator's ``parameters`` say: CP-SAT's default portfolio with one worker
#: is slow and seed-sensitive on hard boards, two let a second strategy run.
DEFAULT_WORKERS = 2


@dataclass(frozen=True)
class CpsatModel:
    """A translator's output: the model, the puzzle's own variables, and a decoder.

    ``decode`` gets the values of ``projection`` in order; solutions are
    counted (and de-duplicated) on those values, never on auxiliaries.
    ``parameters`` are CP-SAT parameters the translator measured to suit this
    model in this mode (first solution or enumeration), e.g.
    ``{"linearization_level": 0}``; the engine sets them before its own
    (workers, seed, limits, enumeration), which win.

    ``determined`` False says that some auxiliary variable is not fixed by
    the projection's values (a flow, a model's free auxiliaries): CP-SAT's
    own enumeration would then list a solution once per value of its
    auxiliaries, so the engine lists by exclusion instead (solve, forbid the
    projection's values, solve again).  That needs a projection of Booleans.
    """

    model: Any  # cp_model.CpModel
    projection: list  # list[cp_model.IntVar]
    decode: Callable[[Sequence[int]], Any]
    parameters: Mapping[str, Any] = field(default_factory=dict)
    determined: bool = True


def cp_model() -> ModuleType:
    """The OR-Tools CP-SAT Python module, imported on first use (see ``_import_cp_model``)."""
    module = sys.modules.get("ortools.sat.python.cp_model")
    return module if module is not None else _import_cp_model()


def _import_cp_model() -> ModuleType:
    """Import ``cp_model`` without importing pandas until something uses it.

    ``cp_model`` imports pandas at its top for its ``*_series`` helpers, which
    trisolve never calls; pandas is about two thirds of the import's time and
    of the interpreter's exit (docs/bench/cpsat-profile.md).  While
    ``cp_model`` is imported, ``pandas`` is a stand-in whose ``Index`` and
    ``Series`` only serve the annotations read at import; afterwards the
    stand-in (``cp_model.pd``) imports the real pandas on first use, so the
    ``*_series`` helpers still work.  Only when no other thread could see the
    stand-in and pandas is not loaded yet; any surprise falls back to a plain import.
    """
    if "pandas" in sys.modules or threading.active_count() > 1:
        return importlib.import_module("ortools.sat.python.cp_model")
    stand_in = ModuleType("pandas")
    stand_in.Index = type("Index", (), {})  # type: ignore[attr-defined]
    stand_in.Series = type("Series", (), {})  # type: ignore[attr-defined]
    sys.modules["pandas"] = stand_in
    try:
        module = importlib.import_module("ortools.sat.python.cp_model")
    except Exception:  # noqa: BLE001 - a cp_model that wants more of pandas at import: import it plainly
        sys.modules.pop("ortools.sat.python.cp_model", None)
        module = None
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    if module is None or getattr(module, "pd", None) is not stand_in:
        return importlib.import_module("ortools.sat.python.cp_model")
    del stand_in.Index, stand_in.Series
    stand_in.__getattr__ = lambda name: getattr(importlib.import_module("pandas"), name)  # type: ignore[attr-defined]
    return module


def apply_parameters(params: Any, values: Mapping[str, Any]) -> None:
    """Set CP-SAT parameters by name; list values extend repeated fields (``subsolvers``)."""
    for name, value in values.items():
        if isinstance(value, (list, tuple)):
            repeated = getattr(params, name)
            for item in value:
                repeated.append(item)
        else:
            setattr(params, name, value)


class CpsatBackend(base.Engine):
    """One CP-SAT configuration (``cpsat:<variant>``) for one family."""

    BACKEND = "cpsat"

    # ------------------------------------------------------------- public

    def solve(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        # The limit covers the whole run: building the model spends it too, and
        # the solver gets what is left.
        deadline = limits.deadline()
        watch = base.Stopwatch()
        watch.start("import")
        cp_model()
        watch.stop("import")
        watch.start("translate")
        try:
            with building(deadline):
                encoding = self.translator.encode(level, self.variant, options)
        except OutOfTime:
            encoding = None
        watch.stop("translate")
        if encoding is None:
            stats = {"model": "not built within the time limit", **_luck(options)}
            return base.finish(
                self.name, self.family, [], exhausted=False, stats=stats, times=watch.times, stopped_by="time limit"
            )
        search = _Search(encoding, deadline, limits, options, on_solution, watch)
        module, solver = self._solver(search)
        if options.enumerate and not encoding.determined:
            return self._enumerate_by_exclusion(search, module, solver)
        if options.enumerate:
            return self._enumerate(search, module, solver)
        return self._first(search, module, solver)

    def export(self, level: Any, options: Options) -> str:
        """The model as protobuf text (``text_format.Parse`` reads it back)."""
        cp_model()
        encoding = self.translator.encode(level, self.variant, options)
        return str(encoding.model.proto)

    # ---------------------------------------------------------- mechanics

    def _solver(self, search: _Search) -> tuple[ModuleType, Any]:
        """A CP-SAT solver set up for the run's mode: the translator's parameters first, then ours.

        One solution: workers from the translator unless options say.  Enumeration: one worker
        (every solution is reported once, through a callback, de-duplicated on the projection); by
        exclusion (``determined`` False), each solve is set up as a first solution's.
        """
        module = cp_model()  # imported by ``run`` already
        solver = module.CpSolver()
        params = solver.parameters
        options = search.options
        if options.enumerate and search.encoding.determined:
            apply_parameters(params, search.encoding.parameters)
            params.enumerate_all_solutions = True
            params.num_workers = 1
        else:
            apply_parameters(params, {"num_workers": DEFAULT_WORKERS, **search.encoding.parameters})
            if options.workers:
                params.num_workers = options.workers
        # CP-SAT would otherwise take over SIGINT in this process and leave it at
        # the OS default afterwards: Ctrl-C must stay Python's (the runner decides).
        params.catch_sigint_signal = False
        params.random_seed = options.seed
        if base.shuffle_seed(options) is not None:
            # CP-SAT shuffles its own input from random_seed: variable order and constraint order
            params.permute_variable_randomly = True
            params.permute_presolve_constraint_order = True
        return module, solver

    def _first(self, search: _Search, module: ModuleType, solver: Any) -> Result:
        """Solve for one solution."""
        encoding, watch, on_solution = search.encoding, search.watch, search.on_solution
        solutions: list[Any] = []
        status = None
        stopped_by = _why_no_search(search, solver.parameters)
        if stopped_by is None:
            watch.start("solve")
            status = solver.solve(encoding.model)
            watch.stop("solve")
            self._check(module, encoding, status)
            if status in (module.OPTIMAL, module.FEASIBLE):
                watch.start("decode")
                solution = encoding.decode([solver.value(v) for v in encoding.projection])
                watch.stop("decode")
                solutions.append(solution)
                if on_solution is not None:
                    on_solution(solution)
            elif status == module.UNKNOWN:
                stopped_by = "time limit"
        return base.finish(
            self.name,
            self.family,
            solutions,
            exhausted=False,
            proved_unsat=status == module.INFEASIBLE,
            stats=self._stats(encoding, solver, status, search.options),
            times=watch.times,
            stopped_by=stopped_by,
        )

    def _enumerate(self, search: _Search, module: ModuleType, solver: Any) -> Result:
        """List every solution: a callback, de-duplication on the projection."""
        encoding, watch, on_solution = search.encoding, search.watch, search.on_solution
        limits, deadline = search.limits, search.deadline
        projection = encoding.projection
        seen: set[tuple[int, ...]] = set()
        solutions: list[Any] = []
        state: dict[str, Any] = {"duplicates": 0, "stopped_by": None, "decode": 0.0, "decode_cpu": 0.0}

        class Collector(module.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                values = tuple(self.value(v) for v in projection)
                if values in seen:
                    state["duplicates"] += 1
                    return
                seen.add(values)
                began, began_cpu = time.perf_counter(), time.process_time()
                solution = encoding.decode(values)
                state["decode"] += time.perf_counter() - began
                state["decode_cpu"] += time.process_time() - began_cpu
                solutions.append(solution)
                if on_solution is not None:
                    on_solution(solution)
                if limits.solutions is not None and len(solutions) >= limits.solutions:
                    state["stopped_by"] = "solution limit"
                    self.stop_search()
                elif deadline is not None and time.monotonic() >= deadline:
                    # the solver's own limit stands behind this; a flood of
                    # callbacks could otherwise keep it from checking in time
                    state["stopped_by"] = "time limit"
                    self.stop_search()

        status = None
        state["stopped_by"] = _why_no_search(search, solver.parameters)
        if state["stopped_by"] is None:
            watch.start("solve")
            status = solver.solve(encoding.model, Collector())
            watch.stop("solve")
            self._check(module, encoding, status)
        watch.add("decode", state["decode"])
        if getattr(base.Stopwatch, "record_cpu", False):
            watch.add("decode_cpu", state["decode_cpu"])
        exhausted = state["stopped_by"] is None and status in (module.OPTIMAL, module.INFEASIBLE)
        # an enumeration that ends unfinished without our stop ran out of time
        stopped_by = state["stopped_by"] or (None if exhausted else "time limit")
        return base.finish(
            self.name,
            self.family,
            solutions,
            exhausted=exhausted,
            stats=self._stats(encoding, solver, status, search.options),
            times=watch.times,
            duplicates=state["duplicates"],
            stopped_by=stopped_by,
        )

    def _enumerate_by_exclusion(self, search: _Search, module: ModuleType, solver: Any) -> Result:
        """List every solution one solve at a time, each found forbidden on the projection (a Boolean clause)
        before the next: for models whose auxiliaries the projection does not fix (``determined`` False)."""
        encoding, watch = search.encoding, search.watch
        model, projection = encoding.model, encoding.projection
        status = None
        values: list[int] = []

        def solve() -> bool | None:
            nonlocal status, values
            if not _time_left(solver.parameters, search.deadline):
                return None
            status = solver.solve(model)
            self._check(module, encoding, status)
            if status in (module.OPTIMAL, module.FEASIBLE):
                values = [solver.value(v) for v in projection]
                return True
            return False if status == module.INFEASIBLE else None

        def exclude(true: frozenset[int]) -> None:
            model.add_bool_or([projection[i].Not() if i in true else projection[i] for i in range(len(projection))])

        stopped_by = _why_no_search(search, solver.parameters)
        if stopped_by is not None:
            found = base.Listing([], False, stopped_by, True)
        else:
            found = base.list_by_exclusion(
                solve,
                lambda: frozenset(i for i, value in enumerate(values) if value),
                lambda true: encoding.decode([int(i in true) for i in range(len(projection))]),
                exclude,
                wanted=search.limits.solutions,
                listing=True,
                deadline=search.deadline,
                on_solution=search.on_solution,
                watch=watch,
            )
        stats = self._stats(encoding, solver, status, search.options)
        return found.result(self.name, self.family, stats, watch.times, "blocking_clauses")

    def _check(self, module: ModuleType, encoding: CpsatModel, status: int) -> None:
        if status == module.MODEL_INVALID:
            raise RuntimeError(f"{self.name}: CP-SAT rejected the model: {encoding.model.validate()}")

    @staticmethod
    def _stats(encoding: CpsatModel, solver: Any, status: int | None, options: Options) -> dict[str, Any]:
        proto = encoding.model.proto
        stats: dict[str, Any] = {
            "variables": len(proto.variables),
            "constraints": len(proto.constraints),
            "workers": solver.parameters.num_workers,
            **_luck(options),
        }
        if status is not None:
            stats.update(
                status=solver.status_name(status),
                conflicts=solver.num_conflicts,
                branches=solver.num_branches,
                booleans=solver.num_booleans,
                wall_time=solver.wall_time,
            )
        return stats


@dataclass(frozen=True)
class _Search:
    """One solve call: the model, the run's deadline and limits, and where solutions and times go."""

    encoding: CpsatModel
    deadline: float | None
    limits: Limits
    options: Options
    on_solution: SolutionSink | None
    watch: Stopwatch


def _why_no_search(search: _Search, params: Any) -> str | None:
    """Why no search starts ("solution limit", "time limit"); None: it starts, with the time left."""
    if search.limits.solutions is not None and search.limits.solutions <= 0:
        return "solution limit"
    if not _time_left(params, search.deadline):
        return "time limit"
    return None


def _time_left(params: Any, deadline: float | None) -> bool:
    """Give the solver the time the run has left (None: no limit); False when there is none."""
    if deadline is None:
        return True
    left = deadline - time.monotonic()
    if left <= 0:
        return False
    params.max_time_in_seconds = left
    return True


def _luck(options: Options) -> dict[str, Any]:
    return base.luck_stats(options, base.shuffle_seed(options), "variables and constraints permuted by CP-SAT")
