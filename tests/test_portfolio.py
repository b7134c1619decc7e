"""The portfolio (``solve --backend auto``): first answer wins, the others are stopped, nothing is left running.

A "sleeper" backend that never answers (and ignores its time limit) stands
for a stubborn solver; /proc tells which processes the test process started
and whether any outlived the race.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from support import LIMIT_SLACK, level_path, run_cli

from trisolve.backends.base import Options
from trisolve.backends.spec import Spec

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc to see child processes")


# ---------------------------------------------------------------- helpers


class Sleeper:
    """A backend that sleeps through its time limit: only a kill stops it."""

    def __init__(self, family: str, variant: str, translator: object = None) -> None:
        self.family = family
        self.name = f"sleeper:{variant}"

    def run(self, level, limits, options, on_solution=None):
        time.sleep(120)
        raise AssertionError("the sleeper should have been killed")

    def export(self, level, options) -> str:
        return ""


def sleeper_module() -> object:
    from support import plugin_backend

    return plugin_backend(Sleeper, {"nap": "never answers"})


@pytest.fixture
def sleeper():
    from trisolve.backends import registry

    registry.register("sleeper", sleeper_module())
    yield "sleeper:nap"
    registry.unregister("sleeper")


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, process group) of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1]), int(fields[2])


def processes() -> dict[int, tuple[str, int, int]]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None:
                found[int(entry)] = stat
    return found


def children(of: int) -> set[int]:
    return {pid for pid, (_, parent, _) in processes().items() if parent == of}


def alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


class ChildWatcher:
    """Records every child (and its process group) the test process has while a block runs."""

    def __init__(self) -> None:
        self.before = children(os.getpid())
        self.seen: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self._stop.is_set():
            self.seen |= children(os.getpid()) - self.before
            time.sleep(0.02)

    def __enter__(self) -> ChildWatcher:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def leftovers(self) -> list[str]:
        """Processes still there: our children, and anything in their process groups."""
        left = []
        table = processes()
        for pid, (state, parent, group) in table.items():
            if parent == os.getpid() and pid not in self.before:
                left.append(f"child {pid} (state {state})")
            elif group in self.seen and pid != os.getpid():
                left.append(f"process {pid} in a runner's group {group} (state {state})")
        return left


# ------------------------------------------------------------------ tests


def test_race_takes_the_first_answer_and_stops_the_others(sleeper, monkeypatch):
    from trisolve.backends.base import Limits, Options
    from trisolve.models import FAMILIES
    from trisolve.runs import Job
    from trisolve.runs import processes as runner
    from trisolve.runs.executors import race

    started = record_started_processes(monkeypatch)

    path = level_path("hexiom", "level10")
    family = FAMILIES["hexiom"]
    level = family.parse(path)
    jobs = [Job(path, "hexiom", name, Limits(), Options()) for name in (sleeper, "pysat:seqcounter", sleeper)]
    began = time.monotonic()
    with ChildWatcher() as watcher:
        winner, records = race(jobs, level)
    elapsed = time.monotonic() - began

    assert winner is not None and winner.backend == "pysat:seqcounter"
    assert winner.status == "sat"
    assert not family.validate(level, family.solution_from_json(level, winner.solutions[0]))
    stopped = [r for r in records if r.backend == sleeper]
    assert len(stopped) == 2 and all(r.stopped_by == "stopped" and r.status == "unknown" for r in stopped)
    assert elapsed < LIMIT_SLACK, f"the race took {elapsed:.1f} s: the sleepers were not stopped promptly"
    assert len(set(started)) == 3, "each job should run in its own process"
    assert watcher.leftovers() == []
    assert runner.unreaped() == []  # every child was waited for


class Quitter:
    """A counter that gives up at once with one solution: a count cut short, never an answer to a count."""

    def __init__(self, solution) -> None:
        self.family = "hexiom"
        self.name = "quitter:early"
        self.solution = solution

    def run(self, level, limits, options, on_solution=None):
        from trisolve.backends.base import finish

        if on_solution is not None:
            on_solution(self.solution)
        return finish(self.name, "hexiom", [self.solution], exhausted=False, stats={}, times={}, stopped_by="limit")

    def export(self, level, options) -> str:
        return ""


def test_a_count_race_waits_for_an_exact_count():
    from trisolve.backends import registry
    from trisolve.backends.base import Limits
    from trisolve.models import FAMILIES
    from trisolve.runs import Job
    from trisolve.runs.executors import race

    path = level_path("hexiom", "level01")
    level = FAMILIES["hexiom"].parse(path)
    (known,) = registry.get("pysat", "hexiom").run(level, Limits(), Options()).solutions
    from support import plugin_backend

    module = plugin_backend(
        lambda family, variant, translator: Quitter(known), {"early": "one solution at once, count incomplete"}
    )
    registry.register("quitter", module)
    counting = Options(enumerate=True)
    jobs = [Job(path, "hexiom", name, Limits(time=60), counting) for name in ("quitter:early", "pysat:totalizer")]
    try:
        winner, records = race(jobs, level)
    finally:
        registry.unregister("quitter")
    quitter = next(r for r in records if r.backend == "quitter:early")
    assert quitter.status == "sat" and quitter.count == 1 and not quitter.complete
    assert winner is not None and winner.backend == "pysat:totalizer"
    assert winner.count == 12 and winner.complete


def test_race_interrupted_by_ctrl_c_kills_every_child(sleeper):
    from trisolve.backends.base import Limits, Options
    from trisolve.models import FAMILIES
    from trisolve.runs import Job
    from trisolve.runs import processes as runner
    from trisolve.runs.executors import race

    path = level_path("hexiom", "level10")
    level = FAMILIES["hexiom"].parse(path)
    jobs = [Job(path, "hexiom", sleeper, Limits(), Options()) for _ in range(2)]
    # an in-process CP-SAT solve elsewhere in the session can leave SIGINT at SIG_DFL: make Ctrl-C Python's again
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    racing = threading.Event()

    def press_ctrl_c() -> None:
        deadline = time.monotonic() + 20
        while len(watcher.seen) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        if racing.is_set():  # never interrupt anything but the race
            os.kill(os.getpid(), signal.SIGINT)

    try:
        with ChildWatcher() as watcher:
            presser = threading.Thread(target=press_ctrl_c)
            racing.set()
            presser.start()
            try:
                winner, records = race(jobs, level)  # Ctrl-C: every run returns what it has
            finally:
                racing.clear()
            presser.join()
    finally:
        signal.signal(signal.SIGINT, previous)
        runner.INTERRUPT.clear()
    assert winner is None and [r.stopped_by for r in records] == ["interrupted"] * 2, records
    assert len(watcher.seen) >= 2
    assert watcher.leftovers() == []


def record_started_processes(monkeypatch) -> list[int]:
    """The pids of the run home's children, noted as each starts (polling the process table can miss a child that
    lives less than one poll)."""
    from trisolve.runs import processes as runner

    started: list[int] = []
    start = runner.Child.start

    def recording_start(child) -> None:
        start(child)
        started.append(child.pid)

    monkeypatch.setattr(runner.Child, "start", recording_start)
    return started


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_solve_auto_reports_the_winner_and_leaves_nothing_running(as_json, capsys, monkeypatch):
    from trisolve.backends import registry
    from trisolve.selection import choose

    started = record_started_processes(monkeypatch)

    path = level_path("hexiom", "level10")
    argv = ["solve", path, "--backend", "auto", "--timeout", "30"] + (["--json"] if as_json else [])
    with ChildWatcher() as watcher:
        code = run_cli(argv)
    out = capsys.readouterr().out
    assert code == 0
    # the selection policy's race: the measured table's top three (tests/test_defaults.py checks which)
    usable = [
        Spec.parse(b).backend
        for b in choose("hexiom", "race", "first").backends
        if registry.available(Spec.parse(b).backend) is None and registry.catalog(Spec.parse(b).backend, "hexiom")
    ]
    if as_json:
        data = json.loads(out)
        portfolio = data["portfolio"]
        assert portfolio["winner"] == data["backend"]
        assert portfolio["winner"] in portfolio["raced"]
        assert {Spec.parse(name).backend for name in portfolio["raced"]} == set(usable)
        assert data["status"] == "sat" and not data.get("invalid")
        losers = [r for r in portfolio["runs"] if r["backend"] != portfolio["winner"]]
        assert all(r["status"] in ("sat", "unknown") for r in losers)
        assert len(portfolio["runs"]) == len(usable)
    else:
        lines = [line for line in out.splitlines() if line.startswith("portfolio: ")]
        assert len(lines) == 1 and " answered first" in lines[0], out
    assert len(set(started)) == len(usable), "the portfolio should run each backend in its own child process"
    assert watcher.leftovers() == []


def test_a_runner_child_dies_with_its_parent(tmp_path):
    """A parent killed outright (SIGKILL: no cleanup code runs) takes its solver process along."""
    script = tmp_path / "parent.py"
    script.write_text(
        textwrap.dedent(f"""
        import sys, time, types
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from test_portfolio import sleeper_module
        from trisolve.backends import registry
        from trisolve.runs import Job, run
        from trisolve.models import FAMILIES

        registry.register("sleeper", sleeper_module())
        path = {level_path("hexiom", "level10")!r}
        run(Job(path, "hexiom", "sleeper:nap"), FAMILIES["hexiom"].parse(path))
    """)
    )
    parent = subprocess.Popen([sys.executable, str(script)])
    child = None
    try:
        deadline = time.monotonic() + 20
        while child is None and time.monotonic() < deadline:
            found = children(parent.pid)
            child = min(found) if found else None
            time.sleep(0.05)
        assert child is not None, "the parent never started its runner child"
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 5
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(child), "the runner child outlived its killed parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if child is not None and alive(child):
            os.kill(child, signal.SIGKILL)
