"""A --plugin backend whose run kills the Dask worker running it (tests/test_dask_lost_worker.py).

``killer:once`` and ``killer:always`` are the shipped PySAT Hexiom encoding
(totalizer) behind a trap.  The trap is armed only by the test: the
environment variable TRISOLVE_KILL_WORKER names a folder, and only a run whose
parent is a process started by multiprocessing's spawn (a Dask worker; never
the test or the command itself) pulls it:

* ``once`` kills its worker only if it can remove the file ``once`` in that
  folder, which succeeds for one run only: the scheduler's retry then finishes;
* ``always`` kills its worker on every try.

Each try appends a line to ``tries-VARIANT`` in the folder first, so the test
counts the attempts.  The run is a forked child of the worker: it SIGKILLs its
parent and then waits for the runner's parent-death signal to end it.
"""

from __future__ import annotations

import os
import signal
import time
import types

from trisolve.backends import pysat
from trisolve.backends.catalog import Catalog

CATALOG = Catalog(
    default="once",
    variants={
        "once": "pysat totalizer; kills its Dask worker on the first try",
        "always": "kills its Dask worker on every try",
    },
    symmetry_breaking=False,
)


def _in_a_dask_worker(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return b"multiprocessing.spawn" in cmdline.read()
    except OSError:
        return False


def _trap(variant: str) -> None:
    folder = os.environ.get("TRISOLVE_KILL_WORKER")
    worker = os.getppid()
    if not folder or not _in_a_dask_worker(worker):
        return
    with open(os.path.join(folder, f"tries-{variant}"), "a", encoding="utf-8") as tries:
        tries.write(f"{worker}\n")
    if variant == "once":
        try:
            os.unlink(os.path.join(folder, "once"))
        except FileNotFoundError:
            return
    os.kill(worker, signal.SIGKILL)
    time.sleep(60)  # PR_SET_PDEATHSIG (runs/processes.py) ends this child with its parent


def encode(level, variant, options):
    from trisolve.backends.pysat import hexiom

    _trap(variant)
    return hexiom.encode(level, "totalizer", options)


BACKEND = pysat.backend("killer", {"hexiom": types.SimpleNamespace(CATALOG=CATALOG, encode=encode)})

if __name__ == "trisolve_plugin":  # run by --plugin
    from trisolve.backends import registry

    registry.register("killer", BACKEND)
