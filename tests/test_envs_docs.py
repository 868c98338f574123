"""``docs/research.md`` tells the truth: its Python examples run as written, each on its own
from a file in a fresh interpreter (``tests/doc_examples.py``; ``tests/test_docs.py`` runs
the other pages' examples), and its action table matches ``mattis.ALL_ACTIONS``. The bokmål guide
(``docs/research.nb.md``) shows the very same examples."""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import pytest

from mattis import ALL_ACTIONS, NUM_ACTIONS
from mattis.extras import installed
from tests.doc_examples import run_alone, smaller

RESEARCH_DOC = Path(__file__).resolve().parent.parent / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", RESEARCH_DOC.read_text(encoding="utf-8"), re.S)
SHELL_BLOCKS = re.findall(r"```sh\n(.*?)```", RESEARCH_DOC.read_text(encoding="utf-8"), re.S)
COMMANDS = [line.split("  #")[0].strip() for block in SHELL_BLOCKS for line in block.splitlines()
            if line.startswith("mattis ")]
TRAIN_MARK = "# needs the train extra"
"""The first line of an example that trains (torch and sb3-contrib): it runs where the train
extra is installed (the CI's train venv has it; its test venv does not)."""
HAS_TRAIN = installed("torch") and installed("sb3_contrib")


def run_example(number: int) -> str:
    """The example on its own, from a file in a fresh interpreter (``tests/doc_examples.py``)."""
    return run_alone(BLOCKS[number], f"docs/research.md:{number + 1}")


def test_the_guide_has_its_examples_and_the_bokmal_guide_the_same_ones() -> None:
    assert len(BLOCKS) == 12
    assert sum(block.startswith(TRAIN_MARK) for block in BLOCKS) == 1
    bokmal = RESEARCH_DOC.with_name("research.nb.md").read_text(encoding="utf-8")
    assert re.findall(r"```python\n(.*?)```", bokmal, re.S) == BLOCKS
    assert re.findall(r"```sh\n(.*?)```", bokmal, re.S) == SHELL_BLOCKS


@pytest.mark.parametrize("number", range(1, len(BLOCKS)),
                         ids=lambda n: f"example{n}{'-train' if BLOCKS[n].startswith(TRAIN_MARK) else ''}")
def test_research_examples_run(number: int) -> None:
    if BLOCKS[number].startswith(TRAIN_MARK) and not HAS_TRAIN:
        pytest.skip("a training example: the train extra (torch, sb3-contrib) is not installed")
    assert run_example(number).strip()  # every example prints its outcome


def test_the_first_example_scores_mattis_minus_one() -> None:
    rewards = ast.literal_eval(run_example(0).strip())
    assert sorted(rewards) == ["player_0", "player_1", "player_2"]
    assert sorted(rewards.values()) == [-1.0, 0.5, 0.5]


def test_the_sequence_index_formula_in_the_guide_holds() -> None:
    for action in ALL_ACTIONS[52:364]:
        low, high = action.low % 13, action.high % 13
        assert action.index == 52 + action.suit * 78 + sum(12 - rank for rank in range(low)) + high - low - 1
    assert [str(ALL_ACTIONS[i]) for i in (0, 51, 52, 129, 363, 364, 365)] == [
        "2c", "As", "2c-3c", "Kc-Ac", "Ks-As", "chance", "pickup"]
    assert NUM_ACTIONS == 366


def test_the_guide_shows_the_commands_for_ray_openspiel_and_the_lab() -> None:
    for fragment in ("--bots hard,openspiel-ismcts,normal", "--backend ray --workers 2",
                     "--backend ray --address HEAD_IP:6379", "--backend ray --address auto", "mattis lab ",
                     "mattis train --opponents easy,normal", "--bots learned,easy,easy --games 300",
                     "--learned-checkpoint learned.npz"):
        assert any(fragment in command for command in COMMANDS), fragment


def on_ray(commands: list[str]) -> list[object]:
    """The commands, those that run on Ray (a local instance here) marked ``ray``."""
    return [pytest.param(command, marks=pytest.mark.ray) if "--backend ray" in command else command
            for command in commands]


@pytest.mark.parametrize("command", on_ray(COMMANDS))
def test_the_guides_commands_run(command: str, tmp_path: Path) -> None:
    """Each ``mattis`` command of the guide, made smaller; ``--address`` ones run on a local
    Ray instance instead of the cluster the guide talks about; ``train`` ones where the train
    extra is installed, and ``--learned-checkpoint`` and ``learned:FILE`` play the shipped checkpoint."""
    from typer.testing import CliRunner

    from mattis.cli.app import app

    shown = smaller(command, tmp_path)
    if shown[0] == "train" and not HAS_TRAIN:
        pytest.skip("mattis train: the train extra (torch, sb3-contrib) is not installed")
    result = CliRunner().invoke(app, shown)
    assert result.exit_code == 0, (shown, result.stderr[-2000:])


STRENGTH_COMMANDS = [line.split("  #")[0].strip() for block in SHELL_BLOCKS for line in block.splitlines()
                     if line.startswith("python -m mattis.cli.strength ")]


def test_the_guide_shows_the_strength_curve_on_one_machine_and_on_a_cluster() -> None:
    assert len(STRENGTH_COMMANDS) == 2
    assert "--backend ray --address HEAD_IP:6379" in STRENGTH_COMMANDS[1]


@pytest.mark.parametrize("command", on_ray(STRENGTH_COMMANDS))
def test_the_guides_strength_commands_run(command: str, tmp_path: Path) -> None:
    """The strength-curve commands as written, on a tiny curve (two small budgets, a wide
    target, one-deal chunks); the cluster one on a local Ray instance."""
    from mattis.cli.strength import main

    words = shlex.split(command)[3:]
    shown: list[str] = []
    for position, word in enumerate(words):
        before = words[position - 1] if position else ""
        if {word, before} & {"--address", "--chunk-deals"}:
            continue
        shown.append(str(tmp_path / word) if before == "--out" else word)
    shown += ["--budgets", "2,4", "--opponents", "normal,normal", "--target", "0.45", "--chunk-deals", "1",
              "--workers", "2" if "ray" in shown else "1"]
    with pytest.raises(SystemExit) as finished:
        main(shown)
    assert finished.value.code == 0
    assert (tmp_path / shown[shown.index("--out") + 1] / "strength.md").is_file()
