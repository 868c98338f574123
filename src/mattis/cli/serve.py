"""``mattis serve``: play Mattis in the browser, with friends and bots.

Starts the web server (:mod:`mattis.web`) on uvicorn and prints the address to open. The
server needs the ``web`` extra (``pip install "mattis[web]"``) and a PostgreSQL database the
``postgres`` extra; without them the command says so in one line and exits with code 2. So
does everything that keeps it from starting: a database that cannot be opened or is not
Mattis's, an SQLite file another ``mattis serve`` is using, a busy port. Several servers may
share one PostgreSQL database (each table owned by one of them: ``docs/deploy/README.md``).

``--lan`` is for a family on one Wi-Fi: the server listens on every interface, finds the
address this machine has on the local network (:func:`lan_address`) and prints it with a QR
code, so the phones around the table open the game by scanning instead of typing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import ipaddress
import logging
import socket
import sys
from collections.abc import Callable, Iterator
from typing import Annotated, TextIO
from urllib.parse import urlsplit

import typer

from ..bots import EXPERT_ITERATIONS
from ..bots.entrants import checkpoint_levels
from ..bots.review import MAX_ITERATIONS
from ..extras import missing_modules, needs_extra
from ..table.config import TableConfig, table_profile
from .common import entrant_failure, language
from .common import fail as _fail

DEFAULT_HOST = "127.0.0.1"
ALL_INTERFACES = "0.0.0.0"
ROUTE_PROBE = ("10.255.255.255", 1)
"""A private address to "connect" a UDP socket to: that sends nothing, but makes the system
choose the interface it would route through, whose address is the one to print."""
SERVED: TableConfig = table_profile("server")
"""The tables' profile, whose values the table options change (their defaults are its own)."""
SERVED_ABSENCE = 60.0 if SERVED.absence_timeout is None else SERVED.absence_timeout
"""``--absence``'s default (the ``server`` profile always has one)."""


def serve_command(
    *,
    host: Annotated[str | None, typer.Option(
        "--host", help=f"Address to listen on (default {DEFAULT_HOST}; {ALL_INTERFACES} with --lan).",
        show_default=False)] = None,
    lan: Annotated[bool, typer.Option(
        "--lan", help="Serve the phones and computers on your local network: listen on every "
                      "interface and print the address to open, with a QR code to scan.")] = False,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL",
        help="SQLAlchemy database URL, e.g. postgresql+psycopg://user:pw@host/mattis. "
             "Default: an SQLite file in the user data folder.", show_default=False)] = None,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", min=0.0, help="Seconds before each bot move, on top of its thinking time, "
                                     "so people can follow.")] = SERVED.bot_delay,
    absence: Annotated[float, typer.Option(
        "--absence", min=0.0,
        help="Seconds a player may be away before a bot plays for them.")] = SERVED_ABSENCE,
    hard_seconds: Annotated[float, typer.Option(
        "--hard-seconds", min=0.01, help="Thinking time of hard bots per move.")] = SERVED.hard_seconds,
    expert_seconds: Annotated[float, typer.Option(
        "--expert-seconds", min=0.01,
        help="Longest thinking time of expert bots per move (they stop sooner at "
             f"{EXPERT_ITERATIONS:,} iterations).")] = SERVED.expert_seconds,
    master_seconds: Annotated[float, typer.Option(
        "--master-seconds", min=0.01,
        help="Longest thinking time of master bots per move (they stop sooner once sure).")
    ] = SERVED.master_seconds,
    review_iterations: Annotated[int, typer.Option(
        "--review-iterations", min=1, max=MAX_ITERATIONS,
        help="Random deals per choice in a finished game's review (fewer: quicker, less sure)."
    )] = SERVED.review_iterations,
    workers: Annotated[int | None, typer.Option(
        "--workers", min=1, max=64, show_default=False,
        help="Worker processes for searching bots and hints. Default: one per core but one "
             "(at least 2, at most 8).")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", metavar="ORIGIN", show_default=False,
        help="Another site whose pages may open game sockets, e.g. https://mattis.example "
             "(repeatable). The server's own pages always may.")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips", metavar="IPS", show_default=False,
        help="Proxies whose X-Forwarded-For names the client (comma-separated addresses or "
             "networks, * for any). Default: none, each peer is its own client.")] = None,
    allow_checkpoint: Annotated[list[str] | None, typer.Option(
        "--allow-checkpoint", metavar="FILE", show_default=False,
        help="A checkpoint (made by 'mattis train') that tables here may seat as a bot, offered on the "
             "start page as 'learned: NAME' after its file name (repeatable). Only files given here "
             "are ever seated; a browser chooses among them by name.")] = None,
) -> None:
    """Serve Mattis in the browser: create tables, invite friends, play with bots."""
    if missing_modules("web"):
        _fail(needs_extra("mattis serve", "web"))
    try:
        import uvicorn

        from ..web import Settings, create_app
        from ..web.limits import normal_origin
        from ..web.server import uvicorn_config
        from ..web.store import DatabaseBusy, ServerLock, Store, default_url
    except ImportError as error:  # installed, yet broken: still one line, naming what is missing
        _fail(f"{needs_extra('mattis serve', 'web')} ({error.name} is missing)")
    try:  # before the database: a checkpoint that cannot play ends the command at once
        checkpoints = checkpoint_levels(allow_checkpoint or ())
    except ValueError as error:
        _fail(entrant_failure("--allow-checkpoint", error, language(None)))
    origins = frozenset(normal_origin(origin) for origin in allow_origin or ())
    for origin in origins:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.path or parts.query:
            _fail(f"--allow-origin: expected an origin such as https://mattis.example, got {origin!r}")
    url = db or default_url()
    shown_url = without_password(url)
    if is_postgresql(url) and missing_modules("postgres"):
        _fail(f"--db: cannot open {shown_url!r}: {needs_extra('a PostgreSQL database', 'postgres')}")
    if lan and host not in (None, ALL_INTERFACES):
        _fail(f"--lan listens on every interface ({ALL_INTERFACES}); leave out --host {host}")

    def cannot_open(error: Exception) -> str:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return f"--db: cannot open {shown_url!r}: {reason.replace(url, shown_url)}"

    try:
        lock = ServerLock.acquire(url)  # held until the process ends: one server per SQLite file
    except DatabaseBusy as error:
        _fail(f"--db: {error}")
    except Exception as error:
        _fail(cannot_open(error))
    try:
        Store(url).close()  # fail now, in one line, on a bad URL, an unreachable or wrong database
    except Exception as error:
        lock.release()
        _fail(cannot_open(error))
    host = ALL_INTERFACES if lan else host or DEFAULT_HOST
    table = dataclasses.replace(SERVED, bot_delay=bot_delay, absence_timeout=absence,
                                hard_seconds=hard_seconds, expert_seconds=expert_seconds,
                                master_seconds=master_seconds, review_iterations=review_iterations,
                                checkpoints=checkpoints)
    settings = Settings(table=table, allowed_origins=origins)
    listener = _listen(host, port)
    port = listener.getsockname()[1]
    public_url = f"http://{url_host(lan_address())}:{port}/" if lan else None
    shown_host = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    sys.stdout.write(f"Mattis is served at {public_url or f'http://{shown_host}:{port}/'}  "
                     f"(database: {shown_url}; Ctrl+C stops)\n")
    if public_url:
        sys.stdout.write(lan_banner(public_url, sys.stdout))
    sys.stdout.flush()
    app = create_app(url, settings, workers=workers, public_url=public_url)
    config = uvicorn_config(app, host, port, settings, forwarded_allow_ips=forwarded_allow_ips)
    try:
        with logging_to_stderr():
            uvicorn.Server(config).run(sockets=[listener])
    finally:
        lock.release()


SERVER_LOGGERS = {"mattis.web": logging.INFO, "uvicorn": logging.WARNING}
"""The loggers ``mattis serve`` prints, from these levels on: its own lines (a table set
aside, a client gone mid-request, a write the database refused) and uvicorn's warnings."""


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes each line to ``sys.stderr`` as it is when the line is written, never to a stream
    that was ``sys.stderr`` once and may be closed since (a captured one, in tests)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%Y-%m-%d %H:%M:%S"))

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _: TextIO) -> None:
        pass


@contextlib.contextmanager
def logging_to_stderr() -> Iterator[None]:
    """The server's log lines on stderr, one line each, while the server runs; afterwards the
    loggers are as they were (a command run in-process, as the tests do, leaves nothing)."""
    handler = _StderrHandler()
    before = {name: (logging.getLogger(name).level, logging.getLogger(name).propagate)
              for name in SERVER_LOGGERS}
    for name, level in SERVER_LOGGERS.items():
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(level)
        logger.propagate = False
    try:
        yield
    finally:
        for name, (level, propagate) in before.items():
            logger = logging.getLogger(name)
            logger.removeHandler(handler)
            logger.setLevel(level)
            logger.propagate = propagate


def lan_address(
    open_socket: Callable[[], socket.socket] = lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM),
    hostname: Callable[[], str] = socket.gethostname,
    resolve: Callable[[str], str] = socket.gethostbyname,
) -> str:
    """The address other machines on the local network reach this one at: the source address
    of the route to a private network (found without sending a packet), else what the
    machine's name resolves to, else the name itself (``kari-laptop``), which a home router
    often resolves too. A loopback or unspecified address is never the answer."""
    try:
        with open_socket() as probe:
            probe.connect(ROUTE_PROBE)
            found = str(probe.getsockname()[0])
        if _reachable(found):
            return found
    except OSError:
        pass
    name = hostname()
    try:
        found = resolve(name)
        if _reachable(found):
            return found
    except OSError:
        pass
    return name or "localhost"


def _reachable(address: str) -> bool:
    """Whether ``address`` can be opened from another machine (not loopback, not 0.0.0.0)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (parsed.is_loopback or parsed.is_unspecified)


def url_host(address: str) -> str:
    """An address as it stands in a URL: IPv6 in brackets."""
    return f"[{address}]" if ":" in address else address


def lan_banner(url: str, out: TextIO) -> str:
    """What ``--lan`` prints under the start line: the address for the phones and a QR code of
    it, in half blocks where ``out`` can show them (else in ANSI colours at a terminal, else
    none: a log file has no use for one)."""
    from ..web.qr import qr_terminal

    encoding = getattr(out, "encoding", None) or "ascii"
    try:
        "\u2580\u2584\u2588".encode(encoding)
        blocks = True
    except (LookupError, UnicodeEncodeError):
        blocks = False
    text = f"On phones and tablets on the same network, open {url} or scan this code:\n"
    if blocks:
        return text + qr_terminal(url, blocks=True)
    if out.isatty():
        return text + qr_terminal(url, blocks=False)
    return f"On phones and tablets on the same network, open {url}\n"


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
