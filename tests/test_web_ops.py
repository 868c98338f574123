"""What an operator reads and relies on (issue 18, items 3 and 4) on the single-server
SQLite path: ``/healthz``, ``/metrics`` in Prometheus text, and the database kept off the
event loop (a slow write holds up its own table, never the others)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from mattis.web.store import Store

from .web_helpers import create_table, next_state, play_to_my_turn, socket_url, web_client


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with web_client(tmp_path / "web.sqlite3") as test_client:
        yield test_client


def samples(client: TestClient) -> dict[str, float]:
    """Every sample of ``/metrics`` by name (parsed as Prometheus parses it)."""
    response = client.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    return {sample.name: sample.value for family in text_string_to_metric_families(response.text)
            for sample in family.samples if not sample.labels or sample.labels.get("le") == "+Inf"}


def test_healthz_says_the_database_answers_and_there_is_no_lease_on_sqlite(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": True, "tables": 0, "connections": 0, "draining": False,
                               "lease": None, "status": "ok"}


def test_healthz_is_503_when_the_database_does_not_answer(client: TestClient,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def unreachable(_: Store) -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(Store, "ping", unreachable)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] is False and response.json()["status"] == "failing"


def test_metrics_count_tables_sockets_actions_and_each_persons_action_time(client: TestClient) -> None:
    before = samples(client)
    assert before["mattis_tables"] == 0 and before["mattis_actions_total"] == 0
    assert before["mattis_lease_takeovers_total"] == 0 and before["mattis_worker_queue"] == 0
    table = create_table(client, seed=3)
    with client.websocket_connect(socket_url(table)) as socket:
        state = play_to_my_turn(socket)
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        play_to_my_turn(socket)  # the bots have moved and wait for this seat: nothing changes now
        after = samples(client)
        assert after["mattis_tables"] == 1 and after["mattis_connections"] == 1
        stored = client.app.state.lobby.store.game(table["table"])  # type: ignore[attr-defined]
    assert stored is not None and after["mattis_actions_total"] == len(stored.actions) >= 2
    assert after["mattis_action_latency_seconds_count"] == 1  # the person's one move
    assert after["mattis_actions_per_second"] > 0


def test_a_slow_write_holds_up_its_own_table_and_no_other(client: TestClient,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """While one table's move is being stored (the write waits until the test lets it go),
    another table's page is answered: the store runs in a thread, not on the event loop.
    Were it on the loop, the other request could not be answered and the write would give
    up waiting."""
    store: Store = client.app.state.lobby.store  # type: ignore[attr-defined]
    slow = create_table(client, seed=4)
    other = create_table(client, seed=5)
    writing = threading.Event()
    let_go = threading.Event()
    released: list[bool] = []
    real_write = store.add_actions

    def slow_write(rows: list[Any]) -> set[str]:
        writing.set()
        released.append(let_go.wait(timeout=20))
        return real_write(rows)

    with client.websocket_connect(socket_url(slow)) as socket:
        state = play_to_my_turn(socket)
        monkeypatch.setattr(store, "add_actions", slow_write)
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        assert writing.wait(timeout=20)
        assert client.get(f"/api/tables/{other['table']}").status_code == 200
        let_go.set()
        moved = next_state(socket)
        assert moved["view"]["history"]
    assert released and all(released)  # every write was let go by the test, none gave up
