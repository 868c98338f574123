"""The build backend: setuptools', which asks for mypyc only for a compiled build.

``MATTIS_COMPILE=1`` adds mypy (at the version the ``test`` extra pins, so the compiler is the
type checker the sources pass) and NumPy (at the ``rl`` extra's pin, for the encoder's types)
to the wheel's build requirements; a pure build needs nothing
more than setuptools. Editable installs always stay pure: compiled modules built in place
would shadow the sources being edited.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import (  # noqa: F401 (the hooks pip calls, unchanged)
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

COMPILE_VARIABLE = "MATTIS_COMPILE"
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _compiling() -> bool:
    return os.environ.get(COMPILE_VARIABLE, "").strip().lower() in ("1", "true", "yes")


def _pin(extra: str, name: str) -> str:
    """The ``name==version`` line that the ``extra`` of pyproject.toml pins."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    pins = [item for item in project["optional-dependencies"][extra] if item.startswith(f"{name}==")]
    if len(pins) != 1:
        raise RuntimeError(f"pyproject.toml: the {extra} extra must pin {name} exactly once")
    return pins[0]


def _compile_requirements() -> list[str]:
    """mypy (the compiler is the type checker the sources pass) and NumPy, whose types the
    compiled observation encoder is checked against."""
    return [_pin("test", "mypy"), _pin("rl", "numpy")]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires = list(build_meta.get_requires_for_build_wheel(config_settings))
    return [*requires, *_compile_requirements()] if _compiling() else requires


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return list(build_meta.get_requires_for_build_editable(config_settings))


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    os.environ.pop(COMPILE_VARIABLE, None)  # pure: see the module docstring
    return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
