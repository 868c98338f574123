"""What a server tells Prometheus (``GET /metrics``), through ``prometheus-client``.

One registry per app (several apps may live in one process, as in the tests): live tables,
open sockets, actions stored (a counter, and its rate over the last ten seconds), the time
from a person's action to everyone being told (a histogram), worker jobs waiting and
running, and the leases taken over from dead servers or handed over to others.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from ..table.rows import ActionRow, Row

if TYPE_CHECKING:
    from .lobby import Lobby

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
RATE_WINDOW = 10.0
"""Seconds over which ``mattis_actions_per_second`` is averaged."""
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The metrics of one server (see the module docstring)."""

    def __init__(self, lobby: Lobby) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.actions = Counter("mattis_actions", "Actions stored (every seat's, bots' too)",
                               registry=registry)
        self.latency = Histogram("mattis_action_latency_seconds",
                                 "From a person's action arriving to its new state being sent",
                                 buckets=LATENCY_BUCKETS, registry=registry)
        self.takeovers = Counter("mattis_lease_takeovers", "Tables taken over from a dead server",
                                 registry=registry)
        self.handovers = Counter("mattis_table_handovers", "Tables handed over to the server asked for them",
                                 registry=registry)
        Gauge("mattis_tables", "Tables live in this server", registry=registry).set_function(
            lambda: len(lobby.tables))
        Gauge("mattis_connections", "Open table sockets", registry=registry).set_function(
            lambda: lobby.connection_count)
        Gauge("mattis_worker_queue", "Worker jobs (hard bots, hints) waiting",
              registry=registry).set_function(lambda: lobby.work.pending)
        Gauge("mattis_worker_running", "Worker jobs running", registry=registry).set_function(
            lambda: lobby.work.busy)
        Gauge("mattis_actions_per_second", f"Actions stored per second, over the last {RATE_WINDOW:g} s",
              registry=registry).set_function(self.actions_per_second)
        self._recent: deque[tuple[float, int]] = deque()

    def stored(self, rows: list[Row]) -> None:
        """A batch of rows was stored: count its actions."""
        count = sum(1 for row in rows if isinstance(row, ActionRow))
        if count:
            self.actions.inc(count)
            now = time.monotonic()
            self._recent.append((now, count))
            self._forget(now)

    def actions_per_second(self) -> float:
        """Actions stored per second over the last :data:`RATE_WINDOW` seconds."""
        self._forget(time.monotonic())
        return sum(count for _, count in self._recent) / RATE_WINDOW

    def _forget(self, now: float) -> None:
        while self._recent and self._recent[0][0] < now - RATE_WINDOW:
            self._recent.popleft()

    def render(self) -> bytes:
        """The Prometheus text of every metric."""
        return generate_latest(self.registry)
