"""Rewrite the tables the docs print from the package itself (run from a checkout, after changing what they show).

    python scripts/write_docs.py          # rewrite them
    python scripts/write_docs.py --check  # exit 1 if one differs (what the tests check too)

* docs/backends.md: which backends run when nobody names one, per family, purpose and task: the selection
  policy's answers (``trisolve.selection.markdown``).

The product never writes into a checkout; this script does, on purpose.
"""

from __future__ import annotations

import argparse
import os
import sys

from trisolve.selection import markdown

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: file -> (start marker, end marker, the block's text between them)
BLOCKS = {
    os.path.join("docs", "backends.md"): (
        "<!-- defaults: written by scripts/write_docs.py -->\n",
        "<!-- end of defaults -->",
        markdown,
    ),
}


def rewritten(text: str, start: str, end: str, block: str) -> str:
    """``text`` with what stands between ``start`` and ``end`` replaced by ``block``."""
    if start not in text or end not in text:
        raise SystemExit(f"markers {start.strip()!r} ... {end!r} not found")
    head, rest = text.split(start, 1)
    return head + start + block + end + rest.split(end, 1)[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if a table differs")
    check = parser.parse_args().check
    differs = []
    for name, (start, end, make) in BLOCKS.items():
        path = os.path.join(ROOT, name)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        new = rewritten(text, start, end, make())
        if new != text:
            differs.append(name)
            if not check:
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(new)
    for name in differs:
        print(f"{name}: {'differs' if check else 'rewritten'}")
    return 1 if check and differs else 0


if __name__ == "__main__":
    sys.exit(main())
