"""The optional extras: which libraries each one brings, whether they are installed, and
the one line that tells a person what to install.

A plain ``pip install mattis`` plays, replays, simulates, benchmarks and runs tournaments
of our bots; the web server, the research environments, Ray and the lab's report each need
an extra. Every place that needs one asks this module, so the install command is written
once and a missing extra reads the same everywhere: ``mattis serve needs the web extra: pip
install "mattis[web]"``. The line fits how this copy was installed (from a package index, or
from a checkout's folder, editable or not, compiled or not), so it works when pasted as it
stands. Standard library only, at the bottom of the layers; whether this copy is a compiled
build it asks :mod:`mattis.build`, the one other module at that level it may import.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import json
import re
import shlex
from collections.abc import Mapping
from typing import Final
from urllib.parse import unquote, urlparse

from .build import compiled_install

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


PLAIN_PATH: Final = re.compile(r"[\w./:+~@ -]+")
"""A folder that reads the same in double quotes in every shell (no ``$``, backquote,
quote, backslash or ``!``)."""


@functools.cache
def installed_from() -> tuple[str, bool] | None:
    """The local folder this copy was installed from, and whether editably, from pip's record
    of a direct install (``direct_url.json``, PEP 610); ``None`` for a package index or a
    wheel file, or when that record is missing or unreadable."""
    try:
        record = importlib.metadata.distribution("mattis").read_text("direct_url.json")
        data = json.loads(record) if record else None
    except (importlib.metadata.PackageNotFoundError, ValueError, OSError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("dir_info"), dict):
        return None
    url = urlparse(str(data.get("url", "")))
    if url.scheme != "file":
        return None
    return unquote(url.path), bool(data["dir_info"].get("editable"))


def install_command(extra: str) -> str:
    """What to type to get ``extra`` for this copy, quoted for every shell: ``pip install
    "mattis[web]"`` from a package index; from a checkout, that folder in the same way it was
    installed (``pip install -e "/home/kari/mattis[web]"``, the package is not on PyPI); on a
    compiled build with ``MATTIS_COMPILE=1`` in front, so the engine stays compiled."""
    if extra not in EXTRA_MODULES:
        raise ValueError(f"extra: expected one of {', '.join(EXTRA_MODULES)}, got {extra!r}")
    source = installed_from()
    if source is None:
        target, editable = f"mattis[{extra}]", False
    else:
        folder, editable = source
        target = f"{folder}[{extra}]"
    plain = PLAIN_PATH.fullmatch(target.replace("[", "").replace("]", ""))
    quoted = f'"{target}"' if plain else shlex.quote(target)
    compile_first = "MATTIS_COMPILE=1 " if compiled_install() else ""
    return f"{compile_first}pip install {'-e ' if editable else ''}{quoted}"


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
