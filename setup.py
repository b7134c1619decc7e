"""Which packages the distribution holds, found by folder so that adding a family or a backend edits no list.

Every folder of pyproject.toml's ``package-dir`` table is a package, and so is
every folder below one with an ``__init__.py`` and a lower-case name: a
family (``models/<family>/``), a backend (``backends/<name>/``), a
translator package (``backends/dp/hexiom/``).  ``TEMPLATE`` folders are the
ones to copy and are not installed.  Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import warnings

from setuptools import find_packages, setup
from setuptools.config.pyprojecttoml import read_configuration

ROOT = os.path.dirname(os.path.abspath(__file__))


def packages(root: str = ROOT) -> list[str]:
    """The packages to install: each package-dir folder and its lower-case subpackages."""
    with warnings.catch_warnings():  # older setuptools call their reading of [tool.setuptools] a beta
        warnings.simplefilter("ignore")
        folders = read_configuration(os.path.join(root, "pyproject.toml"))["tool"]["setuptools"]["package-dir"]
    found = []
    for package, folder in folders.items():
        found.append(package)
        below = find_packages(os.path.join(root, folder))
        found += [f"{package}.{name}" for name in below if all(part == part.lower() for part in name.split("."))]
    return found


if __name__ == "__main__":
    setup(packages=packages())
