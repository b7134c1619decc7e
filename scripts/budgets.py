"""How far past ``--timeout`` each backend's whole command ends: ``--count`` on a 40x40 sigil frame.

The target (issue 23): ``trisolve solve FRAME --count --timeout T`` returns within T + 1 s + 10% of T,
measured from the Enter key (this script times the whole command: interpreter start, imports, the run,
the kill, the exit).  Each backend is run ``--repeat`` times side by side (interleaved, so machine drift
hits all alike); printed per backend: the command's wall (median, worst), its overrun past T (median,
worst) against the allowance, how the run stopped (the backend's own limit, or the runner's kill), and
the CPU seconds of the command and its children.

The ``runner`` row is a backend that ignores its time limit entirely (it sleeps; a ``--plugin`` file this
script writes): the runner's kill alone has to hold the budget.

    python scripts/budgets.py                      # every usable backend (dimacs runs cadical), T = 2 s, 3 rounds
    python scripts/budgets.py --timeout 2 --timeout 10 --repeat 5 --backends pysat,clingo
    python scripts/budgets.py --python OTHER/bin/python --python .venv/bin/python   # before and after
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from trisolve.backends.spec import Spec

#: 400 one-sided tetrominoes filling 40x40: large enough that no backend counts it within seconds
FRAME = (
    "# a 40x40 frame of 400 tetrominoes (scripts/budgets.py)\n40x40\n"
    + " ".join(["I"] * 100 + ["O"] * 100 + ["L"] * 50 + ["J"] * 50 + ["T"] * 50 + ["S"] * 25 + ["Z"] * 25)
    + "\n"
)

#: a backend that never looks at its time limit: only the runner's kill stops it
SLEEPER = """
import time, types
from trisolve.backends import registry
from trisolve.backends.catalog import Catalog

class Sleeper:
    name = "sleeper:forever"
    def run(self, level, limits, options, on_solution=None):
        time.sleep(3600)

sigils = types.SimpleNamespace(CATALOG=Catalog(default="forever", variants={"forever": "ignores its time limit"}))
registry.register("sleeper", types.SimpleNamespace(
    available=lambda: None,
    make=lambda family, variant, translator: Sleeper(),
    TRANSLATORS={"sigils": sigils},
))
"""


def usable_backends() -> list[str]:
    """Every shipped backend that can count sigils here (checked without importing any solver)."""
    from trisolve.backends import registry

    found = []
    for name in registry.shipped():
        hint = registry.available(name)
        if hint is not None or registry.catalog(name, "sigils") is None:
            print(f"# {name}: not usable on sigils here, left out ({hint or 'no translator'})", file=sys.stderr)
            continue
        found.append(name)
    return found


def one_run(
    backend: str, frame: str, timeout: float, plugin: str, python: str = sys.executable, sat_command: str = "cadical"
) -> dict:
    argv = [python, "-m", "trisolve", "solve", frame, "--count", "--timeout", f"{timeout:g}", "--json"]
    argv += ["--backend", "sleeper" if backend == "runner" else backend]
    if backend == "runner":
        argv += ["--plugin", plugin]
    if backend != "runner" and Spec.parse(backend).backend == "dimacs":
        argv += ["--sat-command", sat_command]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout + 120)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    try:
        record = json.loads(done.stdout.splitlines()[-1])
    except (IndexError, ValueError):
        record = {"stopped_by": f"exit {done.returncode}: {done.stderr.strip()[-200:]}"}
    return {
        "wall": wall,
        "cpu": cpu,
        "stopped_by": record.get("stopped_by") or record.get("status"),
        "code": done.returncode,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeout", type=float, action="append", help="seconds (repeatable; default 2)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backends", default=None, help="comma-separated (default: every usable one, and runner)")
    parser.add_argument("--sat-command", default="cadical", help="the SAT binary dimacs runs (default: cadical)")
    parser.add_argument(
        "--python",
        action="append",
        help="interpreters with trisolve installed, compared side by side (repeatable; default: this one), "
        "e.g. a checkout of main against this branch",
    )
    args = parser.parse_args()
    pythons = args.python or [sys.executable]
    timeouts = args.timeout or [2.0]
    backends = args.backends.split(",") if args.backends else [*usable_backends(), "runner"]

    print(
        f"# {time.strftime('%Y-%m-%d %H:%M:%S')}; load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; "
        f"{os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory(prefix="trisolve-budgets-") as folder:
        frame = os.path.join(folder, "frame-40x40.txt")
        plugin = os.path.join(folder, "sleeper.py")
        with open(frame, "w", encoding="utf-8") as handle:
            handle.write(FRAME)
        with open(plugin, "w", encoding="utf-8") as handle:
            handle.write(SLEEPER)
        for number, python in enumerate(pythons):
            if len(pythons) > 1:
                print(f"# python {number}: {python}")
        print(
            f"{'backend':10} {'T':>5} {'wall med':>9} {'wall max':>9} {'over med':>9} {'over max':>9} "
            f"{'allowed':>8} {'held':>5} {'cpu med':>8}  stopped by"
        )
        for timeout in timeouts:
            rows = [(b, n) for b in backends for n in range(len(pythons))]
            runs: dict[tuple[str, int], list[dict]] = {row: [] for row in rows}
            for _ in range(args.repeat):
                for backend, number in rows:  # interleaved: drift hits every backend (and interpreter) alike
                    runs[backend, number].append(
                        one_run(backend, frame, timeout, plugin, pythons[number], args.sat_command)
                    )
            allowed = 1.0 + 0.1 * timeout
            for backend, number in rows:
                label = backend if len(pythons) == 1 else f"{backend}@{number}"
                walls = [r["wall"] for r in runs[backend, number]]
                over = [w - timeout for w in walls]
                held = "yes" if max(over) <= allowed else "NO"
                stops = sorted({str(r["stopped_by"]) for r in runs[backend, number]})
                print(
                    f"{label:10} {timeout:5g} {statistics.median(walls):9.2f} {max(walls):9.2f} "
                    f"{statistics.median(over):9.2f} {max(over):9.2f} {allowed:8.2f} {held:>5} "
                    f"{statistics.median(r['cpu'] for r in runs[backend, number]):8.2f}  {'; '.join(stops)}"
                )
    print(f"# done {time.strftime('%Y-%m-%d %H:%M:%S')}; load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")


if __name__ == "__main__":
    main()
