"""Every test saves games in a temporary data folder, never in the user's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from mattis.frontend.record import DATA_DIR_VARIABLE


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``MATTIS_DATA_DIR`` for this test (programs started by the test inherit it)."""
    folder = tmp_path / "mattis-data"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    return folder
