"""A seat's messages (the socket protocol of ``docs/web.md``), read and acted on once for
every host.

The web server gets a seat's text over a WebSocket, the offline app's worker over
``postMessage``; both hand it to :func:`read_seat_message`, which checks it as the protocol
says (and refuses with its codes), then to :func:`dispatch`, which calls the host's
:class:`SeatRequests` for that seat. So a message means the same thing everywhere, and a new
kind of message is added here, once.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from ..i18n import LANGS, Lang, is_lang
from .errors import Refusal

MAX_SEAT_MESSAGE = 4096
"""Largest seat message, in characters: a move, a hint request or a reaction is a few dozen."""


class SeatRequests(Protocol):
    """What a host does when one seat's connection asks (each may raise :class:`Refusal`)."""

    async def act(self, action: str) -> None:
        """Play ``action`` (a move's text, such as ``7h``) for the seat."""
        ...

    async def hint(self) -> None:
        """Work out a hint for the seat and send it (the web starts it and returns at once)."""
        ...

    async def play_again(self) -> None:
        """Deal the next game once this one is over."""
        ...

    async def fill_with_bot(self, seat: object, level: object) -> None:
        """Put a bot of ``level`` in the open seat ``seat`` (both checked by the session)."""
        ...

    def switch_language(self, lang: Lang) -> None:
        """Speak ``lang`` on this connection from now on, and send the state in it."""
        ...

    def resend(self) -> None:
        """Send this connection its state again."""
        ...

    def react(self, reaction: object) -> None:
        """Pass a quick reaction to the whole table (checked by the session)."""
        ...


def parse_json(data: bytes | str) -> object:
    """JSON text as a value, or a refusal: ``bad_json`` for text that is not UTF-8 or not JSON
    (also nesting deeper than the interpreter's recursion limit), ``bad_text`` for a string
    with a lone surrogate (``"\\ud800"``: valid JSON, but no text, and no reply could echo it)."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text)
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise Refusal("bad_json") from None
    if "\\u" in text:  # only an escape can make a surrogate: check the decoded strings
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise Refusal("bad_text") from None
        except RecursionError:
            raise Refusal("bad_json") from None
    return value


def read_seat_message(text: object, limit: int = MAX_SEAT_MESSAGE) -> dict[str, Any]:
    """One seat message as an object with a ``type``, or the protocol's refusal for it."""
    if not isinstance(text, str):
        raise Refusal("bad_message", "send text frames")
    if len(text) > limit:
        raise Refusal("too_large", limit=limit)
    message = parse_json(text)
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Refusal("bad_message", "expected an object with a type")
    return message


async def dispatch(requests: SeatRequests, message: dict[str, Any]) -> None:
    """Do what one seat message (from :func:`read_seat_message`) asks."""
    kind = message["type"]
    if kind == "act":
        action = message.get("action")
        if not isinstance(action, str) or not 0 < len(action) <= 16:
            raise Refusal("bad_message", "act needs an action such as 7h")
        await requests.act(action)
    elif kind == "hint":
        await requests.hint()
    elif kind == "again":
        await requests.play_again()
    elif kind == "bot":
        await requests.fill_with_bot(message.get("seat"), message.get("level", "normal"))
    elif kind == "lang":
        lang = message.get("lang")
        if not is_lang(lang):
            raise Refusal("bad_message", f"lang must be one of {', '.join(LANGS)}")
        requests.switch_language(lang)
    elif kind == "state":
        requests.resend()
    elif kind == "react":
        requests.react(message.get("reaction"))
    else:
        raise Refusal("bad_message", f"unknown type {kind[:20]!r}")
