"""A connection's messages (the socket protocol of ``docs/web.md``), read and acted on once for
every host.

The web server gets a connection's text over a WebSocket, the offline app's worker over
``postMessage``; both hand it to :meth:`~.master.TableMaster.receive`, which reads it with
:func:`read_seat_message` (checked as the protocol says, refused with its codes) and acts on
it with :func:`dispatch`. So a message means the same thing everywhere, and a new kind of
message is added here and in :class:`SeatRequests`' one implementation, the master.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from ..i18n import LANGS, Lang, is_lang
from .errors import Refusal, error_message
from .host import Connection

MAX_SEAT_MESSAGE = 4096
"""Largest message from a connection, in characters: a move, a hint request or a reaction is
a few dozen."""

CLOSE_REFUSED = 1008
"""Socket close code after ``bad_token``: the seat is not this client's (the page forgets
the token)."""
CLOSE_TRY_LATER = 1013
"""Socket close code for "open this socket again in a moment": over a cap, or the table
moved to another server (the page reconnects, with back-off)."""
CLOSE_DAMAGED = 4410
"""Socket close code for a table set aside as damaged (the page stops reconnecting)."""
CLOSE_AFTER: dict[str, int] = {"bad_token": CLOSE_REFUSED, "damaged": CLOSE_DAMAGED,
                               "moved": CLOSE_TRY_LATER, "busy": CLOSE_TRY_LATER,
                               "too_many_sockets": CLOSE_TRY_LATER,
                               "watching_off": CLOSE_REFUSED, "too_many_watchers": CLOSE_TRY_LATER}
"""The close code that follows the one ``error`` a connection refused at opening gets."""


def refused_opening(error: Refusal, lang: Lang) -> tuple[dict[str, Any], int | None]:
    """What a connection refused at opening gets, on every host: one ``error`` (a table that
    does not exist is a wrong token, so nobody learns which tables exist) and the close code
    that follows it (``None``: the host may leave it open)."""
    if error.code == "not_found":
        error = Refusal("bad_token")
    return error_message(error, lang), CLOSE_AFTER.get(error.code)


class SeatRequests(Protocol):
    """What a connection may ask of its table (each may raise :class:`Refusal`)."""

    async def act(self, connection: Connection[Any], action: str) -> None:
        """Play ``action`` (a move's text, such as ``7h``) for the connection's seat."""
        ...

    async def hint(self, connection: Connection[Any]) -> None:
        """Start working out a hint for the seat; it is sent when it is ready."""
        ...

    async def play_again(self, connection: Connection[Any]) -> None:
        """Deal the next game once this one is over."""
        ...

    async def fill_with_bot(self, connection: Connection[Any], seat: object, level: object) -> None:
        """Put a bot of ``level`` in the open seat ``seat`` (both checked by the session)."""
        ...

    def switch_language(self, connection: Connection[Any], lang: Lang) -> None:
        """Speak ``lang`` on this connection from now on, and send the state in it."""
        ...

    def resend(self, connection: Connection[Any]) -> None:
        """Send this connection its state again."""
        ...

    def react(self, connection: Connection[Any], reaction: object) -> None:
        """Pass a quick reaction to the whole table (checked by the session)."""
        ...

    def away(self, connection: Connection[Any]) -> None:
        """The page is not looked at (its tab is hidden): the person is away."""
        ...

    def back(self, connection: Connection[Any]) -> None:
        """The page is looked at again: the person is back."""
        ...

    async def undo(self, connection: Connection[Any]) -> None:
        """Take back the seat's last move and the robots' replies since (checked by the
        session)."""
        ...

    async def coach_link(self, connection: Connection[Any]) -> None:
        """Answer with a new coach link for the seat (the last one ends)."""
        ...

    async def coach_revoke(self, connection: Connection[Any]) -> None:
        """End the seat's coaching: its link stops working and its coach is let go."""
        ...

    def suggest(self, connection: Connection[Any], action: str) -> None:
        """A coach suggests ``action`` to the person it coaches (checked by the session)."""
        ...

    async def set_watching(self, connection: Connection[Any], allowed: object) -> None:
        """Let people watch the table, or no longer (a seated player only; :mod:`.watchers`)."""
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
    """One message from a connection as an object with a ``type``, or the protocol's refusal."""
    if not isinstance(text, str):
        raise Refusal("bad_message", "send text frames")
    if len(text) > limit:
        raise Refusal("too_large", limit=limit)
    message = parse_json(text)
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Refusal("bad_message", "expected an object with a type")
    return message


async def dispatch(requests: SeatRequests, connection: Connection[Any], message: dict[str, Any]) -> None:
    """Do what one message (from :func:`read_seat_message`) of ``connection`` asks."""
    kind = message["type"]
    if kind == "act":
        action = message.get("action")
        if not isinstance(action, str) or not 0 < len(action) <= 16:
            raise Refusal("bad_message", "act needs an action such as 7h")
        await requests.act(connection, action)
    elif kind == "hint":
        await requests.hint(connection)
    elif kind == "again":
        await requests.play_again(connection)
    elif kind == "bot":
        await requests.fill_with_bot(connection, message.get("seat"), message.get("level", "normal"))
    elif kind == "lang":
        lang = message.get("lang")
        if not is_lang(lang):
            raise Refusal("bad_message", f"lang must be one of {', '.join(LANGS)}")
        requests.switch_language(connection, lang)
    elif kind == "state":
        requests.resend(connection)
    elif kind == "react":
        requests.react(connection, message.get("reaction"))
    elif kind == "away":
        requests.away(connection)
    elif kind == "back":
        requests.back(connection)
    elif kind == "undo":
        await requests.undo(connection)
    elif kind == "coach_link":
        await requests.coach_link(connection)
    elif kind == "coach_revoke":
        await requests.coach_revoke(connection)
    elif kind == "suggest":
        action = message.get("action")
        if not isinstance(action, str) or not 0 < len(action) <= 16:
            raise Refusal("bad_message", "suggest needs an action such as 7h")
        requests.suggest(connection, action)
    elif kind == "watching":
        await requests.set_watching(connection, message.get("allowed"))
    else:
        raise Refusal("bad_message", "unknown message type (see docs/web.md)")
