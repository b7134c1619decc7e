"""Campaigns: generate + cross-check, resumable without losing or repeating a run; the Dask executor."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import LIMIT_SLACK

from trisolve.runs import grace_for

BACKENDS = ["pysat:totalizer", "cpsat:int"]


def _keys(path) -> list[str]:
    keys = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            with contextlib.suppress(ValueError):  # a torn last line
                keys.append(json.loads(line)["key"])
    return keys


def test_campaign_summary_and_resume_runs_nothing_twice(tmp_path):
    from trisolve.generate.campaign import run_campaign

    log = str(tmp_path / "c.jsonl")
    summary, verdicts = run_campaign("hexiom", 2, log, seed=3, params={"side": 3, "unique": True}, backends=BACKENDS)
    assert (summary.instances, summary.runs, summary.reused, summary.generated, summary.unique) == (2, 4, 0, 2, 2)
    assert summary.statuses == {"agree": 2} and summary.disagreements == summary.invalid == summary.errors == 0
    assert summary.throughput and summary.throughput > 0
    assert all(v.count == 1 for v in verdicts)
    assert len(_keys(log)) == 4
    files = sorted(os.listdir(tmp_path / "c-instances"))
    assert files == [
        "campaign.json",
        "hexiom-00000.solution.json",
        "hexiom-00000.txt",
        "hexiom-00001.solution.json",
        "hexiom-00001.txt",
    ]
    before = (tmp_path / "c-instances" / "hexiom-00001.txt").read_text()

    # grow the campaign: the first two instances are neither regenerated differently nor rerun
    summary, _ = run_campaign("hexiom", 3, log, seed=3, params={"side": 3, "unique": True}, backends=BACKENDS)
    assert (summary.runs, summary.reused, summary.generated) == (6, 4, 1)
    keys = _keys(log)
    assert len(keys) == 6 == len(set(keys))
    assert (tmp_path / "c-instances" / "hexiom-00001.txt").read_text() == before

    # all done: a rerun runs nothing
    summary, _ = run_campaign("hexiom", 3, log, seed=3, params={"side": 3, "unique": True}, backends=BACKENDS)
    assert summary.reused == 6 and summary.throughput is None and len(_keys(log)) == 6


def test_torn_log_and_lost_instance_file_resume_cleanly(tmp_path):
    from trisolve.generate.campaign import run_campaign

    log = tmp_path / "c.jsonl"
    run_campaign("logic", 2, str(log), params={"positions": 4}, backends=["pysat", "cpsat:integer"])
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])  # killed mid-write
    (tmp_path / "c-instances" / "logic-00001.toml").unlink()
    summary, _ = run_campaign("logic", 2, str(log), params={"positions": 4}, backends=["pysat", "cpsat:integer"])
    assert summary.reused == 3 and summary.generated == 1 and summary.statuses == {"agree": 2}
    keys = _keys(log)
    assert len(keys) == 4 == len(set(keys))


def test_killed_campaign_resumes_without_loss_or_repeat(tmp_path):
    log = tmp_path / "k.jsonl"
    command = [
        sys.executable,
        "-m",
        "trisolve",
        "campaign",
        "--family",
        "hexiom",
        "--generate",
        "8",
        "--side",
        "3",
        "--unique",
        "--jsonl",
        str(log),
        "--backends",
        ",".join(BACKENDS),
        "-j",
        "2",
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not log.exists() or len(_keys(log)) < 3):
            time.sleep(0.05)
            if process.poll() is not None:
                break
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    finished = _keys(log)
    assert finished, "the campaign wrote nothing before the kill"
    result = subprocess.run(command + ["--json"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["instances"] == 8 and summary["runs"] == 16
    assert summary["reused_runs"] == len(set(finished))
    keys = _keys(log)
    assert len(keys) == 16 == len(set(keys))


@pytest.mark.slow
def test_disagreement_is_minimised_and_written_with_its_repro(tmp_path):
    import mutants

    from trisolve.generate.campaign import run_campaign

    class Heard:  # what the command's progress line hears: each shrinking as it starts, after the runs
        def __init__(self) -> None:
            self.calls: list[tuple] = []

        def __getattr__(self, name: str):
            return lambda *args: self.calls.append((name, *args))

    mutants.register()
    log = str(tmp_path / "m.jsonl")
    heard = Heard()
    summary, verdicts = run_campaign(
        "hexiom",
        2,
        log,
        params={"side": 3, "unique": True},
        backends=["pysat:totalizer", "mutant:locks-ignored"],
        minimise_folder=str(tmp_path / "min"),
        minimise_budget=60,
        progress=heard,
    )
    assert summary.disagreements + summary.invalid >= 1  # the mutant's moved locks are invalid solutions
    assert len(summary.minimised) == summary.disagreements + summary.invalid
    shrinking = [call for call in heard.calls if call[0] == "shrinking"]
    assert [(index, total, budget) for _, _, index, total, budget in shrinking] == [
        (i, len(summary.minimised), 60) for i in range(len(summary.minimised))
    ]
    assert heard.calls.index(shrinking[0]) > max(i for i, call in enumerate(heard.calls) if call[0] == "advance")
    assert any(call[0] == "attempt" and call[1].startswith("attempt 1: hexiom side 3") for call in heard.calls)
    for item in summary.minimised:
        assert os.path.exists(item["file"]) and "mutant:locks-ignored" in item["command"]
        assert os.path.exists(os.path.splitext(item["file"])[0] + ".repro.md")


def test_campaign_cli_prints_summary_and_exit_code(tmp_path):
    from trisolve.cli.main import cli

    log = str(tmp_path / "c.jsonl")
    result = CliRunner().invoke(
        cli,
        [
            "campaign",
            "--family",
            "sigils",
            "--generate",
            "2",
            "--width",
            "4",
            "--height",
            "2",
            "--jsonl",
            log,
            "--backends",
            "pysat,cpsat",
        ],
    )  # every variant: robust to renames
    assert result.exit_code == 0, result.output
    assert "2 instances" in result.output and "disagreements 0, invalid solutions 0" in result.output
    assert "instances/min" in result.output
    bad = CliRunner().invoke(
        cli, ["campaign", "--family", "sigils", "--generate", "1", "--jsonl", log, "--scheduler", "x"]
    )
    assert bad.exit_code == 2
    # another size on the same log would mix two campaigns' instances: refused
    other = CliRunner().invoke(
        cli,
        [
            "campaign",
            "--family",
            "sigils",
            "--generate",
            "2",
            "--width",
            "4",
            "--height",
            "4",
            "--jsonl",
            log,
            "--backends",
            "pysat",
        ],
    )
    assert other.exit_code == 2 and "another campaign" in other.output


def test_a_second_writer_of_one_journal_is_refused_before_it_runs_anything(tmp_path):
    """Two campaigns (or a campaign and a crosscheck) on one --jsonl would both run every job and write every
    record twice: the journal is locked while one writes it, and the other exits 2 with one line naming it."""
    from trisolve.cli.main import cli
    from trisolve.crosscheck.jsonl import Log
    from trisolve.models.files import FileProblem

    log = str(tmp_path / "c.jsonl")
    campaign = ["campaign", "--family", "logic", "--generate", "2", "--jsonl", log, "--backends", "pysat", "-q"]
    assert CliRunner().invoke(cli, campaign).exit_code == 0
    lines = Path(log).read_text(encoding="utf-8")
    first = Log(log)  # a writer that is still running
    try:
        with pytest.raises(FileProblem, match="another trisolve command is writing to this journal now"):
            Log(log)
        again = CliRunner().invoke(cli, campaign)
        assert again.exit_code == 2 and "another trisolve command is writing" in again.output
        assert again.output.count("\n") == 1 and log in again.output
        level = os.path.join(tmp_path, "c-instances", "logic-00000.toml")
        check = CliRunner().invoke(cli, ["crosscheck", level, "--backends", "pysat", "--jsonl", log, "-q"])
        assert check.exit_code == 2 and "another trisolve command is writing" in check.output
        assert Path(log).read_text(encoding="utf-8") == lines  # nothing run, nothing written
    finally:
        first.close()
    resumed = CliRunner().invoke(cli, campaign)  # once the writer is gone, the journal is free again
    assert resumed.exit_code == 0 and Path(log).read_text(encoding="utf-8") == lines


def test_dask_executor_on_a_local_cluster(tmp_path):
    pytest.importorskip("distributed")
    from trisolve.generate.campaign import run_campaign

    log = str(tmp_path / "d.jsonl")
    summary, verdicts = run_campaign(
        "hexiom", 2, log, seed=1, params={"side": 3, "unique": True}, backends=BACKENDS, executor="dask", parallel=2
    )
    assert summary.statuses == {"agree": 2} and summary.runs == 4 and summary.reused == 0
    assert [v.count for v in verdicts] == [1, 1]
    assert len(_keys(log)) == 4
    # same records as a local run of the same campaign
    local_log = str(tmp_path / "l.jsonl")
    os.symlink(tmp_path / "d-instances", tmp_path / "l-instances")
    _, local = run_campaign("hexiom", 2, local_log, seed=1, params={"side": 3, "unique": True}, backends=BACKENDS)
    assert [v.count for v in local] == [1, 1]
    # resume on dask runs nothing
    summary, _ = run_campaign(
        "hexiom", 2, log, seed=1, params={"side": 3, "unique": True}, backends=BACKENDS, executor="dask", parallel=2
    )
    assert summary.reused == 4 and len(_keys(log)) == 4


@pytest.mark.slow
def test_dask_worker_enforces_the_time_limit(tmp_path):
    pytest.importorskip("distributed")
    from trisolve.generate.campaign import run_campaign

    # a side-5 level with no locks has far too many solutions to enumerate in 1 s
    log = str(tmp_path / "t.jsonl")
    started = time.monotonic()
    summary, verdicts = run_campaign(
        "hexiom",
        1,
        log,
        params={"side": 5},
        backends=["cpsat:int", "pysat:totalizer"],
        timeout=1.0,
        executor="dask",
        parallel=2,
    )
    records = verdicts[0].records
    assert all(not r.complete for r in records)
    assert all(r.wall < 1.0 + grace_for(1.0) + LIMIT_SLACK for r in records)  # time limit + the runner's grace + slack
    assert summary.statuses == {"incomplete": 1}
    assert time.monotonic() - started < 120


def test_campaign_exits_1_when_a_run_crashes_as_crosscheck_does(tmp_path):
    """One exit-code rule (docs/exit-codes.md): a verdict with ERROR is exit 1 for campaign too."""
    import fake_backends

    from trisolve.backends import registry
    from trisolve.cli.main import cli

    fake_backends.register("crashes", lambda name: fake_backends.ScriptedBackend(name, [], then="crash"))
    try:
        argv = ["--generate", "1", "--side", "2", "--jobs", "1", "--backends", "pysat:totalizer,crashes"]
        result = CliRunner().invoke(
            cli, ["campaign", "--family", "hexiom", "--jsonl", str(tmp_path / "c.jsonl"), *argv]
        )
    finally:
        registry.unregister("crashes")
    assert result.exit_code == 1, result.output
    assert "errors 1" in result.output and "scripted crash" in result.output
