"""Shared fixtures: where the read-only shared corpus lives, skipping cleanly when it is absent."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared puzzle corpus folder, or skip the test when this checkout has none beside it."""
    path = SHARED / "corpus"
    if not path.is_dir():
        pytest.skip("../shared/corpus is not present")
    return path


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """Failure screenshots of runs given no --artifacts go to a cache folder of the test run's own (the
    runs the tests start inherit it), never the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(autouse=True)
def no_shared_solvers():
    """Each test starts with no SAT solver kept from another test's boards: the solver shares one per
    board shape within a process, which would answer a test that swaps the solver out."""
    yield
    sat = sys.modules.get("flowbot.solve.sat")  # never imported here: some tests check what loads
    if sat is not None:
        sat.forget_shapes()


def pytest_configure(config: pytest.Config) -> None:
    """Markers: `realgames` runs flowbot on the third-party games of ../shared/games (select it with
    `-m realgames`, leave it out with `-m "not realgames"`)."""
    config.addinivalue_line("markers", "realgames: flowbot plays a real third-party game of ../shared/games")
