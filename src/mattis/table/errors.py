"""Why a table refuses something, as a stable code: the host chooses how to say it.

A :class:`Refusal` is a domain error. The web server maps its code to an HTTP status or a
socket ``error`` message (:data:`mattis.web` does), the offline app to a message from its
worker; the words come from :mod:`mattis.i18n` in the reader's language.
"""

from __future__ import annotations

from ..core.errors import IllegalAction
from ..frontend.explain import explain_illegal
from ..i18n import Lang, t

STATUS: dict[str, int] = {
    "bad_json": 400, "bad_message": 400, "bad_request": 400, "bad_text": 400, "not_found": 404,
    "slow_body": 408, "damaged": 410, "too_large": 413, "rate_limited": 429, "hint_cooldown": 429,
    "too_many_sockets": 429, "too_many_tables": 429, "too_many_bot_tables": 429, "storage": 503,
    "moved": 503, "busy": 503, "server_error": 500,
}
"""The HTTP-like status of a refusal code, the same for every host (the server's HTTP answers,
the offline app's worker replies); every other code (a full table, a move out of turn, the
engine's reasons for an illegal move …) is 409 Conflict."""


class Refusal(Exception):
    """A request the table cannot grant: a stable ``code``, a ``detail`` and parameters for
    its text (``web.err.<code>``)."""

    def __init__(self, code: str, detail: str = "", **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail
        self.params = params

    @property
    def status(self) -> int:
        """How serious the refusal is, as an HTTP status (:data:`STATUS`)."""
        return STATUS.get(self.code, 409)

    def message(self, lang: Lang) -> str:
        """The refusal in words, in ``lang`` (anything that could not be sent as UTF-8, such as
        a lone surrogate in a detail, made harmless)."""
        text = t(f"web.err.{self.code}", lang, detail=self.detail, **self.params)
        return text.encode("utf-8", "replace").decode("utf-8")


class IllegalMove(Refusal):
    """A move the engine refused: the code is the engine's reason, the text its explanation."""

    def __init__(self, error: IllegalAction) -> None:
        super().__init__(error.reason.value)
        self.error = error

    def message(self, lang: Lang) -> str:
        """The engine's reason, translated."""
        return t("play.err.illegal", lang, reason=explain_illegal(self.error, lang))
