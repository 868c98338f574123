"""The README's Python examples run as written (a README that lies is a bug)."""

from __future__ import annotations

import re
from pathlib import Path

from mattis import Game
from mattis.bots import Decision

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    exec(compile("\n".join(blocks), str(README), "exec"), namespace)
    game = namespace["game"]
    hint = namespace["hint"]
    assert isinstance(game, Game) and isinstance(hint, Decision)
    assert str(hint.action) == "4d"  # the README shows this hint's move
    assert game.is_over  # play_game played it to the end


def test_readme_opens_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    first_block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert first_block is not None
    commands = first_block.group(1).strip().splitlines()
    assert len(commands) == 2
    assert commands[0].endswith("mattis serve")
    assert "pytest" in commands[1]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1].replace("pip install -e", "pip install -q -e") in ci
