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
