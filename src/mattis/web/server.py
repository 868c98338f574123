"""How ``mattis serve`` runs the app on uvicorn: the limits a slow or hostile client meets
before a request reaches the app.

uvicorn leaves these to the application, or has none, so the server runs its own subclasses
of uvicorn's HTTP protocol (h11) and WebSocket protocol (websockets' sans-I/O one; why that
one: ``benchmarks/web_abuse.py --scenario ws-choice`` and ``docs/web.md``), made for one
server by :func:`guarded_protocols`:

* **The handshake deadline.** A request head must be complete within
  :attr:`Settings.header_timeout` seconds of the connection (or of the previous response on
  it), and a WebSocket upgrade must have been answered (101, or a refusal) by the same
  deadline, or the connection is cut. So no handshake, however malformed or slow, holds a
  connection longer (uvicorn has no such deadline, and its sans-I/O WebSocket protocol never
  sent the refusal websockets queued for an upgrade with over 128 headers or a line over
  8 KiB, nor closed the connection: :class:`GuardedSocket` sends it and closes; an upgrade
  with too many headers is refused before websockets reads them again, which costs more
  than anything else a hostile handshake can make the server do).
* **Heads** of more than :attr:`Settings.max_header_bytes` are answered 431 however they
  arrive: h11 counts only a head that is still incomplete, so a large one arriving whole in
  one read passed (:class:`HeadLimit` counts them all).
* **Bodies**: a response sent before the request body was all read (the app's 408
  ``slow_body`` or 413 ``too_large``) closes the connection, instead of reading whatever the
  client keeps trickling.
* **Unread responses**: data the client does not take for :attr:`Settings.write_timeout`
  seconds cuts its connection (HTTP or WebSocket). The transport pauses its writer as soon as
  anything waits in its buffer, so the clock runs exactly while the client is not reading.
* **Connections per address**: one address (an IPv6 /64, :func:`~.limits.client_key`) holds
  at most :attr:`Settings.max_connections_per_address` HTTP connections, WebSocket handshakes
  included; an open socket is then counted by the lobby (``max_sockets_per_address``). One
  more is answered 429 ``too_many_connections`` as soon as its request head is in (within
  :data:`REFUSAL_WAIT` seconds) and closed. Connections from a trusted proxy
  (``--forwarded-allow-ips``) are not counted: the proxy holds the clients' connections and
  limits them (``docs/deploy/mattis.nginx.conf``), and its connections to us carry requests
  of many clients in turn.
* An idle keep-alive connection is closed after 5 s, a WebSocket frame is at most 64 KiB, and
  a socket that stops answering pings is closed after 20 s.
* Client addresses come from ``X-Forwarded-For`` only when the operator names the proxies
  to trust (``--forwarded-allow-ips``); by default the peer's own address counts, so no
  client can choose the address its rate limits are counted against.

The request body's own limits (size, read time) are the app's (:mod:`.limits`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.http11 import MAX_NUM_HEADERS

from ..i18n import Lang
from ..table import Refusal
from .app import pick_lang
from .limits import client_key
from .settings import Settings

MAX_SOCKET_MESSAGE = 64 * 1024
"""Bytes of one WebSocket frame the protocol reads at all (the app allows far less)."""
REFUSAL_WAIT = 2.0
"""Seconds a connection over its address's cap has to send its request head before it is cut
(an honest client sends it at once, and is told why it is refused; the full header deadline
would let one address hold ten seconds' worth of refused connections)."""
KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection stays open."""


class HeadLimit(h11.Connection):
    """h11's server connection, refusing a request head of more than ``limit`` bytes however
    it arrives: h11 itself counts only a head that is still incomplete, so one that arrives
    whole in a single read (up to 256 KiB) passed. The refusal is a ``RemoteProtocolError``
    like h11's own, with :attr:`refusal_status` 431."""

    def __init__(self, limit: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=limit)
        self.limit = limit
        self.received = 0
        """Bytes fed in so far ..."""
        self.head_start = 0
        """... and where the request now expected begins (the end of the last one)."""
        self.refusal_status = 400
        """The status of the last refusal (h11's hint: 431 for a head too large)."""

    def receive_data(self, data: bytes) -> None:
        self.received += len(data)
        super().receive_data(data)

    def next_event(self) -> Any:
        try:
            event = super().next_event()
        except h11.RemoteProtocolError as error:
            self.refusal_status = error.error_status_hint
            raise
        if isinstance(event, h11.Request | h11.EndOfMessage):
            consumed = self.received - len(self.trailing_data[0])
            if isinstance(event, h11.EndOfMessage):
                self.head_start = consumed
            elif consumed - self.head_start > self.limit:
                self.refusal_status = 431
                raise h11.RemoteProtocolError("request head too large", error_status_hint=431)
        return event


class Hold:
    """One HTTP connection counted against its address, given back once (when it closes, or
    when the WebSocket it became has finished its handshake)."""

    def __init__(self, held: Counter[str], key: str | None) -> None:
        self.held = held
        self.key = key
        """The address counted, ``None`` for a connection that is not counted (a proxy's)."""

    def release(self) -> None:
        if self.key is not None:
            self.held[self.key] -= 1
            if self.held[self.key] <= 0:
                del self.held[self.key]
            self.key = None


@dataclass
class ConnectionGuard:
    """What the protocols of one server share: its settings, the proxies whose connections
    are not counted, and the HTTP connections each client address holds now."""

    settings: Settings
    proxies: Callable[[str], bool] = lambda host: False
    held: Counter[str] = field(default_factory=Counter)

    def admit(self, host: str | None) -> Hold | None:
        """A hold on one more connection from ``host``, or ``None`` when its address already
        holds as many as it may."""
        if not host or self.proxies(host):
            return Hold(self.held, None)
        key = client_key(host)
        if self.held[key] >= self.settings.max_connections_per_address:
            return None
        self.held[key] += 1
        return Hold(self.held, key)


class _Timer:
    """One pending call on the event loop, started at most once until it is cancelled."""

    def __init__(self) -> None:
        self.handle: asyncio.TimerHandle | None = None

    def start(self, loop: asyncio.AbstractEventLoop, delay: float, callback: Callable[[], None]) -> None:
        if self.handle is None:
            self.handle = loop.call_later(max(0.0, delay), self._fire, callback)

    def _fire(self, callback: Callable[[], None]) -> None:
        self.handle = None
        callback()

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


def _refusal_bytes(conn: h11.Connection, error: Refusal, lang: Lang,
                   headers: list[tuple[str, str]] | None = None) -> bytes:
    """A refusal as the app words it (``{"type": "error", "code", "message"}``), as the last
    response on ``conn``."""
    body = json.dumps({"type": "error", "code": error.code, "message": error.message(lang)}).encode()
    head = [("content-type", "application/json"), ("content-length", str(len(body))),
            ("connection", "close"), *(headers or [])]
    return b"".join(conn.send(event) or b"" for event in (
        h11.Response(status_code=error.status, headers=head, reason=HTTPStatus(error.status).phrase),
        h11.Data(data=body), h11.EndOfMessage()))


def _request_lang(request: h11.Request) -> Lang:
    accept = next((value for name, value in request.headers if name == b"accept-language"), b"")
    return pick_lang(None, accept.decode("latin-1"))


class _WriteTimeout:
    """The write timeout of both protocols: a connection whose client leaves what was sent to
    it unread for ``write_timeout`` seconds is cut (mixed in before uvicorn's protocol, whose
    ``pause_writing``/``resume_writing`` it extends)."""

    write_timer: _Timer
    guard: ClassVar[ConnectionGuard]
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def pause_writing(self) -> None:
        super().pause_writing()  # type: ignore[misc]
        self.write_timer.start(self.loop, self.guard.settings.write_timeout, self.transport.abort)

    def resume_writing(self) -> None:
        super().resume_writing()  # type: ignore[misc]
        self.write_timer.cancel()


class GuardedHttp(_WriteTimeout, H11Protocol):
    """uvicorn's h11 protocol with the limits of :mod:`this module <.server>`: the handshake
    deadline, heads counted whole, closing after an unread body, the write timeout and the
    connections per address (the subclass :func:`guarded_protocols` makes sets ``guard``)."""

    guard: ClassVar[ConnectionGuard]

    def __init__(self, config: uvicorn.Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.conn: HeadLimit = HeadLimit(self.guard.settings.max_header_bytes)
        self.deadline_timer = _Timer()
        self.write_timer = _Timer()
        self.deadline = 0.0
        """When the head now expected (and the handshake it may start) must be done, in loop time."""
        self.hold: Hold | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        transport.set_write_buffer_limits(high=0)  # pause_writing as soon as anything waits
        self.hold = self.guard.admit(self.client[0] if self.client else None)
        self._arm(self.guard.settings.header_timeout if self.hold else REFUSAL_WAIT)

    def data_received(self, data: bytes) -> None:
        if self.hold is None:
            self._refuse_connection(data)
        else:
            super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # a request (or an upgrade) has begun
            self.deadline_timer.cancel()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        if len(event.headers) > MAX_NUM_HEADERS:  # websockets would refuse it, after costly parsing
            self._answer(Refusal("headers_too_large"), _request_lang(event))
            return
        super().handle_websocket_upgrade(event)
        hold, self.hold = self.hold, None
        socket = self.transport.get_protocol()
        if isinstance(socket, GuardedSocket) and hold is not None:
            socket.guard_handshake(self.deadline, hold)
        elif hold is not None:  # a WebSocket protocol without the guard (the benchmark's)
            hold.release()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.SEND_BODY:  # answered before the body was all read
            self.transport.close()
        elif self.conn.their_state is h11.IDLE:
            self._arm(self.guard.settings.header_timeout)

    def send_400_response(self, msg: str) -> None:
        """A head h11 could not read, or too large: the refusal in the app's words, then close."""
        if self.conn.refusal_status == 431:
            error = Refusal("headers_too_large")
        else:
            error = Refusal("bad_request", "not an HTTP/1.1 request")
        self._answer(error, "en")

    def connection_lost(self, exc: Exception | None) -> None:
        self.deadline_timer.cancel()
        self.write_timer.cancel()
        if self.hold is not None:
            self.hold.release()
            self.hold = None
        super().connection_lost(exc)

    def _arm(self, seconds: float) -> None:
        self.deadline_timer.cancel()
        self.deadline = self.loop.time() + seconds
        self.deadline_timer.start(self.loop, seconds, self._too_slow)

    def _too_slow(self) -> None:
        if not self.transport.is_closing():
            self.transport.close()

    def _refuse_connection(self, data: bytes) -> None:
        """A connection over its address's cap: read its head, answer 429, close."""
        if self.transport.is_closing():
            return
        self.conn.receive_data(data)
        try:
            event = self.conn.next_event()
        except h11.RemoteProtocolError:
            self.transport.close()
            return
        if isinstance(event, h11.Request):
            limit = self.guard.settings.max_connections_per_address
            self._answer(Refusal("too_many_connections", limit=limit), _request_lang(event),
                         [("retry-after", "1")])

    def _answer(self, error: Refusal, lang: Lang, headers: list[tuple[str, str]] | None = None) -> None:
        with contextlib.suppress(h11.LocalProtocolError):  # a response had begun: nothing to add
            self.transport.write(_refusal_bytes(self.conn, error, lang, headers))
        self.transport.close()


class GuardedSocket(_WriteTimeout, WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with the handshake deadline it lacks, the
    refusals websockets queued (over 128 headers, a line over 8 KiB, a request it cannot
    read) sent and the connection closed, the write timeout, and the connection counted
    against its address until its handshake is done."""

    guard: ClassVar[ConnectionGuard]

    def __init__(self, config: uvicorn.Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.deadline_timer = _Timer()
        self.write_timer = _Timer()
        self.hold: Hold | None = None

    def guard_handshake(self, deadline: float, hold: Hold) -> None:
        """Called by the HTTP protocol that handed the connection over (after the upgrade's
        head was fed in): finish the handshake by ``deadline`` (loop time), counted by ``hold``."""
        self.hold = hold
        if self.transport.is_closing() or self.handshake_complete:
            self._handshake_over()
        else:
            self.deadline_timer.start(self.loop, deadline - self.loop.time(), self._too_slow)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.handshake_initiated and self.conn.handshake_exc is not None \
                and not self.transport.is_closing():
            self._refuse_handshake()

    async def send(self, message: Any) -> None:
        try:
            await super().send(message)
        finally:
            if self.handshake_complete:
                self._handshake_over()

    def connection_lost(self, exc: Exception | None) -> None:
        self.write_timer.cancel()
        self._handshake_over()
        super().connection_lost(exc)

    def _refuse_handshake(self) -> None:
        """websockets refused the upgrade while reading it: send the refusal it queued (431,
        414), or a 400 when it queued none (a request it could not read), and close."""
        output = b"".join(self.conn.data_to_send())
        if not output:
            output = self.conn.reject(400, "Failed to open a WebSocket connection: bad request.\n")\
                .serialize()
        self.transport.write(output)
        self.transport.close()

    def _too_slow(self) -> None:
        if not self.handshake_complete:
            self.transport.abort()

    def _handshake_over(self) -> None:
        self.deadline_timer.cancel()
        if self.hold is not None:
            self.hold.release()
            self.hold = None


def guarded_protocols(settings: Settings, forwarded_allow_ips: str | None = None
                      ) -> tuple[type[GuardedHttp], type[GuardedSocket]]:
    """The HTTP and WebSocket protocols of one server, sharing one count of connections per
    address; connections from the proxies in ``forwarded_allow_ips`` are not counted."""
    trusted = _TrustedHosts(forwarded_allow_ips) if forwarded_allow_ips is not None else None
    shared = ConnectionGuard(settings, (lambda host: host in trusted) if trusted is not None
                             else (lambda host: False))

    class Http(GuardedHttp):
        guard = shared

    class Socket(GuardedSocket):
        guard = shared

    return Http, Socket


def uvicorn_config(app: Any, host: str, port: int, settings: Settings,
                   *, forwarded_allow_ips: str | None = None) -> uvicorn.Config:
    """The uvicorn configuration of ``mattis serve`` (see the module docstring);
    ``forwarded_allow_ips`` lists the proxies whose ``X-Forwarded-For`` is believed. It leaves
    logging alone (uvicorn's own configuration would bind handlers to the ``sys.stderr`` of
    the moment, for good): ``mattis serve`` prints its lines itself (``logging_to_stderr``)."""
    http, socket = guarded_protocols(settings, forwarded_allow_ips)
    return uvicorn.Config(
        app, host=host, port=port, log_level="warning", log_config=None,
        http=http, ws=socket, ws_max_size=MAX_SOCKET_MESSAGE,
        ws_ping_interval=20.0, ws_ping_timeout=20.0,
        timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=settings.max_header_bytes,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips if forwarded_allow_ips is not None else "")
