"""The README is a front page that tells the truth: at most 120 lines, opening with the two
commands CI runs, the fast loop's command, and the layers as ``docs/architecture.md`` lists them
(a README that lies is a bug). What it leaves to ``docs/`` is checked there (``test_docs.py``)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from .test_install import LAYERS

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")
FAST_LOOP = '.venv/bin/python -m pytest -m "not browser and not cluster and not ray" -n 2'


def test_readme_opens_with_the_two_commands() -> None:
    first_block = re.search(r"```sh\n(.*?)```", TEXT, re.S)
    assert first_block is not None
    assert TEXT.index("```sh") < TEXT.index("\n## ")  # before any section
    commands = first_block.group(1).strip().splitlines()
    assert len(commands) == 2
    assert commands[0].endswith("mattis serve")
    assert "pytest" in commands[1]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1].replace("pip install -e", "pip install -q -e") in ci


def test_the_readme_is_a_front_page() -> None:
    """At most 120 lines: one paragraph on what Mattis is (naming the browser and the phone),
    the commands, a short tour, and how to work on it."""
    assert len(TEXT.splitlines()) <= 120
    first_paragraph = TEXT.split("\n\n")[1]
    assert "browser" in first_paragraph and "phone" in first_paragraph
    sections = re.findall(r"^## (.+)$", TEXT, re.M)
    assert sections == ["A short tour", "Working on Mattis"]
    for stop in ("**Play.**", "**Serve.**", "**The app, offline.**", "**Research.**"):
        assert stop in TEXT, stop


def test_the_fast_loop_is_the_one_the_markers_serve() -> None:
    """The README's fast loop leaves out exactly the markers ``pyproject.toml`` registers, and
    gives the time it takes here."""
    assert FAST_LOOP in TEXT
    project = tomllib.loads((README.parent / "pyproject.toml").read_text(encoding="utf-8"))
    markers = {line.split(":")[0] for line in project["tool"]["pytest"]["ini_options"]["markers"]}
    assert markers == set(re.findall(r"not (\w+)", FAST_LOOP))
    assert re.search(r"runs the rest in (about|under) \d+ minutes", TEXT)


def test_the_layer_picture_is_the_architectures_list() -> None:
    """The picture under "Working on Mattis" shows each level's units as the one list in
    ``docs/architecture.md`` has them (which ``test_install.py`` checks the code against)."""
    picture = re.search(r"```text\n(.*?)```", TEXT, re.S)
    assert picture is not None
    shown: dict[str, int] = {}
    for line in picture.group(1).splitlines():
        found = re.match(r"(\d+)  (\S+(?: · \S+)*)", line)
        assert found is not None, line
        for name in found.group(2).split(" · "):
            shown["" if name == "mattis" else name] = int(found.group(1))
    assert shown == LAYERS
