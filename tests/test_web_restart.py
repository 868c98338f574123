"""Nothing is lost when the server is killed (issue 8, item 5): a real ``mattis serve``
process, part of a game over a real WebSocket, SIGKILL, a restart, and the game finished
from its last action."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

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
