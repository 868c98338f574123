"""Refusals never repeat the client's text (issue 29.9): over HTTP, on a socket and from the
offline app's worker, a refusal names the field or the code in our words, and nothing a
client sent (an option's name or value, a message type, a query parameter) comes back.

Every hostile input carries a marker; every answer to it is searched for the marker.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from .test_offline_tables import SEATS, Dictionary, Page
from .web_helpers import FAST, create_table, next_state, receive, socket_url, web_client

MARK = "Zq9Hostile"
"""Text no answer of ours contains (checked case-blind)."""
LONG = MARK * 1300
"""About 13 KB: within the body limit, so the whole refusal path is taken."""


def hostile_values() -> list[Any]:
    return [MARK, LONG, [MARK], {MARK: MARK}, f"<script>{MARK}</script>"]


def create_bodies() -> list[Any]:
    """Create bodies with the marker in every field and shape the API reads."""
    bodies: list[Any] = [[MARK], MARK, {"rules": LONG}, {"rules": "pagat", MARK: MARK}]
    for value in hostile_values():
        bodies += [
            {"rules": value}, {"players": value}, {"seed": value}, {"seats": value},
            {"set": {LONG: 1}}, {"set": {MARK: value}}, {"set": value},
            {"set": {"min_sequence": value}}, {"set": {"trick": value}}, {"set": {"chance": value}},
            {"seats": [{"kind": value}, {"kind": "bot"}, {"kind": "bot"}]},
            {"seats": [{"kind": "human", "name": value}, {"kind": "bot"}, {"kind": "bot"}]},
            {"seats": [{"kind": "human"}, {"kind": "bot", "level": value}, {"kind": "bot"}]},
            {"seats": [{"kind": "human"}, {"kind": "bot", "name": value}, value]},
        ]
    bodies += [{"set": {"min_players": 6, "max_players": 3}}, {"set": {"min_sequence": 99}}]
    return bodies


def assert_no_echo(text: str, where: object) -> None:
    assert MARK.lower() not in text.lower(), (where, text[:300])


@pytest.fixture
def client(tmp_path: Path) -> Any:
    settings = dataclasses.replace(FAST, posts_per_minute=1e6)
    with web_client(tmp_path / "echo.sqlite3", settings) as test_client:
        yield test_client


def test_http_refusals_never_repeat_the_body_or_the_query(client: TestClient) -> None:
    waiting = create_table(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}])
    statuses = []
    for body in create_bodies():
        response = client.post("/api/tables", json=body)
        statuses.append(response.status_code)
        assert_no_echo(response.text + str(response.headers), body)
    # kept: a name (shown at the table, never in an answer) and a field the API does not read
    assert statuses.count(201) == 4 and set(statuses) == {201, 400, 413}  # 413: the marker twice
    for body in [MARK, [MARK], {"name": [MARK]}, {"name": {MARK: 1}}, {"name": 7, MARK: MARK}]:
        response = client.post(f"/api/tables/{waiting['table']}/join", json=body)
        assert response.status_code == 400
        assert_no_echo(response.text, body)
    table = waiting["table"]
    for url in [f"/api/tables/{MARK}", f"/api/tables/{MARK}/record", f"/api/tables/{MARK}/join",
                f"/api/tables/{table}/record?game={MARK}", f"/api/tables/{table}/record?game={LONG}",
                f"/api/tables/{table}?lang={MARK}", f"/api/options?lang={MARK}&host={MARK}",
                f"/api/tables/{MARK}/qr.svg"]:
        response = client.post(url, json={}) if url.endswith("/join") else client.get(url)
        if response.status_code >= 400:
            assert_no_echo(response.text, url)
    assert client.get(f"/api/tables/{table}/record?game={MARK}").json()["code"] == "bad_request"


def socket_messages() -> list[Any]:
    """Socket messages with the marker in every field a message has."""
    messages: list[Any] = [[MARK], MARK, {"type": MARK}, {"type": LONG[:4000]}, {"type": "act", MARK: MARK}]
    for value in hostile_values():
        messages += [
            {"type": "act", "action": value}, {"type": "act", "action": f"{MARK[:6]}h"},
            {"type": "bot", "seat": value, "level": "easy"}, {"type": "bot", "seat": 1, "level": value},
            {"type": "lang", "lang": value}, {"type": "react", "reaction": value},
            {"type": "hint", "extra": value}, {"type": "again", "seat": value},
        ]
    return messages


def test_socket_refusals_never_repeat_a_message(client: TestClient) -> None:
    table = create_table(client, seed=3)
    with client.websocket_connect(socket_url(table)) as ws:
        next_state(ws)
        for message in socket_messages():
            ws.send_text(json.dumps(message)[:4096])
            ws.send_text(json.dumps({"type": "state"}))  # every message is answered before this one's state
            while (answer := receive(ws))["type"] != "state":
                assert_no_echo(json.dumps(answer, ensure_ascii=False), message)
    for token in (MARK, LONG[:2000]):
        with client.websocket_connect(f"/ws/tables/{table['table']}?token={token}&lang={MARK}") as ws:
            assert_no_echo(json.dumps(receive(ws)), token)
    with client.websocket_connect(f"/ws/tables/{MARK}?token={MARK}") as ws:
        assert receive(ws)["code"] == "bad_token"


def test_the_offline_worker_never_repeats_a_request() -> None:
    async def scenario() -> None:
        page = Page(Dictionary())
        for body in create_bodies():
            answer = await page.call("createTable", body=body)
            if not answer["ok"]:
                assert_no_echo(json.dumps(answer), body)
        assert_no_echo(json.dumps(await page.call(MARK)), "name")
        assert_no_echo(json.dumps(await page.call("tableInfo", tableId=MARK)), "tableId")
        created = (await page.call("createTable", body={"players": 3, "seats": SEATS}))["data"]
        assert_no_echo(json.dumps(await page.call("record", tableId=created["table"], game=MARK)), "game")
        await page.open("c1", created["table"], created["token"])
        for message in socket_messages():
            await page.send("c1", message)
        errors = [m for m in page.messages("c1") if m["type"] == "error"]
        assert len(errors) >= len(socket_messages()) - 8
        assert_no_echo(json.dumps(page.messages("c1")), "socket")
        await page.tables.close()

    asyncio.run(scenario())
