"""The web API and WebSocket protocol through the ASGI test client (issue 8, items 3, 4 and 6)."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mattis import Game, next_dealer
from mattis.frontend import card_label
from mattis.web import Settings, create_app

from .web_helpers import (
    FAST,
    create_table,
    next_state,
    play_to_my_turn,
    receive,
    socket_url,
    web_client,
    with_tables,
)


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with web_client(tmp_path / "web.sqlite3") as test_client:
        yield test_client


def play_out(socket: Any) -> dict[str, Any]:
    """Play the first legal move every turn until the game ends; the final state."""
    while True:
        state = play_to_my_turn(socket)
        if state["view"]["phase"] == "over":
            return state
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))


def test_create_table_answers_with_seat_token_and_invite(client: TestClient) -> None:
    table = create_table(client, set={"min_sequence": 3})
    assert table["seat"] == 0 and len(table["token"]) >= 30
    assert table["invite"].endswith(f"/t/{table['table']}")
    info = client.get(f"/api/tables/{table['table']}").json()
    assert info["status"] == "playing" and info["rules"]["min_sequence"] == 3
    assert "token" not in json.dumps(info)


@pytest.mark.parametrize(("body", "fragment"), [
    ({"rules": "bridge"}, "rules"),
    ({"players": 9}, "players"),
    ({"players": "3"}, "players"),
    ({"set": {"min_sequence": 5}}, "min_sequence"),
    ({"set": {"colour": "red"}}, "set"),  # an unknown name is not repeated (tested in test_web_echo.py)
    ({"set": ["x"]}, "set"),
    ({"seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}, "creator"),
    ({"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]}, "open"),
    ({"seats": [{"kind": "human"}, {"kind": "bot", "level": "godlike"}, {"kind": "bot"}]}, "level"),
    ({"seats": [{"kind": "human"}]}, "seats"),
])
def test_bad_table_requests_get_one_clear_400(client: TestClient, body: dict[str, Any],
                                              fragment: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    data = response.json()
    assert data["type"] == "error" and data["code"] == "bad_request" and fragment in data["message"]


def test_malformed_and_oversized_bodies_are_refused(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["code"] == "bad_json"
    response = client.post("/api/tables", content=b"[" + b"1," * 20000 + b"1]")
    assert response.status_code == 413 and response.json()["code"] == "too_large"


def test_join_takes_the_open_seat_then_the_table_is_full(client: TestClient) -> None:
    table = create_table(client, seats=[{"kind": "human", "name": "Kari"}, {"kind": "open"},
                                        {"kind": "bot", "level": "easy"}])
    assert client.get(f"/api/tables/{table['table']}").json()["status"] == "waiting"
    joined = client.post(f"/api/tables/{table['table']}/join", json={"name": "Ola\u0000 Nordmann"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    info = client.get(f"/api/tables/{table['table']}").json()
    assert info["status"] == "playing" and info["seats"][1]["name"] == "Ola Nordmann"
    full = client.post(f"/api/tables/{table['table']}/join", json={"name": "Per"},
                       headers={"accept-language": "nb"})
    assert full.status_code == 409 and full.json() == {
        "type": "error", "code": "table_full", "message": "Bordet er fullt."}
    unknown = client.post("/api/tables/nosuchtable/join", json={"name": "Per"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"


def test_names_at_a_table_stay_distinct(client: TestClient) -> None:
    table = create_table(client, players=4, seats=[
        {"kind": "human", "name": "Kari"}, {"kind": "bot"}, {"kind": "open"}, {"kind": "open"}])
    info = client.get(f"/api/tables/{table['table']}").json()
    bot_name = info["seats"][1]["name"]
    assert bot_name and bot_name != "Kari"
    client.post(f"/api/tables/{table['table']}/join", json={"name": bot_name})
    client.post(f"/api/tables/{table['table']}/join", json={"name": "kari"})
    names = [seat["name"] for seat in client.get(f"/api/tables/{table['table']}").json()["seats"]]
    # a person joining never renames a bot (issue 15): the newcomer takes a number instead
    assert names[1] == bot_name and names[2] == f"{bot_name} 2" and names[3] == "kari 2"


def test_wrong_or_missing_token_gets_one_error_and_a_policy_close(client: TestClient) -> None:
    table = create_table(client)
    for url in (f"/ws/tables/{table['table']}?token=wrong", f"/ws/tables/{table['table']}",
                f"/ws/tables/nosuchtable?token={table['token']}"):
        with client.websocket_connect(url) as socket:
            message = receive(socket)
            assert message["type"] == "error" and message["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_text()
            assert closed.value.code == 1008


def test_state_holds_the_seat_view_legal_moves_and_log(client: TestClient) -> None:
    table = create_table(client, seed=5)
    with client.websocket_connect(socket_url(table, "nb")) as socket:
        state = play_to_my_turn(socket)
        view = state["view"]
        assert state["seat"] == 0 and view["seat"] == 0 and len(view["hand"]) == 3
        assert set(state["legal"]) <= {*view["hand"], "chance"} and state["advice"]
        assert state["table"]["seats"][0]["you"] and state["table"]["seats"][1]["kind"] == "bot"
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        after = next_state(socket)
        assert after["history_start"] == state["history_start"] + len(view["history"])
        assert after["log"] and after["log"][0].startswith("Du la")


def test_bad_messages_get_errors_and_change_nothing(client: TestClient) -> None:
    table = create_table(client, seed=11)
    other = create_table(client, seed=12)
    with client.websocket_connect(socket_url(table)) as socket, \
            client.websocket_connect(socket_url(other)) as bystander:
        state = play_to_my_turn(socket)
        before = state["history_start"] + len(state["view"]["history"])
        bystander_state = play_to_my_turn(bystander)
        sends = ["{not json", json.dumps({"type": "dance"}), json.dumps(["act"]),
                 json.dumps({"type": "act"}), json.dumps({"type": "act", "action": "Zz"}),
                 json.dumps({"type": "act", "action": "pickup"}), "x" * 5000]
        codes = []
        for text in sends:
            socket.send_text(text)
            codes.append(receive(socket)["code"])
        assert codes == ["bad_json", "bad_message", "bad_message", "bad_message", "malformed",
                         "pickup_in_phase1", "too_large"]
        socket.send_text(json.dumps({"type": "act", "action": "pickup"}))
        refusal = receive(socket)
        assert refusal["message"] == "Not allowed: picking up is only possible in phase 2 (utspilling)."
        socket.send_text(json.dumps({"type": "state"}))
        again = next_state(socket)
        assert again["history_start"] == before and again["legal"] == state["legal"]
        bystander.send_text(json.dumps({"type": "act", "action": bystander_state["legal"][0]}))
        assert next_state(bystander)["view"]["history"]


def test_acting_out_of_turn_is_refused(client: TestClient) -> None:
    table = create_table(client, seats=[{"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot"}],
                         seed=2)
    friend = client.post(f"/api/tables/{table['table']}/join", json={"name": "Ola"}).json()
    with client.websocket_connect(socket_url(table)) as first, \
            client.websocket_connect(socket_url({"table": table["table"], **friend})) as second:
        state = play_to_my_turn(first)
        assert state["view"]["to_move"] == 0
        second_state = next_state(second)
        second.send_text(json.dumps({"type": "act", "action": second_state["view"]["hand"][0]}))
        assert receive(second)["code"] == "not_your_turn"
        first.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        # the friend sees the play, named, in their own view and log
        seen = next_state(second)
        while not seen["view"]["history"]:
            seen = next_state(second)
        assert seen["view"]["history"][0] == {"event": "play", "seat": 0, "cards": [state["legal"][0]]}
        assert seen["log"][0] == f"Kari played {card_label(state['legal'][0])}"


def test_flood_is_rate_limited_then_closed(tmp_path: Path) -> None:
    settings = with_tables(Settings(rate=1.0, burst=3.0, flood_close=30), bot_delay=0.0)
    with web_client(tmp_path / "flood.sqlite3", settings) as client:
        table = create_table(client)
        with client.websocket_connect(socket_url(table)) as socket:
            next_state(socket)
            for _ in range(40):
                socket.send_text(json.dumps({"type": "state"}))
            codes = []
            with pytest.raises(WebSocketDisconnect):
                while True:
                    message = receive(socket)
                    if message["type"] == "error":
                        codes.append(message["code"])
            assert codes and set(codes) == {"rate_limited"}


def test_whole_game_record_only_at_the_end_then_play_again_with_loser_dealing(client: TestClient) -> None:
    table = create_table(client, seed=21)
    record_url = f"/api/tables/{table['table']}/record"
    with client.websocket_connect(socket_url(table)) as socket:
        early = client.get(record_url)
        assert early.status_code == 409 and early.json()["code"] == "game_not_over"
        state = play_to_my_turn(socket)
        socket.send_text(json.dumps({"type": "again"}))
        assert receive(socket)["code"] == "bad_message"
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        final = play_out(socket)
        assert final["result"]["headline"] and final["table"]["status"] == "over"
        record = client.get(record_url).json()
        game = Game.from_record(record)
        assert game.is_over and list(game.losers) == final["view"]["losers"]
        assert final["table"]["scores"] == [int(s in game.losers) for s in range(3)]
        socket.send_text(json.dumps({"type": "again"}))
        second = next_state(socket)
        while second["table"]["game"] != 2:
            second = next_state(socket)
        assert second["view"]["dealer"] == next_dealer(game.dealer, game.losers, 3)
        assert second["history_start"] == 0 and second["view"]["phase"] == "collect"
    assert client.get(record_url + "?game=1").json()["actions"] == record["actions"]
    assert client.get(record_url).status_code == 409


def test_reconnect_with_token_continues_the_seat(client: TestClient) -> None:
    table = create_table(client, seed=8)
    with client.websocket_connect(socket_url(table)) as socket:
        state = play_to_my_turn(socket)
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        state = play_to_my_turn(socket)
    with client.websocket_connect(socket_url(table)) as socket:
        back = next_state(socket)
        assert back["view"]["hand"] == state["view"]["hand"] and back["legal"] == state["legal"]
        assert back["history_start"] == 0 and len(back["view"]["history"]) == (
            state["history_start"] + len(state["view"]["history"]))


def test_absent_player_is_replaced_by_a_bot_and_takes_the_seat_back(tmp_path: Path) -> None:
    settings = with_tables(Settings(), bot_delay=0.0, absence_timeout=0.2)
    with web_client(tmp_path / "away.sqlite3", settings) as client:
        # a table of people (against robots only, the game waits instead: test_web_away.py)
        table = create_table(client, seed=4, seats=[{"kind": "human", "name": "Kari"}, {"kind": "open"},
                                                    {"kind": "bot"}])
        client.post(f"/api/tables/{table['table']}/join", json={"name": "Ola"})
        deadline = time.monotonic() + 30
        while client.get(f"/api/tables/{table['table']}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the stand-in bot never finished the game"
            time.sleep(0.05)
        info = client.get(f"/api/tables/{table['table']}").json()
        assert info["seats"][0]["stand_in"] is True
        with client.websocket_connect(socket_url(table)) as socket:
            state = next_state(socket)
            assert state["table"]["seats"][0]["stand_in"] is False and state["result"]


def test_hint_answers_with_a_legal_move_and_a_reason(client: TestClient) -> None:
    table = create_table(client, seed=9)
    with client.websocket_connect(socket_url(table, "nb")) as socket:
        state = play_to_my_turn(socket)
        socket.send_text(json.dumps({"type": "hint"}))
        message = receive(socket)
        while message["type"] != "hint":
            message = receive(socket)
        assert message["action"] in state["legal"] and message["explanation"]


def test_pages_and_assets_are_served_by_the_package(client: TestClient) -> None:
    for path in ("/", "/t/whatever", "/rules", "/rules?lang=nb", "/static/app.js", "/static/table.js",
                 "/static/cards.js", "/static/style.css"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "http://" not in response.text.replace("http://www.w3.org", "")
    assert "Blåmattis" in client.get("/rules?lang=nb").text
    # The full rules text ships with the package (not read from a source checkout's docs/).
    for lang, decisions in (("nb", "Avgjørelser"), ("en", "Decisions")):
        page = client.get(f"/rules?lang={lang}").text
        assert decisions in page and "P1.5" in page and "P2.9" in page, lang
    options = client.get("/api/options?lang=nb").json()
    assert {o["field"] for o in options["options"]} >= {"trick", "min_sequence", "follow_suit"}
    texts = client.get("/api/texts", headers={"accept-language": "nb-NO,nb;q=0.9"}).json()
    assert texts["again"] == "Spill igjen"


@pytest.mark.parametrize(("accept", "lang", "again"), [
    ("nn-NO,nn;q=0.9,nb;q=0.8", "nn", "Spel igjen"), ("nb-NO,nb;q=0.9", "nb", "Spill igjen"),
    ("no", "nb", "Spill igjen"), ("de-DE,nn;q=0.5", "nn", "Spel igjen"), ("de-DE", "en", "Play again"),
])
def test_the_browsers_language_picks_one_of_three(client: TestClient, accept: str, lang: str,
                                                   again: str) -> None:
    """``Accept-Language``: the first language we speak (nynorsk too), else English."""
    texts = client.get("/api/texts", headers={"accept-language": accept}).json()
    assert (texts["_lang"], texts["again"]) == (lang, again)
    assert texts["_languages"] == [["nb", "Bokmål"], ["nn", "Nynorsk"], ["en", "English"]]
    assert client.get("/api/texts?lang=nn", headers={"accept-language": "en"}).json()["_lang"] == "nn"


def test_the_pages_get_plural_forms_and_the_rule_to_pick_them(client: TestClient) -> None:
    texts = client.get("/api/texts?lang=nn").json()
    assert texts["table.free_seats"] == ["{n} ledig plass", "{n} ledige plassar"]
    assert texts["computer_players"][0].startswith("Du og éi datamaskin")
    assert texts["_plural"] == "(n != 1)"
    assert "table.cards_one" not in texts and "computer_one" not in texts


def test_the_rules_page_offers_all_three_languages(client: TestClient) -> None:
    page = client.get("/rules?lang=nn&back=/t/abc").text
    assert '<html lang="nn">' in page and "Reglar for Mattis" in page and "Avgjerder" in page
    for code, name in (("nb", "Bokmål"), ("nn", "Nynorsk"), ("en", "English")):
        assert f'<a lang="{code}" href="/rules?lang={code}&amp;back=/t/abc"' in page
        assert f">{name}</a>" in page
    assert page.count('aria-current="page"') == 1
    assert 'lang="nn" href="/rules?lang=nn&amp;back=/t/abc" aria-current' in page



def test_a_move_that_cannot_be_stored_is_refused_and_undone(client: TestClient, monkeypatch: Any) -> None:
    table = create_table(client, seed=13)
    store = client.app.state.lobby.store  # type: ignore[attr-defined]
    with client.websocket_connect(socket_url(table)) as socket:
        state = play_to_my_turn(socket)

        def broken(rows: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(store, "add_actions", broken)
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        refusal = receive(socket)
        assert refusal["type"] == "error" and refusal["code"] == "storage"
        monkeypatch.undo()
        socket.send_text(json.dumps({"type": "state"}))
        again = next_state(socket)
        assert again["legal"] == state["legal"] and again["view"]["hand"] == state["view"]["hand"]
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        assert next_state(socket)["view"]["history"][0]["cards"] == [state["legal"][0]]
    assert len(store.game(table["table"]).actions) >= 1


def test_hard_bots_think_in_the_worker_not_on_the_event_loop(tmp_path: Path) -> None:
    submitted: list[str] = []

    class CountingPool(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            submitted.append(fn.__name__)
            return super().submit(fn, *args, **kwargs)

    app = create_app(f"sqlite:///{tmp_path / 'hard.sqlite3'}", FAST, executor_factory=lambda: CountingPool(1))
    with TestClient(app) as client:
        table = create_table(client, seed=6, seats=[{"kind": "human"}, {"kind": "bot", "level": "hard"},
                                                    {"kind": "bot", "level": "easy"}])
        with client.websocket_connect(socket_url(table)) as socket:
            final = play_out(socket)
    assert final["result"] and "choose_move" in submitted


def test_expert_bots_think_in_the_worker_with_their_own_budget(tmp_path: Path) -> None:
    """An ``expert`` seat is offered like ``hard`` (label and budget in both languages),
    searches in the worker with the server's expert budget, and plays a game to the end."""
    submitted: list[tuple[str, float]] = []

    class CountingPool(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            job = args[0] if args else None
            submitted.append((fn.__name__, getattr(job, "seconds", -1.0)))
            return super().submit(fn, *args, **kwargs)

    app = create_app(f"sqlite:///{tmp_path / 'expert.sqlite3'}", FAST,
                     executor_factory=lambda: CountingPool(1))
    with TestClient(app) as client:
        for lang, label, budget in (("en", "expert", "up to 0.05 s a move"),
                                    ("nb", "ekspert", "opptil 0,05 s per trekk")):
            offered = client.get(f"/api/options?lang={lang}").json()["levels"]
            levels = {item["level"]: item for item in offered}
            assert list(levels)[3:5] == ["hard", "expert"]
            assert levels["expert"]["label"] == label and budget in levels["expert"]["description"]
        table = create_table(client, seed=6, seats=[{"kind": "human"}, {"kind": "bot", "level": "expert"},
                                                    {"kind": "bot", "level": "easy"}])
        with client.websocket_connect(socket_url(table)) as socket:
            final = play_out(socket)
    assert final["result"]
    assert ("choose_move", FAST.table.expert_seconds) in submitted


def test_idle_tables_leave_memory_and_come_back_when_opened(client: TestClient) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    finished = create_table(client, seed=14)
    waiting = create_table(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}])
    with client.websocket_connect(socket_url(finished)) as socket:
        state = play_to_my_turn(socket)
        assert lobby.unload_older_than(0) == 1  # only the waiting table: the other has a player
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        play_out(socket)
    assert lobby.unload_older_than(0) == 1 and not lobby.tables
    assert client.get(f"/api/tables/{finished['table']}").json()["status"] == "over"
    with client.websocket_connect(socket_url(finished)) as socket:
        assert next_state(socket)["result"]
        socket.send_text(json.dumps({"type": "again"}))
        assert next_state(socket)["table"]["game"] == 2
    joined = client.post(f"/api/tables/{waiting['table']}/join", json={"name": "Ola"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1


def test_pages_forbid_outside_content_and_referrers(client: TestClient) -> None:
    headers = client.get("/").headers
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"


def test_one_address_cannot_create_tables_without_end(tmp_path: Path) -> None:
    settings = with_tables(Settings(posts_per_minute=1.0), bot_delay=0.0)
    with web_client(tmp_path / "posts.sqlite3", settings) as client:
        codes = [client.post("/api/tables", json={}).status_code for _ in range(25)]
    assert codes[:20] == [201] * 20 and set(codes[20:]) == {429}


def test_a_broken_worker_costs_the_hard_bot_its_search_not_the_game(tmp_path: Path) -> None:
    class BrokenPool(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("worker died")

    app = create_app(f"sqlite:///{tmp_path / 'broken.sqlite3'}", FAST, executor_factory=lambda: BrokenPool(1))
    with TestClient(app) as client:
        table = create_table(client, seed=7, seats=[{"kind": "human"}, {"kind": "bot", "level": "hard"},
                                                    {"kind": "bot", "level": "hard"}])
        with client.websocket_connect(socket_url(table)) as socket:
            assert play_out(socket)["result"]["headline"]


def test_a_score_lost_in_a_crash_is_recounted_from_the_stored_game(client: TestClient) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    table = create_table(client, seed=15)
    with client.websocket_connect(socket_url(table)) as socket:
        final = play_out(socket)
    live = lobby.tables[table["table"]]
    seats = [seat.to_stored() for seat in live.session.seats]
    lobby.store.update_table(table["table"], seats, {"scores": [0, 0, 0], "dealer": 2, "games": 1,
                                                     "seed": 15, "results": []})
    assert lobby.unload_older_than(0) == 1
    with client.websocket_connect(socket_url(table)) as socket:
        state = next_state(socket)
    assert state["table"]["scores"] == final["table"]["scores"] and sum(state["table"]["scores"]) >= 1


def test_an_open_seat_can_be_given_to_a_bot(client: TestClient) -> None:
    table = create_table(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}])
    with client.websocket_connect(socket_url(table)) as socket:
        assert next_state(socket)["table"]["status"] == "waiting"
        socket.send_text(json.dumps({"type": "bot", "seat": 2, "level": "easy"}))
        assert receive(socket)["code"] == "bad_message"
        socket.send_text(json.dumps({"type": "bot", "seat": 1, "level": "easy"}))
        state = next_state(socket)
        while state["view"] is None:
            state = next_state(socket)
        assert state["table"]["seats"][1]["kind"] == "bot" and state["table"]["status"] == "playing"
    joined = client.post(f"/api/tables/{table['table']}/join", json={"name": "Late"})
    assert joined.status_code == 409


def test_a_reaction_reaches_everyone_at_the_table_and_only_a_few_are_allowed(client: TestClient) -> None:
    table = create_table(client, seats=[{"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot"}])
    joined = client.post(f"/api/tables/{table['table']}/join", json={"name": "Ola"}).json()
    friend_url = f"/ws/tables/{table['table']}?token={joined['token']}&lang=en"

    def next_of(socket: Any, kind: str) -> dict[str, Any]:
        while (message := receive(socket))["type"] != kind:
            pass
        return message

    with client.websocket_connect(socket_url(table)) as kari, client.websocket_connect(friend_url) as ola:
        next_state(kari)
        next_state(ola)
        kari.send_text(json.dumps({"type": "react", "reaction": "well_played"}))
        expected = {"type": "reaction", "seat": 0, "reaction": "well_played"}
        assert next_of(kari, "reaction") == expected and next_of(ola, "reaction") == expected
        kari.send_text(json.dumps({"type": "react", "reaction": "wow"}))
        assert next_of(kari, "error")["code"] == "rate_limited"
        ola.send_text(json.dumps({"type": "react", "reaction": "Hei, Kari!"}))  # never free text
        assert next_of(ola, "error")["code"] == "bad_message"
        ola.send_text(json.dumps({"type": "react", "reaction": "phew"}))
        assert next_of(kari, "reaction") == {"type": "reaction", "seat": 1, "reaction": "phew"}


def test_serve_never_shows_the_database_password() -> None:
    """The start line and a failed connection name the database with its password masked
    (they end up in terminals and logs); other URLs are shown as given."""
    from typer.testing import CliRunner

    from mattis.cli.app import app
    from mattis.cli.serve import without_password

    assert without_password("postgresql+psycopg://mattis:s3cret@db.example/mattis") == \
        "postgresql+psycopg://mattis:***@db.example/mattis"
    assert without_password("sqlite:////tmp/web.sqlite3") == "sqlite:////tmp/web.sqlite3"
    assert without_password("not a url") == "not a url"
    # A PostgreSQL URL where nothing listens (port 9 discards): one line, no password.
    result = CliRunner().invoke(app, ["serve", "--db", "postgresql+psycopg://mattis:s3cret@127.0.0.1:9/mattis"])
    assert result.exit_code == 2
    assert "s3cret" not in result.output and "s3cret" not in result.stderr
    assert result.stderr.startswith("error: --db: cannot open 'postgresql+psycopg://mattis:***@127.0.0.1:9")
