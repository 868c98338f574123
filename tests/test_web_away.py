"""Issue 24 on the web server: a robots-only game waits while its person is away, a person
back from a stand-in is told what it played (that seat only), and a move against robots can
be taken back (``{"type": "undo"}``), with the record keeping the moves taken back."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from mattis import Game
from mattis.web import Settings

from .web_helpers import (
    create_table,
    next_state,
    play_to_my_turn,
    receive,
    socket_url,
    web_client,
    with_tables,
)

UNLIMITED = Settings(rate=10_000.0, burst=10_000.0)
"""The server's settings without the per-socket message rate: these tests answer robots that
move at once, faster than a person, and a dropped message would leave them waiting."""


def test_a_robots_only_game_waits_for_its_person_and_nobody_stands_in(tmp_path: Path) -> None:
    settings = with_tables(UNLIMITED, bot_delay=0.0, absence_timeout=0.1)
    with web_client(tmp_path / "wait.sqlite3", settings) as client:
        table = create_table(client, seed=4)
        with client.websocket_connect(socket_url(table)) as socket:
            state = play_to_my_turn(socket)
            socket.send_text(json.dumps({"type": "away"}))  # the tab is hidden before the move
            socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
            moved = next_state(socket)
            while moved["table"]["seats"][0]["connected"]:
                moved = next_state(socket)
            events = moved["view"]["event_count"]
        time.sleep(0.6)  # the absence time passes many times over, the socket closed
        info = client.get(f"/api/tables/{table['table']}").json()
        assert info["status"] == "playing" and info["seats"][0]["stand_in"] is False
        with client.websocket_connect(socket_url(table)) as socket:
            back = next_state(socket)
            assert back["view"]["event_count"] >= events and not back["table"]["seats"][0]["stand_in"]
            assert back["view"]["event_count"] - events <= 8  # at most the moves under way
            later = play_to_my_turn(socket)  # back: the robots play on until her turn
            assert later["legal"] and later["view"]["event_count"] > events


def test_back_from_a_stand_in_the_person_alone_hears_what_it_played(tmp_path: Path) -> None:
    settings = with_tables(UNLIMITED, bot_delay=0.0, absence_timeout=0.1)
    with web_client(tmp_path / "summary.sqlite3", settings) as client:
        table = create_table(client, seed=4, seats=[{"kind": "human", "name": "Kari"}, {"kind": "open"},
                                                    {"kind": "bot"}])
        friend = client.post(f"/api/tables/{table['table']}/join", json={"name": "Ola"}).json()
        ola = {"table": table["table"], **friend}
        with client.websocket_connect(socket_url(table, "nb")) as kari:
            seen: list[dict[str, Any]] = []
            deadline = time.monotonic() + 30
            state = next_state(kari, seen)
            while not state["table"]["seats"][1]["stand_in"] or not state["legal"]:
                assert time.monotonic() < deadline, "Ola's stand-in never came"
                if state["legal"]:
                    kari.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
                state = next_state(kari, seen)
            kari.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
            while state["view"]["to_move"] != 0 and state["view"]["phase"] != "over":
                state = next_state(kari, seen)
            with client.websocket_connect(socket_url(ola, "en")) as back:
                messages = [receive(back), receive(back)]
                assert messages[0]["type"] == "state" and messages[1]["type"] == "away_summary"
                summary = messages[1]
                assert summary["actions"]
                assert summary["text"].startswith("While you were away, a robot played ")
                assert messages[0]["log"] and any(
                    line.startswith("A robot ") and line.endswith("for you") for line in messages[0]["log"])
                kari.send_text(json.dumps({"type": "state"}))
                kari_messages: list[dict[str, Any]] = []
                next_state(kari, kari_messages)
                while kari_messages[-1]["table"]["seats"][1]["connected"] is not True:
                    next_state(kari, kari_messages)
            assert all(message["type"] != "away_summary" for message in seen + kari_messages)


def test_undo_over_the_socket_and_the_record_keeps_the_moves_taken_back(tmp_path: Path) -> None:
    settings = with_tables(UNLIMITED, bot_delay=0.0)
    with web_client(tmp_path / "undo.sqlite3", settings) as client:
        table = create_table(client, seed=7)
        with client.websocket_connect(socket_url(table)) as socket:
            before = play_to_my_turn(socket)
            assert before["undo"] is False and before["takebacks"] == 0
            socket.send_text(json.dumps({"type": "undo"}))
            assert receive(socket)["code"] == "cannot_undo"
            socket.send_text(json.dumps({"type": "act", "action": before["legal"][0]}))
            after = play_to_my_turn(socket)
            assert after["undo"] is True
            socket.send_text(json.dumps({"type": "undo"}))
            undone = next_state(socket)
            assert undone["takebacks"] == 1 and undone["history_start"] == 0
            assert undone["view"]["hand"] == before["view"]["hand"] and undone["legal"] == before["legal"]
            assert undone["view"]["event_count"] == before["view"]["event_count"]
            state = undone
            while state["view"]["phase"] != "over":
                if state["legal"]:
                    socket.send_text(json.dumps({"type": "act", "action": state["legal"][-1]}))
                state = next_state(socket)
        record = client.get(f"/api/tables/{table['table']}/record").json()
        [taken] = record["taken_back"]
        assert taken["actions"][0] == before["legal"][0] and len(taken["actions"]) >= 1
        game = Game.from_record(record)
        assert game.is_over and game.record()["actions"] == record["actions"]
        assert record["actions"][taken["at"]] == before["legal"][-1]  # the move played instead
