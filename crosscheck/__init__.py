"""Differential testing of encodings across backends."""
