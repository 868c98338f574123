"""The offline app's host under CPython: the messages its Web Worker answers (issue 16).

:class:`~mattis.offline.DeviceHost` is driven here exactly as the worker drives it, with
JSON text in and out, and a dictionary standing in for IndexedDB. The browser tests
(``tests/test_offline_app_browser.py``) run the same code under Pyodide.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from mattis import Game
from mattis.offline import LOCAL_PREFIX, DeviceHost, device_stats
from mattis.table import TableConfig, table_profile
from mattis.table.ledger import level_stats
from mattis.table.rating import Rating, finishing_ranks, rate, rating_summary

from .web_helpers import create_table, play_to_my_turn, socket_url, web_client

QUICK = dataclasses.replace(table_profile("device"), bot_delay=0.0, hard_seconds=0.02, expert_seconds=0.02,
                            hint_seconds=0.02)
SEATS = [
    {"kind": "human", "name": "Kari"},
    {"kind": "bot", "level": "normal"},
    {"kind": "bot", "level": "easy"},
]


class Dictionary:
    """IndexedDB as a dictionary: every save is counted; ``failing`` makes saves fail."""

    def __init__(self) -> None:
        self.tables: dict[str, str] = {}
        self.records: dict[str, str] = {}
        self.results_saved: dict[str, str] = {}
        self.saves = 0
        self.failing = False
        self.claimed: set[str] = set()
        """Tables held by a worker (a Web Lock in the browser)."""

    def release_all(self) -> None:
        """Every worker ended (the app was closed)."""
        self.claimed.clear()

    def release(self, table_id: str) -> object:
        self.claimed.discard(table_id)
        return None

    async def load(self, table_id: str) -> object:
        return self.tables.get(table_id)

    async def save(self, table_id: str, data: str, finished: str) -> object:
        if self.failing:
            raise OSError("quota exceeded")
        self.tables[table_id] = data
        if finished:
            game = json.loads(finished)
            self.records[game["key"]] = game["record"]
            self.results_saved[game["key"]] = game["result"]
        self.saves += 1
        return None

    async def table_ids(self) -> object:
        return list(self.tables)

    async def results(self) -> object:
        return list(self.results_saved.values())

    async def claim(self, table_id: str) -> object:
        if table_id in self.claimed:
            return False
        self.claimed.add(table_id)
        return True


class Page:
    """The page's side of the worker: sends ops, collects what comes back."""

    def __init__(self, device: Dictionary, config: TableConfig = QUICK) -> None:
        self.posted: list[dict[str, Any]] = []
        self.tables = DeviceHost(device, lambda text: self.posted.append(json.loads(text)), config)
        self.calls = 0

    async def call(self, name: str, **fields: Any) -> dict[str, Any]:
        self.calls += 1
        self.tables.receive(
            json.dumps({"op": "call", "id": self.calls, "name": name, "lang": "en", **fields})
        )
        await self.tables.idle()
        return next(item for item in self.posted if item.get("reply") == self.calls)

    async def open(self, conn: str, table: str, token: str, lang: str = "en") -> None:
        self.tables.receive(
            json.dumps({"op": "open", "conn": conn, "tableId": table, "token": token, "lang": lang})
        )
        await self.tables.idle()

    async def send(self, conn: str, message: dict[str, Any]) -> None:
        self.tables.receive(json.dumps({"op": "send", "conn": conn, "text": json.dumps(message)}))
        await self.tables.idle()

    def messages(self, conn: str) -> list[dict[str, Any]]:
        return [item["message"] for item in self.posted if item.get("conn") == conn and "message" in item]

    async def until(
        self, conn: str, done: Callable[[dict[str, Any]], bool], timeout: float = 20.0
    ) -> dict[str, Any]:
        """The newest state of ``conn`` once ``done`` holds for it (bots move meanwhile)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            states = [m for m in self.messages(conn) if m["type"] == "state"]
            if states and done(states[-1]):
                return states[-1]
            await asyncio.sleep(0.005)
        raise AssertionError("the table did not get there in time")


def my_turn_or_over(state: dict[str, Any]) -> bool:
    return bool(state["legal"]) or (state["view"] is not None and state["view"]["phase"] == "over")


async def play_out(page: Page, conn: str, moves: list[str] | None = None) -> dict[str, Any]:
    """Play the first legal move at every turn until the game is over; the final state."""
    while True:
        state = await page.until(conn, my_turn_or_over)
        if state["view"]["phase"] == "over":
            return state
        if moves is not None:
            moves.append(state["legal"][0])
        await page.send(conn, {"type": "act", "action": state["legal"][0]})


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def test_a_whole_game_against_bots_saved_after_every_change() -> None:
    async def scenario() -> None:
        device = Dictionary()
        page = Page(device)
        created = await page.call(
            "createTable", body={"rules": "pagat", "players": 3, "seats": SEATS, "seed": 5}
        )
        assert created["ok"] and created["status"] == 201
        table, token = created["data"]["table"], created["data"]["token"]
        assert table.startswith(LOCAL_PREFIX) and table in device.tables
        await page.open("c1", table, token)
        saves_before_play = device.saves
        final = await play_out(page, "c1")
        assert final["result"]["headline"] and final["table"]["status"] == "over"
        game = Game.from_record(json.loads(device.records[f"{table}/1"]))
        assert game.is_over and list(game.losers) == final["view"]["losers"]
        assert device.saves >= saves_before_play + len(game.actions)  # one save per move at least
        answer = await page.call("record", tableId=table, game=1)
        assert answer["ok"] and Game.from_record(json.loads(answer["data"])) == game
        info = await page.call("tableInfo", tableId=table)
        assert info["data"]["status"] == "over" and info["data"]["seeded"]
        await page.tables.close()

    run(scenario)


def test_my_statistics_count_each_finished_game_for_the_creators_seat() -> None:
    """"Min statistikk": each finished game's result for the owner's seat is saved with its
    record, and ``myStats`` answers the ledger's figures over all and per bot level."""

    async def scenario() -> None:
        device = Dictionary()
        page = Page(device)
        empty = await page.call("myStats")
        assert empty["ok"] and empty["data"]["games"] == 0 and empty["data"]["levels"] == []
        lost = 0
        ranks: list[list[float]] = []
        for seed in (5, 6):
            created = await page.call(
                "createTable", body={"rules": "pagat", "players": 3, "seats": SEATS, "seed": seed}
            )
            table, token = created["data"]["table"], created["data"]["token"]
            await page.open(f"c{seed}", table, token)
            final = await play_out(page, f"c{seed}")
            mattis = 0 in final["view"]["losers"]
            lost += mattis
            result = Game.from_record(json.loads(device.records[f"{table}/1"])).result
            assert result is not None
            saved = json.loads(device.results_saved[f"{table}/1"])
            assert saved == {
                "levels": ["normal", "easy"], "mattis": mattis, "empty_loss": mattis and result.lost_on_empty,
                "seat": 0, "seat_levels": [None, "normal", "easy"], "out_order": list(result.out_order),
                "losers": list(result.losers), "finished": saved["finished"]}
            assert saved["finished"] == pytest.approx(time.time(), abs=600)
            ranks.append([float(place) for place in finishing_ranks(3, result.out_order, result.losers)])
        answer = await page.call("myStats")
        figures = answer["data"]
        assert answer["ok"] and figures["games"] == 2 and figures["mattis"] == lost
        assert figures["rate"] == lost / 2 and figures["rate_interval"] is None  # under 10 games
        assert [(row["level"], row["games"], row["mattis"]) for row in figures["levels"]] == [
            ("easy", 2, lost), ("normal", 2, lost)]
        # the owner's OpenSkill rating, as the openskill package rates the two games in turn
        model = PlackettLuce()
        own = model.rating()
        for places in ranks:
            own = model.rate([[own], [model.rating(mu=25.0, sigma=2.0)], [model.rating(mu=20.0, sigma=2.0)]],
                             ranks=places)[0][0]
        assert figures["rating"] == {"mu": round(own.mu, 3), "sigma": round(own.sigma, 3),
                                     "ordinal": round(own.mu - 3 * own.sigma, 3), "games": 2}
        await page.tables.close()

    run(scenario)


def test_device_stats_reads_what_was_saved_and_skips_what_does_not_read() -> None:
    saved = [json.dumps({"levels": ["easy"], "mattis": index % 4 == 0, "empty_loss": index == 0})
             for index in range(12)]
    figures = device_stats([*saved, "not json", json.dumps({"levels": "easy"})])
    assert figures["games"] == 12 and figures["mattis"] == 3 and figures["empty_losses"] == 1
    assert figures["levels"][0]["level"] == "easy" and figures["levels"][0]["games"] == 12
    low, high = figures["rate_interval"]
    assert low < 0.25 < high
    assert figures == {**level_stats([(["easy"], index % 4 == 0) for index in range(12)]), "empty_losses": 1,
                       "rating": None}  # saved before ratings: no places to rate


def test_the_device_rates_its_owner_in_the_order_the_games_ended() -> None:
    def result(at: float | None, out_order: list[int], losers: list[int], seat: object = 1) -> str:
        return json.dumps({"levels": ["hard"], "mattis": 1 in losers, "empty_loss": False, "seat": seat,
                           "seat_levels": ["hard", None, None], "out_order": out_order, "losers": losers,
                           "finished": at})

    first, second = result(100.0, [1, 2], [0]), result(200.0, [0, 2], [1])
    damaged = [result(150.0, [1, 5], [0]), result(150.0, [1, 2], [0], seat="1"), result(None, [], [0])]
    figures = device_stats([second, *damaged, first])
    assert figures["games"] == 5  # every result counts in the figures; three cannot be rated
    hard, friend = Rating(28.0, 2.0), Rating(25.0, 8.333)
    own = rate([hard, Rating(), friend], finishing_ranks(3, [1, 2], [0]))[1]
    own = rate([hard, own, friend], finishing_ranks(3, [0, 2], [1]))[1]
    assert figures["rating"] == rating_summary(own, 2)


def test_closing_mid_game_and_opening_again_continues_where_it_was() -> None:
    async def scenario() -> None:
        device = Dictionary()
        first = Page(device)
        created = (await first.call("createTable", body={"players": 3, "seats": SEATS}))["data"]
        await first.open("c1", created["table"], created["token"])
        for _ in range(4):
            state = await first.until("c1", my_turn_or_over)
            await first.send("c1", {"type": "act", "action": state["legal"][0]})
        state = await first.until("c1", my_turn_or_over)
        await first.tables.close()  # the app is closed: only the device remains
        device.release_all()
        again = Page(device)
        await again.open("c9", created["table"], created["token"])
        resumed = again.messages("c9")[0]
        assert resumed["view"]["hand"] == state["view"]["hand"]
        assert resumed["view"]["event_count"] == state["view"]["event_count"]
        assert resumed["log"][-len(state["log"]) :] == state["log"] or resumed["log"]
        listed = await again.call("list")
        assert [item["table"] for item in listed["data"]] == [created["table"]]
        final = await play_out(again, "c9")
        assert final["view"]["phase"] == "over"
        await again.tables.close()

    run(scenario)


def test_refusals_are_the_servers() -> None:
    async def scenario() -> None:
        device = Dictionary()
        page = Page(device)
        created = (await page.call("createTable", body={"players": 3, "seats": SEATS}))["data"]
        bad = await page.call("createTable", body={"rules": "chess"})
        assert not bad["ok"] and bad["status"] == 400 and bad["data"]["code"] == "bad_request"
        missing = await page.call("tableInfo", tableId=LOCAL_PREFIX + "nothing")
        assert missing["status"] == 404 and missing["data"]["code"] == "not_found"
        early = await page.call("record", tableId=created["table"])
        assert early["status"] == 409 and early["data"]["code"] == "game_not_over"
        await page.open("bad", created["table"], "wrong-token")
        assert page.messages("bad")[0]["code"] == "bad_token"
        assert {"conn": "bad", "closed": 1008} in page.posted
        await page.open("c1", created["table"], created["token"])
        state = await page.until("c1", my_turn_or_over)
        for message, code in [
            ({"type": "dance"}, "bad_message"),
            ({"type": "act", "action": "zz"}, "malformed"),
            ({"type": "again"}, "bad_message"),
        ]:
            await page.send("c1", message)
            assert page.messages("c1")[-1]["code"] == code
        page.tables.receive(json.dumps({"op": "send", "conn": "c1", "text": "{not json"}))
        await page.tables.idle()
        assert page.messages("c1")[-1]["code"] == "bad_json"
        device.failing = True
        await page.send("c1", {"type": "act", "action": state["legal"][0]})
        assert page.messages("c1")[-1]["code"] == "storage"
        device.failing = False
        await page.send("c1", {"type": "state"})
        assert page.messages("c1")[-1]["view"]["hand"] == state["view"]["hand"]  # the move was undone
        await page.send("c1", {"type": "hint"})
        hint = page.messages("c1")[-1]
        assert hint["type"] == "hint" and hint["action"] in state["legal"]
        await page.send("c1", {"type": "lang", "lang": "nb"})
        assert page.messages("c1")[-1]["type"] == "state"
        await page.tables.close()

    run(scenario)


def test_the_same_seed_gives_the_same_game_and_bot_moves_as_on_the_server(tmp_path: Path) -> None:
    """A server table and a device table, same seed, same person's moves: same record."""
    body = {"rules": "kortregler", "players": 3, "seats": SEATS, "seed": 77}
    moves_on_server: list[str] = []
    with web_client(tmp_path / "server.sqlite3") as client:
        table = create_table(client, **body)
        with client.websocket_connect(socket_url(table)) as socket:
            while True:
                state = play_to_my_turn(socket)
                if state["view"]["phase"] == "over":
                    break
                moves_on_server.append(state["legal"][0])
                socket.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
        server_record = client.get(f"/api/tables/{table['table']}/record").json()

    async def on_the_device() -> dict[str, Any]:
        page = Page(Dictionary())
        created = (await page.call("createTable", body=body))["data"]
        await page.open("c1", created["table"], created["token"])
        moves: list[str] = []
        await play_out(page, "c1", moves)
        assert moves == moves_on_server
        record = json.loads((await page.call("record", tableId=created["table"]))["data"])
        await page.tables.close()
        return dict(record)

    local_record = asyncio.run(on_the_device())
    assert local_record == server_record


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
def test_every_bot_level_plays_a_whole_game_on_the_device(level: str) -> None:
    async def scenario() -> None:
        page = Page(Dictionary())
        seats = [
            {"kind": "human", "name": "Kari"},
            {"kind": "bot", "level": level},
            {"kind": "bot", "level": level},
        ]
        created = (await page.call("createTable", body={"rules": "app", "players": 3, "seats": seats}))[
            "data"
        ]
        await page.open("c1", created["table"], created["token"])
        final = await play_out(page, "c1")
        assert final["result"]["losers"] == final["view"]["losers"]
        assert page.tables.failures == []
        await page.tables.close()

    run(scenario)


def test_a_table_plays_in_one_tab_at_a_time() -> None:
    """Two tabs each saving the whole table would save over each other's moves: the second
    is told the table is open elsewhere, and gets it once the first is closed."""

    async def scenario() -> None:
        device = Dictionary()
        first, second = Page(device), Page(device)
        created = (await first.call("createTable", body={"players": 3, "seats": SEATS}))["data"]
        await first.open("c1", created["table"], created["token"])
        await second.open("c2", created["table"], created["token"])
        assert second.messages("c2")[-1]["code"] == "open_elsewhere"
        info = await second.call("tableInfo", tableId=created["table"])
        assert info["status"] == 409 and info["data"]["code"] == "open_elsewhere"
        await first.tables.close()
        device.release_all()
        await second.open("c3", created["table"], created["token"])
        assert second.messages("c3")[-1]["type"] == "state"
        await second.tables.close()

    run(scenario)


def test_a_seeded_table_is_made_with_the_standard_library_pyodide_has(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pyodide's hashlib has no OpenSSL, hence no ``pbkdf2_hmac``: a seeded table must still
    be made, and deal the same match as the server (the secret comes from SHA-256 alone)."""
    import hashlib

    from mattis.frontend.match import MatchSecret

    on_the_server = MatchSecret.from_seed(11).game_seed(1)
    monkeypatch.delattr(hashlib, "pbkdf2_hmac")
    assert MatchSecret.from_seed(11).game_seed(1) == on_the_server

    async def scenario() -> None:
        page = Page(Dictionary())
        created = await page.call(
            "createTable", body={"rules": "app", "players": 4, "seed": 11,
                                 "seats": [*SEATS, {"kind": "bot", "level": "easy"}]}
        )
        assert created["ok"] and created["status"] == 201, created

    run(scenario)


def test_a_bug_answers_the_page_instead_of_leaving_it_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A call that fails inside the worker answers ``server_error`` (and is counted), so the
    page shows an error rather than waiting for a reply that never comes."""

    async def broken(self: DeviceHost, body: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(DeviceHost, "create", broken)

    async def scenario() -> None:
        page = Page(Dictionary())
        answered = await page.call("createTable", body={"rules": "pagat", "players": 3, "seats": SEATS})
        assert not answered["ok"] and answered["status"] == 500
        assert answered["data"]["code"] == "server_error" and answered["data"]["message"]
        assert page.tables.failures == ["RuntimeError: a bug"]

    run(scenario)


def infinite_score(data: dict[str, Any]) -> str:
    data["tables"][next(iter(data["tables"]))]["match"]["scores"] = [float("inf")] * 3
    return json.dumps(data)


def deep_nesting(data: dict[str, Any]) -> str:
    table_id = next(iter(data["tables"]))
    text = json.dumps(data)
    rules = json.dumps(data["tables"][table_id]["rules"])
    return text.replace(rules, "[" * 100_000 + "]" * 100_000, 1)


def wrong_types(data: dict[str, Any]) -> str:
    table = data["tables"][next(iter(data["tables"]))]
    table["players"], table["seats"][1]["kind"] = "three", 7
    return json.dumps(data)


def missing_fields(data: dict[str, Any]) -> str:
    del data["tables"][next(iter(data["tables"]))]["match"]
    return json.dumps(data)


@pytest.mark.parametrize("tamper", [infinite_score, deep_nesting, wrong_types, missing_fields])
def test_a_damaged_save_is_set_aside_and_harms_nothing_else(tamper: Callable[[dict[str, Any]], str]) -> None:
    """Any error while loading a saved table sets it aside as ``damaged`` (its lock let go);
    every other saved table is listed and plays on (issue 29.6)."""

    async def scenario() -> None:
        device = Dictionary()
        first = Page(device)
        good = (await first.call("createTable", body={"players": 3, "seats": SEATS, "seed": 3}))["data"]
        bad = (await first.call("createTable", body={"players": 3, "seats": SEATS, "seed": 4}))["data"]
        await first.tables.close()
        device.release_all()
        device.tables[bad["table"]] = tamper(json.loads(device.tables[bad["table"]]))
        page = Page(device)
        listed = await page.call("list")
        assert listed["ok"] and [item["table"] for item in listed["data"]] == [good["table"]]
        info = await page.call("tableInfo", tableId=bad["table"])
        assert info["status"] == 410 and info["data"]["code"] == "damaged" and info["data"]["message"]
        for call in ("joinTable", "record"):
            assert (await page.call(call, tableId=bad["table"]))["data"]["code"] == "damaged"
        await page.open("c1", bad["table"], bad["token"])
        assert [message["code"] for message in page.messages("c1")] == ["damaged"]
        assert {"conn": "c1", "closed": 4410} in page.posted
        assert bad["table"] not in device.claimed  # another tab may look at it: no open_elsewhere
        assert any("damaged" in failure for failure in page.tables.failures)
        await page.open("c2", good["table"], good["token"])
        state = await page.until("c2", my_turn_or_over)
        await page.send("c2", {"type": "act", "action": state["legal"][0]})
        assert page.messages("c2")[-1]["type"] == "state"
        assert (await page.call("list"))["data"][0]["table"] == good["table"]
        await page.tables.close()
        device.release_all()
        other_tab = Page(device)  # a fresh worker tries the damaged table again, and is told the same
        assert (await other_tab.call("tableInfo", tableId=bad["table"]))["data"]["code"] == "damaged"
        assert bad["table"] not in device.claimed

    run(scenario)
