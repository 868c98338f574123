"""The browser's move log is the table's story (issue 8 follow-up): the same
:class:`~mattis.frontend.story.TableStory` lines as the terminal, delivered as ``log`` deltas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mattis import Game
from mattis.core.events import EventKind
from mattis.frontend.story import Announcement, LogLine, TableStory

from .web_helpers import create_table, next_state, socket_url, web_client


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with web_client(tmp_path / "web.sqlite3") as test_client:
        yield test_client


def play_whole_game(socket: Any, lines: list[str], kinds: list[str] | None = None) -> None:
    """Play the last legal move every turn to the end, keeping the log (and the kinds of its
    lines) as a client does."""
    while True:
        state = next_state(socket)
        lines[state["log_start"]:] = state["log"]
        assert len(state["log_kinds"]) == len(state["log"])
        if kinds is not None:
            kinds[state["log_start"]:] = state["log_kinds"]
        if state["view"]["phase"] == "over":
            return
        if state["legal"]:
            socket.send_text(json.dumps({"type": "act", "action": state["legal"][-1]}))


def story_of(client: TestClient, table: dict[str, Any], lang: str) -> list[str]:
    """The table's story told offline from the finished game's record, step by step."""
    return [line.text for line in story_lines(client, table, lang)]


def story_lines(client: TestClient, table: dict[str, Any], lang: str) -> list[LogLine]:
    """The same story as typed lines, kinds included."""
    record = client.get(f"/api/tables/{table['table']}/record").json()
    live = client.app.state.lobby.tables[table["table"]]  # type: ignore[attr-defined]
    game = Game.from_record({**record, "actions": [], "result": None})
    story = TableStory(live.session.participants(0), game.rules, lang)  # type: ignore[arg-type]
    lines = list(story.tell(game.history, game.view(0, since=game.num_events)))
    for action in record["actions"]:
        told = game.num_events
        game.apply(action)
        table_now = game.view(0, since=game.num_events)
        lines += story.tell(game.events_since(told), table_now)
    return lines


def wars_started(record: dict[str, Any]) -> int:
    """Steps after which phase 1 stands tied with no tie before (or a tie was left at once)."""
    game = Game.from_record({**record, "actions": [], "result": None})
    count = 0
    for action in record["actions"]:
        tied_before, told = bool(game.tie), game.num_events
        game.apply(action)
        dropped = any(e.kind is EventKind.DROP for e in game.events_since(told))
        if not tied_before and ((game.tie and game.phase == "collect") or dropped):
            count += 1
    return count


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_the_log_is_the_table_story_with_wars_leads_and_the_end(client: TestClient, lang: str) -> None:
    wars = 0
    for seed in (2, 3, 5):
        table = create_table(client, rules="app", seed=seed)
        lines: list[str] = []
        with client.websocket_connect(socket_url(table, lang)) as socket:
            play_whole_game(socket, lines)
        assert lines == story_of(client, table, lang)
        record = client.get(f"/api/tables/{table['table']}/record").json()
        war_word = "Krig!" if lang == "nb" else "War!"
        assert sum(line.startswith(war_word) for line in lines) == wars_started(record)
        wars += wars_started(record)
        lead = ("Neste utspill", "Først ut") if lang == "nb" else ("Next to lead", "First to lead")
        assert any(line.startswith(lead) for line in lines)
    assert wars > 0


def test_every_log_line_comes_with_its_kind_for_the_page_to_style(client: TestClient) -> None:
    table = create_table(client, rules="app", seed=3)
    lines: list[str] = []
    kinds: list[str] = []
    with client.websocket_connect(socket_url(table)) as socket:
        play_whole_game(socket, lines, kinds)
    told = story_lines(client, table, "en")
    assert kinds == [str(line.kind) for line in told]
    known = {str(kind) for kind in (*EventKind, *Announcement)}
    assert set(kinds) <= known
    assert {"play", "war", "lead", "out", "phase_end"} <= set(kinds)
    wars = [kind for line, kind in zip(lines, kinds, strict=True) if line.startswith("War!")]
    assert wars and set(wars) == {"war"}


def test_a_late_connection_and_a_language_switch_get_the_same_story(client: TestClient) -> None:
    table = create_table(client, rules="app", seed=4)
    lines: list[str] = []
    with client.websocket_connect(socket_url(table)) as socket:
        for _ in range(40):
            state = next_state(socket)
            lines[state["log_start"]:] = state["log"]
            if state["legal"]:
                socket.send_text(json.dumps({"type": "act", "action": state["legal"][-1]}))
        while True:  # let the bots finish their turns
            state = next_state(socket)
            lines[state["log_start"]:] = state["log"]
            if state["legal"] or state["view"]["phase"] == "over":
                break
        with client.websocket_connect(socket_url(table)) as late:
            fresh = next_state(late)
        assert fresh["log"] == lines[fresh["log_start"]:] and len(fresh["log"]) == min(len(lines), 80)
        socket.send_text(json.dumps({"type": "lang", "lang": "nb"}))
        switched = next_state(socket)
        while not switched["log"]:  # the late socket's coming and going came first
            switched = next_state(socket)
        assert len(switched["log"]) == len(fresh["log"])
        assert switched["log"] != fresh["log"]
