"""The server's part of every table: the web host of :class:`~mattis.table.TableMaster`.

The table layer runs each table (connections, changes, hints, reactions, bots). The server
supplies what only it has (:class:`ServerHost`): rows stored through the lobby's group commit
before anyone hears of a change, messages queued on each WebSocket's outbox
(:class:`~.app.Outbox`), ``hard`` and ``expert`` searches and hints in the worker pool's fair
queue, clocks on asyncio, and its log.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..table import Connection, DecisionParts, Job, Refusal, Row, Timer
from ..table.jobs import job_function
from .store import LeaseLost

if TYPE_CHECKING:
    from .app import Outbox
    from .lobby import Lobby

log = logging.getLogger("mattis.web")


class ServerHost:
    """What the server gives every table (:class:`~mattis.table.TableHost`)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def store(self, rows: Sequence[Row]) -> None:
        """Keep rows through the lobby's group commit (it raises if the database refuses, and
        the change is then undone and refused with ``storage``; a table whose lease another
        server took leaves this one, refused ``moved``)."""
        table_id = rows[0].table_id
        try:
            await self.lobby.group_commit.write(list(rows))
        except LeaseLost:
            self.lobby.lease_lost(table_id)
            raise Refusal("moved") from None
        except Exception as error:
            log.warning("table %s: a change could not be stored: %s", table_id, first_line(error))
            raise

    def send(self, connection: Connection[Outbox], message: dict[str, Any]) -> None:
        """Queue a message on the socket."""
        connection.link.put(message)

    def hang_up(self, connection: Connection[Outbox], code: int) -> None:
        """Close the socket with ``code`` once what is queued is written."""
        connection.link.close(code)

    async def think(self, job: Job) -> DecisionParts:
        """Run a job in the worker pool, in its table's turn of the lobby's fair queue (its
        cost is its time budget); a failure is logged here and raised."""
        try:
            parts: DecisionParts = await self.lobby.work.run(job.table_id, job.seconds,
                                                             job_function(job), job)
        except Exception:
            log.exception("%s failed at table %s", type(job).__name__, job.table_id)
            raise
        return parts

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        """A clock on the event loop."""
        return asyncio.get_running_loop().call_later(seconds, callback)

    def report(self, table_id: str, error: BaseException) -> None:
        """Log it with its traceback; the table goes on."""
        log.error("table %s: %s failed; it goes on", table_id, type(error).__name__, exc_info=error)


def first_line(error: BaseException) -> str:
    """An exception in one line, for a log line that needs no traceback."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
