"""Every test saves games in a temporary data folder, never in the user's own, and plays
without pauses between bot moves. The browser tests share a served site, Chromium and a
screenshot folder from here (a module may define its own instead).

The heavy tests carry a marker (``pyproject.toml``), so the fast loop can leave them out:
``browser`` (Chromium), ``cluster`` (PostgreSQL and nginx) and ``ray``. Their modules mark them;
a test that asks for Chromium or Ray by fixture is marked here too, wherever it is."""

from __future__ import annotations

import os
import signal
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

# Python's bytecode caches on, whatever the shell says (PYTHONDONTWRITEBYTECODE): the suite
# starts many Python processes (servers, commands, the guides' examples) and two workers, and
# each would otherwise compile the package and the rewritten tests again (about 30 s of a
# fast-loop run). The caches go to __pycache__ folders, which git ignores.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

import pytest  # noqa: E402

from mattis.frontend.record import DATA_DIR_VARIABLE  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser


MARKED_BY_FIXTURE = {"browser": "browser", "base_url": "browser", "ray_instance": "ray"}
"""A test using one of these fixtures needs what its marker names (``base_url`` serves the
site the browser tests open)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture in MARKED_BY_FIXTURE.keys() & set(getattr(item, "fixturenames", ())):
            item.add_marker(MARKED_BY_FIXTURE[fixture])


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``MATTIS_DATA_DIR`` for this test (programs started by the test inherit it), and
    ``MATTIS_PACE=0`` so a game in a pseudo-terminal does not wait between bot moves."""
    folder = tmp_path / "mattis-data"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    monkeypatch.setenv("MATTIS_PACE", "0")
    return folder


@pytest.fixture(autouse=True)
def ctrl_c_left_as_found(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test leaves this worker's Ctrl-C as it found it (handler and signal mask).

    An ignored SIGINT passes on to every program a later test starts, and a ``mattis play``
    started with SIGINT ignored never hears Ctrl-C. A change is undone here and reported as a
    warning naming the test. (A suite started in the background by a non-interactive shell,
    ``bash .ci/run &``, starts with SIGINT ignored everywhere: that, not a test, is why the
    terminal tests give their child a shell's default SIGINT.)"""
    handler = signal.getsignal(signal.SIGINT)
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    yield
    changes = []
    if signal.getsignal(signal.SIGINT) != handler:
        changes.append(f"SIGINT handler {signal.getsignal(signal.SIGINT)!r}")
        signal.signal(signal.SIGINT, handler)
    if signal.pthread_sigmask(signal.SIG_BLOCK, []) != blocked:
        changes.append(f"blocked signals {sorted(signal.pthread_sigmask(signal.SIG_SETMASK, blocked))}")
    if changes:
        warnings.warn(f"{request.node.nodeid} left {' and '.join(changes)}; restored", stacklevel=1)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``mattis serve`` of the module's own, for its browser tests."""
    from .browser_helpers import served_site

    with served_site(tmp_path_factory.mktemp("site")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, once per module."""
    from .browser_helpers import launched_chromium

    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a browser test writes its screenshots."""
    from .browser_helpers import screenshot_folder

    return screenshot_folder(tmp_path)
