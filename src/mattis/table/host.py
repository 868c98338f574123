"""What a host gives a table, and what one connection to a table is.

The table layer runs a table for every host (:class:`~.master.TableMaster`: connections,
changes, hints, reactions, the bots' loop). A host supplies only what differs between the
web server, the offline app, the terminal and the tests — as boardgame.io's transports
supply only ``send`` and ``sendAll`` to its master: where rows are kept, how a message reaches one
connection (all of them is the master's loop over its connections), where a search runs,
and its clocks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from ..i18n import Lang
from .errors import Refusal
from .jobs import DecisionParts, Job
from .rows import Row
from .session import MessageCursor

L = TypeVar("L")
"""The host's own handle on a connection: a socket's outbox on the server, a connection
number in the offline app's worker, nothing in the tests."""


@dataclass(eq=False, slots=True)
class Connection(Generic[L]):
    """One connection to a table: whose view it sees (``cursor.seat``), in which language,
    how far it has read, and whether it plays that seat.

    A connection is not a seat. Today every connection plays the seat it sees, but nothing
    here counts on it: a connection that does not play (``plays=False``) sees its seat's
    messages without making the person present, and may not move, deal or seat a bot (a
    coach watching one hand, say). Several connections may share a seat (tabs, devices).
    """

    link: L
    cursor: MessageCursor
    plays: bool = True
    """Whether this connection plays its seat: it makes the person present (a stand-in
    gives the seat back), and may move for it."""
    coach: bool = False
    """This connection is the seat's coach (:mod:`.coaching`): it does not play, and may
    suggest a move."""
    away: bool = False
    """The page said it is not looked at (its tab is hidden): it keeps its seat's messages
    but does not make the person present (``{"type": "away"}``, ``{"type": "back"}``)."""
    hints: set[asyncio.Task[None]] = field(default_factory=set)
    """Hints being worked out for this connection (cancelled when it closes)."""

    @property
    def seat(self) -> int:
        """The seat whose view this connection sees; a spectator has none, and whatever
        needs one is refused for it (``spectator``)."""
        seat = self.cursor.seat
        if seat is None:
            raise Refusal("spectator")
        return seat

    @property
    def spectator(self) -> bool:
        """Whether this connection watches the table from no seat (the public view:
        :mod:`.watchers`)."""
        return self.cursor.seat is None

    @property
    def lang(self) -> Lang:
        """The language this connection reads."""
        return self.cursor.lang


class Timer(Protocol):
    """A clock started by :meth:`TableHost.call_later` (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None:
        """Stop the clock; its callback is not called."""
        ...


class TableHost(Protocol[L]):
    """What a host provides to every table it runs."""

    async def store(self, rows: Sequence[Row]) -> None:
        """Keep ``rows`` (all of one table, ``rows[0].table_id``) durably, all or none; raise
        if that is not possible (a :class:`~.errors.Refusal` as it is, anything else as
        ``storage``)."""
        ...

    def send(self, connection: Connection[L], message: dict[str, Any]) -> None:
        """Send one message to one connection (never blocking: queue it or post it)."""
        ...

    def hang_up(self, connection: Connection[L], code: int) -> None:
        """Close a connection with a socket close code, after what was sent to it."""
        ...

    async def think(self, job: Job, asker: Connection[L] | None = None) -> DecisionParts:
        """Run a job (:func:`~.jobs.run_job` or its pieces) away from the table, or in line;
        a failure raises (the host logs it here if it logs). ``asker`` is the connection a
        hint is for (``None`` for a bot's move): a host that shares its workers between
        clients may queue the job in that client's turn."""
        ...

    def admit_searching_bots(self, table_id: str) -> None:
        """Raise a :class:`~.errors.Refusal` if the table may not have one more game with
        searching bots (:data:`mattis.bots.SEARCHING_LEVELS`) in play: the server limits them
        per client address (``too_many_bot_tables``); a host without such a limit returns."""
        ...

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` once ``seconds`` have passed (an absence clock)."""
        ...

    def report(self, table_id: str, error: BaseException) -> None:
        """Something went wrong outside any request (a bot move, a hint, a bug in a
        message): the host logs it; the table goes on."""
        ...
