"""Pictures: every family's level and solution drawn as SVG, rasterised by real renderers
(cairosvg, and Debian's rsvg-convert, which .ci/run installs), and the render command."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from support import ROOT, level_path, run_cli

SVG = "{http://www.w3.org/2000/svg}"

#: (family, instance) drawn alone and solved; level39 has blocked cells and locked tiles
INSTANCES = [
    ("hexiom", "level38"),
    ("hexiom", "level39"),
    ("sigils", "pentominoes-6x10"),
    ("sigils", "gate-8x5"),
    ("logic", "einstein"),
    ("logic", "odd-names"),
]
IDS = [f"{family}-{name}" for family, name in INSTANCES]


def load(family: str, name: str):
    from trisolve.models import FAMILIES

    fam = FAMILIES[family]
    return fam, fam.parse(level_path(family, name))


def first_solution(family: str, name: str):
    """A solution from the family's default backend, checked by the family's validator."""
    from trisolve.backends import registry
    from trisolve.backends.base import Limits, Options

    fam, level = load(family, name)
    result = registry.get("pysat" if family == "logic" else "clingo", family).run(level, Limits(time=60), Options())
    assert result.solutions, f"{family}/{name}: no solution found"
    solution = result.solutions[0]
    assert fam.validate(level, solution) == []
    return fam, level, solution


def texts(svg: str) -> list[str]:
    """The text a picture shows, element by element (parsing also proves it is well-formed XML)."""
    return [element.text or "" for element in ET.fromstring(svg).iter(SVG + "text")]


def assert_real_picture(png: bytes) -> None:
    """A PNG that decodes, has a size, and is not one flat colour."""
    from PIL import Image

    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.width > 100 and image.height > 100
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 3


def _rasterisers():
    yield pytest.param("cairosvg", id="cairosvg")
    yield pytest.param(
        "rsvg-convert",
        id="rsvg-convert",
        marks=pytest.mark.skipif(
            shutil.which("rsvg-convert") is None,
            reason="rsvg-convert not installed (Debian's librsvg2-bin; .ci/run installs it)",
        ),
    )


def rasterise(svg: str, tool: str) -> bytes:
    if tool == "cairosvg":
        from trisolve.models.pictures import to_png

        return to_png(svg)
    done = subprocess.run(["rsvg-convert", "--format", "png"], input=svg.encode(), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


@pytest.fixture(scope="module", params=INSTANCES, ids=IDS)
def drawn(request):
    family, name = request.param
    fam, level, solution = first_solution(family, name)
    return fam, level, solution, fam.picture(level, None), fam.picture(level, solution)


@pytest.mark.parametrize("tool", list(_rasterisers()))
def test_level_and_solution_pictures_render_with_a_real_renderer(drawn, tool):
    *_, level_svg, solution_svg = drawn
    for svg in (level_svg, solution_svg):
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg
        assert_real_picture(rasterise(svg, tool))


def cells_of_kind(svg: str, kind: str) -> list:
    return [g for g in ET.fromstring(svg).iter(SVG + "g") if g.get("class") == "cell " + kind]


def test_a_solved_hexiom_board_shows_every_tile_number_and_marks_locks_and_blocks():
    fam, level, solution = first_solution("hexiom", "level39")
    assert level.locked_tiles and level.blocked_cells
    svg = fam.picture(level, solution)
    digits = sorted(int(t) for t in texts(svg) if t.isdigit())
    assert digits == sorted(v for v in solution.cells if v is not None)
    assert len(cells_of_kind(svg, "tile locked")) == len(level.locked_tiles)
    assert len(cells_of_kind(svg, "blocked")) == len(level.blocked_cells)
    assert len(cells_of_kind(svg, "empty")) == solution.cells.count(None) - len(level.blocked_cells)
    locked = cells_of_kind(svg, "tile locked")
    assert sorted(int(g.find(SVG + "text").text) for g in locked) == sorted(n for _, n in level.locked_tiles)
    assert all(g.find(SVG + "path[@class='padlock']") is not None for g in locked)


def test_an_unsolved_hexiom_level_shows_its_locked_tiles_and_the_tiles_to_place():
    fam, level = load("hexiom", "level38")
    shown = texts(fam.picture(level, None))
    locked_digits = [str(n) for _, n in level.locked_tiles]
    to_place = [f"×{n}" for n in level.movable_counts if n]
    assert [t for t in shown if t.startswith("×")] == to_place
    assert sorted(t for t in shown if t.isdigit()) == sorted(
        locked_digits + [str(d) for d, n in enumerate(level.movable_counts) if n]
    )


def test_a_tiling_names_each_piece_once_in_its_type_colour():
    from trisolve.models.sigils import picture

    fam, level, solution = first_solution("sigils", "gate-8x5")
    svg = fam.picture(level, solution)
    letters = sorted(t for t in texts(svg) if len(t) == 1)
    assert letters == sorted(p.piece for p in solution.placements)
    colours = picture._piece_colours(level)
    for placement in solution.placements:
        assert svg.count(f'fill="{colours[placement.piece]}"') >= len(placement.cells)


def test_a_logic_grid_shows_every_value_and_the_answer():
    fam, level, solution = first_solution("logic", "einstein")
    shown = texts(fam.picture(level, solution))
    for category in level.categories:
        assert category.name in shown
        assert set(category.values) <= set(shown)
    assert "Who owns the fish? German (position 4)" in shown


def test_names_from_the_file_are_escaped_not_written_as_markup(tmp_path):
    from trisolve.models.logic import model as logic

    path = tmp_path / "markup.toml"
    path.write_text('positions = 2\n[categories]\n"<b>" = ["</svg>", "a & \\"b\\""]\n', encoding="utf-8")
    level = logic.parse(str(path))
    svg = logic_picture(level, None)
    shown = texts(svg)
    assert "<b>" in shown and '</svg>, a & "b"' in shown and svg.count("</svg>") == 1
    solution = logic.Solution.of(level, [[1, 2]])
    assert "</svg>" in texts(logic_picture(level, solution))


def logic_picture(level, solution):
    from trisolve.models import FAMILIES

    return FAMILIES["logic"].picture(level, solution)


@pytest.mark.parametrize("family, name", INSTANCES, ids=IDS)
def test_levels_have_a_notebook_picture(family, name):
    import trisolve

    level = trisolve.load(level_path(family, name))
    assert "<svg" in level._repr_svg_() and level._repr_svg_() == level.picture()


def test_the_librarys_levels_and_solutions_are_pictures_in_notebooks():
    import trisolve

    level = trisolve.load(level_path("hexiom", "level08"))
    result = trisolve.solve(level, backend="clingo")
    solution = result.solutions[0]
    assert solution.violations() == []
    digits = [int(t) for t in texts(solution._repr_svg_()) if t.isdigit()]
    assert sorted(digits) == sorted(v for v in solution.model.cells if v is not None)
    assert level._repr_svg_() == level.picture() == level.kind.picture(level.model, None)


def test_importing_the_models_does_not_load_the_drawing_library():
    code = "import sys, trisolve, trisolve.models; print('drawsvg' in sys.modules, 'cairosvg' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.stdout.split() == ["False", "False"], done.stderr


# ------------------------------------------------------------------ the commands


def trisolve(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The installed command, in its own process (once, end to end)."""
    return subprocess.run(
        [sys.executable, "-m", "trisolve", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


@pytest.fixture
def cli(capsys, monkeypatch):
    """The command run in this process (no interpreter start-up per call), from the repository's root."""
    monkeypatch.chdir(ROOT)

    def run(*args: str) -> subprocess.CompletedProcess:
        code = run_cli(list(args))
        printed = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, printed.out, printed.err)

    return run


def test_render_draws_level_38_as_an_svg_that_renders(tmp_path):
    out = tmp_path / "l38.svg"
    done = trisolve("render", "levels/hexiom/level38.txt", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert_real_picture(rasterise(out.read_text(encoding="utf-8"), "cairosvg"))


@pytest.mark.parametrize(
    "family, name",
    [("hexiom", "level10"), ("sigils", "gate-6x4"), ("logic", "zebra")],
    ids=["hexiom", "sigils", "logic"],
)
def test_render_draws_the_solution_solve_printed_as_png(cli, tmp_path, family, name):
    solved = cli("solve", level_path(family, name), "--json")
    assert solved.returncode == 0, solved.stderr
    (tmp_path / "solution.json").write_text(solved.stdout, encoding="utf-8")
    out = tmp_path / "solved.png"
    done = cli("render", level_path(family, name), "--solution", str(tmp_path / "solution.json"), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert_real_picture(out.read_bytes())
    # the bare solution object works too, and draws the same picture
    solution = json.loads(solved.stdout)["solutions"][0]
    (tmp_path / "one.json").write_text(json.dumps(solution), encoding="utf-8")
    again = tmp_path / "again.png"
    assert (
        cli("render", level_path(family, name), "--solution", str(tmp_path / "one.json"), "-o", str(again)).returncode
        == 0
    )
    assert again.read_bytes() == out.read_bytes()


def test_render_finds_the_levels_line_in_solve_jsonl(cli, tmp_path):
    log = tmp_path / "runs.jsonl"
    solved = cli("solve", "levels/hexiom/level01.txt", "levels/hexiom/level08.txt", "--jsonl", str(log))
    assert solved.returncode == 0, solved.stderr
    out = tmp_path / "l08.svg"
    done = cli("render", "levels/hexiom/level08.txt", "--solution", str(log), "-o", str(out))
    assert done.returncode == 0, done.stderr
    from trisolve.models.hexiom import model as hexiom

    level = hexiom.parse(level_path("hexiom", "level08"))
    assert len([t for t in texts(out.read_text(encoding="utf-8")) if t.isdigit()]) == level.tile_total
    other = cli("render", "levels/hexiom/level09.txt", "--solution", str(log), "-o", str(out))
    assert other.returncode == 2 and "no line for levels/hexiom/level09.txt" in other.stderr


@pytest.mark.parametrize("family", ["hexiom", "sigils", "logic"])
def test_render_draws_a_generated_levels_intended_solution(cli, tmp_path, family):
    """``generate`` writes <name>.solution.json beside each level; render reads it (issue 22: KeyError 'cells')."""
    made = cli("generate", family, "--count", "1", "-o", str(tmp_path), "--quiet")
    assert made.returncode == 0, made.stderr
    (level,) = [p for p in tmp_path.iterdir() if not p.name.endswith(".json")]
    solution = level.with_name(level.stem + ".solution.json")
    done = cli("render", str(level), "--solution", str(solution), "-o", str(tmp_path / "s.svg"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "s.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_render_solve_draws_a_valid_solution(cli, tmp_path):
    out = tmp_path / "l08.svg"
    done = cli("render", "levels/hexiom/level08.txt", "--solve", "--backend", "pysat", "-o", str(out))
    assert done.returncode == 0, done.stderr
    from trisolve.models.hexiom import model as hexiom

    level = hexiom.parse(level_path("hexiom", "level08"))
    digits = [int(t) for t in texts(out.read_text(encoding="utf-8")) if t.isdigit()]
    assert len(digits) == level.tile_total


def test_render_solve_of_an_impossible_level_draws_the_level_and_says_so(cli, tmp_path):
    out = tmp_path / "none.svg"
    done = cli("render", "levels/sigils/area-mismatch.txt", "--solve", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "no solution exists" in done.stderr and out.exists()


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"cells": [1, 2', "bad.json:1: not JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"cells": "abc"}', "not a hexiom solution"),
        ('{"cells": [1, 2, 3]}', "not a solution of"),
        ('{"family": "sigils", "solutions": []}', "holds a sigils solution"),
        ('{"family": "hexiom", "status": "unsat", "solutions": []}', "holds no solution"),
    ],
    ids=["truncated", "array", "garbage-cells", "wrong-size", "other-family", "unsat"],
)
def test_render_refuses_a_bad_solution_file_with_exit_2(cli, tmp_path, content, message):
    (tmp_path / "bad.json").write_text(content, encoding="utf-8")
    done = cli(
        "render", "levels/hexiom/level08.txt", "--solution", str(tmp_path / "bad.json"), "-o", str(tmp_path / "x.svg")
    )
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["-o", "x.pdf"], "must be a .svg or .png"),
        (["-o", "/nonexistent-folder/x.svg"], "cannot write"),
        (["--solve", "--solution", "s.json", "-o", "x.svg"], "not both"),
        (["--backend", "pysat", "-o", "x.svg"], "go with --solve"),
    ],
    ids=["kind", "folder", "both", "backend-alone"],
)
def test_render_usage_errors_exit_2(cli, args, message):
    done = cli("render", "levels/hexiom/level08.txt", *args)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_solve_svg_writes_each_solutions_picture(cli, tmp_path):
    from trisolve.models.hexiom import model as hexiom

    done = cli("solve", "levels/hexiom/level01.txt", "--all", "--svg", str(tmp_path / "pics"))
    assert done.returncode == 0, done.stderr
    pictures = sorted(os.listdir(tmp_path / "pics"))
    assert pictures == sorted(f"level01-{k}.svg" for k in range(1, 13))
    level = hexiom.parse(level_path("hexiom", "level01"))
    boards = set()
    for name in pictures:
        digits = [t for t in texts((tmp_path / "pics" / name).read_text(encoding="utf-8")) if t.isdigit()]
        assert len(digits) == level.tile_total
        boards.add((tmp_path / "pics" / name).read_text(encoding="utf-8"))
    assert len(boards) == 12  # twelve different boards, not one drawn twelve times
    first = cli("solve", "levels/sigils/gate-4x4.txt", "--svg", str(tmp_path / "one"))
    assert first.returncode == 0 and os.listdir(tmp_path / "one") == ["gate-4x4.svg"]
    counted = cli("solve", "levels/hexiom/level01.txt", "--count", "--svg", str(tmp_path / "none"))
    assert counted.returncode == 2 and "--count shows none" in counted.stderr
