"""``mattis serve``: play Mattis in the browser, with friends and bots.

Starts the web server (:mod:`mattis.web`) on uvicorn and prints the address to open. The
server needs the ``web`` extra (``pip install "mattis[web]"``); without it the command says
so in one line. So does everything that keeps it from starting: a database that cannot be
opened or is not Mattis's, one that another ``mattis serve`` is using, a busy port.
"""

from __future__ import annotations

import logging
import socket
import sys
from typing import Annotated
from urllib.parse import urlsplit

import typer

from .common import fail as _fail


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL",
        help="SQLAlchemy database URL, e.g. postgresql+psycopg://user:pw@host/mattis. "
             "Default: an SQLite file in the user data folder.", show_default=False)] = None,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", min=0.0, help="Seconds before each bot move, so people can follow.")] = 0.8,
    absence: Annotated[float, typer.Option(
        "--absence", min=0.0, help="Seconds a player may be away before a bot plays for them.")] = 60.0,
    hard_seconds: Annotated[float, typer.Option(
        "--hard-seconds", min=0.01, help="Thinking time of hard bots per move.")] = 1.0,
    workers: Annotated[int | None, typer.Option(
        "--workers", min=1, max=64, show_default=False,
        help="Worker processes for hard bots and hints. Default: one per core but one (at most 8).")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", metavar="ORIGIN", show_default=False,
        help="Another site whose pages may open game sockets, e.g. https://mattis.example "
             "(repeatable). The server's own pages always may.")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips", metavar="IPS", show_default=False,
        help="Proxies whose X-Forwarded-For names the client (comma-separated addresses or "
             "networks, * for any). Default: none, each peer is its own client.")] = None,
) -> None:
    """Serve Mattis in the browser: create tables, invite friends, play with bots."""
    try:
        import uvicorn

        from ..web import Settings, create_app
        from ..web.limits import normal_origin
        from ..web.server import uvicorn_config
        from ..web.store import DatabaseBusy, ServerLock, Store, default_url
    except ImportError as error:
        _fail(f"the web server needs the web extra: pip install 'mattis[web]' ({error.name} is missing)")
    origins = frozenset(normal_origin(origin) for origin in allow_origin or ())
    for origin in origins:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.path or parts.query:
            _fail(f"--allow-origin: expected an origin such as https://mattis.example, got {origin!r}")
    url = db or default_url()
    shown_url = without_password(url)

    def cannot_open(error: Exception) -> str:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return f"--db: cannot open {shown_url!r}: {reason.replace(url, shown_url)}"

    try:
        lock = ServerLock.acquire(url)  # held until the process ends: one server per database
    except DatabaseBusy as error:
        _fail(f"--db: {error}")
    except Exception as error:
        _fail(cannot_open(error))
    try:
        Store(url).close()  # fail now, in one line, on a bad URL, an unreachable or wrong database
    except Exception as error:
        lock.release()
        _fail(cannot_open(error))
    settings = Settings(bot_delay=bot_delay, absence_timeout=absence, hard_seconds=hard_seconds,
                        allowed_origins=origins)
    listener = _listen(host, port)
    port = listener.getsockname()[1]
    shown_host = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    sys.stdout.write(f"Mattis is served at http://{shown_host}:{port}/  "
                     f"(database: {shown_url}; Ctrl+C stops)\n")
    sys.stdout.flush()
    _log_to_stderr()
    config = uvicorn_config(create_app(url, settings, workers=workers), host, port, settings,
                            forwarded_allow_ips)
    try:
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        lock.release()


def _log_to_stderr() -> None:
    """The server's own log lines (a table set aside, a client gone mid-request, a write the
    database refused) on stderr, one line each."""
    logger = logging.getLogger("mattis.web")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%Y-%m-%d %H:%M:%S"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def without_password(url: str) -> str:
    """The database URL as it may be shown on a screen or in a log: the password masked
    (``postgresql+psycopg://mattis:***@host/mattis``); text that is no URL as it is."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return url
    return parsed.render_as_string(hide_password=True) if parsed.password else url


def _listen(host: str, port: int) -> socket.socket:
    """Bind the address before saying where to go, so a busy port is one clear error line."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        _fail(f"--host/--port: cannot listen on {host}:{port}: {error.strerror or error}")
    return listener
