"""How servers sharing one PostgreSQL database own tables: one owner per table, a lease.

Each server process, at start, takes a number no process had before (a sequence) and holds
the advisory lock ``(PRESENCE_LOCK_CLASS, number)`` on a connection of its own, the
*presence* connection. The lease of a table is its row in ``mattis_leases`` naming its owner;
a lease is good while its owner's presence lock is held, so it ends the moment the owner's
connection does:

* the process is killed (``SIGKILL`` too): the kernel closes its socket and PostgreSQL drops
  the lock at once;
* the process hangs or its machine or network goes away: the presence connection sends a
  heartbeat every :attr:`Presence.interval` seconds, and the session runs with
  ``idle_session_timeout`` = :attr:`Presence.lease_seconds`, so PostgreSQL itself ends a
  session that has been silent that long, and the lock with it.

Taking a table (:meth:`~.store.Store.take_lease`) locks its lease row and succeeds if the
table is nobody's (parked), its owner is dead, or it is ours. Writes are fenced: each write
transaction locks the lease rows of its tables and writes only those still ours, so a
process that lost a table cannot write to it, even if it has not noticed yet. A process
whose heartbeat fails knows its leases are gone: it drops every table it holds and comes
back with a new number.

The same connection ``LISTEN``\\ s on the channel of its number: a server that is asked for a
table another live server owns answers "moved" (retry) and ``NOTIFY``\\ s the owner, which
hands the table over (parks it) so the retry finds it free. Ownership thus follows nginx's
routing by table: after a process comes back, the hash sends its tables back to it and the
interim owners give them up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from sqlalchemy.engine import make_url

from .store import PRESENCE_LOCK_CLASS, Store, owner_channel

log = logging.getLogger("mattis.web")


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL (``postgresql+psycopg://…``) as libpq reads it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Presence:
    """This server's life in a shared database: its owner number, the lock that keeps its
    leases good, the heartbeat and the handover requests (see the module docstring)."""

    def __init__(self, store: Store, on_handover: Callable[[str], None], on_lost: Callable[[], None],
                 *, interval: float = 1.0, lease_seconds: float = 10.0) -> None:
        self.store = store
        self.on_handover = on_handover
        """Called with a table id when another server is asked for one of ours."""
        self.on_lost = on_lost
        """Called when the presence connection failed: every lease of ours is gone."""
        self.interval = interval
        self.lease_seconds = lease_seconds
        self.owner: int | None = None
        self.renewed = 0.0
        """When the last heartbeat came back (``time.monotonic()``)."""
        self.renewals_late = 0
        """Heartbeats that failed or came back later than :attr:`lease_seconds` / 2."""
        self._task: asyncio.Task[None] | None = None
        self._connection: object = None

    @property
    def on_time(self) -> bool:
        """Whether the leases are known good: the last heartbeat is recent."""
        return self.owner is not None and time.monotonic() - self.renewed <= max(3 * self.interval, 2.0)

    async def start(self) -> None:
        """Connect and take a number (raises if the database cannot be reached), then keep
        the heartbeat going in the background."""
        await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _connect(self) -> None:
        import psycopg
        from psycopg import sql

        connection = await psycopg.AsyncConnection.connect(libpq_url(self.store.url), autocommit=True)
        try:
            owner = int((await (await connection.execute("SELECT nextval('mattis_owner_seq')")).fetchone()
                         or [0])[0])
            await connection.execute("SELECT pg_advisory_lock(%s, %s)", (PRESENCE_LOCK_CLASS, owner))
            await connection.execute(sql.SQL("SET idle_session_timeout = {}").format(
                sql.Literal(f"{int(self.lease_seconds * 1000)}ms")))
            await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(owner_channel(owner))))
        except BaseException:
            await connection.close()
            raise
        self._connection = connection
        self.owner = owner
        self.store.owner = owner
        self.renewed = time.monotonic()
        log.info("server %s holds its presence lock", owner)

    async def _run(self) -> None:
        import psycopg

        while True:
            connection = self._connection
            try:
                assert isinstance(connection, psycopg.AsyncConnection)
                async for notice in connection.notifies(timeout=self.interval):
                    self.on_handover(notice.payload)
                started = time.monotonic()
                await asyncio.wait_for(connection.execute("SELECT 1"), self.lease_seconds / 2)
                self.renewed = time.monotonic()
                if self.renewed - started > self.lease_seconds / 4:
                    self.renewals_late += 1
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.renewals_late += 1
                log.error("server %s lost its presence connection (%s); its tables are dropped",
                          self.owner, str(error).splitlines()[0] if str(error) else type(error).__name__)
                await self._close_connection()
                self.owner = None
                self.on_lost()
                await self._reconnect()

    async def _reconnect(self) -> None:
        while self.owner is None:
            try:
                await self._connect()
            except Exception:
                await asyncio.sleep(self.interval)

    async def _close_connection(self) -> None:
        connection, self._connection = self._connection, None
        close = getattr(connection, "close", None)
        if close is not None:
            with contextlib.suppress(Exception):
                await close()

    async def close(self) -> None:
        """End the presence: every lease of ours ends with it (the servers alive take the
        tables over)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._close_connection()
        self.owner = None
