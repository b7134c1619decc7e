"""Score benchmark runs and write them out: CSV, JSON and a markdown report.

Scoring, stated once:

* a run's **time** is what a user waits for the answer (parse + the child
  process run); a run that did not answer (time limit, error, invalid
  solution) scores the **PAR-2** penalty, twice the timeout;
* an (instance, backend) **cell** folds its repeated runs together: solved
  when more than half its runs were, its time the median over its solved
  runs, its PAR-2 score the median over all its runs' scores;
* per backend: instances solved, the median time over solved instances, the
  total time spent (unsolved runs count the time they took), PAR-2 = the mean
  cell score over all instances;
* the **virtual best** takes, per instance, the best cell of any backend:
  what a perfect portfolio (an oracle picking the backend) would score.
"""

from __future__ import annotations

import csv
import math
import os
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .runner import CSV_COLUMNS, BenchRun, Settings, labelled

VIRTUAL_BEST = "virtual best"


@dataclass(frozen=True)
class Cell:
    """One (instance, backend): its runs folded into one score."""

    instance: str
    backend: str
    runs: int
    solved_runs: int
    solved: bool
    #: median time over solved runs (None when the cell is unsolved)
    time: float | None
    #: median PAR-2 score over all runs
    par2: float
    #: median time over all runs, answered or not: what the runs cost
    spent: float
    cpu: float
    peak_rss_mb: float
    #: count text of the runs ("12", "12+"), for count mode
    counts: tuple[str, ...] = ()


@dataclass(frozen=True)
class BackendScore:
    backend: str
    instances: int
    solved: int
    median: float | None
    total: float
    par2: float
    median_cpu: float | None
    peak_rss_mb: float | None
    #: median seconds per phase over solved runs: parse, translate, ground, solve, decode, other
    phases: Mapping[str, float | None]
    #: instances on which this backend was the virtual best's pick
    best_on: int = 0


def penalty(settings: Settings) -> float:
    return 2.0 * settings.timeout


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def percentile(ordered: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of sorted values: the smallest value with ``fraction`` of them at or below it."""
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def distribution(values: Sequence[float], unsolved: int = 0) -> dict[str, float | None]:
    """min, median, p90 and max of run times; ``unsolved`` runs count as slower than any (infinite).

    A tail is what a user meets one run in ten: p90 says it, a median hides it.
    """
    ordered = sorted(values) + [math.inf] * unsolved
    if not ordered:
        return {"runs": 0, "min": None, "median": None, "p90": None, "max": None}
    return {
        "runs": len(ordered),
        "min": ordered[0],
        "median": percentile(ordered, 0.5),
        "p90": percentile(ordered, 0.9),
        "max": ordered[-1],
    }


def cells(runs: Sequence[BenchRun], settings: Settings) -> dict[tuple[str, str], Cell]:
    """Fold the runs of each (instance path, backend) into a Cell."""
    grouped: dict[tuple[str, str], list[BenchRun]] = {}
    for run in runs:
        grouped.setdefault((run.path, run.backend), []).append(run)
    out = {}
    for (path, backend), group in grouped.items():
        solved_runs = [r for r in group if r.solved]
        solved = 2 * len(solved_runs) > len(group)
        out[(path, backend)] = Cell(
            instance=group[0].instance,
            backend=backend,
            runs=len(group),
            solved_runs=len(solved_runs),
            solved=solved,
            time=_median([r.time for r in solved_runs]) if solved else None,
            par2=statistics.median([r.time if r.solved else penalty(settings) for r in group]),
            spent=statistics.median([r.time for r in group]),
            cpu=statistics.median([r.cpu for r in group]),
            peak_rss_mb=max(r.peak_rss_mb for r in group),
            counts=tuple(str(r.count) + ("" if r.complete else "+") for r in group),
        )
    return out


def instance_paths(runs: Sequence[BenchRun]) -> list[str]:
    return list(dict.fromkeys(r.path for r in runs))


def backend_names(runs: Sequence[BenchRun]) -> list[str]:
    """Backends in the order first seen (the plan's first instance lists them unrotated)."""
    return list(dict.fromkeys(r.backend for r in runs))


def virtual_best(
    table: Mapping[tuple[str, str], Cell], paths: Sequence[str], backends: Sequence[str]
) -> dict[str, Cell]:
    """Per instance path, the best cell among the backends (solved first, then fastest)."""
    best = {}
    for path in paths:
        candidates = [table[(path, b)] for b in backends if (path, b) in table]
        if not candidates:
            continue
        best[path] = min(candidates, key=lambda c: (not c.solved, c.time if c.solved else c.par2))
    return best


def score(runs: Sequence[BenchRun], settings: Settings, backends: Sequence[str] | None = None) -> dict[str, Any]:
    """Everything the report shows, as plain data (it also goes into results.json).  With two modes a backend's
    first solutions and its counts are two contenders (``runner.label``)."""
    runs = labelled(runs, settings)
    table = cells(runs, settings)
    paths = instance_paths(runs)
    backends = list(backends) if backends else backend_names(runs)
    best = virtual_best(table, paths, backends)
    scores = []
    for backend in backends:
        row = [table[(p, backend)] for p in paths if (p, backend) in table]
        solved_runs = [r for r in runs if r.backend == backend and r.solved]
        phases = {
            phase: _median([getattr(r, phase) for r in solved_runs if getattr(r, phase) is not None])
            for phase in ("parse", "translate", "ground", "solve", "decode", "other")
        }
        scores.append(
            BackendScore(
                backend=backend,
                instances=len(row),
                solved=sum(c.solved for c in row),
                median=_median([c.time for c in row if c.solved]),
                total=sum(c.spent for c in row),
                par2=sum(c.par2 for c in row) / len(row) if row else 0.0,
                median_cpu=_median([c.cpu for c in row if c.solved]),
                peak_rss_mb=max((c.peak_rss_mb for c in row), default=None),
                phases=phases,
                best_on=sum(1 for c in best.values() if c.backend == backend and c.solved),
            )
        )
    chosen = list(best.values())
    vbs = BackendScore(
        backend=VIRTUAL_BEST,
        instances=len(chosen),
        solved=sum(c.solved for c in chosen),
        median=_median([c.time for c in chosen if c.solved]),
        total=sum(c.time if c.solved else c.spent for c in chosen),
        par2=sum(c.time if c.solved else c.par2 for c in chosen) / len(chosen) if chosen else 0.0,
        median_cpu=None,
        peak_rss_mb=None,
        phases={},
    )
    return {
        "backends": [asdict(s) for s in scores],
        "virtual_best": asdict(vbs),
        "instances": [
            {
                "instance": os.path.splitext(os.path.basename(path))[0],
                "path": path,
                "best": best[path].backend if path in best and best[path].solved else None,
                "cells": {b: asdict(table[(path, b)]) for b in backends if (path, b) in table},
            }
            for path in paths
        ],
        "luck": luck(runs, settings, backends),
        "spread": spread(runs, backends),
        "count_disagreements": count_disagreements(runs),
        "invalid": [{"instance": r.instance, "backend": r.backend, "round": r.round} for r in runs if r.valid is False],
    }


def luck(runs: Sequence[BenchRun], settings: Settings, backends: Sequence[str]) -> list[dict[str, Any]]:
    """Per backend, the distribution over *all* its runs (every seed and shuffle of every instance).

    ``time`` is the whole run (what a user waits), ``solve`` the in-process
    search alone (``solve_cpu`` its CPU seconds), ``cpu`` the whole run's
    CPU seconds (steadier on a shared machine); unsolved runs count as
    slower than any.  The last row is the
    virtual best per run: for each (instance, round), the fastest backend.
    """
    rows = []
    for backend in backends:
        group = [r for r in runs if r.backend == backend]
        rows.append(_luck_row(backend, group, settings))
    per_run: dict[tuple[str, int], BenchRun] = {}
    for run in runs:
        key = (run.path, run.round)
        held = per_run.get(key)
        if held is None or (run.solved, -run.time) > (held.solved, -held.time):
            per_run[key] = run
    if len(backends) > 1:
        rows.append(_luck_row(VIRTUAL_BEST, list(per_run.values()), settings))
    return rows


def _luck_row(backend: str, group: Sequence[BenchRun], settings: Settings) -> dict[str, Any]:
    solved = [r for r in group if r.solved]
    unsolved = len(group) - len(solved)

    def finite(values: dict) -> dict:  # JSON has no infinity: an unsolved tail is null
        return {k: (None if v == math.inf else v) for k, v in values.items()}

    return {
        "backend": backend,
        "runs": len(group),
        "solved": len(solved),
        "time": finite(distribution([r.time for r in solved], unsolved)),
        "solve": finite(distribution([r.solve for r in solved if r.solve is not None], unsolved)),
        "solve_cpu": finite(distribution([r.solve_cpu for r in solved if r.solve_cpu is not None], unsolved)),
        "cpu": finite(distribution([r.cpu for r in solved], unsolved)),
        "par2": sum(r.time if r.solved else penalty(settings) for r in group) / len(group) if group else 0.0,
    }


def quartiles(values: Sequence[float]) -> dict[str, float | None]:
    """min, first quartile, median, third quartile and max (linear interpolation: what a box plot draws)."""
    ordered = sorted(values)
    if not ordered:
        return {"min": None, "q1": None, "median": None, "q3": None, "max": None}
    if len(ordered) == 1:
        q1 = q3 = ordered[0]
    else:
        q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    return {"min": ordered[0], "q1": q1, "median": statistics.median(ordered), "q3": q3, "max": ordered[-1]}


def spread(runs: Sequence[BenchRun], backends: Sequence[str]) -> list[dict[str, Any]]:
    """Per instance and backend, how its runs' times spread over the seeds (and shuffles): the quartiles of the
    solved runs' times (``iqr`` = q3 - q1), and how many of its runs were solved.  What a box plot shows."""
    out = []
    for path in instance_paths(runs):
        for backend in backends:
            group = [r for r in runs if r.path == path and r.backend == backend]
            if not group:
                continue
            times = [r.time for r in group if r.solved]
            shape = quartiles(times)
            iqr = None if shape["q1"] is None else shape["q3"] - shape["q1"]
            out.append(
                {
                    "instance": group[0].instance,
                    "path": path,
                    "backend": backend,
                    "runs": len(group),
                    "solved": len(times),
                    "seeds": sorted(r.seed for r in group),
                    **shape,
                    "iqr": iqr,
                }
            )
    return out


def count_disagreements(runs: Sequence[BenchRun]) -> list[dict]:
    """Instances where complete counts differ between backends (a finding for the cross-checker)."""
    found = []
    for path in instance_paths(runs):
        complete = {r.backend: r.count for r in runs if r.path == path and r.complete and r.mode == "count"}
        if len(set(complete.values())) > 1:
            found.append({"path": path, "counts": complete})
    return found


# ------------------------------------------------------------------ writing


def write_csv(runs: Sequence[BenchRun], path: str) -> None:
    import io

    from trisolve.models import files

    handle = io.StringIO(newline="")
    writer = csv.DictWriter(handle, fieldnames=list(CSV_COLUMNS))
    writer.writeheader()
    for run in runs:
        data = run.to_json()
        writer.writerow({column: _csv_value(data[column]) for column in CSV_COLUMNS})
    files.write_text(path, handle.getvalue(), what="results file")


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return value


def write_json(
    runs: Sequence[BenchRun], summary: Mapping[str, Any], settings: Settings, meta: Mapping[str, Any], path: str
) -> None:
    data = {
        "settings": asdict(settings),
        "penalty_seconds": penalty(settings),
        "meta": dict(meta),
        "summary": summary,
        "runs": [run.to_json() for run in runs],
    }
    from trisolve.models import files

    files.write_text(path, files.dumps(data, indent=1) + "\n", what="results file")


def _s(value: float | None) -> str:
    """Seconds, with about three significant digits."""
    if value is None:
        return "–"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def _luck_lines(rows: Sequence[Mapping[str, Any]], settings: Settings) -> list[str]:
    """The distribution over seeds (and shuffles): a tail one run in ten meets is p90, not the median."""
    if not rows:
        return []

    def spread(values: Mapping[str, Any]) -> str:
        return " / ".join(
            "unsolved" if values.get(k) is None and values.get("runs") else _s(values.get(k))
            for k in ("min", "median", "p90", "max")
        )

    varied = "seed and input shuffle" if settings.shuffle else "seed"
    lines = [
        "",
        f"## Luck: every run, {settings.repeat} per instance and backend, each with its own {varied}",
        "",
        "Nearest-rank percentiles over all runs; an unsolved run counts as slower than any. "
        "time = the whole run, solve = the search alone (in-process, wall and CPU), CPU = the whole run's CPU seconds. "
        "The virtual best takes the fastest backend on each (instance, round).",
        "",
        "| backend | solved runs | time s: min / median / p90 / max | solve s: min / median / p90 / max "
        "| solve CPU s: min / median / p90 / max | CPU s: min / median / p90 / max | PAR-2 s per run |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        name = f"*{row['backend']}*" if row["backend"] == VIRTUAL_BEST else row["backend"]
        lines.append(
            f"| {name} | {row['solved']}/{row['runs']} | {spread(row['time'])} | {spread(row['solve'])} | "
            f"{spread(row.get('solve_cpu', {}))} | {spread(row['cpu'])} | {_s(row['par2'])} |"
        )
    return lines


def _provenance_lines(meta: Mapping[str, Any]) -> list[str]:
    """Where the figures come from, as results.json records it (``bench.provenance``): code, machine, load."""
    lines = []
    if meta.get("trisolve"):
        git = meta.get("git") or {}
        commit = f", commit {git['commit'][:12]}" + (" with local changes" if git.get("changed") else "") if git else ""
        lines.append(f"trisolve {meta['trisolve']}{commit}.")
    machine = [meta.get("cpu_model")]
    if meta.get("memory_bytes"):
        machine.append(f"{meta['memory_bytes'] / 2**30:.1f} GiB memory")
    load = meta.get("load_average") or {}
    if load.get("start"):
        machine.append(
            f"load average {', '.join(f'{x:g}' for x in load['start'])} at the start"
            + (f", {', '.join(f'{x:g}' for x in load['end'])} at the end" if load.get("end") else "")
        )
    if any(machine):
        lines.append("Machine: " + "; ".join(m for m in machine if m) + ".")
    versions = [f"{name} {v}" for name, v in (meta.get("versions") or {}).items() if v]
    if versions:
        lines.append("Versions: " + ", ".join(versions) + ".")
    if meta.get("solvers_reported"):
        lines.append("Solvers the runs reported: " + ", ".join(meta["solvers_reported"]) + ".")
    return [""] + lines if lines else []


def _spread_lines(rows: Sequence[Mapping[str, Any]], settings: Settings) -> list[str]:
    """Per instance and backend, the spread of its run times over the seeds: what the spread plot draws."""
    if settings.repeat < 2 or not rows:
        return []
    varied = "seeds and input shuffles" if settings.shuffle else "seeds"
    lines = [
        "",
        f"## Spread over the {varied}, per instance (time s of solved runs)",
        "",
        "| instance | backend | solved runs | median | IQR (q1–q3) | min–max |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        if row["median"] is None:
            lines.append(f"| {row['instance']} | {row['backend']} | 0/{row['runs']} | – | – | – |")
            continue
        lines.append(
            f"| {row['instance']} | {row['backend']} | {row['solved']}/{row['runs']} | {_s(row['median'])} | "
            f"{_s(row['iqr'])} ({_s(row['q1'])}–{_s(row['q3'])}) | {_s(row['min'])}–{_s(row['max'])} |"
        )
    return lines


def markdown(summary: Mapping[str, Any], settings: Settings, meta: Mapping[str, Any]) -> str:
    """The report: per-backend table with the virtual best, where time goes, per-instance times."""
    rows = summary["backends"]
    vbs = summary["virtual_best"]
    mode = {"first": "first solution", "count": "count all solutions"}.get(
        settings.mode, "first solution and count, side by side"
    )
    runs_word = "run" if settings.repeat == 1 else "runs"
    lines = [
        f"# Benchmark: {mode}, timeout {settings.timeout:g} s, {settings.repeat} {runs_word} per pair",
        "",
        f"{vbs['instances']} instance(s); symmetry breaking {'on' if settings.symmetry_breaking else 'off'}; "
        f"seeds {settings.seed}..{settings.seed + settings.repeat - 1}"
        f"{' with input shuffles' if settings.shuffle else ''}; "
        f"{meta.get('cores', '?')} cores, {meta.get('platform', '')}, Python {meta.get('python', '')}"
        + (f"; {meta['date']}" if meta.get("date") else "")
        + ".",
        *_provenance_lines(meta),
        "",
        *([f"Command: `{meta['command']}`", ""] if meta.get("command") else []),
        f"Time = parse + the whole child process (start, imports, translate, solve, decode), median over "
        f"solved runs. PAR-2 counts an unsolved instance as 2 × {settings.timeout:g} s = {penalty(settings):g} s.",
        "",
        f"| backend | solved | median s | total s | PAR-2 s (timeout {settings.timeout:g} s) | median CPU s | peak "
        "MB |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        peak = "–" if row["peak_rss_mb"] is None else f"{row['peak_rss_mb']:.0f}"
        lines.append(
            f"| {row['backend']} | {row['solved']}/{row['instances']} | {_s(row['median'])} | "
            f"{_s(row['total'])} | {_s(row['par2'])} | {_s(row['median_cpu'])} | {peak} |"
        )
    lines.append(
        f"| *{VIRTUAL_BEST}* | {vbs['solved']}/{vbs['instances']} | {_s(vbs['median'])} | "
        f"{_s(vbs['total'])} | {_s(vbs['par2'])} | | |"
    )
    wins = [f"{row['backend']} {row['best_on']}" for row in rows if row["best_on"]]
    if wins:
        lines += ["", "Virtual best picks: " + ", ".join(wins) + "."]

    lines += _luck_lines(summary.get("luck", []), settings)

    lines += [
        "",
        "## Where the time goes (median seconds per solved run)",
        "",
        "| backend | parse | translate | ground | solve | decode | other | (parse+translate+decode)/solve |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        p = row["phases"]
        overhead = [p.get(k) for k in ("parse", "translate", "decode")]
        ratio = "–"
        if p.get("solve") and all(v is not None for v in overhead):
            ratio = f"{sum(overhead) / p['solve']:.2f}"
        lines.append(
            f"| {row['backend']} | "
            + " | ".join(_s(p.get(k)) for k in ("parse", "translate", "ground", "solve", "decode", "other"))
            + f" | {ratio} |"
        )
    lines += [
        "",
        "`ground` is clingo's grounding (the solver's work, so not counted as overhead); "
        "`other` is process start, solver imports (CP-SAT's is about 0.5 s) and sending the result back. "
        "clingo's `decode` (and CP-SAT's when counting) runs during its `solve`, so it is inside `solve` too.",
    ]

    backends = [row["backend"] for row in rows]
    lines += [
        "",
        "## Per instance (median time of solved runs, s; – unsolved)",
        "",
        "| instance | " + " | ".join(backends) + " | best |",
        "|---|" + "---|" * len(backends) + "---|",
    ]
    for item in summary["instances"]:
        shown = []
        for backend in backends:
            cell = item["cells"].get(backend)
            if cell is None:
                shown.append("")
                continue
            text = _s(cell["time"]) if cell["solved"] else "–"
            counting = settings.mode == "count" or backend.endswith(" (count)")
            if counting and cell["counts"]:
                text += f" ({cell['counts'][0]})"
            shown.append(text)
        lines.append(f"| {item['instance']} | " + " | ".join(shown) + f" | {item['best'] or '–'} |")

    lines += _spread_lines(summary.get("spread", []), settings)

    for problem in summary.get("count_disagreements", []):
        lines += [
            "",
            f"**Counts differ on {problem['path']}**: "
            + ", ".join(f"{b} {c}" for b, c in problem["counts"].items())
            + " (run `trisolve crosscheck` on it).",
        ]
    for item in summary.get("invalid", []):
        lines += ["", f"**Invalid solution** from {item['backend']} on {item['instance']} (round {item['round']})."]
    return "\n".join(lines) + "\n"
