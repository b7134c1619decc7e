"""The library: ``import trisolve`` and its functions, as a notebook user meets them.

The README's API section and the API module's docstrings run here as doctests,
so the documented examples cannot drift from what the code does.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys

import pytest
from support import ROOT, level_path

import trisolve
from trisolve.backends import registry
from trisolve.selection import declaring

#: each paradigm's backend (the portfolio): SAT, ASP, CP
BACKENDS = list(declaring("PORTFOLIO"))


@pytest.fixture(autouse=True)
def _in_repository_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the documented examples use paths relative to the checkout


def _run_doctests(text: str, name: str) -> None:
    test = doctest.DocTestParser().get_doctest(text, {}, name, None, 0)
    assert test.examples, f"{name}: no examples found"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0, f"{name}: a documented example failed (output above)"


@pytest.mark.slow
def test_the_readme_api_section_runs_as_documented():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        readme = handle.read()
    section = readme[readme.index("## Python API") :]
    section = section[: section.index("\n## ", 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the README's API section has no python block"
    _run_doctests("\n".join(blocks), "README.md#python-api")


def test_the_api_docstrings_run_as_documented():
    import trisolve.api

    for name, text in [("trisolve.api", trisolve.api.__doc__), ("trisolve", trisolve.__doc__)]:
        _run_doctests(text, name)


def test_import_trisolve_loads_no_solver_and_no_library_module():
    code = (
        "import sys, trisolve; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('clingo', 'ortools', 'pysat', 'numpy', 'click') or m == 'trisolve.api'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_issue_one_liner_prints_the_status_and_the_board():
    code = (
        "import trisolve; r = trisolve.solve(trisolve.load('levels/hexiom/level38.txt'), backend='clingo'); "
        "print(r.status, r.solutions[0])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sat ") and "+3 4 4 5 . 5 4 4+3" in done.stdout


def test_public_names_are_listed_and_typed():
    import trisolve.api

    for name in set(trisolve.__all__) - {"__version__"}:
        assert getattr(trisolve, name) is getattr(trisolve.api, name)
    assert os.path.exists(os.path.join(os.path.dirname(trisolve.__file__), "py.typed"))


def test_every_api_module_stays_under_300_lines():
    """The library is a facade, one module per verb: a module past 300 lines holds policy of a layer below."""
    folder = os.path.join(ROOT, "trisolve", "api")
    modules = sorted(name for name in os.listdir(folder) if name.endswith(".py"))
    assert "solving.py" in modules and "measuring.py" in modules
    lengths = {}
    for name in modules:
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            lengths[name] = len(handle.read().splitlines())
    assert {name: n for name, n in lengths.items() if n >= 300} == {}


def test_every_public_name_loads_its_own_verb_only():
    """Each name of ``trisolve.api`` is found, and a command asking for ``solve`` loads no other verb's module."""
    import trisolve.api

    for name in trisolve.api.__all__:
        assert getattr(trisolve.api, name) is not None, name
    code = (
        "import sys; from trisolve.api import load, solve; "
        "print(sorted(m for m in sys.modules if m.startswith('trisolve.api.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['trisolve.api.levels',", "'trisolve.api.running',", "'trisolve.api.solving']"]


@pytest.mark.parametrize("isolate", [True, False], ids=["child-process", "in-process"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_count_is_exact_and_every_solution_valid(backend, isolate):
    level = trisolve.load(level_path("hexiom", "level01"))
    seen: list = []
    tally: list[int] = []
    for request in ({"count": True}, {"all": True}, {"count": True, "on_solution": seen.append}):
        result = trisolve.solve(level, backend, isolate=isolate, on_found=tally.append, **request)
        assert (result.status, result.count, result.complete, result.count_text) == ("sat", 12, True, "12")
        # a count ships its first solution only, unless the caller asked to see them all
        shipped = 1 if request == {"count": True} else 12
        assert len(result.solutions) == shipped and len(set(result.solutions)) == shipped
        assert all(s.violations() == [] for s in result.solutions) and result.invalid == ()
        assert result.backend.startswith(backend + ":")
    assert len(seen) == 12 and all(s.violations() == [] for s in seen)
    if isolate:  # on_found hears every solution of the three runs, one by one
        assert tally == list(range(1, 13)) * 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_limit_cuts_the_count_short_and_says_so(backend):
    result = trisolve.solve(level_path("hexiom", "level01"), backend, all=True, limit=5)
    assert (result.count, result.complete, result.count_text) == (5, False, "5+")


def test_solutions_stream_as_they_are_found():
    seen = []
    result = trisolve.solve(level_path("hexiom", "level01"), "clingo", all=True, on_solution=seen.append)
    assert seen == list(result.solutions) and len(seen) == 12


@pytest.mark.parametrize("family,stem", [("hexiom", "level02"), ("sigils", "gate-4x3"), ("logic", "einstein")])
def test_levels_load_from_text_as_from_files(family, stem):
    path = level_path(family, stem)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    from_file = trisolve.load(path)
    from_text = trisolve.load(text, family="logic" if family == "logic" else None)
    assert from_file.family == from_text.family == family
    assert from_text.path is None and from_file.path == path
    assert from_text.render() == from_file.render()
    first = trisolve.solve(from_text)
    assert first.status == "sat" and first.solutions[0].violations() == []
    assert str(first.solutions[0]) == first.solutions[0].render().rstrip("\n")


@pytest.mark.parametrize(
    "call,fragment",
    [
        (lambda: trisolve.load("levels/hexiom/no-such.txt"), "no such file"),
        (lambda: trisolve.load("levels/hexiom"), "folder"),
        (lambda: trisolve.load("3\n. x .\n"), "<string>"),
        (lambda: trisolve.solve("levels/hexiom/level01.txt", "nosuch"), "unknown backend"),
        (lambda: trisolve.solve("levels/hexiom/level01.txt", limit=3), "limit"),
        (lambda: trisolve.solve("levels/hexiom/level01.txt", "auto", all=True), "auto"),
    ],
    ids=["missing-file", "folder", "bad-text", "unknown-backend", "limit-without-all", "auto-all"],
)
def test_bad_requests_raise_trisolve_errors_with_a_message(call, fragment):
    from trisolve.models.errors import TrisolveError

    with pytest.raises(TrisolveError, match=re.escape(fragment)):
        call()


def test_crosscheck_judges_each_instance():
    report = trisolve.cross_check(
        [level_path("hexiom", "level01"), trisolve.load(level_path("hexiom", "level02"))],
        backends=["pysat:totalizer", "clingo:count", "cpsat:int"],
        timeout=20,
        jobs=2,
    )
    assert [(v.status, v.count) for v in report.verdicts] == [("agree", 12), ("agree", 3)]
    assert not report.failed and report.runs == 6 and "VERDICT" in str(report)
    assert json.loads(json.dumps(report.to_json()))["instances"]


def test_crosscheck_finds_a_broken_encoding():

    registry.load_plugin(os.path.join(ROOT, "tests", "mutants.py"))
    report = trisolve.cross_check(
        level_path("hexiom", "level08"),
        backends=["pysat:totalizer", "mutant:neighbours-off-by-one"],
        timeout=20,
        expected=False,
    )
    assert report.failed and report.verdicts[0].status == "DISAGREE" and report.findings


def test_bench_times_each_run():
    timing = trisolve.benchmark(
        level_path("hexiom", "level01"), backends=["pysat:totalizer", "clingo:count"], repeat=2, timeout=20
    )
    assert sorted((r.backend, r.round) for r in timing.runs) == [
        ("clingo:count", 0),
        ("clingo:count", 1),
        ("pysat:totalizer", 0),
        ("pysat:totalizer", 1),
    ]
    assert all(r.solved and r.valid and r.cpu > 0 for r in timing.runs)
    assert "clingo:count" in timing.markdown()


def test_solve_many_yields_one_result_per_level_in_order(tmp_path):
    folder = tmp_path / "hexiom"
    folder.mkdir()
    for stem in ("level02", "level01"):
        with open(level_path("hexiom", stem)) as handle:
            (folder / f"{stem}.txt").write_text(handle.read())
    results = list(trisolve.solve_many([str(folder), level_path("hexiom", "level03")], "pysat", count=True))
    assert [r.level.name for r in results] == ["level01", "level02", "level03"]
    assert [r.count_text for r in results][:2] == ["12", "3"]
    assert all(r.complete and not r.invalid for r in results)


# ------------------------------------------------------------------ numbers: the command line's ranges


@pytest.mark.parametrize(
    "options,fragment",
    [
        ({"timeout": 1e308}, "timeout"),
        ({"timeout": float("nan")}, "timeout"),
        ({"timeout": float("inf")}, "timeout"),
        ({"timeout": 0}, "timeout"),
        ({"seed": 2**40}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seed": True}, "seed"),
        ({"count": True, "limit": 0}, "limit"),
        ({"count": True, "limit": 2.5}, "limit"),
        ({"memory": -1}, "memory"),
    ],
    ids=lambda value: str(value)[:30],
)
def test_the_library_refuses_the_numbers_the_command_line_refuses(options, fragment):
    level = trisolve.load(level_path("hexiom", "level01"))
    with pytest.raises(trisolve.UsageError, match=fragment):
        trisolve.solve(level, "pysat", **options)


@pytest.mark.parametrize(
    "options,fragment",
    [({"timeout": float("nan")}, "timeout"), ({"jobs": 10_000}, "jobs"), ({"seed": 2**31}, "seed")],
    ids=str,
)
def test_cross_check_refuses_them_too(options, fragment):
    with pytest.raises(trisolve.UsageError, match=fragment):
        trisolve.cross_check(level_path("hexiom", "level01"), **options)


HEXIOM = os.path.join("levels", "hexiom", "level01.txt")


@pytest.mark.parametrize(
    "call,fragment",
    [
        (lambda: trisolve.solve(3.5), "level must be a Level, a file name or level text, not float 3.5"),
        (lambda: trisolve.solve(HEXIOM, backend=["mip"]), "backend must be a string or None, not list"),
        (lambda: trisolve.solve(HEXIOM, "pysat", all=True, on_solution=5), "on_solution must be a function"),
        (lambda: trisolve.solve(HEXIOM, "pysat", count=True, on_found="x"), "on_found must be a function"),
        (lambda: trisolve.solve(HEXIOM, "pysat", count="yes"), "count must be True or False, not str"),
        (lambda: trisolve.solve(HEXIOM, "pysat", timeout=10**400), "timeout (a whole number of about 401 digits)"),
        (lambda: trisolve.solve(HEXIOM, "pysat", seed=-(10**5000)), "seed -(a whole number of about 5001 digits)"),
        (lambda: trisolve.solve(HEXIOM, "dimacs", sat_command=5), "sat_command must be a string"),
        (lambda: trisolve.solve(HEXIOM, "clingo", memory=1 << 30), "clingo:count keeps no memory budget"),
        (lambda: trisolve.solve(HEXIOM, "auto", count=True, memory=1 << 30), "auto races backends"),
        (lambda: trisolve.solve(HEXIOM, "ganak", count=True, memory=1024), "ganak cannot run in less than 64M"),
        (lambda: trisolve.cross_check(HEXIOM, timeout=10**400), "timeout (a whole number"),
        (lambda: trisolve.cross_check(5), "levels must be a Level, a file or folder name, or a list of them"),
        (lambda: trisolve.cross_check([HEXIOM, 5]), "each of levels must be a Level"),
        (lambda: trisolve.cross_check(HEXIOM, backends=[1]), "backends must be names"),
        (lambda: trisolve.cross_check(HEXIOM, on_record=1), "on_record must be a function"),
        (lambda: trisolve.cross_check(HEXIOM, jobs=10**400), "jobs (a whole number"),
        (lambda: trisolve.benchmark(HEXIOM, timeout=10**400), "timeout (a whole number"),
        (lambda: trisolve.benchmark(HEXIOM, mode="fast"), "mode must be one of first, count"),
        (lambda: trisolve.export(HEXIOM, format=3), "format must be a string"),
        (lambda: trisolve.load(3), "path_or_text must be a file name"),
        (lambda: list(trisolve.solve_many(7)), "levels must be"),
        (lambda: list(trisolve.generate_levels("logic", 5)), "folder must be a file name"),
        (lambda: trisolve.campaign("logic", 1, 5), "log must be a file name"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_arguments_of_the_wrong_type_or_size_are_usage_errors_naming_them(call, fragment):
    """Never a TypeError, AttributeError or OverflowError from inside a run: a UsageError naming the argument."""
    with pytest.raises(trisolve.UsageError) as refused:
        call()
    assert fragment in str(refused.value)


def test_a_backends_string_is_a_list_of_names_not_of_letters():
    report = trisolve.cross_check(level_path("hexiom", "level01"), backends="pysat:totalizer", jobs=1, timeout=60)
    assert [r.backend for r in report.verdicts[0].records] == ["pysat:totalizer"]
    assert report.verdicts[0].status == "agree"


def test_a_count_only_backend_stopped_before_its_stats_is_never_called_plain_enumeration():
    """dp killed at its limit before it reported anything (level 40 at 10 s): its JSON's count_method says so,
    not "plain enumeration", which it never does."""
    import dataclasses

    counted = trisolve.solve(level_path("hexiom", "level01"), backend="dp", count=True)
    assert "dynamic programming" in counted.count_method
    stopped = dataclasses.replace(counted, stats={}, complete=False, stopped_by="time limit")
    assert stopped.count_method == "dp:frontier's own count (stopped before it reported its method)"
    assert stopped.to_json()["count_method"] == stopped.count_method
    listed = trisolve.solve(level_path("hexiom", "level01"), backend="pysat", count=True)
    assert dataclasses.replace(listed, stats={}).count_method == "plain enumeration"
