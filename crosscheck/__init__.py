"""Differential testing of encodings across backends.

Called, the package is ``trisolve.api.crosscheck``: ``trisolve.crosscheck(levels)``.
"""

from trisolve.api import make_callable

make_callable(__name__, "crosscheck")
