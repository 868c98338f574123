"""How the command line is put together, and the texts it shows gathered in one place.

The layout is checked from the source (one module per command, shared pieces in
``cli/common.py``, ``cli/app.py`` only registers, no reaching into private names), the
catalogues of texts by building them, and the shared validation messages by running every
command that reports them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mattis import Rules
from mattis.cli.app import app
from mattis.cli.common import check_players, parse_level
from mattis.i18n import catalogues, duplicate_keys, message_keys

SRC = Path(__file__).resolve().parent.parent / "src" / "mattis"
CLI = SRC / "cli"
COMMAND_MODULES = ("rules", "simulate", "bench", "play", "replay", "review", "tournament", "serve", "lab",
                   "offline", "train", "stats", "solve")
GROUPS = {"offline": "app"}
"""Command modules that register a group of commands (``mattis app build``), by the group's name."""
OUR_MODULES = [*sorted(CLI.glob("*.py")), *sorted((SRC / "terminal").glob("*.py")),
               *sorted((SRC / "i18n").glob("*.py")),
               *(SRC / "frontend" / name for name in ("record.py", "inputs.py",
                                                      "seats.py", "text.py", "__init__.py"))]


def imports_of(path: Path) -> list[tuple[str, list[str]]]:
    """``(module, [names])`` for every ``import``/``from … import`` in ``path``; relative
    modules are spelled with their dots (``.common``, ``..bots``)."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.append(("." * node.level + (node.module or ""), [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
    return found


def test_every_command_has_its_own_module_registered_by_app() -> None:
    for name in COMMAND_MODULES:
        assert (CLI / f"{name}.py").is_file(), name
    app_imports = imports_of(CLI / "app.py")
    assert (".", sorted(COMMAND_MODULES)) in [(module, sorted(names)) for module, names in app_imports]
    registered = {command.name for command in app.registered_commands}
    registered |= {group.name for group in app.registered_groups}
    assert registered == {GROUPS.get(name, name) for name in COMMAND_MODULES}


@pytest.mark.parametrize("name", [*COMMAND_MODULES, "common"])
def test_command_modules_never_import_the_app(name: str) -> None:
    for module, names in imports_of(CLI / f"{name}.py"):
        assert module not in (".app", "mattis.cli.app") and not (module == "." and "app" in names), name


@pytest.mark.parametrize("path", OUR_MODULES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_no_private_imports_across_modules(path: Path) -> None:
    for module, names in imports_of(path):
        parts = [part for part in module.strip(".").split(".") if part and part != "__future__"]
        assert not any(part.startswith("_") for part in parts), (path, module)
        private = [name for name in names if name.startswith("_") and not name.endswith("__")]
        assert not private, (path, module, private)


def test_importing_a_command_module_alone_works_without_the_app() -> None:
    code = ("import sys, mattis.cli.play, mattis.cli.tournament; "
            "assert 'mattis.cli.app' not in sys.modules, 'a command module imported the app'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr


# ---------------------------------------------------------------------------- texts


def test_no_message_key_is_defined_in_two_catalogues() -> None:
    sources = catalogues()
    assert set(sources) == {"mattis.i18n.base", "mattis.i18n.play", "mattis.i18n.cli", "mattis.i18n.envs",
                            "mattis.i18n.web", "mattis.i18n.web_start", "mattis.i18n.web_table",
                            "mattis.i18n.web_learn", "mattis.i18n.web_review", "mattis.i18n.app",
                            "mattis.i18n.options"}
    assert duplicate_keys(sources) == {}
    assert len(message_keys()) == sum(len(catalogue) for catalogue in sources.values())


def test_duplicate_keys_are_found_with_the_catalogues_that_define_them() -> None:
    found = duplicate_keys({"a": {"x": "1", "y": "2"}, "b": {"x": "1"}})
    assert found == {"x": ["a", "b"]}


def test_every_text_is_there_without_importing_the_module_that_shows_it() -> None:
    """No import registers texts: the tournament texts exist before its command is imported."""
    code = ("import sys; from mattis.i18n import t; "
            "print(t('tournament.capped_none', 'nb')); print(t('play.you', 'en')); "
            "assert 'mattis.cli.tournament' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Avbrutt ved taket: ingen", "You"]


# ---------------------------------------------------------------------------- shared messages


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    return result.stderr.strip()


def test_player_counts_are_refused_in_the_same_words_by_every_command() -> None:
    expected = "error: --players: pagat allows 3-6 players, got 7"
    assert run("simulate", "--players", "7") == expected
    assert run("play", "--players", "7") == expected
    assert run("tournament", "--players", "7", "--bots", "easy,easy,easy,easy,easy,easy,easy") == expected
    with pytest.raises(ValueError, match=r"^players: pagat allows 3-6 players, got 7$"):
        check_players(Rules.preset("pagat"), 7)
    house = Rules.preset("pagat").with_options(min_players="4")
    with pytest.raises(ValueError, match=r"^players: these house rules allow 4-6 players, got 3$"):
        check_players(house, 3)


def test_unknown_levels_are_refused_in_the_same_words_by_every_command() -> None:
    levels = "random, easy, normal, hard, expert, master, learned"
    expected = f"error: --bots: unknown bot 'genius'; choose one of {levels}"
    assert run("play", "--bots", "normal,genius") == expected + " or learned:FILE.npz"
    tournaments_also_seat = ", openspiel-ismcts, learned:FILE.npz or module:callable"  # tournaments only
    assert run("tournament", "--bots", "normal,genius,easy") == expected + tournaments_also_seat
    assert parse_level(" Hard ") == "hard"
    with pytest.raises(ValueError, match=r"^bot: unknown level 'x'; choose one of random, easy"):
        parse_level("x")
