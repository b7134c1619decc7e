"""The TEMPLATE family: copy this folder to start a family (see docs/adding-a-family.md).

[GUIDELINE] Copy ``models/TEMPLATE/`` to ``models/<family>/`` (a lower-case
name: ``models.FAMILIES`` finds a family by its folder, and skips this one
because its name is upper case), replace TEMPLATE by the name everywhere,
replace the puzzle (a row of cells, choose exactly K of them, some cells
given) by yours and delete the [GUIDELINE] comments.  Then add
``levels/<family>/`` (a few small levels and their ``expected.json``).  The
rules are stated once, in ``constraints.py``: every backend that compiles
constraint models runs the family from it.  A hand-written translator,
``backends/<backend>/<family>.py``, is optional: a second, independent
statement of the rules for the cross-check to set against the compiled one.
Nothing else in trisolve lists families: every command, the cross-checker,
the benchmark and the contract tests find yours from this record.

This package never imports a backend, the cross-checker, the benchmark, the
API or the command line: its validator is the referee.
"""

from __future__ import annotations

from ..family import Ladder, Parameter, Rung, first_line, from_model
from . import constraints, generate, model, picture

FAMILY = from_model(
    "TEMPLATE",
    model,
    # [GUIDELINE] how a file is recognised when its folder does not say (its first meaningful line)
    sniff=lambda path, text: first_line(text).startswith("choose"),
    picture=picture.picture,
    # [GUIDELINE] the suffix generated level files get; a suffix only this family uses also recognises its files
    suffix=".TEMPLATE",
    # [GUIDELINE] what ``solve`` runs without --backend until ``trisolve bench --portfolio --write-defaults`` has
    # measured the family (then the measured table decides)
    default_backend="pysat",
    generate=generate.generate,
    # [GUIDELINE] the generator's sizes: they become --<name> options of generate, campaign and mutate
    generator_parameters=(Parameter("cells", int, 1, model.MAX_CELLS, "cells in the row (default 6)"),),
    # [GUIDELINE] the growing sizes ``bench --portfolio`` measures on, and how a level's size is measured
    ladder=Ladder("cells", lambda level: level.cells, tuple(Rung(n, {"cells": n}) for n in (4, 8, 12, 16))),
    # [GUIDELINE] optional: the backends a cross-check runs when none is named, when running every variant
    # takes minutes on your levels (measure it: docs/bench/crosscheck-defaults.md); None runs every variant
    crosscheck=None,
    # the rules stated once: every backend that compiles constraint models runs the family from them
    constraints=constraints.constraints,
    constraint_kinds=constraints.KINDS,
)
