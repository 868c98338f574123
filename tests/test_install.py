"""A plain ``pip install mattis`` works, a missing extra is one line, and layers only point down.

The base install brings no optional library, yet the test venv has them all (CI installs every
extra). So the commands run in a subprocess whose imports of every optional library are refused
by a ``sys.meta_path`` finder, as on a machine without the extras: a module that imports one at
import time fails here in seconds, not on a new user's machine.

The layers, bottom first (a module may import only from its own unit or a lower level):

0. ``core`` (the rules), ``i18n`` (every text, as data), ``extras`` (which extra brings which
   library), ``pool`` (the worker processes shared by ``tools`` and ``web``) and ``build`` (the
   compiled or pure build, chosen before ``core`` is imported): standard library only, and none
   of them imports another. ``data`` holds no code, only the rules text that
   ``frontend.rules_text`` reads.
1. the ``mattis`` package itself, which re-exports ``core`` (importing any module runs it).
2. ``bots``; 3. ``frontend``; 4. ``table`` (the table session of issue 14, below its hosts).
5. the hosts and tools: ``terminal``, ``web``, ``tools``, ``envs``, ``offline``. Siblings, which do
   not import each other, except ``tools`` → ``envs``: a tournament seats OpenSpiel's ISMCTS from
   ``envs.openspiel``, imported only when that entrant is seated; and ``web`` → ``offline``: the
   server serves the offline app (its files, and answers with the device's ``hard`` budget).
6. ``cli``, which puts everything together (and 7. ``__main__``, which runs it).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from mattis.extras import EXTRA_MODULES, MissingExtra, install_command, installed, needs_extra

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "mattis"

OPTIONAL_LIBRARIES = frozenset({
    "starlette", "uvicorn", "websockets", "sqlalchemy", "numpy", "gymnasium", "pettingzoo", "pyspiel",
    "open_spiel", "ray", "matplotlib", "psycopg", "segno", "prometheus_client", "torch", "sb3_contrib",
    "stable_baselines3",
})
"""Every library an extra brings that code imports (spelled here, not taken from the code under
test, so a library the code forgets is still blocked)."""

BLOCKER = f"""
import sys
BLOCKED = frozenset({sorted(OPTIONAL_LIBRARIES)!r})
loaded = sorted(name for name in sys.modules if name.partition(".")[0] in BLOCKED)
assert not loaded, f"loaded before the blocker: {{loaded}}"
class RefuseOptionalLibraries:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (a base install)", name=name)
        return None
sys.meta_path.insert(0, RefuseOptionalLibraries())
"""
"""Python run before the code under test: refuses every optional library, as if not installed."""

RUN_CLI = BLOCKER + "from mattis.cli.app import main\nmain()\n"

NEEDS_AN_EXTRA = ("mattis.web", "mattis.envs.encoding", "mattis.envs.gymnasium", "mattis.envs.openspiel",
                  "mattis.envs.pettingzoo", "mattis.envs.render", "mattis.envs.vector",
                  "mattis.bots.encoding", "mattis.bots.learned", "mattis.envs.train")
"""The modules (with their submodules) that may import an optional library when imported."""

IMPORTED_WHERE_USED = {
    "mattis.bots": {"mattis.bots.learned"},
    "mattis.cli.train": {"mattis.envs.train", "mattis.bots.learned"},
    "mattis.cli.serve": {"uvicorn", "sqlalchemy", "mattis.web"},
    "mattis.cli.offline": {"mattis.web"},
    "mattis.tools.lab_report": {"matplotlib"},
    "mattis.tools.strength": {"matplotlib"},
    "mattis.tools.tournament": {"mattis.envs.openspiel", "mattis.bots.learned"},
}
"""Base modules that import an extra inside the function that needs it, after checking it is
there (the Ray backend imports ``ray`` by name, with :func:`importlib.import_module`)."""


def run_blocked(code: str, *args: str, stdin: str = "", env: Mapping[str, str] | None = None,
                cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Python ``code`` with ``args``, every optional library refused (the code starts with
    :data:`BLOCKER`), in ``cwd`` so nothing it might write lands in the checkout."""
    environ = {**os.environ, "MATTIS_PACE": "0", "COLUMNS": "120", "PYTHONIOENCODING": "utf-8",
               **(env or {})}
    return subprocess.run([sys.executable, "-c", code, *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=environ, cwd=cwd, check=False)


def mattis(*args: str, stdin: str = "", data_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``mattis ARGS`` with every optional library refused, run in ``data_dir``."""
    env = {"MATTIS_DATA_DIR": str(data_dir)} if data_dir is not None else {}
    return run_blocked(RUN_CLI, *args, stdin=stdin, env=env, cwd=data_dir)


def assert_ran(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr


# ---------------------------------------------------------------------------- the base commands


def test_the_blocker_refuses_every_optional_library_as_if_it_were_missing() -> None:
    code = BLOCKER + """
from mattis.extras import installed
for name in BLOCKED:
    try:
        __import__(name)
    except ModuleNotFoundError as error:
        assert error.name == name, error
    else:
        raise AssertionError(name)
    assert not installed(name), name
print("refused", len(BLOCKED))
"""
    done = run_blocked(code)
    assert_ran(done)
    assert done.stdout.split() == ["refused", str(len(OPTIONAL_LIBRARIES))]


def test_every_base_module_imports_without_any_extra() -> None:
    """``import mattis, mattis.bots`` and every other module of the base install (all but the web
    server and the environments' adapters) import with every optional library refused."""
    names = [name for name, _ in modules()
             if not name.startswith(NEEDS_AN_EXTRA) and name != "mattis.__main__"]  # that one runs the CLI
    assert {"mattis", "mattis.bots", "mattis.frontend", "mattis.terminal", "mattis.tools", "mattis.cli",
            "mattis.i18n", "mattis.envs", "mattis.cli.app"} <= set(names)
    code = BLOCKER + "import importlib\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n" \
                     "print(len(sys.argv) - 1)\n"
    done = run_blocked(code, *names)
    assert_ran(done)
    assert done.stdout.strip() == str(len(names))


def test_play_then_replay_the_saved_game_without_any_extra(tmp_path: Path) -> None:
    played = mattis("play", "--seed", "1", "--lang", "en", stdin="1\nquit\n", data_dir=tmp_path)
    assert_ran(played)
    saved = list((tmp_path / "games").glob("mattis-*.json"))
    assert len(saved) == 1, played.stdout
    record = json.loads(saved[0].read_text(encoding="utf-8"))
    assert len(record["actions"]) >= 1  # the move typed, then quit
    replayed = mattis("replay", "1", "--no-step", "--lang", "en", data_dir=tmp_path)
    assert_ran(replayed)
    assert replayed.stdout.strip()
    listed = mattis("replay", "--lang", "en", data_dir=tmp_path)
    assert_ran(listed)
    assert saved[0].name in listed.stdout
    reviewed = mattis("review", "1", "--iterations", "2", "--lang", "en", data_dir=tmp_path)
    assert_ran(reviewed)  # the game was left after one move: reviewed up to there
    assert "The game was not finished" in reviewed.stdout


@pytest.mark.parametrize("args", [
    ("rules",),
    ("rules", "--full", "--lang", "nb"),
    ("rules", "kortregler", "--set", "voluntary_pickup=true"),
    ("simulate", "--games", "20", "--seed", "1"),
    ("simulate", "--games", "20", "--json"),
    ("tournament", "--bots", "normal,easy,random", "--games", "3", "--workers", "1"),
    ("bench", "--quick", "--runs", "1", "--games", "2"),
    ("--version",),
    (),
], ids=lambda args: " ".join(args) or "help")
def test_base_commands_run_without_any_extra(args: tuple[str, ...], tmp_path: Path) -> None:
    done = mattis(*args, data_dir=tmp_path)
    assert_ran(done)
    assert done.stdout.strip()


# ---------------------------------------------------------------------------- a missing extra


@pytest.mark.parametrize(("args", "line"), [
    (("serve",), 'error: mattis serve needs the web extra: pip install "mattis[web]"'),
    (("serve", "--port", "0", "--db", "sqlite:///x.db"),
     'error: mattis serve needs the web extra: pip install "mattis[web]"'),
    (("lab", "--rules", "pagat", "--games", "1", "--players", "3", "--out", "lab"),
     'error: --out: the lab\'s report needs matplotlib: pip install "mattis[lab]"'),
    (("tournament", "--backend", "ray", "--games", "3"),
     'error: --backend: the ray backend needs Ray: pip install "mattis[ray]"'),
    (("simulate", "--backend", "ray", "--games", "3"),
     'error: --backend: the ray backend needs Ray: pip install "mattis[ray]"'),
    (("tournament", "--bots", "openspiel-ismcts,normal,easy", "--games", "3"),
     'error: --bots: openspiel-ismcts needs OpenSpiel: pip install "mattis[rl]"'),
    (("tournament", "--bots", "learned,normal,easy", "--games", "3"),
     'error: --bots: the learned bot needs the rl extra: pip install "mattis[rl]"'),
    (("play", "--bots", "learned,easy"),
     'error: --bots: the learned bot needs the rl extra: pip install "mattis[rl]"'),
    (("train", "--out", "x.npz", "--steps", "10"),
     'error: mattis train needs the train extra: pip install "mattis[train]"'),
], ids=lambda value: " ".join(value) if isinstance(value, tuple) else "")
def test_a_command_that_needs_a_missing_extra_says_which_in_one_line(args: tuple[str, ...], line: str,
                                                                     tmp_path: Path) -> None:
    done = mattis(*args, data_dir=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [line]
    assert done.stdout == ""


@pytest.mark.parametrize("module", [name for name in NEEDS_AN_EXTRA if name.startswith("mattis.envs.")])
def test_importing_an_environment_without_the_rl_extra_names_it(module: str) -> None:
    code = BLOCKER + f"""
try:
    import {module}
except ImportError as error:
    print(type(error).__name__, error.name, error, sep="|")
"""
    done = run_blocked(code)
    assert done.returncode == 0, done.stderr
    kind, missing, message = done.stdout.strip().split("|")
    assert kind == "MissingExtra" and missing in OPTIONAL_LIBRARIES
    assert message == f'{module} needs the rl extra: pip install "mattis[rl]"'


def test_the_extras_are_those_of_pyproject_and_say_how_to_install_them() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert set(EXTRA_MODULES) == set(project["optional-dependencies"]) - {"test"}
    assert {module for modules in EXTRA_MODULES.values() for module in modules} <= OPTIONAL_LIBRARIES
    assert install_command("web") == 'pip install "mattis[web]"'
    assert needs_extra("mattis serve", "web") == 'mattis serve needs the web extra: pip install "mattis[web]"'
    with pytest.raises(ValueError, match="extra: expected one of web"):
        install_command("gpu")
    error = MissingExtra("mattis.envs.gymnasium", "rl", "numpy")
    assert isinstance(error, ImportError) and error.name == "numpy" and error.extra == "rl"
    assert installed("json") and not installed("no_such_module_anywhere")


# ---------------------------------------------------------------------------- layers


LAYERS: dict[str, int] = {
    "core": 0, "i18n": 0, "extras": 0, "pool": 0, "build": 0,
    "": 1,  # the mattis package itself
    "bots": 2,
    "frontend": 3,
    "table": 4,
    "terminal": 5, "web": 5, "tools": 5, "envs": 5, "offline": 5,
    "cli": 6,
    "__main__": 7,  # python -m mattis: runs the cli
}
"""Each unit of ``src/mattis`` (its first name below ``mattis``) and its level; see the module
docstring."""

ALLOWED_SIDEWAYS = {("tools", "envs"), ("web", "offline")}
"""Imports between two units of one level that are allowed, each for a reason given above."""
@dataclass(frozen=True)
class Import:
    """One import in a module: the mattis module or library it names, and where it sits."""

    target: str
    line: int
    module_level: bool
    """At the top of the module (runs on import), not inside a function or ``TYPE_CHECKING``."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> list[tuple[str, Path]]:
    return sorted((module_name(path), path) for path in SRC.rglob("*.py"))


MODULE_NAMES = frozenset(name for name, _ in modules())


def is_ours(module: str) -> bool:
    return module == "mattis" or module.startswith("mattis.")


def unit(module: str) -> str:
    """``mattis.web.app`` → ``web``; the package itself → ``""``."""
    return module.split(".")[1] if "." in module else ""


def imports(module: str, code: str, is_package: bool = False) -> Iterator[Import]:
    """Every import in ``code``, the source of ``module``, relative ones resolved; ``from package
    import submodule`` names the submodule."""
    package = module if is_package else module.rpartition(".")[0]

    def walk(node: ast.AST, top: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                yield from (Import(alias.name, child.lineno, top) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, *([child.module] if child.module else [])])
                for alias in child.names:
                    submodule = f"{base}.{alias.name}"
                    yield Import(submodule if submodule in MODULE_NAMES else base, child.lineno, top)
            elif (isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                  or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))):
                yield from walk(child, False)  # runs later, or never
            else:
                yield from walk(child, top)

    yield from walk(ast.parse(code), True)


IMPORTS = {name: list(imports(name, path.read_text(encoding="utf-8"), path.name == "__init__.py"))
           for name, path in modules()}


def test_every_unit_has_a_layer() -> None:
    units = {unit(name) for name in MODULE_NAMES}
    assert units <= set(LAYERS), f"give these a level in LAYERS: {sorted(units - set(LAYERS))}"
    assert not list((SRC / "data").glob("*.py")), "data holds no code"


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    """Module-level, function-level and ``TYPE_CHECKING`` imports alike (issue 14, item 5)."""
    upward = []
    for module, found in IMPORTS.items():
        for imported in found:
            if not is_ours(imported.target):
                continue
            source, target = unit(module), unit(imported.target)
            if source == target:
                continue
            level, target_level = LAYERS[source], LAYERS[target]
            if target_level > level or (target_level == level and (source, target) not in ALLOWED_SIDEWAYS):
                upward.append(f"{module}:{imported.line} imports {imported.target}")
    assert upward == []


def test_the_bottom_layer_imports_nothing_else_from_mattis() -> None:
    for module, found in IMPORTS.items():
        if LAYERS[unit(module)] == 0:
            outside = [imported.target for imported in found
                       if is_ours(imported.target) and unit(imported.target) != unit(module)]
            assert outside == [], module


def test_there_is_no_import_cycle() -> None:
    """Between modules, by the imports that run when a module is imported."""
    graph = {module: sorted({imported.target for imported in found
                             if imported.module_level and imported.target in MODULE_NAMES
                             and imported.target != module})
             for module, found in IMPORTS.items()}
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = "open"
        path.append(module)
        for target in graph[module]:
            if state.get(target) == "open":
                cycle = [*path[path.index(target):], target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        path.pop()
        state[module] = "done"

    for module in graph:
        if module not in state:
            visit(module)


LIBRARY_SIGNATURES = {("mattis.cli.app", "main")}
"""Overrides that must keep a library's signature (click's ``BaseCommand.main``)."""


def positional_parameters(path: Path) -> list[tuple[str, int, int]]:
    """``(function, line, count)`` of every function of a module with more than four
    parameters that can be passed by position (``self`` and ``cls`` not counted)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = [item.arg for item in node.args.posonlyargs + node.args.args]
            count = len([name for name in names if name not in ("self", "cls")])
            if count > 4:
                found.append((node.name, node.lineno, count))
    return found


def test_functions_with_more_than_four_parameters_take_them_by_keyword() -> None:
    """Outside the core (which keeps the engine's fast positional calls), a call never
    passes more than four arguments by position: the rest are named where they are used."""
    offenders = [f"{name}.{function} (line {line}: {count} positional)"
                 for name, path in modules() if not name.startswith("mattis.core")
                 for function, line, count in positional_parameters(path)
                 if (name, function) not in LIBRARY_SIGNATURES]
    assert offenders == []
    seen = [(function, count) for function, _, count in positional_parameters(SRC / "cli" / "app.py")]
    assert seen == [("main", 5)]  # the check sees them


def top_level_definitions(folder: Path) -> dict[str, str]:
    """The classes and functions a package defines at the top of its modules: ``{name: module}``."""
    found = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found[node.name] = module_name(path)
    return found


def test_no_class_or_function_is_written_in_both_hosts() -> None:
    """What the web server and the offline app share lives in ``mattis.table`` (issue 23.1):
    neither host defines a class or function the other defines too."""
    web, offline = top_level_definitions(SRC / "web"), top_level_definitions(SRC / "offline")
    assert {"DeviceHost", "Device"} <= set(offline) and {"ServerHost", "Lobby"} <= set(web)
    assert set(web) & set(offline) == set()


def test_the_import_reader_sees_module_function_and_type_checking_imports() -> None:
    """The checks above can fail: what a made-up module imports, and at which level, is read."""
    code = ("from ..web import app\n"
            "from . import cards\n"
            "import numpy as np\n"
            "def later() -> None:\n    from ..cli import common\n"
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from ..tools.bench import run_benchmarks\n")
    found = [(item.target, item.module_level) for item in imports("mattis.frontend.fake", code)]
    assert found == [("mattis.web.app", True), ("mattis.frontend.cards", True), ("numpy", True),
                     ("mattis.cli.common", False), ("typing", True), ("mattis.tools.bench", False)]


# ---------------------------------------------------------------------------- optional libraries


def base_dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {requirement.split("==")[0].split("[")[0].strip().replace("-", "_")
            for requirement in project["dependencies"]}


def test_base_modules_import_only_the_standard_library_and_the_base_dependencies() -> None:
    """Statically, and through every mattis module they import at import time: no optional
    library, and no library the base install does not bring."""
    allowed = set(sys.stdlib_module_names) | base_dependencies() | {"mattis"}

    def loaded_by(module: str, seen: set[str]) -> set[str]:
        """The top-level libraries importing ``module`` loads (through mattis modules too)."""
        if module in seen:
            return set()
        seen.add(module)
        libraries: set[str] = set()
        for imported in IMPORTS[module]:
            if not imported.module_level:
                continue
            if imported.target in MODULE_NAMES:
                libraries |= loaded_by(imported.target, seen)
            libraries.add(imported.target.partition(".")[0])
        return libraries

    wrong = {}
    for module in MODULE_NAMES:
        if module.startswith(NEEDS_AN_EXTRA):
            continue
        extra = loaded_by(module, set()) - allowed
        if extra:
            wrong[module] = sorted(extra)
    assert wrong == {}


def test_base_modules_import_an_extra_only_inside_the_function_that_needs_it() -> None:
    found: dict[str, set[str]] = {}
    for module, imported_list in IMPORTS.items():
        if module.startswith(NEEDS_AN_EXTRA):
            continue
        for imported in imported_list:
            name = imported.target
            if name.partition(".")[0] in OPTIONAL_LIBRARIES or name.startswith(NEEDS_AN_EXTRA):
                assert not imported.module_level, (module, name)
                key = name.partition(".")[0] if name.partition(".")[0] in OPTIONAL_LIBRARIES else name
                found.setdefault(module, set()).add("mattis.web" if key.startswith("mattis.web") else key)
    assert found == IMPORTED_WHERE_USED


# ---------------------------------------------------------------------------- the offline app


def test_the_offline_apps_zip_holds_all_the_worker_imports_with_only_the_standard_library(
        tmp_path: Path) -> None:
    """The zip the browser loads (issue 16): ``mattis.offline`` and everything it imports come
    from it, with Python started without site-packages and every library outside the standard
    library refused, as on Pyodide, which has nothing else."""
    from mattis.web.pwa import APP_UNITS, package_zip

    archive = tmp_path / "mattis.zip"
    archive.write_bytes(package_zip())
    code = f"""
import sys
STDLIB = sys.stdlib_module_names
class OnlyTheStandardLibrary:
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top not in STDLIB and top != "mattis":
            raise ModuleNotFoundError(f"No module named {{name!r}} (not on Pyodide)", name=name)
        return None
sys.meta_path.insert(0, OnlyTheStandardLibrary())
sys.path.insert(0, {str(archive)!r})
import mattis.offline, mattis.table
assert mattis.__file__.startswith({str(archive)!r}), mattis.__file__
print(" ".join(sorted({{name.split(".")[1] for name in sys.modules if name.startswith("mattis.")}})))
"""
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=120,
                          check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) <= set(APP_UNITS)
    assert {"offline", "table", "core"} <= set(done.stdout.split())
