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

from ..bots import LEVELS
from ..core.game import MAX_SEED, Game
from ..core.rules import PRESET_NAMES, Rules
from ..frontend.seats import BOT_NAMES
from .limits import client_key
from .seeding import MatchSecret
from .store import STORAGE_ERRORS, ActionRow, Store, StoredTable
from .tables import ApiError, LiveTable, RateLimiter, Seat, Settings, clean_name, first_line, hash_token
from .workqueue import FairQueue

log = logging.getLogger("mattis.web")


class ActionLog:
    """Group commit: the moves played in one turn of the event loop are stored in one
    transaction, and each move's sender waits for it, so no one hears of a move before it
    is stored. Under load this turns hundreds of small commits a second into a few."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pending: list[tuple[ActionRow, asyncio.Future[None]]] = []

    async def write(self, row: ActionRow) -> None:
        """Store ``row`` with whatever else is waiting; raises if the transaction fails."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if not self.pending:
            loop.call_soon(self._flush)
        self.pending.append((row, future))
        await future

    def _flush(self) -> None:
        batch, self.pending = self.pending, []
        try:
            self.store.add_actions([row for row, _ in batch])
        except Exception as error:  # every waiting move is refused and undone by its sender
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
        self._timers: set[asyncio.TimerHandle] = set()
        self.janitor: asyncio.Task[None] | None = None
        self.address_limits: dict[str, RateLimiter] = {}
        self.sockets_by_address: Counter[str] = Counter()
        """Open sockets per client address (:func:`~.limits.client_key`)."""

    @staticmethod
    def invite_path(table_id: str) -> str:
        """The page a friend opens to take a seat (the table id is the unguessable token)."""
        return f"/t/{table_id}"

    def watch_absence(self, table: LiveTable, seat: int) -> None:
        """Check on an absent person once the timeout has passed."""
        loop = asyncio.get_running_loop()
        handle = loop.call_later(self.settings.absence_timeout, table.check_absence, seat)
        self._timers.add(handle)
        if len(self._timers) > 4 * len(self.tables) + 64:  # forget timers that have fired
            now = loop.time()
            self._timers = {h for h in self._timers if h.when() > now and not h.cancelled()}

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

    def find(self, table_id: str) -> LiveTable | None:
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
            table = self._restored(stored)
        except OperationalError as error:  # the database, not the table: try again later
            log.warning("table %r could not be read: %s", table_id, first_line(error))
            raise ApiError(503, "storage") from None
        except Exception as error:
            self._set_aside(table_id, error)
            raise ApiError(410, "damaged") from None
        self._start(table)
        return table

    def _set_aside(self, table_id: str, error: Exception) -> None:
        """Keep a table that cannot be restored out of play, with one log line naming it."""
        self.damaged[table_id] = first_line(error)
        log.error("table %s cannot be restored and is set aside (%s: %s)", table_id,
                  type(error).__name__, first_line(error))

    def table(self, table_id: str) -> LiveTable:
        """A table by id, or a 404 refusal."""
        table = self.find(table_id)
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
            del self.tables[table.table_id]
        return len(idle)

    # ---------------------------------------------------------------- the API

    def create(self, body: object) -> tuple[LiveTable, int, str]:
        """A new table from a ``POST /api/tables`` body; returns it, the creator's seat and
        token. The table and its first game are stored in one transaction."""
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", "expected a JSON object")
        if len(self.tables) >= self.settings.max_tables:
            raise ApiError(503, "bad_request", "the server has too many tables")
        preset = body.get("rules", "pagat")
        if not isinstance(preset, str) or preset.strip().lower() not in PRESET_NAMES:
            raise ApiError(400, "bad_request", f"rules must be one of {', '.join(PRESET_NAMES)}")
        changes = body.get("set") or {}
        if not isinstance(changes, dict) or not all(
                isinstance(value, str | int | bool) for value in changes.values()):
            raise ApiError(400, "bad_request", "set must map option names to values")
        try:
            rules = Rules.preset(preset).with_options(**{str(k): v for k, v in changes.items()})
        except (ValueError, TypeError) as error:
            raise ApiError(400, "bad_request", str(error)) from None
        players = body.get("players", 3)
        if not isinstance(players, int) or isinstance(players, bool) or not rules.allows_players(players):
            raise ApiError(400, "bad_request",
                           f"players must be from {rules.min_players} to {rules.max_players}")
        seats, creator, token = self._seats(body.get("seats"), players)
        seed = body.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed <= MAX_SEED):
            raise ApiError(400, "bad_request", "seed must be a whole number from 0 to 2**64-1")
        table_id = secrets.token_urlsafe(12)
        secret = MatchSecret.fresh() if seed is None else MatchSecret.from_seed(seed)
        match: dict[str, Any] = {"scores": [0] * players, "dealer": players - 1, "games": 0,
                                 "seed": seed, "secret": secret.hex, "results": []}
        table = LiveTable(self, table_id, rules, seats, match)
        dealt = table.next_game() if table.full else None
        stored_match = match if dealt is None else {**match, "games": dealt[1].number}
        try:
            game_id = self.store.add_table(table_id, rules.to_dict(), players, [s.to_stored() for s in seats],
                                           stored_match, dealt[1] if dealt else None)
        except STORAGE_ERRORS as error:
            log.warning("a new table could not be stored: %s", first_line(error))
            raise ApiError(503, "storage") from None
        self._start(table)
        if dealt is not None and game_id is not None:
            table.start_game(dealt[0], dealt[1].number, game_id)
        return table, creator, token

    @staticmethod
    def _seats(items: object, players: int) -> tuple[list[Seat], int, str]:
        if items is None:
            items = [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * (players - 1)
        if not isinstance(items, list) or len(items) != players:
            raise ApiError(400, "bad_request", f"seats must list {players} seats")
        seats: list[Seat] = []
        creator, token = -1, ""
        taken = {clean_name(item.get("name")).lower() for item in items
                 if isinstance(item, dict) and item.get("kind") == "human"}
        bot_names = iter(name for name in BOT_NAMES if name.lower() not in taken)
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                raise ApiError(400, "bad_request", "each seat must be an object")
            kind = item.get("kind")
            if kind == "human":
                if creator >= 0:
                    raise ApiError(400, "bad_request",
                                   "only the creator's seat is human; mark friends' seats open")
                creator, token = index, secrets.token_urlsafe(24)
                seats.append(Seat("human", clean_name(item.get("name")), None, hash_token(token),
                                  away_since=time.monotonic()))
            elif kind == "bot":
                level = item.get("level", "normal")
                if level not in LEVELS:
                    raise ApiError(400, "bad_request", f"level must be one of {', '.join(LEVELS)}")
                name = clean_name(item.get("name")) or next(bot_names, f"Bot {index}")
                seats.append(Seat("bot", name, str(level)))
            elif kind == "open":
                seats.append(Seat("open"))
            else:
                raise ApiError(400, "bad_request", "seat kind must be human, bot or open")
        if creator < 0:
            raise ApiError(400, "bad_request", "one seat must be the creator's (kind human)")
        return seats, creator, token

    def join(self, table_id: str, body: object) -> tuple[int, str]:
        """Take an open seat (``POST /api/tables/{ID}/join``)."""
        table = self.table(table_id)
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", "expected a JSON object")
        return table.join(clean_name(body.get("name")))

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
                raise ApiError(409, "game_not_over")
            return Game.from_record(stored.record()).record()
        except (ApiError, OperationalError):
            raise
        except Exception as error:
            log.error("table %s: a stored game cannot be replayed (%s: %s)", table_id,
                      type(error).__name__, first_line(error))
            raise ApiError(410, "damaged") from None

    # ---------------------------------------------------------------- restart

    def restore(self) -> int:
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
            with contextlib.suppress(ApiError):  # set aside and logged by find()
                self.find(table_id)
        return len(self.tables)

    def _restored(self, stored: StoredTable) -> LiveTable:
        seats = [Seat(item["kind"], item.get("name") or "", item.get("level"), item.get("token"))
                 for item in stored.seats]
        if len(seats) != stored.players or any(seat.kind not in ("human", "bot", "open") for seat in seats):
            raise ValueError(f"the seats do not fit a table of {stored.players}")
        table = LiveTable(self, stored.table_id, Rules.from_dict(stored.rules), seats, stored.match)
        now = time.monotonic()
        if stored.game is not None:
            table.game = Game.from_record(stored.game.record())
            table.game_id, table.game_number = stored.game.game_id, stored.game.number
            if table.game.is_over and len(table.match.get("results") or []) < table.game_number:
                try:  # killed between the last move and the score
                    table.finish_match_game(table.game)
                except STORAGE_ERRORS as error:  # counted in memory; stored with the next change
                    log.warning("table %s: the recounted score could not be stored: %s",
                                stored.table_id, first_line(error))
        for index, seat in enumerate(seats):
            if seat.kind == "human":
                seat.away_since = now
                if table.game is not None and not table.game.is_over:
                    self.watch_absence(table, index)
        return table

    async def close(self) -> None:
        """Stop the bots, the timers and the unloading."""
        if self.janitor is not None:
            self.janitor.cancel()
        for handle in self._timers:
            handle.cancel()
        drivers = [table.driver for table in self.tables.values() if table.driver is not None]
        for driver in drivers:
            driver.cancel()
        for driver in drivers:
            with contextlib.suppress(asyncio.CancelledError):
                await driver
        for table in self.tables.values():
            for seat in table.seats:
                for connection in list(seat.connections):
                    connection.close()
