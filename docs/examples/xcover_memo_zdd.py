"""A solver bug caught by cross-checking: xcover's memoised ZDD, plugged in as a backend (docs/solver-bug.md).

``xcover.covers_zdd(..., use_memo_cache=True)`` builds a ZDD of all exact
covers and reuses the ZDD of a subproblem it has seen before, looking
subproblems up by a 32-bit hash of their active items with no check that
the stored subproblem is the same one.  When two different subproblems
share a hash, the second gets the first one's covers.  Without the cache
(``use_memo_cache=False``) the ZDD is right.

This plugin lists every path of that ZDD as a tiling, so the cross-checker
can put it beside the shipped backends.  It uses the shipped exact-cover
rows (``backends/exactcover/sigils.py``, variant ``plain``: covers and
tilings one to one), so the only difference is the solver.  Variants:
``memo`` (the cache on: the bug) and ``no-memo`` (the same ZDD built without it).

    trisolve crosscheck levels/sigils/pentominoes-6x10.txt \
        --plugin docs/examples/xcover_memo_zdd.py --backends exactcover:quadrant,exactcover:plain,zdd

The shipped ``exactcover`` backend never calls ``covers_zdd``
(tests/test_exactcover.py fails if it does).
"""

from __future__ import annotations

import time
import types

from trisolve.backends.catalog import Catalog

CATALOG = Catalog(
    default="memo",
    variants={
        "memo": "xcover covers_zdd with use_memo_cache=True (subproblems keyed by a 32-bit hash); ZDD paths listed",
        "no-memo": "xcover covers_zdd without the memo cache; ZDD paths listed",
    },
    symmetry_breaking=False,
)


def zdd_paths(nodes):
    """Every root-to-top path of a ZDD given as xcover's (id, option, lo, hi) nodes, children first.

    The last node is the root; no node at all means no cover (the empty family, node 0).
    """
    paths = {0: [], 1: [()]}  # node 0 is the empty family, node 1 the family holding the empty set
    root = 0
    for node, option, lo, hi in nodes:
        paths[node] = paths[lo] + [(option, *rest) for rest in paths[hi]]
        root = node
    return paths[root]


class ZddBackend:
    def __init__(self, family, variant, translator):
        self.family, self.variant, self.name = family, variant, f"zdd:{variant}"

    def run(self, level, limits, options, on_solution=None):
        from xcover import covers_zdd

        from trisolve.backends.base import Options, finish
        from trisolve.backends.exactcover import sigils

        started = time.perf_counter()
        problem = sigils.encode(level, "plain", Options())  # no symmetry breaking: classes are not offered
        if options.symmetry_breaking:
            return finish(self.name, self.family, [], exhausted=False, stats={}, times={})
        if problem.uncoverable():
            return finish(self.name, self.family, [], exhausted=True, stats={}, times={})
        nodes = list(
            covers_zdd(
                [list(option) for option in problem.options],
                primary=list(problem.primary),
                secondary=list(problem.secondary),
                use_memo_cache=self.variant == "memo",
            )
        )
        solutions = []
        for path in zdd_paths(nodes):
            for solution in problem.solutions_of(path):
                solutions.append(solution)
                if on_solution is not None:
                    on_solution(solution)
                if not options.enumerate:
                    break
            if not options.enumerate and solutions:
                break
        return finish(
            self.name,
            self.family,
            solutions,
            exhausted=options.enumerate,
            stats={"zdd_nodes": len(nodes)},
            times={"solve": time.perf_counter() - started},
        )

    def export(self, level, options):
        from trisolve.backends.exactcover import engine, sigils

        return engine.to_text(sigils.encode(level, "plain", options))


BACKEND = types.SimpleNamespace(
    available=lambda: None,
    make=ZddBackend,
    TRANSLATORS={"sigils": types.SimpleNamespace(CATALOG=CATALOG)},
)

if __name__ == "trisolve_plugin":  # run by --plugin
    from trisolve.backends import registry

    registry.register("zdd", BACKEND)
