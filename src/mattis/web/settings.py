"""What the operator of a server sets: the server's own limits, and its tables' profile.

How a table behaves (bots' pace and thinking, absence, hints) is not the server's: it is the
``server`` profile of :class:`~mattis.table.TableConfig`, held whole in :attr:`Settings.table`
(``mattis serve``'s table options change it there). Everything else here is about sockets,
rates, memory and the shared database.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..table import TABLE_PROFILES, TableConfig


@dataclass(frozen=True, slots=True)
class Settings:
    """How a server behaves; the defaults suit people, the tests shorten the waits."""

    table: TableConfig = TABLE_PROFILES["server"]
    """How its tables behave (the ``server`` profile, as ``mattis serve``'s options change it)."""
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
    """Tables created and seats joined per minute from one address (bursts of 20); players
    and groups created, joined, renamed or left count here too."""
    reads_per_minute: float = 240.0
    """Player, group and ledger reads per minute from one address (bursts of 60)."""
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
