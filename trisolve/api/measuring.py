"""``trisolve bench --portfolio``: every usable backend measured per family and task, ranked into the table the
defaults come from.

``measure_portfolio`` runs the measurement (``trisolve.bench.portfolio``), journaling every run in
``folder/runs.jsonl`` as it finishes; ``read_portfolio`` rebuilds one from its folder (its ``results.json``, or
the journal of a run that was killed); ``Portfolio.save`` writes the folder's table, results, page and plot;
``make_defaults`` merges a measurement into the shipped table ``solve`` takes its defaults from
(``selection/portfolio.json``).  Nothing here writes a page of a source checkout: ``scripts/write_docs.py``
writes docs/bench/portfolio.md and the README's table from the shipped table.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.models import FAMILIES
from trisolve.models.errors import UsageError, shorten

from .levels import instance_files
from .running import new_request

#: seconds per run when no timeout is given
DEFAULT_TIMEOUT = 10.0
#: the files of a measurement's folder
JOURNAL, RESULTS, TABLE, PAGE = "runs.jsonl", "results.json", "portfolio.json", "portfolio.md"


@dataclass(frozen=True)
class Portfolio:
    """One measurement: its runs (``outcome``: ``bench.portfolio.Outcome``), how it was made (``header``:
    command, date, load, time limit, sizes), the ranked ``table`` and the ``findings`` (answers that disagree)."""

    outcome: Any = field(repr=False)
    header: Mapping[str, Any]
    table: Mapping[str, Any] = field(repr=False)
    findings: tuple[str, ...] = ()
    #: the file it was read from (``read_portfolio``), None when just measured
    source: str | None = None

    @property
    def interrupted(self) -> bool:
        """Ctrl-C (or a kill) cut it short: the table covers the runs that finished and is no default."""
        return bool(self.outcome.interrupted)

    def markdown(self, plot: bool = False, shipped: bool = False) -> str:
        """The page: how it was measured, the defaults, a table per family and task (``plot``: with the plot of
        time against size beside it; ``shipped``: the page of the table ``solve`` takes its defaults from)."""
        from trisolve.bench import portfolio

        return portfolio.markdown(self.table, portfolio.PLOT_FILE if plot else None, self.findings, shipped=shipped)

    def panels(self) -> list[dict[str, Any]]:
        """Per family and task, each backend's (size, wall time, solved) points: ``bench.plots.portfolio``'s input."""
        from trisolve.bench import portfolio

        return portfolio.panels(self.outcome)

    def save(self, folder: str | os.PathLike, plot: bytes | None = None, shipped: bool = False) -> str:
        """Write the folder's portfolio.json, results.json, portfolio.md (and ``plot``, a PNG) all or none
        (``files.write_files``); the page written."""
        from trisolve.bench import portfolio
        from trisolve.models import files

        folder = os.fspath(folder)
        page = self.markdown(plot is not None, shipped)
        results = {"header": dict(self.header), **portfolio.outcome_to_json(self.outcome)}
        changes = [
            files.Change.text(os.path.join(folder, TABLE), portfolio.table_text(self.table), "portfolio table"),
            files.Change.text(os.path.join(folder, RESULTS), json.dumps(results, indent=1) + "\n", "results"),
            files.Change.text(os.path.join(folder, PAGE), page, "portfolio page"),
        ]
        if plot is not None:
            changes.append(files.Change(os.path.join(folder, portfolio.PLOT_FILE), plot, "plot"))
        files.write_files(changes)
        return page


def measure_portfolio(
    paths: str | os.PathLike | Iterable[str | os.PathLike] | None = None,
    *,
    families: str | Sequence[str] | None = None,
    tasks: str | Sequence[str] | None = None,
    timeout: float | None = None,
    seeds: int = 3,
    max_size: str | None = None,
    backends: str | Sequence[str] | None = None,
    sat_command: str | None = None,
    folder: str | os.PathLike = "portfolio-results",
    command: str | None = None,
    on_plan: Callable[[Any, Any], None] | None = None,
    on_run: Callable[[str, Any, Any], None] | None = None,
    on_stop: Callable[[Any], None] | None = None,
) -> Portfolio:
    """Measure every usable backend (or those of ``backends``) per family and task (``first``, ``count``) on
    the shipped levels (or the instance files under ``paths``) and on generated levels of growing size (``seeds``
    per size, sizes up to ``max_size``: ``N`` or ``family=size,...``), each run stopped after ``timeout``
    seconds; a backend runs no larger size than the first it leaves unsolved.

    ``folder`` gets the generated levels (``instances/``) and the journal (``runs.jsonl``, a line per run as it
    finishes, the first saying how it was started: ``command``).  ``on_plan(plan, config)`` hears what will
    run (``bench.portfolio.Plan``: its bound on the runs) before the first run, ``on_run(task, run, instance)``
    each run, ``on_stop(stop)`` each backend that stops growing.  Ctrl-C stops at once: the measurement of the
    runs that finished says ``interrupted``.
    """
    new_request()
    from trisolve.bench import portfolio
    from trisolve.models import files
    from trisolve.selection.names import backend_list

    chosen = _known("families", families, list(FAMILIES)) or list(FAMILIES)
    task_list = _known("tasks", tasks, list(portfolio.TASKS)) or list(portfolio.TASKS)
    seeds = numbers.PORTFOLIO_SEEDS.check(seeds, "seeds")
    timeout = numbers.TIMEOUT.check_optional(timeout, "timeout") or DEFAULT_TIMEOUT
    for name, function in (("on_plan", on_plan), ("on_run", on_run), ("on_stop", on_stop)):
        arguments.callback(function, name)
    try:
        limits = portfolio.parse_max_size(arguments.text(max_size, "max_size"), chosen)
    except ValueError as problem:
        raise UsageError(str(problem)) from None
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    found = tuple(instance_files(paths)) if paths else None
    config = portfolio.Config(
        families=tuple(chosen),
        tasks=tuple(task_list),
        timeout=timeout,
        seeds=seeds,
        max_size=limits,
        backends=tuple(backend_list(arguments.backends(backends))),
        sat_command=arguments.text(sat_command, "sat_command"),
        paths=found,
    )
    the_plan = portfolio.plan(config)
    if not the_plan.backends:
        raise UsageError("no usable backend for the families and tasks asked: nothing to measure")
    folder = files.make_folder(arguments.path(folder, "folder") or "", "folder")
    if on_plan is not None:
        on_plan(the_plan, config)
    journal = files.Output(os.path.join(folder, JOURNAL), what="portfolio journal")
    started, load_start = time.monotonic(), portfolio.load_average()
    config_json = {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(config).items()}
    journal.write(json.dumps({"config": config_json, "command": command, "load_start": load_start}) + "\n")

    def ran(task: str, one: Any, instance: Any) -> None:
        journal.write(json.dumps({"task": task, "run": one.to_json()}) + "\n")
        if on_run is not None:
            on_run(task, one, instance)

    def stopped(stop: Any) -> None:
        journal.write(json.dumps({"stop": asdict(stop)}) + "\n")
        if on_stop is not None:
            on_stop(stop)

    try:
        outcome = portfolio.run(
            config,
            the_plan,
            os.path.join(folder, "instances"),
            on_run=ran,
            on_instance=lambda instance: journal.write(json.dumps({"instance": instance.to_json()}) + "\n"),
            on_stop=stopped,
        )
    finally:
        journal.close()
    load = {"start": load_start, "end": portfolio.load_average()}
    return _measured(outcome, portfolio.header(config, command, time.monotonic() - started, load))


def read_portfolio(folder: str | os.PathLike = "portfolio-results") -> Portfolio:
    """A measurement from its folder: its results.json, else the runs.jsonl journal of a run that was killed
    (then it covers the runs that finished, and says ``interrupted``)."""
    from trisolve.bench import portfolio

    folder = os.fspath(arguments.path(folder, "folder") or "")
    source = os.path.join(folder, RESULTS)
    try:
        if os.path.exists(source):
            with open(source, encoding="utf-8") as handle:
                data = json.load(handle)
            head = data["header"]
        else:
            source = os.path.join(folder, JOURNAL)
            data, head = _read_journal(source)
        outcome = portfolio.outcome_from_json(data)
    except (OSError, ValueError, KeyError, TypeError) as problem:
        raise UsageError(f"{source}: cannot be read as portfolio results ({problem})") from None
    return _measured(outcome, head, source)


def make_defaults(measured: Portfolio) -> str:
    """Merge ``measured`` into the shipped table ``solve`` takes its defaults from (``selection/portfolio.json``;
    ``bench.portfolio.merge``: a measurement of some families or tasks replaces only their entries), written
    whole or not at all; the table's path.  A measurement cut short is refused."""
    from trisolve.bench import portfolio
    from trisolve.models import files
    from trisolve.selection import table

    if measured.interrupted:
        where = f"{measured.source}: " if measured.source else ""
        raise UsageError(f"{where}the run was cut short: its table is not written as the defaults")
    path = table.TABLE_PATH
    old = files.read_json(path, what="portfolio table") if os.path.lexists(path) else None
    merged = portfolio.merge(old, measured.table)
    files.write_files([files.Change.text(path, portfolio.table_text(merged), "defaults table", updating=True)])
    return path


def _measured(outcome: Any, head: Mapping[str, Any], source: str | None = None) -> Portfolio:
    from trisolve.bench import portfolio

    data = portfolio.table(outcome, head)
    if not data["families"]:
        raise UsageError("no run finished: no table to write")
    return Portfolio(outcome, dict(head), data, tuple(portfolio.findings(outcome)), source)


def _read_journal(path: str) -> tuple[dict, dict]:
    from trisolve.bench import portfolio
    from trisolve.crosscheck.jsonl import read_lines

    first, *lines = read_lines(path)
    config = portfolio.Config(**first["config"])
    head = portfolio.header(config, first.get("command"), 0.0, {"start": first.get("load_start"), "end": None})
    head["seconds"] = None
    data = {
        "instances": [line["instance"] for line in lines if "instance" in line],
        "runs": [{"task": line["task"], **line["run"]} for line in lines if "run" in line],
        "stops": [line["stop"] for line in lines if "stop" in line],
        "interrupted": True,
    }
    return data, head


def _known(what: str, value: str | Sequence[str] | None, known: list[str]) -> list[str]:
    """Names given as a list or one comma-separated string, each one of ``known``."""
    if isinstance(value, str):
        value = value.split(",")
    if value is not None and not (isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)):
        raise UsageError(f"{what} must be names (a comma-separated string or a list), not {shorten(repr(value))}")
    names = [name.strip() for name in value or () if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise UsageError(f"{what}: unknown {', '.join(shorten(n) for n in unknown)}; known: {', '.join(known)}")
    return names
