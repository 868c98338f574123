"""Public events: what everyone at the table saw happen, as small immutable records.

The game keeps its history internally as plain ``(kind, seat, card mask)`` values, which
cost nothing to create in the hot path, and hands out :class:`Event` values when asked
(:attr:`Game.history`, :meth:`Game.events_since`, the ``history`` of a view). An event
carries card faces only when those cards were face up at that moment (rules section 5).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, overload

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

RawEvents = tuple[EventKind, int, int, Any] | None
"""The engine's event list: a linked list of ``(kind, seat, mask, earlier events)`` cells,
newest first, which a game extends by one cell per event (one tuple: the event and the link
together) and shares unchanged with its copies."""


def raw_event(cell: tuple[EventKind, int, int, Any]) -> RawEvent:
    """The event of a cell of :data:`RawEvents`."""
    return (cell[0], cell[1], cell[2])


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


_WALK_AT_MOST = 16
"""How far back from the newest event :class:`EventHistory` fetches an item by walking the
list; further back, it lays the list out once."""


class EventHistory(Sequence[Event]):
    """A game's public events up to one moment, oldest first, as a read-only sequence.

    It reads the engine's own event list, which never changes once made, so taking it
    costs nothing, ``len()`` is a stored count, and an event becomes an :class:`Event` only
    when it is read. The latest events are found by walking back from the newest; reading
    further back lays the list out once for this history.
    """

    __slots__ = ("_cell", "_count", "_raw")

    def __init__(self, cell: RawEvents, count: int) -> None:
        self._cell = cell
        self._count = count
        self._raw: list[RawEvent] | None = None

    def later(self, cell: RawEvents) -> EventHistory:
        """The history at ``cell``, a later state of the same list: counting only the events
        added since, so asking after every move costs the new events only."""
        if cell is self._cell:
            return self
        count = self._count
        mark = self._cell
        walk = cell
        while walk is not mark:
            assert walk is not None, "a later event list always ends in an earlier one"
            count += 1
            walk = walk[3]
        return EventHistory(cell, count)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [Event.from_raw(raw) for raw in self._laid_out()[index]]
        count = self._count
        position = index + count if index < 0 else index
        if not 0 <= position < count:
            raise IndexError("history index out of range")
        back = count - 1 - position
        if self._raw is None and back < _WALK_AT_MOST:
            cell = self._cell
            for _ in range(back):
                assert cell is not None
                cell = cell[3]
            assert cell is not None
            return Event.from_raw(raw_event(cell))
        return Event.from_raw(self._laid_out()[position])

    def __iter__(self) -> Iterator[Event]:
        for raw in self._laid_out():
            yield Event.from_raw(raw)

    def __reversed__(self) -> Iterator[Event]:
        cell = self._cell
        while cell is not None:
            yield Event.from_raw(raw_event(cell))
            cell = cell[3]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventHistory):
            return self._count == other._count and (
                self._cell is other._cell or self._laid_out() == other._laid_out())
        if isinstance(other, (list, tuple)):
            return len(other) == self._count and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EventHistory({list(self)!r})"

    def raw(self) -> list[RawEvent]:
        """The events in the engine's internal form, oldest first (a new list)."""
        return list(self._laid_out())

    def _laid_out(self) -> list[RawEvent]:
        raw = self._raw
        if raw is None:
            raw = []
            cell = self._cell
            while cell is not None:
                raw.append(raw_event(cell))
                cell = cell[3]
            raw.reverse()
            self._raw = raw
        return raw


def raw_to_json(raw: RawEvent) -> dict[str, Any]:
    """The JSON form of an internal event, without building an :class:`Event` first."""
    kind, seat, mask = raw
    return {"event": kind.value, "seat": None if seat < 0 else seat,
            "cards": [CARD_CODES[card] for card in cards_in(mask)]}
