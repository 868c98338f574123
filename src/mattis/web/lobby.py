"""All tables of a running server: creating, joining, finding, restoring and unloading them.

A :class:`Lobby` holds the live tables (:mod:`.tables`), the :class:`~.store.Store` with its
group-committing :class:`ActionLog`, the worker pool for ``hard`` bots and hints, and the
limits that keep one client from flooding the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from ..core.game import Game
from ..table import Refusal, Row, TableSession
from .store import Store
from .tables import ApiError, LiveTable, RateLimiter, Settings

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

    def __init__(self, store: Store, settings: Settings, executor: Executor | None = None) -> None:
        self.store = store
        self.action_log = ActionLog(store)
        self.bot_gate = asyncio.Lock()
        """Bots of all tables take turns, one move per turn of the event loop, so a person's
        move never waits behind a crowd of bot moves."""
        self.settings = settings
        self.executor = executor
        self.tables: dict[str, LiveTable] = {}
        self.janitor: asyncio.Task[None] | None = None
        self.address_limits: dict[str, RateLimiter] = {}

    async def in_worker(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run ``function`` in the worker pool (or a thread if there is none)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, function, *args)

    @staticmethod
    def invite_path(table_id: str) -> str:
        """The page a friend opens to take a seat (the table id is the unguessable token)."""
        return f"/t/{table_id}"

    def _start(self, table: LiveTable) -> None:
        self.tables[table.table_id] = table
        table.driver = asyncio.get_running_loop().create_task(table.drive())

    def check_address(self, address: str) -> None:
        """Refuse an address that creates tables or joins seats too fast (429)."""
        limiter = self.address_limits.get(address)
        if limiter is None:
            if len(self.address_limits) > 10_000:  # forget old addresses rather than grow
                self.address_limits.clear()
            limiter = self.address_limits[address] = RateLimiter(self.settings.posts_per_minute / 60, 20)
        if not limiter.allow():
            raise ApiError(429, "rate_limited")

    async def find(self, table_id: str) -> LiveTable | None:
        """A table by id, loaded from the store if it is not in memory."""
        table = self.tables.get(table_id)
        if table is None and 0 < len(table_id) <= 40:
            stored = self.store.load_table(table_id)
            if stored is not None:
                session, outcome = TableSession.restore(stored, self.settings.table)
                table = LiveTable(self, session)
                self._start(table)
                await table.carry(outcome)
        return table

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
        """A finished game's engine record; refused while the game is on (it holds the deck)."""
        stored = self.store.game(table_id, number)
        if stored is None:
            raise ApiError(404, "not_found")
        if not stored.over:
            raise Refusal("game_not_over")
        return Game.from_record(stored.record()).record()

    # ---------------------------------------------------------------- restart

    async def restore(self) -> int:
        """Bring back every table with an unfinished game, replaying it; returns how many.
        Also starts unloading idle tables."""
        for stored in self.store.load_tables():
            session, outcome = TableSession.restore(stored, self.settings.table)
            table = LiveTable(self, session)
            self._start(table)
            await table.carry(outcome)
        self.janitor = asyncio.get_running_loop().create_task(self.unload_idle())
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
