"""Hostile input as a tester would try it: special files, out-of-range numbers, odd paths.

Each case must end in exit 2 with a message naming the file or the option, promptly,
and never with a traceback.
"""

from __future__ import annotations

import os
import time

import pytest

from support import level_path, run_trisolve

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


def test_special_files_inside_a_folder_are_refused_too(tmp_path):
    os.mkfifo(tmp_path / "p.txt")
    refused(run_trisolve("crosscheck", str(tmp_path), "--family", "hexiom", timeout=30), "named pipe")


def test_an_oversized_file_is_refused_by_what_is_read(tmp_path):
    from trisolve.models.errors import MAX_FILE_BYTES, InstanceTooLarge, read_instance_text

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
    level.write_text(open(HEXIOM).read())
    done = run_trisolve("solve", str(level))
    refused(done, str(level))
    assert "toml" in done.stderr.lower()


# ------------------------------------------------------------------ numbers on the command line


@pytest.mark.parametrize("args,option", [
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
], ids=lambda value: value if isinstance(value, str) else " ".join(a for a in value if "/" not in a)[:40])
def test_a_number_out_of_range_is_a_usage_error_naming_the_option(args, option):
    refused(run_trisolve(*args), option)


def test_a_huge_name_is_shortened_in_the_message():
    done = run_trisolve("solve", HEXIOM, "--family", "x" * 100_000)
    refused(done, "unknown family")
    assert len(done.stderr) < 1000
