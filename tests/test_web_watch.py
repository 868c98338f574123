"""Spectators on the web server (issue 26, item 1): the watch link in the create answer and
for a seated player's ``GET /api/tables/{ID}``, and a spectator's socket
(``/ws/tables/{ID}?watch=TOKEN``) next to a player's. The table layer's own tests are in
``test_table_watchers.py``; ``docs/web.md`` ("Spectators") is the contract."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from starlette.testclient import TestClient

from .web_helpers import create_table, next_state, play_to_my_turn, receive, socket_url, web_client


def watch_token(link: str) -> str:
    return parse_qs(urlsplit(link).query)["watch"][0]


def test_seated_players_get_the_watch_link_and_nobody_else(tmp_path: Path) -> None:
    with web_client(tmp_path / "watch.sqlite3") as client:
        table = create_table(client, seats=[{"kind": "human", "name": "Kari"}, {"kind": "open"},
                                            {"kind": "bot", "level": "easy"}])
        link = table["watch"]
        assert link == f"{table['invite']}?watch={watch_token(link)}"
        secret = watch_token(link)
        assert len(secret) >= 32 and secret != table["token"] and secret not in table["token"]
        info = client.get(f"/api/tables/{table['table']}")
        assert info.status_code == 200 and "watch" not in info.json() and secret not in info.text
        mine = client.get(f"/api/tables/{table['table']}", headers={"X-Seat-Token": table["token"]})
        assert mine.status_code == 200 and mine.json()["watch"] == link
        assert mine.headers["cache-control"] == "no-store"
        friend = client.post(f"/api/tables/{table['table']}/join", json={"name": "Ola"}).json()
        theirs = client.get(f"/api/tables/{table['table']}", headers={"X-Seat-Token": friend["token"]})
        assert theirs.json()["watch"] == link
        for wrong in (secret, table["token"][:-1], "x"):
            refused = client.get(f"/api/tables/{table['table']}", headers={"X-Seat-Token": wrong})
            assert refused.status_code == 403 and refused.json()["code"] == "bad_token"
        other = create_table(client)
        assert watch_token(other["watch"]) != secret


def test_a_spectator_watches_a_player_and_is_counted(tmp_path: Path) -> None:
    with web_client(tmp_path / "watch.sqlite3") as client:
        table = create_table(client, seed=3)
        spectator_url = f"/ws/tables/{table['table']}?watch={watch_token(table['watch'])}&lang=nb"
        with client.websocket_connect(socket_url(table)) as player:
            mine = play_to_my_turn(player)
            assert mine["table"]["watchers"] == 0 and mine["table"]["watching"] is True
            assert mine["table"]["watch"] == f"/t/{table['table']}?watch={watch_token(table['watch'])}"
            with client.websocket_connect(spectator_url) as spectator:
                state = next_state(spectator)
                assert state["seat"] is None and state["view"]["hand"] == [] and state["legal"] == []
                assert state["view"]["hand_sizes"] == mine["view"]["hand_sizes"]
                assert state["table"]["watch"] is None and state["table"]["watchers"] == 1
                assert receive(player) == {"type": "watchers", "count": 1, "allowed": True}
                assert receive(spectator) == {"type": "watchers", "count": 1, "allowed": True}
                spectator.send_text(json.dumps({"type": "act", "action": mine["legal"][0]}))
                refused = receive(spectator)
                assert refused["code"] == "spectator" and refused["message"].startswith("Du ser på")
                spectator.send_text(json.dumps({"type": "react", "reaction": "thumbs_up"}))
                assert receive(player) == {"type": "reaction", "seat": None, "reaction": "thumbs_up"}
                assert receive(spectator) == {"type": "reaction", "seat": None, "reaction": "thumbs_up"}
                spectator.send_text(json.dumps({"type": "react", "reaction": "wow"}))
                assert receive(spectator)["code"] == "rate_limited"
                player.send_text(json.dumps({"type": "act", "action": mine["legal"][0]}))
                after = next_state(spectator)
                assert after["view"]["event_count"] > state["view"]["event_count"]
                assert after["view"]["hand"] == [] and "hint" not in after
            assert next(message for message in iter(lambda: receive(player), None)
                        if message["type"] == "watchers") == {"type": "watchers", "count": 0, "allowed": True}


def test_a_wrong_watch_token_and_watching_off_are_refused_on_the_socket(tmp_path: Path) -> None:
    with web_client(tmp_path / "watch.sqlite3") as client:
        table = create_table(client)
        secret = watch_token(table["watch"])
        for wrong in (table["token"], secret[:-1], ""):
            refused = refused_at_opening(client, f"/ws/tables/{table['table']}?watch={wrong}")
            assert refused == ("bad_token", 1008)
        with client.websocket_connect(socket_url(table)) as player:
            next_state(player)
            with client.websocket_connect(f"/ws/tables/{table['table']}?watch={secret}") as spectator:
                next_state(spectator)
                player.send_text(json.dumps({"type": "watching", "allowed": False}))
                while (message := receive(spectator))["type"] != "error":
                    pass
                assert message["code"] == "watching_off"
                closed = spectator.receive()
                assert closed["type"] == "websocket.close" and closed["code"] == 1008
            refused = refused_at_opening(client, f"/ws/tables/{table['table']}?watch={secret}")
            assert refused == ("watching_off", 1008)
            player.send_text(json.dumps({"type": "watching", "allowed": True}))
            while not next_state(player)["table"]["watching"]:  # states from before it came on
                pass
            with client.websocket_connect(f"/ws/tables/{table['table']}?watch={secret}") as spectator:
                assert next_state(spectator)["table"]["watchers"] == 1


def refused_at_opening(client: TestClient, url: str) -> tuple[str, int]:
    """The error code a socket is refused with at opening, and its close code."""
    with client.websocket_connect(url) as socket:
        message = receive(socket)
        closed = socket.receive()
    assert message["type"] == "error" and closed["type"] == "websocket.close"
    return str(message["code"]), int(closed["code"])
