"""Public events: what everyone at the table saw happen, as small immutable records.

The game keeps its history internally as plain ``(kind, seat, card mask)`` tuples, which
cost nothing to create in the hot path, and hands out :class:`Event` values when asked
(:attr:`Game.history`, :meth:`Game.events_since`, the ``history`` of a view). An event
carries card faces only when those cards were face up at that moment (rules section 5).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import CARD_CODES, cards_in, mask_of, parse_card


class EventKind(StrEnum):
    """What happened. The values are the ``"event"`` strings of a view's history."""

    PLAY = "play"
    """A card or sequence was played face up (phase 1 or 2)."""
    CHANCE = "chance"
    """The top of the stock was turned and played (P1.4, *sjansing*)."""
    PICKUP = "pickup"
    """The oldest play on the table went back into this seat's hand (P2.4)."""
    WON = "won"
    """A phase-1 trick went to this seat's won pile; the cards are the trick's, which
    everyone had just seen face up (P1.1)."""
    ASIDE = "aside"
    """This seat put the hidden trump card aside unseen (P1.6 ``hidden_last``)."""
    DROP = "drop"
    """A tied player with nothing to play left the tie (P1.7b)."""
    BACK = "back"
    """An unfinished trick was taken back by those who played it (P1.8); no seat."""
    REVEAL = "reveal"
    """The trump card was turned (P1.9); the seat holds it, or none if nobody does."""
    DRAW_TRUMP = "draw_trump"
    """This seat drew the face-up bottom card (P1.6 ``bottom_up``)."""
    SHED = "shed"
    """Phase 2 began; this seat leads (P2.1)."""
    CLEAR = "clear"
    """A complete phase-2 trick left the game; the seat completed it (P2.6)."""
    OUT = "out"
    """This seat went out (P2.8)."""
    LOSE = "lose"
    """This seat lost: Mattis, or nothing left after phase 1 (P1.10, P2.9)."""


RawEvent = tuple[EventKind, int, int]
"""The engine's internal form: kind, seat (-1 for none) and card mask."""


@dataclass(frozen=True, slots=True)
class Event:
    """One public event."""

    kind: EventKind
    seat: int | None
    """The seat it concerns, or ``None`` (a trick taken back; a trump card nobody holds)."""
    cards: tuple[str, ...] = ()
    """The card codes shown, sorted (empty when no card was shown)."""

    @property
    def mask(self) -> int:
        """The cards as a 52-bit mask (see :mod:`mattis.core.cards`)."""
        return mask_of(parse_card(code) for code in self.cards)

    @staticmethod
    def from_raw(raw: RawEvent) -> Event:
        """The public form of an internal event."""
        kind, seat, mask = raw
        return Event(kind, None if seat < 0 else seat, tuple(CARD_CODES[c] for c in cards_in(mask)))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used in views: ``{"event", "seat", "cards"}``."""
        return {"event": self.kind.value, "seat": self.seat, "cards": list(self.cards)}

    @staticmethod
    def from_dict(data: Any) -> Event:
        """Read the JSON form back; ``ValueError`` names what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"event: expected an object, got {type(data).__name__}")
        try:
            kind = EventKind(str(data.get("event")))
        except ValueError:
            raise ValueError(f"event: unknown kind {data.get('event')!r}") from None
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
            raise ValueError(f"event: seat must be a seat number or null, got {seat!r}")
        cards = data.get("cards", [])
        if not isinstance(cards, list) or not all(isinstance(code, str) for code in cards):
            raise ValueError("event: cards must be a list of card codes")
        return Event(kind, seat, tuple(CARD_CODES[parse_card(code)] for code in cards))


def raw_to_json(raw: RawEvent) -> dict[str, Any]:
    """The JSON form of an internal event, without building an :class:`Event` first."""
    kind, seat, mask = raw
    return {"event": kind.value, "seat": None if seat < 0 else seat,
            "cards": [CARD_CODES[card] for card in cards_in(mask)]}
