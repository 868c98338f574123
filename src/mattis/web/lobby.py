"""All tables of a running server: creating, joining, finding, loading and unloading them.

A :class:`Lobby` holds the tables in memory (each a :class:`~mattis.table.TableMaster` run by
the server's :class:`~.tables.ServerHost`), the :class:`~.store.Store` with its
:class:`GroupCommit`, the fair queue of worker jobs for searching bots and hints
(:mod:`.workqueue`), and the limits that keep one client from flooding the server.

Memory holds only the tables people use. A table comes into memory when it is created or
on the first request for it (after a restart too: nothing is loaded before the server
answers), and leaves it when nobody has been connected to it for
:attr:`~.settings.Settings.idle_unload` seconds; it stays stored. At most
:attr:`~.settings.Settings.max_tables` are in memory: at the limit the tables nobody has been
connected to for longest leave to make room, and only when every table has someone
connected is a new one refused (503 ``busy``). Each table counts against a client address
(:func:`~.limits.client_key`): its creator's, or for a table loaded from the store, the
first person's to connect. One address may hold
:attr:`~.settings.Settings.max_waiting_tables` tables that have not started
(``too_many_tables``) and have :attr:`~.settings.Settings.max_bot_tables` tables with
searching bots in play (``too_many_bot_tables``), so no client can crowd out the others.

A stored table that cannot be brought back (a damaged row, a record the engine now refuses,
a bug) is set aside with one log line and answers ``damaged``; every other table loads and
plays on.

On SQLite the server is the database's only one and owns every table. On PostgreSQL several
servers share the database (:mod:`.leases`): a table is loaded only once its lease is taken,
a table another live server owns answers ``moved`` (503, retry) while its owner is asked to
hand it over, tables of a dead server are taken over by a sweep every second, and a table
whose lease was lost leaves memory with its sockets told to reconnect. The database and the
replay of a table run in threads, so neither holds up the other tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, TypeAlias

from sqlalchemy.exc import OperationalError

from ..bots.review import REVIEW_SEED
from ..i18n import Lang
from ..table import Refusal, Row, Seat, TableMaster, TableSession, finished_record
from ..table.limits import RateLimiter
from ..table.master import has_searching_bot
from ..table.page import TABLE_PAGE
from ..table.protocol import CLOSE_TRY_LATER
from ..table.replay import replay_steps
from ..table.review import ReviewDesk, ReviewKey, ReviewRun
from .leases import Presence
from .limits import client_key
from .metrics import Metrics
from .settings import Settings
from .store import LeaseAnswer, LeaseLost, Store
from .tables import ServerHost, first_line
from .workqueue import NO_ADDRESS, FairQueue

if TYPE_CHECKING:
    from .app import Outbox

log = logging.getLogger("mattis.web")
HANDOVER_POLL = 0.05
"""Seconds between looks at a lease whose owner was asked to hand the table over."""


LiveTable: TypeAlias = TableMaster["Outbox"]
"""A table in this server's memory: the table layer's master, its connections' links the
sockets' outboxes."""


class GroupCommit:
    """The rows of every change waiting while the previous transaction runs
    (mostly moves, of any tables) are stored in one transaction, in a thread, and each
    change's sender waits for it, so no one hears of a change before it is stored. Under load
    this turns hundreds of small commits a second into a few, and the event loop never waits
    for the database."""

    def __init__(self, store: Store, on_stored: Callable[[list[Row]], None] = lambda rows: None) -> None:
        self.store = store
        self.on_stored = on_stored
        """Told of every batch stored (the metrics count its actions)."""
        self.pending: list[tuple[list[Row], asyncio.Future[None]]] = []
        self.flushing: asyncio.Task[None] | None = None

    async def write(self, rows: list[Row]) -> None:
        """Store ``rows`` (one table's) with whatever else is waiting; raises if the
        transaction fails, :class:`LeaseLost` if the table is no longer ours."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self.pending.append((rows, future))
        if self.flushing is None:
            self.flushing = loop.create_task(self._flush())
        await future

    async def idle(self) -> None:
        """Wait until every change handed in is stored or refused."""
        while self.flushing is not None:
            await asyncio.shield(self.flushing)

    async def _flush(self) -> None:
        try:
            await asyncio.sleep(0)  # the changes made in this turn of the loop join the first batch
            while self.pending:
                batch, self.pending = self.pending, []
                rows = [row for changed, _ in batch for row in changed]
                try:
                    refused = await asyncio.to_thread(self.store.add_actions, rows) or set()
                except Exception as error:  # every waiting change is refused and undone by its sender
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    continue
                self.on_stored([row for row in rows if row.table_id not in refused])
                for changed, future in batch:
                    if future.done():
                        continue
                    if changed and changed[0].table_id in refused:
                        future.set_exception(LeaseLost(changed[0].table_id))
                    else:
                        future.set_result(None)
        finally:
            self.flushing = None


class Lobby:
    """Every table of a server, the store, and the worker for bot thinking."""

    def __init__(self, store: Store, settings: Settings, executor: Executor | None = None,
                 workers: int = 1) -> None:
        self.store = store
        self.metrics = Metrics(self)
        self.group_commit = GroupCommit(store, self.metrics.stored)
        self.host = ServerHost(self)
        """What the server gives every table (rows, sockets, workers, clocks)."""
        self.bot_gate = asyncio.Lock()
        """Bots of all tables take turns, one move per turn of the event loop, so a person's
        move never waits behind a crowd of bot moves."""
        self.settings = settings
        self.work = FairQueue(executor, workers)
        """Worker jobs of all tables, in fair turns (a thread when there is no executor)."""
        self.reviews = ReviewDesk()
        """Finished games' reviews, asked for and kept (their choices are jobs in :attr:`work`)."""
        self.tables: dict[str, LiveTable] = {}
        self.last_seen: dict[str, float] = {}
        """When a person was last connected to each table in memory (or it came into memory)."""
        self.addresses: dict[str, str] = {}
        """The client address (:func:`~.limits.client_key`) each table in memory counts
        against and its bots' searches are queued for: its creator's, or, for a table loaded
        from the store, that of the first person to connect (absent until then)."""
        self.by_address: dict[str, set[str]] = {}
        """The tables in memory that count against each client address."""
        self.coming = 0
        """Tables being read and replayed that have room kept for them (:meth:`_make_room`)."""
        self.taken_for_request: dict[str, float] = {}
        """When this server took a table's lease for a request routed to it."""
        self.damaged: dict[str, str] = {}
        """Tables that could not be restored, with why: set aside until the server restarts."""
        self.janitor: asyncio.Task[None] | None = None
        self.address_limits: dict[str, RateLimiter] = {}
        self.read_limits: dict[str, RateLimiter] = {}
        """Group, player and ledger reads per client address."""
        self.sockets_by_address: Counter[str] = Counter()
        """Open sockets per client address (:func:`~.limits.client_key`)."""
        self.loading: dict[str, asyncio.Task[LiveTable | None]] = {}
        """Tables being read and replayed, so two requests for one table load it once."""
        self.presence: Presence | None = None
        """This server's presence in a shared database (PostgreSQL), else ``None``: the
        server owns every table of its database."""
        if store.shared:
            self.presence = Presence(store, self._handover_asked, self._presence_lost,
                                     interval=settings.lease_interval, lease_seconds=settings.lease_seconds)
        self.sweeper: asyncio.Task[None] | None = None
        self.background: set[asyncio.Task[Any]] = set()
        self.draining = False
        """Set once the server is stopping: it takes no more tables."""

    @staticmethod
    def invite_path(table_id: str) -> str:
        """The page a friend opens to take a seat (the table id is the unguessable token)."""
        return f"{TABLE_PAGE}{table_id}"

    def _register(self, table: LiveTable, address: str | None = None) -> None:
        """Count ``table`` in memory (and against ``address``, if known)."""
        self.tables[table.table_id] = table
        if address is not None:
            self.adopt(table.table_id, address)

    def address_of(self, table_id: str) -> str:
        """The client address a table's bots' searches are queued for
        (:data:`~.workqueue.NO_ADDRESS` until someone connects to a table loaded from the store)."""
        return self.addresses.get(table_id, NO_ADDRESS)

    def adopt(self, table_id: str, address: str) -> None:
        """Count a table whose address is not known yet (loaded from the store) against
        ``address``, the first person's to connect; its bots' searches are queued for it."""
        if table_id in self.addresses or address == NO_ADDRESS or table_id not in self.tables:
            return
        self.addresses[table_id] = address
        self.by_address.setdefault(address, set()).add(table_id)

    def tables_of(self, address: str) -> list[LiveTable]:
        """The tables in memory that count against ``address``."""
        return [self.tables[table_id] for table_id in self.by_address.get(address, ())]

    def check_waiting_tables(self, address: str) -> None:
        """Refuse (429 ``too_many_tables``) another table that would wait for players, when
        ``address`` holds :attr:`~.settings.Settings.max_waiting_tables` such tables already."""
        limit = self.settings.max_waiting_tables
        if sum(table.session.game is None for table in self.tables_of(address)) >= limit:
            raise Refusal("too_many_tables", limit=limit)

    def check_bot_tables(self, address: str, table_id: str | None = None) -> None:
        """Refuse (429 ``too_many_bot_tables``) another table with a searching bot in play
        (waiting for players or playing a game) for ``address``, when it has
        :attr:`~.settings.Settings.max_bot_tables` such tables besides ``table_id`` already."""
        if address == NO_ADDRESS:
            return
        limit = self.settings.max_bot_tables
        in_play = sum(other.table_id != table_id and has_searching_bot(other.session)
                      and other.session.status != "over" for other in self.tables_of(address))
        if in_play >= limit:
            raise Refusal("too_many_bot_tables", limit=limit)

    def _make_room(self, evict: bool) -> None:
        """Keep room in memory for one more table, within :attr:`~.settings.Settings.max_tables`:
        at the limit the tables nobody has been connected to for longest leave memory (a
        hundredth of the limit at once, so a busy server does not look for one at every
        request; only if ``evict``), and if none can, the request is refused: 503 ``busy``."""
        over = len(self.tables) + self.coming + 1 - self.settings.max_tables
        if over > 0 and evict:
            over -= self._unload_longest_idle(over + self.settings.max_tables // 100)
        if over > 0:
            raise Refusal("busy")

    def _unload_longest_idle(self, count: int) -> int:
        """Let the ``count`` tables nobody has been connected to for longest leave memory
        (not one with a change in flight); returns how many left."""
        now = time.monotonic()
        idle = [(idle_time, table) for table in self.tables.values()
                if (idle_time := self.idle_for(table, now)) is not None and not table.lock.locked()]
        chosen = heapq.nlargest(count, idle, key=lambda pair: pair[0])
        for _, table in chosen:
            self._unload(table)
        return len(chosen)

    def _unload(self, table: LiveTable) -> None:
        """Let a table nobody is connected to leave memory (it stays stored; on a shared
        database its lease is parked, so the next request takes it wherever it lands)."""
        if not self._forget(table):
            return
        table.close()
        if self.presence is not None and self.presence.owner is not None:
            self._in_background(asyncio.to_thread(self.store.release_lease, table.table_id,
                                                  self.presence.owner))

    def seen(self, table: LiveTable) -> None:
        """A person connected to or left ``table``: its idle time counts from now."""
        self.last_seen[table.table_id] = time.monotonic()

    def idle_for(self, table: LiveTable, now: float) -> float | None:
        """Seconds since a person was last connected to ``table`` (bots playing on alone do
        not count), or ``None`` while someone is."""
        if any(connection.plays for connection in table.connections):
            return None
        return now - self.last_seen.get(table.table_id, now)

    def check_address(self, address: str, reads: bool = False) -> None:
        """Refuse an address (an IPv6 /64) that creates tables or joins seats (any change)
        too fast (429); with ``reads``, one that reads groups and ledgers too fast."""
        key = client_key(address)
        limits = self.read_limits if reads else self.address_limits
        limiter = limits.get(key)
        if limiter is None:
            if len(limits) > 10_000:  # forget old addresses rather than grow
                limits.clear()
            per_minute = self.settings.reads_per_minute if reads else self.settings.posts_per_minute
            limiter = limits[key] = RateLimiter(per_minute / 60, 20 if not reads else 60)
        if not limiter.allow():
            raise Refusal("rate_limited")

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

    async def find(self, table_id: str, routed: bool = True) -> LiveTable | None:
        """A table by id, loaded from the store if it is not in memory; ``None`` if there is
        none, a 410 ``damaged`` refusal if it could not be restored, a 503 ``moved`` if
        another live server owns it (``routed``: a request reached us for it, so its owner
        is asked to hand it over, and idle tables leave memory to make room for it), a 503
        ``busy`` if memory is full of tables people are connected to."""
        table = self.tables.get(table_id)
        if table is not None or not 0 < len(table_id) <= 40:
            return table
        if table_id in self.damaged:
            raise Refusal("damaged")
        if self.draining:
            raise Refusal("moved")
        loading = self.loading.get(table_id)
        if loading is None:
            loading = self.loading[table_id] = asyncio.get_running_loop().create_task(
                self._load(table_id, routed))
            loading.add_done_callback(lambda _: self.loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str, routed: bool) -> LiveTable | None:
        taken = None
        reserved = False
        try:
            if self.presence is not None:
                taken = await self._take(table_id, routed)
                if taken is None:
                    return None
            stored = await asyncio.to_thread(self.store.load_table, table_id)
            if stored is None:
                return None
            self._make_room(evict=routed)
            self.coming += 1
            reserved = True
            session, outcome = await asyncio.to_thread(TableSession.restore, stored, self.settings.table)
        except OperationalError as error:  # the database, not the table: try again later
            log.warning("table %r could not be read: %s", table_id, first_line(error))
            raise Refusal("storage") from None
        except Refusal as refusal:
            if refusal.code == "busy" and taken is not None and self.presence is not None \
                    and self.presence.owner is not None:  # no room: parked again for whoever has some
                self._in_background(asyncio.to_thread(self.store.release_lease, table_id,
                                                      self.presence.owner))
            raise
        except Exception as error:
            self._set_aside(table_id, error)
            raise Refusal("damaged") from None
        finally:
            if reserved:
                self.coming -= 1
        table = LiveTable(self.host, session, self.bot_gate)
        if taken is not None and taken.previous not in (None, taken.owner):
            self.metrics.takeovers.inc()
        if routed and self.presence is not None:
            self.taken_for_request[table_id] = time.monotonic()
        self._register(table)
        self.seen(table)
        await table.resume(outcome)  # a recount that cannot be stored now: stored with the next change
        return table

    async def _take(self, table_id: str, routed: bool) -> LeaseAnswer | None:
        """Take the table's lease: the answer, ``None`` for no such table, a ``moved``
        refusal when a live server holds it (asked to hand it over if ``routed``)."""
        assert self.presence is not None
        owner = self.presence.owner
        if owner is None:  # between a lost presence and the new one
            raise Refusal("moved")
        answer = await asyncio.to_thread(self.store.take_lease, table_id, owner)
        if answer.outcome == "busy" and routed and answer.owner is not None:
            # ask the owner to let it go, and wait a moment for it: mostly the request is
            # then served here, and the client never hears of the move
            await asyncio.to_thread(self.store.ask_owner, answer.owner, table_id)
            deadline = time.monotonic() + self.settings.handover_wait
            while answer.outcome == "busy" and time.monotonic() < deadline:
                await asyncio.sleep(HANDOVER_POLL)
                answer = await asyncio.to_thread(self.store.take_lease, table_id, owner)
        if answer.outcome == "missing":
            return None
        if answer.outcome == "busy":
            raise Refusal("moved")
        return answer

    def _in_background(self, work: Any) -> None:
        """Run a coroutine whose end nobody waits for (kept, so it is not collected)."""
        task = asyncio.get_running_loop().create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        task.add_done_callback(_log_failure)

    # ---------------------------------------------------------------- ownership (PostgreSQL)

    def _handover_asked(self, table_id: str) -> None:
        """Another server was asked for one of our tables (nginx now routes it there): park
        it so that server's retry takes it, unless we took it for a request of our own
        moments ago (two servers receiving one table's traffic must not pass it to and fro)."""
        grace = self.settings.handover_grace
        recent = time.monotonic() - self.taken_for_request.get(table_id, float("-inf")) < grace
        if recent or table_id in self.loading:
            return
        self._in_background(self.hand_over(table_id))

    async def hand_over(self, table_id: str) -> None:
        """Let a table go: wait for its change in flight, stop it, park its lease, and tell
        its sockets to reconnect (through the proxy, to the table's new owner)."""
        table = self.tables.get(table_id)
        if table is not None:
            async with table.lock:
                if self.tables.get(table_id) is not table:
                    return
                self._drop(table)
        if self.presence is not None and self.presence.owner is not None:
            await asyncio.to_thread(self.store.release_lease, table_id, self.presence.owner)
        if table is not None:
            self.metrics.handovers.inc()
            log.info("table %s handed over", table_id)

    def _drop(self, table: LiveTable) -> None:
        """Take a table out of memory, its sockets told to reconnect (``moved``)."""
        self._forget(table)
        table.close(CLOSE_TRY_LATER, Refusal("moved"))

    def _forget(self, table: LiveTable) -> bool:
        """Take ``table`` out of memory's books; ``False`` if it was not (or no longer) there."""
        table_id = table.table_id
        if self.tables.get(table_id) is not table:
            return False
        del self.tables[table_id]
        self.taken_for_request.pop(table_id, None)
        self.last_seen.pop(table_id, None)
        address = self.addresses.pop(table_id, None)
        if address is not None and (ids := self.by_address.get(address)) is not None:
            ids.discard(table_id)
            if not ids:
                del self.by_address[address]
        return True

    def lease_lost(self, table_id: str) -> None:
        """A write of a table was refused: another server owns it now."""
        table = self.tables.get(table_id)
        if table is not None:
            log.warning("table %s: its lease is another server's now; it leaves this one", table_id)
            self._drop(table)

    def _presence_lost(self) -> None:
        """Every lease of ours ended with the presence connection: drop every table."""
        for table in list(self.tables.values()):
            self._drop(table)

    async def sweep(self, period: float) -> None:
        """Forever: take over the tables of dead servers whose game is in play (a few at a
        time, so the servers alive share them), with their bots and clocks, whether or not
        anyone is connected, while there is room in memory (a table that waits for players
        has nothing to go on with: it is taken at its first request)."""
        while True:
            try:
                room = self.settings.max_tables - len(self.tables) - self.coming
                if (self.presence is not None and self.presence.owner is not None and not self.draining
                        and room > 0):
                    for table_id in await asyncio.to_thread(self.store.orphaned_table_ids, min(room, 20)):
                        with contextlib.suppress(Refusal):  # taken by another meanwhile, damaged, no room
                            await self.find(table_id, routed=False)
            except Exception as error:  # the database is away: try again next time
                log.warning("the sweep for orphaned tables failed: %s", first_line(error))
            await asyncio.sleep(period)

    def _set_aside(self, table_id: str, error: Exception) -> None:
        """Keep a table that cannot be restored out of play, with one log line naming it."""
        self.damaged[table_id] = first_line(error)
        log.error("table %s cannot be restored and is set aside (%s: %s)", table_id,
                  type(error).__name__, first_line(error))

    async def table(self, table_id: str) -> LiveTable:
        """A table by id, or a 404 refusal."""
        table = await self.find(table_id)
        if table is None:
            raise Refusal("not_found")
        return table

    async def unload_idle(self, period: float = 60.0) -> None:
        """Forever: let tables nobody has been connected to for
        :attr:`~.settings.Settings.idle_unload` seconds leave memory (they stay in the store)."""
        while True:
            await asyncio.sleep(period)
            self.unload_older_than(self.settings.idle_unload)

    def unload_older_than(self, seconds: float) -> int:
        """Let the tables nobody has been connected to for at least ``seconds`` leave memory
        (not one with a change in flight: it goes next time); returns how many."""
        now = time.monotonic()
        idle = [table for table in self.tables.values()
                if (idle_time := self.idle_for(table, now)) is not None and idle_time >= seconds
                and not table.lock.locked()]
        for table in idle:
            self._unload(table)
        return len(idle)

    # ---------------------------------------------------------------- the API

    async def create(self, body: object, address: str = NO_ADDRESS, *, player: str | None = None,
                     group: str | None = None) -> tuple[LiveTable, int, str]:
        """A new table from a ``POST /api/tables`` body of a client at ``address`` (its
        creator's seat bound to ``player``, playing for ``group``: both checked by the
        caller); returns it, the creator's seat and token. Refused when the address holds
        too many tables waiting for players or with searching bots in play, and when memory
        is full of tables people are connected to."""
        if self.draining or (self.presence is not None and self.presence.owner is None):
            raise Refusal("moved")
        session, creator, token, outcome = TableSession.create(secrets.token_urlsafe(12), body,
                                                               self.settings.table, player=player,
                                                               group=group)
        key = client_key(address) if address != NO_ADDRESS else NO_ADDRESS
        if session.game is None:
            self.check_waiting_tables(key)
        if has_searching_bot(session):
            self.check_bot_tables(key)
        self._make_room(evict=True)
        table = LiveTable(self.host, session, self.bot_gate)
        self._register(table, key)  # counted at once, so a burst of requests cannot pass the limits together
        self.seen(table)
        try:
            await table.commit(outcome)  # stored before anyone hears of it (refused if it cannot be)
        except BaseException:
            self._forget(table)
            raise
        table.start()
        return table, creator, token

    async def join(self, table_id: str, body: object, player: str | None = None) -> tuple[int, str]:
        """Take an open seat (``POST /api/tables/{ID}/join``), bound to ``player`` if the
        request carried their key."""
        table = await self.table(table_id)
        if not isinstance(body, dict):
            raise Refusal("bad_request", "expected a JSON object")
        return await table.join(body.get("name"), player)

    async def record(self, table_id: str, number: int | None) -> dict[str, Any]:
        """A finished game's engine record (:func:`~mattis.table.finished_record`), answered
        ``damaged`` for a table set aside or a stored game that cannot be replayed. Read from
        the store, so any server answers it, owner or not."""
        if table_id in self.damaged:
            raise Refusal("damaged")
        try:
            stored = await asyncio.to_thread(self.store.game, table_id, number)
            return await asyncio.to_thread(finished_record, stored)
        except (Refusal, OperationalError):
            raise
        except Exception as error:
            log.error("table %s: a stored game cannot be replayed (%s: %s)", table_id,
                      type(error).__name__, first_line(error))
            raise Refusal("damaged") from None

    async def replay(self, table_id: str, number: int | None, lang: Lang) -> dict[str, Any]:
        """A finished game step by step with every hand (:func:`~mattis.table.replay.replay_steps`),
        read from the store like :meth:`record`, so any server answers it."""
        record = await self.record(table_id, number)
        stored = await asyncio.to_thread(self.store.load_table, table_id)
        if stored is None:
            raise Refusal("not_found")
        try:
            seats = [Seat.from_stored(item) for item in stored.seats]
            return await asyncio.to_thread(replay_steps, record, seats, lang)
        except Exception as error:
            log.error("table %s: a stored game cannot be told again (%s: %s)", table_id,
                      type(error).__name__, first_line(error))
            raise Refusal("damaged") from None

    async def review(self, table_id: str, number: int, token: object, address: str) -> ReviewRun:
        """The review of a finished game for the seat whose token this is (``POST
        /api/tables/{ID}/games/{N}/review``): started at the first request (which counts as
        a post of ``address``), then as far as it has come. Each choice is a job in the fair
        queue, in a turn of the asking client's address kept for its reviews: its own bots'
        moves and hints (the next game, say) are not queued behind a review's thirty choices,
        and its reviews take turns with everyone else's jobs as its hints do."""
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            raise Refusal("bad_token")
        table = await self.table(table_id)
        seat = table.session.seat_of(token)
        if seat is None:
            raise Refusal("bad_token")
        owner = f"{client_key(address)} (reviews)"
        key = ReviewKey(table_id, number, seat, self.settings.table.review_iterations, REVIEW_SEED)

        async def run(cost: float, function: Callable[..., Any], *args: Any) -> Any:
            return await self.work.run(owner, cost, function, *args)

        def report(error: BaseException) -> None:
            log.error("table %s: the review of game %d failed", table_id, number, exc_info=error)

        return await self.reviews.ask(key, lambda: self.record(table_id, number), run,
                                      admit=lambda: self.check_address(address), report=report)

    # ---------------------------------------------------------------- restart

    async def restore(self) -> None:
        """Get ready to serve after a start or a restart, loading no table: each stored table
        comes back on the first request for it (replayed then, within the limit of tables in
        memory), so the server answers at once however many tables the database holds, and a
        table nobody comes back to stays stored: its bots wait rather than play on alone.
        Starts unloading idle tables. On a shared database: take this server's presence and
        start the sweep, which takes over the games in play of dead servers."""
        self.janitor = asyncio.get_running_loop().create_task(self.unload_idle())
        if self.presence is not None:
            await self.presence.start()
            self.sweeper = asyncio.get_running_loop().create_task(self.sweep(self.settings.sweep_period))

    async def close(self) -> None:
        """Stop the bots, the timers and the unloading. On a shared database this is the
        drain (``SIGTERM``): no table is taken any more, the changes in flight are stored,
        and ending the presence ends every lease at once, so the servers alive take the
        tables over within a second."""
        self.draining = True
        await self.reviews.close()
        for task in (self.janitor, self.sweeper):
            if task is not None:
                task.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        with contextlib.suppress(Exception):
            await self.group_commit.idle()
        for table in self.tables.values():
            if self.presence is not None:  # the page reconnects, through nginx, to another server
                table.close(CLOSE_TRY_LATER, Refusal("moved"))
            else:
                table.close()
        if self.presence is not None:
            owner = self.presence.owner
            await self.presence.close()
            log.info("server %s drained: its %d tables go on at the other servers", owner, len(self.tables))

    async def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether this server can serve (``/healthz``): the database answers, and on a
        shared database the lease heartbeat is on time; with the facts behind it."""
        try:
            await asyncio.wait_for(asyncio.to_thread(self.store.ping), 3.0)
            database = True
        except Exception:
            database = False
        facts: dict[str, Any] = {"database": database, "tables": len(self.tables),
                                 "connections": self.connection_count, "draining": self.draining,
                                 "lease": None}
        healthy = database and not self.draining
        if self.presence is not None:
            presence = self.presence
            facts["lease"] = {"owner": presence.owner, "on_time": presence.on_time,
                              "renewed_seconds_ago": round(time.monotonic() - presence.renewed, 3),
                              "renewals_late": presence.renewals_late}
            healthy = healthy and presence.on_time
        facts["status"] = "ok" if healthy else "failing"
        return healthy, facts

    @property
    def connection_count(self) -> int:
        """Open table sockets."""
        return sum(len(table.connections) for table in self.tables.values())


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        log.warning("background work failed: %s", first_line(error))
