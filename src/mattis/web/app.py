"""The ASGI application: pages, the JSON API and a WebSocket per seat.

Protocol (documented in ``docs/web.md``; tests and outside clients rely on these names):

* ``POST /api/tables`` ``{"rules", "set", "players", "seats"}`` → ``{"table", "seat", "token", "invite",
  "watch"}``
* ``POST /api/tables/{ID}/join`` ``{"name"}`` → ``{"seat", "token"}`` (404 unknown, 409 full)
* ``GET /api/tables/{ID}`` → public facts (seats, status) for the join page, and the watch link
  for a seated player (``X-Seat-Token: TOKEN``)
* ``GET /api/tables/{ID}/record[?game=n]`` → the engine record, only once that game is over
* ``GET /api/tables/{ID}/qr.svg`` → the invite link as a QR code (404 unknown)
* ``GET /api/tables/{ID}/coach.svg?coach=SECRET`` → a coach link as a QR code (404 unless open)
* ``POST /api/tables/{ID}/games/{N}/review`` ``{"token"}`` → 202 ``{"status": "running", "done",
  "total", "device"}`` until the review of game N for the token's seat is worked out, then 200 with it
* ``GET /api/options`` and ``GET /api/texts`` (``?lang=nb|nn|en``) → what the pages show
* ``GET /learn`` and ``GET /api/learn/{preset}.{lang}.json`` → the tutorial and its lesson
* ``WS /ws/tables/{ID}?token=TOKEN[&lang=nn]``: the server sends ``state`` messages, the
  client sends ``act``, ``hint``, ``again`` and ``lang``; every refusal is an ``error``
  message to that client alone. ``?coach=SECRET`` instead of a token opens a coach's socket,
  ``?watch=TOKEN`` a spectator's (the watch link's secret: the public view, reactions only).

No input can cost more than a refusal: bodies and messages are read within limits and
parsed by :mod:`.limits`, every route answers a refusal as ``{"type": "error", "code",
"message"}`` with its code's status (:data:`mattis.table.errors.STATUS`: a 4xx, 5xx only for
``storage``, ``moved``, ``busy`` and a bug), and a socket opens only from the server's own
pages (or allowed origins), within caps per seat and per address. Everything a socket asks
of its table is done by the table layer's master (:meth:`~mattis.table.TableMaster.receive`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import BASE_LEVELS, LEARNED
from ..bots.entrants import is_checkpoint_level
from ..core.rules import PRESET_NAMES, RULE_OPTIONS, Rules
from ..frontend.empty_loss import empty_loss_risk
from ..frontend.seats import level_label
from ..frontend.tutorial import lesson
from ..i18n import (
    DEFAULT_LANG,
    LANGS,
    Lang,
    format_decimal,
    is_plural,
    language_name,
    match_lang,
    message_keys,
    message_template,
    option_description,
    option_name,
    option_value,
    plural_forms,
    plural_rule,
    preset_summary,
    t,
)
from ..offline.network import network_levels
from ..pool import worker_pool
from ..table import Connection, Refusal, TableConfig, error_message, table_profile
from ..table.coaching import coach_url
from ..table.limits import RateLimiter
from ..table.page import TABLE_PAGE
from ..table.protocol import parse_json, refused_opening
from ..table.review import review_answer
from . import pwa
from .community import Community
from .groups_api import WebParts, community_routes, optional_player
from .limits import ClientGone, client_key, game_number, origin_allowed, read_body
from .lobby import LiveTable, Lobby
from .metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from .pages import page_html
from .qr import qr_svg
from .rules_page import rules_page
from .settings import Settings
from .store import Store, default_url
from .workqueue import NO_ADDRESS, default_workers

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("mattis.web")
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; object-src 'none'; "
     b"base-uri 'none'; frame-ancestors 'none'"),  # wasm: the offline app's worker runs Pyodide
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # a table's address is its invite: never pass it on
]


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response: everything is served by the
    package itself, so the pages may load nothing from elsewhere."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


QR_CACHE = "private, max-age=86400"
"""A table's invite never changes, so its code may be kept a day (privately: the address is
the invitation)."""
COMPRESS_FROM = 500
"""Responses from this many bytes on are sent gzip-compressed to clients that accept it."""


def public_base(request: Request, public_url: str | None) -> str:
    """The address others reach the server at, for invite links: the request's own, except
    that a request made on this machine (``localhost``) gets ``public_url`` when the server
    has one (``mattis serve --lan``), since a phone cannot open the host's ``localhost``."""
    if public_url and _is_loopback(request.url.hostname or ""):
        return public_url.rstrip("/")
    return str(request.base_url).rstrip("/")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def pick_lang(query: str | None, accept: str | None) -> Lang:
    """``?lang=`` if it names a language we speak, else the browser's first language that we
    speak (``Accept-Language``: ``nn`` → nynorsk, ``nb`` and ``no`` → bokmål), else English."""
    if query and (asked := match_lang(query)):
        return asked
    for part in (accept or "").split(","):
        if found := match_lang(part.split(";")[0]):
            return found
    return DEFAULT_LANG


def _request_lang(request: Request) -> Lang:
    return pick_lang(request.query_params.get("lang"), request.headers.get("accept-language"))


RETRY_AFTER: dict[str, str] = {"moved": "1", "busy": "10"}
"""Seconds a client refused with a code waits before asking again: ``moved``, its table is
changing server; ``busy``, memory is full of tables people are connected to."""


def _refusal(error: Refusal, lang: Lang) -> JSONResponse:
    retry = RETRY_AFTER.get(error.code)
    headers = {"retry-after": retry} if retry is not None else None
    return JSONResponse(error_message(error, lang), status_code=error.status, headers=headers)


def _address(request: Request | WebSocket) -> str:
    """The client's address (from ``X-Forwarded-For`` only through a trusted proxy)."""
    return request.client.host if request.client else ""


Handler = Callable[[Request], Awaitable[Response]]


def api(handler: Handler) -> Handler:
    """A route whose refusals are ``error`` bodies: a :class:`~mattis.table.Refusal` as itself,
    a client that left mid-request as one log line, and a bug as one logged ``server_error``."""

    async def route(request: Request) -> Response:
        try:
            return await handler(request)
        except Refusal as error:
            return _refusal(error, _request_lang(request))
        except ClientGone:
            log.info("client %s left during %s %r", _address(request), request.method, request.url.path)
            return Response(status_code=400)
        except Exception:
            log.exception("%s %r failed", request.method, request.url.path)
            return _refusal(Refusal("server_error"), _request_lang(request))

    return route


def options_payload(lang: Lang, config: TableConfig | None = None, on_device: bool = False) -> dict[str, Any]:
    """Everything the start page needs to offer every rule option, in ``lang``; each bot
    level says what it does, ``hard`` and ``expert`` with the thinking time their tables
    give them (``config``: the ``server`` profile by default). Only the levels that can play
    there are offered: ``learned`` needs numpy, which this process may lack and the offline
    app (``on_device``, Pyodide without numpy) always does; the checkpoints the server was
    allowed (``mattis serve --allow-checkpoint``) come last, by name (``learned: mine``)."""
    config = config or table_profile("server")
    presets = [{"name": name, "summary": preset_summary(name, lang),
                "rules": Rules.preset(name).to_dict(), "empty_loss": empty_loss_warnings(name, lang)}
               for name in PRESET_NAMES]
    options = []
    for field, option in RULE_OPTIONS.items():
        if not option.in_play:
            continue  # the player count is chosen directly
        options.append({"field": field, "name": option_name(option.text, lang),
                        "description": option_description(option.text, lang),
                        "rule": option.rule,
                        "values": [{"value": value, "label": option_value(option.text, value, lang)}
                                   for value in option.json_values]})
    levels = [{"level": level, "label": level_label(level, lang),
               "description": t(f"app.level_help.{LEARNED if is_checkpoint_level(level) else level}", lang,
                                seconds=format_seconds(config.thinking_seconds(level), lang))}
              for level in (device_levels() if on_device else config.levels())]
    return {"presets": presets, "options": options, "levels": levels}


def device_levels() -> tuple[str, ...]:
    """The levels the offline app offers: those that need no numpy, and ``master`` where the
    app was built with its network (:func:`mattis.offline.network.network_levels`)."""
    return (*BASE_LEVELS, *network_levels(pwa.has_network()))


def empty_loss_warnings(preset: str, lang: Lang) -> list[dict[str, Any]]:
    """For each player count of the preset whose deals often end early in Blåmattis or
    Blodmattis: the measured rate and the warning in words (``mattis.frontend.empty_loss``, as
    the terminal warns). The start page shows it while the preset's own rules are chosen."""
    rules = Rules.preset(preset)
    found = []
    for players in range(rules.min_players, rules.max_players + 1):
        risk = empty_loss_risk(rules, players)
        if risk is not None:
            found.append({"players": players, "rate": risk.rate, "name": risk.name,
                          "warning": risk.warning(lang)})
    return found


def format_seconds(seconds: float, lang: Lang) -> str:
    """``1`` or ``0.5`` (``0,5`` in Norwegian): a budget as people read it."""
    return format_decimal(seconds, lang)


def texts_payload(lang: Lang) -> dict[str, Any]:
    """The page labels (``web.ui.*`` and the offline app's ``app.ui.*``, bot levels, phases)
    in ``lang``, from the same compiled catalogues as every other text: a label by its short
    key, a counted one as its list of plural forms (``static/i18n.js`` picks one with
    ``_plural``, the language's gettext plural rule). ``_lang`` is the language answered in
    and ``_languages`` every language's code and own name, for the language switch."""
    texts: dict[str, Any] = {}
    for key in message_keys():
        if key.startswith(("web.ui.", "app.ui.")):
            short = key.split(".", 2)[2]
        elif key.startswith(("play.level.", "play.phase.")):
            short = key[len("play."):]
        else:
            continue
        texts[short] = plural_forms(key, lang) if is_plural(key) else t(key, lang)
    texts["level_checkpoint"] = message_template("play.level_checkpoint", lang)  # learned:NAME's {name}
    texts["_lang"] = lang
    texts["_plural"] = plural_rule(lang)
    texts["_languages"] = [[code, language_name(code)] for code in LANGS]
    return texts


def create_app(
    db_url: str | None = None,
    settings: Settings | None = None,
    *,
    executor_factory: Callable[[], Executor] | None = None,
    workers: int | None = None,
    public_url: str | None = None,
) -> Starlette:
    """The server. ``db_url`` defaults to an SQLite file in the user data folder; bots'
    ``hard`` searches and hints run in ``executor_factory()`` (default: ``workers`` worker
    processes, started when first needed; by default one per spare core), at most
    ``workers`` at once, in fair turns between tables. ``public_url``
    (``http://192.168.1.20:8000``) is where other machines reach it, used for invites asked
    for on this machine."""
    config = settings or Settings()
    slots = workers if workers is not None else default_workers()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db_url or default_url())
        executor = (executor_factory() if executor_factory is not None
                    else worker_pool(slots))
        lobby = Lobby(store, config, executor, slots)
        await lobby.restore()
        app.state.lobby = lobby
        app.state.community = Community(store)
        try:
            yield
        finally:
            await lobby.close()
            executor.shutdown(wait=False, cancel_futures=True)
            store.close()

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    def community_of(request: Request) -> Community:
        community: Community = request.app.state.community
        return community

    async def json_body(request: Request) -> object:
        return parse_json(await read_body(request, config.body_timeout))

    @api
    async def create_table(request: Request) -> Response:
        lobby_of(request).check_address(_address(request))
        body = await json_body(request)
        player = await optional_player(request, community_of(request))
        group = body.get("group") if isinstance(body, dict) else None
        if group is not None:
            if not isinstance(group, str):
                raise Refusal("bad_request", "group must be a group's id")
            if player is None:
                raise Refusal("bad_key")
            if not await asyncio.to_thread(community_of(request).is_member, player.player, group):
                raise Refusal("not_found")
        table, seat, token = await lobby_of(request).create(
            body, _address(request), player=None if player is None else player.player, group=group)
        base = public_base(request, public_url)
        invite = base + Lobby.invite_path(table.table_id)
        watch = base + table.session.watchers.path(table.table_id)
        return JSONResponse({"table": table.table_id, "seat": seat, "token": token, "invite": invite,
                             "watch": watch}, status_code=201)

    @api
    async def join_table(request: Request) -> Response:
        lobby_of(request).check_address(_address(request))
        body = await json_body(request)
        player = await optional_player(request, community_of(request))
        seat, token = await lobby_of(request).join(request.path_params["table_id"], body,
                                                   None if player is None else player.player)
        return JSONResponse({"seat": seat, "token": token})

    @api
    async def table_info(request: Request) -> Response:
        table = await lobby_of(request).table(request.path_params["table_id"])
        summary, token = table.session.summary(), request.headers.get("x-seat-token")
        if token is None:
            return JSONResponse(summary)
        if table.session.seat_of(token) is None:  # a seated player's own answer, with the watch link
            raise Refusal("bad_token")
        summary["watch"] = public_base(request, public_url) + table.session.watchers.path(table.table_id)
        return JSONResponse(summary, headers={"cache-control": "no-store"})

    @api
    async def table_record(request: Request) -> Response:
        number = game_number(request.query_params.get("game"))
        return JSONResponse(await lobby_of(request).record(request.path_params["table_id"], number))

    @api
    async def table_replay(request: Request) -> Response:
        lobby_of(request).check_address(_address(request), reads=True)  # a whole game told again
        number = game_number(request.query_params.get("game"))
        return JSONResponse(await lobby_of(request).replay(request.path_params["table_id"], number,
                                                           _request_lang(request)))

    @api
    async def table_review(request: Request) -> Response:
        number = game_number(request.path_params["game"])
        if number is None:
            raise Refusal("bad_request", "game must be a number")
        body = await json_body(request)
        token = body.get("token") if isinstance(body, dict) else None
        run = await lobby_of(request).review(request.path_params["table_id"], number, token,
                                             _address(request))
        answer = review_answer(run, _request_lang(request), device=False)
        return JSONResponse(answer, status_code=200 if answer["status"] == "done" else 202)

    async def replay_page(request: Request) -> Response:
        return HTMLResponse(page_html("replay"))

    async def table_qr(request: Request) -> Response:
        try:
            table = await lobby_of(request).table(request.path_params["table_id"])
        except Refusal as error:
            return _refusal(error, _request_lang(request))
        invite = public_base(request, public_url) + Lobby.invite_path(table.table_id)
        return Response(qr_svg(invite, title=invite), media_type="image/svg+xml",
                        headers={"cache-control": QR_CACHE})

    async def coach_qr(request: Request) -> Response:
        secret = request.query_params.get("coach") or ""
        try:
            table = await lobby_of(request).table(request.path_params["table_id"])
            if table.session.coach_seat(secret) is None:  # only a link that is open
                raise Refusal("not_found")
        except Refusal as error:
            return _refusal(error, _request_lang(request))
        link = public_base(request, public_url) + coach_url(TABLE_PAGE, table.table_id, secret)
        return Response(qr_svg(link), media_type="image/svg+xml", headers={"cache-control": "no-store"})

    async def options(request: Request) -> Response:
        on_device = request.query_params.get("host") == "device"  # what the offline app keeps
        table = table_profile("device") if on_device else config.table
        return JSONResponse(options_payload(_request_lang(request), table, on_device))

    async def texts(request: Request) -> Response:
        return JSONResponse(texts_payload(_request_lang(request)))

    async def start_page(request: Request) -> Response:
        return HTMLResponse(page_html("index"))

    async def learn_page(request: Request) -> Response:
        return HTMLResponse(page_html("learn"))

    @api
    async def learn_lesson(request: Request) -> Response:
        preset, lang = request.path_params["preset"], match_lang(request.path_params["lang"])
        if preset not in PRESET_NAMES or lang != request.path_params["lang"] or lang is None:
            raise Refusal("bad_request", detail=f"a lesson is one of {', '.join(PRESET_NAMES)} in one of "
                                                f"{', '.join(LANGS)}")
        return JSONResponse(lesson(preset, lang))
    async def group_page(request: Request) -> Response:
        return HTMLResponse(page_html("group"))

    async def table_page(request: Request) -> Response:
        return HTMLResponse(page_html("table"))

    kept: list[list[pwa.AppFile]] = []

    def offline_app() -> list[pwa.AppFile]:
        """The offline app's files, gathered once (the service worker's version is theirs)."""
        if not kept:
            kept.append(pwa.app_files(rules_page, options_payload, texts_payload))
        return kept[0]

    async def service_worker(request: Request) -> Response:
        if not pwa.is_built():
            return PlainTextResponse("the offline app is not built: mattis app build", status_code=404)
        return Response(pwa.service_worker(offline_app()), media_type="text/javascript",
                        headers={"cache-control": "no-cache"})

    async def site_script(request: Request) -> Response:
        return Response(pwa.site_script(), media_type="text/javascript",
                        headers={"cache-control": "no-cache"})

    async def manifest(request: Request) -> Response:
        return JSONResponse(pwa.manifest(), media_type="application/manifest+json")

    async def package_zip(request: Request) -> Response:
        data = next(item.data for item in offline_app() if item.url == "/static/app/mattis.zip")
        return Response(data, media_type="application/zip", headers={"cache-control": "no-cache"})

    async def runtime_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in pwa.RUNTIME_FILES or not (pwa.RUNTIME_DIR / name).is_file():
            return PlainTextResponse("not found", status_code=404)
        plain = pwa.RUNTIME_DIR / name
        packed = plain.with_name(name + ".gz")
        media_type = pwa.CONTENT_TYPES.get(plain.suffix, "application/octet-stream")
        if "gzip" in request.headers.get("accept-encoding", "") and packed.is_file():
            return FileResponse(packed, media_type=media_type,
                                headers={"content-encoding": "gzip", "vary": "accept-encoding"})
        return FileResponse(plain, media_type=media_type, headers={"vary": "accept-encoding"})

    async def healthz(request: Request) -> Response:
        healthy, facts = await lobby_of(request).health()
        return JSONResponse(facts, status_code=200 if healthy else 503, headers={"cache-control": "no-store"})

    async def metrics(request: Request) -> Response:
        return Response(lobby_of(request).metrics.render(), media_type=METRICS_CONTENT_TYPE)

    async def rules(request: Request) -> Response:
        return HTMLResponse(rules_page(_request_lang(request), request.query_params.get("back")))

    async def socket(websocket: WebSocket) -> None:
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                              config.allowed_origins):
            await websocket.close(code=1008)  # before accepting: the handshake gets a 403
            return
        lobby = lobby_of(websocket)
        address = _address(websocket)
        if not lobby.open_socket(address):
            await _refuse_socket(websocket, Refusal("too_many_sockets"), _socket_lang(websocket))
            return
        try:
            await serve_socket(lobby, websocket)
        finally:
            lobby.close_socket(address)

    routes = [
        Route("/", start_page),
        Route(TABLE_PAGE, table_page),  # the page the offline app keeps for every table
        Route(TABLE_PAGE + "{table_id}", table_page),
        Route("/rules", rules),
        Route("/learn", learn_page),
        Route("/api/learn/{preset}.{lang}.json", learn_lesson),
        Route("/g/", group_page),
        Route("/g/{group_id}", group_page),
        Route("/device", group_page),
        Route("/sw.js", service_worker),
        Route("/manifest.webmanifest", manifest),
        Route("/static/app/mattis.zip", package_zip),
        Route("/static/app/pyodide/{name}", runtime_file),
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        Route("/api/options", options),
        Route("/api/texts", texts),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/record", table_record),
        Route("/api/tables/{table_id}/qr.svg", table_qr),
        Route("/api/tables/{table_id}/coach.svg", coach_qr),
        Route("/api/tables/{table_id}/replay", table_replay),
        Route("/api/tables/{table_id}/games/{game}/review", table_review, methods=["POST"]),
        Route("/replay/{table_id}/{game:int}", replay_page),
        WebSocketRoute("/ws/tables/{table_id}", socket),
        *community_routes(WebParts(lobby_of, community_of, json_body,
                                   lambda request: public_base(request, public_url), _address, _request_lang),
                          api),
        Route(pwa.SITE_SCRIPT, site_script),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders), Middleware(GZipMiddleware, minimum_size=COMPRESS_FROM)]
    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware)


# -------------------------------------------------------------------- the socket


class Outbox:
    """One open WebSocket's side of the server: its queue of messages to write, its rate
    limit, how it is to be closed, and the client address (:func:`~.limits.client_key`) its
    hints are queued for."""

    QUEUE_LIMIT = 256

    def __init__(self, settings: Settings, address: str = NO_ADDRESS) -> None:
        self.address = address
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(self.QUEUE_LIMIT)
        self.limiter = RateLimiter(settings.rate, settings.burst)
        self.closed = False
        self.close_code = 1000
        """The code the socket is closed with."""

    def put(self, message: dict[str, Any]) -> None:
        """Queue a message; a client too slow to read 256 messages is let go."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
        except asyncio.QueueFull:
            self.close()

    def close(self, code: int = 1000) -> None:
        """Ask the writer to close the socket with ``code`` after what is queued."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)


def _socket_lang(websocket: WebSocket) -> Lang:
    return pick_lang(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))


async def _refuse_socket(websocket: WebSocket, error: Refusal, lang: Lang) -> None:
    """Accept, send the one refusal, close with the code that follows it."""
    message, code = refused_opening(error, lang)
    await websocket.accept()
    await websocket.send_json(message)
    await websocket.close(code=code or 1011)


async def serve_socket(lobby: Lobby, websocket: WebSocket) -> None:
    """One seat's WebSocket: check the token, then hand its messages to the table until it
    closes (the table does everything else)."""
    lang = _socket_lang(websocket)
    outbox = Outbox(lobby.settings, client_key(_address(websocket)))
    try:
        table = await lobby.table(websocket.path_params["table_id"])
        watch, coach = websocket.query_params.get("watch"), websocket.query_params.get("coach")
        if watch is not None:  # a spectator: the watch link's secret, no seat
            connection = table.admit_spectator(watch, lang, outbox)
        elif coach is not None:  # a coach: the seat's coach link (its own cap of sockets)
            connection = table.admit_coach(coach, lang, outbox)
        else:
            connection = table.admit(websocket.query_params.get("token") or "", lang, outbox)
            if table.connections_of(connection.seat) >= lobby.settings.max_sockets_per_seat:
                raise Refusal("too_many_sockets")
        await _prepare_log(table, connection)
        if table.closed:  # handed over to another server meanwhile
            raise Refusal("moved")
    except Refusal as error:  # damaged, moved, a wrong token, or the database cannot be read just now
        await _refuse_socket(websocket, error, lang)
        return
    await websocket.accept()
    writer = asyncio.create_task(_pump(websocket, connection))
    if connection.plays:  # a table counts against a person's address, never a coach's or a spectator's
        lobby.adopt(table.table_id, outbox.address)
    lobby.seen(table)
    table.connect(connection)
    try:
        while not outbox.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if _flooding(lobby, table, connection):
                continue
            started = time.perf_counter()
            text = message.get("text")  # a binary frame is refused as one
            if await table.receive(connection, b"" if text is None else text) == "act":
                lobby.metrics.latency.observe(time.perf_counter() - started)
    except WebSocketDisconnect:
        pass
    finally:
        table.disconnect(connection)
        lobby.seen(table)
        outbox.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=2)


async def _prepare_log(table: LiveTable, connection: Connection[Outbox]) -> None:
    """Replay the game for the seat's move log in a new language (a new connection, a
    restored table) in a thread, with the table to itself: the other tables play on."""
    session, key = table.session, (connection.cursor.seat, connection.lang)
    if session.game is not None and key not in session.logs:
        async with table.lock:
            await asyncio.to_thread(session.prepare_log, *key)


def _flooding(lobby: Lobby, table: LiveTable, connection: Connection[Outbox]) -> bool:
    """Whether a message goes over the connection's rate (a refusal now and then, and a
    connection that keeps flooding is closed)."""
    limiter = connection.link.limiter
    if limiter.allow():
        return False
    if limiter.refused >= lobby.settings.flood_close:
        connection.link.close()
    elif limiter.refused == 1 or limiter.refused % 25 == 0:
        table.refuse(connection, Refusal("rate_limited"))
    return True


async def _pump(websocket: WebSocket, connection: Connection[Outbox]) -> None:
    """Write queued messages in order; ``None`` closes the socket."""
    outbox = connection.link
    try:
        while True:
            text = await outbox.queue.get()
            if text is None:
                break
            try:
                await websocket.send_text(text)
            except UnicodeEncodeError:  # a bug let unsendable text through: say so, live on
                log.error("a message to seat %s could not be encoded", connection.cursor.seat)
                await websocket.send_json(error_message(Refusal("server_error"), connection.lang))
        await websocket.close(code=outbox.close_code)
    except Exception:  # the peer is gone; the reader notices and cleans up
        outbox.closed = True
