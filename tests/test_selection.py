"""One selection policy: every default, in every command, is what ``trisolve.selection.choose`` answers.

The policy is asked for every family x purpose x task, and each caller (the API's solve and race, the
default cross-check plan, campaigns, benchmarks, the portfolio, mutation testing, the generators' counter)
is checked against it; no other module reads what the policy is fed (the backends' roles, the families'
defaults, the measured table); and docs/backends.md prints what it answers.
"""

from __future__ import annotations

import ast
import os

import pytest
from support import ROOT
from test_layering import _modules

from trisolve import api
from trisolve.backends import registry
from trisolve.backends.spec import Spec
from trisolve.bench import portfolio
from trisolve.crosscheck.mutate import default_references
from trisolve.crosscheck.plan import default_plan
from trisolve.generate.common import counting_backend
from trisolve.models import FAMILIES
from trisolve.selection import PURPOSES, TASKS, TASKS_OF, choose, declaring, markdown, usable

#: What each caller runs when nobody names a backend, asked the way the commands ask it.
CALLERS = {
    "solve": lambda family, task: [api.backend_name(None, family, task)],
    "race": lambda family, task: api.portfolio(family, task=task)[0],
    "crosscheck": lambda family, task: list(
        default_plan([("no-such-level.txt", family)], api.backend_name).backends[family]
    ),
    "campaign": lambda family, task: api.backend_names([], family, purpose="campaign"),
    "bench": lambda family, task: api.bench_backends(family, [], None, task),
    "portfolio": lambda family, task: portfolio.backends_for(family, task)[0],
    "mutate": lambda family, task: default_references(family),
    "counting": lambda family, task: [counting_backend(family)],
}

CASES = [
    (family, purpose, task)
    for family in FAMILIES
    for purpose in PURPOSES
    for task in TASKS
    if task in TASKS_OF.get(purpose, ("first",))
]


@pytest.mark.parametrize("family,purpose,task", CASES, ids=["-".join(case) for case in CASES])
def test_each_caller_runs_what_the_policy_answers(family, purpose, task):
    chosen = choose(family, purpose, task)
    assert chosen.backends, f"{purpose} runs nothing on {family}"
    for name in chosen.backends:
        spec = Spec.parse(name)
        assert spec.variant is not None and usable(name, family) is None, name
    assert CALLERS[purpose](family, task) == list(chosen.shown)


@pytest.mark.parametrize("task", ["first", "count"])
def test_solve_runs_the_policys_first_and_routes_a_refused_level_along_the_rest(task, monkeypatch):
    """``solve`` without a backend runs the policy's first answer for the level; the others are where a level it
    refuses goes (``runs.child.route``), in the policy's order."""
    from support import level_path

    jobs = []

    def caught(job, *rest):
        jobs.append(job)
        raise KeyboardInterrupt  # the job is all this test looks at

    from trisolve.api import running

    monkeypatch.setattr(running, "run_one", caught)
    path = level_path("hexiom", "level32")  # past the small sizes: the table's order as it stands
    with pytest.raises(KeyboardInterrupt):
        api.solve(path, count=task == "count")
    chosen = choose("hexiom", "solve", task)
    assert (jobs[0].backend, *jobs[0].instead) == chosen.backends


def test_the_purposes_follow_what_the_backends_declare():
    for family in FAMILIES:
        race = {Spec.parse(name).backend for name in choose(family, "mutate").backends}
        assert race == {n for n in declaring("PORTFOLIO") if registry.catalog(n, family)}
        campaign = choose(family, "campaign").backends
        assert all(registry.catalog(Spec.parse(n).backend, family).cross_check for n in campaign)
        assert not {"ganak", "mip", "dimacs"} & {Spec.parse(n).backend for n in campaign}
        measured = {Spec.parse(n).backend for n in choose(family, "portfolio", "count").backends}
        assert {"ganak", "mip"} & measured or not (registry.catalog("ganak", family) or registry.catalog("mip", family))
    assert "dimacs" in {Spec.parse(n).backend for n in choose("hexiom", "race", sat_command="kissat").backends}


def test_a_family_without_its_own_cross_check_set_runs_every_variant_that_says_cross_check():
    own = [name for name, family in FAMILIES.items() if family.crosscheck is None]
    for name in own:
        chosen = choose(name, "crosscheck")
        assert chosen.source == "declared" and chosen.backends == choose(name, "campaign").backends
    with_set = [name for name, family in FAMILIES.items() if family.crosscheck]
    for name in with_set:
        own = [registry.resolve(n, name) for n in FAMILIES[name].crosscheck if usable(n, name) is None]
        assert list(choose(name, "crosscheck").backends) == own


# ------------------------------------------------------------------ nobody else reads what the policy is fed

#: The backends' roles that choose (EXPORTS and MUTANTS say what a backend does, not whether it runs)
CHOOSING_ROLES = {"PORTFOLIO", "OPTIONAL", "BY_DEFAULT", "TASKS"}
#: The family record's fields that choose
CHOOSING_FIELDS = {"crosscheck", "default_backend", "counting_backend"}
#: Reading the measured table's ranking
RANKING = {"ranking", "rows", "knows", "RACE_SIZE"}


def readers(modules: dict) -> list[str]:
    """``module:line: what`` for each place outside the policy that reads what it is fed."""
    found = []
    for module, path in sorted(modules.items()):
        if module.startswith("trisolve.selection") or module == "trisolve.backends.registry":
            continue  # the policy; the registry checks a plugin's declaration and answers ``role``
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{module}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Constant) and node.value in CHOOSING_ROLES:
                found.append(f"{where}: the role {node.value}")
            if isinstance(node, ast.Attribute) and node.attr in CHOOSING_FIELDS:
                found.append(f"{where}: .{node.attr}")
            if (
                isinstance(node, ast.Attribute)
                and node.attr in RANKING
                and ast.unparse(node.value) in ("table", "ranking_table")
            ):
                found.append(f"{where}: {ast.unparse(node)}")
    return found


def test_no_caller_reads_what_the_policy_is_fed():
    # bench/portfolio.py writes the table (its ranking rule, the race size its page states): not a choice
    assert [line for line in readers(_modules()) if not line.startswith("trisolve.bench.portfolio:")] == []


def test_a_caller_reading_a_role_would_be_found(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text(
        "from trisolve.backends import registry\n\n"
        "def racers(family):\n"
        "    return [n for n in registry.shipped() if registry.role(n, 'PORTFOLIO')] or [family.default_backend]\n"
    )
    found = readers({"trisolve.crosscheck.sneaky": sneaky})
    assert sorted(line.split(": ", 1)[1] for line in found) == [".default_backend", "the role PORTFOLIO"]


# ------------------------------------------------------------------ what people read


def test_docs_backends_md_prints_the_policy():
    """docs/backends.md's table of defaults is the policy's (``python scripts/write_docs.py`` writes it)."""
    every = [name for name in declaring("IN_PYTHON") if registry.available(name) is not None]
    if every:
        pytest.skip(f"not every backend is installed here ({', '.join(every)}): the table would differ")
    with open(os.path.join(ROOT, "docs", "backends.md"), encoding="utf-8") as handle:
        page = handle.read()
    start, end = "<!-- defaults: written by scripts/write_docs.py -->\n", "<!-- end of defaults -->"
    assert start in page and end in page
    assert page.split(start, 1)[1].split(end, 1)[0] == markdown(), "run python scripts/write_docs.py"
