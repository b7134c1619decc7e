"""Long commands show that they are alive (issue 22): done/total, elapsed and time left, a plain line on stderr at
least every 10 s without a terminal, nothing with --quiet; colour follows --colour, NO_COLOR and FORCE_COLOR.

The interval rule is held with a fake clock (and once with a short interval for the heartbeat thread), never by
waiting ten seconds."""

from __future__ import annotations

import io
import os
import threading

import pytest
from support import level_path, run_trisolve

from trisolve.cli.progress import INTERVAL, Progress, clock_text, colour_wanted


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def plain(clock: FakeClock, **options) -> tuple[Progress, io.StringIO]:
    out = io.StringIO()
    return Progress("crosscheck", stream=out, bar=False, heartbeat=False, clock=clock, **options), out


def test_without_a_terminal_a_line_comes_at_least_every_interval_even_when_nothing_finishes():
    clock = FakeClock()
    progress, out = plain(clock)
    progress.phase("cross-checking", 40)
    printed_at = []
    step = 0.5
    while clock.now < 95:  # runs finish at t = 3, 6, 9, 12; then one run takes the rest (nothing finishes)
        clock.now += step
        if clock.now in (3.0, 6.0, 9.0, 12.0):
            progress.advance(1, "level07 dp:frontier: 46")
        if progress.tick():  # what the heartbeat thread does every second or so
            printed_at.append(clock.now)
    gaps = [b - a for a, b in zip([0.0, *printed_at], printed_at)]
    assert len(printed_at) >= 9 and max(gaps) <= INTERVAL + step
    assert INTERVAL == 10.0  # the promise the docs make
    lines = out.getvalue().splitlines()
    # the pace: 3 runs in 9 s, the last done 1 s ago: 37 x 3 s - 1 s
    assert lines[0].startswith("trisolve crosscheck: cross-checking: 3/40 runs (7%), 0:10 elapsed, about 1:50 left")
    assert lines[0].endswith("last: level07 dp:frontier: 46")
    assert "0:20 elapsed" in lines[1]


def test_work_shorter_than_the_interval_prints_nothing_and_the_end_is_said_once():
    clock = FakeClock()
    progress, out = plain(clock)
    progress.phase("generating", 3, unit="levels")
    for _ in range(3):
        clock.now += 1
        progress.advance(1)
    progress.close()
    assert out.getvalue() == ""

    progress, out = plain(clock)
    progress.start(2)
    clock.now += 11
    progress.advance(1)
    progress.close()
    progress.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[1] == "trisolve crosscheck: 1/2 runs (50%), 0:11 elapsed, stopped"


def test_quiet_prints_nothing():
    clock = FakeClock()
    progress, out = plain(clock, quiet=True)
    progress.phase("cross-checking", 5)
    clock.now += 100
    progress.advance(5)
    assert not progress.tick()
    progress.close()
    assert out.getvalue() == ""


def test_the_heartbeat_prints_while_nothing_finishes():
    out = io.StringIO()
    lines = threading.Event()

    class Watched(io.StringIO):
        def write(self, text: str) -> int:
            out.write(text)
            if out.getvalue().count("\n") >= 2:
                lines.set()
            return len(text)

    progress = Progress("mutate", stream=Watched(), bar=False, interval=0.05)
    progress.phase("running", 10)
    try:
        assert lines.wait(timeout=30), "the heartbeat thread printed no line"
    finally:
        progress.close()
    assert out.getvalue().startswith("trisolve mutate: running: 0/10 runs (0%)")


def test_clock_text():
    assert (clock_text(5), clock_text(65), clock_text(3723)) == ("0:05", "1:05", "1:02:03")


def test_colour_follows_the_flag_then_no_color_then_force_color_then_the_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert colour_wanted(None, Terminal()) and not colour_wanted(None, io.StringIO())
    assert colour_wanted(True, io.StringIO()) and not colour_wanted(False, Terminal())
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert colour_wanted(None, io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(None, Terminal()) and colour_wanted(True, io.StringIO())


# ------------------------------------------------------------ every long command uses it


def _quick(*args: str, quiet: bool = False):
    env = {**os.environ, "TRISOLVE_PROGRESS_INTERVAL": "0"}  # a line whenever asked: no waiting
    env.pop("NO_COLOR", None)
    return run_trisolve(*args, *(["--quiet"] if quiet else []), env=env)


@pytest.mark.parametrize(
    "command, words",
    [
        (("crosscheck", level_path("hexiom", "level01"), "--backends", "dp,clingo:count"), "/2 runs"),
        (("solve", level_path("hexiom", "level12"), "--count", "--backend", "clingo"), "solutions"),
        (("bench", level_path("hexiom", "level01"), "--backends", "dp", "--repeat", "1", "--no-plots"), "1/1 runs"),
        (("generate", "hexiom", "--side", "2", "--count", "2"), "/2 levels"),
        (("campaign", "--family", "hexiom", "--side", "2", "--generate", "1", "--backends", "dp"), "runs"),
    ],
    ids=["crosscheck", "solve", "bench", "generate", "campaign"],
)
def test_every_long_command_reports_progress_on_stderr_and_quiet_silences_it(command, words, tmp_path):
    name = command[0]
    extra = {
        "bench": ["--out", str(tmp_path / "bench")],
        "generate": ["--output", str(tmp_path / "levels")],
        "campaign": ["--jsonl", str(tmp_path / "c.jsonl")],
    }.get(name, [])
    done = _quick(*command, *extra)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith(f"trisolve {name}: ")]
    assert lines and any(words in line and "elapsed" in line for line in lines), done.stderr
    if name == "campaign":
        extra = ["--jsonl", str(tmp_path / "d.jsonl")]
    if name == "generate":
        extra = ["--output", str(tmp_path / "again")]
    quiet = _quick(*command, *extra, quiet=True)
    assert quiet.returncode == 0, quiet.stderr
    assert not [line for line in quiet.stderr.splitlines() if line.startswith(f"trisolve {name}: ")], quiet.stderr


def test_colour_is_forced_in_a_pipe_by_the_flag_and_force_color_and_refused_by_no_color():
    """Output captured = a pipe: no colour by default; --colour and FORCE_COLOR force it; NO_COLOR wins over
    FORCE_COLOR, --colour over both (issue 22: --colour did nothing in a pipe)."""
    tiling = ("solve", level_path("sigils", "trominoes-3x3"), "-q")
    table = ("crosscheck", level_path("hexiom", "level01"), "--backends", "dp", "-q")
    clean = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    for command in (tiling, table):
        assert "\x1b[" not in run_trisolve(*command, env=clean).stdout
        assert "\x1b[" in run_trisolve(*command, "--colour", env=clean).stdout
        assert "\x1b[" in run_trisolve(*command, env={**clean, "FORCE_COLOR": "1"}).stdout
        assert "\x1b[" not in run_trisolve(*command, env={**clean, "FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
        assert "\x1b[" in run_trisolve(*command, "--colour", env={**clean, "NO_COLOR": "1"}).stdout


def test_a_run_that_ended_says_done_though_the_backends_step_estimate_fell_short():
    """dp reports its steps as it goes; the count may end before the last report: the end is done, not stopped."""
    clock = FakeClock()
    progress, out = plain(clock)
    progress.phase("counting level.txt")
    clock.now += 11
    progress.report(979, 1000, "dp: step 979/1000")
    clock.now += 1
    progress.close(finished=True)
    assert (
        out.getvalue().splitlines()[-1]
        == "trisolve crosscheck: counting level.txt: 1000/1000 steps (100%), 0:12 elapsed, done"
    )


def test_time_left_never_says_0_00_while_work_is_left_and_says_finishing_after_the_last_unit():
    """10 runs, the last one still going: a pace estimate under a second is still "0:01 left"; with every run
    done but the phase not over (a disagreement being shrunk, files written), "finishing", never "0:00 left"."""
    clock = FakeClock()
    progress, out = plain(clock)
    progress.phase("cross-checking", 10)
    for _ in range(9):
        clock.now += 0.01
        progress.advance(1)
    clock.now = 10.0
    progress.tick()
    clock.now += 11
    progress.advance(1)
    progress.tick()
    first, last = out.getvalue().splitlines()[-2:]
    assert "9/10 runs" in first and "0:00 left" not in first  # the pace is overrun: no figure is honest
    assert "10/10 runs" in last and "finishing" in last and "0:00 left" not in last


def test_shrinking_a_disagreement_is_a_phase_with_its_budget_as_the_time_left():
    """A campaign's runs are done and its minimiser runs for minutes: the line says so, and how long at most."""
    clock = FakeClock()
    progress, out = plain(clock)
    progress.phase("cross-checking", 10)
    progress.advance(10)
    progress.shrinking("out/hexiom-00003.txt", 0, 2, 300.0)
    clock.now += 60
    progress.tick()
    line = out.getvalue().splitlines()[-1]
    assert line.startswith("trisolve crosscheck: minimising: 0/2 levels (0%), 1:00 elapsed, at most 9:00 left")
    assert line.endswith("last: hexiom-00003 (at most 5:00 each)")
    progress.shrinking("out/hexiom-00007.txt", 1, 2, 300.0)
    clock.now += 400  # the minimiser's own budget is the bound; the line never reaches 0:00
    progress.tick()
    assert "1/2 levels" in out.getvalue().splitlines()[-1] and "at most 0:01 left" in out.getvalue().splitlines()[-1]
    progress.close(finished=True)
    assert out.getvalue().splitlines()[-1].endswith("2/2 levels (100%), 7:40 elapsed, done")


def test_each_attempt_of_a_level_being_generated_is_shown_and_generate_has_a_time_limit(tmp_path):
    """A big logic grid takes minutes per level: the progress line names each attempt as it ends (clues so far,
    solutions found), and --timeout ends the work (the level is written unproved, exit 3)."""
    folder = tmp_path / "g"
    done = _quick(
        "generate", "logic", "--positions", "30", "--categories", "6", "-n", "3", "--timeout", "3", "-o", folder
    )
    attempts = [line for line in done.stderr.splitlines() if "last: attempt " in line]
    assert attempts and "logic 30 positions x 6 categories" in attempts[-1], done.stderr
    assert done.returncode == 3, done.stderr  # 30 positions need far more than 3 s
    assert "--timeout 3 s: stopped at level 1 of 3" in done.stderr
    assert "could not prove a unique solution" in done.stderr
    assert len(list(folder.glob("*.toml"))) == 1  # the level under way is written; no other is started


def test_no_time_left_is_claimed_while_a_unit_overruns_the_pace_and_a_bound_says_at_most():
    """108 of 109 runs done in 10 s, the last takes 20 s: not "0:00 left" for ten seconds, but at most what
    its time limit allows (with the kill's grace), or nothing when no bound is known."""
    clock = FakeClock()
    progress, _ = plain(clock)
    progress.phase("cross-checking", 109)
    for _ in range(108):
        clock.now += 10 / 108
        progress.advance(1)
    clock.now += 5
    assert "left" not in progress.text()
    progress.bounds(20.0, parallel=2)
    assert ", at most 0:17 left" in progress.text()  # one run under way since the last was done 5 s ago: 21.25 s
    clock.now += 10
    assert ", at most 0:07 left" in progress.text()
    clock.now = 1.0
    early = Progress("crosscheck", stream=io.StringIO(), bar=False, heartbeat=False, clock=clock)
    early.phase("cross-checking", 100)
    early.bounds(20.0, parallel=2)
    clock.now = 2.0
    early.advance(10)
    assert "about 0:09 left" in early.text()  # the pace says less than the bound: the pace


def test_a_backends_reports_in_stretches_of_their_own_length_each_have_their_own_pace():
    """dp's halves report the upper half's steps (of 40), then the walk (of 1000): the pace of one says nothing
    of the other, and the time left follows the stretch under way."""
    clock = FakeClock()
    progress, _ = plain(clock)
    progress.phase("counting level40.txt")
    for step in range(1, 41):
        clock.now += 1
        progress.report(step, 40, f"dp: upper half: step {step}/40")
    clock.now += 1
    progress.report(0, 1000, "dp: middle row: 0% done")
    assert "left" not in progress.text()
    clock.now += 10
    progress.report(100, 1000, "dp: middle row: 10% done")
    assert "1:30 left" in progress.text()  # 10 s per 100: 900 more take 90 s


def test_the_bar_shows_elapsed_and_left_as_such():
    """On a terminal the bar's time says which figure is which (rich's own columns put "left" after the elapsed
    time, so the figure read as "left" counted up)."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    clock = FakeClock()
    progress = Progress("crosscheck", stream=Terminal(), heartbeat=False, clock=clock)
    try:
        progress.phase("cross-checking", 10)
        clock.now += 4
        progress.advance(2)
        fields = progress._rich.tasks[0].fields
        assert fields["timing"] == "0:04 elapsed, about 0:16 left"
    finally:
        progress.close()
