"""The optional extras: which libraries each one brings, whether they are installed, and
the one line that tells a person what to install.

A plain ``pip install mattis`` plays, replays, simulates, benchmarks and runs tournaments
of our bots; the web server, the research environments, Ray and the lab's report each need
an extra. Every place that needs one asks this module, so the install command is written
once and a missing extra reads the same everywhere: ``mattis serve needs the web extra: pip
install "mattis[web]"``. Standard library only, at the bottom of the layers.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from typing import Final

EXTRA_MODULES: Final[Mapping[str, tuple[str, ...]]] = {
    "web": ("starlette", "uvicorn", "websockets", "sqlalchemy", "segno", "prometheus_client"),
    "postgres": ("psycopg",),
    "rl": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
    "ray": ("ray",),
    "lab": ("matplotlib",),
    "train": ("torch", "sb3_contrib", "stable_baselines3"),
}
"""The top-level modules each extra of ``pyproject.toml`` installs (as they are imported,
not as they are named on PyPI: ``open_spiel`` installs ``pyspiel``)."""


def install_command(extra: str) -> str:
    """What to type to get ``extra``: ``pip install "mattis[web]"`` (quoted for every shell)."""
    if extra not in EXTRA_MODULES:
        raise ValueError(f"extra: expected one of {', '.join(EXTRA_MODULES)}, got {extra!r}")
    return f'pip install "mattis[{extra}]"'


def needs_extra(what: str, extra: str) -> str:
    """The one line for a missing extra: ``mattis serve needs the web extra: pip install …``."""
    return f"{what} needs the {extra} extra: {install_command(extra)}"


def installed(module: str) -> bool:
    """Whether the top-level ``module`` can be imported, found without importing it. An
    import machinery that refuses the name (a blocked or broken install) counts as missing."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing_modules(extra: str) -> tuple[str, ...]:
    """The modules of ``extra`` that are not installed (empty when it is complete)."""
    return tuple(module for module in EXTRA_MODULES[extra] if not installed(module))


class MissingExtra(ImportError):
    """Raised when importing a module whose extra is missing; its message is the install line."""

    def __init__(self, what: str, extra: str, missing: str | None = None) -> None:
        super().__init__(needs_extra(what, extra), name=missing)
        self.extra = extra
