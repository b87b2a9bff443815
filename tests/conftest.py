"""Shared fixtures: where the read-only shared corpus lives, skipping cleanly when it is absent."""

from __future__ import annotations

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


def pytest_configure(config: pytest.Config) -> None:
    """Markers: `realgames` runs flowbot on the third-party games of ../shared/games (select it with
    `-m realgames`, leave it out with `-m "not realgames"`)."""
    config.addinivalue_line("markers", "realgames: flowbot plays a real third-party game of ../shared/games")
