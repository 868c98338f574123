"""The compiled and the pure build (issue 17, item 2): which one runs, and ``MATTIS_PURE``.

This file runs on every install. On a pure one (editable, as the test venv is) the build is
``pure`` with or without ``MATTIS_PURE``; on a compiled one (``MATTIS_COMPILE=1 pip install .``,
the second venv of ``.ci/run``) every module of :data:`COMPILED_MODULES` is an extension
module, and ``MATTIS_PURE=1`` swaps all of them for their sources.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mattis
from mattis.build import COMPILED_MODULES, PURE_VARIABLE, build

SRC = Path(__file__).resolve().parent.parent / "src"

REPORT_MODULES = (
    "import importlib, json, mattis\n"
    "from mattis.build import COMPILED_MODULES, build\n"
    "print(json.dumps({'build': build(), 'files': [importlib.import_module(name).__file__ "
    "for name in COMPILED_MODULES]}))\n"
)
"""Python run in a fresh interpreter: the build and where each compiled module came from."""


def run_python(arguments: list[str], pure: bool) -> str:
    """The output of a fresh interpreter run with ``arguments``, with ``MATTIS_PURE=1`` or
    without the variable."""
    env = {key: value for key, value in os.environ.items() if key != PURE_VARIABLE}
    if pure:
        env[PURE_VARIABLE] = "1"
    return subprocess.run([sys.executable, *arguments], capture_output=True, text=True, env=env,
                          timeout=300, check=True).stdout


def installed_build() -> str:
    """What the install holds, read from its files rather than from :func:`build`: compiled
    when an extension module lies beside the engine's source."""
    package = Path(mattis.__file__).parent / "core"
    extensions = [path for suffix in importlib.machinery.EXTENSION_SUFFIXES
                  for path in package.glob("game" + suffix)]
    return "compiled" if extensions else "pure"


def test_every_compiled_module_has_its_python_source() -> None:
    """The list setup.py compiles names real modules of the source tree, and not the package
    ``__init__`` modules (which must stay Python: ``mattis/__init__.py`` runs the switch)."""
    for name in COMPILED_MODULES:
        assert (SRC / Path(*name.split("."))).with_suffix(".py").is_file(), name
        assert name.startswith(("mattis.core.", "mattis.bots.")), name
    assert len(set(COMPILED_MODULES)) == len(COMPILED_MODULES)


def test_the_build_is_what_the_install_holds() -> None:
    report = json.loads(run_python(["-c", REPORT_MODULES], pure=False))
    assert report["build"] == installed_build() == build()
    extension = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = [file.endswith(extension) for file in report["files"]]
    assert compiled == [installed_build() == "compiled"] * len(COMPILED_MODULES)


def test_mattis_pure_runs_every_compiled_module_from_its_source() -> None:
    report = json.loads(run_python(["-c", REPORT_MODULES], pure=True))
    assert report["build"] == "pure"
    assert all(file.endswith(".py") for file in report["files"]), report["files"]


@pytest.mark.parametrize("pure", [True, False])
def test_bench_json_reports_the_build(pure: bool) -> None:
    """``mattis bench --json`` says which engine it timed; ``MATTIS_PURE=1`` gives ``pure``."""
    report = json.loads(run_python(
        ["-m", "mattis", "bench", "--json", "--quick", "--runs", "1", "--games", "1"], pure))
    assert report["build"] == ("pure" if pure else installed_build())
    assert report["cases"] and all(case["unchecked"]["actions_per_second"] > 0 for case in report["cases"])
