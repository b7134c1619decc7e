"""A SAT command for ``--sat-command`` that misbehaves on purpose (tests/test_hostile_processes.py).

    python fake_sat.py MODE PIDFILE CNF

It solves CNF with PySAT and answers in SAT-competition format, after doing what MODE says:

* ``fine``       nothing else;
* ``helper``     starts a background helper first (``sleep``), which keeps running after the answer
                 and holds the solver's stdout and stderr open;
* ``setsid``     the same, but the helper also leaves the solver's process group (a new session);
* ``crash``      kills itself with SIGSEGV instead of answering;
* ``hang``       sleeps for an hour instead of answering;
* ``garbage``    prints lines that are no SAT answer.

Every process it starts appends its pid to PIDFILE, so a test can tell whether any outlived the run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time


def note(pidfile: str, pid: int) -> None:
    with open(pidfile, "a", encoding="ascii") as handle:
        handle.write(f"{pid}\n")


def main() -> None:
    mode, pidfile, cnf = sys.argv[1], sys.argv[2], sys.argv[3]
    note(pidfile, os.getpid())
    if mode in ("helper", "setsid"):
        helper = subprocess.Popen(["sleep", "300"], start_new_session=(mode == "setsid"))  # inherits stdout, stderr
        note(pidfile, helper.pid)
    if mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        time.sleep(3600)
    if mode == "garbage":
        print("no answer here\n\x00\x01 whatever")
        return
    from pysat.formula import CNF
    from pysat.solvers import Solver

    formula = CNF(from_file=cnf)
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as solver:
        if solver.solve():
            print("s SATISFIABLE")
            print("v " + " ".join(map(str, solver.get_model())) + " 0")
        else:
            print("s UNSATISFIABLE")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
