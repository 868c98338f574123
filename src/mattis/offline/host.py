"""The offline app's host: tables on the device, driven by messages from the page.

The page talks to the worker in JSON text, one message at a time, and the worker hands each
to :meth:`DeviceHost.receive`:

* ``{"op": "call", "id": N, "name": NAME, "lang": L, ...}`` for what the server answers over
  HTTP: ``createTable`` (``body``), ``tableInfo`` and ``joinTable`` (``tableId``, ``name``),
  ``record`` (``tableId``, ``game``; as JSON text: JavaScript's numbers cannot hold a 64-bit
  seed), ``review`` (``tableId``, ``game``, ``token``: a finished game's review for the token's
  seat, worked out here in line with the device's smaller budget, a choice at a time; as the
  server's ``POST /api/tables/{ID}/games/{N}/review`` answers), ``list``, ``myStats`` (the
  device owner's statistics, "Min statistikk": :func:`device_stats`) and ``searchSpeed``
  (``seconds``, for the benchmark). The answer is ``{"reply": N, "ok": …, "status": …,
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

from ..bots.review import REVIEW_SEED
from ..i18n import Lang, is_lang
from ..table.config import TableConfig, table_profile
from ..table.errors import Refusal, error_message
from ..table.host import Connection, Timer
from ..table.jobs import DecisionParts, Job, run_job, search_speed
from ..table.ledger import level_stats
from ..table.master import TableMaster
from ..table.memory import MemoryStore
from ..table.protocol import refused_opening
from ..table.rating import Rating, finishing_ranks, prior, rate, rating_summary
from ..table.records import finished_record
from ..table.review import ReviewDesk, ReviewKey, review_answer
from ..table.rows import ActionRow, Row
from ..table.session import TableSession

LOCAL_PREFIX = "local-"
"""Every table kept on the device has an id starting with this, so the page's transport
knows to send it to the worker and not to a server."""

Table = TableMaster[str]
"""A table in the worker: its connections' links are the page's connection numbers."""


REVIEW_PAUSE = 0.005
"""Seconds the worker waits before each piece of a review it works out
(:meth:`DeviceHost._in_line`), so the page's asks for its progress are answered as it goes:
about one a choice in Chromium (at 0.001 s, or with every piece waiting at once, the page
heard nothing until the end), for under 2% of the review's time."""


def is_local(table_id: str) -> bool:
    """Whether a table lives on the device (its id says so)."""
    return table_id.startswith(LOCAL_PREFIX)


def device_config(bot_delay: float | None = None, hard_seconds: float | None = None,
                  hint_seconds: float | None = None) -> TableConfig:
    """The ``device`` profile, with what the test hooks change (the worker's address carries
    them, from ``localStorage`` ``mattis.app.bot_delay``, ``.hard_seconds``, ``.hint_seconds``)."""
    profile = table_profile("device")
    return dataclasses.replace(
        profile, bot_delay=profile.bot_delay if bot_delay is None else bot_delay,
        hard_seconds=profile.hard_seconds if hard_seconds is None else hard_seconds,
        hint_seconds=profile.hint_seconds if hint_seconds is None else hint_seconds)


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


def seat_result(session: TableSession, finished: float) -> dict[str, Any]:
    """What a finished game on the device counts in its owner's statistics: the levels of the
    bots at the table, whether the owner (the creator's seat) was Mattis, and whether on an
    empty hand (P1.10); for the owner's rating, their seat, each seat's bot level (``None``: a
    person), the order the others went out, the Mattis, and when it ended (``finished``,
    seconds since the epoch: games are rated in the order they ended). The engine record
    has no seats, so this is kept beside it."""
    result = session.game.result if session.game is not None else None
    if result is None:
        raise ValueError("the game is not over")
    return {"levels": [seat.level for seat in session.seats if seat.kind == "bot" and seat.level],
            "mattis": session.host in result.losers,
            "empty_loss": session.host in result.losers and result.lost_on_empty,
            "seat": session.host,
            "seat_levels": [seat.level or "" if seat.kind == "bot" else None for seat in session.seats],
            "out_order": list(result.out_order), "losers": list(result.losers), "finished": finished}


def _rated_game(item: dict[str, Any]) -> tuple[float, int, list[str | None], list[int]] | None:
    """A saved result's rating facts: when it ended, the owner's seat, each seat's bot level
    and the places (``None`` for a result saved before ratings, or one that does not read)."""
    levels, seat, finished = item.get("seat_levels"), item.get("seat"), item.get("finished")
    out_order, losers = item.get("out_order"), item.get("losers")
    if not (isinstance(levels, list) and isinstance(out_order, list) and isinstance(losers, list)
            and isinstance(seat, int) and isinstance(finished, int | float)):
        return None
    seats = len(levels)
    numbers = [*out_order, *losers, seat]
    if seats < 2 or not all(isinstance(number, int) and 0 <= number < seats for number in numbers):
        return None
    places = finishing_ranks(seats, out_order, losers)
    return float(finished), seat, [None if level is None else str(level) for level in levels], places


def device_rating(items: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The owner's OpenSkill rating over the saved games (:mod:`mattis.table.rating`, as
    ``GET /api/players/me``): the bots at their level's fixed rating, friends at a guest's,
    rated in the order the games ended (``None`` before the first)."""
    games = sorted((rated for item in items if (rated := _rated_game(item)) is not None),
                   key=lambda game: game[0])
    rating: Rating | None = None
    for _, seat, levels, places in games:
        before = [(rating or Rating()) if index == seat else prior("human" if level is None else "bot", level)
                  for index, level in enumerate(levels)]
        rating = rate(before, places)[seat]
    return rating_summary(rating, len(games))


def device_stats(results: object) -> dict[str, Any]:
    """The device owner's statistics from the saved :func:`seat_result` texts: the ledger's
    arithmetic (:func:`~mattis.table.ledger.level_stats`, as ``GET /api/players/me`` and
    ``mattis stats``), plus the empty losses and the rating (:func:`device_rating`); a text
    that does not read is left out."""
    read: list[dict[str, Any]] = []
    for text in [str(item) for item in results] if isinstance(results, Iterable) else []:
        with contextlib.suppress(ValueError):
            item = json.loads(text)
            if isinstance(item, dict) and isinstance(item.get("levels"), list):
                read.append(item)
    figures = level_stats(([str(level) for level in item["levels"]], bool(item.get("mattis")))
                          for item in read)
    return {**figures, "empty_losses": sum(bool(item.get("empty_loss")) for item in read),
            "rating": device_rating(read)}


class DeviceHost:
    """Every table of the device, hosted for the page: their :class:`~mattis.table.TableHost`."""

    def __init__(self, device: Device, post: Callable[[str], object],
                 config: TableConfig | None = None) -> None:
        self.device = device
        self.post = post
        self.config = config or table_profile("device")
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
                             _lang(message.get("lang")))
        elif op not in ("send", "close"):
            raise ValueError("unknown op")
        elif conn in self.connections:  # a connection that closed meanwhile has nothing to do
            table, connection = self.connections[conn]
            if op == "send":
                await table.receive(connection, message.get("text"))
            else:
                del self.connections[conn]
                table.disconnect(connection)

    # ---------------------------------------------------------------- requests (the HTTP part)

    async def _call(self, message: dict[str, Any]) -> None:
        lang = _lang(message.get("lang"))
        reply: dict[str, Any] = {"reply": message.get("id")}
        try:
            status, data = await self._answer(str(message.get("name")), message)
            reply |= {"ok": True, "status": status, "data": data}
        except Exception as error:
            if not isinstance(error, Refusal):  # a bug: the page gets an answer, not a wait
                self.failures.append(f"{type(error).__name__}: {error}")
                error = Refusal("server_error")
            reply |= {"ok": False, "status": error.status, "data": error_message(error, lang)}
        self.post(json.dumps(reply, ensure_ascii=False, separators=(",", ":")))

    async def _answer(self, name: str, message: dict[str, Any]) -> tuple[int, Any]:
        if name == "createTable":
            table, seat, token = await self.create(message.get("body"))
            return 201, {"table": table.table_id, "seat": seat, "token": token, "invite": None}
        if name == "list":
            return 200, await self.saved_tables()
        if name == "myStats":
            return 200, device_stats(await self.device.results())
        if name == "searchSpeed":
            return 200, search_speed(float(message.get("seconds") or 1.0))
        table = await self.table(str(message.get("tableId") or ""))
        if name == "record":  # as text: JavaScript's numbers cannot hold the 64-bit seed
            number = message.get("game")
            number = table.session.game_number if number is None else number
            if not isinstance(number, int) or isinstance(number, bool):
                raise Refusal("bad_request", "game must be a number")
            record = finished_record(self.stores[table.table_id].game(table.table_id, number))
            return 200, json.dumps(record, separators=(",", ":"))
        if name == "review":
            return await self._review(table, message)
        if name == "tableInfo":
            return 200, table.session.summary()
        if name == "joinTable":
            seat, token = await table.join(message.get("name"))
            return 200, {"seat": seat, "token": token}
        raise Refusal("bad_message", "unknown request (see mattis/offline/host.py)")

    async def _review(self, table: Table, message: dict[str, Any]) -> tuple[int, Any]:
        number, token = message.get("game"), message.get("token")
        if not isinstance(number, int) or isinstance(number, bool):
            raise Refusal("bad_request", "game must be a number")
        seat = table.session.seat_of(token) if isinstance(token, str) else None
        if seat is None:
            raise Refusal("bad_token")
        table_id, store = table.table_id, self.stores[table.table_id]
        key = ReviewKey(table_id, number, seat, self.config.review_iterations, REVIEW_SEED)

        async def record() -> dict[str, Any]:
            return finished_record(store.game(table_id, number))

        run = await self.reviews.ask(key, record, self._in_line,
                                     report=lambda error: self.report(table_id, error))
        answer = review_answer(run, _lang(message.get("lang")), device=True)
        return (200 if answer["status"] == "done" else 202), answer

    async def _in_line(self, cost: float, function: Callable[..., Any], *args: Any) -> Any:
        """One piece of a review, worked out here: one at a time, each after a short timer that
        lets the page's messages in first (its asks for the progress, a move at another table).
        On Pyodide a timer is what lets them in, and only if the pieces wait for it one by one:
        all of a review's pieces waiting on timers at once ran before any message."""
        async with self.review_turn:
            await asyncio.sleep(REVIEW_PAUSE)
            return function(*args)

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
        """Search in line: the worker is not the page, so the page stays responsive."""
        return run_job(job)

    def admit_searching_bots(self, table_id: str) -> None:
        """The device plays as many searching bots as its owner likes."""

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        """A clock on the worker's event loop."""
        return asyncio.get_running_loop().call_later(seconds, callback)

    def report(self, table_id: str, error: BaseException) -> None:
        """Keep it for :attr:`failures`; the table goes on."""
        self.failures.append(f"table {table_id}: {type(error).__name__}: {error}")


def _lang(value: object) -> Lang:
    return value if is_lang(value) else "en"
