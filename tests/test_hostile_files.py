"""Every file trisolve reads or writes, given as a careless user or a hostile one would (issue 23).

Readers: level files, journals (``--jsonl``, ``--resume``), ``expected.json``, ``render --solution``,
``--plugin`` files, solution sidecars.  Each special file (device, FIFO, folder, socket) is refused by
name without being read, each hostile JSON (binary, NaN, 5,000-digit numbers, deep nesting, wrong field
types) is one line naming the file, exit 2.  Writers: a full disk, a missing folder, a file where a folder
should be, a file this command reads -- one line, exit 2, and no byte of a user's file lost.

The commands run in this process (``run_cli``), so the corpus stays quick.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
from pathlib import Path

import pytest
from support import ROOT, level_path, run_cli

HEXIOM = level_path("hexiom", "level01")
LEVEL_TEXT = Path(HEXIOM).read_text(encoding="utf-8")


@pytest.fixture
def cli(capsys, monkeypatch):
    """``trisolve ARGS`` run in this process: (exit code, out, err)."""
    monkeypatch.chdir(ROOT)

    def run(*args: str) -> subprocess.CompletedProcess:
        code = run_cli([str(a) for a in args])
        printed = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, printed.out, printed.err)

    return run


def refused(done, *fragments: str) -> None:
    """Exit 2, one line on stderr naming what was wrong, no traceback."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    for fragment in fragments:
        assert fragment.lower() in done.stderr.lower(), done.stderr


# ------------------------------------------------------------------ special files, for every reader


def _special(kind: str, tmp_path) -> str:
    if kind == "device":
        return "/dev/zero"
    if kind == "fifo":
        path = tmp_path / "pipe.json"
        os.mkfifo(path)
        return str(path)
    if kind == "folder":
        path = tmp_path / "folder.json"
        path.mkdir()
        return str(path)
    if kind == "socket":
        path = tmp_path / "socket.json"
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        return str(path)
    raise ValueError(kind)


SPECIAL = {"device": "is a device", "fifo": "named pipe", "folder": "is a folder", "socket": "is a socket"}


def _reader_args(reader: str, special: str, tmp_path) -> list[str]:
    """A command reading ``special`` as the file kind ``reader``."""
    if reader == "level":
        return ["solve", special, "--family", "hexiom"]
    if reader == "journal":
        return ["crosscheck", HEXIOM, "--backends", "pysat:totalizer", "--jsonl", special, "--resume"]
    if reader == "solution":
        return ["render", HEXIOM, "--solution", special, "-o", str(tmp_path / "x.svg")]
    if reader == "plugin":
        return ["solve", HEXIOM, "--plugin", special]
    if reader == "expected":
        folder = tmp_path / "hexiom"
        folder.mkdir(exist_ok=True)
        (folder / "level01.txt").write_text(LEVEL_TEXT)
        target = folder / "expected.json"
        if not os.path.lexists(target):
            os.symlink(special, target)
        return ["crosscheck", str(folder), "--backends", "pysat:totalizer"]
    raise ValueError(reader)


@pytest.mark.parametrize("kind", list(SPECIAL))
@pytest.mark.parametrize("reader", ["level", "journal", "solution", "plugin", "expected"])
def test_a_special_file_is_refused_by_name_without_being_read(cli, tmp_path, reader, kind):
    special = _special(kind, tmp_path)
    if reader == "plugin" and kind == "folder":
        pytest.skip("click refuses a folder given to --plugin itself (dir_okay=False): exit 2 too")
    done = cli(*_reader_args(reader, special, tmp_path))
    expected = SPECIAL[kind]
    if kind == "folder" and reader in ("journal", "solution"):
        expected = "is a directory"  # click's own check of the option (dir_okay=False)
    if (reader, kind) == ("level", "folder"):
        expected = "no instance files"  # solve takes folders: an empty one holds no instance
    refused(done, expected)


# ------------------------------------------------------------------ hostile JSON, for every JSON reader

HOSTILE_JSON = {
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe",
    "nan": b'{"key": NaN}\n',
    "infinity": b'{"count": Infinity}\n',
    "huge-number": b'{"count": ' + b"9" * 5000 + b"}\n",
    "huge-float": b'{"count": 1e400}\n',
    "deep": b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "not-an-object": b"[1, 2, 3]\n",
    "nul": b'{"a": 1}\x00\n',
}


def test_hostile_json_in_a_journal_is_refused_naming_file_and_line(tmp_path):
    from trisolve.crosscheck.jsonl import read_log
    from trisolve.models.files import FileProblem

    for name, data in HOSTILE_JSON.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(data)
        with pytest.raises(FileProblem) as caught:
            read_log(str(path))
        assert str(path) in str(caught.value) and len(str(caught.value)) < 300, name


#: Run records whose fields have the wrong types (each a copy of a good one with one field spoiled).
GOOD_RECORD = {
    "key": "k",
    "path": "p.txt",
    "family": "hexiom",
    "backend": "pysat:totalizer",
    "mode": "all",
    "symmetry_breaking": False,
    "status": "sat",
    "count": 1,
    "complete": True,
    "solutions": [{"cells": [1, None]}],
}
SPOILED = [
    ("count", "12"),
    ("count", -1),
    ("count", 1.5),
    ("count", True),
    ("complete", "yes"),
    ("status", "maybe"),
    ("solutions", {"a": 1}),
    ("solutions", [5]),
    ("times", {"solve": "fast"}),
    ("wall", "0.1"),
    ("stopped_by", 3),
    ("key", None),
]


@pytest.mark.parametrize("field,value", SPOILED, ids=[f"{f}={v!r}" for f, v in SPOILED])
def test_a_journal_record_with_a_wrong_field_type_is_refused_naming_the_field(tmp_path, field, value):
    from trisolve.crosscheck.jsonl import read_log
    from trisolve.models.files import FileProblem

    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps(GOOD_RECORD) + "\n" + json.dumps({**GOOD_RECORD, field: value}) + "\n")
    with pytest.raises(FileProblem) as caught:
        read_log(str(path))
    assert caught.value.line == 2 and (field in str(caught.value) or "status" in str(caught.value))


def test_a_torn_line_is_skipped_and_an_append_keeps_every_byte_it_did_not_write(tmp_path):
    from trisolve.crosscheck.jsonl import Log, read_log
    from trisolve.runs import RunRecord

    path = tmp_path / "runs.jsonl"
    first = json.dumps(GOOD_RECORD)
    torn = '{"key": "torn", "pa'
    path.write_text(first + "\n" + torn)  # a kill cut the last line short
    log = Log(str(path))
    log.write(RunRecord.from_json({**GOOD_RECORD, "key": "k2"}))
    log.close()
    data = path.read_text()
    assert data.startswith(first + "\n" + torn + "\n"), data  # kept, closed with a newline: never cut
    assert set(read_log(str(path))) == {"k", "k2"}


@pytest.mark.parametrize("content", [b"my notes, no newline", b"\x00\x01binary", b"# a level\n3\n. . .\n"])
def test_a_file_that_is_not_a_journal_is_never_appended_to(cli, tmp_path, content):
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    done = cli("crosscheck", HEXIOM, "--backends", "pysat:totalizer", "--jsonl", path)
    refused(done, "not a trisolve journal")
    assert path.read_bytes() == content


EXPECTED_BAD = {
    "count-float": '{"level01": {"count": 1.5, "complete": true}}',
    "count-string": '{"level01": {"count": "12", "complete": true}}',
    "complete-string": '{"level01": {"count": 12, "complete": "yes"}}',
    "no-complete": '{"level01": {"count": 12}}',
    "entry-number": '{"level01": 12}',
    "top-list": "[12]",
    "orbits-negative": '{"level01": {"count": 12, "complete": true, "orbits": -2}}',
    **{name: data.decode("latin-1") for name, data in HOSTILE_JSON.items() if name != "not-an-object"},
}


@pytest.mark.parametrize("name", list(EXPECTED_BAD))
def test_a_bad_expected_json_is_refused_before_any_run(cli, tmp_path, name):
    folder = tmp_path / "hexiom"
    folder.mkdir()
    (folder / "level01.txt").write_text(LEVEL_TEXT)
    (folder / "expected.json").write_bytes(EXPECTED_BAD[name].encode("latin-1"))
    done = cli("crosscheck", folder, "--backends", "pysat:totalizer")
    refused(done, "expected.json")
    assert "runs in" not in done.stdout  # nothing ran


SOLUTIONS_BAD = {
    "float-cell": {"cells": [1.9]},
    "bool-cell": {"cells": [True]},
    "string-cell": {"cells": [" 1 "]},
    "cells-string": {"cells": "1 1"},
    "solutions-object": {"solutions": {"a": 1}},
    "solution-number": {"solutions": [5]},
    "family-list": {"family": ["x"] * 1000, "cells": []},
}


@pytest.mark.parametrize("name", list(SOLUTIONS_BAD) + list(HOSTILE_JSON))
def test_a_bad_solution_file_is_refused(cli, tmp_path, name):
    path = tmp_path / "solution.json"
    if name in SOLUTIONS_BAD:
        path.write_text(json.dumps(SOLUTIONS_BAD[name]))
    else:
        path.write_bytes(HOSTILE_JSON[name])
    done = cli("render", HEXIOM, "--solution", path, "-o", tmp_path / "x.svg")
    refused(done, str(path))
    assert len(done.stderr) < 400
    assert not (tmp_path / "x.svg").exists()


def test_a_plugin_file_over_the_size_cap_is_refused(cli, tmp_path):
    from trisolve.models.files import MAX_PLUGIN_BYTES

    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (MAX_PLUGIN_BYTES + 1))
    refused(cli("solve", HEXIOM, "--plugin", big), "over")


def test_a_torn_sidecar_is_regenerated_not_a_crash(tmp_path):
    from trisolve.generate.campaign import prepare_instances

    folder = tmp_path / "instances"
    first, _, _ = prepare_instances("hexiom", 1, 0, str(folder), {"side": 2})
    sidecar = folder / "hexiom-00000.solution.json"
    sidecar.write_bytes(b'{"unique": NaN')  # torn by a kill, and hostile
    again, fresh, _ = prepare_instances("hexiom", 1, 0, str(folder), {"side": 2})
    assert fresh == 1 and again[0].path == first[0].path
    assert json.loads(sidecar.read_text())["family"] == "hexiom"


# ------------------------------------------------------------------ writes that fail, and inputs never overwritten


def test_solve_into_a_full_disk_prints_the_answer_then_exits_2(cli):
    done = cli("solve", HEXIOM, "--backend", "pysat", "--jsonl", "/dev/full")
    assert done.returncode == 2 and "solved" in done.stdout, (done.stdout, done.stderr)
    assert "/dev/full" in done.stderr and "no space left" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "where,fragment",
    [("missing/out.svg", "no folder"), ("afile/out.svg", "is a file, not a folder")],
    ids=["missing-folder", "file-as-folder"],
)
def test_a_picture_that_cannot_be_written_is_one_line(cli, tmp_path, where, fragment):
    (tmp_path / "afile").write_text("x")
    refused(cli("render", HEXIOM, "-o", tmp_path / where), fragment)


@pytest.mark.parametrize(
    "args",
    [
        ["export", HEXIOM, "--format", "dimacs", "-o", "/dev/full"],
        ["crosscheck", HEXIOM, "--backends", "pysat:totalizer", "--jsonl", "/dev/full"],
        ["solve", HEXIOM, "--svg", "/dev/null/pictures"],
        ["generate", "hexiom", "--side", "2", "-o", "/dev/null/levels"],
        ["bench", HEXIOM, "--backends", "pysat:totalizer", "--repeat", "1", "--out", "/dev/null/bench"],
    ],
    ids=["export-full", "journal-device", "svg-under-a-file", "generate-under-a-file", "bench-under-a-file"],
)
def test_a_write_that_fails_is_exit_2_with_one_line(cli, args):
    refused(cli(*args))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder anyway")
def test_permission_denied_is_one_line(cli, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    refused(cli("export", HEXIOM, "--format", "dimacs", "-o", locked / "x.cnf"), "permission denied")


def _copy(tmp_path, name="level.txt"):
    path = tmp_path / name
    path.write_text(LEVEL_TEXT)
    return path


@pytest.mark.parametrize(
    "outputs",
    [
        ["solve", "{level}", "--backend", "pysat", "--jsonl", "{level}"],
        ["export", "{level}", "--format", "dimacs", "-o", "{level}"],
        ["crosscheck", "{level}", "--backends", "pysat:totalizer", "--record-expected", "{level}"],
        ["render", "{level}", "--solution", "{solution}", "-o", "{solution}.svg"],
    ],
    ids=["solve-jsonl", "export", "record-expected", "render-solution-kept"],
)
def test_no_output_overwrites_an_input(cli, tmp_path, outputs):
    level = _copy(tmp_path)
    solution = tmp_path / "s.json"
    solution.write_text(json.dumps({"cells": [1, 1, None, None, None, None, None]}))
    before = level.read_bytes(), solution.read_bytes()
    done = cli(*[a.format(level=level, solution=solution) for a in outputs])
    assert (level.read_bytes(), solution.read_bytes()) == before
    assert "Traceback" not in done.stderr
    if outputs[0] != "render":
        refused(done)


def test_record_expected_into_a_full_disk_keeps_the_table_and_the_old_file(cli, tmp_path):
    folder = tmp_path / "hexiom"
    folder.mkdir()
    _copy(folder, "level01.txt")
    expected = folder / "expected.json"
    expected.write_text('{"_note": "mine"}\n')
    os.chmod(folder, 0o500) if os.geteuid() != 0 else None
    done = cli("crosscheck", folder, "--backends", "pysat:totalizer", "--record-expected", "/dev/full", "--no-expected")
    assert done.returncode == 2 and "VERDICT" in done.stdout, (done.stdout, done.stderr)
    assert "/dev/full" in done.stderr
    assert expected.read_text() == '{"_note": "mine"}\n'


# ------------------------------------------------------------------ paths and text


def test_a_path_with_a_line_break_is_a_path_on_the_command_line_and_as_a_pathlib_path(cli, tmp_path):
    from pathlib import Path

    import trisolve

    odd = tmp_path / "two\nlines.txt"
    odd.write_text(LEVEL_TEXT)
    done = cli("solve", odd, "--family", "hexiom", "--backend", "pysat")
    assert done.returncode == 0 and "solved" in done.stdout, done.stderr
    assert trisolve.load(Path(odd), family="hexiom").path == str(odd)
    with pytest.raises(trisolve.UsageError if hasattr(trisolve, "UsageError") else Exception):
        trisolve.load(str(odd) + "\n", family="nonesuch")


def test_a_junk_file_in_a_folder_is_its_own_error_and_the_rest_are_checked(cli, tmp_path):
    folder = tmp_path / "hexiom"
    folder.mkdir()
    _copy(folder, "good.txt")
    (folder / "junk.txt").write_bytes(b"\x00\xff not a level")
    done = cli("crosscheck", folder, "--backends", "pysat:totalizer")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "junk" in done.stdout and "ERROR" in done.stdout and "agree" in done.stdout
    named = cli("crosscheck", folder / "junk.txt", "--backends", "pysat:totalizer", "--family", "hexiom")
    refused(named, "junk.txt")


@pytest.mark.slow
def test_a_minimise_folder_that_cannot_be_made_keeps_the_table(cli, tmp_path):
    """The disagreement is found, shrunk and printed; only writing it fails: one line, exit 2."""
    (tmp_path / "afile").write_text("x")
    plugin = os.path.join(ROOT, "docs", "examples", "my_hexiom_cnf.py")
    done = cli(
        "crosscheck", level_path("hexiom", "level10"), "--plugin", plugin, "--backends", "pysat:totalizer,mine",
        "--no-expected", "--minimize", "--minimize-dir", tmp_path / "afile" / "min",
    )  # fmt: skip
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "complete counts differ" in done.stdout and "VERDICT: FAILED" in done.stdout
    assert "afile" in done.stderr and "not written" in done.stderr and "Traceback" not in done.stderr


# ------------------------------------------------------------------ smaller edges


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["solve", HEXIOM, "--backend", "mutated:clingo:count~lp:nonesuch.lp=/etc/hostname"], "does not load"),
        (["solve", HEXIOM, "--backend", "mutated:clingo:count~lp:hexiom_count.lp=/dev/zero"], "is a device"),
        (["solve", HEXIOM, "--backend", "mutated:pysat:totalizer~drop-group@backends/nope.py:3[x]"], "no translator"),
        (["solve", HEXIOM, "--backend", "dp", "--memory", "inf"], "--memory"),
        (["solve", HEXIOM, "--backend", "dp", "--memory", "1e400G"], "--memory"),
        (["render", HEXIOM, "--solve", "--timeout", "inf", "-o", "x.svg"], "--timeout"),
        (["mutate", "hexiom", "--backend", "pysat", "--timeout", "nan"], "--timeout"),
        (["mutate", "hexiom", "--backend", "pysat", "--timeout", "inf"], "--timeout"),
        (["mutate", "hexiom", "--backend", "pysat", "--generate", "99999999999"], "--generate"),
        (["mutate", "hexiom", "--backend", "pysat", "--jobs", "10000"], "--jobs"),
        (["mutate", "hexiom", "--backend", "pysat", "--retry-budget", "inf"], "--retry-budget"),
    ],
    ids=["lp-not-loaded", "lp-device", "site-missing", "memory-inf", "memory-huge", "render-inf", "mutate-nan",
         "mutate-inf", "mutate-generate", "mutate-jobs", "mutate-budget"],
)  # fmt: skip
def test_an_absurd_name_or_number_is_one_line_exit_2(cli, args, fragment):
    refused(cli(*args), fragment)


def test_output_into_a_pipe_that_closes_stops_quietly():
    """``trisolve ... | head -1``: the reader goes away; trisolve exits 141 (128 + SIGPIPE), saying nothing."""
    import sys

    writer = subprocess.Popen(
        [sys.executable, "-m", "trisolve", "solve", HEXIOM, "--all", "--backend", "pysat"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    writer.stdout.readline()
    writer.stdout.close()  # as head -1 does
    err = writer.stderr.read().decode()
    assert writer.wait(timeout=60) == 141 and err == "", err


@pytest.mark.parametrize("backend", ["pysat", "clingo", "cpsat", "dp"])
def test_a_bad_level_is_refused_before_any_solver_library_is_imported(tmp_path, backend):
    import sys

    bad = tmp_path / "bad.txt"
    bad.write_text("3x3\nL J Q\n")
    code = (
        "import sys, trisolve\n"
        "try:\n"
        f"    trisolve.solve({str(bad)!r}, {backend!r}, family='sigils')\n"
        "except trisolve.api.LevelSyntaxError as problem:\n"
        "    print('refused', problem.line)\n"
        "print(sorted(m for m in ('pysat', 'clingo', 'ortools', 'numpy') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.stdout.split("\n")[:2] == ["refused 2", "[]"], (done.stdout, done.stderr)
