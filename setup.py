"""Compiles the message catalogues with Babel, always, and the rules core and the search's hot
paths with mypyc, when asked.

Every build, editable or not, compiles ``src/mattis/locale/*/LC_MESSAGES/mattis.po`` to ``.mo``
files (:class:`CompileCatalogues`, with ``build_support/catalogues.py``; Babel is a build
requirement), so an installed Mattis reads its texts with the standard library's ``gettext``.

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
from typing import ClassVar

from setuptools import Command, Extension, setup
from setuptools.command.build import build

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


class CompileCatalogues(Command):
    """``.po`` to ``.mo`` with Babel: into the wheel's build folder, or, for an editable install
    (which runs the sources in ``src/``), in place beside each ``.po``."""

    description = "compile the message catalogues (.po -> .mo)"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []

    def initialize_options(self) -> None:
        self.build_lib: str | None = None
        self.editable_mode = False

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def _catalogues(self) -> object:
        sys.path.insert(0, str(HERE / "build_support"))
        import catalogues

        return catalogues

    def _out_dir(self) -> Path | None:
        return None if self.editable_mode else Path(str(self.build_lib), "mattis", "locale")

    def run(self) -> None:
        catalogues = self._catalogues()
        written = catalogues.compile_catalogues(out_dir=self._out_dir())  # type: ignore[attr-defined]
        print(f"mattis: compiled {len(written)} message catalogues", file=sys.stderr)

    def get_source_files(self) -> list[str]:
        found = sorted((HERE / "src" / "mattis" / "locale").glob("*/LC_MESSAGES/*.po"))
        return [path.relative_to(HERE).as_posix() for path in found]

    def get_outputs(self) -> list[str]:
        out = self._out_dir() or HERE / "src" / "mattis" / "locale"
        return [str(out / Path(path).parent.parent.name / "LC_MESSAGES" / "mattis.mo")
                for path in self.get_source_files()]

    def get_output_mapping(self) -> dict[str, str]:
        return {}


class Build(build):
    """setuptools' build, then the catalogues."""

    sub_commands: ClassVar = [*build.sub_commands, ("compile_catalogues", None)]


setup(ext_modules=compiled_modules(), cmdclass={"build": Build, "compile_catalogues": CompileCatalogues})
