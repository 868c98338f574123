"""Every test saves games in a temporary data folder, never in the user's own, and plays
without pauses between bot moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from mattis.frontend.record import DATA_DIR_VARIABLE


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``MATTIS_DATA_DIR`` for this test (programs started by the test inherit it), and
    ``MATTIS_PACE=0`` so a game in a pseudo-terminal does not wait between bot moves."""
    folder = tmp_path / "mattis-data"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    monkeypatch.setenv("MATTIS_PACE", "0")
    return folder
