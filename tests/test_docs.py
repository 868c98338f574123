"""The documentation in ``docs/`` tells the truth: the Python API's examples run as written,
the command reference names every command and option ``mattis --help`` offers, and every link
between the README and the docs leads to a file (and a heading) that exists."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from mattis import Game
from mattis.bots import Decision
from mattis.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
API = DOCS / "api.md"
CLI = DOCS / "cli.md"


def test_the_api_examples_run_as_written() -> None:
    """The blocks of ``docs/api.md`` in order, as one program."""
    blocks = re.findall(r"```python\n(.*?)```", API.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    exec(compile("\n".join(blocks), str(API), "exec"), namespace)
    game = namespace["game"]
    hint = namespace["hint"]
    assert isinstance(game, Game) and isinstance(hint, Decision)
    assert str(hint.action) == "4d"  # the guide shows this hint's move
    assert game.is_over  # play_game played it to the end


def commands(group: TyperGroup, path: str = "mattis") -> Iterator[tuple[str, Any]]:
    """Every command under ``group``, by its full name (``mattis app export``)."""
    for name, command in sorted(group.commands.items()):
        if isinstance(command, TyperGroup):
            yield from commands(command, f"{path} {name}")
        else:
            yield f"{path} {name}", command


COMMANDS = dict(commands(typer.main.get_command(app)))  # type: ignore[arg-type]


def sections(text: str) -> dict[str, str]:
    """``docs/cli.md`` by its ``## `mattis COMMAND` `` headings: the command, its text."""
    parts = re.split(r"^## `(mattis[^`]*)`\s*$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_command_has_its_section_in_the_reference() -> None:
    documented = sections(CLI.read_text(encoding="utf-8"))
    assert {"mattis play", "mattis serve", "mattis app export", "mattis train"} <= set(COMMANDS)
    assert set(documented) == set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_of_a_command_is_in_its_section(name: str) -> None:
    """Each option by its long name (``--step/--no-step`` by both), and each argument by its
    metavar, in the command's own section."""
    text = sections(CLI.read_text(encoding="utf-8"))[name]
    missing = []
    for parameter in COMMANDS[name].params:
        if isinstance(parameter, TyperOption):
            names = [name for name in [*parameter.opts, *parameter.secondary_opts] if name.startswith("--")]
            missing += [option for option in names if f"`{option}" not in text and f" {option}" not in text]
        elif isinstance(parameter, TyperArgument):
            metavar = (parameter.metavar or parameter.name or "").upper()
            if metavar not in text:
                missing.append(metavar)
    assert missing == []
    offered = {option for parameter in COMMANDS[name].params
               for option in [*getattr(parameter, "opts", []), *getattr(parameter, "secondary_opts", [])]}
    first_column = "\n".join(line.split("|")[1] for line in text.splitlines() if line.startswith("| `"))
    assert set(re.findall(r"`(--[a-z0-9-]+)", first_column)) <= offered  # nothing it does not have


def test_the_top_level_options_are_in_the_reference() -> None:
    text = CLI.read_text(encoding="utf-8")
    assert "`mattis --version`" in text and "`mattis --help`" in text


MARKDOWN = [ROOT / "README.md", *sorted(DOCS.rglob("*.md")), ROOT / "benchmarks" / "README.md"]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(heading) for heading in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)}


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_somewhere(page: Path) -> None:
    """Relative links to files of the repository, and to their headings."""
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in anchors(linked)):
            broken.append(target)
    assert broken == []
