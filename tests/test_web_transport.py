"""No client can tire the server out at the transport (issue 29, items 1 and 4): every
handshake is answered or cut within the header deadline, a head over 16 KiB is refused
however it arrives, a body that does not come in time and a response nobody reads close
their connections, one address holds a bounded number of HTTP connections, and thousands of
hostile handshakes leave a real ``mattis serve`` answering and its memory where it was."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import resource
import socket
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]
import pytest
from websockets.client import ClientProtocol
from websockets.sync.client import connect
from websockets.uri import parse_uri

from mattis.web.server import REFUSAL_WAIT, ConnectionGuard, uvicorn_config
from mattis.web.settings import Settings

from .web_helpers import FAST, free_port, served_in_thread, server, socket_url

QUICK = dataclasses.replace(FAST, header_timeout=30.0, body_timeout=0.5, write_timeout=1.0)
"""Long header deadline (an answer "at once" cannot be the deadline's), short body and write
deadlines."""


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def open_from(port: int, source: str = "127.0.0.1", receive_buffer: int | None = None) -> socket.socket:
    """A connection to the server from ``source`` (any 127.x.y.z is this machine), with a
    small receive buffer if asked (set before connecting, so the window stays small)."""
    connection = socket.socket()
    if receive_buffer is not None:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    connection.bind((source, 0))
    connection.connect(("127.0.0.1", port))
    connection.settimeout(10)
    return connection


def until_closed(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a reset ends it too)."""
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := connection.recv(65536):
            data += chunk
    return data


def read_response(connection: socket.socket) -> bytes:
    """One response with a ``Content-Length`` body, leaving the connection open."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += connection.recv(65536)
    return head + b"\r\n\r\n" + body


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def body_of(answer: bytes) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(answer.partition(b"\r\n\r\n")[2])
    return data


UPGRADE = (b"GET /ws/tables/nothing?token=x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
           b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           b"Sec-WebSocket-Version: 13\r\n")


def many_headers(count: int) -> bytes:
    return b"".join(b"X-N%d: a\r\n" % index for index in range(count))


async def lifespan(receive: Any, send: Any) -> None:
    while True:
        message = await receive()
        await send({"type": message["type"] + ".complete"})
        if message["type"] == "lifespan.shutdown":
            return


# ------------------------------------------------------------------ item 1: handshakes


@pytest.mark.parametrize(("head", "status"), [
    (UPGRADE + many_headers(130) + b"\r\n", 431),  # websockets reads at most 128 headers
    (UPGRADE + b"X-Long: " + b"a" * 9000 + b"\r\n\r\n", 431),  # nor a line over 8 KiB
    (UPGRADE + b"Content-Length: 5\r\n\r\nhello", 400),  # an upgrade has no body
    (UPGRADE.replace(b"Sec-WebSocket-Key", b"X-Key") + b"\r\n", 400),
    (UPGRADE.replace(b"Sec-WebSocket-Version: 13", b"Sec-WebSocket-Version: 99") + b"\r\n", 400),
    (UPGRADE + b"".join(b"X-P%d: %s\r\n" % (index, b"b" * 1000) for index in range(60)) + b"\r\n", 431),
])
def test_a_refused_upgrade_is_answered_and_closed_at_once(tmp_path: Path, head: bytes, status: int) -> None:
    with served_in_thread(tmp_path / "ws.sqlite3", QUICK) as base:
        connection = open_from(port_of(base))
        started = time.monotonic()
        connection.sendall(head)
        answer = until_closed(connection)  # the deadline is 30 s: this must be the answer
        assert status_of(answer) == status, answer[:200]
        assert time.monotonic() - started < 5


def test_an_upgrade_head_that_never_ends_is_cut_at_the_deadline(tmp_path: Path) -> None:
    settings = dataclasses.replace(QUICK, header_timeout=1.0)
    with served_in_thread(tmp_path / "ws.sqlite3", settings) as base:
        connection = open_from(port_of(base))
        started = time.monotonic()
        connection.sendall(UPGRADE + many_headers(100))  # never the blank line
        assert until_closed(connection) == b""
        assert 0.9 < time.monotonic() - started < 5


def test_the_deadline_covers_the_whole_handshake(tmp_path: Path) -> None:
    """A head that takes 2.5 s of a 3 s deadline leaves the app 0.5 s to answer the upgrade,
    not a fresh 3 s: the socket is cut 3 s after the connection opened, not 5.5 s."""
    asked: list[str] = []

    async def never_answers(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        asked.append(scope["type"])
        await asyncio.sleep(3600)

    settings = dataclasses.replace(QUICK, header_timeout=3.0)
    with served_in_thread(tmp_path / "ws.sqlite3", settings, app=never_answers) as base:
        connection = open_from(port_of(base))
        started = time.monotonic()
        connection.sendall(UPGRADE)
        time.sleep(2.5)
        connection.sendall(b"\r\n")
        assert until_closed(connection) == b""  # no 101, no answer at all: cut
        assert 2.9 < time.monotonic() - started < 4.8
        assert asked == ["websocket"]


# ------------------------------------------------------------------ item 4: heads


@pytest.mark.parametrize("pieces", [1, 60], ids=["one packet", "in pieces"])
def test_headers_over_16_kib_get_431_however_they_arrive(tmp_path: Path, pieces: int) -> None:
    head = (b"GET /api/options HTTP/1.1\r\nHost: x\r\n" +
            b"".join(b"X-P%d: %s\r\n" % (index, b"b" * 1000) for index in range(60)) + b"\r\n")
    with served_in_thread(tmp_path / "h.sqlite3", QUICK) as base:
        connection = open_from(port_of(base))
        size = len(head) // pieces + 1
        with contextlib.suppress(OSError):  # the server may refuse before the last piece
            for start in range(0, len(head), size):
                connection.sendall(head[start:start + size])
                time.sleep(0.01 if pieces > 1 else 0)
        answer = until_closed(connection)
        assert status_of(answer) == 431
        refusal = body_of(answer)
        assert refusal["code"] == "headers_too_large" and refusal["message"]


def test_a_head_just_under_the_limit_and_a_body_beside_it_pass(tmp_path: Path) -> None:
    """The limit counts the head alone: a 15 KiB head passes, and so does a small head with a
    15 KiB body in the same packet; on a kept-alive connection each request counts anew."""
    padding = b"X-Pad: " + b"p" * (15 * 1024) + b"\r\n"
    with served_in_thread(tmp_path / "h.sqlite3", QUICK) as base:
        connection = open_from(port_of(base))
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + padding + b"\r\n")
        assert status_of(read_response(connection)) == 200
        body = b'{"rules": "pagat"}' + b" " * 15000
        connection.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        assert status_of(read_response(connection)) == 201
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + padding + padding + b"\r\n")
        assert status_of(until_closed(connection)) == 431


# ------------------------------------------------------------------ item 4: slow bodies


@pytest.mark.parametrize("framing", ["chunked", "length"])
def test_a_body_that_does_not_arrive_in_time_gets_408_and_the_connection_closes(
        tmp_path: Path, framing: str) -> None:
    """Before, a body trickled on after its 408 kept the connection open (90 s and more)."""
    head = (b"Transfer-Encoding: chunked\r\n\r\n" if framing == "chunked"
            else b"Content-Length: 10000\r\n\r\n")
    with served_in_thread(tmp_path / "b.sqlite3", QUICK) as base:
        connection = open_from(port_of(base))
        connection.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\n" + head)
        connection.settimeout(0.2)
        started = time.monotonic()
        answer, closed = b"", False
        while not closed and time.monotonic() - started < 8:
            with contextlib.suppress(OSError):  # a write after the close may be reset
                connection.sendall(b"1\r\na\r\n" if framing == "chunked" else b"a")
            try:
                chunk = connection.recv(65536)
            except TimeoutError:
                continue
            except ConnectionResetError:
                closed = True
                continue
            answer += chunk
            closed = not chunk
        assert status_of(answer) == 408 and body_of(answer)["code"] == "slow_body"
        assert closed and time.monotonic() - started < 6  # 0.5 s deadline, closed right after


# ------------------------------------------------------------------ item 4: unread responses


def streaming_app(size: int, finished: list[int]) -> Any:
    """An app answering every request with ``size`` bytes in 64 KiB pieces; ``finished``
    gets how many it sent before the send loop ended (all, or the client was cut)."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(size).encode())]})
        await receive()  # the request (no body)
        sent = 0
        piece = b"z" * 65536
        disconnected = asyncio.ensure_future(receive())  # the next message: the client is gone
        while sent < size:
            await send({"type": "http.response.body", "body": piece, "more_body": True})
            sent += len(piece)
            await asyncio.sleep(0)
            if disconnected.done():
                break
        finished.append(sent)
        if sent >= size:
            await send({"type": "http.response.body", "body": b""})

    return app


def test_a_response_nobody_reads_is_cut_after_the_write_timeout(tmp_path: Path) -> None:
    finished: list[int] = []
    size = 256 * 2**20
    with served_in_thread(tmp_path / "w.sqlite3", QUICK, app=streaming_app(size, finished)) as base:
        connection = open_from(port_of(base), receive_buffer=4096)
        connection.sendall(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        deadline = time.monotonic() + 10
        while not finished:  # the server stops writing once it has cut the connection
            assert time.monotonic() < deadline, "the unread response was never cut"
            time.sleep(0.1)
        assert finished[0] < size
        assert len(until_closed(connection)) < size


def test_a_slow_reader_that_keeps_reading_gets_the_whole_response(tmp_path: Path) -> None:
    """The write timeout is a stall, not a time for the whole response: a reader taking
    256 KiB every 0.05 s gets 40 MiB over several times the 2 s timeout. (The server writes
    again once the system's send buffer is half free, so a client must take about half of
    it, up to a few MiB on loopback, within the timeout.)"""
    finished: list[int] = []
    size = 40 * 2**20
    settings = dataclasses.replace(QUICK, write_timeout=2.0)
    with served_in_thread(tmp_path / "w.sqlite3", settings, app=streaming_app(size, finished)) as base:
        connection = open_from(port_of(base), receive_buffer=65536)
        connection.sendall(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        received = 0
        head_length = 0
        started = time.monotonic()
        while received - head_length < size:
            chunk = connection.recv(262144)
            assert chunk, f"cut after {received} bytes"
            if not head_length:
                head_length = chunk.index(b"\r\n\r\n") + 4
            received += len(chunk)
            time.sleep(0.05 * len(chunk) / 262144)
        assert time.monotonic() - started > 2 * settings.write_timeout
        assert finished == [size]


def test_a_socket_whose_client_stops_reading_is_cut(tmp_path: Path) -> None:
    """A seat that asks for its state thousands of times and reads nothing: once the server
    cannot send for the write timeout, the socket is cut and the table lets go of it."""
    with served_in_thread(tmp_path / "s.sqlite3", QUICK) as base:
        table = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{base}/api/tables", data=json.dumps({"rules": "pagat", "players": 3}).encode(),
            method="POST")).read())
        client = ClientProtocol(parse_uri(base.replace("http", "ws") + socket_url(table)))
        connection = open_from(port_of(base), receive_buffer=4096)
        connection.sendall(_handshake(client))
        head = b""
        while b"\r\n\r\n" not in head:
            head += connection.recv(1)
        assert status_of(head) == 101
        client.receive_data(head)
        for _ in range(4000):
            client.send_text(json.dumps({"type": "state"}).encode())
        with contextlib.suppress(OSError):
            connection.sendall(b"".join(client.data_to_send()))
        deadline = time.monotonic() + 20
        while health(base)["connections"]:
            assert time.monotonic() < deadline, "the unread socket was never cut"
            time.sleep(0.2)


def _handshake(client: ClientProtocol) -> bytes:
    client.send_request(client.connect())
    return b"".join(client.data_to_send())


def health(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base}/healthz", timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


# ------------------------------------------------------------------ item 4: connections per address


CAPPED = dataclasses.replace(QUICK, max_connections_per_address=4)


def test_one_address_holds_at_most_its_share_of_http_connections(tmp_path: Path) -> None:
    with served_in_thread(tmp_path / "c.sqlite3", CAPPED) as base:
        port = port_of(base)
        held = [open_from(port) for _ in range(4)]
        time.sleep(0.1)
        extra = open_from(port)
        extra.sendall(b"GET /api/options HTTP/1.1\r\nHost: x\r\nAccept-Language: nb\r\n\r\n")
        answer = until_closed(extra)
        assert status_of(answer) == 429 and b"retry-after: 1" in answer.lower()
        refusal = body_of(answer)
        assert refusal["code"] == "too_many_connections" and "4" in refusal["message"]
        assert refusal["message"].startswith("For mange")  # in the client's language
        elsewhere = open_from(port, "127.0.0.2")  # another address has its own share
        elsewhere.sendall(b"GET /api/options HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status_of(until_closed(elsewhere)) == 200
        silent = open_from(port)  # one that says nothing is not kept waiting for long
        started = time.monotonic()
        assert until_closed(silent) == b""
        assert time.monotonic() - started < REFUSAL_WAIT + 2
        held.pop().close()
        time.sleep(0.2)
        again = open_from(port)  # room again
        again.sendall(b"GET /api/options HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status_of(until_closed(again)) == 200


def test_open_sockets_count_against_the_lobby_not_the_http_share(tmp_path: Path) -> None:
    """A connection counts against the HTTP share until its WebSocket handshake is done;
    then the lobby's own cap per address counts it (it answers in the table's words)."""
    with served_in_thread(tmp_path / "c.sqlite3", CAPPED) as base:
        table = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{base}/api/tables", data=json.dumps({"rules": "pagat", "players": 3}).encode(),
            method="POST")).read())
        url = base.replace("http", "ws") + socket_url(table)
        with contextlib.ExitStack() as sockets:
            for _ in range(6):
                ws = sockets.enter_context(connect(url))
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
            assert health(base)["connections"] == 6


def test_an_ipv6_64_shares_one_http_share_and_proxies_are_not_counted() -> None:
    guard = ConnectionGuard(dataclasses.replace(FAST, max_connections_per_address=2),
                            proxies=lambda host: host == "10.0.0.2")
    first, second = guard.admit("2001:db8:1:2::1"), guard.admit("2001:db8:1:2::ffff")
    assert first is not None and second is not None
    assert guard.admit("2001:db8:1:2:abcd::1") is None
    assert guard.admit("2001:db8:1:3::1") is not None  # the next /64 has its own
    assert all(guard.admit("10.0.0.2") is not None for _ in range(10))
    first.release()
    first.release()  # given back once only
    assert guard.admit("2001:db8:1:2::7") is not None
    assert guard.admit("2001:db8:1:2::8") is None


def test_behind_a_trusted_proxy_the_proxy_limits_connections(tmp_path: Path) -> None:
    """The proxy's own connections are not counted (they carry many clients' requests); its
    clients' sockets are counted by their forwarded address in the lobby."""
    settings = dataclasses.replace(CAPPED, max_connections_per_address=2, max_sockets_per_address=1)
    with served_in_thread(tmp_path / "p.sqlite3", settings, forwarded_allow_ips="127.0.0.1") as base:
        held = [open_from(port_of(base)) for _ in range(5)]
        for connection in held:
            connection.sendall(b"GET /api/options HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert all(status_of(until_closed(connection)) == 200 for connection in held)
        table = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{base}/api/tables", data=json.dumps({"rules": "pagat", "players": 3}).encode(),
            method="POST")).read())
        url = base.replace("http", "ws") + socket_url(table)
        with connect(url, additional_headers={"X-Forwarded-For": "192.0.2.1"}) as one, \
                connect(url, additional_headers={"X-Forwarded-For": "192.0.2.2"}) as other, \
                connect(url, additional_headers={"X-Forwarded-For": "192.0.2.1"}) as same:
            assert json.loads(one.recv(timeout=10))["type"] == "state"
            assert json.loads(other.recv(timeout=10))["type"] == "state"
            assert json.loads(same.recv(timeout=10))["code"] == "too_many_sockets"
    with served_in_thread(tmp_path / "q.sqlite3", settings, forwarded_allow_ips="10.9.9.9") as base:
        held = [open_from(port_of(base)) for _ in range(2)]
        extra = open_from(port_of(base))
        extra.sendall(b"GET /api/options HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status_of(until_closed(extra)) == 429  # not the proxy: counted


# ------------------------------------------------------------------ item 1: a flood against mattis serve


def rss_mib(pid: int) -> float:
    return float(psutil.Process(pid).memory_info().rss / 2**20)


def honest_table(base: str, wait: float = 10) -> float:
    """Create a table, open its socket, make a move, each step answered within ``wait``
    seconds: the seconds it took."""
    started = time.monotonic()
    request = urllib.request.Request(f"{base}/api/tables", method="POST", data=json.dumps(
        {"rules": "pagat", "players": 3}).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=wait) as answer:
        table = json.loads(answer.read())
    with connect(base.replace("http", "ws") + socket_url(table), open_timeout=wait) as ws:
        while not (state := json.loads(ws.recv(timeout=wait)))["legal"]:
            pass
        ws.send(json.dumps({"type": "act", "action": state["legal"][0]}))
        while (answer_state := json.loads(ws.recv(timeout=wait)))["type"] != "state":
            pass
        assert answer_state["view"]["history"]
    return time.monotonic() - started


@contextlib.contextmanager
def more_open_files(needed: int) -> Iterator[None]:
    """Raise this process's soft limit of open files (the server started from it inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        yield
        return
    if hard < needed:
        pytest.fail(f"needs {needed} open files, the hard limit is {hard} (ulimit -Hn)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


FLOOD = 2000
PATIENCE = 30.0
"""Seconds an honest request may wait during the flood: the server reads the 2,000 handshakes
in the order they came, which takes a few seconds on a busy machine (the latencies are
measured by ``benchmarks/web_abuse.py --scenario handshake-flood``)."""


def test_mattis_serve_holds_2000_hostile_handshakes_and_recovers(tmp_path: Path) -> None:
    """Half the handshakes have 130 headers (answered 431 and closed at once), half never
    finish their head (closed at the 10 s deadline). From 40 addresses, each within its
    share, all held open by the client. Meanwhile ``/healthz`` and an honest table answer;
    afterwards the server holds no more connections and its memory is back near its start
    (before: the first half stayed open for good, and memory grew with them)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with more_open_files(2 * FLOOD + 1024), \
            server(port, f"sqlite:///{tmp_path / 'flood.sqlite3'}", "--bot-delay", "0") as process:
        honest_table(base)  # warm: the first table, socket and move
        start_rss, start_files = rss_mib(process.pid), psutil.Process(process.pid).num_fds()
        refused = UPGRADE + many_headers(130) + b"\r\n"
        unfinished = UPGRADE + many_headers(10)
        held: list[socket.socket] = []
        for index in range(FLOOD):
            connection = open_from(port, f"127.0.1.{index % 40 + 1}")
            connection.settimeout(PATIENCE)
            connection.sendall(refused if index % 2 == 0 else unfinished)
            held.append(connection)
        with urllib.request.urlopen(f"{base}/healthz", timeout=PATIENCE) as answer:
            assert answer.status == 200
        honest_table(base, PATIENCE)
        during_rss = rss_mib(process.pid)
        answers = [until_closed(connection) for connection in held[::2]]
        assert all(status_of(answer) == 431 for answer in answers)
        for connection in held[1::2]:  # the deadline closes the rest
            assert until_closed(connection) == b""
        for connection in held:
            connection.close()
        deadline = time.monotonic() + 15
        while psutil.Process(process.pid).num_fds() > start_files + 5:
            assert time.monotonic() < deadline, psutil.Process(process.pid).num_fds()
            time.sleep(0.2)
        end_rss = rss_mib(process.pid)
        honest_table(base)
    print(f"RSS {start_rss:.0f} → {during_rss:.0f} → {end_rss:.0f} MiB")
    assert end_rss < start_rss + 40, (start_rss, during_rss, end_rss)


# ------------------------------------------------------------------ logging that outlives a test


def test_serve_leaves_logging_as_it_found_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``mattis serve`` run in-process (as tests do) used to leave a handler on ``mattis.web``
    that wrote to that run's ``sys.stderr``, closed since, with propagation off: every later
    log line in the process became a "Logging error" traceback. uvicorn's own logging
    configuration did the same to its loggers."""
    import uvicorn
    from typer.testing import CliRunner

    from mattis.cli.app import app

    loggers = ("mattis.web", "uvicorn", "uvicorn.error", "uvicorn.access")
    before = {name: (list(logging.getLogger(name).handlers), logging.getLogger(name).propagate)
              for name in loggers}
    lines: list[str] = []

    class Server:
        def __init__(self, config: Any) -> None:
            pass

        def run(self, sockets: list[socket.socket]) -> None:
            logging.getLogger("mattis.web").info("a line while serving")
            lines.append("ran")
            for listener in sockets:
                listener.close()

    monkeypatch.setattr(uvicorn, "Server", Server)
    result = CliRunner().invoke(app, ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'l.db'}"])
    assert result.exit_code == 0 and lines == ["ran"], result.output
    assert "a line while serving" in result.stderr
    uvicorn_config(None, "127.0.0.1", 0, Settings())
    after = {name: (list(logging.getLogger(name).handlers), logging.getLogger(name).propagate)
             for name in loggers}
    assert after == before
