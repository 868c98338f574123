"""Nothing is lost when the server is killed (issue 8, item 5): a real ``mattis serve``
process, part of a game over a real WebSocket, SIGKILL, a restart, and the game finished
from its last action."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from mattis import Game

from .web_helpers import free_port, server


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def my_turn(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if message["type"] == "state" and (message["legal"] or message["view"]["phase"] == "over"):
            return message


def test_sigkill_and_restart_continue_the_game(tmp_path: Path) -> None:
    port = free_port()
    db = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    base = f"http://127.0.0.1:{port}"
    played: list[str] = []
    with server(port, db, "--bot-delay", "0") as process:
        table = post(f"{base}/api/tables", {"rules": "pagat", "players": 3, "seed": 17, "seats": [
            {"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "normal"}]})
        url = f"ws://127.0.0.1:{port}/ws/tables/{table['table']}?token={table['token']}"
        with connect(url) as ws:
            for _ in range(6):
                state = my_turn(ws)
                ws.send(json.dumps({"type": "act", "action": state["legal"][-1]}))
                played.append(state["legal"][-1])
                time.sleep(0.12)  # stay under the rate limit
            state = my_turn(ws)
            events_before = state["history_start"] + len(state["view"]["history"])
            hand_before = state["view"]["hand"]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    with server(port, db, "--bot-delay", "0"):
        with connect(url) as ws:
            state = my_turn(ws)
            assert state["history_start"] == 0 and len(state["view"]["history"]) == events_before
            assert state["view"]["hand"] == hand_before
            while state["view"]["phase"] != "over":
                ws.send(json.dumps({"type": "act", "action": state["legal"][0]}))
                time.sleep(0.11)
                state = my_turn(ws)
        with urllib.request.urlopen(f"{base}/api/tables/{table['table']}/record", timeout=10) as response:
            record = json.loads(response.read())
    game = Game.from_record(record)
    assert game.is_over and list(game.losers) == state["view"]["losers"]
    mine = [action for action, seat in zip(record["actions"], _seats(record), strict=True) if seat == 0]
    assert mine[:len(played)] == played


def _seats(record: dict[str, Any]) -> list[int]:
    """Who played each action of a record."""
    game = Game.from_record({**record, "actions": []})
    seats = []
    for action in record["actions"]:
        seats.append(game.to_move if game.to_move is not None else -1)
        game.apply(action)
    return seats


# ---------------------------------------------------------------- issue 13, item 2


def get(url: str) -> tuple[int, dict[str, Any]]:
    """Status and JSON body of a GET, refusals included."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def post_status(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    try:
        return 200, post(url, body)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_damaged_table_is_set_aside_and_every_other_table_plays_on(tmp_path: Path) -> None:
    port = free_port()
    path = tmp_path / "damaged.sqlite3"
    db = f"sqlite:///{path}"
    base = f"http://127.0.0.1:{port}"
    seats = [{"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "easy"}, {"kind": "open"}]
    with server(port, db, "--bot-delay", "0") as process:
        broken_moves = post(f"{base}/api/tables", {"seed": 1, "seats": [*seats[:2], {"kind": "bot"}]})
        broken_seats = post(f"{base}/api/tables", {"seed": 2, "seats": seats})
        healthy = post(f"{base}/api/tables", {"seed": 3, "seats": seats})
        deadline = time.monotonic() + 20
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{broken_moves['table']}"
                     f"?token={broken_moves['token']}") as ws:
            state = my_turn(ws)
            ws.send(json.dumps({"type": "act", "action": state["legal"][0]}))
            my_turn(ws)
        assert time.monotonic() < deadline
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    with sqlite3.connect(path) as database:
        database.execute("UPDATE mattis_actions SET action = 'garbage!' WHERE idx = 0 AND game_id = "
                         "(SELECT id FROM mattis_games WHERE table_id = ?)", (broken_moves["table"],))
        database.execute("UPDATE mattis_tables SET seats = '{not json' WHERE id = ?",
                         (broken_seats["table"],))
    with server(port, db, "--bot-delay", "0") as process:
        for broken in (broken_moves, broken_seats):
            table_id = broken["table"]
            assert get(f"{base}/api/tables/{table_id}") == (410, {
                "type": "error", "code": "damaged", "message": "This table is damaged in the database "
                "and cannot be played; the other tables play on."})
            assert post_status(f"{base}/api/tables/{table_id}/join", {"name": "Ola"})[0] == 410
            with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}?token={broken['token']}") as ws:
                assert json.loads(ws.recv(timeout=10))["code"] == "damaged"
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4410
        assert get(f"{base}/api/tables/{broken_moves['table']}/record")[1]["code"] == "damaged"
        joined = post(f"{base}/api/tables/{healthy['table']}/join", {"name": "Ola"})
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{healthy['table']}?token={joined['token']}") as ws:
            assert json.loads(ws.recv(timeout=10))["table"]["status"] == "playing"
        assert post(f"{base}/api/tables", {})["seat"] == 0
        process.kill()
        process.wait(timeout=10)
        assert process.stdout is not None
        output = process.stdout.read().decode()
    assert "Traceback" not in output
    for broken in (broken_moves, broken_seats):
        lines = [line for line in output.splitlines() if broken["table"] in line]
        assert len(lines) == 1 and "set aside" in lines[0], output
    assert healthy["table"] not in output


def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with server(free_port(), db) as first:
        second = subprocess.run([sys.executable, "-m", "mattis", "serve", "--port", str(free_port()),
                                 "--db", db], capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.count("\n") == 1
        assert second.stderr.startswith("error: --db: another mattis serve")
        assert f"process {first.pid}" in second.stderr
    with server(free_port(), db):  # the lock ends with the first server
        pass


@pytest.mark.parametrize(("schema", "reason"), [
    ("CREATE TABLE mattis_tables (id TEXT PRIMARY KEY)", "lacks the columns created, rules"),
    ("CREATE TABLE notes (id INTEGER, body TEXT)", "not a Mattis database"),
])
def test_a_database_with_the_wrong_tables_is_one_error_line(tmp_path: Path, schema: str, reason: str) -> None:
    from typer.testing import CliRunner

    from mattis.cli.app import app

    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as database:
        database.execute(schema)
    result = CliRunner().invoke(app, ["serve", "--db", f"sqlite:///{path}", "--port", str(free_port())])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: --db: cannot open") and reason in result.stderr
    with sqlite3.connect(path) as database:  # nothing was added to someone else's file
        names = {row[0] for row in database.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert names == {schema.split()[2]}


def test_serve_takes_the_bots_thinking_times_from_its_options(tmp_path: Path) -> None:
    """``--hard-seconds`` and ``--expert-seconds`` reach the levels the start page offers."""
    port = free_port()
    options = f"http://127.0.0.1:{port}/api/options?lang=en"
    with (server(port, f"sqlite:///{tmp_path / 'budgets.sqlite3'}", "--hard-seconds", "0.7",
                 "--expert-seconds", "1.5"),
          urllib.request.urlopen(options, timeout=10) as response):
        levels = {item["level"]: item["description"] for item in json.loads(response.read())["levels"]}
    assert "up to 0.7 s a move" in levels["hard"]
    assert "up to 1.5 s a move" in levels["expert"]


def test_the_database_keeps_which_moves_a_stand_in_played(tmp_path: Path) -> None:
    """The log of a table restored after a restart still says which moves a robot played for
    a person away: the mark is stored with the move (in process: the store alone)."""
    from mattis.table.rows import ActionRow, NewGame, NewTable, Row
    from mattis.web.store import Store

    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    store = Store(url)
    game = Game.new("pagat", 3, seed=4)
    store.add_actions([NewTable(table_id="T", rules={}, players=3, seats=[], match={}),
                       NewGame("T", 1, {**game.record(), "actions": []})])
    rows: list[Row] = []
    for index in range(4):
        action = game.legal_actions()[0]
        rows.append(ActionRow(table_id="T", game_number=1, index=index, seat=game.to_move or 0,
                              action=str(action), over=False, stand_in=index in (1, 3)))
        game.apply(action)
    store.add_actions(rows)
    store.close()
    stored = Store(url).load_table("T")
    assert stored is not None and stored.game is not None
    assert stored.game.stand_ins == {1, 3} and stored.game.stand_in_moves() == {1, 3}
