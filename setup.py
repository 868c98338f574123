"""Compiles the rules core and the search's hot paths with mypyc, when asked.

``MATTIS_COMPILE=1 pip install .`` builds the modules listed in ``mattis.build.COMPILED_MODULES``
as extension modules from the same typed sources, which stay in the wheel beside them (for
``MATTIS_PURE=1`` and the offline app). Without the variable, without a C compiler or without
mypyc, the package is pure Python, as every editable install is (``build_support/backend.py``).
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
COMPILE_VARIABLE = "MATTIS_COMPILE"


def compiled_modules() -> list[Extension]:
    if os.environ.get(COMPILE_VARIABLE, "").strip().lower() not in ("1", "true", "yes"):
        return []
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        print(f"mattis: no C compiler ({compiler}) found: building pure Python", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mattis: mypyc (the mypy package) is missing: building pure Python", file=sys.stderr)
        return []
    names = runpy.run_path(str(HERE / "src" / "mattis" / "build.py"))["COMPILED_MODULES"]
    paths = [str(Path("src", *name.split(".")).with_suffix(".py")) for name in names]
    return list(mypycify(paths, opt_level="3", group_name="mattis"))


setup(ext_modules=compiled_modules())
