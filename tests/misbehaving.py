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
tell whether any outlived the command.
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
    def __init__(self, family: str, variant: str) -> None:
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


BACKEND = types.SimpleNamespace(
    VARIANTS={family: {v: v for v in VARIANTS} for family in ("hexiom", "sigils", "logic")},
    DEFAULT_VARIANT={family: "grandchild" for family in ("hexiom", "sigils", "logic")},
    NO_SYMMETRY_BREAKING={"hexiom", "sigils", "logic"},
    available=lambda: None,
    make=Misbehaving,
)

if __name__ == "trisolve_plugin":  # run by --plugin
    from trisolve.backends import registry

    registry.register("misbehave", BACKEND)
