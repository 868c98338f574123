"""No client can crowd the others out of the server's memory or workers (issue 29, items 2,
3 and 8): tables waiting for players per address, the tables in memory, tables leaving
memory when nobody is connected, a restart that loads tables only when asked, the fair
queue per client address, searching-bot tables per address, and a record given out only
when the replayed game is over.

The app runs behind uvicorn's own proxy-header middleware, trusting the test client, so
each request says which client address it comes from with ``X-Forwarded-For`` (as behind
nginx with ``--forwarded-allow-ips``)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
import string
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from mattis import Game
from mattis.bots import SEARCHING_LEVELS
from mattis.i18n import message_template, t
from mattis.table import HintJob, Refusal, StoredGame
from mattis.table.records import finished_record
from mattis.web import Settings, create_app
from mattis.web.store import LeaseAnswer
from mattis.web.workqueue import NO_ADDRESS

from .web_helpers import FAST, next_state, play_to_my_turn, receive, socket_url, thread_pool, with_tables

LIMITS = dataclasses.replace(FAST, posts_per_minute=1e6)
"""Short waits, and table creation not rate limited (the limits under test are others)."""
WAITING = [{"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot", "level": "normal"}]
"""A table that waits for a friend."""
AGAINST_BOTS = [{"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "normal"},
                {"kind": "bot", "level": "easy"}]
"""A table that starts at once."""


def searching(level: str = "hard") -> list[dict[str, Any]]:
    return [{"kind": "human", "name": "Kari"}, {"kind": "bot", "level": level},
            {"kind": "bot", "level": "normal"}]


@dataclasses.dataclass
class Served:
    client: TestClient
    app: Starlette

    @property
    def lobby(self) -> Any:
        return self.app.state.lobby

    def create(self, address: str, seats: list[dict[str, Any]], **body: Any) -> Any:
        """``POST /api/tables`` from ``address``: the response."""
        return self.client.post("/api/tables", json={"players": 3, "seats": seats, **body},
                                headers=at(address))

    def table(self, address: str, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
        response = self.create(address, seats, **body)
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data

    def socket(self, table: dict[str, Any], address: str = "10.9.9.9") -> Any:
        return self.client.websocket_connect(socket_url(table), headers=at(address))


def at(address: str) -> dict[str, str]:
    return {"x-forwarded-for": address}


@contextmanager
def served(db: Path, settings: Settings = LIMITS) -> Iterator[Served]:
    app = create_app(f"sqlite:///{db}", settings, executor_factory=thread_pool)
    proxied: Any = ProxyHeadersMiddleware(app, trusted_hosts="*")  # type: ignore[arg-type]  # ASGI types differ
    with TestClient(proxied) as client:
        yield Served(client, app)


def refusal(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["type"] == "error" and body["code"] == code
    return body


# ------------------------------------------------------------------ item 2: tables in memory


def test_one_address_holds_at_most_20_tables_waiting_for_players(tmp_path: Path) -> None:
    with served(tmp_path / "waiting.sqlite3") as server:
        made = [server.table("10.0.0.1", WAITING) for _ in range(20)]
        refused = refusal(server.create("10.0.0.1", WAITING), 429, "too_many_tables")
        assert refused["message"] == t("web.err.too_many_tables", "en", limit=20)
        assert "20" in refused["message"] and "waiting" in refused["message"]
        nb = server.client.post("/api/tables?lang=nb", json={"seats": WAITING}, headers=at("10.0.0.1"))
        assert "venter på spillere" in refusal(nb, 429, "too_many_tables")["message"]
        assert server.create("10.0.0.1", AGAINST_BOTS).status_code == 201  # starts at once: not waiting
        assert server.create("10.0.0.2", WAITING).status_code == 201  # another address has its own
        friend = server.client.post(f"/api/tables/{made[0]['table']}/join", json={"name": "Ola"},
                                    headers=at("10.0.0.3"))
        assert friend.status_code == 200  # that table started: one more may wait
        assert server.create("10.0.0.1", WAITING).status_code == 201
        assert server.create("10.0.0.1", WAITING).status_code == 429
        assert server.lobby.unload_older_than(0) > 0  # nobody connected: they leave memory ...
        assert server.create("10.0.0.1", WAITING).status_code == 201  # ... and stop counting
        assert server.client.get(f"/api/tables/{made[5]['table']}").json()["status"] == "waiting"


def test_at_the_limit_idle_tables_leave_memory_and_only_a_full_house_is_busy(tmp_path: Path) -> None:
    with served(tmp_path / "full.sqlite3", dataclasses.replace(LIMITS, max_tables=3)) as server:
        lobby = server.lobby
        first, second, third = (server.table("10.0.0.1", AGAINST_BOTS) for _ in range(3))
        with server.socket(second) as two, server.socket(third) as three:
            next_state(two)
            next_state(three)
            fourth = server.table("10.0.0.2", AGAINST_BOTS)
            assert set(lobby.tables) == {second["table"], third["table"], fourth["table"]}
            # the first is stored, and comes back when asked for: the idle fourth makes room
            assert server.client.get(f"/api/tables/{first['table']}").status_code == 200
            assert set(lobby.tables) == {first["table"], second["table"], third["table"]}
            with server.socket(first) as one:
                next_state(one)
                busy = server.create("10.0.0.2", AGAINST_BOTS)
                body = refusal(busy, 503, "busy")
                assert busy.headers["retry-after"] == "10"
                assert body["message"] == t("web.err.busy", "en")
                assert refusal(server.client.get(f"/api/tables/{fourth['table']}"), 503, "busy")
                with server.socket(fourth) as late:
                    assert receive(late)["code"] == "busy"
                    with pytest.raises(WebSocketDisconnect) as closed:
                        late.receive_text()
                    assert closed.value.code == 1013  # try again later
                assert len(lobby.tables) == 3
        assert server.create("10.0.0.2", AGAINST_BOTS).status_code == 201  # people left: room again


def test_a_table_leaves_memory_when_nobody_has_been_connected_for_the_idle_time(tmp_path: Path) -> None:
    """Bots playing on alone do not keep a table in memory; the time counts from the moment
    the last person left."""
    assert Settings().idle_unload == 15 * 60
    slow_bots = with_tables(LIMITS, bot_delay=60.0)
    with served(tmp_path / "idle.sqlite3", slow_bots) as server:
        lobby = server.lobby
        table = server.table("10.0.0.1", AGAINST_BOTS, seed=3)
        with server.socket(table) as ws:
            state = play_to_my_turn(ws)
            assert lobby.unload_older_than(0) == 0  # someone is here
            ws.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
            next_state(ws)
        live = lobby.tables[table["table"]]
        assert live.session.bot_to_move  # a bot is to move, in a minute
        assert lobby.unload_older_than(60) == 0  # the person left just now
        lobby.last_seen[table["table"]] -= 61
        assert lobby.unload_older_than(60) == 1 and not lobby.tables
        with server.socket(table) as ws:  # back from the store, where it was left
            assert next_state(ws)["view"]["event_count"] == state["view"]["event_count"] + 1


def stored_actions(db: Path, table_id: str) -> int:
    with sqlite3.connect(db) as database:
        return int(database.execute(
            "SELECT count(*) FROM mattis_actions JOIN mattis_games ON mattis_games.id = game_id "
            "WHERE table_id = ?", (table_id,)).fetchone()[0])


def test_a_restart_loads_no_table_until_it_is_asked_for_and_bots_without_people_wait(tmp_path: Path) -> None:
    db = tmp_path / "lazy.sqlite3"
    with served(db, with_tables(LIMITS, bot_delay=60.0)) as server:
        waiting = [server.table("10.0.0.1", WAITING) for _ in range(5)]
        playing = server.table("10.0.0.2", AGAINST_BOTS, seed=11)
        with server.socket(playing) as ws:
            state = play_to_my_turn(ws)
            ws.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
            next_state(ws)  # the move is stored; a bot is to move next, in a minute
    before = stored_actions(db, playing["table"])
    with served(db, dataclasses.replace(LIMITS, max_tables=3)) as server:
        lobby = server.lobby
        assert lobby.tables == {}
        time.sleep(0.3)
        assert stored_actions(db, playing["table"]) == before  # the bots did not play on alone
        for table in waiting:
            assert server.client.get(f"/api/tables/{table['table']}").json()["status"] == "waiting"
            assert len(lobby.tables) <= 3  # loaded one by one, within the limit
        with server.socket(playing) as ws:  # someone is back: the bots play on
            state = play_to_my_turn(ws)
            assert state["view"]["event_count"] > 0
        assert stored_actions(db, playing["table"]) > before


def test_the_sweep_takes_over_games_only_while_there_is_room(tmp_path: Path) -> None:
    """The PostgreSQL takeover of a dead server's games, with the database's part faked: it
    asks for no more tables than fit, and loads no more."""
    with served(tmp_path / "sweep.sqlite3", dataclasses.replace(LIMITS, max_tables=3)) as server:
        lobby = server.lobby
        orphans = [server.table("10.0.0.1", AGAINST_BOTS)["table"] for _ in range(5)]
        kept = server.table("10.0.0.2", AGAINST_BOTS)
        with server.socket(kept) as ws:
            next_state(ws)
            lobby.unload_older_than(0)
            asked: list[int] = []

            def orphaned(limit: int) -> list[str]:
                asked.append(limit)
                return [table_id for table_id in orphans if table_id not in lobby.tables][:limit]

            async def take(table_id: str, routed: bool) -> LeaseAnswer:
                return LeaseAnswer("taken", 1)

            async def sweep_a_while() -> None:
                sweeping = asyncio.create_task(lobby.sweep(0.01))
                await asyncio.sleep(0.5)
                sweeping.cancel()

            lobby.store.orphaned_table_ids = orphaned
            lobby.store.release_lease = lambda table_id, owner: None
            lobby._take = take
            lobby.presence = SimpleNamespace(owner=1)
            try:
                server.client.portal.call(sweep_a_while)  # type: ignore[union-attr]
            finally:
                lobby.presence = None
            assert asked == [2]  # room for two besides the table in use; then none
            assert set(lobby.tables) == {kept["table"], orphans[0], orphans[1]}


# ------------------------------------------------------------------ item 3: workers and bots


def test_bots_search_for_their_tables_address_and_hints_for_the_askers(tmp_path: Path) -> None:
    """A bot's search is queued for the address that created its table; after a restart, for
    no address until a person connects, then for theirs; a hint for the connection that
    asked."""
    db = tmp_path / "owners.sqlite3"

    def recorded(server: Served) -> list[tuple[str, str]]:
        owners: list[tuple[str, str]] = []
        work = server.lobby.work
        run = work.run

        async def recording(owner: str, cost: float, function: Any, *args: Any) -> Any:
            owners.append((owner, function.__name__))
            return await run(owner, cost, function, *args)

        work.run = recording
        return owners

    seats = [{"kind": "human"}, {"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "expert"}]
    with served(db, with_tables(LIMITS, bot_delay=0.0)) as server:
        owners = recorded(server)
        table = server.table("10.0.0.1", seats, seed=5)
        with server.socket(table, "2001:db8:7:7::5") as ws:
            state = play_to_my_turn(ws)
            ws.send_text(json.dumps({"type": "hint"}))
            while receive(ws)["type"] != "hint":
                pass
            while "choose_move" not in {name for _, name in owners}:
                ws.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
                state = play_to_my_turn(ws)
        assert ("2001:db8:7:7::/64", "suggest_move") in owners
        assert {owner for owner, name in owners if name == "choose_move"} == {"10.0.0.1"}
    with served(db, with_tables(LIMITS, bot_delay=60.0)) as server:
        owners = recorded(server)
        assert server.client.get(f"/api/tables/{table['table']}").status_code == 200
        live = server.lobby.tables[table["table"]]
        assert table["table"] not in server.lobby.addresses
        asked = live.session.request_hint(state["seat"])
        assert isinstance(asked, HintJob)
        assert server.client.portal.call(server.lobby.host.think, asked) is not None  # type: ignore[union-attr]
        with server.socket(table, "10.0.0.3") as ws:
            next_state(ws)
            assert server.lobby.address_of(table["table"]) == "10.0.0.3"
    assert owners[0] == (NO_ADDRESS, "suggest_move")


def test_one_address_has_at_most_4_tables_of_searching_bots_in_play(tmp_path: Path) -> None:
    assert {"hard", "expert"} <= SEARCHING_LEVELS
    with served(tmp_path / "bots.sqlite3") as server:
        mine = [server.table("10.0.0.1", searching(level), seed=index)
                for index, level in enumerate(["hard", "expert", "hard", "expert"])]
        refused = refusal(server.create("10.0.0.1", searching("expert")), 429, "too_many_bot_tables")
        assert refused["message"] == t("web.err.too_many_bot_tables", "en", limit=4)
        assert server.create("10.0.0.1", AGAINST_BOTS).status_code == 201  # quick bots: no limit
        assert server.create("10.0.0.2", searching("expert")).status_code == 201  # another address
        waiting = server.table("10.0.0.1", WAITING)
        with server.socket(waiting) as ws:
            next_state(ws)
            ws.send_text(json.dumps({"type": "bot", "seat": 1, "level": "expert"}))
            assert receive(ws)["code"] == "too_many_bot_tables"
            ws.send_text(json.dumps({"type": "bot", "seat": 1, "level": {"expert": 1}}))
            assert receive(ws)["code"] == "bad_message"  # not a level at all
            ws.send_text(json.dumps({"type": "bot", "seat": 1, "level": "normal"}))
            assert next_state(ws)["table"]["status"] == "playing"
        with server.socket(mine[0]) as ws:  # a finished game is no longer in play ...
            state = play_to_my_turn(ws)
            while state["view"]["phase"] != "over":
                ws.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
                state = play_to_my_turn(ws)
            assert server.create("10.0.0.1", searching("hard")).status_code == 201
            ws.send_text(json.dumps({"type": "again"}))  # ... until the next one is dealt
            assert receive(ws)["code"] == "too_many_bot_tables"


def test_a_burst_of_creations_cannot_pass_the_limits_together(tmp_path: Path) -> None:
    """Each new table counts against its address from the moment it is accepted, before it
    is stored, so requests that arrive together are counted one after the other."""
    with served(tmp_path / "burst.sqlite3") as server:
        lobby = server.lobby

        async def burst(seats: list[dict[str, Any]], count: int) -> list[str]:
            answers = await asyncio.gather(*(lobby.create({"players": 3, "seats": seats}, "10.0.0.1")
                                             for _ in range(count)), return_exceptions=True)
            return sorted(answer.code if isinstance(answer, Refusal) else "created" for answer in answers)

        portal = server.client.portal
        assert portal is not None
        assert portal.call(burst, searching("expert"), 8) == ["created"] * 4 + ["too_many_bot_tables"] * 4
        assert portal.call(burst, WAITING, 25) == ["created"] * 20 + ["too_many_tables"] * 5


def test_the_new_refusals_have_a_status_and_the_same_words_in_both_languages() -> None:
    def placeholders(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    for code, status in (("too_many_tables", 429), ("too_many_bot_tables", 429), ("busy", 503)):
        assert Refusal(code).status == status
        nb, en = message_template(f"web.err.{code}", "nb"), message_template(f"web.err.{code}", "en")
        assert nb and en and nb != en and placeholders(nb) == placeholders(en), code


# ------------------------------------------------------------------ item 8: the record


def test_the_record_is_given_out_only_when_the_replayed_game_is_over(tmp_path: Path) -> None:
    db = tmp_path / "record.sqlite3"
    with served(db) as server:
        table = server.table("10.0.0.1", AGAINST_BOTS, seed=12)
        record_url = f"/api/tables/{table['table']}/record"
        with server.socket(table) as ws:
            state = play_to_my_turn(ws)
            ws.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
            next_state(ws)
            with sqlite3.connect(db) as database:  # a damaged row says the game is over
                database.execute("UPDATE mattis_games SET over = 1 WHERE table_id = ?", (table["table"],))
            refusal(server.client.get(record_url), 409, "game_not_over")
            while state["view"]["phase"] != "over":
                ws.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
                state = play_to_my_turn(ws)
        with sqlite3.connect(db) as database:  # and one says a finished game is still on
            database.execute("UPDATE mattis_games SET over = 0 WHERE table_id = ?", (table["table"],))
        answer = server.client.get(record_url)
        assert answer.status_code == 200 and Game.from_record(answer.json()).is_over


def test_the_shared_record_function_replays_and_never_trusts_the_flag() -> None:
    game = Game.new("pagat", players=3, seed=4)
    start = game.record()
    start.pop("actions")
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    actions = tuple(game.record()["actions"])
    with pytest.raises(Refusal) as refused:
        finished_record(StoredGame(1, start, actions[:10], True))
    assert refused.value.code == "game_not_over"
    assert finished_record(StoredGame(1, start, actions, False)) == game.record()
    with pytest.raises(Refusal) as missing:
        finished_record(None)
    assert missing.value.code == "not_found"


def test_the_offline_app_gives_the_record_only_when_the_replayed_game_is_over() -> None:
    """The device's save says the game is over after one move: the record stays refused."""
    from .test_offline_tables import SEATS, Dictionary, Page, my_turn_or_over

    async def scenario() -> None:
        device = Dictionary()
        page = Page(device)
        created = (await page.call("createTable", body={"players": 3, "seats": SEATS, "seed": 6}))["data"]
        table = created["table"]
        await page.open("c1", table, created["token"])
        state = await page.until("c1", my_turn_or_over)
        await page.send("c1", {"type": "act", "action": state["legal"][0]})
        await page.tables.close()
        device.release(table)
        saved = json.loads(device.tables[table])
        saved["games"][table][0]["over"] = True
        device.tables[table] = json.dumps(saved)
        again = Page(device)
        answer = await again.call("record", tableId=table, game=1)
        assert answer["status"] == 409 and answer["data"]["code"] == "game_not_over"
        await again.tables.close()

    asyncio.run(scenario())
