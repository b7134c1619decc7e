"""Search small square sigil frames on which one mutant of ``sigils.lp`` counts other classes than the shipped file.

    python scripts/sigils_chain_search.py [--sides 3,4] [--max-tilings 19] [--mutant sigils#241]

For every multiset of small pieces (monomino M, domino D, straight tromino B,
L tromino A, the seven tetrominoes) that fills an N x N frame, with and
without ``mirror``, the frame is counted plainly; frames with 1 to
``--max-tilings`` tilings are then counted with symmetry breaking by the
shipped ``sigils.lp`` and by the mutant, in every order of the piece types
(the ranks the lex-leader chain follows depend on that order).  Prints each
frame where the two class counts differ, as JSON lines.  This is how
``levels/sigils/cycle-4x4.txt`` was found (docs/mutation.md): the default
mutant is line 117 with ``I != J+1``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time

import clingo

from trisolve.backends.clingo import lp_mutants
from trisolve.backends.clingo.engine import encoding_path
from trisolve.backends.clingo.sigils import facts
from trisolve.models.sigils import model as sigils

DRAWN = {"M": ["M"], "D": ["DD"], "B": ["BBB"], "A": ["AA", "A."]}
AREA = {"M": 1, "D": 2, "B": 3, "A": 3, **{t: 4 for t in "IOTSZLJ"}}


def level_text(side: int, pieces, mirror: bool) -> str:
    lines = [f"{side}x{side}", " ".join(pieces)] + (["mirror"] if mirror else [])
    for name in sorted(set(pieces) & set(DRAWN)):
        lines += [f"piece {name}", *DRAWN[name]]
    return "\n".join(lines) + "\n"


def count(program: str, level_facts: str, limit: int, seconds: float) -> int | None:
    """Answer sets up to ``limit + 1``, or None when clingo does not finish within ``seconds``."""
    control = clingo.Control([str(limit + 1), "--configuration=crafty", "--heuristic=Domain"], logger=lambda *_: None)
    control.add("base", [], program + level_facts)
    control.ground([("base", [])])
    found = [0]
    with control.solve(on_model=lambda _: found.__setitem__(0, found[0] + 1), async_=True) as handle:
        if not handle.wait(seconds):
            handle.cancel()
            return None
    return found[0]


def multisets(area: int):
    names = sorted(AREA, key=lambda p: -AREA[p])

    def extend(i: int, left: int, chosen: list[str]):
        if left == 0:
            yield tuple(chosen)
        elif i < len(names):
            for k in range(left // AREA[names[i]], -1, -1):
                yield from extend(i + 1, left - k * AREA[names[i]], chosen + [names[i]] * k)

    yield from extend(0, area, [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sides", default="3,4")
    parser.add_argument("--max-tilings", type=int, default=19)
    parser.add_argument("--mutant", default="sigils#241", help="a mutant id as trisolve mutate names it")
    parser.add_argument("--seconds", type=float, default=5.0, help="per clingo count")
    args = parser.parse_args()
    with open(encoding_path("sigils.lp"), encoding="utf-8") as handle:
        shipped = handle.read()
    made = lp_mutants.mutants(shipped)
    number = int(args.mutant.split("#")[1])
    mutant = made[number - 1]
    print(f"# {args.mutant}: line {mutant.line} {mutant.operator}: {mutant.mutated}", file=sys.stderr)
    for side in (int(s) for s in args.sides.split(",")):
        began, small, found = time.monotonic(), 0, 0
        for pieces in multisets(side * side):
            for mirror in (False, True):
                try:
                    level = sigils.parse_text(level_text(side, pieces, mirror))
                except sigils.LevelSyntaxError:  # e.g. L and J with mirror: one piece
                    continue
                if level.obstruction:
                    continue
                plain = count(shipped, facts(level), args.max_tilings, args.seconds)
                if not plain or plain > args.max_tilings:
                    continue
                small += 1
                for order in itertools.permutations(sorted(set(pieces))):
                    ordered = [p for t in order for p in pieces if p == t]
                    level = sigils.parse_text(level_text(side, ordered, mirror))
                    classes = count(shipped, facts(level, True), plain, args.seconds)
                    mutated = count(mutant.text, facts(level, True), plain + 5, args.seconds)
                    if classes is not None and mutated is not None and classes != mutated:
                        found += 1
                        print(
                            json.dumps(
                                {
                                    "side": side,
                                    "pieces": " ".join(ordered),
                                    "mirror": mirror,
                                    "tilings": plain,
                                    "classes": classes,
                                    "mutant": mutated,
                                }
                            ),
                            flush=True,
                        )
                        break
        print(
            f"# {side}x{side}: {small} frames with 1-{args.max_tilings} tilings, {found} tell the mutant apart, "
            f"{time.monotonic() - began:.0f} s",
            file=sys.stderr,
            flush=True,
        )


if __name__ == "__main__":
    main()
