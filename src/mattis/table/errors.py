"""Why a table refuses something, as a stable code: the host chooses how to say it.

A :class:`Refusal` is a domain error. Its status (:data:`STATUS`) is the same for every host
and every refusal: the web server answers it over HTTP with that status, or on a socket as an
``error`` message; the offline app's worker replies with it. Every refusal reaches a client
as one envelope, :func:`error_message`, built here only. The words come from
:mod:`mattis.i18n` in the reader's language and never repeat the client's own text: a
``detail`` names the field in our words.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction, Reason
from ..frontend.explain import explain_illegal
from ..i18n import Lang, t

STATUS: dict[str, int] = {
    "bad_json": 400, "bad_message": 400, "bad_request": 400, "bad_text": 400, "bad_key": 401,
    "bad_token": 403, "not_creator": 403, "spectator": 403, "watching_off": 403,
    "not_found": 404, "slow_body": 408, "damaged": 410, "too_large": 413, "rate_limited": 429,
    "hint_cooldown": 429, "too_many_sockets": 429, "too_many_connections": 429,
    "too_many_tables": 429, "too_many_bot_tables": 429, "too_many_watchers": 429, "headers_too_large": 431,
    "server_error": 500, "busy": 503, "moved": 503, "storage": 503,
}
"""The HTTP-like status of a refusal code, the same for every host (the server's HTTP answers,
the offline app's worker replies); every other code (a full table, a move out of turn, the
engine's reasons for an illegal move …) is 409 Conflict. ``docs/web.md`` lists every code
with its status (a test compares the two)."""

CONFLICT = 409
"""The status of every code not in :data:`STATUS`."""


class Refusal(Exception):
    """A request the table cannot grant: a stable ``code``, a ``detail`` in our words (which
    field, what it must be; never the client's text) and parameters for its text
    (``web.err.<code>``)."""

    def __init__(self, code: str, detail: str = "", **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail
        self.params = params

    @property
    def status(self) -> int:
        """How serious the refusal is, as an HTTP status (:data:`STATUS`)."""
        return STATUS.get(self.code, CONFLICT)

    def message(self, lang: Lang) -> str:
        """The refusal in words, in ``lang`` (anything that could not be sent as UTF-8 made
        harmless)."""
        text = t(f"web.err.{self.code}", lang, detail=self.detail, **self.params)
        return text.encode("utf-8", "replace").decode("utf-8")


class IllegalMove(Refusal):
    """A move the engine refused: the code is the engine's reason, the text its explanation
    (a text that is no move at all is not repeated back)."""

    def __init__(self, error: IllegalAction) -> None:
        super().__init__(error.reason.value)
        self.error = error

    def message(self, lang: Lang) -> str:
        """The engine's reason, translated."""
        if self.error.reason is Reason.MALFORMED:
            return t("web.err.malformed", lang)
        return t("play.err.illegal", lang, reason=explain_illegal(self.error, lang))


def error_message(error: Refusal, lang: Lang) -> dict[str, Any]:
    """The one envelope of every refusal, over HTTP, on a socket and from the offline app's
    worker: ``{"type": "error", "code", "message"}``."""
    return {"type": "error", "code": error.code, "message": error.message(lang)}
