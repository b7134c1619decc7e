"""trisolve: one puzzle model, three solving paradigms, cross-checked.

The package is assembled from the repository's folders: ``models/`` is
``trisolve.models``, ``backends/`` is ``trisolve.backends``, ``crosscheck/``
is ``trisolve.crosscheck``; this folder (``cli/``) is the root package with
the command line in ``trisolve.main``.
"""

__version__ = "0.1.0"
