"""All tables of a running server: creating, joining, finding, restoring and unloading them.

A :class:`Lobby` holds the live tables (:mod:`.tables`), the :class:`~.store.Store` with its
group-committing :class:`ActionLog`, the fair queue of worker jobs for ``hard`` bots and
hints (:mod:`.workqueue`), and the limits that keep one client from flooding the server.

A stored table that cannot be brought back (a damaged row, a record the engine now refuses,
a bug) is set aside with one log line and answers ``damaged``; every other table loads and
plays on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from concurrent.futures import Executor
from typing import Any

from sqlalchemy.exc import OperationalError

from ..core.game import Game
from ..table import Refusal, Row, TableSession
from .limits import client_key
from .store import Store
from .tables import ApiError, LiveTable, RateLimiter, Settings, first_line
from .workqueue import FairQueue

log = logging.getLogger("mattis.web")


class ActionLog:
    """Group commit: the rows of every change made in one turn of the event loop (mostly
    moves) are stored in one transaction, and each change's sender waits for it, so no one
    hears of a change before it is stored. Under load this turns hundreds of small commits a
    second into a few."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: list[tuple[list[Row], asyncio.Future[None]]] = []

    async def write(self, rows: list[Row]) -> None:
        """Store ``rows`` with whatever else is waiting; raises if the transaction fails."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if not self.pending:
            loop.call_soon(self._flush)
        self.pending.append((rows, future))
        await future

    def _flush(self) -> None:
        batch, self.pending = self.pending, []
        try:
            self.store.add_actions([row for rows, _ in batch for row in rows])
        except Exception as error:  # every waiting change is refused and undone by its sender
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        for _, future in batch:
            if not future.done():
                future.set_result(None)


class Lobby:
    """Every table of a server, the store, and the worker for bot thinking."""

    def __init__(self, store: Store, settings: Settings, executor: Executor | None = None,
                 workers: int = 1) -> None:
        self.store = store
        self.action_log = ActionLog(store)
        self.bot_gate = asyncio.Lock()
        """Bots of all tables take turns, one move per turn of the event loop, so a person's
        move never waits behind a crowd of bot moves."""
        self.settings = settings
        self.work = FairQueue(executor, workers)
        """Worker jobs of all tables, in fair turns (a thread when there is no executor)."""
        self.tables: dict[str, LiveTable] = {}
        self.damaged: dict[str, str] = {}
        """Tables that could not be restored, with why: set aside until the server restarts."""
        self.janitor: asyncio.Task[None] | None = None
        self.address_limits: dict[str, RateLimiter] = {}
        self.sockets_by_address: Counter[str] = Counter()
        """Open sockets per client address (:func:`~.limits.client_key`)."""

    @staticmethod
    def invite_path(table_id: str) -> str:
        """The page a friend opens to take a seat (the table id is the unguessable token)."""
        return f"/t/{table_id}"

    def _start(self, table: LiveTable) -> None:
        self.tables[table.table_id] = table
        table.driver = asyncio.get_running_loop().create_task(table.drive())

    def check_address(self, address: str) -> None:
        """Refuse an address (an IPv6 /64) that creates tables or joins seats too fast (429)."""
        key = client_key(address)
        limiter = self.address_limits.get(key)
        if limiter is None:
            if len(self.address_limits) > 10_000:  # forget old addresses rather than grow
                self.address_limits.clear()
            limiter = self.address_limits[key] = RateLimiter(self.settings.posts_per_minute / 60, 20)
        if not limiter.allow():
            raise ApiError(429, "rate_limited")

    def open_socket(self, address: str) -> bool:
        """Count a socket of ``address``; ``False`` (and not counted) beyond the cap."""
        key = client_key(address)
        if self.sockets_by_address[key] >= self.settings.max_sockets_per_address:
            return False
        self.sockets_by_address[key] += 1
        return True

    def close_socket(self, address: str) -> None:
        """A socket counted by :meth:`open_socket` closed."""
        key = client_key(address)
        self.sockets_by_address[key] -= 1
        if self.sockets_by_address[key] <= 0:
            del self.sockets_by_address[key]

    async def find(self, table_id: str) -> LiveTable | None:
        """A table by id, loaded from the store if it is not in memory; ``None`` if there is
        none, a 410 ``damaged`` refusal if it could not be restored."""
        table = self.tables.get(table_id)
        if table is not None or not 0 < len(table_id) <= 40:
            return table
        if table_id in self.damaged:
            raise ApiError(410, "damaged")
        try:
            stored = self.store.load_table(table_id)
            if stored is None:
                return None
            session, outcome = TableSession.restore(stored, self.settings.table)
        except OperationalError as error:  # the database, not the table: try again later
            log.warning("table %r could not be read: %s", table_id, first_line(error))
            raise ApiError(503, "storage") from None
        except Exception as error:
            self._set_aside(table_id, error)
            raise ApiError(410, "damaged") from None
        table = LiveTable(self, session)
        self._start(table)
        try:
            await table.carry(outcome)
        except Refusal:  # a recounted score that cannot be stored now: kept, stored with the next change
            log.warning("table %s: its restored state could not be stored yet", table_id)
        return table

    def _set_aside(self, table_id: str, error: Exception) -> None:
        """Keep a table that cannot be restored out of play, with one log line naming it."""
        self.damaged[table_id] = first_line(error)
        log.error("table %s cannot be restored and is set aside (%s: %s)", table_id,
                  type(error).__name__, first_line(error))

    async def table(self, table_id: str) -> LiveTable:
        """A table by id, or a 404 refusal."""
        table = await self.find(table_id)
        if table is None:
            raise ApiError(404, "not_found")
        return table

    async def unload_idle(self, period: float = 60.0) -> None:
        """Forever: let tables nobody uses leave memory (they stay in the store)."""
        while True:
            await asyncio.sleep(period)
            self.unload_older_than(self.settings.idle_unload)

    def unload_older_than(self, seconds: float) -> int:
        """Drop tables idle for at least ``seconds``; returns how many."""
        now = time.monotonic()
        idle = [table for table in self.tables.values()
                if (idle_time := table.idle_for(now)) is not None and idle_time >= seconds]
        for table in idle:
            if table.driver is not None:
                table.driver.cancel()
            table.close()
            del self.tables[table.table_id]
        return len(idle)

    # ---------------------------------------------------------------- the API

    async def create(self, body: object) -> tuple[LiveTable, int, str]:
        """A new table from a ``POST /api/tables`` body; returns it, the creator's seat and token."""
        if len(self.tables) >= self.settings.max_tables:
            raise ApiError(503, "bad_request", "the server has too many tables")
        session, creator, token, outcome = TableSession.create(secrets.token_urlsafe(12), body,
                                                               self.settings.table)
        table = LiveTable(self, session)
        await table.carry(outcome)  # stored before anyone hears of it (refused if it cannot be)
        self._start(table)
        return table, creator, token

    async def join(self, table_id: str, body: object) -> tuple[int, str]:
        """Take an open seat (``POST /api/tables/{ID}/join``)."""
        table = await self.table(table_id)
        if not isinstance(body, dict):
            raise Refusal("bad_request", "expected a JSON object")
        return await table.join(body.get("name"))

    def record(self, table_id: str, number: int | None) -> dict[str, Any]:
        """A finished game's engine record; refused while the game is on (it holds the deck),
        and answered ``damaged`` for a table set aside or a stored game that cannot be replayed."""
        if table_id in self.damaged:
            raise ApiError(410, "damaged")
        try:
            stored = self.store.game(table_id, number)
            if stored is None:
                raise ApiError(404, "not_found")
            if not stored.over:
                raise Refusal("game_not_over")
            return Game.from_record(stored.record()).record()
        except (Refusal, OperationalError):
            raise
        except Exception as error:
            log.error("table %s: a stored game cannot be replayed (%s: %s)", table_id,
                      type(error).__name__, first_line(error))
            raise ApiError(410, "damaged") from None

    # ---------------------------------------------------------------- restart

    async def restore(self) -> int:
        """Bring back every table with an unfinished game, replaying it; returns how many.
        A table that cannot be restored is set aside; if even the list of tables cannot be
        read, none is restored now and each comes back when it is opened. Also starts
        unloading idle tables."""
        self.janitor = asyncio.get_running_loop().create_task(self.unload_idle())
        try:
            table_ids = self.store.unfinished_table_ids()
        except Exception as error:
            log.error("the unfinished tables could not be listed; each loads when opened (%s)",
                      first_line(error))
            return 0
        for table_id in table_ids:
            with contextlib.suppress(Refusal):  # set aside and logged by find()
                await self.find(table_id)
        return len(self.tables)

    async def close(self) -> None:
        """Stop the bots, the timers and the unloading."""
        if self.janitor is not None:
            self.janitor.cancel()
        drivers = [table.driver for table in self.tables.values() if table.driver is not None]
        for driver in drivers:
            driver.cancel()
        for driver in drivers:
            with contextlib.suppress(asyncio.CancelledError):
                await driver
        for table in self.tables.values():
            table.close()
