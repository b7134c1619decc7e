"""Write docs/usage.md's command reference from the commands' own --help (trisolve/cli/reference.py).

    python scripts/usage_reference.py           # print the reference
    python scripts/usage_reference.py --write   # rewrite it in docs/usage.md
    python scripts/usage_reference.py --check   # exit 1 when docs/usage.md's copy is stale

Run it after adding or changing a command or an option (a new puzzle family changes some option texts
too); tests/test_docs.py fails until it is run.
"""

from __future__ import annotations

import argparse
import os
import sys

from trisolve.cli.main import cli
from trisolve.cli.reference import reference, updated

USAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "usage.md")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="rewrite the reference in docs/usage.md")
    what.add_argument("--check", action="store_true", help="exit 1 when docs/usage.md's reference is stale")
    args = parser.parse_args()
    if not (args.write or args.check):
        sys.stdout.write(reference(cli))
        return 0
    with open(USAGE, encoding="utf-8") as handle:
        document = handle.read()
    fresh = updated(document, cli)
    if args.check:
        if fresh != document:
            print("docs/usage.md: the command reference is stale; run python scripts/usage_reference.py --write")
            return 1
        return 0
    if fresh != document:
        with open(USAGE, "w", encoding="utf-8") as handle:
            handle.write(fresh)
        print("docs/usage.md: command reference rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
