"""Many servers, one game (issue 18): three ``mattis serve`` processes on one PostgreSQL
database behind nginx with the shipped configuration, all on loopback. Games are played
through nginx (API and WebSocket); the process owning a table is killed mid-game and the
game goes on elsewhere within seconds with every action stored exactly once; servers are
drained, killed and started again while games run.

Each client keeps the largest event count it was ever shown: a server tells a change only
once it is stored, so a count that went down after a move to another server would be a
lost action. The database's own rows are checked too: action numbers 0..n-1 of each game,
each once, and the record replays with ``Game.from_record``.
"""

from __future__ import annotations

import json
import random
import signal
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from mattis import Game
from mattis.core.actions import Action

from .cluster import Cluster, cluster, mattis_serve, missing, wait_until

pytestmark = [pytest.mark.cluster, pytest.mark.xdist_group("cluster")]

PACE = 0.11
"""Seconds between a client's moves (the server allows ten messages a second)."""
TAKEOVER_LIMIT = 15.0
"""Seconds a game may take to go on after its server is killed (it takes about one)."""


@pytest.fixture(scope="module")
def deployment() -> Iterator[Cluster]:
    if missing() is not None:
        pytest.fail(str(missing()))
    with cluster(3, mattis_serve("--bot-delay", "0.02")) as running:
        yield running


def request(base: str, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """One HTTP request; its status and JSON body (errors too)."""
    data = None if body is None else json.dumps(body).encode()
    sent = urllib.request.Request(f"{base}{path}", data=data, method=method,
                                  headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(sent, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        body = error.read()
        return error.code, json.loads(body) if body.startswith(b"{") else {}


def retried(base: str, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> dict[str, Any]:
    """A request, asked again while the answer is ``moved`` (503) or nginx has no server, and,
    as a client should, after a pause when it is ``rate_limited`` (429): the tests of a module
    share one deployment, so they create tables from one address faster than a person would
    (30 a minute after a burst of 20)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            status, data = request(base, method, path, body, headers)
        except OSError:
            status, data = 0, {}
        if status in (200, 201):
            return data
        assert status in (0, 429, 502, 503) and time.monotonic() < deadline, (status, data)
        time.sleep(2.0 if status == 429 else 0.2)


def new_table(base: str, seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    return retried(base, "POST", "/api/tables", {"rules": "pagat", "players": len(seats), "seed": seed,
                                                 "seats": seats})


@dataclass
class Seat:
    """One person at a table, playing random legal moves through nginx, reconnecting
    whenever the socket drops (as the page does)."""

    base: str
    table_id: str
    token: str
    seed: int
    games: int = 1
    seen: dict[int, int] = field(default_factory=dict)
    """The most events ever shown of each game (by its number)."""
    acknowledged: dict[int, list[str]] = field(default_factory=dict)
    """Each game's moves followed by a state on the same socket: stored, when this is the
    only person at the table (else another's move may have sent that state)."""
    sent: dict[int, list[str]] = field(default_factory=dict)
    reconnects: list[float] = field(default_factory=list)
    """Seconds from each dropped socket to the first state of the next one."""
    errors: list[str] = field(default_factory=list)
    finished: dict[str, Any] | None = None
    failure: BaseException | None = None
    moves: int = 0

    @property
    def events_seen(self) -> int:
        """Events shown of the game being played."""
        return self.seen[max(self.seen)] if self.seen else 0

    def url(self) -> str:
        return (self.base.replace("http", "ws") + f"/ws/tables/{self.table_id}?token={self.token}&lang=en")

    def play(self, deadline: float) -> None:
        """Play until the table's game number ``games`` is over (in a thread: failures kept)."""
        try:
            self._play(deadline)
        except BaseException as error:
            self.failure = error

    def _play(self, deadline: float) -> None:
        rng = random.Random(self.seed)
        dropped: float | None = None
        while self.finished is None:
            assert time.monotonic() < deadline, f"table {self.table_id}: the game did not finish"
            try:
                with connect(self.url(), open_timeout=10, close_timeout=2) as ws:
                    dropped = self._on_socket(ws, rng, dropped)
            except (ConnectionClosed, OSError, TimeoutError):
                pass
            if dropped is None:
                dropped = time.monotonic()
            time.sleep(0.1)

    def _on_socket(self, ws: ClientConnection, rng: random.Random, dropped: float | None) -> float | None:
        pending: tuple[int, str] | None = None
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "error":
                self.errors.append(message["code"])
                pending = None
                continue
            if message["type"] != "state":
                continue
            if dropped is not None:
                self.reconnects.append(time.monotonic() - dropped)
                dropped = None
            if pending is not None:
                self.acknowledged.setdefault(pending[0], []).append(pending[1])
                pending = None
            view = message["view"]
            if view is None:
                continue
            number = message["table"]["game"]
            count = message["history_start"] + len(view["history"])
            assert count >= self.seen.get(number, 0), \
                f"table {self.table_id}: {self.seen[number]} events were shown, now only {count}"
            self.seen[number] = count
            if view["phase"] == "over":
                if message["table"]["game"] >= self.games:
                    self.finished = message
                    return None
                ws.send(json.dumps({"type": "again"}))
                continue
            if message["legal"]:
                time.sleep(PACE)
                move = rng.choice(message["legal"])
                pending = (number, move)
                self.sent.setdefault(number, []).append(move)
                self.moves += 1
                ws.send(json.dumps({"type": "act", "action": move}))


def play_all(seats: list[Seat], seconds: float = 90) -> list[threading.Thread]:
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=seat.play, args=(deadline,), daemon=True) for seat in seats]
    for thread in threads:
        thread.start()
    return threads


def finish(seats: list[Seat], threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.join(timeout=120)
    for seat in seats:
        if seat.failure is not None:
            raise seat.failure
        assert seat.finished is not None


def check_stored_once(deployment: Cluster, table_id: str, number: int = 1) -> dict[str, Any]:
    """The record of a finished game replays, and the database holds each of its actions
    exactly once, numbered 0..n-1."""
    record = retried(deployment.base, "GET", f"/api/tables/{table_id}/record?game={number}")
    game = Game.from_record(record)
    assert game.is_over
    engine = create_engine(deployment.postgres.url)
    try:
        with engine.connect() as connection:
            indexes = connection.execute(text(
                "SELECT a.idx FROM mattis_actions a JOIN mattis_games g ON g.id = a.game_id "
                "WHERE g.table_id = :table AND g.number = :number ORDER BY a.idx"),
                {"table": table_id, "number": number}).scalars().all()
            games = connection.execute(text(
                "SELECT count(*) FROM mattis_games WHERE table_id = :table AND number = :number"),
                {"table": table_id, "number": number}).scalar()
    finally:
        engine.dispose()
    assert games == 1
    assert list(indexes) == list(range(len(record["actions"])))
    return record


def seat_actions(record: dict[str, Any], seat: int) -> list[str]:
    """The actions ``seat`` played in a record (replayed to know who was to move)."""
    game = Game.from_record({**record, "actions": [], "result": None})
    mine = []
    for text_form in record["actions"]:
        if game.to_move == seat:
            mine.append(text_form)
        game.apply(Action.parse(text_form))
    return mine


def check_no_move_lost(seat: Seat, record: dict[str, Any], index: int, number: int = 1) -> None:
    """Every acknowledged move of game ``number`` is in the record, in order, and the seat
    played no more moves there than it sent (a person's seat is never played by a stand-in
    here: nobody is away long enough), and what it was shown last is the whole game."""
    mine = seat_actions(record, index)
    in_record = iter(mine)
    acknowledged = seat.acknowledged.get(number, [])
    assert all(move in in_record for move in acknowledged), (acknowledged, mine)
    assert len(acknowledged) <= len(mine) <= len(seat.sent.get(number, []))
    assert seat.seen[number] == Game.from_record(record).num_events


def owner_of(deployment: Cluster, table_id: str) -> int:
    """The port of the server that owns a table now."""
    owner = lease_owner(deployment, table_id)
    ports = deployment.servers.owner_ports()
    assert owner is not None and owner in ports, (owner, ports)
    return ports[owner]


def test_two_people_play_one_table_through_nginx(deployment: Cluster) -> None:
    """Any server creates a table; a friend joins through nginx; both play over sockets
    routed by the table's id; the record replays and every action is stored once."""
    base = deployment.base
    created = new_table(base, [{"kind": "human", "name": "Kari"}, {"kind": "open"},
                               {"kind": "bot", "level": "normal"}], seed=41)
    assert created["invite"] == f"{base}/t/{created['table']}"  # the address nginx was asked at
    joined = retried(base, "POST", f"/api/tables/{created['table']}/join", {"name": "Ola"})
    assert joined["seat"] == 1
    info = retried(base, "GET", f"/api/tables/{created['table']}")
    assert [seat["kind"] for seat in info["seats"]] == ["human", "human", "bot"]
    seats = [Seat(base, created["table"], created["token"], 1),
             Seat(base, created["table"], joined["token"], 2)]
    finish(seats, play_all(seats))
    record = check_stored_once(deployment, created["table"])
    assert seats[0].finished is not None and seats[1].finished is not None
    assert seats[0].finished["result"]["losers"] == seats[1].finished["result"]["losers"] == list(
        Game.from_record(record).losers)
    for seat in seats:  # what each was shown at the end is the whole stored game
        assert seat.events_seen == Game.from_record(record).num_events
    assert not {"moved", "storage", "server_error"} & {code for seat in seats for code in seat.errors}
    # a spectator's socket reaches the owner as the seats' do (nginx routes by the table's id)
    assert created["watch"].startswith(f"{base}/t/{created['table']}?watch=")
    state = watched_state(base, created["table"], created["watch"].split("?watch=")[1])
    assert state["seat"] is None and state["view"]["hand"] == [] and state["view"]["phase"] == "over"


def watched_state(base: str, table_id: str, secret: str) -> dict[str, Any]:
    """The first state a spectator's socket gets through nginx (tried again while the table
    changes server)."""
    for _ in range(20):
        try:
            with connect(base.replace("http", "ws") + f"/ws/tables/{table_id}?watch={secret}",
                         open_timeout=10, close_timeout=2) as ws:
                while (message := json.loads(ws.recv(timeout=30)))["type"] != "state":
                    assert message["type"] != "error" or message["code"] == "moved", message
                return dict(message)
        except (ConnectionClosed, OSError, TimeoutError):
            time.sleep(0.2)
    raise AssertionError("no spectator's state through nginx")


def test_a_group_game_through_nginx_is_in_the_ledger_at_every_server(deployment: Cluster) -> None:
    """Issue 25: two players and a group made through nginx (any server), a group table
    created and joined with the players' keys, its game played over sockets to its end; the
    ledger then holds it once, and every server answers it, not only the table's owner."""
    base = deployment.base
    players = [retried(base, "POST", "/api/players", {"name": name}) for name in ("Mormor", "Ola")]
    auth = [{"authorization": f"Bearer {player['key']}"} for player in players]
    group = retried(base, "POST", "/api/groups", {"name": "Familien Hansen"}, auth[0])
    assert group["invite"] == f"{base}/g/{group['group']}#join={group['code']}"
    retried(base, "POST", f"/api/groups/{group['group']}/join", {"code": group["code"]}, auth[1])
    created = retried(base, "POST", "/api/tables", {
        "rules": "pagat", "players": 3, "seed": 43, "group": group["group"],
        "seats": [{"kind": "human", "name": "Mormor"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]},
        auth[0])
    joined = retried(base, "POST", f"/api/tables/{created['table']}/join", {"name": "Ola"}, auth[1])
    seats = [Seat(base, created["table"], created["token"], 3),
             Seat(base, created["table"], joined["token"], 4)]
    finish(seats, play_all(seats))
    record = check_stored_once(deployment, created["table"])
    losers = list(Game.from_record(record).losers)
    expected = [players[seat]["player"] for seat in losers if seat < 2]
    for port in deployment.servers.ports:  # each server on its own, then through nginx
        for server_base in (f"http://127.0.0.1:{port}", base):
            ledger = retried(server_base, "GET", f"/api/groups/{group['group']}/ledger?season=all",
                             None, auth[1])
            assert ledger["games"] == 1 and ledger["history"][0]["table"] == created["table"]
            assert ledger["history"][0]["mattis"] == expected
    status, refused = request(base, "GET", f"/api/groups/{group['group']}/ledger", None,
                              {"authorization": "Bearer wrong"})
    assert status == 401 and refused["code"] == "bad_key"


def test_killing_the_owner_mid_game_loses_nothing(deployment: Cluster) -> None:
    """SIGKILL the server that owns a table in the middle of its game: through nginx the
    game goes on on another server within seconds (taken over and replayed from the
    store), from its last action: nothing lost, nothing stored twice."""
    base = deployment.base
    created = new_table(base, [{"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "normal"},
                               {"kind": "bot", "level": "easy"}], seed=42)
    seat = Seat(base, created["table"], created["token"], 3)
    threads = play_all([seat])
    wait_until(lambda: seat.moves >= 8 or seat.failure is not None, 60, "eight moves")
    victim = owner_of(deployment, created["table"])
    seen_before = seat.events_seen
    deployment.servers.kill(victim)
    killed_at = time.monotonic()
    wait_until(lambda: seat.events_seen > seen_before + 3 or seat.failure is not None, TAKEOVER_LIMIT,
               "the game to go on after the kill")
    went_on = time.monotonic() - killed_at
    finish([seat], threads)
    assert seat.reconnects and max(seat.reconnects) < TAKEOVER_LIMIT, seat.reconnects
    assert owner_of(deployment, created["table"]) != victim
    record = check_stored_once(deployment, created["table"])
    check_no_move_lost(seat, record, 0)
    print(f"the game went on {went_on:.2f} s after the kill; reconnects took {seat.reconnects}")
    deployment.servers.start(victim)
    # back in the ring, nginx sends the table's requests to it again, and the interim owner
    # hands the table back: ownership follows the routing
    wait_until(lambda: bool(retried(base, "GET", f"/api/tables/{created['table']}"))
               and owner_of(deployment, created["table"]) == victim, 30, "the table to be handed back")


def test_servers_drained_killed_and_started_while_games_run(deployment: Cluster) -> None:
    """Four tables play while one server is drained (SIGTERM: it exits cleanly and its
    tables go on elsewhere), started again, and another is killed and started again."""
    base = deployment.base
    seats = []
    for index in range(4):
        created = new_table(base, [{"kind": "human", "name": f"P{index}"},
                                   {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "normal"}],
                            seed=50 + index)
        seats.append(Seat(base, created["table"], created["token"], 10 + index, games=2))
    threads = play_all(seats, seconds=150)
    servers = deployment.servers
    first, second = servers.ports[0], servers.ports[1]
    wait_until(lambda: all(seat.moves >= 3 for seat in seats) or any(s.failure for s in seats), 60,
               "every table to be playing")
    assert servers.stop(first) in (0, -signal.SIGTERM)  # uvicorn ends by raising the signal again
    assert "drained" in servers.log(first)  # ... once the shutdown went through
    servers.start(first)
    wait_until(lambda: all(seat.moves >= 12 for seat in seats) or any(s.failure for s in seats), 90,
               "every table to go on after the drain")
    servers.kill(second)
    servers.start(second)
    finish(seats, threads)
    for seat in seats:
        for number in (1, 2):
            check_no_move_lost(seat, check_stored_once(deployment, seat.table_id, number), 0, number)
        assert seat.finished is not None and seat.finished["table"]["game"] == 2
    takeovers = sum(metric(port, "mattis_lease_takeovers_total") for port in servers.ports)
    handovers = sum(metric(port, "mattis_table_handovers_total") for port in servers.ports)
    assert takeovers + handovers >= 1  # the restarted servers' counts start at zero; some moved


def metric(port: int, name: str) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        for line in response.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    raise AssertionError(f"no {name} at {port}")


def test_health_and_metrics_of_each_server(deployment: Cluster) -> None:
    for port in deployment.servers.ports:
        status, facts = request(f"http://127.0.0.1:{port}", "GET", "/healthz")
        assert status == 200 and facts["status"] == "ok" and facts["database"] is True
        assert facts["lease"]["on_time"] is True and isinstance(facts["lease"]["owner"], int)
        assert metric(port, "mattis_tables") >= 0 and metric(port, "mattis_worker_queue") == 0
    assert request(deployment.base, "GET", "/healthz")[0] == 404  # not through nginx


def test_rate_limits_count_the_address_nginx_saw(deployment: Cluster) -> None:
    """Through nginx a client cannot choose its address with ``X-Forwarded-For`` (nginx
    replaces it), so joins from one client are limited however it varies the header; a
    server believes the header only from the proxy it was told to trust. Last: it uses up
    this address's allowance."""
    statuses = [request(deployment.base, "POST", "/api/tables/no-such-table/join", {"name": "x"},
                        {"x-forwarded-for": f"10.0.{index}.1"})[0] for index in range(30)]
    assert 429 in statuses and set(statuses) <= {404, 429}
    port = deployment.servers.ports[0]
    status, _ = request(f"http://127.0.0.1:{port}", "POST", "/api/tables/no-such-table/join", {"name": "x"},
                        {"x-forwarded-for": "10.9.9.9"})
    assert status == 404  # from the trusted proxy address: counted as 10.9.9.9, not refused


def test_a_server_that_lost_a_lease_cannot_write_and_a_double_write_is_refused(deployment: Cluster) -> None:
    """The store's rules on a shared database, with two servers' stores side by side: a
    table whose owner is alive cannot be taken; once the owner's presence ends another
    server takes it (the epoch goes up), the old owner's next write is fenced off (nothing
    of it stored), and an action number written twice is refused by the database."""
    import psycopg
    from sqlalchemy.exc import IntegrityError

    from mattis.table.rows import ActionRow, NewGame, NewTable, TableUpdate
    from mattis.web.leases import libpq_url
    from mattis.web.store import PRESENCE_LOCK_CLASS, Store

    url = deployment.postgres.url
    first, second = Store(url), Store(url)
    presences = []
    try:
        for store in (first, second):
            store.owner = store.new_owner()
            presence = psycopg.connect(libpq_url(url), autocommit=True)
            presence.execute("SELECT pg_advisory_lock(%s, %s)", (PRESENCE_LOCK_CLASS, store.owner))
            presences.append(presence)
        table_id = f"fence-{first.owner}"
        seats = [{"kind": "bot", "level": "easy"}] * 3
        assert first.add_actions([NewTable(table_id=table_id, rules={}, players=3, seats=seats,
                                           match={"scores": [0, 0, 0]}),
                                  NewGame(table_id, 1, {"deck": []}),
                                  ActionRow(table_id=table_id, game_number=1, index=0, seat=0,
                                            action="7h", over=True)]) == set()
        # finished, so the servers' sweeps leave it alone (they take over unfinished tables)
        second_owner = second.owner
        assert second_owner is not None
        assert second.take_lease(table_id, second_owner).outcome == "busy"
        presences[0].close()  # the first server dies: its lock goes with its connection
        answers = []

        def taken() -> bool:
            answers.append(second.take_lease(table_id, second_owner))
            return answers[-1].outcome == "taken"

        wait_until(taken, 10, "the first server's lock to end")
        assert answers[-1].previous == first.owner
        assert first.add_actions([TableUpdate(table_id, [], {"scores": [9, 9, 9]})]) == {table_id}
        stored = second.load_table(table_id)
        assert stored is not None and stored.match == {"scores": [0, 0, 0]} and len(stored.seats) == 3
        with pytest.raises(IntegrityError):
            second.add_actions([ActionRow(table_id=table_id, game_number=1, index=0, seat=0,
                                          action="8h", over=True)])
        game = second.game(table_id, 1)
        assert game is not None and game.actions == ("7h",)
        second.release_lease(table_id, second_owner)
        assert second.lease_owners()[table_id] is None  # parked: no sweep takes it
        assert table_id not in second.orphaned_table_ids(1000)
    finally:
        for presence in presences:
            presence.close()
        first.close()
        second.close()


def lease_owner(deployment: Cluster, table_id: str) -> int | None:
    """The owner number of a table's lease (a dead server's too), ``None`` when parked."""
    engine = create_engine(deployment.postgres.url)
    try:
        with engine.connect() as connection:
            owner = connection.execute(text("SELECT owner FROM mattis_leases WHERE table_id = :t"),
                                       {"t": table_id}).scalar()
    finally:
        engine.dispose()
    return None if owner is None else int(owner)


def test_a_dead_servers_games_are_swept_up_and_its_waiting_tables_taken_when_asked(
        deployment: Cluster) -> None:
    """Issue 29: the sweep takes over a dead server's games in play (their bots and clocks go
    on) within each server's limit of tables in memory; a table waiting for players has
    nothing to go on with, so it stays stored until its first request, served by whichever
    server nginx sends it to."""
    servers = deployment.servers
    victim = servers.ports[2]
    direct = f"http://127.0.0.1:{victim}"
    playing = new_table(direct, [{"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "normal"},
                                 {"kind": "bot", "level": "easy"}], seed=71)
    waiting = new_table(direct, [{"kind": "human", "name": "Kari"}, {"kind": "open"},
                                 {"kind": "bot", "level": "easy"}], seed=72)
    dead = lease_owner(deployment, playing["table"])
    assert dead is not None and lease_owner(deployment, waiting["table"]) == dead
    servers.kill(victim)
    try:
        wait_until(lambda: lease_owner(deployment, playing["table"]) not in (None, dead), TAKEOVER_LIMIT,
                   "the game to be taken over")
        time.sleep(2.5)  # a few more sweeps
        assert lease_owner(deployment, waiting["table"]) == dead
        assert retried(deployment.base, "GET", f"/api/tables/{waiting['table']}")["status"] == "waiting"
        assert lease_owner(deployment, waiting["table"]) not in (None, dead)
    finally:
        servers.start(victim)
