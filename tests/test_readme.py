"""The README's promises a newcomer relies on: its example puzzle files solve, its links lead somewhere,
and it names no path from a developer's machine (the API doctest is in test_api.py, the backend table's
agreement with the shipped portfolio table in test_defaults.py)."""

from __future__ import annotations

import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def readme() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        return handle.read()


def own_puzzle_files() -> dict[str, str]:
    """The example file under each family's paragraph of "Your own puzzle file"."""
    section = readme().split("## Your own puzzle file", 1)[1].split("\n## ", 1)[0]
    found = {}
    for family, suffix in (("Hexiom", ".txt"), ("Sigils", ".txt"), ("Logic grids", ".toml")):
        after = section.split(f"**{family}**", 1)[1]
        found[family] = (re.search(r"```\w*\n(.*?)```", after, re.S).group(1), suffix)
    return found


@pytest.mark.parametrize("family", ["Hexiom", "Sigils", "Logic grids"])
def test_each_example_puzzle_file_in_the_readme_solves_with_valid_solutions(family, tmp_path):
    from trisolve import api

    text, suffix = own_puzzle_files()[family]
    folder = {"Hexiom": "hexiom", "Sigils": "sigils", "Logic grids": "logic"}[family]
    path = tmp_path / folder / f"example{suffix}"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    result = api.solve(str(path), all=True, timeout=60)
    assert result.complete and result.count >= 1, result
    assert all(solution.violations() == [] for solution in result.solutions)
    if family == "Logic grids":
        assert result.count == 1  # the README calls it a puzzle with one answer


def test_the_readme_is_short_and_its_local_links_exist():
    text = readme()
    assert len(text.splitlines()) <= 300
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert os.path.exists(os.path.join(ROOT, target)), target
    for target in re.findall(r'src="([^"]+)"', text):
        assert os.path.exists(os.path.join(ROOT, target)), target


@pytest.mark.parametrize("folder", ["README.md", "docs"])
def test_no_path_from_a_developers_machine_in_the_docs(folder):
    paths = [os.path.join(ROOT, folder)]
    if folder == "docs":
        paths = [
            os.path.join(top, name)
            for top, _, names in os.walk(os.path.join(ROOT, "docs"))
            for name in names
            if name.endswith((".md", ".py", ".txt"))
        ]
    pattern = re.compile(r"(?<![\w.])/(?:work|tmp|root|home)/")
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                assert not pattern.search(line), f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}"


# ------------------------------------------------------------ the README's sample outputs

#: a number with a fraction (a time, a rate): it varies from run to run, so samples match any
_FRACTION = re.compile(r"\d+\.\d+")


def samples() -> list[tuple[str, list[str], bool]]:
    """Each ``$ trisolve ...`` line of the README's ``text`` blocks that shows its output: (command, output
    lines, abridged).  A block is abridged when a line of it is ``...`` or the sentence before it says so."""
    found = []
    text = readme()
    for match in re.finditer(r"```text\n(.*?)```", text, re.S):
        lines = match.group(1).rstrip("\n").splitlines()
        before = text[: match.start()].rstrip().rsplit("\n\n", 1)[-1]
        abridged = "..." in lines or "abridged" in before.lower()
        command, output = None, []
        for line in [*lines, "$ end"]:
            if line.startswith("$ "):
                if command is not None and output:
                    found.append((command, output, abridged))
                command, output = line[2:].split("#", 1)[0].strip(), []
            elif command is not None:
                output.append(line)
    return found


#: a memory figure: it depends on the machine (whether dp's kernels ran, from numba's cache, or numpy did)
_MEMORY = re.compile(r"peak_bytes \d+, ")


def _same(line: str) -> str:
    return " ".join(_FRACTION.sub("<n>", _MEMORY.sub("", line)).split())


def test_every_sample_output_is_checked_or_marked_abridged():
    shown = samples()
    assert shown and all(command.startswith("trisolve ") for command, _, _ in shown)
    assert [command for command, _, abridged in shown if not abridged] == [
        "trisolve solve levels/hexiom/level38.txt",
        "trisolve solve levels/hexiom/level38.txt --count",
    ], "a new unabridged sample in the README: check it in test_unabridged_samples_are_what_the_commands_print"


@pytest.mark.parametrize("command", [c for c, _, abridged in samples() if not abridged])
def test_unabridged_samples_are_what_the_commands_print(command):
    """Line for line, numbers with a fraction (times) and memory figures aside."""
    from support import run_trisolve

    (output,) = [out for c, out, _ in samples() if c == command]
    done = run_trisolve(*command.split()[1:], timeout=300)
    assert done.returncode == 0, done.stderr
    assert [_same(line) for line in done.stdout.splitlines()] == [_same(line) for line in output]
