"""Shared fixtures."""

from __future__ import annotations

import pytest
from support import level_path


@pytest.fixture
def hexiom_level():
    from trisolve.models import hexiom

    def load(name: str):
        return hexiom.parse(level_path("hexiom", name))

    return load
