"""Hostile input as a tester would try it: special files, out-of-range numbers, odd paths.

Each case must end in exit 2 with a message naming the file or the option, promptly,
and never with a traceback.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import ROOT, level_path, run_trisolve

HEXIOM = level_path("hexiom", "level01")


def refused(done, fragment: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert fragment.lower() in done.stderr.lower(), done.stderr
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------------ files that are not instance files


def test_a_device_is_refused_without_reading_it():
    started = time.monotonic()
    done = run_trisolve("solve", "/dev/zero", timeout=30)
    refused(done, "/dev/zero: is a device")
    assert time.monotonic() - started < 10


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "p.txt"
    os.mkfifo(fifo)
    done = run_trisolve("solve", str(fifo), "--timeout", "2", timeout=30)
    refused(done, f"{fifo}: is a named pipe")


def test_a_folder_given_as_an_instance_is_refused(tmp_path):
    refused(run_trisolve("export", str(tmp_path), "--family", "hexiom"), "folder")


def test_a_symlink_loop_is_reported_as_a_loop(tmp_path):
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    refused(run_trisolve("solve", str(loop)), "symbolic link loop")
    refused(run_trisolve("crosscheck", str(loop)), "symbolic link loop")


def test_a_special_file_inside_a_folder_is_that_instances_error_and_the_others_are_checked(tmp_path):
    """One junk file does not stop ``crosscheck DIR``: it is its own ERROR verdict (exit 1), never read."""
    os.mkfifo(tmp_path / "p.txt")
    (tmp_path / "good.txt").write_text(Path(HEXIOM).read_text())
    done = run_trisolve("crosscheck", str(tmp_path), "--family", "hexiom", "--backends", "pysat", timeout=60)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "named pipe" in done.stdout and "Traceback" not in done.stderr
    assert re.search(r"^good\s+agree\s+12\b", done.stdout, re.MULTILINE), done.stdout


def test_an_oversized_file_is_refused_by_what_is_read(tmp_path):
    from trisolve.models.errors import MAX_FILE_BYTES, InstanceTooLarge
    from trisolve.models.files import read_instance_text

    big = tmp_path / "big.txt"
    big.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(InstanceTooLarge):
        read_instance_text(str(big))
    exact = tmp_path / "exact.txt"
    exact.write_bytes(b"#" * MAX_FILE_BYTES)
    assert len(read_instance_text(str(exact))) == MAX_FILE_BYTES


def test_a_toml_file_is_always_a_logic_puzzle(tmp_path):
    """docs/logic.md: every .toml is a logic puzzle, even in a folder named after another family."""
    folder = tmp_path / "hexiom"
    folder.mkdir()
    level = folder / "level.toml"
    level.write_text(Path(HEXIOM).read_text())
    done = run_trisolve("solve", str(level))
    refused(done, str(level))
    assert "toml" in done.stderr.lower()


# ------------------------------------------------------------------ numbers on the command line


@pytest.mark.parametrize(
    "args,option",
    [
        (["solve", HEXIOM, "--count", "--limit", "2147483648", "--backend", "clingo"], "--limit"),
        (["solve", HEXIOM, "--count", "--limit", "0"], "--limit"),
        (["solve", HEXIOM, "--seed", "-5", "--backend", "clingo"], "--seed"),
        (["solve", HEXIOM, "--seed", "99999999999999999999", "--backend", "cpsat"], "--seed"),
        (["solve", HEXIOM, "--timeout", "inf", "--backend", "clingo"], "--timeout"),
        (["solve", HEXIOM, "--timeout", "nan", "--backend", "dp"], "--timeout"),
        (["solve", HEXIOM, "--timeout", "-inf"], "--timeout"),
        (["solve", HEXIOM, "--timeout", "0"], "--timeout"),
        (["crosscheck", HEXIOM, "--timeout", "nan"], "--timeout"),
        (["crosscheck", HEXIOM, "--jobs", "100000"], "--jobs"),
        (["crosscheck", HEXIOM, "--seed", "-1"], "--seed"),
        (["bench", HEXIOM, "--timeout", "1e400"], "--timeout"),
        (["bench", HEXIOM, "--seed", "2147483647", "--repeat", "2"], "--seed"),
        (["campaign", "--family", "logic", "--generate", "1", "--jsonl", "x.jsonl", "--timeout", "nan"], "--timeout"),
        (["campaign", "--family", "logic", "--generate", "1", "--jsonl", "x.jsonl", "--seed", "-3"], "--seed"),
        (["generate", "hexiom", "--fill", "nan", "-o", "out"], "--fill"),
        (["generate", "hexiom", "--seed", "-1", "-o", "out"], "--seed"),
        (["backends", "--family", "nope"], "unknown family"),
        (["solve", HEXIOM, "--count", "--backend", "dp", "--memory", "inf"], "--memory"),
        # mutate and render take the same option types as every other command
        (["mutate", "logic", "--backend", "pysat", "--timeout", "nan"], "--timeout"),
        (["mutate", "logic", "--backend", "pysat", "--timeout", "inf"], "--timeout"),
        (["mutate", "logic", "--backend", "pysat", "--seed", "-1"], "--seed"),
        (["mutate", "logic", "--backend", "pysat", "--jobs", "10000"], "--jobs"),
        (["mutate", "logic", "--backend", "pysat", "--generate", "99999999999"], "--generate"),
        (["render", HEXIOM, "-o", "x.svg", "--solve", "--timeout", "inf"], "--timeout"),
        (["render", HEXIOM, "-o", "x.svg", "--index", "0"], "--index"),
    ],
    ids=lambda value: value if isinstance(value, str) else " ".join(a for a in value if "/" not in a)[:40],
)
def test_a_number_out_of_range_is_a_usage_error_naming_the_option(args, option):
    refused(run_trisolve(*args), option)


@pytest.mark.parametrize("option,fragment", [("--family", "unknown family"), ("--backend", "unknown backend")])
def test_a_huge_name_is_shortened_in_the_message(option, fragment):
    done = run_trisolve("solve", HEXIOM, option, "x" * 100_000)
    refused(done, fragment)
    assert len(done.stderr) < 1000


def test_a_huge_variant_is_shortened_in_the_message():
    done = run_trisolve("solve", HEXIOM, "--backend", "pysat:" + "x" * 100_000)
    refused(done, "pysat has no hexiom encoding")
    assert len(done.stderr) < 1000


# ------------------------------------------------------------------ Ctrl-C and SIGTERM on every command


def _has_children(pid: int) -> bool:
    return bool(subprocess.run(["ps", "--ppid", str(pid), "-o", "pid="], capture_output=True, text=True).stdout.strip())


def _interrupt(args: list[str], after: float, signum: int = signal.SIGINT, runs: bool = True):
    """Start ``trisolve ARGS``, send ``signum`` ``after`` seconds after its first run started (``runs``)
    or after its start; (exit code, out, err, seconds it took to stop)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "trisolve", *args], cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60  # a loaded machine can take a while to import the solvers
    while runs and not _has_children(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(after)
    sent = time.monotonic()
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    return process.returncode, out, err, time.monotonic() - sent


def _left_running(marker: str) -> list[str]:
    """Processes still alive whose command line names ``marker`` (a forked run keeps its parent's)."""
    time.sleep(0.3)
    listing = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in listing.splitlines() if marker in line and "ps -eo" not in line]


def _finished_lines(path) -> list[dict]:
    import json

    records = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    assert all(not (r.get("stopped_by") or "").startswith("interrupted") for r in records)
    return records


@pytest.mark.slow
def test_ctrl_c_on_solve_prints_the_partial_count_and_exits_130(tmp_path):
    level = tmp_path / "level40.txt"
    level.write_text(Path(level_path("hexiom", "level40")).read_text())
    code, out, err, took = _interrupt(["solve", str(level), "--count", "--backend", "clingo"], after=2)
    assert code == 130, (out, err)
    assert re.search(r"\d+\+ solutions \(incomplete\), stopped: interrupted", out), out
    assert took < 3 and "Traceback" not in err
    assert _left_running(str(tmp_path)) == []


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_crosscheck_at_once_and_logs_only_finished_runs(tmp_path, signum):
    log = tmp_path / "runs.jsonl"
    code, out, err, took = _interrupt(
        [
            "crosscheck",
            level_path("hexiom", "level36"),
            level_path("hexiom", "level37"),
            "--backends",  # listing these takes minutes (the default plan leaves them to dp, done in seconds)
            "clingo:count,pysat:totalizer",
            "--timeout",
            "60",
            "--jobs",
            "2",
            "--jsonl",
            str(log),
        ],
        after=2,
        signum=signum,
    )
    assert code == 130, (out, err)
    assert took < 4, took  # not the 60 s time limit of the runs in progress
    assert "VERDICT" in out and "partial" in err and "Traceback" not in err
    assert "0 of 4 runs done before the interruption in " in out  # none finished: not "4 runs in 2.1 s"
    _finished_lines(log)
    assert _left_running(str(log)) == []


@pytest.mark.slow
def test_ctrl_c_on_bench_keeps_the_finished_runs_and_exits_130(tmp_path):
    out_dir = tmp_path / "bench"
    code, out, err, took = _interrupt(
        [
            "bench",
            level_path("hexiom", "level01"),
            level_path("hexiom", "level40"),
            "--backends",
            "clingo:count",
            "--mode",
            "count",
            "--repeat",
            "1",
            "--timeout",
            "60",
            "--no-plots",
            "--out",
            str(out_dir),
        ],
        after=3,
    )
    assert code == 130, (out, err)
    assert took < 4 and "Traceback" not in err
    runs = [line for line in Path(out_dir / "runs.jsonl").read_text(encoding="utf-8").splitlines()][1:]
    assert len(runs) == 1  # level01 finished; level40's interrupted run is not recorded
    assert _left_running(str(out_dir)) == []


@pytest.mark.slow
def test_ctrl_c_on_campaign_keeps_finished_runs_and_exits_130(tmp_path):
    log = tmp_path / "campaign.jsonl"
    code, out, err, took = _interrupt(
        [
            "campaign",
            "--family",
            "hexiom",
            "--side",
            "4",
            "--generate",
            "300",
            "--jsonl",
            str(log),
            "--timeout",
            "60",
            "--jobs",
            "2",
        ],
        after=2,
    )
    assert code == 130, (out, err)
    assert took < 4 and "Traceback" not in err
    if log.exists():
        _finished_lines(log)
    assert _left_running(str(log)) == []


@pytest.mark.slow
def test_ctrl_c_on_generate_exits_130(tmp_path):
    code, out, err, took = _interrupt(
        ["generate", "hexiom", "--side", "5", "--unique", "--count", "500", "-o", str(tmp_path / "out")],
        after=3,
        runs=False,
    )
    assert code == 130, (out, err)
    assert took < 4 and "Traceback" not in err and "interrupted" in err


# ------------------------------------------------------------------ parsers: ASCII digits, huge numbers, deep nesting


def _parse(tmp_path, family: str, text: str, suffix: str = ".txt"):
    from trisolve.models import FAMILIES

    path = tmp_path / f"level{suffix}"
    path.write_text(text, encoding="utf-8")
    return str(path), (lambda: FAMILIES[family].parse(str(path)))


LOGIC_OK = 'positions = 2\n[categories]\na = ["x", "y"]\n'
HOSTILE_LEVELS = [
    ("hexiom", "\u00b2\n. .\n. . .\n. .\n", 1, "digits 0-9"),  # superscript two
    ("hexiom", "\u0662\n. .\n. . .\n. .\n", 1, "digits 0-9"),  # Arabic-Indic two
    ("hexiom", "2\n. .\n. \uff11 .\n. .\n", 3, "unexpected character"),  # fullwidth one as a tile
    ("hexiom", "9" * 5000 + "\n. .\n", 1, "larger than the largest"),
    ("sigils", "\uff14x3\nL J O\n", 1, "WxH"),
    ("sigils", "4x" + "3" * 5000 + "\nL J O\n", 1, "larger than the largest"),
    ("logic", "positions = " + "9" * 5000 + "\n", 1, "too long"),
    ("logic", "positions = 2\nclues = " + "[" * 5000 + "]" * 5000 + "\n", 2, "nested too deeply"),
    ("logic", "positions = 2\nclues = [" + "{ a = " * 3000 + "1" + " }" * 3000 + "]\n", 2, "nested too deeply"),
    ("logic", 'positions = 2\ncategories.b.c = ["x", "y"]\n', 2, "category 'b'"),
    ("logic", LOGIC_OK + 'b.c = ["x", "y"]\n', 4, "category 'b'"),
]


@pytest.mark.parametrize(
    "family,text,line,fragment", HOSTILE_LEVELS, ids=[f"{f}-{i}" for i, (f, *_rest) in enumerate(HOSTILE_LEVELS)]
)
def test_hostile_content_is_a_located_error(tmp_path, family, text, line, fragment):
    from trisolve.models.errors import LevelSyntaxError

    path, parse = _parse(tmp_path, family, text, ".toml" if family == "logic" else ".txt")
    with pytest.raises(LevelSyntaxError) as caught:
        parse()
    assert caught.value.file == path and caught.value.line == line, str(caught.value)
    assert fragment in str(caught.value)
    assert len(str(caught.value)) < 1000


def test_a_huge_unknown_name_is_shortened_in_the_message(tmp_path):
    from trisolve.models.errors import LevelSyntaxError

    name = "z" * 300_000
    _, parse = _parse(
        tmp_path,
        "logic",
        f'positions = 2\nclues = [{{ same = ["{name}", "x"] }}]\n[categories]\na = ["x", "y"]\n',
        ".toml",
    )
    with pytest.raises(LevelSyntaxError) as caught:
        parse()
    assert caught.value.line == 2 and "unknown value" in str(caught.value)
    assert len(str(caught.value)) < 300


@pytest.mark.slow
def test_an_unreachable_dask_scheduler_is_a_usage_error_within_seconds(tmp_path):
    pytest.importorskip("distributed")
    started = time.monotonic()
    done = run_trisolve(
        "campaign",
        "--family",
        "logic",
        "--generate",
        "1",
        "--jsonl",
        str(tmp_path / "c.jsonl"),
        "--executor",
        "dask",
        "--scheduler",
        "tcp://127.0.0.1:1",
        timeout=120,
    )
    refused(done, "--scheduler tcp://127.0.0.1:1: cannot use a Dask scheduler")
    assert time.monotonic() - started < 30


def test_an_unreachable_dask_scheduler_writes_nothing_before_its_error(tmp_path):
    """campaign and mutate ask the scheduler first: no generated level, journal or mutant is left behind."""
    pytest.importorskip("distributed")
    common = ["--executor", "dask", "--scheduler", "UNREACHABLE"]
    campaign = run_trisolve(
        "campaign", "--family", "logic", "--generate", "3", "--jsonl", str(tmp_path / "c.jsonl"), *common
    )
    refused(campaign, "--scheduler UNREACHABLE: cannot use a Dask scheduler")
    mutate = run_trisolve(
        "mutate", "hexiom", "--backend", "clingo", "--generate", "2", "--jsonl", str(tmp_path / "m.jsonl"), *common
    )
    refused(mutate, "--scheduler UNREACHABLE: cannot use a Dask scheduler")
    assert os.listdir(tmp_path) == []
