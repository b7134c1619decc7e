"""The measured portfolio (``trisolve bench --portfolio``): every backend, every family, both tasks.

Per family and task (a first solution, an exact count) every usable backend
(its default variant, and its ``compiled`` variant where it compiles the
family's constraint model: so a default may be a compiled model) runs on
the shipped instances (``levels/<family>``) and then on generated
ones of growing size (the family's ``Family.ladder``: board sides, frames of
growing area, grids of growing size; a few seeds per size).  A backend
that leaves an instance of some size unsolved within the limit runs no larger
size: the instances it skips count as unsolved (the report says where it
stopped).  A size is generated only while some backend still runs at it.

Every run goes through the benchmark's machinery (``runner.run_trial``): a
forked child with the backend's own time limit and a hard kill behind it,
the instance parsed in the parent and timed, a first solution validated by
the family's validator.  A count is solved only when exact: complete, equal
to ``expected.json`` for shipped instances, at least the generator's own
solution for generated ones (and exactly 1 where the generator proved the
level unique).

``table`` folds the runs into one row per (family, task, backend): runs
solved, the median, p90 and worst wall and CPU seconds (an unsolved run
counts as slower than any), the largest instance solved.  Rows are ranked by
``selection.table.rank_key``: that table, shipped as
``selection/portfolio.json``, is where ``solve`` takes its defaults.

Runs are one at a time (timings are not shared with a neighbour run), in
round-robin order within an instance, the order rotating from instance to
instance, as in ``runner.plan``.  The run count, and so the run time, is
bounded before anything starts (``Plan.most_runs``): each run takes at most
the timeout plus the runner's grace.  Before a family's runs,
``runs.executors.warm_machine`` lets each backend compile its kernels into numba's
cache (once per machine, untimed), so a first compile is never timed as a run.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES
from trisolve.models.errors import whole_number
from trisolve.models.family import Ladder, Rung
from trisolve.runs import INTERRUPT, grace_for
from trisolve.runs.executors import warm_machine
from trisolve.selection import choose, usable
from trisolve.selection import table as ranking_table

from .provenance import machine
from .runner import BenchRun, Settings, Trial, run_trial
from .summary import distribution

TASKS = ranking_table.TASKS
#: Where a checkout keeps its instances and docs (absent in an installed wheel).
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS_DIR = os.path.join(ROOT, "levels")
#: The plot of a measurement's folder (and of the shipped table's page, docs/bench/, which scripts/write_docs.py
#: writes in a source checkout)
PLOT_FILE = "portfolio.png"


# ------------------------------------------------------------------ sizes


def ladder(family: str) -> Ladder | None:
    """The family's generated sizes (``Family.ladder``), or None: it runs its shipped instances only."""
    return FAMILIES[family].ladder


def size_of(family: str, level: Any) -> int | None:
    sizes = ladder(family)
    return None if sizes is None else sizes.measure(level)


def parse_max_size(text: str | None, families: Sequence[str]) -> dict[str, tuple[str, int]]:
    """``--max-size``: ``N`` (the first N generated sizes of every family, 0 for none) or
    ``family=SIZE,...`` (in the family's own unit: Hexiom side, frame cells, grid cells)."""
    if text is None:
        return {}
    text = text.strip()
    if whole_number(text) is not None:  # ASCII digits only; a huge N means every size
        return {family: ("rungs", whole_number(text)) for family in families}
    limits: dict[str, tuple[str, int]] = {}
    for part in text.split(","):
        name, equals, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or whole_number(value) is None:
            raise ValueError(f"--max-size {text!r}: give N (sizes per family) or family=SIZE,... (each in its unit)")
        laddered = [family for family in FAMILIES if ladder(family) is not None]
        if name not in laddered:
            raise ValueError(f"--max-size: no generated sizes for {name!r}; families with sizes: {', '.join(laddered)}")
        limits[name] = ("size", whole_number(value))
    return limits


def rungs_of(family: str, max_size: Mapping[str, tuple[str, int]]) -> tuple[Rung, ...]:
    sizes = ladder(family)
    if sizes is None:
        return ()
    kind, value = max_size.get(family, ("rungs", len(sizes.rungs)))
    return sizes.rungs[:value] if kind == "rungs" else tuple(r for r in sizes.rungs if r.size <= value)


# ------------------------------------------------------------------ instances


@dataclass(frozen=True)
class Instance:
    """One instance of the portfolio: shipped (``rung`` None) or generated at a rung."""

    path: str
    family: str
    name: str
    size: int | None
    rung: int | None = None
    seed: int = 0
    #: the exact count when known (expected.json, or a level the generator proved unique)
    expected: int | None = None
    #: a lower bound on the count (a generated level has its generator's solution)
    at_least: int = 0

    def to_json(self) -> dict:
        return asdict(self)


def shipped_instances(family: str, paths: Sequence[str] | None = None) -> list[Instance]:
    """The family's shipped levels (or the given files of that family), with sizes and expected counts."""
    from trisolve.crosscheck.compare import expected_for

    kind = FAMILIES[family]
    if paths is None:
        folder = os.path.join(LEVELS_DIR, family)
        if not os.path.isdir(folder):
            return []
        paths = [
            os.path.join(folder, name)
            for name in sorted(os.listdir(folder))
            if not name.startswith(".") and not name.endswith((".json", ".jsonl", ".md"))
        ]
    found = []
    for path in paths:
        level = kind.parse(path)
        known = expected_for(path)
        expected = known.count if known is not None and known.complete else None
        name = os.path.splitext(os.path.basename(path))[0]
        found.append(Instance(path, family, name, size_of(family, level), expected=expected))
    return found


def generate_rung(family: str, index: int, rung: Rung, seeds: int, folder: str) -> list[Instance]:
    """``seeds`` levels of one size (seeds 0..seeds-1), written under ``folder`` (reused when already there:
    the generators are deterministic, so a rerun into the same folder skips the generating)."""
    from trisolve.generate import generator, suffix, write_generated

    unique = ladder(family).unique
    out = []
    for seed in range(seeds):
        stem = f"{family}-{rung.label}-s{seed}"
        path = os.path.join(folder, family, stem + suffix(family))
        sidecar = os.path.join(folder, family, stem + ".solution.json")
        if os.path.exists(path) and os.path.exists(sidecar):
            with open(sidecar, encoding="utf-8") as handle:
                proved = bool(json.load(handle).get("unique"))
        else:
            made = generator(family)(seed, unique=unique, name=stem, **rung.parameters)
            path = write_generated(made, os.path.join(folder, family), stem)
            proved = made.unique
        out.append(Instance(path, family, stem, rung.size, index, seed, 1 if proved else None, 1))
    return out


# ------------------------------------------------------------------ backends


def backends_for(
    family: str, task: str, specs: Sequence[str] = (), sat_command: str | None = None
) -> tuple[list[str], list[str]]:
    """(backend:variant names to measure, notes on those left out): the selection policy's (``portfolio``:
    every backend needing nothing outside Python whose ``TASKS`` hold the task, each one's default variant and
    its ``compiled`` one where it compiles the family's constraint model; dimacs with a SAT command), or those
    named, each with a translator for the family and usable here."""
    from trisolve.backends import registry

    if not specs:
        chosen = choose(family, "portfolio", task, sat_command=sat_command)
        return list(chosen.backends), [f"{note} (not usable here)" for note in chosen.left_out]
    names, notes = [], []
    for spec in specs:
        why = usable(spec, family)
        if why is None:
            names.append(registry.resolve(spec, family))
        else:
            notes.append(f"{spec}: {why}")
    return list(dict.fromkeys(names)), notes


# ------------------------------------------------------------------ running


@dataclass(frozen=True)
class Config:
    families: tuple[str, ...]
    tasks: tuple[str, ...] = TASKS
    timeout: float = 10.0
    seeds: int = 3
    max_size: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    backends: tuple[str, ...] = ()
    sat_command: str | None = None
    #: instance files instead of the shipped levels (None: levels/<family> of the checkout)
    paths: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Plan:
    """What will run, known before the first run: the bound on the run count (and so on the run time)."""

    backends: Mapping[tuple[str, str], tuple[str, ...]]
    shipped: Mapping[str, tuple[Instance, ...]]
    rungs: Mapping[str, tuple[Rung, ...]]
    notes: tuple[str, ...]
    seeds: int
    timeout: float

    @property
    def shipped_runs(self) -> int:
        return sum(len(self.shipped[f]) * len(names) for (f, _), names in self.backends.items())

    @property
    def most_generated_runs(self) -> int:
        return sum(len(self.rungs[f]) * self.seeds * len(names) for (f, _), names in self.backends.items())

    @property
    def most_runs(self) -> int:
        return self.shipped_runs + self.most_generated_runs

    @property
    def most_seconds(self) -> float:
        """No run can take longer than its limit plus the runner's grace (generating aside)."""
        return self.most_runs * (self.timeout + grace_for(self.timeout))


def plan(config: Config) -> Plan:
    backends: dict[tuple[str, str], tuple[str, ...]] = {}
    notes: list[str] = []
    shipped: dict[str, tuple[Instance, ...]] = {}
    rungs: dict[str, tuple[Rung, ...]] = {}
    for family in config.families:
        paths = None
        if config.paths is not None:
            paths = [p for p in config.paths if _family_of(p) == family]
        shipped[family] = tuple(shipped_instances(family, paths))
        rungs[family] = rungs_of(family, config.max_size)
        for task in config.tasks:
            names, left_out = backends_for(family, task, config.backends, config.sat_command)
            notes.extend(f"{family} {task}: {note}" for note in left_out)
            if names:
                backends[family, task] = tuple(names)
    return Plan(backends, shipped, rungs, tuple(notes), config.seeds, config.timeout)


def _family_of(path: str) -> str:
    from trisolve.models import detect_family

    return detect_family(path).name


@dataclass(frozen=True)
class Stop:
    """A backend that ran no larger size: the size it left unsolved and how many instances it skipped."""

    family: str
    task: str
    backend: str
    size: int
    skipped: int = 0


@dataclass
class Outcome:
    """Everything measured: instances, runs (judged), where backends stopped growing."""

    instances: list[Instance] = field(default_factory=list)
    runs: list[tuple[str, BenchRun]] = field(default_factory=list)  # (task, run)
    stops: list[Stop] = field(default_factory=list)
    interrupted: bool = False

    def instance(self, path: str) -> Instance:
        return self._by_path()[path]

    def _by_path(self) -> dict[str, Instance]:
        return {i.path: i for i in self.instances}


def judge(run: BenchRun, instance: Instance, task: str) -> BenchRun:
    """A run that answered, but wrongly, is unsolved (its error says why): a count must be exact."""
    wrong = None
    if task == "first" and run.status == "unsat" and (instance.at_least > 0 or (instance.expected or 0) > 0):
        wrong = f"said unsat, but the level has a solution ({_known(instance)})"
    elif task == "first" and run.status == "sat" and instance.expected == 0:
        wrong = "found a solution of a level that has none"
    elif task == "count" and run.complete:
        if instance.expected is not None and run.count != instance.expected:
            wrong = f"counted {run.count}, expected {instance.expected}"
        elif run.count < instance.at_least:
            wrong = f"counted {run.count}, but the generator's solution is one"
    if wrong is None:
        return run
    return replace(run, solved=False, error=f"wrong answer: {wrong}")


def _known(instance: Instance) -> str:
    return "expected.json" if instance.rung is None else "the generator's solution"


def run(
    config: Config,
    the_plan: Plan,
    folder: str,
    on_run: Callable[[str, BenchRun, Instance], None] | None = None,
    on_instance: Callable[[Instance], None] | None = None,
    on_stop: Callable[[Stop], None] | None = None,
) -> Outcome:
    """Run the plan: per family and task, shipped instances, then growing sizes until every backend stopped."""
    outcome = Outcome()
    generated: dict[tuple[str, int], list[Instance]] = {}

    def add(instance: Instance) -> None:
        if instance.path not in outcome._by_path():
            outcome.instances.append(instance)
            if on_instance is not None:
                on_instance(instance)

    def measure(task: str, instance: Instance, names: Sequence[str], turn: int) -> dict[str, BenchRun]:
        shift = turn % len(names)
        done = {}
        for backend in list(names[shift:]) + list(names[:shift]):
            if INTERRUPT.is_set():
                break
            settings = Settings(timeout=config.timeout, mode=task, seed=instance.seed, sat_command=config.sat_command)
            try:
                one = run_trial(Trial(instance.path, instance.family, backend, 0), FAMILIES[instance.family], settings)
            except KeyboardInterrupt:  # Ctrl-C while parsing or validating, outside the child
                INTERRUPT.set()
                break
            if INTERRUPT.is_set():  # the run in progress was cut short: not a measurement
                break
            one = judge(one, instance, task)
            outcome.runs.append((task, one))
            done[backend] = one
            if on_run is not None:
                on_run(task, one, instance)
        return done

    turn = 0
    for family in config.families:
        warm_machine(
            {name: None for task in config.tasks for name in the_plan.backends.get((family, task), ())}, family
        )
        for task in config.tasks:
            names = list(the_plan.backends.get((family, task), ()))
            if not names:
                continue
            for instance in the_plan.shipped[family]:
                add(instance)
                measure(task, instance, names, turn)
                turn += 1
            turn, sizes_run = _climb(
                family, task, names, the_plan, config, folder, generated, add, measure, turn, outcome
            )
            _charge_skipped(outcome, family, task, the_plan.rungs[family], generated, sizes_run, on_stop)
            if INTERRUPT.is_set():
                outcome.interrupted = True
                return outcome
    return outcome


def _climb(
    family: str,
    task: str,
    names: Sequence[str],
    the_plan: Plan,
    config: Config,
    folder: str,
    generated: dict[tuple[str, int], list[Instance]],
    add: Callable[[Instance], None],
    measure: Callable[[str, Instance, Sequence[str], int], dict[str, BenchRun]],
    turn: int,
    outcome: Outcome,
) -> tuple[int, list[int]]:
    """The generated sizes, growing, until every backend stopped: a backend that leaves an instance of a size
    unsolved stops there (``Stop``).  Returns the next turn and the sizes run (their indexes)."""
    active = list(names)
    sizes_run: list[int] = []
    for index, rung in enumerate(the_plan.rungs[family]):
        if not active or INTERRUPT.is_set():
            break
        key = (family, index)
        if key not in generated:
            generated[key] = generate_rung(family, index, rung, config.seeds, folder)
        unsolved: set[str] = set()
        for instance in generated[key]:
            add(instance)
            for backend, one in measure(task, instance, active, turn).items():
                if not one.solved:
                    unsolved.add(backend)
            turn += 1
        sizes_run.append(index)
        if INTERRUPT.is_set():
            break
        for backend in [b for b in active if b in unsolved]:
            active.remove(backend)
            if index + 1 < len(the_plan.rungs[family]):  # at the largest size there is nothing to stop
                outcome.stops.append(Stop(family, task, backend, rung.size))
    return turn, sizes_run


def _charge_skipped(
    outcome: Outcome,
    family: str,
    task: str,
    rungs: Sequence[Rung],
    generated: Mapping[tuple[str, int], list[Instance]],
    sizes_run: Sequence[int],
    on_stop: Callable[[Stop], None] | None,
) -> None:
    """The sizes a stopped backend skipped count against it (scored as unsolved)."""
    last = sizes_run[-1] if sizes_run else -1
    for position, stop in enumerate(outcome.stops):
        if stop.family == family and stop.task == task:
            stopped_at = next(i for i, r in enumerate(rungs) if r.size == stop.size)
            skipped = sum(len(generated[family, i]) for i in range(stopped_at + 1, last + 1))
            outcome.stops[position] = replace(stop, skipped=skipped)
            if on_stop is not None:
                on_stop(outcome.stops[position])


# ------------------------------------------------------------------ the table


def _round(value: float | None) -> float | None:
    if value is None or value == math.inf:
        return None
    return float(f"{value:.4g}")


def _spread(values: Sequence[float], unsolved: int) -> dict[str, float | None]:
    found = distribution(values, unsolved)
    return {k: _round(found[k]) for k in ("median", "p90", "max")}


def measured_backends(outcome: Outcome) -> dict[tuple[str, str], tuple[str, ...]]:
    """(family, task) -> the backends that ran, in the order first seen."""
    found: dict[tuple[str, str], dict[str, None]] = {}
    for task, one in outcome.runs:
        found.setdefault((one.family, task), {})[one.backend] = None
    return {key: tuple(names) for key, names in found.items()}


def table(outcome: Outcome, header: Mapping[str, Any]) -> dict[str, Any]:
    """One row per (family, task, backend), ranked by ``selection.table.rank_key``; the JSON that ships."""
    families: dict[str, Any] = {}
    for (family, task), names in measured_backends(outcome).items():
        runs = [r for t, r in outcome.runs if t == task and r.family == family]
        if not runs:
            continue
        total = len({r.path for r in runs})
        rows = []
        for backend in names:
            mine = [r for r in runs if r.backend == backend]
            solved = [r for r in mine if r.solved]
            unsolved = total - len(solved)
            stop = next((s for s in outcome.stops if (s.family, s.task, s.backend) == (family, task, backend)), None)
            if stop is not None and stop.size >= max(header.get("sizes", {}).get(family) or [math.inf]):
                stop = None  # unsolved at the largest size asked for: nothing larger was skipped
            sizes = [outcome.instance(r.path).size for r in solved]
            errors = sorted({r.error.splitlines()[0][:160] for r in mine if r.error and not r.solved})
            rows.append(
                {
                    "backend": backend,
                    "solved": len(solved),
                    "total": total,
                    "wall": _spread([r.time for r in solved], unsolved),
                    "cpu": _spread([r.cpu for r in solved], unsolved),
                    "solved_wall": _spread([r.time for r in solved], 0),
                    "largest_size": max((s for s in sizes if s is not None), default=None),
                    "not_run": total - len(mine),
                    "stopped_at": stop.size if stop else None,
                    "wrong": sum(1 for r in mine if (r.error or "").startswith("wrong answer")),
                    "invalid": sum(1 for r in mine if r.valid is False),
                    **({"errors": errors[:3]} if errors else {}),
                }
            )
        rows.sort(key=ranking_table.rank_key)
        sizes = ladder(family)
        families.setdefault(family, {})[task] = {
            "unit": sizes.unit if sizes else None,
            "instances": total,
            "default": rows[0]["backend"],
            "rows": rows,
        }
    return {"header": dict(header), "rule": RULE, "families": families}


RULE = (
    "Per family and task, backends are ranked by runs solved within the limit (more first), then the p90 wall "
    "time, then the worst wall time, an unsolved run counting as slower than any (ties beyond the limit fall to "
    "the p90 and worst of the solved runs, then their median). The default is the first usable row; "
    "--backend auto races the top three for a first solution and the top two for a count."
)


def header(config: Config, command: str | None, seconds: float, load: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "command": command,
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "trisolve": _version(),
        "machine": machine(),
        "load": dict(load),
        "seconds": round(seconds, 1),
        "timeout": config.timeout,
        "seeds": config.seeds,
        "sizes": {f: [r.size for r in rungs_of(f, config.max_size)] for f in config.families},
    }


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trisolve")
    except PackageNotFoundError:
        return "unknown"


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


# ------------------------------------------------------------------ the page


def _s(value: float | None, beyond: bool = True) -> str:
    if value is None:
        return "> limit" if beyond else "–"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def _spread_text(values: Mapping[str, Any], solved: int) -> str:
    if not solved:
        return "none solved"
    return " / ".join(_s(values.get(k)) for k in ("median", "p90", "max"))


def markdown(
    data: Mapping[str, Any], plot: str | None = PLOT_FILE, findings: Sequence[str] = (), shipped: bool = True
) -> str:
    """The human page: how it was measured, the defaults, one table per family and task, the plot.  ``shipped``:
    the page of the table ``solve`` takes its defaults from (``--write-defaults``), else a measurement of one's own."""
    head = data["header"]
    load = head.get("load", {})
    runs = sum(
        row["total"] - row["not_run"]
        for tasks in data["families"].values()
        for t in tasks.values()
        if not t.get("measured")
        for row in t["rows"]
        if not row.get("measured")
    )
    elsewhen = other_measurements(data)
    lines = [
        "# The measured portfolio: which backend for which task",
        "",
        (
            "Written from `selection/portfolio.json` (the table `solve` takes its defaults from, which "
            "`trisolve bench --portfolio --write-defaults` writes) by `scripts/write_docs.py --portfolio OUT`. "
            "Regenerate both with those commands; do not edit by hand."
            if shipped
            else "Written by `trisolve bench --portfolio`: a measurement of this machine, beside its portfolio.json; "
            "`solve`'s defaults are unchanged (`--write-defaults` would make this table theirs)."
        ),
        "",
        f"- Command: `{head.get('command') or 'trisolve bench --portfolio --write-defaults'}`",
        f"- Date: {head.get('date', '?')}; trisolve {head.get('trisolve', '?')}; "
        f"{head.get('machine', {}).get('cores', '?')} cores, {head.get('machine', {}).get('platform', '')}, "
        f"Python {head.get('machine', {}).get('python', '')}",
        f"- Machine load (1, 5, 15 min averages): {_load(load.get('start'))} at the start, "
        f"{_load(load.get('end'))} at the end",
        f"- Run time: {head.get('seconds', '?')} s for {runs} runs (generating levels included); time limit "
        f"{head.get('timeout', '?')} s per run; {head.get('seeds', '?')} generated level(s) per size; sizes "
        + "; ".join(f"{family} {', '.join(map(str, sizes))}" for family, sizes in head.get("sizes", {}).items()),
        *(f"- Measured at another time: {phrase}" for phrase in elsewhen),
        "",
        RULE,
        "",
        "Times are wall seconds (parse + the whole child process: start, solver import, translate, solve, decode) "
        "and CPU seconds of the same; median / p90 / worst over all runs, `> limit` where the unsolved runs reach "
        "that rank. A count is solved only when exact. A backend that leaves an instance of a generated size "
        "unsolved runs no larger size; the instances it skips count as unsolved.",
        "",
        "## Defaults",
        "",
        "| family | first solution | auto races (first) | count | auto races (count) |",
        "|---|---|---|---|---|",
    ]
    for family, tasks in data["families"].items():
        cells = []
        for task in TASKS:
            if task in tasks:
                ranked = [row["backend"] for row in tasks[task]["rows"]]
                cells += [f"**{ranked[0]}**", ", ".join(ranked[: ranking_table.RACE_SIZE[task]])]
            else:
                cells += ["(not measured)", ""]
        lines.append(f"| {family} | " + " | ".join(cells) + " |")
    for family, tasks in data["families"].items():
        for task in TASKS:
            if task not in tasks:
                continue
            entry = tasks[task]
            what = "first solution" if task == "first" else "exact count"
            unit = entry.get("unit") or "size"
            lines += [
                "",
                f"## {family}: {what} ({entry['instances']} instances; size = {unit})",
                "",
                "| rank | backend | solved | wall s: median / p90 / worst | CPU s: median / p90 / worst "
                "| largest size solved | notes |",
                "|---|---|---|---|---|---|---|",
            ]
            for rank, row in enumerate(entry["rows"], 1):
                notes = []
                if row.get("stopped_at") is not None:
                    notes.append(f"stopped growing at size {row['stopped_at']} ({row['not_run']} not run)")
                if row.get("wrong"):
                    notes.append(f"{row['wrong']} wrong answer(s)")
                if row.get("invalid"):
                    notes.append(f"{row['invalid']} invalid solution(s)")
                if row.get("errors"):
                    notes.append("e.g. " + row["errors"][0].replace("|", "/"))
                if row.get("measured") and row["measured"] != entry.get("measured"):
                    notes.append(f"measured {row['measured'].get('date') or 'at another time'}")
                largest = "–" if row.get("largest_size") is None else str(row["largest_size"])
                lines.append(
                    f"| {rank} | {row['backend']} | {row['solved']}/{row['total']} | "
                    f"{_spread_text(row['wall'], row['solved'])} | {_spread_text(row['cpu'], row['solved'])} | "
                    f"{largest} | {'; '.join(notes)} |"
                )
    if findings:
        lines += ["", "## Findings", ""] + [f"- {line}" for line in findings]
    if plot:
        lines += [
            "",
            "## Time against instance size",
            "",
            "One panel per family and task; each point is a run (a cross at the limit: unsolved), "
            "the line joins the median per size (unsolved counting as beyond the limit)."
            + (f" It shows the runs of the measurement of {head.get('date', '?')} only." if elsewhen else ""),
            "",
            f"![time against size per backend]({plot})",
        ]
    return "\n".join(lines) + "\n"


def _load(values: Any) -> str:
    return ", ".join(f"{v:.2f}" for v in values) if values else "?"


def findings(outcome: Outcome) -> list[str]:
    """Answers that disagree: wrong counts, invalid solutions, counts that differ between backends."""
    lines = []
    for task, one in outcome.runs:
        if one.valid is False:
            lines.append(f"{one.backend} returned an invalid solution on {one.family}/{one.instance}")
        elif (one.error or "").startswith("wrong answer"):
            lines.append(f"{one.backend} on {one.family}/{one.instance} ({task}): {one.error}")
    counts: dict[str, dict[str, int]] = {}
    for task, one in outcome.runs:
        if task == "count" and one.complete and one.error is None:
            counts.setdefault(one.path, {})[one.backend] = one.count
    for path, found in counts.items():
        if len(set(found.values())) > 1:
            instance = outcome.instance(path)
            shown = ", ".join(f"{b} {c}" for b, c in found.items())
            lines.append(f"counts differ on {instance.family}/{instance.name}: {shown} (run trisolve crosscheck)")
    return lines


def panels(outcome: Outcome) -> list[dict[str, Any]]:
    """Per family and task, each backend's (size, wall time, solved) points, for ``plots.portfolio``."""
    out = []
    for (family, task), names in measured_backends(outcome).items():
        runs = [r for t, r in outcome.runs if t == task and r.family == family]
        if not runs:
            continue
        points = {
            backend: [(outcome.instance(r.path).size, r.time, r.solved) for r in runs if r.backend == backend]
            for backend in names
        }
        sizes = ladder(family)
        out.append(
            {
                "title": f"{family}: {'first solution' if task == 'first' else 'exact count'}",
                "unit": sizes.unit if sizes else "size",
                "points": points,
            }
        )
    return out


def outcome_from_json(data: Mapping[str, Any]) -> Outcome:
    """An Outcome from results.json, or from the runs.jsonl journal's lines gathered as
    ``{"instances": [...], "runs": [{"task": ..., **run}], "stops": [...]}``."""
    return Outcome(
        instances=[Instance(**i) for i in data["instances"]],
        runs=[(r["task"], BenchRun.from_json(r)) for r in data["runs"]],
        stops=[Stop(**s) for s in data.get("stops", [])],
        interrupted=bool(data.get("interrupted", False)),
    )


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "instances": [i.to_json() for i in outcome.instances],
        "runs": [{"task": t, **r.to_json()} for t, r in outcome.runs],
        "stops": [asdict(s) for s in outcome.stops],
        "interrupted": outcome.interrupted,
    }


#: the README's block that ``readme_table`` fills (``scripts/write_docs.py`` rewrites it; a test compares the two)
README_START = "<!-- portfolio table: written by scripts/write_docs.py from selection/portfolio.json -->"
README_END = "<!-- end of portfolio table -->"


def readme_table(data: Mapping[str, Any]) -> str:
    """The README's "which backend for which task": per family and task the default (the table's winner)
    with its solved share and wall seconds (median / p90 / worst), and the runner-up."""
    head = data["header"]
    load = head.get("load", {}).get("start")
    lines = [
        README_START,
        "| family | task | default (no `--backend`) | solved | wall s: median / p90 / worst | next best |",
        "|---|---|---|---|---|---|",
    ]
    for family, tasks in data["families"].items():
        for task in TASKS:
            if task not in tasks:
                continue
            rows = tasks[task]["rows"]
            best = rows[0]
            spread = _spread_text(best["wall"], best["solved"])
            runner_up = rows[1]["backend"] if len(rows) > 1 else "–"
            what = "first solution" if task == "first" else "`--count`"
            lines.append(
                f"| {family} | {what} | `{best['backend']}` | {best['solved']}/{best['total']} | {spread} "
                f"| `{runner_up}` |"
            )
    lines += [
        "",
        f"Measured {head.get('date', '?')} by `{head.get('command') or 'trisolve bench --portfolio'}` "
        f"(time limit {head.get('timeout', '?')} s per run, load average {_load(load)} at the start); "
        "every backend, all instances and sizes: [docs/bench/portfolio.md](docs/bench/portfolio.md).",
        # one line for all of them: the README stays short however many families were measured alone
        *([f"Measured at another time: {'; '.join(other_measurements(data))}."] if other_measurements(data) else []),
        README_END,
    ]
    return "\n".join(lines) + "\n"


def replace_readme_table(readme: str, data: Mapping[str, Any]) -> str:
    """``readme`` with its portfolio block rewritten from ``data`` (unchanged when it has no block)."""
    start, end = readme.find(README_START), readme.find(README_END)
    if start < 0 or end < start:
        return readme
    return readme[:start] + readme_table(data) + readme[end + len(README_END) + 1 :]


def table_text(data: Mapping[str, Any]) -> str:
    """The JSON table as it is written (``selection/portfolio.json``, OUT/portfolio.json)."""
    return json.dumps(data, indent=1) + "\n"


# ------------------------------------------------------------------ merging into the shipped table


def stamp(header: Mapping[str, Any]) -> dict[str, Any]:
    """What a table entry or row measured at another time than the table's header says of its measurement."""
    return {key: header.get(key) for key in ("command", "date", "timeout", "seeds", "load")}


def merge(old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> dict[str, Any]:
    """The shipped table after a measurement ``new``: a partial measurement merges, it never replaces.

    Per family and task, a measured entry replaces the table's; the entries
    not measured stay as they were.  Within an entry, the rows of backends
    this measurement did not run (``--backends``, or a solver not installed
    here) stay too, ranked with the new ones, when they were measured on as
    many instances; otherwise they cannot be ranked together, and the merge
    is refused (a ``UsageError``).  Rows of backends trisolve no longer has
    are dropped.

    The header stays the old one unless the measurement covers every entry of
    the old table; whatever was measured at another time than the header says
    carries its own ``measured`` stamp (entry or row), which the page and the
    README show.
    """
    if not old or not isinstance(old.get("families"), dict) or not old["families"]:
        return dict(new)
    covers_all = all(task in new["families"].get(f, {}) for f, tasks in old["families"].items() for task in tasks)
    old_stamp, new_stamp = stamp(old["header"]), stamp(new["header"])
    families = {family: dict(tasks) for family, tasks in old["families"].items()}
    for family, tasks in new["families"].items():
        for task, entry in tasks.items():
            earlier = old["families"].get(family, {}).get(task)
            merged = _merge_entry(family, task, earlier, entry, (earlier or {}).get("measured", old_stamp))
            if not covers_all:
                merged["measured"] = new_stamp
            families.setdefault(family, {})[task] = merged
    header = new["header"] if covers_all else old["header"]
    return {"header": dict(header), "rule": new.get("rule", RULE), "families": families}


def _merge_entry(
    family: str, task: str, earlier: Mapping[str, Any] | None, entry: Mapping[str, Any], earlier_stamp: Any
) -> dict[str, Any]:
    rows = [dict(row) for row in entry["rows"]]
    ran = {row["backend"] for row in rows}
    kept = [row for row in (earlier or {}).get("rows", ()) if row["backend"] not in ran and _still_offered(row, family)]
    if kept:
        assert earlier is not None
        if earlier.get("instances") != entry["instances"]:
            from trisolve.models.errors import UsageError

            names = ", ".join(row["backend"] for row in kept)
            raise UsageError(
                f"{family} {task}: this measurement has {entry['instances']} instances, the table's rows of {names} "
                f"have {earlier.get('instances')}: they cannot be ranked together (measure every backend, "
                "or leave out --write-defaults); nothing was written"
            )
        rows += [{**row, "measured": row.get("measured") or earlier_stamp} for row in kept]
        rows.sort(key=ranking_table.rank_key)
    return {**entry, "default": rows[0]["backend"], "rows": rows}


def _still_offered(row: Mapping[str, Any], family: str) -> bool:
    """Whether trisolve still has the row's backend for the family (installed here or not)."""
    from trisolve.backends import registry

    try:
        return registry.catalog(Spec.parse(row["backend"]).backend, family) is not None
    except Exception:  # noqa: BLE001 - an unknown name, whatever the registry raises for it
        return False


def other_measurements(data: Mapping[str, Any]) -> list[str]:
    """One phrase per measurement other than the one the table's header says: the entries it measured
    (a family's tasks measured together are named together), then each row measured apart from its entry."""
    stamps: list[tuple[Mapping[str, Any], list[str]]] = []
    rows = []
    for family, tasks in data["families"].items():
        for task in TASKS:
            entry = tasks.get(task)
            if entry is None:
                continue
            what = f"{family} {'first solution' if task == 'first' else '`--count`'}"
            if entry.get("measured"):
                same = next((names for stamp, names in stamps if stamp == entry["measured"]), None)
                if same is None:
                    stamps.append((entry["measured"], [what]))
                elif same[-1].startswith(f"{family} "):
                    same[-1] += f" and {'first solution' if task == 'first' else '`--count`'}"
                else:
                    same.append(what)
            for row in entry["rows"]:
                if row.get("measured") and row["measured"] != entry.get("measured"):
                    rows.append(f"{what}, row {row['backend']}: {_when(row['measured'])}")
    return [f"{', '.join(names)}: {_when(stamp)}" for stamp, names in stamps] + rows


def _when(measured: Mapping[str, Any]) -> str:
    start = (measured.get("load") or {}).get("start")
    return (
        f"{measured.get('date') or '?'} by `{measured.get('command') or 'trisolve bench --portfolio'}` "
        f"(time limit {measured.get('timeout', '?')} s per run, load average {_load(start)} at the start)"
    )
