"""The user docs are true and written for users.

* docs/usage.md lists every command and every option, written from the commands' own metadata
  (trisolve/cli/reference.py): stale, and this fails until ``python scripts/usage_reference.py --write``.
* No user doc (README.md, docs/) speaks of the project's own history: issue numbers, the people who
  wrote it, how the work was organised.  A reader cannot know any of it.
"""

from __future__ import annotations

import os
import re

import click
import pytest
from support import ROOT

from trisolve.cli.main import cli
from trisolve.cli.reference import updated

USAGE = os.path.join(ROOT, "docs", "usage.md")


def user_docs() -> list[str]:
    found = [os.path.join(ROOT, "README.md")]
    for top, _, names in os.walk(os.path.join(ROOT, "docs")):
        found += [os.path.join(top, name) for name in sorted(names) if name.endswith(".md")]
    return found


def read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def test_the_command_reference_in_usage_md_is_current():
    text = read(USAGE)
    assert updated(text, cli) == text, "docs/usage.md is stale: run python scripts/usage_reference.py --write"


def commands() -> list[str]:
    return cli.list_commands(click.Context(cli))


@pytest.mark.parametrize("name", commands())
def test_usage_md_names_every_option_of_every_command(name):
    text = read(USAGE)
    root = click.Context(cli, info_name="trisolve")
    command = cli.get_command(root, name)
    assert f"### trisolve {name}\n" in text
    section = text.split(f"### trisolve {name}\n", 1)[1].split("\n### ", 1)[0]
    for param in command.params:
        for option in [*param.opts, *param.secondary_opts]:
            if option.startswith("-"):
                assert option in section, f"trisolve {name} {option} is not in docs/usage.md"


#: What a user doc must not say, and why: the project's own history, which a reader cannot know.
INTERNAL = {
    r"\bissues?\s*#?\d+": "an issue number",
    r"\(issue\b": "an issue",
    r"\bdone[- ]when\b": "an issue's acceptance criteria",
    r"\bdesign card\b": "a planning document",
    r"\b(developer|engineer|teammate|colleague)s?\b": "the people who wrote it",
    r"\bthe lead\b": "the people who wrote it",
    r"\bitem \d+\b": "an issue's item",
    r"\b(this|that|the last|the next|an earlier|the previous) (session|round|sprint)\b": "how the work went",
    r"\b(worktree|pull request|merged into main|this branch|on branch|checkout of main|landed)\b": "organisation",
    r"\b(after|before) (the )?merg(e|ing)\b|\bthe merges\b": "how it was organised",
}


@pytest.mark.parametrize("path", user_docs(), ids=lambda path: os.path.relpath(path, ROOT))
def test_no_user_doc_refers_to_issues_developers_or_how_the_work_was_organised(path):
    problems = []
    for number, line in enumerate(read(path).splitlines(), 1):
        for pattern, what in INTERNAL.items():
            found = re.search(pattern, line, re.IGNORECASE)
            if found:
                problems.append(f"{os.path.relpath(path, ROOT)}:{number}: {what}: {found.group(0)!r}")
    assert not problems, "\n".join(problems)


def campaign_examples() -> list[str]:
    """The commands of docs/campaigns.md's first block: what a reader types first."""
    text = read(os.path.join(ROOT, "docs", "campaigns.md"))
    block = re.search(r"```\n(.*?)```", text, re.S).group(1)
    return [line for line in block.splitlines() if line.startswith("trisolve ")]


@pytest.mark.slow
@pytest.mark.parametrize("command", campaign_examples())
def test_the_first_examples_of_campaigns_md_answer_with_exit_0(command, tmp_path):
    """Each generates what it says (a --unique level proved unique): exit 0, not 3."""
    import shlex

    from support import run_trisolve

    words = shlex.split(command)[1:]
    words[words.index("-o") + 1] = str(tmp_path / "out")
    done = run_trisolve(*words, "-q", timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
