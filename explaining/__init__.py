"""Why an answer is what it is: step-wise explanations, hints, minimal causes of "no solution", backbones
and the extra givens that make a puzzle unique, over a family's constraint model, each claim checked by a
second paradigm (``check.py``).  The library's ``trisolve.explain`` and the ``trisolve explain`` command are
thin layers over ``explain.explain``."""
