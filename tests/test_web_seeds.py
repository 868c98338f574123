"""A seeded match keeps its secrets (issue 13, item 5): each game's seed comes one-way from
the table's secret, a record shows only its own game's seed, a table created with a seed
says so to everyone, and bots and hints draw from the secret, not from the table id.

C3 (the deal) is what the seed decides; C2 (the loser deals next) is what the match adds."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mattis import Game
from mattis.frontend.match import MatchSecret

from .web_helpers import create_table, next_state, play_to_my_turn, socket_url, web_client


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with web_client(tmp_path / "seeds.sqlite3") as test_client:
        yield test_client


def lobby_of(client: TestClient) -> Any:
    return client.app.state.lobby  # type: ignore[attr-defined]


def play_game(socket: Any, seen: list[str]) -> dict[str, Any]:
    """Play the first legal move until the game ends, keeping every message's text."""
    socket.send_text(json.dumps({"type": "state"}))  # a state to start from, whoever is to move
    while True:
        state = play_to_my_turn(socket)
        seen.append(json.dumps(state))
        if state["view"]["phase"] == "over":
            return state
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))


def next_game(socket: Any, number: int) -> dict[str, Any]:
    socket.send_text(json.dumps({"type": "again"}))
    state = next_state(socket)
    while state["table"]["game"] != number:
        state = next_state(socket)
    return state


def test_c3_a_records_seed_does_not_give_the_next_deal(client: TestClient) -> None:
    table = create_table(client, seed=17)
    seen: list[str] = []
    with client.websocket_connect(socket_url(table)) as socket:
        play_game(socket, seen)
        next_game(socket, 2)
        play_game(socket, seen)
    first = client.get(f"/api/tables/{table['table']}/record?game=1").json()
    second = client.get(f"/api/tables/{table['table']}/record?game=2").json()
    assert first["seed"] != 17 and second["seed"] != 17
    # The old scheme (seed + k - 1) and the table seed itself give neither deal.
    for guess in (17, 18, first["seed"] + 1, first["seed"] - 1):
        assert Game.new("pagat", 3, seed=guess).record()["deck"] != second["deck"]
    # The creator, who chose the seed, can deal the same match again.
    secret = MatchSecret.from_seed(17)
    assert (first["seed"], second["seed"]) == (secret.game_seed(1), secret.game_seed(2))
    stored = lobby_of(client).store.load_table(table["table"])
    assert stored.match["secret"] == secret.hex
    everything = " ".join(seen) + client.get(f"/api/tables/{table['table']}").text + json.dumps(first)
    assert secret.hex not in everything and '"secret"' not in everything


def test_the_same_seed_deals_the_same_match_at_any_table(client: TestClient) -> None:
    decks = []
    for _ in range(2):
        table = create_table(client, seed=2024)
        lobby = lobby_of(client)
        decks.append(lobby.tables[table["table"]].session.game.record()["deck"])
    assert decks[0] == decks[1]


def test_unseeded_tables_have_their_own_secret_and_deal_unrelated_games(client: TestClient) -> None:
    lobby = lobby_of(client)
    tables = [lobby.tables[create_table(client)["table"]] for _ in range(2)]
    assert tables[0].session.secret != tables[1].session.secret
    assert not tables[0].session.seeded
    for table in tables:
        seeds = [table.session.secret.game_seed(number) for number in (1, 2, 3)]
        assert seeds[0] == table.session.game.record()["seed"]
        assert len(set(seeds)) == 3 and all(0 <= seed < 2**64 for seed in seeds)


def test_a_seeded_table_says_so_to_everyone(client: TestClient) -> None:
    seeded = create_table(client, seed=5, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}])
    plain = create_table(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}])
    assert client.get(f"/api/tables/{seeded['table']}").json()["seeded"] is True
    assert client.get(f"/api/tables/{plain['table']}").json()["seeded"] is False
    friend = client.post(f"/api/tables/{seeded['table']}/join", json={"name": "Ola"}).json()
    with client.websocket_connect(socket_url({"table": seeded["table"], **friend})) as socket:
        assert next_state(socket)["table"]["seeded"] is True
    with client.websocket_connect(socket_url(plain)) as socket:
        assert next_state(socket)["table"]["seeded"] is False
    texts = {lang: client.get(f"/api/texts?lang={lang}").json()["table.seeded"] for lang in ("en", "nb")}
    assert "seed" in texts["en"] and "frø" in texts["nb"]


def test_bots_and_hints_draw_from_the_secret_not_the_table_id(client: TestClient) -> None:
    table = lobby_of(client).tables[create_table(client, seed=8)["table"]]
    game = table.session.game
    bot_seed = table.session._rng_seed("bot", 1)
    assert table.table_id not in bot_seed
    assert bot_seed == table.session.secret.move_seed("bot", 1, 1, game.num_actions)
    assert bot_seed != MatchSecret.fresh().move_seed("bot", 1, 1, game.num_actions)
    assert table.session.secret.move_seed("hint", 1, 0, 0) != table.session.secret.move_seed("bot", 1, 0, 0)
    # The seeds differ per move, so a generator never repeats its draws.
    secret = table.session.secret
    assert len({secret.move_seed("bot", 1, 1, index) for index in range(50)}) == 50
    assert random.Random(bot_seed).random() != random.Random(secret.move_seed("bot", 1, 1, 1)).random()


def test_a_table_stored_before_secrets_gets_one_and_plays_on(client: TestClient) -> None:
    table = create_table(client, seed=15)
    lobby = lobby_of(client)
    with client.websocket_connect(socket_url(table)) as socket:
        play_game(socket, [])
    live = lobby.tables[table["table"]]
    old_match = {key: value for key, value in live.session._stored_match().items() if key != "secret"}
    lobby.store.update_table(table["table"], [seat.to_stored() for seat in live.session.seats], old_match)
    assert lobby.unload_older_than(0) == 1
    with client.websocket_connect(socket_url(table)) as socket:
        assert next_game(socket, 2)["view"]["phase"] == "collect"
    second = client.get(f"/api/tables/{table['table']}/record?game=2")
    assert second.json()["code"] == "game_not_over"
    assert lobby.tables[table["table"]].session.secret == MatchSecret.from_seed(15)

