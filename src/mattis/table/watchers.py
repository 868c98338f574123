"""Spectators: people who watch a table without a seat (a grandparent, a friend who came late).

A spectator opens the table with its watch link (the table page with ``?watch=TOKEN``; the socket is
``/ws/tables/{ID}?watch=TOKEN``). The link has a secret of its own, made at random when the
table is made and never from a seat's token, so a spectator can never become a player and a
player's link is never guessed from it. A spectator's connection sees the seatless view
(:func:`mattis.core.observation.public_view`): every public fact, no hand, no legal move, no
hint; it may send reactions (each spectator as often as a seat may) and nothing else.

:class:`Watchers` is what a table keeps about them: the secret, whether the seated players
let people watch (a table setting, stored with the match), how many are watching now, and
when each spectator last reacted. The master (:mod:`.master`) counts connections in and out
through it; the session (:mod:`.session`) stores it and tells every seat the count.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from .errors import Refusal
from .page import TABLE_PAGE

MAX_WATCHERS = 32
"""Most spectators one table has at once; the next is refused ``too_many_watchers``."""


def new_watch_token() -> str:
    """A fresh watch secret: 192 random bits, drawn on their own (never from a seat's token)."""
    return secrets.token_urlsafe(24)


@dataclass(slots=True)
class Watchers:
    """A table's spectators: the watch secret, whether watching is allowed, how many watch."""

    token: str = field(repr=False)
    """The watch link's secret. Kept as it is, as the table's own secret is, because a seated
    player may ask for the link again (``GET /api/tables/{ID}``); seat tokens are kept only
    hashed because nobody is ever given one twice."""
    allowed: bool = True
    """Whether the seated players let people watch (``{"type": "watching", "allowed"}``)."""
    count: int = 0
    """Spectators connected now."""
    reacted_at: dict[object, float] = field(default_factory=dict)
    """When each connected spectator (by its connection) last sent a reaction."""

    @classmethod
    def fresh(cls) -> Watchers:
        """Those of a new table: a new secret, watching allowed, nobody watching."""
        return cls(new_watch_token())

    @classmethod
    def from_stored(cls, match: dict[str, Any]) -> tuple[Watchers, bool]:
        """Those of a stored table (its ``match`` part), and whether they are new: a table
        stored before spectators existed gets a secret now (store it with the next change)."""
        token, allowed = match.get("watch"), match.get("watching", True)
        if not isinstance(allowed, bool):
            raise ValueError("stored match: watching must be true or false")
        if isinstance(token, str) and len(token) >= 32:
            return cls(token, allowed), False
        return cls(new_watch_token(), allowed), True

    def stored(self) -> dict[str, Any]:
        """What is stored with the match: the secret and the setting (not who watches now)."""
        return {"watch": self.token, "watching": self.allowed}

    def admits(self, token: str) -> bool:
        """Whether ``token`` is the watch secret (compared in constant time)."""
        return secrets.compare_digest(token.encode(), self.token.encode())

    def path(self, table_id: str) -> str:
        """The watch link's path on the server: the table's page (:data:`.page.TABLE_PAGE`)
        with ``?watch=TOKEN``."""
        return self.link(TABLE_PAGE, table_id) or ""

    def link(self, prefix: str | None, table_id: str) -> str | None:
        """The watch link with the table page at ``prefix`` (``PREFIX{ID}?watch=TOKEN``), or
        ``None`` on a host with no links (the offline app and the terminal invite nobody)."""
        return None if prefix is None else f"{prefix}{table_id}?watch={self.token}"

    def check_room(self) -> None:
        """Refuse one more spectator: ``watching_off`` when the players turned watching off,
        ``too_many_watchers`` when :data:`MAX_WATCHERS` watch already."""
        if not self.allowed:
            raise Refusal("watching_off")
        if self.count >= MAX_WATCHERS:
            raise Refusal("too_many_watchers", limit=MAX_WATCHERS)

    def joined(self) -> None:
        """A spectator's connection opened."""
        self.count += 1

    def left(self, connection: object) -> None:
        """A spectator's connection closed."""
        self.count = max(0, self.count - 1)
        self.reacted_at.pop(connection, None)

    def message(self) -> dict[str, Any]:
        """The ``watchers`` message every connection is sent when the count or the setting
        changes (the state's ``table.watchers`` and ``table.watching`` say the same)."""
        return {"type": "watchers", "count": self.count, "allowed": self.allowed}
