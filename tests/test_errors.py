"""One exception root: every exception class the package defines derives from ``TrisolveError``.

The classes are found by importing every module of the package (the folders
of pyproject's package-dir) and looking at what each defines, so a new
exception class anywhere is held to the rule without being named here.
"""

from __future__ import annotations

import importlib
import inspect

from test_layering import _modules

from trisolve.models.errors import LevelSyntaxError, TrisolveError, UsageError


def _exception_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    for name in sorted(_modules()):
        if name.endswith("__main__"):
            continue  # running it is the command itself
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name:
                found[f"{name}.{attribute}"] = value
    return found


def test_every_exception_class_derives_from_the_one_root():
    classes = _exception_classes()
    assert "trisolve.models.errors.TrisolveError" in classes and len(classes) > 10  # the walk sees the package
    assert sorted(name for name, cls in classes.items() if not issubclass(cls, TrisolveError)) == []


def test_bad_input_is_the_one_usage_error_and_exits_2():
    assert issubclass(LevelSyntaxError, UsageError) and UsageError.exit_code == 2
    assert TrisolveError.exit_code == 1
    import trisolve

    assert trisolve.UsageError is UsageError  # the library raises the same class the command line maps
