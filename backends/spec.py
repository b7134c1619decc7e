"""A backend spec, the name a user gives a backend configuration: parsed once, printed back exactly.

The grammar, every part but the backend optional::

    [mutated:]BACKEND[:VARIANT[@SOLVER]][~MUTATION][/orbits]

* ``pysat``, ``clingo:count``: a backend, and one of its variants (None: the
  backend's default variant for the family, ``registry.resolve`` fills it in);
* ``pysat:totalizer@glucose4``: a variant run by another SAT solver (the
  catalog lists ``totalizer@glucose4`` as one variant: ``variant_name``);
* ``pysat:totalizer/orbits``: count by orbits (``backends/orbits.py``);
* ``mutated:pysat:totalizer~drop-group@backends/pysat/hexiom.py:71[locked tiles]``:
  the backend with one mutation applied (``backends/mutated.py``); the
  mutation is the text after the first ``~`` and may hold any character
  (a file path, a line, a group's name), so nothing after it is parsed.

``Spec.parse`` is the only parser of this grammar and ``str(spec)`` gives the
text back exactly; every other module takes the parts from a ``Spec``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..models.errors import UsageError, shorten

#: What a mutated backend's spec starts with, and what separates the mutation from the backend it mutates.
MUTATED = "mutated:"
MUTATION = "~"
#: What asks for counting by orbits.
ORBITS = "/orbits"
#: A backend's name: letters, digits, ``-`` and ``_`` (the other characters separate a spec's parts).
NAME = re.compile(r"[A-Za-z0-9_-]+\Z")
#: A variant's or a solver's name: no separator of the grammar, no blank.
PART = re.compile(r"[A-Za-z0-9_+.-]+\Z")


class BadSpec(UsageError):
    """A backend spec that does not follow the grammar (a usage error: exit 2)."""


@dataclass(frozen=True)
class Spec:
    """One backend configuration as a user names it (see the module docstring for the grammar)."""

    backend: str
    variant: str | None = None
    solver: str | None = None
    #: the mutation applied (``mutated:`` specs), as ``backends/mutated.py`` reads it
    mutation: str | None = None
    orbits: bool = False

    @classmethod
    def parse(cls, text: str | Spec) -> Spec:
        """The spec ``text`` stands for (a ``Spec`` is returned as it is); ``BadSpec`` when it is not one."""
        if isinstance(text, Spec):
            return text
        if not isinstance(text, str):
            raise BadSpec(f"a backend is named by text such as 'pysat' or 'clingo:count', not {shorten(text)!r}")
        rest = text
        orbits = rest.endswith(ORBITS)
        if orbits:
            rest = rest[: -len(ORBITS)]
        mutation = None
        if rest.startswith(MUTATED):
            rest, sep, mutation = rest[len(MUTATED) :].partition(MUTATION)
            if not sep or not mutation:
                raise BadSpec(f"a mutated backend is named mutated:BACKEND:VARIANT~MUTATION, not {shorten(text)!r}")
        backend, sep, variant_name = rest.partition(":")
        variant, at, solver = _variant_and_solver(variant_name)
        if not NAME.match(backend) or (sep and not PART.match(variant)) or (at and not PART.match(solver)):
            raise BadSpec(
                f"backend {shorten(text)!r}: expected BACKEND, BACKEND:VARIANT or BACKEND:VARIANT@SOLVER "
                "(letters, digits, - and _ in a backend's name)"
            )
        spec = cls(backend, variant or None, solver or None, mutation, orbits)
        if str(spec) != text:  # cannot happen for text that parsed; kept as the grammar's own check
            raise BadSpec(f"backend {shorten(text)!r} does not read back as itself")
        return spec

    def __str__(self) -> str:
        text = self.backend
        if self.variant is not None:
            text += f":{self.variant_name}"
        if self.mutation is not None:
            text = f"{MUTATED}{text}{MUTATION}{self.mutation}"
        return text + (ORBITS if self.orbits else "")

    @property
    def variant_name(self) -> str | None:
        """The variant as the backend's catalog lists it: ``totalizer@glucose4``."""
        if self.variant is None:
            return None
        return self.variant + (f"@{self.solver}" if self.solver else "")

    @property
    def plain(self) -> Spec:
        """The backend configuration a mutation or orbit counting wraps: ``pysat:totalizer``."""
        return replace(self, mutation=None, orbits=False)

    def with_variant(self, variant_name: str) -> Spec:
        """This spec with a catalog's variant (``totalizer@glucose4``) filled in."""
        variant, _, solver = _variant_and_solver(variant_name)
        return replace(self, variant=variant, solver=solver or None)


def _variant_and_solver(variant_name: str) -> tuple[str, str, str]:
    """``totalizer@glucose4`` -> ``("totalizer", "@", "glucose4")``: the variant, the separator if any, the solver."""
    return variant_name.partition("@")
