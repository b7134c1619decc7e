"""Shared fixtures, and ``--backend``: run the backend-parametrised tests of some backends only.

``pytest --backend clingo`` (or ``--backend pysat,dp``) keeps, among the tests
parametrised by a backend (a ``spec``, ``backend`` or ``name`` parameter
naming one, as the registry does), those of the backends named; tests that
are not about one backend run as always.  Like CPMpy's ``--solver``.
"""

from __future__ import annotations

import pytest
from support import level_path

from trisolve.backends.spec import Spec
from trisolve.models.errors import UsageError

#: the parameters by which a test is parametrised over backends
BACKEND_PARAMETERS = ("spec", "backend", "name", "backend_spec")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        action="store",
        default=None,
        metavar="NAME[,NAME...]",
        help="run the backend-parametrised tests of these backends only (the others run as always)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    chosen = config.getoption("--backend")
    if not chosen:
        return
    from trisolve.backends import registry

    wanted = {name.strip() for name in chosen.split(",") if name.strip()}
    unknown = wanted - set(registry.names())
    if unknown:
        raise pytest.UsageError(f"--backend: unknown backend {', '.join(sorted(unknown))}; known: {registry.names()}")
    kept, dropped = [], []
    for item in items:
        named = _backend_of(item, set(registry.names()))
        (dropped if named is not None and named not in wanted else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _backend_of(item: pytest.Item, known: set[str]) -> str | None:
    """The backend a parametrised test runs (``pysat`` of ``pysat:totalizer/orbits``), or None."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    for key in BACKEND_PARAMETERS:
        value = params.get(key)
        if isinstance(value, str):
            try:
                name = Spec.parse(value).backend
            except UsageError:  # a parameter that is not a backend
                continue
            if name in known:
                return name
    return None


@pytest.fixture
def hexiom_level():
    from trisolve.models.hexiom import model as hexiom

    def load(name: str):
        return hexiom.parse(level_path("hexiom", name))

    return load


@pytest.fixture(autouse=True)
def _signal_handlers_given_back():
    """Every test leaves SIGINT and SIGTERM as it found them: an ignored SIGINT left behind in this process is
    inherited by every process a later test starts, and those tests' Ctrl-C then does nothing."""
    import signal

    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    yield
    after = {signum: signal.getsignal(signum) for signum in before}
    for signum, handler in before.items():
        signal.signal(signum, handler)  # the next test starts clean whatever this one did
    assert after == before, f"the test left signal handlers changed: {after} (were {before})"
