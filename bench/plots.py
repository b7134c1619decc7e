"""Cactus, ECDF, scatter and spread plots of a benchmark (matplotlib, imported only here).

They read the scored cells and the runs (see ``summary``), so the plots and the tables always show the same
numbers.  Each plot is written three times, as PNG (to look at), SVG and PDF (to print: vector graphics,
fonts as text): ``cactus.png``, ``cactus.svg``, ``cactus.pdf``.  With one instance a cactus (instances solved
against time) and a scatter (one point) say nothing: then the cactus shows each contender's times over the
seeds as a bar with its range, and the scatter pairs the two contenders run by run (seed by seed).
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from trisolve.backends.spec import Spec
from trisolve.models.errors import UsageError

from .summary import VIRTUAL_BEST


class PlotsUnavailable(UsageError):
    """matplotlib is missing; the message says how to install it."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PlotsUnavailable(
            "the plots need matplotlib: pip install 'trisolve[bench]' (or pip install matplotlib)"
        ) from None
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def _solved_times(summary: Mapping[str, Any], backend: str) -> list[float]:
    times = []
    for item in summary["instances"]:
        cell = item["cells"].get(backend)
        if cell is not None and cell["solved"]:
            times.append(cell["time"])
    return sorted(times)


def _best_times(summary: Mapping[str, Any]) -> list[float]:
    times = []
    for item in summary["instances"]:
        solved = [c["time"] for c in item["cells"].values() if c["solved"]]
        if solved:
            times.append(min(solved))
    return sorted(times)


#: the formats every plot is written in: PNG to look at, SVG and PDF (vector) to print
FORMATS = ("png", "svg", "pdf")


def written(path: str) -> list[str]:
    """The files a plot drawn to ``path`` (``.png``) is written as."""
    stem = os.path.splitext(path)[0]
    return [f"{stem}.{suffix}" for suffix in FORMATS]


def _png(plt: Any, figure: Any, dpi: int) -> bytes:
    """The figure as PNG bytes (then closed): drawn in memory, so a file is only ever written whole."""
    import io

    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=dpi)
    finally:
        plt.close(figure)
    return buffer.getvalue()


def _save(plt: Any, figure: Any, path: str, dpi: int = 120) -> None:
    """``path`` (PNG) and its SVG and PDF twins, each drawn in memory and written whole (``models.files``);
    fonts stay text in the SVG and the PDF."""
    import io

    import matplotlib

    from trisolve.models import files

    try:
        with matplotlib.rc_context({"svg.fonttype": "none", "pdf.fonttype": 42}):
            for target in written(path):
                buffer = io.BytesIO()
                figure.savefig(buffer, format=os.path.splitext(target)[1][1:], dpi=dpi)
                files.write_bytes(target, buffer.getvalue(), what="plot")
    finally:
        plt.close(figure)


def cactus(summary: Mapping[str, Any], timeout: float, path: str, title: str = "") -> None:
    """Instances solved (y) within a time (x), one line per backend, and the virtual best as a broad pale band
    underneath (drawn first, so that it never hides a backend whose line it follows).  With one instance, the
    contenders' times over the seeds (``times``) instead."""
    if len(summary["instances"]) == 1:
        return times(summary, timeout, path, title)
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7, 4.5))
    lines = [(row["backend"], _solved_times(summary, row["backend"])) for row in summary["backends"]]
    best = _best_times(summary) if len(summary["backends"]) > 1 else None
    smallest = min([t for _, ts in lines for t in ts] + (best or []), default=timeout)
    if best is not None:
        axes.step(
            [smallest] + best,
            [0] + list(range(1, len(best) + 1)),
            where="post",
            color="grey",
            alpha=0.3,
            linewidth=6,
            zorder=1,
            label=f"{VIRTUAL_BEST} ({len(best)})",
        )
    styles = ["-", "--", "-.", ":"]
    for index, (name, solved) in enumerate(lines):
        # a step up at each solving time: (t_i, i) for the i-th fastest solved instance
        xs = [smallest] + solved
        ys = [0] + list(range(1, len(solved) + 1))
        axes.step(
            xs,
            ys,
            where="post",
            linestyle=styles[(index // 10) % len(styles)],
            marker="." if len(solved) < 60 else None,
            zorder=2,
            label=f"{name} ({len(solved)})",
        )
    axes.axvline(timeout, color="grey", linewidth=0.8, linestyle=":")
    axes.text(
        timeout,
        len(summary["instances"]),
        f"timeout {timeout:g} s ",
        color="dimgrey",
        fontsize=8,
        va="top",
        ha="right",
        rotation=90,
    )
    if timeout / max(smallest, 1e-6) > 20:
        axes.set_xscale("log")
    from matplotlib.ticker import MaxNLocator

    instances = len(summary["instances"])
    axes.set_ylim(0, instances + 0.5)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    _finish(
        plt,
        figure,
        axes,
        path,
        "time per instance, s (parse + whole run, median of solved runs)",
        f"instances solved (of {instances})",
        title or "Instances solved vs. time",
    )


def _finish(plt: Any, figure: Any, axes: Any, path: str, xlabel: str, ylabel: str, title: str) -> None:
    """Labels, grid and legend of a time plot (cactus, ECDF), then its files."""
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=10)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    _save(plt, figure, path)


def times(summary: Mapping[str, Any], timeout: float, path: str, title: str = "") -> None:
    """One bar per contender: the median time of its solved runs, a line from the fastest to the slowest, and
    how many runs it solved (what a cactus of one instance would hide in a single step)."""
    plt = _pyplot()
    rows = [r for r in summary.get("spread", []) if r["path"] == summary["instances"][0]["path"]]
    figure, axes = plt.subplots(figsize=(7, 1.2 + 0.45 * max(1, len(rows))))
    for y, row in enumerate(rows):
        if row["median"] is None:
            axes.text(timeout, y, " unsolved", va="center", ha="right", fontsize=8, color="tab:red")
            continue
        axes.barh(y, row["median"], color=f"C{y % 10}", alpha=0.7)
        axes.plot([row["min"], row["max"]], [y, y], color="black", linewidth=1)
        axes.text(row["max"], y, f"  {row['solved']}/{row['runs']} solved", va="center", fontsize=8)
    axes.set_yticks(range(len(rows)), [r["backend"] for r in rows])
    axes.invert_yaxis()
    axes.axvline(timeout, color="grey", linewidth=0.8, linestyle=":")
    smallest = min((r["min"] for r in rows if r["min"] is not None), default=timeout)
    if timeout / max(smallest, 1e-6) > 20:
        axes.set_xscale("log")
    axes.set_xlabel("time per run, s (bar: median of solved runs; line: fastest to slowest)")
    axes.set_title(title or f"{summary['instances'][0]['instance']}: time over the seeds", fontsize=10)
    axes.grid(True, axis="x", which="both", alpha=0.3)
    figure.tight_layout()
    _save(plt, figure, path)


def scatter(
    summary: Mapping[str, Any],
    first: str,
    second: str,
    timeout: float,
    path: str,
    runs: Sequence[Any] | None = None,
) -> None:
    """Per-instance times of two backends; unsolved instances sit on the 2 x timeout line.  With one instance
    (and ``runs``, as ``runner.labelled`` names them): one point per round, the two runs of the same seed."""
    plt = _pyplot()
    penalty = 2.0 * timeout
    points = []
    per_run = len(summary["instances"]) == 1 and runs is not None
    if per_run:
        by_round: dict[int, dict[str, Any]] = {}
        for run in runs or ():
            by_round.setdefault(run.round, {})[run.backend] = run
        for pair in by_round.values():
            a, b = pair.get(first), pair.get(second)
            if a is not None and b is not None:
                points.append((a.time if a.solved else penalty, b.time if b.solved else penalty, a.solved and b.solved))
    for item in summary["instances"] if not per_run else ():
        a, b = item["cells"].get(first), item["cells"].get(second)
        if a is None or b is None:
            continue
        points.append(
            (a["time"] if a["solved"] else penalty, b["time"] if b["solved"] else penalty, a["solved"] and b["solved"])
        )
    figure, axes = plt.subplots(figsize=(5, 5))
    both = [(x, y) for x, y, ok in points if ok]
    either = [(x, y) for x, y, ok in points if not ok]
    if both:
        axes.scatter(*zip(*both), s=18, label="both solved")
    if either:
        axes.scatter(*zip(*either), s=24, marker="x", color="tab:red", label="unsolved by one (at 2 × timeout)")
    low = min([v for x, y, _ in points for v in (x, y)] + [timeout]) / 2
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, penalty * 1.5)
    axes.set_ylim(low, penalty * 1.5)
    axes.plot([low, penalty * 1.5], [low, penalty * 1.5], color="grey", linewidth=0.8)
    for line in (axes.axvline, axes.axhline):
        line(timeout, color="grey", linewidth=0.8, linestyle=":")
    axes.set_xlabel(f"{first}: time, s")
    axes.set_ylabel(f"{second}: time, s")
    where = f"{summary['instances'][0]['instance']}, one point per seed" if per_run else "per instance"
    axes.set_title(f"{first} vs. {second}\n{where}", fontsize=10)
    axes.set_aspect("equal")
    axes.grid(True, which="both", alpha=0.3)
    if points:
        axes.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    _save(plt, figure, path)


def spread(runs: Sequence[Any], backends: Sequence[str], timeout: float, path: str, title: str = "") -> None:
    """Per instance, each contender's run times over the seeds: a box (quartiles, whiskers to the extremes) over
    the points of its runs; an unsolved run is a cross on the time limit.  ``runs`` as ``runner.labelled``
    names them."""
    plt = _pyplot()
    paths = list(dict.fromkeys(r.path for r in runs))
    width = 0.8 / max(1, len(backends))
    figure, axes = plt.subplots(figsize=(max(6.0, 0.5 + len(paths) * (0.35 + 0.3 * len(backends))), 4.5))
    smallest = min((r.time for r in runs if r.solved), default=timeout)
    for k, backend in enumerate(backends):
        colour = f"C{k % 10}"
        for i, instance in enumerate(paths):
            group = [r for r in runs if r.path == instance and r.backend == backend]
            x = i + (k - (len(backends) - 1) / 2) * width
            solved = [r.time for r in group if r.solved]
            if len(solved) > 1:
                box = axes.boxplot(
                    [solved], positions=[x], widths=width * 0.8, whis=(0, 100), patch_artist=True, manage_ticks=False
                )
                for patch in box["boxes"]:
                    patch.set(facecolor=colour, alpha=0.35, edgecolor=colour)
                for part in ("whiskers", "caps", "medians"):
                    for line in box[part]:
                        line.set(color=colour)
            axes.scatter([x] * len(solved), solved, s=10, color=colour, zorder=3)
            missed = len(group) - len(solved)
            if missed:
                axes.scatter([x] * missed, [timeout] * missed, s=24, marker="x", color=colour, zorder=3)
        axes.plot([], [], color=colour, linewidth=6, alpha=0.5, label=backend)
    axes.axhline(timeout, color="grey", linewidth=0.8, linestyle=":")
    if timeout / max(smallest, 1e-6) > 20:
        axes.set_yscale("log")
    names = [os.path.splitext(os.path.basename(p))[0] for p in paths]
    axes.set_xticks(
        range(len(paths)), names, rotation=45 if len(paths) > 6 else 0, ha="right" if len(paths) > 6 else "center"
    )
    axes.set_ylabel("time per run, s (x: unsolved, at the limit)")
    axes.set_title(title or "Run times over the seeds, per instance", fontsize=10)
    axes.grid(True, axis="y", which="both", alpha=0.3)
    axes.legend(fontsize=8, loc="best")
    figure.tight_layout()
    _save(plt, figure, path)


def ecdf(runs: Sequence[Any], backends: Sequence[str], timeout: float, path: str, title: str = "") -> None:
    """Each backend's run-time distribution over seeds (and shuffles): the share of runs done within x.

    Where the cactus plot folds a backend's repeats into one median per
    instance, this keeps every run, so a heavy tail shows as a line that
    creeps up to 100 % far to the right (or never gets there).
    """
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7, 4.5))
    smallest = min((r.time for r in runs if r.solved), default=timeout)
    for backend in backends:
        group = [r for r in runs if r.backend == backend]
        if not group:
            continue
        times = sorted(r.time for r in group if r.solved)
        xs = [smallest] + times
        ys = [0.0] + [(i + 1) / len(group) for i in range(len(times))]
        axes.step(xs, ys, where="post", label=f"{backend} ({len(times)}/{len(group)} runs)")
    axes.axvline(timeout, color="grey", linewidth=0.8, linestyle=":")
    if timeout / max(smallest, 1e-6) > 20:
        axes.set_xscale("log")
    axes.set_ylim(0, 1.02)
    _finish(
        plt,
        figure,
        axes,
        path,
        "time per run, s (parse + whole run)",
        "share of runs finished",
        title or "Run-time distribution over seeds",
    )


def portfolio(panels: Sequence[Mapping[str, Any]], timeout: float, columns: int = 2) -> bytes:
    """Each paradigm's time against instance size, as PNG bytes: one panel per family and task
    (``portfolio.panels``).  Bytes, not a file: the caller writes them with the table they belong to.

    Every run is a point (slightly offset per backend so they do not hide each other); an unsolved run is a
    cross on the dotted limit line; the line joins each backend's median per size, an unsolved run counting
    as beyond the limit (the line leaves the panel where most runs of a size were unsolved).
    """
    plt = _pyplot()
    rows = max(1, -(-len(panels) // columns))
    figure, grid = plt.subplots(rows, columns, figsize=(6 * columns, 3.8 * rows), squeeze=False)
    ceiling = timeout * 1.6
    # one colour per backend (paradigm) in every panel, whatever its variant for the family
    names = list(dict.fromkeys(Spec.parse(b).backend for panel in panels for b in panel["points"]))
    colours = {name: f"C{i % 10}" for i, name in enumerate(names)}
    for axes, panel in zip(grid.flat, panels):
        sizes = sorted({s for points in panel["points"].values() for s, _, _ in points if s is not None})
        step = (sizes[-1] - sizes[0]) / 60 if len(sizes) > 1 else 0.05
        smallest = timeout
        for offset, (backend, points) in enumerate(panel["points"].items()):
            points = [(s, t, ok) for s, t, ok in points if s is not None]
            if not points:
                continue
            shift = (offset - (len(panel["points"]) - 1) / 2) * step
            solved = [(s + shift, t) for s, t, ok in points if ok]
            missed = [(s + shift, timeout) for s, _, ok in points if not ok]
            colour = colours[Spec.parse(backend).backend]
            if solved:
                axes.scatter(*zip(*solved), s=9, alpha=0.45, color=colour)
                smallest = min(smallest, min(t for _, t in solved))
            if missed:
                axes.scatter(*zip(*missed), s=16, marker="x", alpha=0.6, color=colour)
            line = []
            for size in sorted({s for s, _, _ in points}):
                middle = statistics.median(t if ok else math.inf for s, t, ok in points if s == size)
                line.append((size + shift, min(middle, ceiling)))
            solved_count = sum(ok for _, _, ok in points)
            axes.plot(*zip(*line), color=colour, linewidth=1.2, label=f"{backend} ({solved_count}/{len(points)})")
        axes.axhline(timeout, color="grey", linewidth=0.8, linestyle=":")
        axes.set_yscale("log")
        axes.set_ylim(max(min(smallest, timeout) / 2, 1e-3), ceiling)
        axes.set_xlabel(panel["unit"])
        axes.set_ylabel("wall s per run")
        axes.set_title(panel["title"])
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(loc="lower right", fontsize=7)
    for axes in list(grid.flat)[len(panels) :]:
        axes.set_visible(False)
    figure.suptitle(f"Time against instance size (limit {timeout:g} s, dotted; x: unsolved)", fontsize=11)
    figure.tight_layout()
    return _png(plt, figure, 80)
