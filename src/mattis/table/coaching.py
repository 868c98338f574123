"""A coach at a player's shoulder, with the player's consent: what is stored, and the few
facts every host shares.

A seated person asks for a coach link (``{"type": "coach_link"}``); its secret, like a seat
token, is stored only hashed (the seat's ``coach``, :class:`~.seats.Seat`), so the link
survives a restart and a handover to another server, and a new link replaces the old one.
Whoever opens the link gets a connection that sees that seat's view and does not play it
(:class:`~.host.Connection` with ``plays=False`` and ``coach=True``): it never makes the
person present, never takes the seat back from a stand-in, and may not move, deal, take
back, ask for a hint or react. It may suggest a legal move, which the person's page shows
until the game moves on. The person ends it at once with ``{"type": "coach_revoke"}``.

Every seat sees who is being coached (the seat's ``coached``), and a game is marked: a
coach's presence is stored as one more action of the game, the marker ``coach:N`` (seat
N), written with the first move made while a coach of that seat is connected, as a takeback
is stored as ``undo:N`` (:mod:`.takeback`). So every store keeps appending, a restored table
knows it, and the game's record lists the seats in ``coached``, and the ledger marks it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.actions import Action
from ..frontend.cards import action_label
from ..i18n import Lang, t

COACH_PREFIX = "coach:"
"""The stored action that marks a game as coached for a seat: ``coach:N``."""
MAX_COACH_CONNECTIONS = 3
"""Most connections open at once with one seat's coach link (a coach on a phone and a
laptop, a tab reopened); one more is refused ``too_many_sockets``."""


def coach_marker(seat: int) -> str:
    """The stored action saying a coach of ``seat`` watched this game."""
    return f"{COACH_PREFIX}{seat}"


def split_coach_marks(stored: Sequence[str]) -> tuple[list[str], list[int]]:
    """A game's stored actions without the coach markers, and the seats they mark (each
    once, in seat order). A marker that names no seat raises ``ValueError`` (a damaged row:
    the host sets the table aside)."""
    kept: list[str] = []
    coached: set[int] = set()
    for number, text in enumerate(stored):
        if not text.startswith(COACH_PREFIX):
            kept.append(text)
            continue
        seat = text[len(COACH_PREFIX):]
        if not seat.isdigit() or len(seat) > 2:
            raise ValueError(f"stored action {number}: a coach marker must name a seat")
        coached.add(int(seat))
    return kept, sorted(coached)


def coach_url(prefix: str, table_id: str, token: str) -> str:
    """Where a coach opens the table: its page, with the link's secret (the invite with ``?coach=…``)."""
    return f"{prefix}{table_id}?coach={token}"


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A move a coach suggested, for the point of the game it was made at: it holds until
    the game moves on (a move, a takeback, a new game)."""

    point: tuple[int, int, int]
    """The game's number, its moves and its takebacks when the coach suggested it."""
    action: Action

    def message_part(self, lang: Lang) -> dict[str, Any]:
        """The state's ``coach.suggestion``: the move's text and the line the page shows."""
        return {"action": str(self.action),
                "text": t("web.coach.suggests", lang, move=action_label(self.action, lang))}
