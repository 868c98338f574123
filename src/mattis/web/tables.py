"""The server's part of every table: the web host of :class:`~mattis.table.TableMaster`.

The table layer runs each table (connections, changes, hints, reactions, bots). The server
supplies what only it has (:class:`ServerHost`): rows stored through the lobby's group commit
before anyone hears of a change, messages queued on each WebSocket's outbox
(:class:`~.app.Outbox`), searching bots' moves and hints in the worker pool's fair queue (a
bot's move in its table's client address's turn, a hint in the asking connection's), the
limit of tables with searching bots per client address, clocks on asyncio, and its log.
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

    async def think(self, job: Job, asker: Connection[Outbox] | None = None) -> DecisionParts:
        """Run a job in the worker pool, in the lobby's fair queue (its cost is its time
        budget): a hint in the turn of the client address that asked, a bot's move in that of
        its table's address. A failure is logged here and raised."""
        owner = asker.link.address if asker is not None else self.lobby.address_of(job.table_id)
        try:
            parts: DecisionParts = await self.lobby.work.run(owner, job.seconds, job_function(job), job)
        except Exception:
            log.exception("%s failed at table %s", type(job).__name__, job.table_id)
            raise
        return parts

    def admit_searching_bots(self, table_id: str) -> None:
        """Refuse (``too_many_bot_tables``) one more table with searching bots in play for the
        client address the table counts against, when it has as many as it may."""
        self.lobby.check_bot_tables(self.lobby.address_of(table_id), table_id)

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
