"""The one progress reporter of every long command (crosscheck, campaign, mutate, bench, generate, solve --count).

A user who starts a command that runs for minutes must see that it is alive and when it will end, in a
terminal and out of one (a CI log, ``2> file``, a pipe): done/total, elapsed and time left.

* On a terminal: a rich bar on stderr (done/total, elapsed, time left, what finished last).
* Otherwise: a plain line on stderr at least every ``interval`` seconds (``INTERVAL``, 10 s) while
  the work lasts, whether or not a run finished meanwhile (a heartbeat thread wakes up to print it),
  and one when it ends if any was printed: work done within the interval prints none.  Lines, not
  carriage returns: logs stay readable.
* ``--quiet`` (or ``--json``, whose stdout a program reads): nothing.

The reporter takes its clock and its interval as arguments, so a test holds the "every 10 s" rule
with a fake clock (``tick``) instead of waiting.  Colour follows the usual conventions
(``colour_wanted``): ``--colour``/``--no-colour`` first, then ``NO_COLOR``, then ``FORCE_COLOR``,
then whether the stream is a terminal.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

#: At most this many seconds between two plain progress lines (the rule issue 22 sets).
INTERVAL = 10.0


def colour_wanted(flag: bool | None = None, stream: IO[str] | None = None) -> bool:
    """Whether to write colour to ``stream`` (default stdout): ``flag`` (``--colour``/``--no-colour``) when
    given; else no when ``NO_COLOR`` is set (https://no-color.org), yes when ``FORCE_COLOR`` is set (and not
    ``0``); else when the stream is a terminal."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force is not None and force not in ("", "0"):
        return True
    stream = sys.stdout if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def clock_text(seconds: float) -> str:
    """``1:05`` or ``1:02:03``: short enough for a progress line."""
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Done/total, elapsed and time left of one command's work, on stderr (see the module docstring).

    ``phase(label, total)`` starts a stretch of work (``generating``, ``cross-checking``); ``advance``
    marks units done (``note`` says which, e.g. the run that finished).  ``unit`` names what is counted
    (``runs``, ``levels``).  ``bar`` chooses the rich bar (default: when ``stream`` is a terminal);
    ``heartbeat`` starts the thread that prints the plain line on time when nothing finishes.  Use it as
    a context manager, or call ``close``.
    """

    def __init__(
        self,
        command: str,
        *,
        quiet: bool = False,
        stream: IO[str] | None = None,
        bar: bool | None = None,
        colour: bool | None = None,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        heartbeat: bool = True,
        unit: str = "runs",
    ) -> None:
        self.command, self.quiet, self.interval, self.clock, self.unit = command, quiet, interval, clock, unit
        self.stream = sys.stderr if stream is None else stream
        terminal = _isatty(self.stream)
        self.bar = (terminal if bar is None else bar) and not quiet
        self.colour = colour_wanted(colour, self.stream)
        self.label, self.total, self.done, self.note = "", None, 0, ""
        #: seconds one unit of the phase takes at most, when that is known (``shrinking``)
        self.most: float | None = None
        self.started = self.phase_started = self.unit_started = clock()
        #: the pace is measured over a stretch: from (when, units done) to the last unit done (``last_done``);
        #: a backend's own reports may start a new stretch of another length (dp's halves: steps, then the walk)
        self.stretch: tuple[float, int] = (self.started, 0)
        self.last_done = self.started
        #: seconds one unit may take at most, and how many run at a time (``bounds``): the "at most" figure
        self.unit_limit: float | None = None
        self.parallel = 1
        #: when the last plain line was printed (at first: the start, so the first is due one interval later)
        self.last_line = self.started
        self.printed = False
        self._lock = threading.RLock()
        self._rich: Any = None
        self._task: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if heartbeat and not quiet:  # the plain line on time; on a terminal, the bar's clock kept current
            self._thread = threading.Thread(target=self._beat, name="trisolve-progress", daemon=True)
            self._thread.start()

    # ------------------------------------------------------------ what the commands call

    def phase(self, label: str, total: int | None = None, unit: str | None = None) -> None:
        """A new stretch of work: ``total`` units (None: not known yet)."""
        with self._lock:
            self.label, self.total, self.done, self.note, self.most = label, total, 0, "", None
            self.unit = unit or self.unit
            self.phase_started = self.clock()
            self.stretch, self.last_done = (self.phase_started, 0), self.phase_started
            if self.bar and not self.quiet:
                self._bar_phase()

    def start(self, total: int) -> None:
        """The number of units of the current phase, once known (the ``on_planned`` callbacks)."""
        with self._lock:
            if not self.label:
                self.phase(self.command, total)
                return
            self.total = total
            if self.bar and not self.quiet:
                self._bar_update()

    def advance(self, units: int = 1, note: str = "") -> None:
        """``units`` more done; a plain line is printed only when one is due (``interval``)."""
        with self._lock:
            self.done += units
            if units > 0:
                self.last_done = self.clock()
            self.note = note or self.note
            if self.quiet:
                return
            if self.bar:
                self._bar_update()
            else:
                self.tick()

    def completed(self, done: int, note: str = "") -> None:
        """``done`` units done so far (for callers that count themselves)."""
        self.advance(done - self.done, note)

    def note_only(self, note: str) -> None:
        """What is going on now, with nothing done yet (an attempt of a level being generated): the note of the
        next line, printed when one is due."""
        self.advance(0, note)

    def shrinking(self, path: str, index: int, total: int, budget: float) -> None:
        """The runs are done and a disagreement is being shrunk (``on_shrinking``): a phase of its own, so the
        line says what runs and for how long at most, instead of "all runs done, 0:00 left" for minutes."""
        name = os.path.splitext(os.path.basename(path))[0]
        with self._lock:
            if self.label != "minimising":
                self.phase("minimising", total, unit="levels")
                self.most = budget
            self.unit_started = self.clock()
            self.completed(index, f"{name} (at most {clock_text(budget)} each)")

    def record(self, record: Any, reused: bool = False) -> None:
        """A run record finished (the ``on_record(record, reused)`` callbacks of cross_check and mutate)."""
        name = os.path.splitext(os.path.basename(record.path))[0]
        self.advance(1, f"{name} {record.backend}: {record.count_text}" + (" (reused)" if reused else ""))

    def report(self, done: int, total: int | None, text: str) -> None:
        """A backend's own report of how far it is (``base.report_progress``: dp's steps): it becomes the done/total
        (in ``steps``) and the note."""
        with self._lock:
            if total != self.total or done < self.done:  # a new stretch, of its own pace
                self.stretch = (self.clock(), done)
                self.done = done
            self.unit, self.total = "steps", total
            self.completed(done, text)

    def bounds(self, unit_limit: float | None, parallel: int = 1) -> None:
        """Each unit takes at most ``unit_limit`` seconds, ``parallel`` at a time (a cross-check's runs and their
        time limit): when the pace so far is overrun, the time left is given as at most what they allow."""
        self.unit_limit, self.parallel = unit_limit, max(1, parallel)

    def tick(self) -> bool:
        """Print the plain line if ``interval`` seconds have passed since the last one; whether it did."""
        with self._lock:
            if self.quiet or self._stop.is_set():
                return False
            if self.bar:
                if self._rich is not None:
                    self._bar_update()
                return False
            if self.clock() - self.last_line < self.interval:
                return False
            self._line()
            return True

    def close(self, finished: bool = False) -> None:
        """The work is over: stop the heartbeat, clear the bar, print the last plain line.  ``finished``: it
        ran to its end, though a backend's own step estimate (``report``) may not have reached its total."""
        with self._lock:
            if self._stop.is_set():
                return
            self._stop.set()
            if finished and self.total:
                self.done = max(self.done, self.total)
            if self._rich is not None:
                self._rich.stop()
                self._rich = None
            elif not self.quiet and not self.bar and self.printed:
                self._line(final=True)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ the plain line

    def text(self, final: bool = False) -> str:
        """``trisolve crosscheck: cross-checking 12/120 runs (10%), 0:45 elapsed, about 6:45 left; last: ...``"""
        now = self.clock()
        elapsed = now - self.phase_started
        if self.total:
            share = f" ({100 * self.done // self.total}%)"
            done = f"{self.done}/{self.total} {self.unit}{share}"
        else:
            done = f"{self.done} {self.unit}"
        parts = [f"{done}, {clock_text(elapsed)} elapsed"]
        if final:
            parts.append("done" if self.total is None or self.done >= self.total else "stopped")
        else:
            left = self.left_text(elapsed)
            parts += left
            if not left and self.total and self.done >= self.total:
                parts.append("finishing")
        label = f"{self.label}: " if self.label and self.label != self.command else ""
        last = f"; last: {self.note}" if self.note and not final else ""
        return f"trisolve {self.command}: {label}{', '.join(parts)}{last}"

    def time_left(self, elapsed: float) -> float | None:
        """The remaining units at the pace of this stretch so far, less the time since the last unit was done.
        None before the first is done, without a total, or when the pace is overrun: a unit under way takes
        longer than the pace says, which then says nothing (never "0:00 left" while work is going on)."""
        began, done_then = self.stretch
        if not self.total or self.done <= done_then or self.done >= self.total:
            return None
        pace = (self.last_done - began) / (self.done - done_then)
        left = pace * (self.total - self.done) - (self.clock() - self.last_done)
        return left if left >= 1.0 else None

    def shrink_left(self) -> float | None:
        """A phase whose units each take at most ``most`` seconds (shrinking a disagreement): at most that much
        per unit left, the one under way included (None in other phases)."""
        if self.most is None or not self.total or self.done >= self.total:
            return None
        return max(1.0, self.most * (self.total - self.done) - (self.clock() - self.unit_started))

    def most_left(self) -> float | None:
        """At most this long, when each unit's time is bounded (``bounds``: its limit, and the kill 5% + 0.25 s
        after it): a unit starts only when another ends, so those under way started by the last one done and end
        within a limit of it; the rest follow, ``parallel`` at a time."""
        if self.unit_limit is None or not self.total or self.done >= self.total:
            return None
        most = self.unit_limit * 1.05 + 0.25
        waiting = max(0, self.total - self.done - self.parallel)
        return max(1.0, self.last_done + most * (1 + -(-waiting // self.parallel)) - self.clock())

    def left_text(self, elapsed: float) -> list[str]:
        """``about 1:20 left``; ``at most 0:21 left`` when the pace is overrun (or says more than the bound); nothing
        when no figure is honest."""
        shrinking = self.shrink_left()
        if shrinking is not None:
            return [f"at most {clock_text(math.ceil(shrinking))} left"]
        left, most = self.time_left(elapsed), self.most_left()
        if left is not None and (most is None or left <= most):
            return [f"about {clock_text(math.ceil(left))} left"]
        if most is not None:
            return [f"at most {clock_text(math.ceil(most))} left"]
        return []

    def _line(self, final: bool = False) -> None:
        self.last_line, self.printed = self.clock(), True
        try:
            self.stream.write(self.text(final) + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed: progress is never worth a failure
            pass

    def _beat(self) -> None:
        wait = max(0.01, min(1.0, self.interval / 4))
        while not self._stop.wait(wait):
            self.tick()

    # ------------------------------------------------------------ the rich bar

    def _bar_phase(self) -> None:
        if self._rich is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
            from rich.progress import Progress as RichProgress

            console = Console(file=self.stream, no_color=not self.colour, force_terminal=True, highlight=False)
            self._rich = RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[unit]}"),
                TextColumn("{task.fields[timing]}"),  # ours: rich's own "remaining" shows no bound, and counts up
                TextColumn("{task.fields[note]}", style="dim"),
                console=console,
                transient=True,
            )
            self._rich.start()
        if self._task is not None:
            self._rich.remove_task(self._task)
        self._task = self._rich.add_task(self.label, total=self.total, unit=self.unit, note="", timing="")

    def _bar_update(self) -> None:
        if self._rich is None:
            self._bar_phase()
        note = self.note if len(self.note) <= 72 else self.note[:71] + "…"
        elapsed = self.clock() - self.phase_started
        timing = ", ".join([f"{clock_text(elapsed)} elapsed", *self.left_text(elapsed)])
        self._rich.update(self._task, total=self.total, completed=self.done, note=note, timing=timing)


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def for_command(command: str, *, quiet: bool = False, colour: bool | None = None, unit: str = "runs") -> Progress:
    """The reporter a command uses, on stderr; ``TRISOLVE_PROGRESS_INTERVAL`` (seconds) shortens the plain
    line's interval (tests use it to see the lines without waiting)."""
    interval = INTERVAL
    raw = os.environ.get("TRISOLVE_PROGRESS_INTERVAL")
    if raw:
        with contextlib.suppress(ValueError):
            interval = min(INTERVAL, max(0.0, float(raw)))
    return Progress(command, quiet=quiet, colour=colour, interval=interval, unit=unit)
