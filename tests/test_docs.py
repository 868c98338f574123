"""The documentation in ``docs/`` tells the truth: every Python example runs on its own, as written,
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

from mattis.cli.app import app
from mattis.extras import missing_modules
from tests.doc_examples import Example, examples, run_alone, smaller

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CLI = DOCS / "cli.md"


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


RESEARCH = DOCS / "research.md"
"""Its examples run in ``tests/test_envs_docs.py`` (on their own too), which also checks that
the bokmål guide shows the same ones."""
EXAMPLES = [example for example in examples([RESEARCH, *MARKDOWN]) if example.page != RESEARCH]


def test_the_examples_outside_the_research_guide_are_found() -> None:
    assert {example.name for example in EXAMPLES} >= {"docs/api.md:1", "docs/api.md:2", "docs/review.md:1"}


def test_an_example_says_on_its_first_line_why_it_does_not_run() -> None:
    def example(code: str) -> Example:
        return Example(ROOT / "docs" / "page.md", 1, code)

    assert example("import mattis\n").why_not_run() is None
    assert example("# not run: it opens a window\nimport tkinter\n").why_not_run() == (
        "docs/page.md:1: not run on its own: it opens a window")
    assert example('# needs the rl extra: pip install -e ".[rl]"\n').why_not_run() is None  # installed here
    assert example("# not run:\n").why_not_run() is None  # no reason, no exemption
    with pytest.raises(AssertionError, match="no extra named 'gpu'"):
        example("# needs the gpu extra\n").why_not_run()


SHOWN = {"docs/api.md:2": ("hint.action, game.is_over", "4d True")}
"""What an example shows in its comments, checked: an expression printed after the block,
and the line it prints (the hint the guide shows, and the game played to its end)."""


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.name)
def test_every_example_runs_on_its_own(example: Example) -> None:
    """Each block by itself, in a fresh interpreter in an empty folder: a reader copies one
    block, not the page (``tests/doc_examples.py`` says how a block marks itself as needing
    an extra or as not runnable on its own)."""
    if reason := example.why_not_run():
        pytest.skip(reason)
    shows = SHOWN.get(example.name)
    output = run_alone(example.code + (f"\nprint({shows[0]})\n" if shows else ""), example.name)
    if shows:
        assert output.splitlines()[-1] == shows[1]


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


SHELL = re.findall(r"^```sh\n(.*?)^```", CLI.read_text(encoding="utf-8"), re.S | re.M)
REFERENCE_COMMANDS = [line.split("  #")[0].strip() for block in SHELL for line in block.splitlines()
                      if line.startswith("mattis ")]
NOT_RUN_HERE = {
    "play": "interactive: tests/test_terminal_*.py play through the terminal",
    "replay": "needs saved games: tests/test_cli.py replays the records it writes",
    "bench": "a benchmark that measures for seconds: tests/test_cli.py runs it",
    "serve": "a server that runs until stopped: the web tests start it",
    "lab": "the research guide's lab commands run in tests/test_envs_docs.py (matplotlib's start-up "
           "is most of a lab's cost)",
}
"""The reference's commands that this test does not run, and why (each is run elsewhere)."""


def test_the_references_examples_are_run_or_say_why_not() -> None:
    shown = {command.split()[1] for command in REFERENCE_COMMANDS}
    assert shown >= {"rules", "simulate", "tournament", "train", "lab", *NOT_RUN_HERE}


def reference_commands() -> list[object]:
    """The commands this test runs, those on Ray marked ``ray``."""
    run = [command for command in REFERENCE_COMMANDS if command.split()[1] not in NOT_RUN_HERE]
    return [pytest.param(command, marks=pytest.mark.ray) if "--backend ray" in command else command
            for command in run]


@pytest.mark.parametrize("command", reference_commands())
def test_the_references_examples_run(command: str, tmp_path: Path) -> None:
    """Each example command of ``docs/cli.md`` as written but smaller (``tests/doc_examples.py``)."""
    from typer.testing import CliRunner

    shown = smaller(command, tmp_path)
    if shown[0] == "train" and missing_modules("train"):
        pytest.skip("mattis train: the train extra (torch, sb3-contrib) is not installed")
    result = CliRunner().invoke(app, shown)
    assert result.exit_code == 0, (shown, result.stderr[-2000:])
