"""What a host of a :class:`~.session.TableSession` does, written once for every host.

A host keeps the rows, delivers the messages, runs the thinking and keeps the clocks. The web
server does it with SQLAlchemy, WebSockets, a worker pool and asyncio timers; the offline
app's Web Worker with IndexedDB, ``postMessage`` and an in-line search; the tests with lists.
Each implements :class:`TableHost`, and the steps that must go the same way everywhere —
store first and undo if that fails, then tell everyone; a bot's turn; the loop that moves for
the bots — are the coroutines below. They run on asyncio: the server's loop, or Pyodide's
own in the browser.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from ..core.actions import Action
from .errors import Refusal
from .jobs import DecisionParts, Job
from .rows import Row
from .session import BotTurn, Outcome, TableSession


class TableHost(Protocol):
    """The services a table needs from whoever hosts it."""

    async def store(self, rows: Sequence[Row]) -> None:
        """Keep ``rows`` durably, all or none; raise if that is not possible."""
        ...

    def deliver(self, session: TableSession) -> None:
        """Send every connection of the table its :meth:`TableSession.state_message`."""
        ...

    def start_absence_clock(self, session: TableSession, seat: int) -> None:
        """Call :meth:`TableSession.set_absent` for ``seat`` (and :func:`carry_out` its
        outcome) once the table's absence timeout has passed."""
        ...

    async def think(self, job: Job) -> DecisionParts:
        """Run a job (:func:`~.jobs.run_job` or its pieces) away from the table; a failure
        raises (and is the host's to report)."""
        ...

    def exclusive(self, session: TableSession) -> AbstractAsyncContextManager[object]:
        """The table to one change at a time, from the input until its rows are stored."""
        ...


async def perform(host: TableHost, session: TableSession, change: Callable[[], Outcome]) -> Outcome:
    """Make one change to the table and carry it out, with the table to itself until its rows
    are stored (so a move never lands on top of one that may still be undone)."""
    async with host.exclusive(session):
        outcome = change()
        await carry_out(host, session, outcome)
    return outcome


async def carry_out(host: TableHost, session: TableSession, outcome: Outcome) -> None:
    """Store an outcome's rows, then tell everyone; if the rows cannot be stored, undo the
    change and refuse with ``storage`` (so nothing is ever half done). Call it with the
    table to itself (:func:`perform` does)."""
    if outcome.rows:
        try:
            await host.store(outcome.rows)
        except Refusal:  # the host's own refusal (the table moved to another server): as it is
            session.undo(outcome)
            raise
        except Exception as error:  # the store is outside our control: refuse, keep the state
            session.undo(outcome)
            raise Refusal("storage") from error
    for seat in outcome.timers:
        host.start_absence_clock(session, seat)
    if outcome.changed:
        host.deliver(session)


async def play_bot_turn(host: TableHost, session: TableSession, turn: BotTurn) -> bool:
    """Play one bot move: think if the turn needs it (a failed search plays like a careful
    human instead), then store and tell. ``False`` if the table moved on meanwhile."""
    answer: Action | DecisionParts
    if turn.action is not None:
        answer = turn.action
    else:
        assert turn.job is not None
        try:
            answer = await host.think(turn.job)
        except Exception:  # the host reports it; the game goes on
            answer = session.fallback_move(turn)
    async with host.exclusive(session):
        outcome = session.bot_act(turn, answer)
        if outcome is None:
            return False
        await carry_out(host, session, outcome)
    return True


async def drive_bots(
    host: TableHost,
    session: TableSession,
    changed: asyncio.Event,
    delay: float,
    report: Callable[[Exception], None],
    gate: AbstractAsyncContextManager[object] | None = None,
) -> None:
    """Move for the table's bots and stand-ins, one move at a time, ``delay`` seconds apart
    (so people can follow; it also lets other tables go first), until cancelled. The host
    sets ``changed`` after each change, which wakes the loop when a bot is due. A failure
    (a store that refuses a write, a crashed worker) is reported and costs a second's pause,
    never the table: the move was undone, and is tried again. ``gate`` (optional) is held
    while the session picks a move."""
    while True:
        if not session.bot_to_move:
            changed.clear()
            await changed.wait()
            continue
        await asyncio.sleep(delay)
        try:
            if gate is None:
                turn = session.bot_move_due()
            else:
                async with gate:
                    turn = session.bot_move_due()
            if turn is not None:
                await play_bot_turn(host, session, turn)
        except Exception as error:
            report(error)
            await asyncio.sleep(1.0)
