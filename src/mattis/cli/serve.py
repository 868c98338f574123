"""``mattis serve``: play Mattis in the browser, with friends and bots.

Starts the web server (:mod:`mattis.web`) on uvicorn and prints the address to open. The
server needs the ``web`` extra (``pip install "mattis[web]"``) and a PostgreSQL database the
``postgres`` extra; without them the command says so in one line and exits with code 2.
"""

from __future__ import annotations

import socket
import sys
from typing import Annotated

import typer

from ..extras import missing_modules, needs_extra
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
    workers: Annotated[int, typer.Option(
        "--workers", min=1, max=64, help="Worker processes for hard bots and hints.")] = 1,
) -> None:
    """Serve Mattis in the browser: create tables, invite friends, play with bots."""
    if missing_modules("web"):
        _fail(needs_extra("mattis serve", "web"))
    try:
        import uvicorn

        from ..web import Settings, create_app
        from ..web.store import Store, default_url
    except ImportError as error:  # installed, yet broken: still one line, naming what is missing
        _fail(f"{needs_extra('mattis serve', 'web')} ({error.name} is missing)")
    url = db or default_url()
    shown_url = without_password(url)
    if is_postgresql(url) and missing_modules("postgres"):
        _fail(f"--db: cannot open {shown_url!r}: {needs_extra('a PostgreSQL database', 'postgres')}")
    try:
        Store(url).close()  # fail now, in one line, on a bad URL or an unreachable database
    except Exception as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        _fail(f"--db: cannot open {shown_url!r}: {reason.replace(url, shown_url)}")
    settings = Settings(bot_delay=bot_delay, absence_timeout=absence, hard_seconds=hard_seconds)
    listener = _listen(host, port)
    port = listener.getsockname()[1]
    shown_host = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    sys.stdout.write(f"Mattis is served at http://{shown_host}:{port}/  "
                     f"(database: {shown_url}; Ctrl+C stops)\n")
    sys.stdout.flush()
    config = uvicorn.Config(create_app(url, settings, workers=workers), host=host, port=port,
                            log_level="warning", ws_max_size=64 * 1024, ws="websockets-sansio")
    uvicorn.Server(config).run(sockets=[listener])


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


def is_postgresql(url: str) -> bool:
    """Whether the database URL names PostgreSQL (whatever its driver), which needs psycopg."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).get_backend_name() == "postgresql"
    except (ArgumentError, ValueError):
        return False


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
