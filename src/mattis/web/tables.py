"""Live tables of a running server: a :class:`~mattis.table.TableSession` hosted on asyncio.

The session is the table (seats, match, game, stories, messages). A :class:`LiveTable` is
its host on the server (:class:`~mattis.table.TableHost`): it stores the session's rows
through the lobby's group commit before anyone hears of a change, sends each WebSocket its
state, runs ``hard`` bots and hints in the worker pool, plays the bots at a pace people can
follow, and keeps the absence clocks. Nothing about the game is decided here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..bots import EXPERT_SECONDS, SEARCHING_LEVELS
from ..i18n import Lang
from ..table import (
    DecisionParts,
    IllegalMove,
    Job,
    Outcome,
    Reader,
    Refusal,
    Row,
    TableConfig,
    TableSession,
    carry_out,
    drive_bots,
    perform,
)
from ..table.jobs import HintJob, job_function
from ..table.limits import RateLimiter
from ..table.protocol import MAX_SEAT_MESSAGE
from .store import LeaseLost
from .workqueue import NO_ADDRESS

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("mattis.web")

__all__ = ["CLOSE_TRY_LATER", "ApiError", "Connection", "IllegalMove", "LiveTable", "RateLimiter", "Settings",
           "first_line", "http_status"]

CLOSE_TRY_LATER = 1013
"""Socket close code for "open this socket again in a moment": over a cap, or the table
moved to another server (the page reconnects, with back-off, through the proxy)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How a server behaves; the defaults suit people, the tests shorten the waits."""

    bot_delay: float = 0.8
    """Seconds before each bot move, so people can follow the play."""
    absence_timeout: float = 60.0
    """Seconds a person may be away before a bot plays their seat."""
    hard_seconds: float = 1.0
    """Thinking time of a ``hard`` bot per move."""
    expert_seconds: float = EXPERT_SECONDS
    """Longest thinking time of an ``expert`` bot per move."""
    hint_seconds: float = 0.5
    """Thinking time of the hint."""
    hint_cooldown: float = 2.0
    """Seconds between a seat's hints, on average (asking again at the same point of the
    game gets the same hint again at once, and costs nothing) ..."""
    hint_burst: int = 3
    """... and how many may come one right after the other (a person who asks at each turn
    of a quick round is not refused)."""
    max_message: int = MAX_SEAT_MESSAGE
    """Largest client message, in characters."""
    rate: float = 10.0
    """Messages per second a connection may send on average ..."""
    burst: float = 20.0
    """... and in a burst."""
    flood_close: int = 200
    """Refused messages after which a flooding connection is closed."""
    max_tables: int = 10_000
    """Tables kept in memory at once. At the limit a table nobody is connected to leaves
    memory to make room (the longest unvisited first); only when every table has someone
    connected is a new or stored table refused (503 ``busy``)."""
    max_waiting_tables: int = 20
    """Tables that have not started (waiting for players) one client address may hold in
    memory; creating another that would wait is refused (429 ``too_many_tables``)."""
    max_bot_tables: int = 4
    """Tables with a searching bot (:data:`mattis.bots.SEARCHING_LEVELS`) one client address
    may have in play (waiting or playing a game) at once (429 ``too_many_bot_tables``)."""
    posts_per_minute: float = 30.0
    """Tables created and seats joined per minute from one address (bursts of 20)."""
    idle_unload: float = 900.0
    """Seconds after which a table nobody has been connected to leaves memory, whether or
    not its bots are playing (it stays stored and comes back when someone opens it)."""
    max_sockets_per_seat: int = 8
    """Open sockets one seat may have (tabs, devices)."""
    max_sockets_per_address: int = 64
    """Open sockets one client address (an IPv6 /64) may have, over all tables."""
    header_timeout: float = 10.0
    """Seconds a connection has to send its request headers, and a WebSocket upgrade to be
    answered (counted from the connection, or from the previous response on it)."""
    body_timeout: float = 10.0
    """Seconds a request has to send its whole body (then 408, and the connection closes)."""
    max_header_bytes: int = 16 * 1024
    """Bytes of request line and headers a request may have, however they arrive (431)."""
    write_timeout: float = 30.0
    """Seconds a client may leave what the server sends it unread before its connection is
    cut (a response or socket messages must keep moving)."""
    max_connections_per_address: int = 64
    """HTTP connections one client address (an IPv6 /64) may hold at once, WebSocket
    handshakes included (open sockets count against ``max_sockets_per_address`` instead);
    a trusted proxy's connections are not counted."""
    allowed_origins: frozenset[str] = frozenset()
    """Origins besides the server's own whose pages may open sockets (``--allow-origin``)."""
    lease_interval: float = 1.0
    """Seconds between heartbeats of the presence connection on a shared (PostgreSQL)
    database (:mod:`.leases`) ..."""
    lease_seconds: float = 10.0
    """... and how long the database waits for one before it ends this server's leases
    (a hung process or a lost machine; a killed process loses them at once)."""
    sweep_period: float = 1.0
    """Seconds between looks for tables of dead servers to take over."""
    handover_wait: float = 1.5
    """Seconds a request for a table another server owns waits for it to be handed over
    before it is answered ``moved`` (retry)."""
    handover_grace: float = 2.0
    """Seconds a table taken for a request of ours is kept before another server asking for
    it gets it (so two servers both receiving its traffic do not pass it to and fro)."""

    @property
    def table(self) -> TableConfig:
        """What the tables themselves need to know."""
        return TableConfig(absence_timeout=self.absence_timeout, hard_seconds=self.hard_seconds,
                           expert_seconds=self.expert_seconds, hint_seconds=self.hint_seconds,
                           hint_cooldown=self.hint_cooldown, hint_burst=self.hint_burst)


def http_status(error: Refusal) -> int:
    """How the web answers a refusal (:attr:`~mattis.table.Refusal.status`)."""
    return error.status


class ApiError(Refusal):
    """A refusal of the web server itself (a token, a rate, a size), with its HTTP status."""

    def __init__(self, status: int, code: str, detail: str = "", **params: object) -> None:
        super().__init__(code, detail, **params)
        self._status = status

    @property
    def status(self) -> int:
        """The status this refusal was raised with."""
        return self._status


class Connection:
    """One open WebSocket of a seat: its place in the table's messages, its send queue, and
    the client address (:func:`~.limits.client_key`) its hints are queued for."""

    QUEUE_LIMIT = 256

    def __init__(self, reader: Reader, settings: Settings, address: str = NO_ADDRESS) -> None:
        self.reader = reader
        self.address = address
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(self.QUEUE_LIMIT)
        self.limiter = RateLimiter(settings.rate, settings.burst)
        self.closed = False
        self.close_code = 1000
        """The code the socket is closed with."""

    @property
    def seat(self) -> int:
        """The seat this connection plays."""
        return self.reader.seat

    @property
    def lang(self) -> Lang:
        """The language this connection reads."""
        return self.reader.lang

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client too slow to read 256 messages is let go."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
        except asyncio.QueueFull:
            self.close()

    def close(self, code: int = 1000, error: Refusal | None = None) -> None:
        """Ask the writer to close the socket with ``code``, after telling the client
        ``error`` if there is one (a table that moved says ``moved``)."""
        if not self.closed:
            if error is not None:
                self.send({"type": "error", "code": error.code, "message": error.message(self.lang)})
            self.closed = True
            self.close_code = code
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)


class LiveTable:
    """One table of the server: its session and the server's part (see the module docstring)."""

    def __init__(self, lobby: Lobby, session: TableSession) -> None:
        self.lobby = lobby
        self.session = session
        self.connections: dict[int, set[Connection]] = {seat: set() for seat in range(session.players)}
        self.lock = asyncio.Lock()
        """The table to one change at a time, from the input until its rows are stored."""
        self.changed = asyncio.Event()
        """Set after every change, so the bot driver looks again."""
        self.driver: asyncio.Task[None] | None = None
        self._clocks: dict[int, asyncio.TimerHandle] = {}
        self.last_seen = time.monotonic()
        """When a person was last connected (or the table came into memory): a table nobody
        has been connected to for a while leaves memory."""
        self.address: str | None = None
        """The client address (:func:`~.limits.client_key`) the table counts against and its
        bots' searches are queued for: its creator's, or, for a table loaded from the store,
        that of the first person to connect (``None`` until then)."""
        self.closed = False
        """Set once the table left this server's memory (its clocks start no more)."""
        self.taken_for_request = float("-inf")
        """When this server took the table's lease for a request routed to it (else never)."""

    @property
    def table_id(self) -> str:
        """The table's id (its invite link's last part)."""
        return self.session.table_id

    @property
    def seats(self) -> list[Any]:
        """The session's seats (who sits where)."""
        return self.session.seats

    def participants(self, viewer: int) -> list[Any]:
        """The seats as the narration names them from ``viewer``'s chair."""
        return self.session.participants(viewer)

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (for the join page)."""
        return self.session.summary()

    def seat_of(self, token: str) -> int | None:
        """The seat a token belongs to."""
        return self.session.seat_of(token)

    # ---------------------------------------------------------------- the host's part

    async def store(self, rows: Sequence[Row]) -> None:
        """Keep rows through the lobby's group commit (it raises if the database refuses, and
        the change is then undone and refused with ``storage``)."""
        try:
            await self.lobby.action_log.write(list(rows))
        except LeaseLost:
            self.lobby.lease_lost(self)
            raise ApiError(503, "moved") from None
        except Exception as error:
            log.warning("table %s: a change could not be stored: %s", self.table_id, first_line(error))
            raise

    def deliver(self, session: TableSession) -> None:
        """Send every connection its seat's state."""
        for seat_connections in self.connections.values():
            for connection in list(seat_connections):
                connection.send(session.state_message(connection.reader))

    def start_absence_clock(self, session: TableSession, seat: int) -> None:
        """Ask the session about ``seat`` once the absence timeout has passed."""
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        previous = self._clocks.pop(seat, None)
        if previous is not None:
            previous.cancel()
        self._clocks[seat] = loop.call_later(self.lobby.settings.absence_timeout, self._absence_due, seat)

    def _absence_due(self, seat: int) -> None:
        self._clocks.pop(seat, None)
        outcome = self.session.set_absent(seat)
        if outcome.changed:
            self.deliver(self.session)
            self.changed.set()

    async def think(self, job: Job, owner: str | None = None) -> DecisionParts:
        """Run a job in the worker pool, in ``owner``'s turn of the lobby's fair queue (by
        default the table's client address; its cost is its time budget); a failure is
        logged here and raised."""
        queued_for = owner or self.address or NO_ADDRESS
        try:
            parts: DecisionParts = await self.lobby.work.run(queued_for, job.seconds,
                                                             job_function(job), job)
        except Exception:
            log.exception("%s failed at table %s", type(job).__name__, self.table_id)
            raise
        return parts

    def exclusive(self, session: TableSession) -> asyncio.Lock:
        """The table's lock."""
        return self.lock

    def stop_clocks(self) -> None:
        """Cancel the absence clocks (the table is closing or leaving memory)."""
        for handle in self._clocks.values():
            handle.cancel()
        self._clocks.clear()

    # ---------------------------------------------------------------- inputs

    async def change(self, make: Callable[[], Outcome]) -> Outcome:
        """One change to the session, stored and told (see :func:`mattis.table.perform`)."""
        outcome = await perform(self, self.session, make)
        self.changed.set()
        return outcome

    async def carry(self, outcome: Outcome) -> None:
        """Carry out an outcome the session already produced (a new or restored table)."""
        async with self.lock:
            await carry_out(self, self.session, outcome)
        self.changed.set()

    async def join(self, name: object) -> tuple[int, str]:
        """Seat a person in the first open seat; returns the seat and its token."""
        joined: list[tuple[int, str]] = []

        def make() -> Outcome:
            seat, token, outcome = self.session.join(name)
            joined.append((seat, token))
            return outcome

        await self.change(make)
        return joined[0]

    async def act(self, seat: int, text: str) -> None:
        """Play ``text`` for ``seat`` (refusals raise); the time until everyone is told goes
        into the action latency histogram."""
        started = time.perf_counter()
        await self.change(lambda: self.session.act(seat, text))
        self.lobby.metrics.latency.observe(time.perf_counter() - started)

    async def fill_with_bot(self, seat: object, level: object) -> None:
        """Put a bot in an open seat (a searching one only within the address's limit of
        such tables)."""
        if isinstance(level, str) and level in SEARCHING_LEVELS:  # anything else: the session refuses it
            self.lobby.check_bot_tables(self.address, self)
        await self.change(lambda: self.session.fill_with_bot(seat, level))

    async def play_again(self, seat: int) -> None:
        """Deal the next game once this one is over (with searching bots, only within the
        address's limit of such tables in play)."""
        if has_searching_bot(self.session):
            self.lobby.check_bot_tables(self.address, self)
        await self.change(lambda: self.session.play_again(seat))

    async def hint(self, connection: Connection) -> None:
        """Send the ``hard`` bot's suggestion to a seat whose turn it is (worked out in the
        fair queue, or the same hint again when asked again at the same point)."""
        seat = connection.seat
        asked = self.session.request_hint(seat)
        if isinstance(asked, HintJob):
            try:
                parts = await self.think(asked, connection.address)
            except Exception:
                self.session.hint_failed(seat)
                raise
            asked = self.session.hint_done(seat, asked, parts)
        connection.send(self.session.hint_message(asked, connection.lang))

    def react(self, connection: Connection, reaction: object) -> None:
        """Pass a quick reaction (the session checks it is one of its fixed few, and not too
        soon after the seat's last) to every connection of the table, the sender's too."""
        message = self.session.react(connection.seat, reaction)
        for seat_connections in self.connections.values():
            for other in list(seat_connections):
                other.send(message)

    async def prepare_log(self, seat: int, lang: Lang) -> None:
        """Replay the game for a seat's move log in a new language (a new connection, a
        restored table) in a thread, with the table to itself: the other tables play on."""
        if self.session.game is None or (seat, lang) in self.session.logs:
            return
        async with self.lock:
            await asyncio.to_thread(self.session.prepare_log, seat, lang)

    def connect(self, connection: Connection) -> None:
        """A seat's socket opened: the newcomer gets the state; the others only if what they
        see changed (the seat's first connection), so opening a socket costs constant work."""
        self.connections[connection.seat].add(connection)
        self.last_seen = time.monotonic()
        if self.address is None:
            self.lobby.adopt(self, connection.address)
        outcome = self.session.connect(connection.seat)
        if outcome.changed:
            self.deliver(self.session)
            self.changed.set()
        else:
            connection.send(self.session.state_message(connection.reader))

    def disconnect(self, connection: Connection) -> None:
        """A seat's socket closed; after the last one of a seat the absence clock starts."""
        seat_connections = self.connections[connection.seat]
        if connection not in seat_connections:
            return
        seat_connections.discard(connection)
        self.last_seen = time.monotonic()
        outcome = self.session.disconnect(connection.seat)
        for seat in outcome.timers:
            self.start_absence_clock(self.session, seat)
        if outcome.changed:
            self.deliver(self.session)

    def resend(self, connection: Connection) -> None:
        """Send one connection its state again (it asked, or switched language)."""
        connection.send(self.session.state_message(connection.reader))

    # ---------------------------------------------------------------- bots

    async def drive(self) -> None:
        """Move for bots and stand-ins, one move at a time, until the table is closed
        (rule-based bots decide behind the lobby's bot gate, in a millisecond)."""
        await drive_bots(self, self.session, self.changed, self.lobby.settings.bot_delay,
                         self._bot_move_failed, self.lobby.bot_gate)

    def _bot_move_failed(self, error: Exception) -> None:
        log.error("bot move failed at table %s; trying again", self.table_id, exc_info=error)

    def idle_for(self, now: float) -> float | None:
        """Seconds since a person was last connected here (bots playing on alone do not
        count), or ``None`` while someone is."""
        if any(self.connections.values()):
            return None
        return now - self.last_seen

    def close(self, code: int = 1000, error: Refusal | None = None) -> None:
        """Stop the clocks and close every connection (with ``code``, after ``error``)."""
        self.closed = True
        self.stop_clocks()
        for seat_connections in self.connections.values():
            for connection in list(seat_connections):
                connection.close(code, error)


def has_searching_bot(session: TableSession) -> bool:
    """Whether a bot at the table searches for its moves (:data:`~mattis.bots.SEARCHING_LEVELS`)."""
    return any(seat.kind == "bot" and seat.level in SEARCHING_LEVELS for seat in session.seats)


def first_line(error: BaseException) -> str:
    """An exception in one line, for a log line that needs no traceback."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
