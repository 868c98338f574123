"""Any agent, anywhere (issue 30, item 2): one parser for entrant names, and what it seats.

A level, ``learned:PATH.npz`` (a checkpoint of its own) or ``module:callable`` (an agent, a
policy or a factory) plays in tournaments; each entrant keeps its own settings, so two
checkpoints are two entrants; a bad name is one translated error line with exit code 2.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner, Result

from mattis import Game, Rules
from mattis.bots import PlayerView, seat_view
from mattis.bots.encoding import OBSERVATION_SIZE
from mattis.bots.entrants import (
    EntrantError,
    PolicyAgent,
    check_entrant,
    entrant_spec,
    make_entrant_agent,
    parse_entrant,
)
from mattis.bots.learned import LearnedAgent, save_checkpoint
from mattis.cli.app import app
from mattis.core.actions import NUM_ACTIONS
from mattis.tools.tournament import run_tournament
from tests import entrant_agents

from .cli_checks import assert_one_error_line

PAGAT = Rules.preset("pagat")


def tiny_checkpoint(path: Path, seed: int) -> Path:
    """A small random network (a few thousand numbers): plays legally, differently per seed."""
    rng = np.random.default_rng(seed)
    weights = [rng.normal(size=(OBSERVATION_SIZE, 4)), rng.normal(size=(4, NUM_ACTIONS))]
    biases = [rng.normal(size=4), rng.normal(size=NUM_ACTIONS)]
    return save_checkpoint(path, weights, biases, "relu", dtype="float32")


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("checkpoints")
    return str(tiny_checkpoint(folder / "alpha.npz", 1)), str(tiny_checkpoint(folder / "beta.npz", 2))


# ---------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(("text", "name"), [
    (" Hard ", "hard"), ("HARD:4000", "hard:4000"), ("expert:0.50s", "expert:0.5s"),
    ("learned", "learned"), ("Learned:Runs/Mine.npz", "learned:Runs/Mine.npz"),
    ("tests.entrant_agents:lowest", "tests.entrant_agents:lowest"),
    ("pkg.mod:Agent.factory", "pkg.mod:Agent.factory"),
])
def test_one_parser_gives_canonical_names(text: str, name: str) -> None:
    assert parse_entrant(text) == name


def test_specs_say_what_a_name_asks_for() -> None:
    assert entrant_spec("hard:4000").iterations == 4000
    assert entrant_spec("learned:a/b.npz").path == "a/b.npz"
    assert entrant_spec("tests.entrant_agents:lowest").target == "tests.entrant_agents:lowest"
    assert entrant_spec("learned").path is None


@pytest.mark.parametrize(("text", "key"), [
    ("clever", "cli.entrant.unknown"), ("hard:", "cli.entrant.budget"), ("easy:5", "cli.entrant.no_budget"),
    ("learned:", "cli.entrant.no_file"), ("not a module:x", "cli.entrant.unknown"),
])
def test_bad_spellings_are_refused_with_a_catalogue_key(text: str, key: str) -> None:
    with pytest.raises(EntrantError) as raised:
        parse_entrant(text)
    assert raised.value.key == key and str(raised.value).startswith("bots: ")


# ---------------------------------------------------------------------------- what a name seats


def test_each_shape_of_callable_becomes_an_agent() -> None:
    game = Game.new(PAGAT, 3, seed=4)
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    view, legal = seat_view(game, game.to_move or 0), game.legal_actions()
    lowest = make_entrant_agent("tests.entrant_agents:lowest")
    assert isinstance(lowest, PolicyAgent) and lowest.name == "lowest"
    assert lowest.choose(view, legal, random.Random(1)).action == min(legal, key=lambda a: a.index)
    by_index = make_entrant_agent("tests.entrant_agents:highest_index")
    assert by_index.choose(view, legal, random.Random(1)).action == max(legal, key=lambda a: a.index)
    assert make_entrant_agent("tests.entrant_agents:careful") is entrant_agents.careful
    before = entrant_agents.Careful.made
    first, second = (make_entrant_agent("tests.entrant_agents:Careful") for _ in range(2))
    assert first is not second and entrant_agents.Careful.made == before + 2, "a class makes a fresh agent"
    assert isinstance(make_entrant_agent("tests.entrant_agents:make_policy"), PolicyAgent)


def test_a_policy_answering_an_illegal_move_says_so() -> None:
    agent = PolicyAgent("stubborn", lambda view, legal: 10_000)
    game = Game.new(PAGAT, 3, seed=1)
    with pytest.raises(ValueError, match="policy stubborn answered 10000, not a legal move"):
        agent.choose(PlayerView.of(game.seat_view(0)), game.legal_actions(), random.Random(0))


@pytest.mark.parametrize(("name", "key", "fragment"), [
    ("learned:/no/such/file.npz", "cli.entrant.no_file", "no checkpoint file '/no/such/file.npz'"),
    ("tests.entrant_broken:agent", "cli.entrant.import", "RuntimeError: this agent's module is broken"),
    ("tests.no_such_module:agent", "cli.entrant.import", "No module named 'tests.no_such_module'"),
    ("tests.entrant_agents:missing", "cli.entrant.attribute", "has no missing"),
    ("tests.entrant_agents:three", "cli.entrant.shape", "is neither an agent"),
    ("tests.entrant_agents:not_callable", "cli.entrant.shape", "is neither an agent"),
])
def test_what_cannot_play_fails_once_before_any_game(name: str, key: str, fragment: str) -> None:
    with pytest.raises(EntrantError, match=fragment) as raised:
        check_entrant(name)
    assert raised.value.key == key
    with pytest.raises(EntrantError, match=fragment):
        run_tournament(PAGAT, 3, [name, "easy", "easy"], 6, seed=1)


def test_a_file_that_is_no_checkpoint_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not numpy")
    with pytest.raises(EntrantError, match="is not a playable checkpoint") as raised:
        check_entrant(f"learned:{junk}")
    assert raised.value.key == "cli.entrant.checkpoint"


# ---------------------------------------------------------------------------- in tournaments


def test_a_tournament_seats_a_level_a_checkpoint_and_a_module(checkpoints: tuple[str, str]) -> None:
    alpha, _ = checkpoints
    bots = ["easy", f"learned:{alpha}", "tests.entrant_agents:lowest"]
    result = run_tournament(PAGAT, 3, bots, 6, seed=3, workers=2)
    assert result.entrants == tuple(bots) and result.finished_games + result.capped_games == 6
    assert all(row.games == 6 for row in result.standings)
    assert result.to_dict()["bots"] == bots


def test_two_checkpoints_are_two_entrants_each_with_its_own_network(checkpoints: tuple[str, str]) -> None:
    alpha, beta = checkpoints
    first, second = make_entrant_agent(f"learned:{alpha}"), make_entrant_agent(f"learned:{beta}")
    assert isinstance(first, LearnedAgent) and isinstance(second, LearnedAgent)
    assert first.policy is not second.policy
    game = Game.new(PAGAT, 3, seed=2)
    differ = 0
    while not game.is_over and game.num_actions < 300:
        legal = game.legal_actions()
        view = seat_view(game, game.to_move or 0)
        moves = {agent.choose(view, legal, random.Random(0)).action for agent in (first, second)}
        differ += len(moves) > 1
        game.apply(min(legal, key=lambda action: action.index))
    assert differ > 0, "two networks, two ways of playing"
    result = run_tournament(PAGAT, 3, [f"learned:{alpha}", f"learned:{beta}", "random"], 6, seed=1,
                            learned_checkpoint=beta)
    assert result.entrants == (f"learned:{alpha}", f"learned:{beta}", "random")
    assert len(result.levels) == 3, "each checkpoint is its own entrant, not one learned level"
    plain = run_tournament(PAGAT, 3, ["learned", f"learned:{beta}", "random"], 6, seed=1,
                           learned_checkpoint=beta)
    same = [outcome.losers for outcome in plain.outcomes]
    twins = run_tournament(PAGAT, 3, [f"learned:{beta}", f"learned:{beta}", "random"], 6, seed=1)
    assert same == [outcome.losers for outcome in twins.outcomes], "plain learned plays --learned-checkpoint"


# ---------------------------------------------------------------------------- the command line


def tournament(*args: str) -> Result:
    return CliRunner().invoke(app, ["tournament", "--workers", "1", *args], env={"COLUMNS": "250"})


def test_the_command_seats_two_checkpoints_and_a_module(checkpoints: tuple[str, str]) -> None:
    alpha, beta = checkpoints
    result = tournament("--bots", f"learned:{alpha},learned:{beta},tests.entrant_agents:Careful",
                        "--games", "6", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert f"learned:{alpha} − learned:{beta}" in result.stdout
    assert "tests.entrant_agents:Careful" in result.stdout


@pytest.mark.parametrize(("bots", "lang", "fragment"), [
    ("easy,easy,clever", "nb", "--bots: ukjent bot 'clever'; velg en av random"),
    ("easy,easy,learned:/no/such.npz", "nn", "--bots: finn inga sjekkpunktfil '/no/such.npz'"),
    ("easy,easy,learned:/no/such.npz", "en", "--bots: no checkpoint file '/no/such.npz'"),
    ("easy,easy,tests.entrant_broken:agent", "en",
     "--bots: cannot import the module tests.entrant_broken for 'tests.entrant_broken:agent': RuntimeError"),
    ("easy,easy,tests.entrant_agents:three", "nb", "--bots: 'tests.entrant_agents:three' er verken en agent"),
])
def test_bad_entrants_are_one_translated_error_line(bots: str, lang: str, fragment: str) -> None:
    assert_one_error_line(tournament("--bots", bots, "--lang", lang), fragment)
