"""What trisolve's start-up costs: ``trisolve solve levels/hexiom/level38.txt`` as a whole process, side by side
with ``python -c 'import clingo'`` (the solver it runs, imported and nothing else).

    python scripts/startup.py [--rounds 10] [--python .venv/bin/python] [--command "solve levels/hexiom/level38.txt"]

trisolve runs as a user starts it: the ``trisolve`` command installed beside the interpreter (``python -m trisolve``
where there is none).  The figures say whether that install is editable (``pip install -e``, whose import hook
every process pays) or a regular one.  Each round runs both, in alternating order (the load hits both alike), each
a fresh process; the figures are wall and CPU seconds (the process and its children) per process: median and worst
over the rounds, and the difference trisolve minus import, which the target holds at 0.1 s or less.  Then
``-X importtime`` names the modules ``trisolve.cli.main`` and the command's own module load, largest first.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


#: as a user's machine runs them: compiled modules cached (``PYTHONDONTWRITEBYTECODE`` would compile every module
#: from source in every process, a cost no installed package pays)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one process and its children, from fork to exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def import_times(python: str, statement: str, top: int) -> list[tuple[int, str]]:
    """The ``top`` largest cumulative import times (microseconds, module) of ``statement``, run outside the
    checkout (whose ``trisolve`` folder would hide a regular install's package)."""
    done = subprocess.run(
        [python, "-X", "importtime", "-c", statement], cwd=os.sep, env=ENV, capture_output=True, text=True
    )
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            try:
                rows.append((int(cumulative), name.rstrip()))
            except ValueError:
                continue
    return sorted(rows, reverse=True)[:top]


def _against(extra: float) -> str:
    return "within the 0.1 s target" if extra <= 0.1 else "over the 0.1 s target"


def install_kind(python: str) -> str:
    """ "editable" when the interpreter loads trisolve through pip's editable import hook, else "regular"."""
    done = subprocess.run(
        [python, "-c", "import sys; print(any(name.startswith('__editable__') for name in sys.modules))"],
        cwd=os.sep,
        env=ENV,
        capture_output=True,
        text=True,
    )
    return "editable" if done.stdout.strip() == "True" else "regular"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--python", default=sys.executable, help="the interpreter trisolve is installed in")
    parser.add_argument("--command", default="solve levels/hexiom/level38.txt", help="trisolve's arguments")
    parser.add_argument("--top", type=int, default=15, help="modules shown from -X importtime")
    args = parser.parse_args()
    command = os.path.join(os.path.dirname(args.python), "trisolve")
    starter = [command] if os.access(command, os.X_OK) else [args.python, "-m", "trisolve"]
    trisolve = [*starter, *shlex.split(args.command), "--quiet"]
    clingo = [args.python, "-c", "import clingo"]
    timed(trisolve), timed(clingo)  # warm the file cache (and numba's, where a command uses it)
    figures: dict[str, list[tuple[float, float]]] = {"trisolve": [], "import clingo": []}
    for round_ in range(args.rounds):
        pair = [("trisolve", trisolve), ("import clingo", clingo)]
        for name, argv in pair if round_ % 2 == 0 else pair[::-1]:
            figures[name].append(timed(argv))
    print(f"{args.rounds} rounds, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end")
    shown = shlex.join([os.path.basename(trisolve[0]), *trisolve[1:]])
    print(f"trisolve: {shown}, {install_kind(args.python)} install")
    print(f"{'process':16} {'wall median':>11} {'wall worst':>10} {'CPU median':>10} {'CPU worst':>9}")
    for name, rows in figures.items():
        walls, cpus = [w for w, _ in rows], [c for _, c in rows]
        print(
            f"{name:16} {statistics.median(walls):11.3f} {max(walls):10.3f} "
            f"{statistics.median(cpus):10.3f} {max(cpus):9.3f}"
        )
    extra_wall = statistics.median(w for w, _ in figures["trisolve"]) - statistics.median(
        w for w, _ in figures["import clingo"]
    )
    extra_cpu = statistics.median(c for _, c in figures["trisolve"]) - statistics.median(
        c for _, c in figures["import clingo"]
    )
    print(
        f"trisolve costs {extra_wall:+.3f} s wall ({_against(extra_wall)}), {extra_cpu:+.3f} s CPU "
        f"({_against(extra_cpu)}) more (median); on a loaded machine the CPU figure is the comparable one"
    )
    print(f"\nlargest imports of trisolve.cli.main and {args.command.split()[0]}'s module (cumulative ms):")
    module = f"trisolve.cli.{args.command.split()[0]}_cmd"
    for micro, name in import_times(args.python, f"import trisolve.cli.main, {module}", args.top):
        print(f"{micro / 1000:8.1f}  {name.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
