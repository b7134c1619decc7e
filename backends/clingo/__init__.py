"""The clingo backend (see backends/registry.py for what this module must expose)."""

from __future__ import annotations

VARIANTS: dict[str, dict[str, str]] = {}
DEFAULT_VARIANT: dict[str, str] = {}


def available() -> str | None:
    return "not implemented yet"


def make(family: str, variant: str):
    raise NotImplementedError
