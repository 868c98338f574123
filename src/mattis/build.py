"""Which build of Mattis runs: the compiled one (mypyc) or pure Python, and the switch between.

A compiled install (``MATTIS_COMPILE=1 pip install .``, see ``setup.py``) holds an extension
module beside the ``.py`` source of each module in :data:`COMPILED_MODULES`; Python imports
the extension first. With ``MATTIS_PURE=1`` in the environment, :func:`choose_modules` (run by
``mattis/__init__.py`` before anything else) puts a finder in front that loads those modules
from their sources instead, so one install can compare and debug both builds. Pure installs
(editable ones, the offline app on Pyodide) have no extensions, and nothing changes for them.

Standard library only: it runs before the rules core is imported.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Literal

COMPILED_MODULES: tuple[str, ...] = (
    "mattis.core.actions",
    "mattis.core.cards",
    "mattis.core.errors",
    "mattis.core.events",
    "mattis.core.game",
    "mattis.core.observation",
    "mattis.core.options",
    "mattis.core.phase",
    "mattis.core.position",
    "mattis.core.record",
    "mattis.bots.ismcts",
    "mattis.bots.guided",
    "mattis.bots.sampling",
    "mattis.bots.view",
    "mattis.bots.encoding",
)
"""The modules a compiled build compiles (``setup.py`` reads this list): the rules core,
the search's hot path (tree search, the network-guided search of ``master``, whose nodes
extend the tree search's, sampling, card memory) and the learning environments'
observation encoder (which needs the ``rl`` extra's NumPy, as it does in pure Python).
Not compiled: the package ``__init__`` modules, the generator's declaration
(``core/state.py``) and the rule options (``core/rules.py``), whose dataclass takes option
text at run time (``dataclasses.replace`` with strings), which a compiled class would
refuse; the engine reads them through ``core/options.py``, which is compiled."""

PURE_VARIABLE = "MATTIS_PURE"
"""The environment variable that makes a compiled install run its Python sources."""

Build = Literal["compiled", "pure"]


class _SourcesFirst:
    """A meta-path finder that loads each compiled module from its ``.py`` file."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name not in COMPILED_MODULES or path is None:
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(name, source)
        return None


def pure_requested() -> bool:
    """Whether ``MATTIS_PURE`` asks for the Python sources (``1``, ``true`` or ``yes``)."""
    return os.environ.get(PURE_VARIABLE, "").strip().lower() in ("1", "true", "yes")


def choose_modules() -> None:
    """Honour ``MATTIS_PURE`` before the first compiled module is imported (idempotent)."""
    if pure_requested() and not any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


ENGINE_MODULE = "mattis.core.game"
"""The module whose file tells the builds apart: an extension module on a compiled build."""


def build() -> Build:
    """``"compiled"`` when the rules engine runs from an extension module, else ``"pure"``."""
    engine = sys.modules.get(ENGINE_MODULE)
    origin = getattr(engine, "__file__", None) or ""
    return "compiled" if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "pure"


def compiled_install() -> bool:
    """Whether this copy carries the compiled engine (``MATTIS_COMPILE=1`` built it), whichever
    modules ``MATTIS_PURE`` makes it run: pip would rebuild it as pure Python without the
    variable, so the install lines of :mod:`mattis.extras` keep it."""
    *folders, name = ENGINE_MODULE.split(".")[1:]
    folder = Path(__file__).resolve().parent.joinpath(*folders)
    return any((folder / f"{name}{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
