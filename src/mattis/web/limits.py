"""What keeps one client's input from hurting the server: bodies read within a size and a
time limit, JSON parsed so that no text can make it fail in an unexpected way, client
addresses as rate limits count them, and the WebSocket origin check.

Every refusal is a :class:`~mattis.table.Refusal` (its status from
:data:`~mattis.table.errors.STATUS`), so the client gets a 4xx and one error message, and never
its own text back (a lone surrogate could not even be encoded).
"""

from __future__ import annotations

import asyncio
import ipaddress
from urllib.parse import urlsplit

from starlette.requests import ClientDisconnect, Request

from ..table import Refusal

MAX_BODY = 16 * 1024
"""Bytes a request body may have."""
MAX_GAME_DIGITS = 9
"""Digits of a ``?game=`` number (no match has a billion games)."""


class ClientGone(Exception):
    """The client closed the connection while its request was being read."""


async def read_body(request: Request, timeout: float, limit: int = MAX_BODY) -> bytes:
    """The request body, read as it arrives: refused with 413 the moment it passes
    ``limit`` bytes (or when ``Content-Length`` says it will), never buffered whole, and with
    408 if it has not all arrived within ``timeout`` seconds."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not (declared.isascii() and declared.isdigit() and len(declared) <= 20):
            raise Refusal("bad_request", "Content-Length must be a number")
        if int(declared) > limit:
            raise Refusal("too_large", limit=limit)
    body = bytearray()
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise Refusal("too_large", limit=limit)
    except TimeoutError:
        raise Refusal("slow_body", seconds=f"{timeout:g}") from None
    except ClientDisconnect:
        raise ClientGone from None
    return bytes(body)


def game_number(text: str | None) -> int | None:
    """A ``?game=`` value: ``None`` (the latest) when absent or empty, else a number of at
    most :data:`MAX_GAME_DIGITS` ASCII digits (``²`` is a digit to :meth:`str.isdigit`)."""
    if not text:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_GAME_DIGITS):
        raise Refusal("bad_request", "game must be a number")
    return int(text)


def client_key(host: str) -> str:
    """The address rate limits count a client by: its IP address, and for IPv6 its /64
    network (one household or one machine gets a whole /64, so counting single addresses
    would give it billions of allowances)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def normal_origin(origin: str) -> str:
    """An origin as compared: lower case, without a trailing slash."""
    return origin.strip().rstrip("/").lower()


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a WebSocket may open: no ``Origin`` header (not a browser), the server's own
    origin (the ``Host`` the browser asked for), or one the operator allowed. Otherwise a
    page on another site is trying to act for its visitor."""
    if origin is None:
        return True
    if normal_origin(origin) in allowed:
        return True
    netloc = urlsplit(normal_origin(origin)).netloc
    return bool(netloc) and host is not None and netloc == host.strip().lower()
