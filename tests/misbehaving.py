"""A --plugin backend that misbehaves at the process level (tests/test_hostile_processes.py).

``misbehave:VARIANT`` answers as pysat's default encoding does, around doing what VARIANT says:

* ``grandchild``  forks a process that sleeps 300 s, then answers at once;
* ``orphan``      forks a process that leaves the run's process group (a new session) and sleeps;
* ``segfault``    kills itself with SIGSEGV before answering;
* ``oom``         kills itself with SIGKILL (as the kernel's out-of-memory killer would);
* ``exit``        calls ``os._exit(0)`` before answering;
* ``hang``        ignores its time limit and sleeps;
* ``late``        answers, then refuses to exit (a non-daemon thread sleeping 300 s).

Every process it starts appends its pid to the file TRISOLVE_PIDFILE names (when set), so a test can
tell whether any outlived the command.  With TRISOLVE_LOAD_TRAP set (``hang`` or ``die``), loading the
file inside a Dask worker hangs, or kills the process loading it.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import types

VARIANTS = ("grandchild", "orphan", "segfault", "oom", "exit", "hang", "late")


def _note(pid: int) -> None:
    path = os.environ.get("TRISOLVE_PIDFILE")
    if path:
        with open(path, "a", encoding="ascii") as handle:
            handle.write(f"{pid}\n")


def _sleeper(new_session: bool) -> None:
    pid = os.fork()
    if pid == 0:  # the grandchild: sleep, never answer
        try:
            if new_session:
                os.setsid()
            _note(os.getpid())
            time.sleep(300)
        finally:
            os._exit(0)


class Misbehaving:
    def __init__(self, family: str, variant: str, translator: object) -> None:
        from trisolve.backends import registry

        self.name = f"misbehave:{variant}"
        self.variant = variant
        self.inner = registry.get("pysat", family)

    def run(self, level, limits, options, on_solution=None):
        _note(os.getpid())
        if self.variant == "grandchild":
            _sleeper(new_session=False)
        elif self.variant == "orphan":
            _sleeper(new_session=True)
        elif self.variant == "segfault":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif self.variant == "oom":
            os.kill(os.getpid(), signal.SIGKILL)
        elif self.variant == "exit":
            os._exit(0)
        elif self.variant == "hang":
            time.sleep(3600)
        elif self.variant == "late":
            threading.Thread(target=time.sleep, args=(300,), daemon=False).start()
        import dataclasses

        return dataclasses.replace(self.inner.run(level, limits, options, on_solution), backend=self.name)


def _translator() -> types.SimpleNamespace:
    from trisolve.backends.catalog import Catalog

    catalog = Catalog(default="grandchild", variants={v: v for v in VARIANTS}, symmetry_breaking=False)
    return types.SimpleNamespace(CATALOG=catalog)


BACKEND = types.SimpleNamespace(
    available=lambda: None,
    make=Misbehaving,
    TRANSLATORS={family: _translator() for family in ("hexiom", "sigils", "logic")},
)

if __name__ == "trisolve_plugin":  # run by --plugin
    from trisolve.backends import registry

    registry.register("misbehave", BACKEND)


def _in_a_dask_worker() -> bool:
    """A Dask worker (or a run forked from one): started by multiprocessing's spawn, never the command."""
    try:
        with open(f"/proc/{os.getpid()}/cmdline", "rb") as cmdline:
            return b"multiprocessing.spawn" in cmdline.read()
    except OSError:
        return False


# TRISOLVE_LOAD_TRAP=hang|die: loading this plugin inside a Dask worker hangs, or kills the process loading it
if __name__ == "trisolve_plugin" and _in_a_dask_worker():
    _trap = os.environ.get("TRISOLVE_LOAD_TRAP", "")
    if _trap:
        _note(os.getpid())
        folder = os.environ.get("TRISOLVE_TEST_FOLDER")
        if folder:
            with open(os.path.join(folder, "loads"), "a", encoding="ascii") as handle:
                handle.write(f"{os.getpid()}\n")
    if _trap == "hang":
        time.sleep(3600)
    elif _trap == "die":
        os.kill(os.getpid(), signal.SIGKILL)
