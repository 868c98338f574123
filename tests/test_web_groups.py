"""Players without accounts, groups, group tables and the ledger through the API (issue 25,
items 1–4 and 7)."""

from __future__ import annotations

import csv
import io
import json
import logging
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mattis import Game

from .web_helpers import FAST, play_to_my_turn, socket_url, web_client


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with web_client(tmp_path / "web.sqlite3") as test_client:
        yield test_client


def new_player(client: TestClient, name: str) -> dict[str, Any]:
    response = client.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    data["auth"] = {"authorization": f"Bearer {data['key']}"}
    return data


def new_group(client: TestClient, owner: dict[str, Any], name: str = "Familien Hansen") -> dict[str, Any]:
    response = client.post("/api/groups", json={"name": name}, headers=owner["auth"])
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def join(client: TestClient, group: dict[str, Any], player: dict[str, Any]) -> None:
    response = client.post(f"/api/groups/{group['group']}/join", json={"code": group["code"]},
                           headers=player["auth"])
    assert response.status_code == 200, response.text


def play_out(socket: Any) -> dict[str, Any]:
    """Play the first legal move every turn until the game ends; the final state."""
    while True:
        state = play_to_my_turn(socket)
        if state["view"]["phase"] == "over":
            return state
        socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))


def play_group_game(client: TestClient, group: str | None, creator: dict[str, Any],
                    joiner: dict[str, Any] | None,
                    seed: int = 7) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A table of the creator, a joiner (bound if ``joiner`` has a key) and a bot, played to
    its end by both people at once: the table and each person's last state."""
    body: dict[str, Any] = {"rules": "pagat", "players": 3, "seed": seed,
                            "seats": [{"kind": "human", "name": creator["name"]}, {"kind": "open"},
                                      {"kind": "bot", "level": "easy"}]}
    if group is not None:
        body["group"] = group
    created = client.post("/api/tables", json=body, headers=creator.get("auth", {}))
    assert created.status_code == 201, created.text
    table = created.json()
    guest = joiner or {}
    joined = client.post(f"/api/tables/{table['table']}/join", json={"name": guest.get("name", "Gjest")},
                         headers=guest.get("auth", {}))
    assert joined.status_code == 200, joined.text
    second = {"table": table["table"], "token": joined.json()["token"]}
    finals: list[dict[str, Any]] = [{}, {}]

    def seat(index: int, seat_table: dict[str, Any]) -> None:
        with client.websocket_connect(socket_url(seat_table)) as socket:
            finals[index] = play_out(socket)

    threads = [threading.Thread(target=seat, args=(index, seat_table))
               for index, seat_table in enumerate((table, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(final.get("view") for final in finals)
    return table, finals


def test_a_player_is_made_renamed_and_forgotten(client: TestClient) -> None:
    mormor = new_player(client, "  Mormor\u0000 ")
    assert mormor["name"] == "Mormor" and len(mormor["key"]) >= 32  # 24 random bytes: 192 bits
    me = client.get("/api/players/me", headers=mormor["auth"]).json()
    assert me["player"] == mormor["player"] and me["name"] == "Mormor" and me["groups"] == []
    assert me["stats"] == {"games": 0, "mattis": 0, "rate": None, "rate_interval": None, "levels": [],
                           "rating": None}
    renamed = client.patch("/api/players/me", json={"name": "Bestemor"}, headers=mormor["auth"])
    assert renamed.status_code == 200 and renamed.json()["name"] == "Bestemor"
    assert client.delete("/api/players/me", headers=mormor["auth"]).status_code == 204
    gone = client.get("/api/players/me", headers=mormor["auth"])
    assert gone.status_code == 401 and gone.json()["code"] == "bad_key"


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer nope", "Basic abc", "Bearer " + "x" * 500,
                                    b"Bearer \xe6\xf8\xe5"])
def test_a_missing_or_wrong_key_is_401_bad_key(client: TestClient, header: str | bytes | None) -> None:
    headers: dict[str, Any] = {} if header is None else {"authorization": header}
    for method, url in (("GET", "/api/players/me"), ("POST", "/api/groups"), ("DELETE", "/api/players/me")):
        response = client.request(method, url, headers=headers, json={"name": "x"})
        assert response.status_code == 401 and response.json()["code"] == "bad_key"
        if isinstance(header, str) and " " in header:
            assert header.split(" ")[-1] not in response.text


def test_only_the_keys_hash_is_stored(client: TestClient, tmp_path: Path) -> None:
    mormor = new_player(client, "Mormor")
    data = (tmp_path / "web.sqlite3").read_bytes()
    wal = tmp_path / "web.sqlite3-wal"
    data += wal.read_bytes() if wal.exists() else b""
    assert mormor["key"].encode() not in data
    with sqlite3.connect(tmp_path / "web.sqlite3") as db:
        (stored,) = db.execute("SELECT hash FROM mattis_keys").fetchone()
    assert len(stored) == 64 and stored != mormor["key"]


def test_bad_names_get_400(client: TestClient) -> None:
    for body in ({}, {"name": ""}, {"name": "\u0000\u0001"}, {"name": 5}, [1]):
        response = client.post("/api/players", json=body)
        assert response.status_code == 400 and response.json()["code"] == "bad_request"


def test_a_group_is_made_joined_left_and_hidden_from_others(client: TestClient) -> None:
    mormor, ola, stranger = (new_player(client, name) for name in ("Mormor", "Ola", "Per"))
    group = new_group(client, mormor)
    assert group["invite"].endswith(f"/g/{group['group']}#join={group['code']}")
    assert len(group["code"]) == 8
    wrong = client.post(f"/api/groups/{group['group']}/join", json={"code": "AAAAAAAA"}, headers=ola["auth"])
    unknown = client.post("/api/groups/nosuchgroup/join", json={"code": group["code"]}, headers=ola["auth"])
    assert wrong.status_code == unknown.status_code == 404
    assert wrong.json() == unknown.json() and wrong.json()["code"] == "not_found"
    # a code typed in lower case with a dash is the same code
    typed = group["code"][:4].lower() + "-" + group["code"][4:]
    joined = client.post(f"/api/groups/{group['group']}/join", json={"code": typed}, headers=ola["auth"])
    assert joined.status_code == 200
    assert [member["name"] for member in joined.json()["members"]] == ["Mormor", "Ola"]
    for method, url in (("GET", ""), ("PATCH", ""), ("GET", "/ledger"), ("GET", "/export.csv"),
                        ("POST", "/leave"), ("POST", "/code")):
        response = client.request(method, f"/api/groups/{group['group']}{url}", json={"name": "x"},
                                  headers=stranger["auth"])
        assert response.status_code == 404 and response.json()["code"] == "not_found", url
    renamed = client.patch(f"/api/groups/{group['group']}", json={"name": "Hansen"}, headers=ola["auth"])
    assert renamed.json()["name"] == "Hansen"
    not_creator = client.post(f"/api/groups/{group['group']}/code", headers=ola["auth"])
    assert not_creator.status_code == 403 and not_creator.json()["code"] == "not_creator"
    renewed = client.post(f"/api/groups/{group['group']}/code", headers=mormor["auth"]).json()
    assert renewed["code"] != group["code"]
    old = client.post(f"/api/groups/{group['group']}/join", json={"code": group["code"]},
                      headers=stranger["auth"])
    assert old.status_code == 404
    assert client.post(f"/api/groups/{group['group']}/leave", headers=ola["auth"]).status_code == 204
    assert client.get(f"/api/groups/{group['group']}", headers=ola["auth"]).status_code == 404
    me = client.get("/api/players/me", headers=mormor["auth"]).json()
    assert me["groups"] == [{"group": group["group"], "name": "Hansen"}]


def test_a_group_table_needs_a_member(client: TestClient) -> None:
    mormor, stranger = new_player(client, "Mormor"), new_player(client, "Per")
    group = new_group(client, mormor)
    body = {"rules": "pagat", "players": 3, "group": group["group"],
            "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}]}
    assert client.post("/api/tables", json=body).json()["code"] == "bad_key"
    refused = client.post("/api/tables", json=body, headers=stranger["auth"])
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    assert client.post("/api/tables", json={**body, "group": 5}, headers=mormor["auth"]).status_code == 400
    made = client.post("/api/tables", json=body, headers=mormor["auth"])
    assert made.status_code == 201
    info = client.get(f"/api/tables/{made.json()['table']}").json()
    assert info["seats"][0]["player"] == mormor["player"] and info["seats"][1]["player"] is None


def test_a_finished_group_game_counts_once_in_the_ledger(client: TestClient) -> None:
    mormor, ola = new_player(client, "Mormor"), new_player(client, "Ola")
    group = new_group(client, mormor)
    join(client, group, ola)
    table, finals = play_group_game(client, group["group"], mormor, ola)
    result = finals[0]["result"]
    ledger = client.get(f"/api/groups/{group['group']}/ledger?season=all", headers=ola["auth"]).json()
    assert ledger["season"] == "all" and ledger["games"] == 1
    entry = ledger["history"][0]
    assert entry["table"] == table["table"] and entry["game"] == 1
    assert entry["players"] == [mormor["player"], ola["player"]]
    losers = {0: mormor["player"], 1: ola["player"]}
    assert entry["mattis"] == [losers[seat] for seat in result["losers"] if seat in losers]
    assert entry["seats"][2]["kind"] == "bot" and entry["seats"][2]["player"] is None
    rows = {row["player"]: row for row in ledger["players"]}
    for seat, player in losers.items():
        lost = seat in result["losers"]
        assert rows[player]["games"] == 1 and rows[player]["mattis"] == int(lost)
        assert rows[player]["current_run"] == rows[player]["best_run"] == int(not lost)
        assert rows[player]["rate_interval"] is None  # fewer than 10 games
    this_year = client.get(f"/api/groups/{group['group']}/ledger", headers=ola["auth"]).json()
    assert this_year["games"] == 1 and this_year["season"] == entry["finished"][:4]
    assert client.get(f"/api/groups/{group['group']}/ledger?season=1999",
                      headers=ola["auth"]).json()["games"] == 0
    export = client.get(f"/api/groups/{group['group']}/export.csv", headers=mormor["auth"])
    assert export.headers["content-type"].startswith("text/csv")
    rows_csv = list(csv.DictReader(io.StringIO(export.text)))
    assert len(rows_csv) == 3 and [row["kind"] for row in rows_csv] == ["human", "human", "bot"]
    assert {row["name"] for row in rows_csv[:2]} == {"Mormor", "Ola"}


def test_a_game_with_one_member_or_without_a_group_is_not_counted(client: TestClient) -> None:
    mormor, ola = new_player(client, "Mormor"), new_player(client, "Ola")
    group = new_group(client, mormor)
    play_group_game(client, group["group"], mormor, ola)  # Ola is no member
    play_group_game(client, group["group"], mormor, {"name": "Gjest"})  # an unbound seat
    join(client, group, ola)
    play_group_game(client, None, mormor, ola)  # not a group table
    ledger = client.get(f"/api/groups/{group['group']}/ledger?season=all", headers=mormor["auth"]).json()
    assert ledger["games"] == 0 and ledger["players"] == []


def test_a_forgotten_player_is_a_former_player_in_the_ledger(client: TestClient) -> None:
    mormor, ola = new_player(client, "Mormor"), new_player(client, "Ola")
    group = new_group(client, mormor)
    join(client, group, ola)
    play_group_game(client, group["group"], mormor, ola)
    assert client.delete("/api/players/me", headers=ola["auth"]).status_code == 204
    ledger = client.get(f"/api/groups/{group['group']}/ledger?season=all&lang=nb",
                        headers={**mormor["auth"], "accept-language": "nb"}).json()
    names = {row["player"]: row["name"] for row in ledger["players"]}
    assert names[ola["player"]] == "en tidligere spiller" and names[mormor["player"]] == "Mormor"
    assert "Ola" not in json.dumps(ledger)
    members = client.get(f"/api/groups/{group['group']}", headers=mormor["auth"]).json()["members"]
    assert [member["name"] for member in members] == ["Mormor"]


def test_a_second_device_gets_its_own_key_by_a_code_used_once(client: TestClient) -> None:
    mormor = new_player(client, "Mormor")
    device = client.post("/api/players/me/devices", headers=mormor["auth"])
    assert device.status_code == 201
    code = device.json()["code"]
    assert device.json()["qr"].startswith("<svg") and device.json()["url"].endswith(f"#code={code}")
    claimed = client.post("/api/players/claim", json={"code": code})
    assert claimed.status_code == 201 and claimed.json()["player"] == mormor["player"]
    assert claimed.json()["key"] != mormor["key"]
    again = client.post("/api/players/claim", json={"code": code})
    assert again.status_code == 404 and again.json()["code"] == "not_found"
    second = {"authorization": f"Bearer {claimed.json()['key']}"}
    assert client.get("/api/players/me", headers=second).json()["name"] == "Mormor"


def test_bad_seasons_and_codes_get_400_or_404(client: TestClient) -> None:
    mormor = new_player(client, "Mormor")
    group = new_group(client, mormor)
    for season in ("20266", "abc", "²⁰²⁶", "1234"):
        response = client.get(f"/api/groups/{group['group']}/ledger", params={"season": season},
                              headers=mormor["auth"])
        assert response.status_code == 400 and season not in response.json()["message"]
    for code in (None, 5, "", "x" * 100, "ÆØÅÆØÅÆØ"):
        response = client.post(f"/api/groups/{group['group']}/join", json={"code": code},
                               headers=mormor["auth"])
        assert response.status_code == 404


def test_keys_never_reach_logs_or_error_texts(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with web_client(tmp_path / "web.sqlite3", FAST) as client:
        mormor = new_player(client, "Mormor")
        group = new_group(client, mormor)
        answers = [client.get("/api/players/me", headers={"authorization": f"Bearer {mormor['key']}x"}),
                   client.post(f"/api/groups/{group['group']}/join", json={"code": mormor["key"]},
                               headers=mormor["auth"]),
                   client.get("/metrics")]
        for answer in answers:
            assert mormor["key"] not in answer.text
    assert mormor["key"] not in caplog.text


def test_a_finished_game_is_told_again_with_every_hand(client: TestClient) -> None:
    mormor, ola = new_player(client, "Mormor"), new_player(client, "Ola")
    group = new_group(client, mormor)
    join(client, group, ola)
    table, finals = play_group_game(client, group["group"], mormor, ola)
    replay = client.get(f"/api/tables/{table['table']}/replay?game=1&lang=nb").json()
    record = client.get(f"/api/tables/{table['table']}/record?game=1").json()
    game = Game.from_record(record)
    assert len(replay["steps"]) == len(game.actions) + 1
    assert [step["action"] for step in replay["steps"][1:]] == [str(action) for action in game.actions]
    dealt = Game.from_record({**record, "actions": [], "result": None})
    assert replay["steps"][0]["hands"] == [dealt.hand(seat) for seat in range(3)]  # every hand shows
    assert replay["steps"][-1]["hands"] == finals[0]["result"]["hands"]
    assert sum(len(step["lines"]) for step in replay["steps"]) >= len(game.actions)
    assert replay["result"]["losers"] == list(game.losers)
    assert [player["name"] for player in replay["players"]][:2] == ["Mormor", "Ola"]
    assert "Du " not in json.dumps(replay, ensure_ascii=False)  # a spectator's story: nobody is "you"


def test_a_game_still_on_is_not_told_again(client: TestClient) -> None:
    made = client.post("/api/tables", json={"rules": "pagat", "players": 3})
    assert made.status_code == 201
    refused = client.get(f"/api/tables/{made.json()['table']}/replay")
    assert refused.status_code == 409 and refused.json()["code"] == "game_not_over"
    assert client.get("/api/tables/nosuchtable/replay").status_code == 404


def test_the_result_of_a_group_game_says_what_it_changed(client: TestClient) -> None:
    mormor, ola = new_player(client, "Mormor"), new_player(client, "Ola")
    group = new_group(client, mormor)
    join(client, group, ola)
    table, finals = play_group_game(client, group["group"], mormor, ola)
    assert finals[0]["table"]["group"] == group["group"]
    url = f"/api/groups/{group['group']}/changes?table={table['table']}&game=1"
    changes = client.get(url + "&lang=nb", headers=mormor["auth"]).json()
    losers = finals[0]["result"]["losers"]
    rows = {row["name"]: row for row in changes["players"]}
    for seat, name in enumerate(("Mormor", "Ola")):
        lost = seat in losers
        assert rows[name]["was_mattis"] == lost and rows[name]["mattis"] == int(lost)
        run = "+0" if lost else "+1"
        assert f"{name}: {int(lost)} Mattis i år ({run} på rad)" in changes["lines"]
    assert {award["award"] for award in changes["awards"]} >= {"mattis_fri", "stamgjest"}
    assert any(line.startswith("Mattis-fri går nå til") for line in changes["lines"])
    stranger = new_player(client, "Per")
    assert client.get(url, headers=stranger["auth"]).status_code == 404
    assert client.get(url.replace("game=1", "game=2"), headers=mormor["auth"]).status_code == 404
    assert client.get(url.replace("game=1", "game=x"), headers=mormor["auth"]).status_code == 400


def test_a_group_table_restored_after_a_restart_still_counts_its_game(tmp_path: Path) -> None:
    """The group and the bound seats are stored with the table: a server started again on
    the database plays the game on and counts it once."""
    db = tmp_path / "web.sqlite3"
    with web_client(db) as client:
        mormor, ola = new_player(client, "Mormor"), new_player(client, "Ola")
        group = new_group(client, mormor)
        join(client, group, ola)
        made = client.post("/api/tables", headers=mormor["auth"], json={
            "rules": "pagat", "players": 3, "seed": 9, "group": group["group"],
            "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]}).json()
        joined = client.post(f"/api/tables/{made['table']}/join", json={"name": "Ola"},
                             headers=ola["auth"]).json()
    with web_client(db) as client:
        finals: list[dict[str, Any]] = [{}, {}]

        def seat(index: int, token: str) -> None:
            with client.websocket_connect(socket_url({"table": made["table"], "token": token})) as socket:
                finals[index] = play_out(socket)

        threads = [threading.Thread(target=seat, args=(index, token))
                   for index, token in enumerate((made["token"], joined["token"]))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert finals[0]["table"]["group"] == group["group"]
        ledger = client.get(f"/api/groups/{group['group']}/ledger?season=all", headers=ola["auth"]).json()
        assert ledger["games"] == 1 and ledger["history"][0]["players"] == [mormor["player"], ola["player"]]


def test_your_own_statistics_count_every_bound_game_with_a_rating(client: TestClient, tmp_path: Path) -> None:
    """Issue 25 item 6: ``GET /api/players/me`` counts every finished game of a bound seat,
    group or not, against each bot level, with an OpenSkill rating; forgetting removes them."""
    mormor, ola = new_player(client, "Mormor"), new_player(client, "Ola")
    finals = [play_group_game(client, None, mormor, ola, seed=seed)[1] for seed in (21, 22)]
    me = client.get("/api/players/me", headers=mormor["auth"]).json()["stats"]
    lost = sum(0 in final[0]["result"]["losers"] for final in finals)
    assert me["games"] == 2 and me["mattis"] == lost
    assert me["levels"] == [{"level": "easy", "games": 2, "mattis": lost, "rate": round(lost / 2, 4),
                             "rate_interval": None}]
    rating = me["rating"]
    assert rating["games"] == 2 and rating["sigma"] < 8.333  # two games made it surer
    assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=1e-2)
    other = client.get("/api/players/me", headers=ola["auth"]).json()["stats"]
    ola_lost = sum(1 in final[0]["result"]["losers"] for final in finals)
    if lost < ola_lost:
        assert rating["mu"] > other["rating"]["mu"]
    assert client.delete("/api/players/me", headers=mormor["auth"]).status_code == 204
    with sqlite3.connect(tmp_path / "web.sqlite3") as db:
        for table in ("mattis_player_games", "mattis_ratings"):
            (count,) = db.execute(f"SELECT count(*) FROM {table} WHERE player_id = ?",
                                  (mormor["player"],)).fetchone()
            assert count == 0, table


def test_the_stored_tally_answers_as_the_rows_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 7: a ledger is read from the group's tally of the season kept with each counted
    game, and answers exactly what counting every row answers, also when a game ends before
    the last one counted (it is counted again from the rows), when the tally is damaged
    and when there is none (rows from before tallies)."""
    from mattis.table.ledger import ledger
    from mattis.table.rows import LedgerRow
    from mattis.web.community import Community
    from mattis.web.store import LEDGER_TALLIES, Store

    store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    community = Community(store)
    people = [community.create_player(name)[0] for name in ("Mormor", "Ola", "Kari")]
    group, code = community.create_group(people[0], "Familien")
    for person in people[1:]:
        assert community.join_group(person, group, code)
    clock = {"now": datetime(2026, 12, 30, tzinfo=UTC).timestamp()}
    monkeypatch.setattr("mattis.web.store.time.time", lambda: clock["now"])

    def finish(number: int, at: float, losers: list[int]) -> None:
        clock["now"] = at
        seats = [{"player": person, "kind": "human", "name": "", "level": None} for person in people]
        seats.append({"player": None, "kind": "bot", "name": "Robin", "level": "easy"})
        out = [seat for seat in range(4) if seat not in losers]
        store.add_actions([LedgerRow(table_id="T", group=group, game_number=number, seats=seats,
                                     losers=losers, out_order=out, lost_on_empty=len(losers) > 1)])

    def both_ways(season: str) -> None:
        games, names = community.ledger_games(people[0], group, season, None)
        assert community.season_ledger(people[0], group, season) == ledger(games, names, season)

    day = 86_400.0
    start = clock["now"]
    for number in range(1, 6):  # two seasons: 2026 and 2027
        finish(number, start + number * day / 2, [number % 4] if number != 3 else [0, 1])
    finish(6, start + 0.25 * day, [2])  # ended before every other game: counted again
    for season in ("2026", "2027", "all"):
        both_ways(season)
    assert community.season_ledger(people[0], group, "all")["games"] == 6
    with store.engine.begin() as connection:
        connection.execute(LEDGER_TALLIES.update().values(tally="{damaged"))
    both_ways("all")  # a damaged tally is not trusted
    finish(7, start + 4 * day, [1])
    both_ways("all")
    with store.engine.begin() as connection:
        connection.execute(LEDGER_TALLIES.delete())
    both_ways("2027")
    store.close()
