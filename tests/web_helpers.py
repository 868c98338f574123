"""Shared pieces of the web tests: a server app with short waits, and a seat's socket client."""

from __future__ import annotations

import dataclasses
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from mattis.table import table_profile
from mattis.web import Settings, create_app

QUICK_TABLES = dataclasses.replace(table_profile("server"), bot_delay=0.0, absence_timeout=30.0,
                                   hard_seconds=0.05, expert_seconds=0.05, hint_seconds=0.05)
"""The server's tables with the waits shortened."""
FAST = Settings(table=QUICK_TABLES, rate=10_000.0, burst=10_000.0)


def with_tables(settings: Settings = FAST, **changes: Any) -> Settings:
    """``settings`` with some of its tables' settings changed."""
    return dataclasses.replace(settings, table=dataclasses.replace(settings.table, **changes))


def thread_pool() -> Executor:
    """A thread worker: the tests need no process start-up for the odd hint."""
    return ThreadPoolExecutor(max_workers=1)


@contextmanager
def web_client(db: Path, settings: Settings = FAST) -> Iterator[TestClient]:
    """A test client of a fresh server on the SQLite file ``db`` (lifespan included)."""
    app = create_app(f"sqlite:///{db}", settings, executor_factory=thread_pool)
    with TestClient(app) as client:
        yield client


def socket_url(table: dict[str, Any], lang: str = "en") -> str:
    """The socket address of the seat that ``create_table`` answered with."""
    return f"/ws/tables/{table['table']}?token={table['token']}&lang={lang}"


def create_table(client: TestClient, **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` with defaults for the fields a test does not care about."""
    body.setdefault("rules", "pagat")
    body.setdefault("players", 3)
    body.setdefault("seats", [{"kind": "human", "name": "Kari"}] +
                    [{"kind": "bot", "level": "normal"}] * (body["players"] - 1))
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def receive(socket: Any) -> dict[str, Any]:
    """The next message of a test socket, decoded."""
    message: dict[str, Any] = json.loads(socket.receive_text())
    return message


def next_state(socket: Any, sink: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Read messages until a ``state`` arrives (errors and hints are collected in ``sink``)."""
    while True:
        message = receive(socket)
        if sink is not None:
            sink.append(message)
        if message["type"] == "state":
            return message


def play_to_my_turn(socket: Any, sink: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """States until this seat must move or the game is over."""
    while True:
        state = next_state(socket, sink)
        if state["legal"] or (state["view"] and state["view"]["phase"] == "over"):
            return state


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def server(port: int, db: str, *options: str) -> Iterator[subprocess.Popen[bytes]]:
    """``mattis serve`` as a process, ready for requests."""
    process = subprocess.Popen(
        [sys.executable, "-m", "mattis", "serve", "--port", str(port), "--db", db, *options],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90  # a shared, loaded machine may take half a minute
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, process.stdout.read() if process.stdout else b""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        if process.stdout:
            process.stdout.close()


@contextmanager
def served_in_thread(db: Path, settings: Settings = FAST, *, app: Any = None,
                     forwarded_allow_ips: str | None = None) -> Iterator[str]:
    """The app (or another ASGI ``app``) on uvicorn with ``mattis serve``'s configuration
    (timeouts, limits, trusted proxies), in a thread of this process, so a test can speak raw
    HTTP to it; yields its base URL."""
    import threading

    import uvicorn

    from mattis.web.server import uvicorn_config

    port = free_port()
    if app is None:
        app = create_app(f"sqlite:///{db}", settings, executor_factory=thread_pool)
    config = uvicorn_config(app, "127.0.0.1", port, settings, forwarded_allow_ips=forwarded_allow_ips)
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(timeout=2)
        if thread.is_alive():  # an app that never answers keeps its task: stop waiting for it
            running.force_exit = True
            thread.join(timeout=20)
