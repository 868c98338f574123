"""How ``mattis serve`` runs the app on uvicorn: the limits a slow or hostile client meets
before a request reaches the app.

* Headers must arrive within :attr:`Settings.header_timeout` seconds of the connection (or
  of the previous response): uvicorn has no such deadline of its own, so a client that
  opens connections and trickles header bytes would hold them for ever.
  :func:`header_deadline_protocol` adds it to uvicorn's h11 protocol.
* Headers are at most 16 KiB (``h11_max_incomplete_event_size``), an idle keep-alive
  connection is closed after 5 s, a WebSocket message is at most 64 KiB, and a socket that
  stops answering pings is closed after 20 s.
* Client addresses come from ``X-Forwarded-For`` only when the operator names the proxies
  to trust (``--forwarded-allow-ips``); by default the peer's own address counts, so no
  client can choose the address its rate limits are counted against.

The request body's own limits (size, read time) are the app's (:mod:`.limits`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .settings import Settings

MAX_HEADERS = 16 * 1024
"""Bytes of request line and headers a request may have."""
MAX_SOCKET_MESSAGE = 64 * 1024
"""Bytes of one WebSocket frame the protocol reads at all (the app allows far less)."""


def header_deadline_protocol(seconds: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request headers are not complete
    ``seconds`` after it opened or after its previous response."""

    class HeaderDeadline(H11Protocol):
        header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # a request (or an upgrade) has begun
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self.header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _too_slow(self) -> None:
            self.header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return HeaderDeadline


def uvicorn_config(app: Any, host: str, port: int, settings: Settings,
                   *, forwarded_allow_ips: str | None = None) -> uvicorn.Config:
    """The uvicorn configuration of ``mattis serve`` (see the module docstring);
    ``forwarded_allow_ips`` lists the proxies whose ``X-Forwarded-For`` is believed."""
    return uvicorn.Config(
        app, host=host, port=port, log_level="warning",
        http=header_deadline_protocol(settings.header_timeout),
        ws="websockets-sansio", ws_max_size=MAX_SOCKET_MESSAGE,
        ws_ping_interval=20.0, ws_ping_timeout=20.0,
        timeout_keep_alive=5, h11_max_incomplete_event_size=MAX_HEADERS,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips if forwarded_allow_ips is not None else "")
