"""Files are written whole or not at all, and an update of several files changes all of them or none.

A full disk is injected as ``os.write`` raising ENOSPC (after writing part of what it was given, as a
real full disk does), a read-only file as ``os.replace``, ``os.open`` or ``os.access`` saying no
(the tests run as root, so chmod would not stop a write).  Each failure is injected at every point
where it can happen: the n-th call, for every n a clean run makes.

The end-to-end case is ``bench --portfolio --write-defaults`` (the shipped table) and then
``scripts/write_docs.py --portfolio OUT`` (the README's table and the docs pages) in a copy of the
checkout's README, docs pages and shipped table, with the measurement itself replaced by canned runs
(the rest -- the plan, the journal, the table, the merge, every write -- is the command's own).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from support import ROOT, level_path, run_cli

from trisolve.models import files

# ------------------------------------------------------------------ injecting failures


class Inject:
    """Count the calls of ``os.<name>`` (those ``wanted`` accepts), and make the ``fail_at``-th one fail."""

    def __init__(self, monkeypatch, name: str, error: OSError, fail_at: int | None = None, wanted=None) -> None:
        self.calls = 0
        self.failed = False
        real = getattr(os, name)

        def fake(*args, **kwargs):
            if wanted is None or wanted(*args):
                self.calls += 1
                if self.calls == fail_at:
                    self.failed = True
                    if name == "write":  # a full disk takes a part of the write first
                        fd, data = args
                        real(fd, bytes(data)[: len(data) // 2])
                    raise error
            return real(*args, **kwargs)

        monkeypatch.setattr(os, name, fake)


def _writing(path, flags, *rest) -> bool:
    return bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))


FAILURES = {
    "full-disk": ("write", OSError(errno.ENOSPC, "No space left on device"), None),
    "rename-refused": ("replace", PermissionError(errno.EACCES, "Permission denied"), None),
    "open-refused": ("open", PermissionError(errno.EACCES, "Permission denied"), _writing),
}


def _snapshot(folder) -> dict[str, bytes]:
    return {
        os.path.relpath(os.path.join(top, name), folder): open(os.path.join(top, name), "rb").read()
        for top, _, names in os.walk(folder)
        for name in names
    }


# ------------------------------------------------------------------ one update, several files


def _three(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "old.txt").write_bytes(b"old a\n" * 1000)
    (tmp_path / "b" / "old.md").write_bytes(b"old b\n")
    return [
        files.Change.text(tmp_path / "a" / "old.txt", "new a\n" * 3000),
        files.Change.text(tmp_path / "b" / "new.json", "{}\n"),
        files.Change.text(tmp_path / "b" / "old.md", "new b\n"),
    ]


def test_a_clean_update_writes_every_file_and_leaves_no_temporary(tmp_path):
    changes = _three(tmp_path)
    os.chmod(tmp_path / "a" / "old.txt", 0o640)
    files.write_files(changes)
    assert {os.path.relpath(c.path, tmp_path): Path(c.path).read_bytes() for c in changes} == {
        os.path.relpath(c.path, tmp_path): c.data for c in changes
    }
    assert stat.S_IMODE(os.stat(tmp_path / "a" / "old.txt").st_mode) == 0o640, "the file's mode is kept"
    assert sorted(_snapshot(tmp_path)) == ["a/old.txt", "b/new.json", "b/old.md"]


@pytest.mark.parametrize("failure", FAILURES)
def test_a_failure_at_any_point_leaves_every_file_as_it_was(tmp_path, monkeypatch, failure):
    name, error, wanted = FAILURES[failure]
    changes = _three(tmp_path)
    before = _snapshot(tmp_path)
    with monkeypatch.context() as patch:
        counter = Inject(patch, name, error, wanted=wanted)
        files.write_files(changes)
    points = counter.calls
    assert points >= 3
    for point in range(1, points + 1):
        for change in changes:  # back to the old files
            target = os.fspath(change.path)
            if os.path.basename(target).startswith("new"):
                os.unlink(target) if os.path.exists(target) else None
        for relative, data in before.items():
            (tmp_path / relative).write_bytes(data)
        with monkeypatch.context() as patch:
            injected = Inject(patch, name, error, fail_at=point, wanted=wanted)
            with pytest.raises(files.FileProblem) as problem:
                files.write_files(changes)
        assert injected.failed
        assert _snapshot(tmp_path) == before, f"{failure} at call {point} of {points}"
        assert "\n" not in str(problem.value) and "cannot write" in str(problem.value)


def test_a_read_only_file_or_a_full_disk_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    changes = _three(tmp_path)
    before = _snapshot(tmp_path)
    read_only = os.fspath(changes[2].path)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: path != read_only and real_access(path, mode))
    writes = Inject(monkeypatch, "write", OSError(errno.EIO, "unused"))
    with pytest.raises(files.FileProblem, match="read-only"):
        files.write_files(changes)
    assert writes.calls == 0 and _snapshot(tmp_path) == before
    monkeypatch.setattr(os, "access", real_access)

    real_statvfs = os.statvfs

    class Full:
        def __init__(self, real):
            self.f_frsize, self.f_files, self.f_favail = real.f_frsize, real.f_files, real.f_favail
            self.f_bavail = 1

    monkeypatch.setattr(os, "statvfs", lambda path: Full(real_statvfs(path)))
    with pytest.raises(files.FileProblem, match="no space left"):
        files.write_files(changes)
    assert writes.calls == 0 and _snapshot(tmp_path) == before


def test_a_link_stays_a_link_and_the_file_it_names_is_rewritten(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    files.write_text(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


# ------------------------------------------------------------------ journals: a line whole or not at all


@pytest.mark.parametrize("kind", ["appender", "output"])
def test_a_journal_line_is_written_whole_or_not_at_all(tmp_path, monkeypatch, kind):
    from trisolve.crosscheck.jsonl import read_lines

    path = tmp_path / "runs.jsonl"
    journal = files.Appender(path) if kind == "appender" else files.Output(path)
    journal.write(json.dumps({"run": 1}) + "\n")
    before = path.read_bytes()
    with monkeypatch.context() as patch:
        Inject(patch, "write", OSError(errno.ENOSPC, "No space left on device"), fail_at=1)
        with pytest.raises(files.FileProblem, match="no space left"):
            journal.write(json.dumps({"run": 2, "solutions": ["x" * 10_000]}) + "\n")
    assert path.read_bytes() == before, "the half-written line is cut off again"
    journal.close()
    if kind == "appender":  # the journal goes on
        journal = files.Appender(path)
        journal.write(json.dumps({"run": 3}) + "\n")
        journal.close()
        assert list(read_lines(str(path))) == [{"run": 1}, {"run": 3}]


def test_a_torn_last_line_is_skipped_by_the_reader_and_closed_by_the_next_append(tmp_path):
    from trisolve.crosscheck.jsonl import read_lines

    path = tmp_path / "runs.jsonl"
    path.write_bytes(b'{"run": 1}\n{"run": 2, "solut')  # a kill -9 mid-line (or a crash of the machine)
    assert list(read_lines(str(path))) == [{"run": 1}]
    journal = files.Appender(path)
    journal.write('{"run": 3}\n')
    journal.close()
    assert path.read_bytes().startswith(b'{"run": 1}\n{"run": 2, "solut\n')
    assert list(read_lines(str(path))) == [{"run": 1}, {"run": 3}]


# ------------------------------------------------------------------ bench --portfolio --write-defaults, write_docs

LOGIC_LEVEL = level_path("logic", "einstein")
#: what the command writes of a checkout (the shipped table), and what scripts/write_docs.py writes from it
TABLE = "selection/portfolio.json"
PAGES = ("README.md", "docs/bench/portfolio.md", "docs/backends.md", "docs/bench/portfolio.png")


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A copy of the checkout's README, docs pages and shipped table, where the command writes its defaults and
    scripts/write_docs.py the pages; the measurement is canned: every run solves in 0.01 s (the first backend) to
    0.05 s."""
    from trisolve.bench import portfolio
    from trisolve.bench.runner import BenchRun
    from trisolve.selection import table

    root = tmp_path / "checkout"
    for relative in (TABLE, *PAGES):
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, relative), root / relative)
    monkeypatch.setattr(table, "TABLE_PATH", str(root / "selection" / "portfolio.json"))
    order: list[str] = []

    def run_trial(trial, family, settings):
        order.append(trial.backend) if trial.backend not in order else None
        seconds = 0.01 * (1 + order.index(trial.backend))
        blank = {name: None for name in BenchRun.__dataclass_fields__}
        return BenchRun(
            **{
                **blank,
                **dict(instance=os.path.basename(trial.path), path=trial.path, family=trial.family),
                **dict(backend=trial.backend, round=0, seed=0, mode=settings.mode, symmetry_breaking=False),
                **dict(timeout=settings.timeout, status="sat", solved=True, count=1, complete=True, valid=True),
                **dict(time=seconds, wall=seconds, cpu=seconds, parse=0.0, parse_cpu=0.0, peak_rss_mb=1.0),
                "stats": {},
                "times": {},
            }
        )

    monkeypatch.setattr(portfolio, "run_trial", run_trial)
    monkeypatch.setattr(portfolio, "warm_machine", lambda *args, **kwargs: None)
    return root


def _portfolio(tmp_path, *extra: str) -> list[str]:
    argv = ["bench", "--portfolio", LOGIC_LEVEL, "--families", "logic", "--tasks", "first", "--max-size", "0"]
    return [*argv, "--timeout", "1", "--out", str(tmp_path / "out"), "--write-defaults", "--quiet", *extra]


def _files(checkout) -> dict[str, bytes]:
    return {relative: (checkout / relative).read_bytes() for relative in (TABLE, *PAGES)}


def _write_docs(checkout, tmp_path) -> int:
    """``python scripts/write_docs.py --portfolio OUT`` in the copy of the checkout."""
    from support import script

    return script("write_docs").main(["--portfolio", str(tmp_path / "out")], root=str(checkout))


def _fails_whole_at_every_call(checkout, before: dict, points: int, failure: str, command, capsys) -> None:
    """``command`` with ``failure`` injected at each of its ``points`` calls: exit 2, one line, every file of the
    checkout as ``before``, no temporary file left."""
    name, error, wanted = FAILURES[failure]
    for point in range(1, points + 1):
        for relative, data in before.items():
            (checkout / relative).write_bytes(data)
        with pytest.MonkeyPatch.context() as patch:
            injected = Inject(patch, name, error, fail_at=point, wanted=wanted)
            code = command()
        printed = capsys.readouterr()
        assert injected.failed
        assert code == 2, (failure, point, printed.err)
        assert len(printed.err.strip().splitlines()) == 1 and "Traceback" not in printed.err, printed.err
        assert _files(checkout) == before, f"{failure} at call {point}"
        leftovers = [n for top, _, names in os.walk(checkout) for n in names if n.startswith(".trisolve-")]
        assert not leftovers, leftovers


@pytest.mark.parametrize("failure", FAILURES)
def test_bench_portfolio_write_defaults_changes_nothing_when_a_write_fails_anywhere(
    checkout, tmp_path, capsys, monkeypatch, failure
):
    """The command writes the shipped table (and its own folder) and never a page of the checkout; a failure at
    any point leaves the table as it was."""
    name, error, wanted = FAILURES[failure]
    before = _files(checkout)
    with monkeypatch.context() as patch:
        counter = Inject(patch, name, error, wanted=wanted)
        assert run_cli(_portfolio(tmp_path)) == 0, capsys.readouterr().err
    capsys.readouterr()
    after = _files(checkout)
    assert after[TABLE] != before[TABLE], "a clean run rewrites the shipped table"
    assert all(after[r] == before[r] for r in PAGES), "the command writes no page of the checkout"
    assert counter.calls >= 5, counter.calls  # the journal's lines, OUT/'s files, the table
    _fails_whole_at_every_call(checkout, before, counter.calls, failure, lambda: run_cli(_portfolio(tmp_path)), capsys)


@pytest.mark.parametrize("failure", FAILURES)
def test_write_docs_changes_no_page_when_a_write_fails_anywhere(checkout, tmp_path, capsys, monkeypatch, failure):
    """scripts/write_docs.py writes the README's table, the table's page and the policy's page from the shipped
    table: all of them or none."""
    name, error, wanted = FAILURES[failure]
    assert run_cli(_portfolio(tmp_path)) == 0
    capsys.readouterr()
    before = _files(checkout)
    with monkeypatch.context() as patch:
        counter = Inject(patch, name, error, wanted=wanted)
        assert _write_docs(checkout, tmp_path) == 0, capsys.readouterr().err
    capsys.readouterr()
    after = _files(checkout)
    assert all(after[r] != before[r] for r in PAGES[:3]), "a clean run rewrites the README and both pages"
    assert after[TABLE] == before[TABLE] and after[PAGES[3]] == before[PAGES[3]], "a partial one keeps the plot"
    assert counter.calls >= 3, counter.calls
    _fails_whole_at_every_call(
        checkout, before, counter.calls, failure, lambda: _write_docs(checkout, tmp_path), capsys
    )


def test_a_read_only_readme_leaves_the_pages_alone(checkout, tmp_path, capsys, monkeypatch):
    readme = os.path.realpath(checkout / "README.md")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: os.path.realpath(path) != readme and real_access(path, mode))
    assert run_cli(_portfolio(tmp_path)) == 0, "the command writes no README"
    capsys.readouterr()
    before = _files(checkout)
    assert _write_docs(checkout, tmp_path) == 2
    err = capsys.readouterr().err
    assert "README.md" in err and "read-only" in err and len(err.strip().splitlines()) == 1, err
    assert _files(checkout) == before


def test_a_readme_without_write_permission_is_read_only_for_root_too(checkout, tmp_path, capsys):
    os.chmod(checkout / "README.md", 0o444)
    assert run_cli(_portfolio(tmp_path)) == 0, "the command writes no README"
    capsys.readouterr()
    before = _files(checkout)
    assert _write_docs(checkout, tmp_path) == 2
    err = capsys.readouterr().err
    assert "README.md: cannot write: the file is read-only" in err and len(err.strip().splitlines()) == 1, err
    assert _files(checkout) == before


def test_a_measurement_of_one_family_and_task_merges_into_the_shipped_table(checkout, tmp_path, capsys):
    old = json.loads((checkout / "selection" / "portfolio.json").read_text())
    readme_before = (checkout / "README.md").read_text().splitlines()
    assert run_cli(_portfolio(tmp_path)) == 0
    assert _write_docs(checkout, tmp_path) == 0
    capsys.readouterr()
    new = json.loads((checkout / "selection" / "portfolio.json").read_text())

    assert new["header"] == old["header"], "the table's header is still the full measurement's"
    for family, tasks in old["families"].items():
        for task, entry in tasks.items():
            if (family, task) != ("logic", "first"):
                assert new["families"][family][task] == entry, (family, task)
    measured = new["families"]["logic"]["first"]
    assert measured["instances"] == 1 and measured["measured"]["date"] and measured["measured"]["timeout"] == 1.0
    ranked = {row["backend"] for row in old["families"]["logic"]["first"]["rows"]}
    # every backend ranked before is ranked again (the portfolio may measure more: the compiled variants)
    assert ranked <= {row["backend"] for row in measured["rows"]}

    readme = (checkout / "README.md").read_text().splitlines()
    changed = [line for line in readme if line not in readme_before]
    assert any(line.startswith("| logic | first solution |") for line in changed)
    assert any(line.startswith("Measured at another time: logic first solution:") for line in changed)
    assert not any(line.startswith(("| hexiom", "| sigils", "| logic | `--count`")) for line in changed)
    page = (checkout / "docs" / "bench" / "portfolio.md").read_text()
    assert "## hexiom: exact count" in page and "- Measured at another time: logic first solution:" in page
    assert _write_docs(checkout, tmp_path) == 0 and "rewritten" not in capsys.readouterr().out, "nothing left"


def test_write_docs_alone_gives_the_page_every_measured_family_and_keeps_its_findings(checkout, tmp_path, capsys):
    """A family measured alone (``--families slither``) reaches the page without a new measurement folder, and
    the findings the page lists (answers that disagreed) stay: only a measurement can say they are gone."""
    from support import script

    page_path = checkout / "docs" / "bench" / "portfolio.md"
    finding = "clingo:compiled on slither/x (count): wrong answer: 2 solutions, expected 1"
    page_path.write_text("# stale page\n\n## Findings\n\n- " + finding + "\n\n## Time against instance size\n")
    assert script("write_docs").main([], root=str(checkout)) == 0
    capsys.readouterr()
    page = page_path.read_text()
    shipped = json.loads((checkout / "selection" / "portfolio.json").read_text())
    for family in shipped["families"]:
        assert f"## {family}: first solution" in page, family
    assert "## Findings\n\n- " + finding + "\n" in page
    assert script("write_docs").main(["--check"], root=str(checkout)) == 0, "written once, the page stays"


def test_rows_measured_on_other_instances_are_not_ranked_together():
    from trisolve.bench import portfolio
    from trisolve.models.errors import UsageError

    def entry(instances, *backends):
        rows = [
            {"backend": b, "solved": instances, "total": instances, "wall": {}, "solved_wall": {}} for b in backends
        ]
        return {"instances": instances, "default": backends[0], "rows": rows}

    old = {"header": {"date": "then"}, "families": {"logic": {"first": entry(17, "pysat:pairwise", "clingo:choice")}}}
    same = {"header": {"date": "now"}, "families": {"logic": {"first": entry(17, "pysat:pairwise")}}}
    merged = portfolio.merge(old, same)
    rows = merged["families"]["logic"]["first"]["rows"]
    assert [row["backend"] for row in rows] == ["pysat:pairwise", "clingo:choice"]
    assert rows[1]["measured"]["date"] == "then" and "measured" not in rows[0]
    assert merged["header"] == same["header"], "every entry was measured: the header is the new one"
    other = {"header": {"date": "now"}, "families": {"logic": {"first": entry(3, "pysat:pairwise")}}}
    with pytest.raises(UsageError, match="cannot be ranked together"):
        portfolio.merge(old, other)
