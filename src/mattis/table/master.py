"""One table as a host runs it, written once for every host: connections, changes, hints,
reactions and the bots' loop.

A :class:`TableMaster` holds a :class:`~.session.TableSession` and its open connections, and
does everything a host used to write for itself: a connection opens (with its seat token)
and closes, the first connection of a seat tells everyone and later ones cost one state; a
change is made with the table to itself, stored, then told (and undone if storing failed); a
hint is worked out as a job and answered to the connection that asked; a reaction goes to
everyone; each refusal goes to its connection as one ``error`` envelope; bots and stand-ins
move at a pace that tells nothing of their hands, and stop while nobody is there. The host
(:class:`~.host.TableHost`) only keeps rows, sends to one connection, runs jobs and keeps
clocks. This is boardgame.io's split of a master from its transports.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Generic

from ..bots import SEARCHING_LEVELS, Decision
from ..i18n import Lang
from .coaching import MAX_COACH_CONNECTIONS
from .config import TableConfig
from .errors import Refusal, error_message
from .host import Connection, L, TableHost, Timer
from .jobs import HintJob, decision_from_parts
from .protocol import CLOSE_AFTER, CLOSE_REFUSED, dispatch, read_seat_message
from .session import Outcome, TableSession

FAILURE_PAUSE = 1.0
"""Seconds a bot's loop waits after a failed move (a store that refused, a crashed worker)
before it tries again."""


class TableMaster(Generic[L]):
    """One table on a host (see the module docstring). It implements
    :class:`~.protocol.SeatRequests` for its connections."""

    def __init__(self, host: TableHost[L], session: TableSession,
                 gate: AbstractAsyncContextManager[object] | None = None) -> None:
        self.host = host
        self.session = session
        self.gate = gate
        """Held while a bot's move is chosen (the server's bots of all tables take turns)."""
        self.connections: list[Connection[L]] = []
        self.lock = asyncio.Lock()
        """The table to one change at a time, from the change until its rows are stored."""
        self.changed = asyncio.Event()
        """Set after every change and connection, so the bots' loop looks again."""
        self.driver: asyncio.Task[None] | None = None
        self.absence_clocks: dict[int, Timer] = {}
        """The absence clock running for each seat whose person is away."""
        self.hints: set[asyncio.Task[None]] = set()
        """Hints being worked out, for every connection."""
        self.closed = False
        """Set once the table left the host's memory (its clocks start no more)."""

    @property
    def table_id(self) -> str:
        """The table's id (its invite link's last part)."""
        return self.session.table_id

    @property
    def config(self) -> TableConfig:
        """How the table behaves."""
        return self.session.config

    # ---------------------------------------------------------------- running and stopping

    def start(self) -> None:
        """Start moving for the bots, on the running event loop."""
        if self.driver is None:
            self.driver = asyncio.get_running_loop().create_task(self.drive())

    async def resume(self, outcome: Outcome) -> None:
        """Start a table brought back from storage: its bots move, and its restore's outcome
        is stored (one that cannot be stored now is reported, and stored with the next change)."""
        self.start()
        try:
            await self.commit(outcome)
        except Refusal as error:
            self.host.report(self.table_id, error)

    async def stop(self) -> None:
        """Stop the bots and the hints, and wait until they have stopped."""
        tasks = [*self.hints, *([self.driver] if self.driver is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def close(self, code: int = 1000, error: Refusal | None = None) -> None:
        """The table leaves the host: clocks, bots and hints stop, and every connection is
        told ``error`` (if any) and closed with ``code``."""
        self.closed = True
        for clock in self.absence_clocks.values():
            clock.cancel()
        self.absence_clocks.clear()
        for task in [*self.hints, *([self.driver] if self.driver is not None else [])]:
            task.cancel()
        connections, self.connections = self.connections, []
        for connection in connections:
            if error is not None:
                self.refuse(connection, error)
            self.host.hang_up(connection, code)

    async def settled(self) -> None:
        """Wait until every hint asked so far has been answered (tests, the offline app)."""
        while self.hints:
            await asyncio.gather(*self.hints, return_exceptions=True)

    # ---------------------------------------------------------------- changes

    async def transact(self, change: Callable[[], Outcome]) -> Outcome:
        """Make one change to the session with the table to itself until its rows are stored,
        then tell everyone (so a move never lands on one that may still be undone)."""
        async with self.lock:
            outcome = change()
            await self._store_and_tell(outcome)
        return outcome

    async def commit(self, outcome: Outcome) -> None:
        """Store and tell an outcome the session made already (a new or restored table)."""
        async with self.lock:
            await self._store_and_tell(outcome)

    async def _store_and_tell(self, outcome: Outcome) -> None:
        """Store an outcome's rows, then tell everyone; if the rows cannot be stored, undo the
        change and refuse with ``storage`` (or the host's own refusal), so nothing is ever
        half done."""
        if outcome.rows:
            try:
                await self.host.store(outcome.rows)
            except Refusal:  # the host's own (the table moved to another server): as it is
                self.session.undo(outcome)
                raise
            except Exception as error:  # the store is outside our control: refuse, keep the state
                self.session.undo(outcome)
                raise Refusal("storage") from error
        for seat in outcome.timers:
            self._start_absence_clock(seat)
        if outcome.changed:
            self.deliver()
        self.changed.set()

    async def join(self, name: object, player: str | None = None) -> tuple[int, str]:
        """Seat a person (bound to ``player``, if any) in the first open seat; returns the
        seat and its new token."""
        joined: list[tuple[int, str]] = []

        def change() -> Outcome:
            seat, token, outcome = self.session.join(name, player)
            joined.append((seat, token))
            return outcome

        await self.transact(change)
        return joined[0]

    # ---------------------------------------------------------------- connections

    def admit(self, token: str, lang: Lang, link: L) -> Connection[L]:
        """A connection for the seat ``token`` belongs to, not yet connected
        (:meth:`connect`); ``bad_token`` for a wrong or missing token."""
        seat = self.session.seat_of(token) if token else None
        if seat is None:
            raise Refusal("bad_token")
        return Connection(link, self.session.cursor(seat, lang))

    def admit_coach(self, token: str, lang: Lang, link: L) -> Connection[L]:
        """A coach's connection for the seat whose coach link ``token`` opens, not yet
        connected: it sees that seat's view and does not play it; ``bad_token`` for a wrong,
        replaced or ended link, ``too_many_sockets`` beyond
        :data:`~.coaching.MAX_COACH_CONNECTIONS` of the seat's coach."""
        seat = self.session.coach_seat(token) if token else None
        if seat is None:
            raise Refusal("bad_token")
        if self.session.seats[seat].coaches >= MAX_COACH_CONNECTIONS:
            raise Refusal("too_many_sockets")
        return Connection(link, self.session.cursor(seat, lang), plays=False, coach=True)
    def admit_spectator(self, token: str, lang: Lang, link: L) -> Connection[L]:
        """A spectator's connection (the watch link's secret ``token``), not yet connected:
        ``bad_token`` for a wrong one, ``watching_off`` or ``too_many_watchers`` when there
        is no room (:mod:`.watchers`)."""
        watchers = self.session.watchers
        if not token or not watchers.admits(token):
            raise Refusal("bad_token")
        watchers.check_room()
        return Connection(link, self.session.cursor(None, lang), plays=False)

    def connections_of(self, seat: int) -> int:
        """How many open connections play ``seat``."""
        return sum(1 for connection in self.connections if connection.plays and connection.seat == seat)

    def connect(self, connection: Connection[L]) -> None:
        """A connection opened: it gets its state, and the others only if what they see
        changed (a seat's first connection makes the person present), so a connection
        costs constant work."""
        if connection.spectator:
            self._spectator_in(connection)
            return
        self.connections.append(connection)
        if connection.coach:  # everyone sees the seat is coached; the person is not made present
            if self.session.coach_arrived(connection.seat).changed:
                self.deliver()
            else:
                self.resend(connection)
        elif connection.plays and not connection.away:
            self._present(connection)
        else:
            self.resend(connection)

    def _spectator_in(self, connection: Connection[L]) -> None:
        """A spectator came (room is checked again: others may have come since it was
        admitted): it gets its state, and everyone the new count."""
        watchers = self.session.watchers
        try:
            watchers.check_room()
        except Refusal as error:
            self.refuse(connection, error)
            self.host.hang_up(connection, CLOSE_AFTER.get(error.code, 1000))
            return
        self.connections.append(connection)
        watchers.joined()
        self.resend(connection)
        self.send_all(watchers.message())

    def _spectator_out(self, connection: Connection[L]) -> None:
        self.session.watchers.left(connection)
        self.send_all(self.session.watchers.message())

    def _present(self, connection: Connection[L]) -> None:
        """The person of a connection is here (it opened, or its page is looked at again):
        everyone is told if that changes what they see (else this connection gets its
        state), and the person is told what a stand-in played for them meanwhile (that seat
        only)."""
        if self.session.connect(connection.seat).changed:
            self.deliver()
            self.changed.set()
        else:
            self.resend(connection)
        summary = self.session.take_away_summary(connection.seat, connection.lang)
        if summary is not None:
            self.host.send(connection, summary)

    def _absent(self, connection: Connection[L]) -> None:
        """The person of a connection may be gone (it closed, or its page is hidden): after
        the seat's last present one, its absence clock starts (none at a solo table: the
        game waits)."""
        outcome = self.session.disconnect(connection.seat)
        for seat in outcome.timers:
            self._start_absence_clock(seat)
        if outcome.changed:
            self.deliver()
        self.changed.set()

    def disconnect(self, connection: Connection[L]) -> None:
        """A connection closed; after a seat's last one its absence clock starts."""
        if connection not in self.connections:
            return
        self.connections.remove(connection)
        for task in connection.hints:
            task.cancel()
        if connection.coach:
            if self.session.coach_left(connection.seat).changed:
                self.deliver()
        elif connection.spectator:
            self._spectator_out(connection)
        elif connection.plays and not connection.away:
            self._absent(connection)

    def away(self, connection: Connection[L]) -> None:
        """The connection's page is hidden: the person counts as away, as if it had closed
        (it still gets every state)."""
        if connection.plays and not connection.away:
            connection.away = True
            self._absent(connection)

    def back(self, connection: Connection[L]) -> None:
        """The connection's page is looked at again: the person is here."""
        if connection.plays and connection.away:
            connection.away = False
            self._present(connection)

    def deliver(self) -> None:
        """Send every connection its own state."""
        for connection in list(self.connections):
            self.host.send(connection, self.session.state_message(connection.cursor))

    def send_all(self, message: dict[str, Any]) -> None:
        """Send one message to every connection of the table."""
        for connection in list(self.connections):
            self.host.send(connection, message)

    def refuse(self, connection: Connection[L], error: Refusal) -> None:
        """Tell one connection that its request was refused."""
        self.host.send(connection, error_message(error, connection.lang))

    # ---------------------------------------------------------------- a connection's messages

    async def receive(self, connection: Connection[L], text: object) -> str | None:
        """Do what one message of ``connection`` asks (``docs/web.md``); a refusal goes to
        that connection alone and a bug costs that message alone. Returns the message's type
        once done, ``None`` if it was refused."""
        try:
            message = read_seat_message(text)
            await dispatch(self, connection, message)
        except Refusal as error:
            self.refuse(connection, error)
            return None
        except Exception as error:
            self.host.report(self.table_id, error)
            self.refuse(connection, Refusal("server_error"))
            return None
        return str(message["type"])

    def _player(self, connection: Connection[L]) -> int:
        """The seat a connection plays; refused for one that only looks on (a spectator:
        ``spectator``)."""
        if connection.spectator:
            raise Refusal("spectator")
        if not connection.plays:
            raise Refusal("bad_message", "only a player of the table may do that")
        return connection.seat

    async def act(self, connection: Connection[L], action: str) -> None:
        """Play ``action`` for the connection's seat (refusals raise)."""
        seat = self._player(connection)
        await self.transact(lambda: self.session.act(seat, action))

    async def hint(self, connection: Connection[L]) -> None:
        """Work the hint out as a job while the connection's other messages are read on;
        it is sent to this connection when it is ready."""
        self._player(connection)
        task = asyncio.get_running_loop().create_task(self._answer_hint(connection))
        for kept in (connection.hints, self.hints):
            kept.add(task)
            task.add_done_callback(kept.discard)

    async def _answer_hint(self, connection: Connection[L]) -> None:
        seat = connection.seat
        try:
            asked = self.session.request_hint(seat)
            if isinstance(asked, HintJob):
                try:
                    parts = await self.host.think(asked, connection)
                except BaseException:  # failed or cancelled (the connection closed): ask again later
                    self.session.hint_failed(seat)
                    raise
                asked = self.session.hint_done(seat, asked, parts)
            self.host.send(connection, self.session.hint_message(asked, connection.lang))
        except Refusal as error:
            self.refuse(connection, error)
        except Exception as error:
            self.host.report(self.table_id, error)
            self.refuse(connection, Refusal("server_error"))

    async def undo(self, connection: Connection[L]) -> None:
        """Take back the connection's seat's last move and the robots' replies since (only
        at a solo table; else ``cannot_undo``)."""
        seat = self._player(connection)
        await self.transact(lambda: self.session.take_back(seat))

    async def play_again(self, connection: Connection[L]) -> None:
        """Deal the next game once this one is over (with searching bots, only if the host
        admits one more such game)."""
        seat = self._player(connection)
        if has_searching_bot(self.session):
            self.host.admit_searching_bots(self.table_id)
        await self.transact(lambda: self.session.play_again(seat))

    async def fill_with_bot(self, connection: Connection[L], seat: object, level: object) -> None:
        """Put a bot in an open seat (a searching one only if the host admits one more such
        table)."""
        self._player(connection)
        if isinstance(level, str) and level in SEARCHING_LEVELS:  # anything else: the session refuses it
            self.host.admit_searching_bots(self.table_id)
        await self.transact(lambda: self.session.fill_with_bot(seat, level))

    def switch_language(self, connection: Connection[L], lang: Lang) -> None:
        """Read in ``lang`` from now on; the state (and the log) is sent again in it."""
        connection.cursor.switch_language(lang)
        self.resend(connection)

    def resend(self, connection: Connection[L]) -> None:
        """Send one connection its state again."""
        self.host.send(connection, self.session.state_message(connection.cursor))

    def react(self, connection: Connection[L], reaction: object) -> None:
        """Pass a quick reaction (one of the session's fixed few, not too soon after the
        seat's last) to every connection of the table, the sender's too (a spectator's has no
        seat, and its own limit)."""
        if connection.spectator:
            self.send_all(self.session.react(None, reaction, connection))
        else:
            self.send_all(self.session.react(self._player(connection), reaction))

    async def set_watching(self, connection: Connection[L], allowed: object) -> None:
        """A seated player lets people watch, or no longer: the setting is stored, and
        turning it off closes every spectator's connection (``watching_off``)."""
        self._player(connection)
        await self.transact(lambda: self.session.set_watching(allowed))
        if self.session.watchers.allowed:
            return
        spectators = [other for other in self.connections if other.spectator]
        for spectator in spectators:
            self.connections.remove(spectator)
            self.session.watchers.left(spectator)
            self.refuse(spectator, Refusal("watching_off"))
            self.host.hang_up(spectator, CLOSE_AFTER["watching_off"])
        if spectators:
            self.send_all(self.session.watchers.message())

    # ---------------------------------------------------------------- coaching

    async def coach_link(self, connection: Connection[L]) -> None:
        """Answer the connection with a new coach link for its seat
        (``{"type": "coach_link", "url"}``); the seat's last link ends, and its coach with it."""
        seat = self._player(connection)
        made: list[str] = []

        def change() -> Outcome:
            url, outcome = self.session.coach_link(seat)
            made.append(url)
            return outcome

        await self.transact(change)
        self._let_coach_go(seat)
        self.host.send(connection, {"type": "coach_link", "url": made[0]})

    async def coach_revoke(self, connection: Connection[L]) -> None:
        """The person ends the coaching at once: the link stops working and every connection
        of the seat's coach is told ``coach_ended`` and closed."""
        seat = self._player(connection)
        await self.transact(lambda: self.session.coach_revoke(seat))
        self._let_coach_go(seat)

    def _let_coach_go(self, seat: int) -> None:
        """Close the connections of ``seat``'s coach (its link was replaced or ended), and
        tell the seat's own connections whether a link is open."""
        for coach in [other for other in self.connections if other.coach and other.seat == seat]:
            self.refuse(coach, Refusal("coach_ended"))
            self.host.hang_up(coach, CLOSE_REFUSED)
            self.disconnect(coach)
        self._resend_seat(seat)

    def suggest(self, connection: Connection[L], action: str) -> None:
        """A coach suggests a move to the person it coaches (refused as the move would be
        refused); only the seat's own connections see it, in their state's ``coach``."""
        if connection.spectator:
            raise Refusal("spectator")
        if not connection.coach:
            raise Refusal("bad_message", "only a coach may suggest a move")
        self.session.suggest(connection.seat, action)
        self._resend_seat(connection.seat)

    def _resend_seat(self, seat: int) -> None:
        """Send the connections of ``seat`` (its person's and its coach's) their state again."""
        for other in self.connections:
            if (other.plays or other.coach) and other.seat == seat:
                self.resend(other)

    # ---------------------------------------------------------------- absence clocks

    def _start_absence_clock(self, seat: int) -> None:
        timeout = self.config.absence_timeout
        if self.closed or timeout is None:
            return
        previous = self.absence_clocks.pop(seat, None)
        if previous is not None:
            previous.cancel()
        self.absence_clocks[seat] = self.host.call_later(timeout, functools.partial(self._absence_due, seat))

    def _absence_due(self, seat: int) -> None:
        self.absence_clocks.pop(seat, None)
        if self.session.set_absent(seat).changed:
            self.deliver()
            self.changed.set()

    # ---------------------------------------------------------------- bots

    @property
    def resting(self) -> bool:
        """Whether the table has stopped thinking: no person has been connected for
        :attr:`TableConfig.idle_pause` (it goes on when someone connects)."""
        since = self.session.unattended_since
        return since is not None and self.session.clock() - since >= self.config.idle_pause

    @property
    def bots_may_move(self) -> bool:
        """Whether a bot or a stand-in is to move, the table is not resting, and it does not
        wait for its one person to come back (a solo table's game waits while they are away)."""
        return self.session.bot_to_move and not self.resting and not self.session.waits_for_person

    async def drive(self) -> None:
        """Move for the bots and stand-ins, one move at a time, until cancelled. A failure is
        reported and costs a pause, never the table: the move was undone, and is tried
        again."""
        loop = asyncio.get_running_loop()
        while True:
            if not self.bots_may_move:
                self.changed.clear()
                await self.changed.wait()
                continue
            began = loop.time()
            try:
                await self.play_bot_turn(began)
            except Exception as error:
                self.host.report(self.table_id, error)
                await asyncio.sleep(FAILURE_PAUSE)

    async def play_bot_turn(self, began: float | None = None) -> Decision | None:
        """Play the move the table waits for from a bot or a stand-in, if any: chosen at
        once, or thought out as a job by the host (a failed search plays like a careful
        person instead). With ``began`` (the event loop's time when the turn began) the move
        is shown :meth:`TableConfig.move_seconds` after it, whatever the thinking took, so
        a forced move and a chosen one take the same time. Returns the move played with its
        reason (the terminal's ``--explain``), or ``None`` if no move was made (none was
        due, or the table moved on meanwhile)."""
        if self.gate is None:
            turn = self.session.bot_move_due()
        else:
            async with self.gate:
                turn = self.session.bot_move_due()
        if turn is None:
            return None
        if turn.job is None:
            assert turn.decision is not None
            decision = turn.decision
        else:
            try:
                decision = decision_from_parts(await self.host.think(turn.job))
            except Exception:  # the host reports it; the game goes on
                decision = self.session.fallback_move(turn)
        if began is not None:
            loop = asyncio.get_running_loop()
            await asyncio.sleep(max(0.0, began + self.config.move_seconds(turn.level) - loop.time()))
            if self.session.waits_for_person:  # the person went away meanwhile: the game waits
                return None
        outcome = await self.transact(lambda: self.session.bot_act(turn, decision) or Outcome())
        return decision if outcome.changed else None


def has_searching_bot(session: TableSession) -> bool:
    """Whether a bot at the table searches for its moves (:data:`~mattis.bots.SEARCHING_LEVELS`)."""
    return any(seat.kind == "bot" and seat.level in SEARCHING_LEVELS for seat in session.seats)
