"""The offline app's host: tables on the device, driven by messages from the page.

The page talks to the worker in JSON text, one message at a time, and the worker hands each
to :meth:`LocalTables.receive`:

* ``{"op": "call", "id": N, "name": NAME, "lang": L, ...}`` for what the server answers over
  HTTP: ``createTable`` (``body``), ``tableInfo`` and ``joinTable`` (``tableId``, ``name``),
  ``record`` (``tableId``, ``game``; answered as JSON text, since JavaScript's numbers
  cannot hold a 64-bit seed), ``list`` and ``searchSpeed`` (``seconds``: the ``hard`` search's
  iterations a second here, for the benchmark). The answer is
  ``{"reply": N, "ok": …, "status": …, "data": …}``, the body and status the server would give.
* ``{"op": "open", "conn": C, "tableId", "token", "lang"}``, ``{"op": "send", "conn": C,
  "text": TEXT}`` and ``{"op": "close", "conn": C}`` for a seat's socket: ``TEXT`` is what a
  page sends over the WebSocket, and every message the socket would carry comes back as
  ``{"conn": C, "message": …}`` (``{"conn": C, "closed": 1008}`` when the token is refused).

Every change is stored before anyone hears of it, as on the server: the table's rows go into
its :class:`~mattis.table.MemoryStore`, which is saved whole to the device, and a finished
game's record with it. Bots think in line (the worker is not the page, so nothing freezes);
nobody stands in for an absent person (the only person is the one holding the device).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.game import Game
from ..i18n import Lang, is_lang, t
from ..table import (
    ActionRow,
    BotJob,
    DecisionParts,
    HintJob,
    Job,
    MemoryStore,
    Outcome,
    Reader,
    Refusal,
    Row,
    TableConfig,
    TableSession,
    carry_out,
    drive_bots,
    perform,
    run_job,
)
from ..table.protocol import dispatch, read_seat_message
from ..table.records import finished_record

LOCAL_PREFIX = "local-"
"""Every table kept on the device has an id starting with this, so the page's transport
knows to send it to the worker and not to a server."""

LOCAL_HARD_SECONDS = 1.0
"""Thinking time of a ``hard`` bot on a phone: a move a second keeps the game moving, and
the search finds most of its strength in the first few hundred iterations."""

LOCAL_EXPERT_SECONDS = 2.0
"""Longest thinking time of an ``expert`` bot on a phone: Pyodide searches about five times
slower than a computer's Python, so the expert stops at this time, well before its
iteration budget; it keeps its informed rollouts and still thinks twice as long as ``hard``."""


def is_local(table_id: str) -> bool:
    """Whether a table lives on the device (its id says so)."""
    return table_id.startswith(LOCAL_PREFIX)


class Device(Protocol):
    """The device's storage: IndexedDB in the browser, a dictionary in the tests."""

    def load(self, table_id: str) -> Awaitable[object]:
        """The saved text of a table (its store's :meth:`~MemoryStore.to_data` as JSON), or
        anything that is not text when there is none."""
        ...

    def save(self, table_id: str, data: str, record_key: str, record: str) -> Awaitable[object]:
        """Save a table's text (and, when ``record_key`` is not empty, a finished game's
        record under it) in one go; fail (raise or reject) if that is not possible."""
        ...

    def table_ids(self) -> Awaitable[object]:
        """The ids of every saved table (an iterable of text)."""
        ...

    def claim(self, table_id: str) -> Awaitable[object]:
        """Hold the table for this worker until it ends (truthy), or say that another one
        holds it (falsy): two tabs playing one table would each save over the other's moves."""
        ...


@dataclass(frozen=True, slots=True)
class LocalSettings:
    """How the device's tables behave; the defaults suit people, the tests shorten the waits."""

    bot_delay: float = 0.8
    """Seconds before each bot move, so the person can follow the play."""
    hard_seconds: float = LOCAL_HARD_SECONDS
    """Thinking time of a ``hard`` bot per move."""
    expert_seconds: float = LOCAL_EXPERT_SECONDS
    """Longest thinking time of an ``expert`` bot per move."""
    hint_seconds: float = 0.5
    """Thinking time of the hint."""

    @property
    def table(self) -> TableConfig:
        """What the tables themselves need to know (no invite: nobody else can reach them)."""
        return TableConfig(hard_seconds=self.hard_seconds, expert_seconds=self.expert_seconds,
                           hint_seconds=self.hint_seconds,
                           invite_prefix=None)


def record_key(table_id: str, game_number: int) -> str:
    """Where a finished game's record is saved (and where the service worker finds it)."""
    return f"{table_id}/{game_number}"


@dataclass
class _Table:
    """One table on the device: its session, its rows and the worker's part."""

    session: TableSession
    store: MemoryStore = field(default_factory=MemoryStore)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    driver: asyncio.Task[None] | None = None
    connections: dict[str, Reader] = field(default_factory=dict)


class LocalTables:
    """Every table of the device, hosted for the page (see the module docstring); it is the
    :class:`~mattis.table.TableHost` of each of them."""

    def __init__(self, device: Device, post: Callable[[str], object],
                 settings: LocalSettings | None = None) -> None:
        self.device = device
        self.post = post
        self.settings = settings or LocalSettings()
        self.tables: dict[str, _Table] = {}
        self.connections: dict[str, _Table] = {}
        self.inbox: asyncio.Queue[str] | None = None
        self.reader_task: asyncio.Task[None] | None = None
        self.failures: list[str] = []
        """What went wrong outside any request (a bot move that failed), newest last."""

    # ---------------------------------------------------------------- messages in and out

    def receive(self, text: str) -> None:
        """Take one message from the page; they are handled one at a time, in order."""
        if self.inbox is None:
            self.inbox = asyncio.Queue()
            self.reader_task = asyncio.ensure_future(self._read())
        self.inbox.put_nowait(text)

    async def idle(self) -> None:
        """Wait until every message received so far is handled (for tests and shutdown)."""
        if self.inbox is not None:
            await self.inbox.join()

    async def _read(self) -> None:
        assert self.inbox is not None
        while True:
            text = await self.inbox.get()
            try:
                await self._handle(text)
            except Exception as error:  # a bug must cost one message, never the worker
                self.failures.append(f"{type(error).__name__}: {error}")
            finally:
                self.inbox.task_done()

    def send(self, envelope: dict[str, Any]) -> None:
        """Post one envelope to the page (``conn`` and ``message``, or ``closed``)."""
        self.post(json.dumps(envelope, ensure_ascii=False, separators=(",", ":")))

    async def _handle(self, text: str) -> None:
        message = json.loads(text)
        op = message.get("op")
        if op == "call":
            await self._call(message)
        elif op == "open":
            await self._open(str(message.get("conn")), str(message.get("tableId") or ""),
                             str(message.get("token") or ""), _lang(message.get("lang")))
        elif op == "send":
            await self._seat_message(str(message.get("conn")), message.get("text"))
        elif op == "close":
            self._close(str(message.get("conn")))
        else:
            raise ValueError(f"unknown op {op!r}")

    # ---------------------------------------------------------------- requests (the HTTP part)

    async def _call(self, message: dict[str, Any]) -> None:
        lang = _lang(message.get("lang"))
        reply: dict[str, Any] = {"reply": message.get("id")}
        try:
            status, data = await self._answer(str(message.get("name")), message)
            reply |= {"ok": True, "status": status, "data": data}
        except Refusal as error:
            reply |= {"ok": False, "status": error.status,
                      "data": {"type": "error", "code": error.code, "message": error.message(lang)}}
        except Exception as error:  # a bug: the page gets an answer instead of waiting forever
            self.failures.append(f"{type(error).__name__}: {error}")
            failed = Refusal("server_error")
            reply |= {"ok": False, "status": failed.status,
                      "data": {"type": "error", "code": failed.code, "message": failed.message(lang)}}
        self.send(reply)

    async def _answer(self, name: str, message: dict[str, Any]) -> tuple[int, Any]:
        if name == "createTable":
            table, seat, token = await self.create(message.get("body"))
            return 201, {"table": table.session.table_id, "seat": seat, "token": token, "invite": None}
        if name == "list":
            return 200, await self.saved_tables()
        if name == "searchSpeed":
            return 200, search_speed(float(message.get("seconds") or 1.0))
        table = await self._table(str(message.get("tableId") or ""))
        if name == "tableInfo":
            return 200, table.session.summary()
        if name == "joinTable":
            joined: list[tuple[int, str]] = []

            def join() -> Outcome:
                seat, token, outcome = table.session.join(message.get("name"))
                joined.append((seat, token))
                return outcome

            await self.change(table, join)
            return 200, {"seat": joined[0][0], "token": joined[0][1]}
        if name == "record":  # as text: JavaScript's numbers cannot hold the 64-bit seed
            return 200, json.dumps(self.record(table, message.get("game")), separators=(",", ":"))
        raise Refusal("bad_message", f"unknown request {name[:20]!r}")

    async def create(self, body: object) -> tuple[_Table, int, str]:
        """A new table on the device from a ``POST /api/tables`` body; returns it, the
        creator's seat and token (stored before anything is answered)."""
        table_id = LOCAL_PREFIX + secrets.token_urlsafe(9)
        session, creator, token, outcome = TableSession.create(table_id, body, self.settings.table)
        await self.device.claim(table_id)
        table = _Table(session)
        self.tables[table_id] = table
        try:
            async with table.lock:
                await carry_out(self, session, outcome)
        except Refusal:
            del self.tables[table_id]
            raise
        self._start(table)
        return table, creator, token

    def record(self, table: _Table, number: object) -> dict[str, Any]:
        """A finished game's engine record (the latest game by default); refused while the
        replayed game is on, since the record holds the deck."""
        session = table.session
        if number is None:
            number = session.game_number
        if not isinstance(number, int) or isinstance(number, bool):
            raise Refusal("bad_request", "game must be a number")
        return finished_record(table.store.game(session.table_id, number))

    async def saved_tables(self) -> list[dict[str, Any]]:
        """The public facts of every table saved on the device (to continue one)."""
        found = []
        ids = await self.device.table_ids()
        for table_id in [str(item) for item in ids] if isinstance(ids, Iterable) else []:
            table = self.tables.get(table_id)
            if table is not None:
                found.append(table.session.summary())
                continue
            with contextlib.suppress(ValueError, KeyError, TypeError):  # a damaged table is left out
                text = await self.device.load(table_id)
                stored = MemoryStore.from_data(json.loads(str(text))).stored(table_id)
                if stored is not None:  # read, not taken: another tab may be playing it
                    found.append(TableSession.restore(stored, self.settings.table)[0].summary())
        return found

    # ---------------------------------------------------------------- a seat's socket

    async def _open(self, conn: str, table_id: str, token: str, lang: Lang) -> None:
        table = None
        try:
            table = await self._table(table_id)
        except Refusal as error:
            if error.code != "not_found":  # the table is there, but not for this worker now
                self.send({"conn": conn, "message": {"type": "error", "code": error.code,
                                                      "message": error.message(lang)}})
                return
        seat = table.session.seat_of(token) if table is not None and token else None
        if table is None or seat is None:
            self.send({"conn": conn, "message": {"type": "error", "code": "bad_token",
                                                  "message": t("web.err.bad_token", lang)}})
            self.send({"conn": conn, "closed": 1008})
            return
        reader = table.session.reader(seat, lang)
        table.connections[conn] = reader
        self.connections[conn] = table
        outcome = table.session.connect(seat)
        if outcome.changed:
            self.deliver(table.session)
        else:
            self.send({"conn": conn, "message": table.session.state_message(reader)})

    def _close(self, conn: str) -> None:
        table = self.connections.pop(conn, None)
        if table is None:
            return
        reader = table.connections.pop(conn)
        if table.session.disconnect(reader.seat).changed:
            self.deliver(table.session)

    async def _seat_message(self, conn: str, text: object) -> None:
        table = self.connections.get(conn)
        if table is None:
            return
        reader = table.connections[conn]
        try:
            await dispatch(_SeatOfConnection(self, table, conn, reader), read_seat_message(text))
        except Refusal as error:
            self.send({"conn": conn, "message": {"type": "error", "code": error.code,
                                                  "message": error.message(reader.lang)}})

    # ---------------------------------------------------------------- tables in memory

    async def _table(self, table_id: str) -> _Table:
        """A table by id, brought back from the device if it is not in memory; refused with
        ``not_found`` if it is not there either."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not is_local(table_id) or len(table_id) > 40:
            raise Refusal("not_found")
        if not await self.device.claim(table_id):
            raise Refusal("open_elsewhere")
        text = await self.device.load(table_id)
        if not isinstance(text, str):
            raise Refusal("not_found")
        store = MemoryStore.from_data(json.loads(text))
        stored = store.stored(table_id)
        if stored is None:
            raise Refusal("not_found")
        session, outcome = TableSession.restore(stored, self.settings.table)
        table = _Table(session, store)
        self.tables[table_id] = table
        async with table.lock:
            await carry_out(self, session, outcome)
        self._start(table)
        return table

    def _start(self, table: _Table) -> None:
        table.driver = asyncio.ensure_future(self._drive(table))

    async def change(self, table: _Table, make: Callable[[], Outcome]) -> Outcome:
        """Carry out one change of ``table``'s session (the shared ``perform``: save, send)
        and wake its bot driver; the seat adapter calls this for every seat request."""
        outcome = await perform(self, table.session, make)
        table.changed.set()
        return outcome

    async def _drive(self, table: _Table) -> None:
        """Move for the table's bots, one move at a time after the bot delay."""
        session = table.session

        def failed(error: Exception) -> None:
            self.failures.append(f"bot move at {session.table_id}: {type(error).__name__}: {error}")

        await drive_bots(self, session, table.changed, self.settings.bot_delay, failed)

    async def close(self) -> None:
        """Stop every table's bots and the message reader."""
        tasks = [table.driver for table in self.tables.values() if table.driver is not None]
        if self.reader_task is not None:
            tasks.append(self.reader_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # ---------------------------------------------------------------- the host's part

    async def store(self, rows: Sequence[Row]) -> None:
        """Save the table with ``rows`` to the device first; keep it in memory only once that
        worked (a failure raises, and the session undoes the change)."""
        table_id = rows[0].table_id
        table = self.tables[table_id]
        written = table.store.with_rows(rows)
        key, record = "", ""
        game = table.session.game
        finished = [row for row in rows if isinstance(row, ActionRow) and row.over]
        if finished and game is not None and game.is_over:
            key = record_key(table_id, finished[-1].game_number)
            record = json.dumps(game.record(), separators=(",", ":"))
        await self.device.save(table_id, json.dumps(written.to_data(), separators=(",", ":")), key, record)
        table.store = written

    def deliver(self, session: TableSession) -> None:
        """Send every open seat of the table its state."""
        table = self.tables[session.table_id]
        for conn, reader in list(table.connections.items()):
            self.send({"conn": conn, "message": session.state_message(reader)})

    def start_absence_clock(self, session: TableSession, seat: int) -> None:
        """Nothing: on the device nobody else is waiting for an absent person."""

    async def think(self, job: Job) -> DecisionParts:
        """Search in line: the worker is not the page, so the page stays responsive."""
        return run_job(job)

    def exclusive(self, session: TableSession) -> asyncio.Lock:
        """The table's lock."""
        return self.tables[session.table_id].lock


def search_speed(seconds: float) -> dict[str, float]:
    """How fast ``hard`` searches here: its iterations in ``seconds`` from the first move of
    a fixed deal (the benchmark asks the worker and native Python the same)."""
    game = Game.new("pagat", players=3, seed=1)
    legal = tuple(str(action) for action in game.legal_actions())
    job = BotJob("speed", 0, game.view(0), legal, "hard", "speed", seconds)
    started = time.perf_counter()
    iterations = run_job(job)[4]
    elapsed = time.perf_counter() - started
    return {"iterations": iterations, "seconds": elapsed, "per_second": iterations / elapsed}


def _lang(value: object) -> Lang:
    return value if is_lang(value) else "en"


@dataclass(frozen=True, slots=True)
class _SeatOfConnection:
    """A connection's requests (:class:`~mattis.table.protocol.SeatRequests`) on the device:
    changes through the table's lock, hints searched in line, reactions to every open seat."""

    tables: LocalTables
    table: _Table
    conn: str
    reader: Reader

    async def act(self, action: str) -> None:
        session, seat = self.table.session, self.reader.seat
        await self.tables.change(self.table, lambda: session.act(seat, action))

    async def hint(self) -> None:
        session, seat = self.table.session, self.reader.seat
        asked = session.request_hint(seat)
        if isinstance(asked, HintJob):
            try:
                parts = await self.tables.think(asked)
            except Exception:
                session.hint_failed(seat)
                raise
            asked = session.hint_done(seat, asked, parts)
        self.tables.send({"conn": self.conn, "message": session.hint_message(asked, self.reader.lang)})

    async def play_again(self) -> None:
        session, seat = self.table.session, self.reader.seat
        await self.tables.change(self.table, lambda: session.play_again(seat))

    async def fill_with_bot(self, seat: object, level: object) -> None:
        session = self.table.session
        await self.tables.change(self.table, lambda: session.fill_with_bot(seat, level))

    def switch_language(self, lang: Lang) -> None:
        self.reader.switch_language(lang)
        self.resend()

    def resend(self) -> None:
        self.tables.send({"conn": self.conn, "message": self.table.session.state_message(self.reader)})

    def react(self, reaction: object) -> None:
        message = self.table.session.react(self.reader.seat, reaction)
        for conn in list(self.table.connections):
            self.tables.send({"conn": conn, "message": message})
