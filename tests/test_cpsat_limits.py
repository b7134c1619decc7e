"""The CP-SAT backend's costs stay inside its limits: no OR-Tools import before the level is read,
and a model too large to build within the time limit stops being built (issue 23)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from trisolve.backends import cpsat, registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.models import FAMILIES
from trisolve.models.sigils import model as sigils

pytestmark = pytest.mark.skipif(cpsat.available() is not None, reason="ortools is not installed")

CPSAT_FAMILIES = [family for family in FAMILIES if registry.catalog("cpsat", family) is not None]


@pytest.mark.parametrize("family", CPSAT_FAMILIES)
def test_making_a_backend_imports_no_ortools(family):
    # ``trisolve solve`` checks the backend before the run: that must not cost OR-Tools' import
    code = (
        "import sys; from trisolve.backends import registry; "
        f"[registry.get(f'cpsat:{{v}}', {family!r}) for v in registry.catalog('cpsat', {family!r}).variants]; "
        "assert 'ortools' not in sys.modules, 'ortools imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_bad_level_is_refused_before_ortools_is_imported(tmp_path):
    bad = tmp_path / "level.txt"
    bad.write_text("2\n . .\n. z .\n . .\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from trisolve import api\n"
        "from trisolve.models.errors import LevelSyntaxError\n"
        "try:\n"
        f"    api.solve({str(bad)!r}, 'cpsat', family='hexiom')\n"
        "except LevelSyntaxError as problem:\n"
        "    assert ':3:' in str(problem), problem\n"
        "else:\n"
        "    raise SystemExit('a bad level was accepted')\n"
        "assert 'ortools' not in sys.modules, 'ortools imported before the level was read'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def frame(side: int) -> sigils.Level:
    count = side * side // 4
    return sigils.parse_text(f"{side}x{side}\n" + " ".join("IOTSL"[i % 5] for i in range(count)) + "\nmirror\n")


@pytest.mark.parametrize("variant", registry.catalog("cpsat", "sigils").ordered())
def test_a_model_not_built_within_the_limit_stops_as_a_time_limit(variant):
    # a 40x40 frame's model takes about a second to build in Python: a millisecond stops it early
    result = registry.get(f"cpsat:{variant}", "sigils").run(frame(40), Limits(time=0.001), Options(enumerate=True))
    assert result.status is Status.UNKNOWN and not result.complete and result.count == 0
    assert result.stopped_by == "time limit"
    assert result.stats["model"] == "not built within the time limit"
