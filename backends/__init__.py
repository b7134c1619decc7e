"""Solver backends: one subpackage per paradigm, one translator per (backend, family)."""
