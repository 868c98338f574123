"""Any agent, anywhere (issue 30, item 2): one parser for entrant names, and what it seats.

A level, ``learned:PATH.npz`` (a checkpoint of its own) or ``module:callable`` (an agent, a
policy or a factory) plays in tournaments; each entrant keeps its own settings, so two
checkpoints are two entrants; a bad name is one translated error line with exit code 2.
"""

from __future__ import annotations

import json
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
    checkpoint_levels,
    checkpoint_policy,
    entrant_spec,
    make_entrant_agent,
    parse_entrant,
)
from mattis.bots.learned import LearnedAgent, load_checkpoint, save_checkpoint
from mattis.cli.app import app
from mattis.core.actions import NUM_ACTIONS
from mattis.table import TableConfig
from mattis.tools.backends import LocalBackend
from mattis.tools.lab import Variant, play_lab_game, run_lab
from mattis.tools.lab_report import render_html
from mattis.tools.strength import Settings
from mattis.tools.tournament import run_tournament
from tests import entrant_agents

from .cli_checks import assert_one_error_line
from .web_helpers import create_table, play_to_my_turn, socket_url, web_client, with_tables

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


# ---------------------------------------------------------------------------- at a table: play and serve


def test_mattis_play_seats_a_checkpoint_that_plays_its_own_moves(checkpoints: tuple[str, str],
                                                                 tmp_path: Path) -> None:
    alpha, _ = checkpoints
    save = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "--bots", f"learned:{alpha},easy", "--seat", "2", "--seed", "5",
                                      "--pace", "0", "--save", str(save), "--lang", "en"],
                                env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output  # stdin is empty: the game stops at the person's turn
    assert "Kari (learned: alpha)" in result.stdout
    record = json.loads(save.read_text())
    assert record["play"]["participants"][0]["level"] == "learned:alpha"
    assert record["actions"], "the bots moved before the person's turn"
    start = Game.from_record({**record, "actions": []})
    assert start.to_move == 0 and len(start.legal_actions()) > 1
    agent = LearnedAgent(load_checkpoint(alpha))
    start.apply(agent.choose(seat_view(start, 0), start.legal_actions(), random.Random(0)).action)
    assert start.position() == Game.from_record({**record, "actions": record["actions"][:1]}).position(), \
        "the checkpoint's network chose the first move"


@pytest.mark.parametrize(("bots", "fragment"), [
    ("learned:/no/such.npz,easy", "--bots: no checkpoint file '/no/such.npz'"),
    ("hard:4000,easy", "--bots: a table seats a level or learned:FILE.npz, not 'hard:4000'"),
    ("tests.entrant_agents:lowest,easy", "a table seats a level or learned:FILE.npz"),
])
def test_mattis_play_refuses_what_a_table_cannot_seat(bots: str, fragment: str) -> None:
    result = CliRunner().invoke(app, ["play", "--bots", bots, "--lang", "en"])
    assert_one_error_line(result, fragment)


def test_two_checkpoints_of_one_name_cannot_share_a_table(checkpoints: tuple[str, str],
                                                          tmp_path: Path) -> None:
    alpha, _ = checkpoints
    other = tmp_path / "alpha.npz"
    other.write_bytes(Path(alpha).read_bytes())
    result = CliRunner().invoke(app, ["play", "--bots", f"learned:{alpha},learned:{other}", "--lang", "en"])
    assert_one_error_line(result, "two checkpoints named 'alpha'")


def test_a_table_config_seats_only_the_checkpoints_it_was_given(checkpoints: tuple[str, str]) -> None:
    alpha, _ = checkpoints
    config = TableConfig(checkpoints=checkpoint_levels([alpha]))
    assert config.checkpoints == (("learned:alpha", alpha),)
    assert config.levels()[-1] == "learned:alpha" and "learned:beta" not in config.levels()
    agent = config.make_agent("learned:alpha")
    assert isinstance(agent, LearnedAgent) and agent.policy is checkpoint_policy(alpha)
    assert config.make_agent("learned:beta").name == "normal", "a checkpoint no longer allowed plays normal"


def test_serve_offers_and_seats_only_the_allowed_checkpoint(checkpoints: tuple[str, str],
                                                            tmp_path: Path) -> None:
    alpha, _ = checkpoints
    allowed = with_tables(checkpoints=checkpoint_levels([alpha]))
    with web_client(tmp_path / "allowed.sqlite3", allowed) as client:
        offered = {item["level"]: item for item in client.get("/api/options?lang=nb").json()["levels"]}
        assert offered["learned:alpha"]["label"] == "maskinlært: alpha"
        assert "learned:beta" not in offered
        table = create_table(client, seed=3, seats=[
            {"kind": "human"}, {"kind": "bot", "level": "learned:alpha"}, {"kind": "bot", "level": "easy"}])
        info = client.get(f"/api/tables/{table['table']}").json()
        assert [seat.get("level") for seat in info["seats"]][1] == "learned:alpha"
        with client.websocket_connect(socket_url(table)) as socket:
            state = play_to_my_turn(socket)
            assert state["view"]["phase"] in ("collect", "shed", "over")
        for refused in ("learned:beta", f"learned:{alpha}", f"learned:{Path(alpha).parent}/alpha"):
            answer = client.post("/api/tables", json={"rules": "pagat", "players": 3, "seats": [
                {"kind": "human"}, {"kind": "bot", "level": refused}, {"kind": "bot", "level": "easy"}]})
            assert answer.status_code == 400 and "level" in answer.text, refused
    with web_client(tmp_path / "plain.sqlite3") as client:
        levels = client.get("/api/options").json()["levels"]
        assert all(not item["level"].startswith("learned:") for item in levels)
        answer = client.post("/api/tables", json={"rules": "pagat", "players": 3, "seats": [
            {"kind": "human"}, {"kind": "bot", "level": "learned:alpha"}, {"kind": "bot", "level": "easy"}]})
        assert answer.status_code == 400, "without --allow-checkpoint no checkpoint is seated"


def test_serve_refuses_a_checkpoint_that_cannot_play_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--allow-checkpoint", str(tmp_path / "none.npz"),
                                      "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"],
                                env={"LANG": "en_GB.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})
    assert_one_error_line(result, "--allow-checkpoint: no checkpoint file")


# ---------------------------------------------------------------------------- the lab and the strength tool


def test_the_labs_skill_run_seats_any_entrant(checkpoints: tuple[str, str]) -> None:
    alpha, _ = checkpoints
    pagat = Variant("pagat", PAGAT, "pagat")
    result = run_lab([pagat], games=1, seed=1, players=[3], hard_iterations=1, skill_bot=f"learned:{alpha}",
                     backend=LocalBackend(1))
    assert result.skill_bot == f"learned:{alpha}" and result.to_dict()["skill_bot"] == f"learned:{alpha}"
    skill = next(run for run in result.configurations[0].runs if run.run == "skill")
    assert skill.games == 1
    assert f"seats <code>learned:{alpha}</code>" in render_html(result), "the report names the skill bot"
    played = play_lab_game(pagat, 3, "skill", seed=1, index=1, skill_bot="tests.entrant_agents:lowest")
    again = play_lab_game(pagat, 3, "skill", seed=1, index=1, skill_bot="tests.entrant_agents:lowest")
    other = play_lab_game(pagat, 3, "skill", seed=1, index=1, skill_bot="hard", hard_iterations=1)
    assert played.hard_seat == 1 and played == again and played.actions != other.actions
    with pytest.raises(EntrantError, match="no checkpoint file"):
        run_lab([pagat], games=1, seed=1, players=[3], skill_bot="learned:/no/such.npz",
                backend=LocalBackend(1))


def test_the_lab_command_names_a_bad_skill_bot_in_one_line() -> None:
    result = CliRunner().invoke(app, ["lab", "--skill-bot", "tests.entrant_broken:agent", "--lang", "nn"])
    assert_one_error_line(result, "--skill-bot: kan ikkje importere modulen tests.entrant_broken")


def test_the_strength_tool_takes_any_entrant_as_an_opponent(checkpoints: tuple[str, str]) -> None:
    alpha, _ = checkpoints
    settings = Settings(budgets=(2,), series=(f"learned:{alpha},tests.entrant_agents:lowest",), chunk_deals=1)
    table = settings.bots(settings.series[0], 2)
    assert table == ["hard:2", f"learned:{alpha}", "tests.entrant_agents:lowest"]
    with pytest.raises(ValueError, match="unknown level 'clever'"):
        Settings(series=("clever,easy",))
