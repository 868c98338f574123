"""A coach on the web server (issue 26, item 2): the coach's socket (``?coach=SECRET``), the
coach page's address, the link's QR code, and a coached group game in its record, its
ledger history and its export. The table layer's own tests are ``test_table_coach.py``."""

from __future__ import annotations

import csv
import io
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .test_web_groups import join, new_group, new_player, play_out
from .web_helpers import receive, socket_url, web_client


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with web_client(tmp_path / "web.sqlite3") as test_client:
        yield test_client


def coach_link(socket: Any) -> str:
    """Ask for a coach link on a seat's socket: its address (``/t/ID?coach=…``)."""
    socket.send_text(json.dumps({"type": "coach_link"}))
    while True:
        message = receive(socket)
        if message["type"] == "coach_link":
            return str(message["url"])


def test_a_coached_group_game_is_watched_over_the_socket_and_marked_in_record_ledger_and_export(
        client: TestClient) -> None:
    kari, ola = new_player(client, "Kari"), new_player(client, "Ola")
    group = new_group(client, kari)
    join(client, group, ola)
    body = {"rules": "pagat", "players": 3, "seed": 11, "group": group["group"],
            "seats": [{"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]}
    table = client.post("/api/tables", json=body, headers=kari["auth"]).json()
    table_id = table["table"]
    with client.websocket_connect(socket_url(table)) as socket:
        url = coach_link(socket)
    assert url.startswith(f"/t/{table_id}?coach=")
    secret = url.split("coach=", 1)[1]
    page = client.get(url)  # the coach page is the table page
    assert page.status_code == 200 and "table.js" in page.text
    qr = client.get(f"/api/tables/{table_id}/coach.svg", params={"coach": secret})
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    assert client.get(f"/api/tables/{table_id}/coach.svg", params={"coach": "wrong"}).status_code == 404
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Ola"}, headers=ola["auth"]).json()
    coach_states: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{table_id}?coach={secret}&lang=nb") as coach:
        first = receive(coach)
        assert first["type"] == "state" and first["seat"] == 0 and first["table"]["seats"][0]["coached"]
        coach.send_text(json.dumps({"type": "act", "action": first["legal"][0] if first["legal"] else "7h"}))
        finals: list[dict[str, Any]] = [{}, {}]

        def seat(index: int, seat_table: dict[str, Any]) -> None:
            with client.websocket_connect(socket_url(seat_table)) as socket:
                finals[index] = play_out(socket)

        threads = [threading.Thread(target=seat, args=(index, seat_table)) for index, seat_table in
                   enumerate((table, {"table": table_id, "token": joined["token"]}))]
        for thread in threads:
            thread.start()
        while not coach_states or "result" not in coach_states[-1]:
            message = receive(coach)
            if message["type"] == "error":
                assert message["code"] == "bad_message"  # the coach may not play
            else:
                coach_states.append(message)
        for thread in threads:
            thread.join(60)
    assert {state["seat"] for state in coach_states} == {0}
    assert coach_states[-1]["result"]["losers"] == finals[0]["result"]["losers"]
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["coached"] == [0]
    ledger = client.get(f"/api/groups/{group['group']}/ledger?season=all", headers=ola["auth"]).json()
    entry = ledger["history"][0]
    assert entry["coached"] == [kari["player"]]
    assert [seat["coached"] for seat in entry["seats"]] == [True, False, False]
    export = client.get(f"/api/groups/{group['group']}/export.csv", headers=ola["auth"])
    rows = list(csv.DictReader(io.StringIO(export.text)))
    assert [row["coached"] for row in rows] == ["1", "0", "0"]


def test_revoking_closes_the_coachs_socket_and_its_link_is_refused_after(client: TestClient) -> None:
    table = client.post("/api/tables", json={"players": 3}).json()
    with client.websocket_connect(socket_url(table)) as socket:
        url = coach_link(socket)
        secret = url.split("coach=", 1)[1]
        with client.websocket_connect(f"/ws/tables/{table['table']}?coach={secret}") as coach:
            assert receive(coach)["type"] == "state"
            socket.send_text(json.dumps({"type": "coach_revoke"}))
            assert receive(coach)["code"] == "coach_ended"
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(coach)
            assert closed.value.code == 1008
    with client.websocket_connect(f"/ws/tables/{table['table']}?coach={secret}") as again:
        assert receive(again)["code"] == "bad_token"
    assert client.get(f"/api/tables/{table['table']}/coach.svg", params={"coach": secret}).status_code == 404
