"""No request can hurt the server (issue 13, items 3 and 4): every malformed input gets a 4xx
or one error message, a full disk a 503 ``storage`` everywhere, and no client can take more
than its share (sockets per seat and per address, a connect of constant cost, the origin
check, bodies and headers read within limits)."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import logging
import select
import socket
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from mattis.table import Refusal
from mattis.table.protocol import parse_json
from mattis.web.limits import client_key, origin_allowed
from mattis.web.server import uvicorn_config

from .web_helpers import (
    FAST,
    create_table,
    next_state,
    play_to_my_turn,
    receive,
    served_in_thread,
    socket_url,
    web_client,
)


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with web_client(tmp_path / "web.sqlite3") as test_client:
        yield test_client


def lobby_of(client: TestClient) -> Any:
    return client.app.state.lobby  # type: ignore[attr-defined]


DEEP_ARRAY = "[" * 8000
DEEP_OBJECT = '{"a":' * 3000
HOSTILE_TEXTS = [
    (DEEP_ARRAY, "bad_json"),
    (DEEP_OBJECT, "bad_json"),
    ('{"rules": "\\ud800"}', "bad_text"),
    ('{"set": {"\\udfff": 1}}', "bad_text"),
    ('{"name": "\\ud800Kari"}', "bad_text"),
    ('{"seats": [{"kind": "human", "name": "a\\uDBFFb"}]}', "bad_text"),
    ('{"players": ' + "9" * 5000 + "}", "bad_json"),
]


# ------------------------------------------------------------------ item 4: malformed input


@pytest.mark.parametrize(("text", "code"), HOSTILE_TEXTS)
def test_hostile_bodies_get_a_400_on_create_and_join(client: TestClient, text: str, code: str) -> None:
    waiting = create_table(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}])
    for path in ("/api/tables", f"/api/tables/{waiting['table']}/join"):
        response = client.post(path, content=text.encode(), headers={"content-type": "application/json"})
        assert response.status_code == 400, (path, response.text)
        assert response.json()["code"] == code and response.json()["message"]
    assert client.get(f"/api/tables/{waiting['table']}").json()["seats"][1]["kind"] == "open"


@pytest.mark.parametrize(("text", "code"), HOSTILE_TEXTS)
def test_hostile_bodies_get_a_400_on_every_player_and_group_change(client: TestClient, text: str,
                                                                    code: str) -> None:
    """Issue 25: the new endpoints read bodies as every other does."""
    player = client.post("/api/players", json={"name": "Mormor"}).json()
    auth = {"authorization": f"Bearer {player['key']}", "content-type": "application/json"}
    group = client.post("/api/groups", json={"name": "Hansen"}, headers=auth).json()
    for method, path in (("POST", "/api/players"), ("PATCH", "/api/players/me"), ("POST", "/api/groups"),
                         ("PATCH", f"/api/groups/{group['group']}"),
                         ("POST", f"/api/groups/{group['group']}/join"), ("POST", "/api/players/claim")):
        response = client.request(method, path, content=text.encode(), headers=auth)
        assert response.status_code == 400, (path, response.text)
        assert response.json()["code"] == code and response.json()["message"]
    assert client.get(f"/api/groups/{group['group']}", headers=auth).json()["name"] == "Hansen"


def test_player_and_group_bodies_over_the_limit_get_413(client: TestClient) -> None:
    player = client.post("/api/players", json={"name": "Mormor"}).json()
    auth = {"authorization": f"Bearer {player['key']}"}
    for path in ("/api/players", "/api/groups", "/api/players/claim"):
        response = client.post(path, content=b'{"name": "' + b"x" * 20_000 + b'"}', headers=auth)
        assert response.status_code == 413 and response.json()["code"] == "too_large"


def test_players_and_groups_count_against_the_address_rate(tmp_path: Path) -> None:
    settings = dataclasses.replace(FAST, posts_per_minute=1.0, reads_per_minute=1.0)
    with web_client(tmp_path / "web.sqlite3", settings) as client:
        made = [client.post("/api/players", json={"name": f"P{index}"}) for index in range(21)]
        assert [answer.status_code for answer in made[:20]] == [201] * 20
        assert made[20].status_code == 429 and made[20].json()["code"] == "rate_limited"
        auth = {"authorization": f"Bearer {made[0].json()['key']}"}
        reads = [client.get("/api/players/me", headers=auth).status_code for _ in range(61)]
        assert reads[:60] == [200] * 60 and reads[60] == 429


def test_a_pair_of_surrogate_escapes_is_an_emoji_not_an_error(client: TestClient) -> None:
    table = create_table(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}])
    joined = client.post(f"/api/tables/{table['table']}/join", content=b'{"name": "Ola \\ud83d\\ude00"}')
    assert joined.status_code == 200
    assert client.get(f"/api/tables/{table['table']}").json()["seats"][1]["name"] == "Ola \U0001f600"


@pytest.mark.parametrize("body", [b"\xed\xa0\x80", b'{"name": "\xed\xa0\x80"}', b"\xff\xfe{}", b'"\xc3'])
def test_bodies_that_are_not_utf8_get_bad_json(client: TestClient, body: bytes) -> None:
    response = client.post("/api/tables", content=body)
    assert response.status_code == 400 and response.json()["code"] == "bad_json"


@pytest.mark.parametrize("game", ["99999999999999999999", "9" * 5000, "²", "١", "-1", "1.0", " 1", "0x1"])
def test_odd_game_numbers_get_a_400(client: TestClient, game: str) -> None:
    table = create_table(client)
    response = client.get(f"/api/tables/{table['table']}/record", params={"game": game})
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


def test_a_game_that_does_not_exist_is_a_404(client: TestClient) -> None:
    table = create_table(client)
    for game in ("0", "999999999"):
        assert client.get(f"/api/tables/{table['table']}/record?game={game}").status_code == 404


@pytest.mark.parametrize("seed", [-1, 2**64, 10**30, 1.5, True, "5", [1]])
def test_a_seed_outside_0_to_2_64_is_refused_at_the_api(client: TestClient, seed: object) -> None:
    response = client.post("/api/tables", json={"seed": seed})
    assert response.status_code == 400 and "seed" in response.json()["message"]


def test_the_largest_seed_is_accepted(client: TestClient) -> None:
    assert client.post("/api/tables", json={"seed": 2**64 - 1}).status_code == 201


@pytest.mark.parametrize(("text", "code"), [
    *HOSTILE_TEXTS,
    ('{"type": "act", "action": "\\ud800"}', "bad_text"),
    ('{"type": "\\udc00"}', "bad_text"),
    ('{"type": "lang", "lang": "nb\\ud800"}', "bad_text"),
    ('[' * 200 + ']' * 200, "bad_message"),
])
def test_hostile_socket_messages_get_one_error_and_the_socket_lives(client: TestClient, text: str,
                                                                     code: str) -> None:
    table = create_table(client, seed=3)
    with client.websocket_connect(socket_url(table)) as ws:
        state = play_to_my_turn(ws)
        ws.send_text(text[:4096])
        refusal = receive(ws)
        assert refusal["type"] == "error" and refusal["code"] == code and refusal["message"]
        ws.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        assert next_state(ws)["view"]["history"]


def test_parse_json_refuses_and_never_echoes() -> None:
    for text, code in HOSTILE_TEXTS:
        with pytest.raises(Refusal) as refused:
            parse_json(text)
        assert refused.value.code == code and refused.value.status == 400
        assert "\ud800" not in refused.value.message("en")
    assert parse_json('{"a": "\\u00e5"}') == {"a": "å"}


def test_a_refusal_that_would_echo_a_surrogate_is_still_sendable() -> None:
    message = Refusal("bad_request", "no option \ud800").message("en")
    assert message.encode("utf-8") and "\ud800" not in message


# ------------------------------------------------------------------ item 4: a full disk


def full_disk(*_: Any) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def database_full(*_: Any) -> None:
    raise OperationalError("INSERT", {}, Exception("database or disk is full"))


@pytest.mark.parametrize("failure", [full_disk, database_full])
def test_a_full_disk_gives_503_storage_on_every_write_and_changes_nothing(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, failure: Any) -> None:
    store = lobby_of(client).store
    waiting = create_table(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
    playing = create_table(client, seed=5)
    with client.websocket_connect(socket_url(waiting)) as host, \
            client.websocket_connect(socket_url(playing)) as player:
        next_state(host)
        state = play_to_my_turn(player)
        for name in ("update_table", "add_actions"):  # every write of a change goes through these
            monkeypatch.setattr(store, name, failure)
        created = client.post("/api/tables", json={})
        assert created.status_code == 503 and created.json()["code"] == "storage"
        joined = client.post(f"/api/tables/{waiting['table']}/join", json={"name": "Ola"})
        assert joined.status_code == 503 and joined.json()["code"] == "storage"
        host.send_text(json.dumps({"type": "bot", "seat": 1, "level": "easy"}))
        assert receive(host)["code"] == "storage"
        player.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        assert receive(player)["code"] == "storage"
        monkeypatch.undo()
        info = client.get(f"/api/tables/{waiting['table']}").json()
        assert [seat["kind"] for seat in info["seats"]] == ["human", "open", "open"]
        assert client.post(f"/api/tables/{waiting['table']}/join", json={"name": "Ola"}).json()["seat"] == 1
        player.send_text(json.dumps({"type": "state"}))
        assert next_state(player)["legal"] == state["legal"]
    assert len(lobby_of(client).tables) == 2


def test_a_full_disk_refuses_the_next_game_and_it_deals_once_there_is_room(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table = create_table(client, seed=6)
    with client.websocket_connect(socket_url(table)) as ws:
        while True:
            state = play_to_my_turn(ws)
            if state["view"]["phase"] == "over":
                break
            ws.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        monkeypatch.setattr(lobby_of(client).store, "add_actions", database_full)
        ws.send_text(json.dumps({"type": "again"}))
        assert receive(ws)["code"] == "storage"
        assert client.get(f"/api/tables/{table['table']}").json()["status"] == "over"
        monkeypatch.undo()
        ws.send_text(json.dumps({"type": "again"}))
        assert next_state(ws)["table"]["game"] == 2
    assert client.get(f"/api/tables/{table['table']}/record?game=2").json()["code"] == "game_not_over"


def test_a_really_full_sqlite_file_gives_storage(client: TestClient) -> None:
    """SQLite's own "database or disk is full", from a file that may not grow."""
    store = lobby_of(client).store
    table = create_table(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}])

    def no_growth(dbapi_connection: Any, _record: Any) -> None:
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    event.listen(store.engine, "connect", no_growth)
    store.engine.dispose()
    statuses = [client.post("/api/tables", json={}).status_code for _ in range(15)]
    first_refusal = statuses.index(503)  # the free room in the last pages fills, then no more
    assert set(statuses[:first_refusal]) <= {201} and set(statuses[first_refusal:]) == {503}
    assert client.post("/api/tables", json={}).json()["code"] == "storage"
    assert client.get(f"/api/tables/{table['table']}").status_code == 200
    event.remove(store.engine, "connect", no_growth)
    store.engine.dispose()
    assert client.post("/api/tables", json={}).status_code == 201


# ------------------------------------------------------------------ item 3: sockets


def test_sockets_per_seat_are_capped(tmp_path: Path) -> None:
    with web_client(tmp_path / "cap.sqlite3", dataclasses.replace(FAST, max_sockets_per_seat=2)) \
            as client:
        table = create_table(client, seed=1)
        with client.websocket_connect(socket_url(table)) as first, \
                client.websocket_connect(socket_url(table)) as second:
            next_state(first)
            next_state(second)
            with client.websocket_connect(socket_url(table)) as third:
                refusal = receive(third)
                assert refusal["code"] == "too_many_sockets"
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_text()
                assert closed.value.code == 1013
        with client.websocket_connect(socket_url(table)) as again:  # room once they closed
            assert next_state(again)["seat"] == 0


def test_sockets_per_address_are_capped_over_all_tables(tmp_path: Path) -> None:
    with web_client(tmp_path / "cap.sqlite3", dataclasses.replace(FAST, max_sockets_per_address=3)) \
            as client:
        tables = [create_table(client, seed=index) for index in range(4)]
        with client.websocket_connect(socket_url(tables[0])) as a, \
                client.websocket_connect(socket_url(tables[1])) as b, \
                client.websocket_connect(socket_url(tables[2])) as c:
            for ws in (a, b, c):
                next_state(ws)
            with client.websocket_connect(socket_url(tables[3])) as fourth:
                assert receive(fourth)["code"] == "too_many_sockets"
        assert not lobby_of(client).sockets_by_address
        with client.websocket_connect(socket_url(tables[3])) as fourth:
            assert next_state(fourth)["seat"] == 0


def test_a_connect_costs_one_state_and_others_hear_only_of_a_first_or_last_socket(
        client: TestClient) -> None:
    table = create_table(client, seats=[{"kind": "human", "name": "Kari"}, {"kind": "open"},
                                        {"kind": "bot"}])
    friend = client.post(f"/api/tables/{table['table']}/join", json={"name": "Ola"}).json()
    live = lobby_of(client).tables[table["table"]]
    built: list[int] = []
    real_state_message = live.session.state_message

    def counted(reader: Any) -> Any:
        built.append(reader.seat)
        return real_state_message(reader)

    live.session.state_message = counted
    with client.websocket_connect(socket_url({"table": table["table"], **friend})) as ola:
        next_state(ola)
        built.clear()
        with client.websocket_connect(socket_url(table)) as kari:  # Kari's first: everyone hears
            assert next_state(kari)["table"]["seats"][0]["connected"] is True
            assert next_state(ola)["table"]["seats"][0]["connected"] is True
            assert sorted(built) == [0, 1]
            built.clear()
            others = [client.websocket_connect(socket_url(table)) for _ in range(5)]
            for other in others:
                next_state(other.__enter__())
            assert built == [0] * 5  # one state per connect, nothing for the others
            built.clear()
            for other in others:
                other.__exit__(None, None, None)
            assert built == []  # nor when a socket that is not the last one closes
            ola.send_text(json.dumps({"type": "state"}))
            assert next_state(ola)["table"]["seats"][0]["connected"] is True
        assert next_state(ola)["table"]["seats"][0]["connected"] is False  # the last one: told


def test_only_the_servers_own_pages_may_open_sockets(tmp_path: Path) -> None:
    settings = dataclasses.replace(FAST, allowed_origins=frozenset({"https://friends.example"}))
    with web_client(tmp_path / "origin.sqlite3", settings) as client:
        table = create_table(client, seed=2)
        for origin in ("http://testserver", "https://friends.example", None):
            headers = {"origin": origin} if origin else {}
            with client.websocket_connect(socket_url(table), headers=headers) as ws:
                assert next_state(ws)["seat"] == 0
        for origin in ("http://evil.example", "http://testserver.evil.example", "null"):
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect(socket_url(table), headers={"origin": origin}):
                pass
            assert refused.value.code == 1008


def test_origin_rules() -> None:
    allowed = frozenset({"https://friends.example"})
    assert origin_allowed(None, "mattis.example", frozenset())
    assert origin_allowed("https://Mattis.example", "mattis.example", frozenset())
    assert origin_allowed("http://localhost:8000", "localhost:8000", frozenset())
    assert not origin_allowed("http://localhost:8001", "localhost:8000", frozenset())
    assert origin_allowed("https://friends.example/", "mattis.example", allowed)
    assert not origin_allowed("https://friends.example.evil", "mattis.example", allowed)
    assert not origin_allowed("null", "mattis.example", frozenset())


def test_ipv6_clients_count_per_64_and_ipv4_per_address() -> None:
    one_network = "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff:ffff:ffff:ffff") == one_network
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("192.0.2.7") != client_key("192.0.2.8")
    assert client_key("testclient") == "testclient"


def test_one_64_shares_one_allowance_of_tables(client: TestClient) -> None:
    lobby = lobby_of(client)
    for index in range(20):
        lobby.check_address(f"2001:db8:5:5::{index + 1:x}")
    with pytest.raises(Refusal) as refused:
        lobby.check_address("2001:db8:5:5:abcd::1")
    assert refused.value.code == "rate_limited"
    lobby.check_address("2001:db8:5:6::1")  # the next /64 has its own


def test_proxy_headers_are_believed_only_from_named_proxies() -> None:
    plain = uvicorn_config(None, "127.0.0.1", 0, FAST)
    assert plain.proxy_headers is False
    proxied = uvicorn_config(None, "127.0.0.1", 0, FAST, forwarded_allow_ips="10.0.0.2")
    assert proxied.proxy_headers is True and proxied.forwarded_allow_ips == "10.0.0.2"


# ------------------------------------------------------------------ item 3: slow and large clients


def raw_request(base: str, data: bytes) -> socket.socket:
    address = urlsplit(base)
    connection = socket.create_connection((address.hostname or "", address.port or 80), timeout=10)
    connection.sendall(data)
    return connection


def read_all(connection: socket.socket) -> bytes:
    """Everything until the server closes the connection."""
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def read_response(connection: socket.socket, start: bytes = b"") -> bytes:
    """One whole HTTP response (headers and a ``Content-Length`` body)."""
    data = start
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length and (chunk := connection.recv(65536)):
        body += chunk
    return head + b"\r\n\r\n" + body


SLOW = dataclasses.replace(FAST, header_timeout=0.5, body_timeout=0.5)


def test_a_declared_huge_body_is_refused_before_it_is_sent(tmp_path: Path) -> None:
    with served_in_thread(tmp_path / "big.sqlite3", SLOW) as base:
        connection = raw_request(base, b"POST /api/tables HTTP/1.1\r\nHost: x\r\n"
                                       b"Content-Type: application/json\r\nContent-Length: 209715200\r\n\r\n")
        answer = read_response(connection)
        assert answer.startswith(b"HTTP/1.1 413") and b'"too_large"' in answer


def test_a_chunked_body_is_refused_as_soon_as_it_passes_the_limit(tmp_path: Path) -> None:
    with served_in_thread(tmp_path / "big.sqlite3", SLOW) as base:
        connection = raw_request(base, b"POST /api/tables HTTP/1.1\r\nHost: x\r\n"
                                       b"Transfer-Encoding: chunked\r\n\r\n")
        sent = 0
        with contextlib.suppress(OSError):  # the server may close while a chunk is on its way
            while sent < 8 * 2**20 and not select.select([connection], [], [], 0.01)[0]:
                connection.sendall(b"1000\r\n" + b"x" * 4096 + b"\r\n")
                sent += 4096
        answer = read_response(connection)
        assert answer.startswith(b"HTTP/1.1 413") and b'"too_large"' in answer and sent < 2**20


def test_a_body_that_comes_too_slowly_gets_408(tmp_path: Path) -> None:
    with served_in_thread(tmp_path / "slow.sqlite3", SLOW) as base:
        started = time.monotonic()
        connection = raw_request(base, b"POST /api/tables HTTP/1.1\r\nHost: x\r\n"
                                       b"Content-Length: 100\r\n\r\n{\"rules\"")
        answer = read_response(connection)
        assert answer.startswith(b"HTTP/1.1 408") and b'"slow_body"' in answer
        assert time.monotonic() - started < 5


def test_headers_that_never_end_lose_the_connection_but_sockets_live_on(tmp_path: Path) -> None:
    with served_in_thread(tmp_path / "headers.sqlite3", SLOW) as base:
        started = time.monotonic()
        connection = raw_request(base, b"GET /api/options HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        assert read_all(connection) == b""
        assert 0.4 < time.monotonic() - started < 5
        idle = raw_request(base, b"")
        assert read_all(idle) == b""  # a connection that says nothing goes too
        table = json.loads(raw_request(base, b"POST /api/tables HTTP/1.1\r\nHost: x\r\n"
                                             b"Content-Length: 2\r\nConnection: close\r\n\r\n{}")
                           .makefile("rb").read().split(b"\r\n\r\n", 1)[1])
        url = base.replace("http", "ws") + socket_url(table)
        with connect(url) as ws:
            json.loads(ws.recv(timeout=10))
            time.sleep(1.0)  # twice the header deadline
            ws.send(json.dumps({"type": "state"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"


def test_a_client_gone_mid_body_is_one_log_line(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                 capfd: pytest.CaptureFixture[str]) -> None:
    with served_in_thread(tmp_path / "gone.sqlite3", SLOW) as base, caplog.at_level(logging.INFO):
        connection = raw_request(base, b"POST /api/tables HTTP/1.1\r\nHost: x\r\n"
                                       b"Content-Length: 100\r\n\r\n{\"ru")
        time.sleep(0.1)
        connection.close()
        deadline = time.monotonic() + 5
        while not any("left during" in record.getMessage() for record in caplog.records):
            assert time.monotonic() < deadline, [record.getMessage() for record in caplog.records]
            time.sleep(0.05)
        time.sleep(0.2)
    lines = [record for record in caplog.records if record.name.startswith("mattis")]
    assert len(lines) == 1 and lines[0].exc_info is None and "POST '/api/tables'" in lines[0].getMessage()
    printed = capfd.readouterr()
    assert "Traceback" not in printed.err + printed.out and "Exception" not in printed.err


def test_serve_refuses_an_allowed_origin_that_is_not_an_origin(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from mattis.cli.app import app

    for origin in ("mattis.example", "https://mattis.example/page", "ftp://mattis.example"):
        result = CliRunner().invoke(app, ["serve", "--db", f"sqlite:///{tmp_path / 'o.sqlite3'}",
                                          "--allow-origin", origin])
        assert result.exit_code == 2 and result.stderr.startswith("error: --allow-origin: expected an origin")
