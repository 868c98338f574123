"""The offline app's host: tables on the device, driven by messages from the page.

The page talks to the worker in JSON text, one message at a time, and the worker hands each
to :meth:`DeviceHost.receive`:

* ``{"op": "call", "id": N, "name": NAME, "lang": L, ...}`` for what the server answers over
  HTTP: ``createTable`` (``body``), ``tableInfo`` and ``joinTable`` (``tableId``, ``name``),
  ``record`` (``tableId``, ``game``; as JSON text: JavaScript's numbers cannot hold a 64-bit
  seed), ``review`` (``tableId``, ``game``, ``token``: a finished game's review for the token's
  seat, worked out here in line with the device's smaller budget, a choice at a time; as the
  server's ``POST /api/tables/{ID}/games/{N}/review`` answers), ``list``, ``myStats`` (the
  device owner's statistics, "Min statistikk": :func:`device_stats`), and for the benchmarks
  and tests ``searchSpeed`` (``seconds``), ``networkCheck`` and ``searchPositions``
  (:mod:`mattis.offline.measure`). The answer is ``{"reply": N, "ok": …, "status": …,
  "data": …}``, the body and status the server would give.
* ``{"op": "open", "conn": C, "tableId", "token", "lang"}``, ``{"op": "send", "conn": C,
  "text": TEXT}`` and ``{"op": "close", "conn": C}`` for a seat's socket: ``TEXT`` is what a
  page sends over the WebSocket, and every message the socket would carry comes back as
  ``{"conn": C, "message": …}``, then ``{"conn": C, "closed": CODE}`` where the server would
  close the socket (1008 for a refused token, 4410 for a damaged table).

The table layer runs each table (:class:`~mattis.table.TableMaster`) with the ``device``
profile; this host saves its rows whole to the device before anyone hears of a change (with a
finished game's record) and thinks in line (the worker is not the page). A saved table that
does not load, for any reason, is set aside as ``damaged`` and its lock let go.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Protocol

from ..i18n import Lang
from ..table.config import TableConfig, table_profile
from ..table.errors import Refusal
from ..table.host import Connection, Timer
from ..table.jobs import BotJob, DecisionParts, Job, run_job
from ..table.master import TableMaster
from ..table.memory import MemoryStore
from ..table.protocol import refused_opening
from ..table.review import ReviewDesk
from ..table.rows import ActionRow, Row
from ..table.session import TableSession
from .network import NETWORK_AGENT, DeviceNetworks, NetworkAgent, NetworkSource, network_levels, network_move
from .requests import DeviceRequests, page_lang
from .stats import seat_result

LOCAL_PREFIX = "local-"
"""Every table kept on the device has an id starting with this, so the page's transport
knows to send it to the worker and not to a server."""

Table = TableMaster[str]
"""A table in the worker: its connections' links are the page's connection numbers."""


def is_local(table_id: str) -> bool:
    """Whether a table lives on the device (its id says so)."""
    return table_id.startswith(LOCAL_PREFIX)


def device_config(*, bot_delay: float | None = None, hard_seconds: float | None = None,
                  hint_seconds: float | None = None, network: bool = False,
                  master_seconds: float | None = None) -> TableConfig:
    """The ``device`` profile, with what the test hooks change (the worker's address carries
    them, from ``localStorage`` ``mattis.app.bot_delay``, ``.hard_seconds``,
    ``.master_seconds``, ``.hint_seconds``), and ``master`` where the app has a network
    (``network``: the worker found its ``network.json``;
    :func:`~mattis.offline.network.network_levels`)."""
    profile = table_profile("device")
    return dataclasses.replace(
        profile, bot_delay=profile.bot_delay if bot_delay is None else bot_delay,
        hard_seconds=profile.hard_seconds if hard_seconds is None else hard_seconds,
        master_seconds=profile.master_seconds if master_seconds is None else master_seconds,
        hint_seconds=profile.hint_seconds if hint_seconds is None else hint_seconds,
        host_levels=network_levels(network))


class Device(Protocol):
    """The device's storage: IndexedDB in the browser, a dictionary in the tests."""

    def load(self, table_id: str) -> Awaitable[object]:
        """A table's saved text (:meth:`MemoryStore.to_data` as JSON); not text if none."""
        ...

    def save(self, table_id: str, data: str, finished: str) -> Awaitable[object]:
        """Save a table's text, and with it (in one go) a game that just finished:
        ``finished`` is ``""`` or JSON text ``{"key", "record", "result"}``, its record and its
        :func:`seat_result` (each JSON text) to keep under ``key``; fail (raise or reject) if
        that is not possible."""
        ...

    def results(self) -> Awaitable[object]:
        """Every finished game's saved :func:`seat_result` (an iterable of JSON text)."""
        ...

    def table_ids(self) -> Awaitable[object]:
        """The ids of every saved table (an iterable of text)."""
        ...

    def claim(self, table_id: str) -> Awaitable[object]:
        """Hold the table for this worker (truthy), or say another holds it (falsy): two tabs
        playing one table would save over each other's moves."""
        ...

    def release(self, table_id: str) -> object:
        """Let go of a table this worker claimed (it could not be loaded)."""
        ...


def record_key(table_id: str, game_number: int) -> str:
    """Where a finished game's record is saved (and where the service worker finds it)."""
    return f"{table_id}/{game_number}"


class DeviceHost(DeviceRequests):
    """Every table of the device, hosted for the page: their :class:`~mattis.table.TableHost`."""

    def __init__(self, device: Device, post: Callable[[str], object], config: TableConfig | None = None, *,
                 network: NetworkSource | None = None,
                 network_agent: NetworkAgent | None = NETWORK_AGENT) -> None:
        """``network``: where the ``master`` bot's network comes from (default: the worker's
        JavaScript, :mod:`mattis.offline.network`); ``network_agent``: the agent that plays it."""
        self.device = device
        self.post = post
        self.config = config or table_profile("device")
        self.networks = DeviceNetworks(network)
        """The ``master`` bot's network, read when it first moves."""
        self.network_agent = network_agent
        self.tables: dict[str, Table] = {}
        self.stores: dict[str, MemoryStore] = {}
        self.connections: dict[str, tuple[Table, Connection[str]]] = {}
        self.damaged: dict[str, str] = {}
        """Saved tables that could not be loaded, with why: set aside until the app restarts."""
        self.inbox: asyncio.Queue[str] | None = None
        self.reader_task: asyncio.Task[None] | None = None
        self.failures: list[str] = []
        """What went wrong outside any request (a bot move that failed), newest last."""
        self.reviews = ReviewDesk(keep=8)
        """Finished games' reviews asked for on this device, and kept."""
        self.review_turn = asyncio.Lock()
        """Held while a piece of a review is worked out (:meth:`_in_line`)."""

    # ---------------------------------------------------------------- messages in and out

    def receive(self, text: str) -> None:
        """Take one message from the page; they are handled one at a time, in order."""
        if self.inbox is None:
            self.inbox = asyncio.Queue()
            self.reader_task = asyncio.ensure_future(self._read())
        self.inbox.put_nowait(text)

    async def idle(self) -> None:
        """Wait until every message received so far is handled, hints included (for tests
        and shutdown)."""
        if self.inbox is not None:
            await self.inbox.join()
        for table in list(self.tables.values()):
            await table.settled()

    async def _read(self) -> None:
        assert self.inbox is not None
        while True:
            text = await self.inbox.get()
            try:
                await self._handle(json.loads(text))
            except Exception as error:  # a bug must cost one message, never the worker
                self.failures.append(f"{type(error).__name__}: {error}")
            finally:
                self.inbox.task_done()

    async def _handle(self, message: dict[str, Any]) -> None:
        op, conn = message.get("op"), str(message.get("conn"))
        if op == "call":
            await self._call(message)
        elif op == "open":
            await self._open(conn, str(message.get("tableId") or ""), str(message.get("token") or ""),
                             page_lang(message.get("lang")))
        elif op not in ("send", "close"):
            raise ValueError("unknown op")
        elif conn in self.connections:  # a connection that closed meanwhile has nothing to do
            table, connection = self.connections[conn]
            if op == "send":
                await table.receive(connection, message.get("text"))
            else:
                del self.connections[conn]
                table.disconnect(connection)

    def saved_results(self) -> Awaitable[object]:
        """Every finished game's saved :func:`~mattis.offline.stats.seat_result` (JSON texts)."""
        return self.device.results()

    async def create(self, body: object) -> tuple[Table, int, str]:
        """A new table on the device from a ``POST /api/tables`` body; returns it, the
        creator's seat and token (stored before anything is answered)."""
        table_id = LOCAL_PREFIX + secrets.token_urlsafe(9)
        session, creator, token, outcome = TableSession.create(table_id, body, self.config)
        await self.device.claim(table_id)
        table = self._keep(session, MemoryStore())
        try:
            await table.commit(outcome)
        except Refusal:
            del self.tables[table_id], self.stores[table_id]
            raise
        table.start()
        return table, creator, token

    async def saved_tables(self) -> list[dict[str, Any]]:
        """The public facts of every table saved on the device (to continue one); one that
        cannot be read is left out, and the others are listed."""
        found = []
        ids = await self.device.table_ids()
        for table_id in [str(item) for item in ids] if isinstance(ids, Iterable) else []:
            table = self.tables.get(table_id)
            if table is not None:
                found.append(table.session.summary())
            elif table_id not in self.damaged:
                try:  # read, not taken: another tab may be playing it
                    found.append((await self._restore(table_id))[0].summary())
                except Refusal:  # gone meanwhile
                    pass
                except Exception as error:
                    self._set_aside(table_id, error)
        return found

    # ---------------------------------------------------------------- a seat's socket

    async def _open(self, conn: str, table_id: str, token: str, lang: Lang) -> None:
        try:
            table = await self.table(table_id)
            connection = table.admit(token, lang, conn)
        except Refusal as error:  # no such table or seat, damaged, or open in another tab
            message, code = refused_opening(error, lang)
            self._post(conn, {"message": message})
            if code is not None:
                self._post(conn, {"closed": code})
            return
        self.connections[conn] = (table, connection)
        table.connect(connection)

    def _post(self, conn: str, envelope: dict[str, Any]) -> None:
        self.post(json.dumps({"conn": conn, **envelope}, ensure_ascii=False, separators=(",", ":")))

    # ---------------------------------------------------------------- tables in memory

    async def table(self, table_id: str) -> Table:
        """A table by id, brought back from the device if it is not in memory; refused with
        ``not_found`` if it is not there either, ``damaged`` if it does not load,
        ``open_elsewhere`` while another tab plays it."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.damaged:
            raise Refusal("damaged")
        if not is_local(table_id) or len(table_id) > 40:
            raise Refusal("not_found")
        if not await self.device.claim(table_id):
            raise Refusal("open_elsewhere")
        try:
            session, outcome, store = await self._restore(table_id)
        except BaseException as error:
            self.device.release(table_id)
            if isinstance(error, Exception) and not isinstance(error, Refusal):
                self._set_aside(table_id, error)
                raise Refusal("damaged") from None
            raise
        table = self._keep(session, store)
        await table.resume(outcome)
        return table

    async def _restore(self, table_id: str) -> tuple[TableSession, Any, MemoryStore]:
        """A saved table read back and replayed (anything wrong in it raises)."""
        text = await self.device.load(table_id)
        if not isinstance(text, str):
            raise Refusal("not_found")
        store = MemoryStore.from_data(json.loads(text))
        stored = store.stored(table_id)
        if stored is None:
            raise Refusal("not_found")
        session, outcome = TableSession.restore(stored, self.config)
        return session, outcome, store

    def _set_aside(self, table_id: str, error: Exception) -> None:
        """Keep a saved table that does not load out of play, saying why in :attr:`failures`."""
        self.damaged[table_id] = f"{type(error).__name__}: {str(error)[:200]}"
        self.failures.append(f"table {table_id} is damaged and set aside ({self.damaged[table_id]})")

    def _keep(self, session: TableSession, store: MemoryStore) -> Table:
        table = self.tables[session.table_id] = TableMaster(self, session)
        self.stores[session.table_id] = store
        return table

    async def close(self) -> None:
        """Stop every table's bots and hints, and the message reader."""
        await self.reviews.close()
        for table in list(self.tables.values()):
            await table.stop()
        if self.reader_task is not None:
            self.reader_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader_task

    # ---------------------------------------------------------------- the host's part

    async def store(self, rows: Sequence[Row]) -> None:
        """Save the table with ``rows`` to the device first; keep it in memory only once that
        worked (a failure raises, and the change is undone)."""
        table_id = rows[0].table_id
        written = self.stores[table_id].with_rows(rows)
        finished = ""
        session = self.tables[table_id].session
        over = [row for row in rows if isinstance(row, ActionRow) and row.over]
        if over and session.game is not None and session.game.is_over:
            finished = json.dumps({
                "key": record_key(table_id, over[-1].game_number),
                "record": json.dumps(session.record(), separators=(",", ":")),
                "result": json.dumps(seat_result(session, time.time()), separators=(",", ":")),
            }, separators=(",", ":"))
        await self.device.save(table_id, json.dumps(written.to_data(), separators=(",", ":")), finished)
        self.stores[table_id] = written

    def send(self, connection: Connection[str], message: dict[str, Any]) -> None:
        """Post a message to the page for one of its connections."""
        self._post(connection.link, {"message": message})

    def hang_up(self, connection: Connection[str], code: int) -> None:
        """Tell the page the connection is closed."""
        self.connections.pop(connection.link, None)
        self._post(connection.link, {"closed": code})

    async def think(self, job: Job, asker: Connection[str] | None = None) -> DecisionParts:
        """Search in line: the worker is not the page, so the page stays responsive. A level
        of the host's own (``master``) searches with the device's network, fetched the first
        time."""
        agent = self.network_agent
        if isinstance(job, BotJob) and job.level in self.config.host_levels and agent is not None:
            return network_move(job, agent, await self.networks.evaluator())
        return run_job(job)

    def admit_searching_bots(self, table_id: str) -> None:
        """The device plays as many searching bots as its owner likes."""

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        """A clock on the worker's event loop."""
        return asyncio.get_running_loop().call_later(seconds, callback)

    def report(self, table_id: str, error: BaseException) -> None:
        """Keep it for :attr:`failures`; the table goes on."""
        self.failures.append(f"table {table_id}: {type(error).__name__}: {error}")
