"""Rewrite the tables the docs print from the package itself (run from a checkout, after changing what they show).

    python scripts/write_docs.py                              # rewrite them
    python scripts/write_docs.py --check                      # exit 1 if one differs (what the tests check too)
    python scripts/write_docs.py --portfolio portfolio-results  # also the portfolio's page and plot

* docs/backends.md: which backends run when nobody names one, per family, purpose and task: the selection
  policy's answers (``trisolve.selection.markdown``).
* README.md: the portfolio table, from the shipped table ``solve`` takes its defaults from
  (``selection/portfolio.json``, which ``trisolve bench --portfolio --write-defaults`` writes).
* docs/bench/portfolio.md: the page of the shipped table, keeping the findings it lists; with ``--portfolio OUT``
  (the folder of a measurement) the findings of that measurement instead, and its plot when it measured the whole
  table.

Every file is written whole, and all of them or none (``files.write_files``): a full disk or a read-only README
leaves every one as it was.  The product never writes into a checkout; this script does, on purpose.
"""

from __future__ import annotations

import argparse
import os
import sys

from trisolve.models import files
from trisolve.models.errors import TrisolveError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BACKENDS_PAGE = os.path.join("docs", "backends.md")
README = "README.md"
PORTFOLIO_PAGE = os.path.join("docs", "bench", "portfolio.md")
#: docs/backends.md's block of defaults: (start marker, end marker)
DEFAULTS_BLOCK = ("<!-- defaults: written by scripts/write_docs.py -->\n", "<!-- end of defaults -->")


def rewritten(text: str, start: str, end: str, block: str) -> str:
    """``text`` with what stands between ``start`` and ``end`` replaced by ``block``."""
    if start not in text or end not in text:
        raise SystemExit(f"markers {start.strip()!r} ... {end!r} not found")
    head, rest = text.split(start, 1)
    return head + start + block + end + rest.split(end, 1)[1]


def shipped_table() -> dict:
    """The table ``solve`` takes its defaults from, as the package has it."""
    from trisolve.selection import table

    return files.read_json(table.TABLE_PATH, what="portfolio table")


def changes(root: str = ROOT, portfolio_results: str | None = None) -> list[files.Change]:
    """Every file this script writes, as it should read now, that reads otherwise."""
    from trisolve.bench import portfolio
    from trisolve.selection import markdown

    wanted: list[files.Change] = []

    def read(name: str) -> str:
        return files.read_text(os.path.join(root, name), what=name)

    def want(name: str, text: str, what: str) -> None:
        if not os.path.isfile(os.path.join(root, name)) or read(name) != text:
            wanted.append(files.Change.text(os.path.join(root, name), text, what, updating=True))

    data = shipped_table()
    want(BACKENDS_PAGE, rewritten(read(BACKENDS_PAGE), *DEFAULTS_BLOCK, markdown()), "backends page")
    readme = read(README)
    if portfolio.README_START not in readme or portfolio.README_END not in readme:
        raise SystemExit(f"{README}: markers {portfolio.README_START!r} ... {portfolio.README_END!r} not found")
    want(README, portfolio.replace_readme_table(readme, data), "README")
    if portfolio_results is not None:
        wanted += _portfolio_page(root, portfolio_results, data, want)
    else:  # the table may have grown by a family measured alone: its page follows, the findings it shows kept
        plot = os.path.join(root, os.path.dirname(PORTFOLIO_PAGE), portfolio.PLOT_FILE)
        page = read(PORTFOLIO_PAGE) if os.path.isfile(os.path.join(root, PORTFOLIO_PAGE)) else ""
        shown = portfolio.PLOT_FILE if os.path.isfile(plot) else None
        want(PORTFOLIO_PAGE, portfolio.markdown(data, shown, shown_findings(page)), "portfolio page")
    return wanted


def shown_findings(page: str) -> list[str]:
    """The findings the portfolio page lists (its ``## Findings`` section), so that rewriting the page from the
    shipped table alone keeps what only the measurement that found them knew."""
    found, inside = [], False
    for line in page.splitlines():
        if line.startswith("## "):
            inside = line == "## Findings"
        elif inside and line.startswith("- "):
            found.append(line[2:])
    return found


def _portfolio_page(root: str, results: str, data: dict, want) -> list[files.Change]:
    """The shipped table's page (``want``ed) and, when the measurement in ``results`` is the table's whole (not
    one merged into it), its plot; the plot of a partial measurement leaves the last whole one's."""
    from trisolve import api
    from trisolve.bench import portfolio

    measured = api.read_portfolio(results)
    plot_path = os.path.join(root, os.path.dirname(PORTFOLIO_PAGE), portfolio.PLOT_FILE)
    new_plot = os.path.join(results, portfolio.PLOT_FILE)
    whole = data["header"] == measured.table["header"] and os.path.isfile(new_plot)
    plot = []
    if whole:
        with open(new_plot, "rb") as handle:
            plot.append(files.Change(plot_path, handle.read(), "plot"))
    shown = portfolio.PLOT_FILE if whole or os.path.isfile(plot_path) else None
    want(PORTFOLIO_PAGE, portfolio.markdown(data, shown, measured.findings), "portfolio page")
    return plot


def main(argv: list[str] | None = None, root: str = ROOT) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if a table differs")
    parser.add_argument(
        "--portfolio",
        metavar="OUT",
        default=None,
        help="also the portfolio's page and plot, from the measurement in OUT (trisolve bench --portfolio --out OUT)",
    )
    args = parser.parse_args(argv)
    try:
        found = changes(root, args.portfolio)
        if not args.check:
            files.write_files(found)
    except TrisolveError as problem:  # a file that cannot be read or written: every file is as it was
        print(f"write_docs: {problem}", file=sys.stderr)
        return 2
    for change in found:
        print(f"{os.path.relpath(change.path, root)}: {'differs' if args.check else 'rewritten'}")
    return 1 if args.check and found else 0


if __name__ == "__main__":
    sys.exit(main())
