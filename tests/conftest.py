"""Shared fixtures. The research data are read from ../shared/data (override with
CHANCE_AGREEMENT_DATA); they are never copied into the repository."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("CHANCE_AGREEMENT_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder; tests using it skip only on a user's clone without it.

    Under CI (CI=true) a missing folder is an error, never a skip.
    """
    if not DATA_DIR.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"CI requires the shared data folder, not found at {DATA_DIR}")
        pytest.skip(f"shared research data not found at {DATA_DIR} (set CHANCE_AGREEMENT_DATA)")
    return DATA_DIR
