"""A plain ``pip install mattis`` works, a missing extra is one line, and layers only point down.

The base install brings no optional library, yet the test venv has them all (CI installs every
extra). So the commands run in a subprocess whose imports of every optional library are refused
by a ``sys.meta_path`` finder, as on a machine without the extras: a module that imports one at
import time fails here in seconds, not on a new user's machine.

The layers are listed once, in the table of ``docs/architecture.md`` ("Layers"), which
:data:`LAYERS` reads: a module may import only from its own unit or a lower level, and of two
units on one level only along the arrows that table draws (``tools`` → ``envs``, ``web`` →
``offline``).
"""

from __future__ import annotations

import ast
import json
import os
import re
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
                  "mattis.bots.encoding", "mattis.bots.learned", "mattis.bots.network", "mattis.bots.weights",
                  "mattis.envs.train",
                  "mattis.envs.solve", "mattis.envs.guided_data", "mattis.envs.guided_train")
"""The modules (with their submodules) that may import an optional library when imported."""

IMPORTED_WHERE_USED = {
    "mattis.bots": {"mattis.bots.learned"},
    "mattis.cli.train": {"mattis.envs.train", "mattis.bots.learned", "mattis.envs.guided_data",
                         "mattis.envs.guided_train"},
    "mattis.cli.solve": {"mattis.envs.openspiel", "mattis.envs.solve"},
    "mattis.cli.serve": {"uvicorn", "sqlalchemy", "mattis.web"},
    "mattis.cli.offline": {"mattis.web"},
    "mattis.tools.lab_report": {"matplotlib"},
    "mattis.tools.strength": {"matplotlib"},
    "mattis.bots.entrants": {"mattis.bots.learned"},
    "mattis.bots.guided": {"mattis.bots.network"},
    "mattis.tools.tournament": {"mattis.envs.openspiel"},
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
    (("serve",), f'error: mattis serve needs the web extra: {install_command("web")}'),
    (("serve", "--port", "0", "--db", "sqlite:///x.db"),
     f'error: mattis serve needs the web extra: {install_command("web")}'),
    (("lab", "--rules", "pagat", "--games", "1", "--players", "3", "--out", "lab"),
     f"error: --out: the lab's report needs matplotlib: {install_command('lab')}"),
    (("tournament", "--backend", "ray", "--games", "3"),
     f'error: --backend: the ray backend needs Ray: {install_command("ray")}'),
    (("simulate", "--backend", "ray", "--games", "3"),
     f'error: --backend: the ray backend needs Ray: {install_command("ray")}'),
    (("tournament", "--bots", "openspiel-ismcts,normal,easy", "--games", "3"),
     f'error: --bots: openspiel-ismcts needs OpenSpiel: {install_command("rl")}'),
    (("tournament", "--bots", "learned,normal,easy", "--games", "3"),
     f'error: --bots: the learned bot needs the rl extra: {install_command("rl")}'),
    (("play", "--bots", "learned,easy"),
     f'error: --bots: the learned bot needs the rl extra: {install_command("rl")}'),
    (("train", "--out", "x.npz", "--steps", "10"),
     f'error: mattis train needs the train extra: {install_command("train")}'),
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
    assert message == f'{module} needs the rl extra: {install_command("rl")}'


def test_the_extras_are_those_of_pyproject_and_say_how_to_install_them() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert set(EXTRA_MODULES) == set(project["optional-dependencies"]) - {"test"}
    assert {module for modules in EXTRA_MODULES.values() for module in modules} <= OPTIONAL_LIBRARIES
    assert needs_extra("mattis serve", "web") == f'mattis serve needs the web extra: {install_command("web")}'
    with pytest.raises(ValueError, match="extra: expected one of web"):
        install_command("gpu")
    error = MissingExtra("mattis.envs.gymnasium", "rl", "numpy")
    assert isinstance(error, ImportError) and error.name == "numpy" and error.extra == "rl"
    assert installed("json") and not installed("no_such_module_anywhere")


def test_the_install_line_names_the_folder_this_copy_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    """The package is not on PyPI: a copy installed from a checkout is told to install the extra
    from that same folder, the same way (editable or not), and a compiled copy keeps
    ``MATTIS_COMPILE=1`` so pip does not rebuild it as pure Python."""
    import mattis.extras as extras

    monkeypatch.setattr(extras, "compiled_install", lambda: False)
    monkeypatch.setattr(extras, "installed_from", lambda: None)
    assert install_command("web") == 'pip install "mattis[web]"'
    monkeypatch.setattr(extras, "installed_from", lambda: ("/home/kari/mattis", True))
    assert install_command("rl") == 'pip install -e "/home/kari/mattis[rl]"'
    monkeypatch.setattr(extras, "compiled_install", lambda: True)
    monkeypatch.setattr(extras, "installed_from", lambda: ("/home/kari/Mine spill/mattis", False))
    assert install_command("train") == 'MATTIS_COMPILE=1 pip install "/home/kari/Mine spill/mattis[train]"'
    monkeypatch.setattr(extras, "installed_from", lambda: ("/home/kari/$HOME/mattis", False))
    assert install_command("rl") == "MATTIS_COMPILE=1 pip install '/home/kari/$HOME/mattis[rl]'"


@pytest.mark.parametrize(("record", "expected"), [
    ('{"url": "file:///home/kari/Mine%20spill/mattis", "dir_info": {"editable": true}}',
     ("/home/kari/Mine spill/mattis", True)),
    ('{"url": "file:///srv/mattis", "dir_info": {}}', ("/srv/mattis", False)),
    ('{"url": "https://example.org/mattis.tar.gz", "archive_info": {}}', None),
    ('{"url": "file:///tmp/mattis-1.0-py3-none-any.whl", "archive_info": {}}', None),
    ("not json", None),
    (None, None),
], ids=["editable", "folder", "archive", "wheel", "broken", "index"])
def test_the_folder_is_read_from_pips_record_of_a_direct_install(
        monkeypatch: pytest.MonkeyPatch, record: str | None, expected: tuple[str, bool] | None) -> None:
    import importlib.metadata

    import mattis.extras as extras

    class Distribution:
        def read_text(self, name: str) -> str | None:
            assert name == "direct_url.json"
            return record

    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: Distribution())
    extras.installed_from.cache_clear()
    try:
        assert extras.installed_from() == expected
    finally:
        extras.installed_from.cache_clear()


def test_this_test_install_is_told_its_own_checkout() -> None:
    """CI installs the checkout itself (``pip install -e ".[test]"``, the compiled build without
    ``-e``), so the line it would print points at this very folder."""
    from mattis.extras import installed_from

    source = installed_from()
    assert source is not None
    assert Path(source[0]).resolve() == ROOT
    assert install_command("rl").endswith(f'{ROOT}[rl]"') or install_command("rl").endswith(f"{ROOT}[rl]'")


# ---------------------------------------------------------------------------- layers


ARCHITECTURE = ROOT / "docs" / "architecture.md"


def read_layers(text: str) -> tuple[dict[str, int], set[tuple[str, str]]]:
    """The table under "## Layers" in ``docs/architecture.md``: each unit (in backticks in the
    units column; ``mattis``, the package itself, is ``""``) with its level, and the imports
    allowed between two units of one level (``a`` → ``b`` in the row's description)."""
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    layers: dict[str, int] = {}
    sideways: set[tuple[str, str]] = set()
    for level, units, description in re.findall(r"^\| (\d+) \| (.+?) \| (.+?) \|$", section, re.M):
        for name in re.findall(r"`([^`]+)`", units):
            layers["" if name == "mattis" else name] = int(level)
        sideways |= set(re.findall(r"`(\w+)` → `(\w+)`", description))
    return layers, sideways


LAYERS, ALLOWED_SIDEWAYS = read_layers(ARCHITECTURE.read_text(encoding="utf-8"))
"""Each unit of ``src/mattis`` (its first name below ``mattis``) and its level, and the
imports allowed between two units of one level, as ``docs/architecture.md`` lists them."""


def test_the_layer_table_is_read_whole() -> None:
    """The reader sees every row of the table, so a unit missing from it fails below by name."""
    assert LAYERS["core"] == LAYERS["build"] == 0 and LAYERS[""] == 1 and LAYERS["table"] == 4
    assert LAYERS["cli"] == 6 and LAYERS["__main__"] == 7 and len(set(LAYERS.values())) == 8
    assert {("extras", "build"), ("tools", "envs"), ("web", "offline")} == ALLOWED_SIDEWAYS


@dataclass(frozen=True)
class Import:
    """One import in a module: the mattis module or library it names, and where it sits."""

    target: str
    line: int
    module_level: bool
    """At the top of the module (runs on import), not inside a function or ``TYPE_CHECKING``."""
    type_only: bool = False
    """Under ``if TYPE_CHECKING:``: for type annotations, never run."""


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

    def walk(node: ast.AST, top: bool, type_only: bool = False) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                yield from (Import(alias.name, child.lineno, top, type_only) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, *([child.module] if child.module else [])])
                for alias in child.names:
                    submodule = f"{base}.{alias.name}"
                    yield Import(submodule if submodule in MODULE_NAMES else base, child.lineno, top,
                                 type_only)
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from walk(child, False, True)  # never runs
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from walk(child, False, type_only)  # runs later
            else:
                yield from walk(child, top, type_only)

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
    """Only the sideways imports the table allows at level 0 (``extras`` → ``build``)."""
    for module, found in IMPORTS.items():
        if LAYERS[unit(module)] == 0:
            outside = [imported.target for imported in found
                       if is_ours(imported.target) and unit(imported.target) != unit(module)
                       and (unit(module), unit(imported.target)) not in ALLOWED_SIDEWAYS]
            assert outside == [], module


def import_cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """A cycle of ``graph`` (module → the modules it imports), or ``None``."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for target in graph[module]:
            if state.get(target) == "open":
                return [*path[path.index(target):], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[module] = "done"
        return None

    for module in graph:
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


def import_graph(*, type_only: bool) -> dict[str, list[str]]:
    """Module → the modules it imports: the imports that run (module level and inside
    functions), and with ``type_only`` those under ``TYPE_CHECKING`` too."""
    return {module: sorted({imported.target for imported in found
                            if imported.target in MODULE_NAMES and imported.target != module
                            and (type_only or not imported.type_only)})
            for module, found in IMPORTS.items()}


def test_there_is_no_import_cycle() -> None:
    """Between modules, by every import that runs: at module level and inside functions."""
    cycle = import_cycle(import_graph(type_only=False))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycles_through_type_checking_imports_are_the_ones_the_architecture_names() -> None:
    """``docs/architecture.md`` names every module on a cycle that a ``TYPE_CHECKING`` import
    closes (such imports never run; today: the view and the record name ``Game`` in ``core``,
    and the server's parts name each other's types in ``web``)."""
    graph = import_graph(type_only=True)
    closing = {(module, imported.target) for module, found in IMPORTS.items() for imported in found
               if imported.type_only and imported.target in MODULE_NAMES
               and module in reachable(graph, imported.target)}
    assert closing, "the check sees them"
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for name in sorted({name for pair in closing for name in pair}):
        assert f"`{name.removeprefix('mattis.').replace('.', '/')}.py`" in text, name


def reachable(graph: dict[str, list[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or not."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


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
    found = [(item.target, item.module_level, item.type_only)
             for item in imports("mattis.frontend.fake", code)]
    assert found == [("mattis.web.app", True, False), ("mattis.frontend.cards", True, False),
                     ("numpy", True, False), ("mattis.cli.common", False, False), ("typing", True, False),
                     ("mattis.tools.bench", False, True)]
    assert import_cycle({"a": ["b"], "b": ["c"], "c": ["a"]}) == ["a", "b", "c", "a"]
    assert import_cycle({"a": ["b"], "b": [], "c": ["a"]}) is None


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
