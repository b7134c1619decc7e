"""Time `trisolve crosscheck levels/<family>` with its defaults (issue 22: within 5 minutes on a quiet machine,
complete agreeing counts on every level but at most hexiom's level40).

    python scripts/crosscheck_defaults.py [hexiom sigils]

Prints, per family: wall and CPU seconds (this command and every run it started), the plan it printed up front,
the verdict line, and the date and machine load before and after (figures for docs/bench/crosscheck-defaults.md).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(families: list[str]) -> None:
    for family in families or ["hexiom", "sigils"]:
        print(
            f"== trisolve crosscheck levels/{family}  ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
            f"load {os.getloadavg()[0]:.1f})"
        )
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "trisolve", "crosscheck", f"levels/{family}", "--quiet"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        wall = time.monotonic() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        lines = done.stdout.splitlines()
        for line in lines:
            if line.startswith(("plan:", "VERDICT", f"{len(lines)}")) or " runs " in line:
                print("  " + line)
        print(f"  exit {done.returncode}; wall {wall:.1f} s, CPU {cpu:.1f} s; load after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
