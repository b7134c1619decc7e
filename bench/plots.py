"""Cactus and scatter plots of a benchmark (matplotlib, imported only here).

Both read the scored cells (see ``summary``), so the plots and the tables
always show the same numbers.
"""

from __future__ import annotations

import math
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


def cactus(summary: Mapping[str, Any], timeout: float, path: str, title: str = "") -> None:
    """Instances solved (y) within a time (x), one line per backend and a dashed virtual best."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7, 4.5))
    lines = [(row["backend"], _solved_times(summary, row["backend"]), "-") for row in summary["backends"]]
    if len(summary["backends"]) > 1:
        lines.append((VIRTUAL_BEST, _best_times(summary), "--"))
    smallest = min((t for _, times, _ in lines for t in times), default=timeout)
    for name, times, style in lines:
        # a step up at each solving time: (t_i, i) for the i-th fastest solved instance
        xs = [smallest] + times
        ys = [0] + list(range(1, len(times) + 1))
        axes.step(
            xs,
            ys,
            where="post",
            linestyle=style,
            marker="." if len(times) < 60 else None,
            label=f"{name} ({len(times)})",
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
    """Labels, grid and legend of a time plot (cactus, ECDF), then the PNG file."""
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    _save(plt, figure, path, 120)


def _png(plt: Any, figure: Any, dpi: int) -> bytes:
    """The figure as PNG bytes (then closed): drawn in memory, so a file is only ever written whole."""
    import io

    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=dpi)
    finally:
        plt.close(figure)
    return buffer.getvalue()


def _save(plt: Any, figure: Any, path: str, dpi: int) -> None:
    from trisolve.models import files

    files.write_bytes(path, _png(plt, figure, dpi), what="plot")


def scatter(summary: Mapping[str, Any], first: str, second: str, timeout: float, path: str) -> None:
    """Per-instance times of two backends; unsolved instances sit on the 2 x timeout line."""
    plt = _pyplot()
    penalty = 2.0 * timeout
    points = []
    for item in summary["instances"]:
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
    axes.set_title(f"{first} vs. {second} per instance")
    axes.set_aspect("equal")
    axes.grid(True, which="both", alpha=0.3)
    if points:
        axes.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    _save(plt, figure, path, 120)


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
