"""``trisolve bench``: time backends against each other on instance files (``benchmark``), and read a benchmark
back from its folder (``read_benchmark``: its results.json, or the journal of one that was killed)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.models import FAMILIES
from trisolve.models.errors import TrisolveError, UsageError, shorten

from .levels import Level, levels_of
from .running import new_request

if TYPE_CHECKING:
    from trisolve.bench.runner import BenchRun

#: the files of a benchmark's folder that ``read_benchmark`` reads
RESULTS, JOURNAL = "results.json", "runs.jsonl"


@dataclass(frozen=True)
class Benchmark:
    """Every run of a benchmark and their scores (solved, median, PAR-2, virtual best)."""

    runs: tuple[BenchRun, ...]
    summary: Mapping[str, Any] = field(repr=False)
    settings: Any = field(repr=False)
    #: the benchmarked ``backend:variant`` names, in table order
    backends: tuple[str, ...] = ()
    #: Ctrl-C (or SIGTERM) stopped it part way: ``runs`` are those that finished, of ``planned``
    interrupted: bool = False
    planned: int = 0
    #: where the figures come from (machine, load, versions, command), as results.json keeps it
    meta: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def markdown(self, meta: Mapping[str, Any] | None = None) -> str:
        """The report ``trisolve bench`` prints and writes to summary.md."""
        from trisolve.bench.provenance import machine
        from trisolve.bench.summary import markdown

        return markdown(self.summary, self.settings, dict(meta or self.meta or machine()))

    def write(self, folder: str | os.PathLike, meta: Mapping[str, Any]) -> None:
        """results.csv (a row per run) and results.json (settings, ``meta``, the scores, the runs) in ``folder``."""
        from trisolve.bench.summary import write_csv, write_json

        write_csv(self.runs, os.path.join(folder, "results.csv"))
        write_json(self.runs, self.summary, self.settings, meta, os.path.join(folder, RESULTS))


def benchmark(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    backends: str | Sequence[str] | None = None,
    *,
    repeat: int = 3,
    timeout: float = 60.0,
    mode: str = "first",
    symmetry_breaking: bool = False,
    seed: int = 0,
    shuffle: bool = False,
    sat_command: str | None = None,
    family: str | None = None,
    count_backends: str | Sequence[str] | None = None,
    on_planned: Callable[[int, Any, list[str]], None] | None = None,
    on_run: Callable[[int, BenchRun], None] | None = None,
    skipped: Callable[[str], None] | None = None,
    log: str | os.PathLike | None = None,
) -> Benchmark:
    """Time backends on instance files: each (instance, backend, round) a child process forked
    from this one (so a solver this process has not imported yet is imported in every run's
    time, as for the command); ``mode`` is ``first`` (first solution), ``count`` (exact count), or
    ``first,count``: both, side by side, a backend in each mode a contender of its own ("dp:frontier (count)");
    ``count_backends`` are the backends of the counts then (default: ``backends``, else the defaults).

    Default backends: each paradigm's default (and ``dp`` when counting).
    Round r uses seed + r (with ``shuffle``, also to reorder each backend's input);
    backends are interleaved so machine drift hits all alike.
    ``on_planned`` hears (runs, settings, backends) before the first run, ``on_run``
    each run as it finishes, ``skipped`` each default backend left out as unusable.  ``log`` is a journal
    written as runs finish (JSON lines: the settings and backends, then a run a line), which
    ``read_benchmark`` reads back when the benchmark was killed before its results were written.
    Ctrl-C stops the run in progress at once: the Benchmark of the runs that finished says
    ``interrupted`` (and how many were ``planned``).
    """
    new_request()
    from trisolve.bench.runner import Settings, label, plan, run_all
    from trisolve.bench.summary import score
    from trisolve.selection.names import backend_list, bench_backends

    repeat = numbers.COUNT.check(repeat, "repeat")
    timeout = numbers.TIMEOUT.check(timeout, "timeout")
    seed = numbers.seeds(seed, repeat)
    mode = arguments.choice(mode, "mode", ("first", "count", "first,count", "count,first"))
    symmetry_breaking, shuffle = (
        arguments.flag(symmetry_breaking, "symmetry_breaking"),
        arguments.flag(shuffle, "shuffle"),
    )
    sat_command = arguments.text(sat_command, "sat_command")
    for name, function in (("on_planned", on_planned), ("on_run", on_run), ("skipped", skipped)):
        arguments.callback(function, name)
    log = arguments.path(log, "log")
    backends = backend_list(arguments.backends(backends))
    files = levels_of(arguments.levels(levels, Level), arguments.text(family, "family"))
    if any(level.path is None for level in files):
        raise UsageError("bench times parsing too: give instance files, not text")
    try:
        settings = Settings(
            timeout=timeout,
            repeat=repeat,
            mode=mode,
            symmetry_breaking=symmetry_breaking,
            seed=seed,
            shuffle=shuffle,
            sat_command=sat_command,
        )
    except ValueError as problem:
        raise UsageError(str(problem)) from None
    count_backends = backend_list(count_backends) or backends
    chosen: dict[tuple[str, str], list[str]] = {}  # (family, mode) -> backends
    for one in settings.modes:
        for level in files:
            if (level.family, one) not in chosen:
                specs = list((count_backends if one == "count" else backends) or ())
                chosen[level.family, one] = bench_backends(level.family, specs, sat_command, one, skipped)
    pairs = [(level.path, level.family) for level in files]
    trials = plan(pairs, lambda name, one: chosen[name, one], repeat, settings.modes)
    order = list(dict.fromkeys(label(b, one, settings) for (_, one), names in chosen.items() for b in names))
    journal = _Journal(log)
    try:
        if on_planned is not None:
            on_planned(len(trials), settings, order)
        journal.write({"settings": asdict(settings), "backends": order})

        def finished(index: int, run: BenchRun) -> None:
            journal.write(run.to_json())  # at once: a killed benchmark keeps it (``read_benchmark``)
            if on_run is not None:
                on_run(index, run)

        families = {level.family: FAMILIES[level.family] for level in files}
        runs = run_all(trials, families, settings, on_run=finished)
    finally:
        journal.close()
    from trisolve.runs import interrupted

    stopped = interrupted()
    return Benchmark(tuple(runs), score(runs, settings, order), settings, tuple(order), stopped, len(trials))


def read_benchmark(folder: str | os.PathLike) -> Benchmark:
    """A benchmark from its folder, scored afresh: results.json, else the runs.jsonl journal of one that was
    killed before it could write results.json (then ``interrupted``; its meta says ``partial``)."""
    from trisolve.bench.runner import BenchRun, Settings
    from trisolve.bench.summary import score
    from trisolve.crosscheck.jsonl import read_lines
    from trisolve.models import files

    folder = os.fspath(arguments.path(folder, "folder") or "")
    source = os.path.join(folder, RESULTS)
    try:
        if os.path.lexists(source):
            data = files.read_json(source, what="bench results file")
        else:
            source = os.path.join(folder, JOURNAL)
            header, *lines = read_lines(source)
            meta = {"backends": header["backends"], "partial": True}
            data = {"settings": header["settings"], "meta": meta, "runs": lines}
        settings = Settings(**data["settings"])
        runs = [BenchRun.from_json(run) for run in data["runs"]]
        meta = dict(data.get("meta", {}))
    except TrisolveError:
        raise
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as problem:
        raise UsageError(f"{source}: cannot be read as bench results ({shorten(problem, 200)})") from None
    order = meta.get("backends") or list(dict.fromkeys(r.backend for r in runs))
    summary = score(runs, settings, order)
    return Benchmark(tuple(runs), summary, settings, tuple(order), bool(meta.get("partial")), len(runs), meta)


class _Journal:
    """``log`` as JSON lines, one record a line, or nothing without one."""

    def __init__(self, path: str | os.PathLike | None) -> None:
        from trisolve.models import files

        self.output = None if path is None else files.Output(path, what="bench journal")

    def write(self, record: Mapping[str, Any]) -> None:
        if self.output is not None:
            from trisolve.models import files

            self.output.write(files.dumps(record) + "\n")

    def close(self) -> None:
        if self.output is not None:
            self.output.close()
