"""What a bot knows: one seat's view plus its memory of the public events, and nothing else.

A :class:`PlayerView` is a :class:`~mattis.core.observation.SeatView` (``Game.seat_view``,
or a ``Game.view`` dict read back) together with a :class:`CardMemory`, so an agent
holding one cannot reach the game. The memory is what an attentive player keeps from the
public history: cards each player is known to hold (picked up, taken back, the revealed
trump card, won piles that joined the hand), cards seen leaving, and what each player's
play showed it could not hold. A :class:`CardTracker` keeps it, fed only the events it has
not seen yet, so following a game costs time in proportion to its length, however long it
runs; :meth:`CardTracker.snapshot` freezes it for one decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.cards import FULL_DECK_MASK, SUIT_MASKS
from ..core.events import Event, EventKind, RawEvent
from ..core.observation import SeatView
from ..core.phase import Phase
from ..core.rules import Rules

RECENT_EVENTS = 240
"""How many of the latest events a memory keeps for spotting repeated play (see
:func:`mattis.bots.heuristics.is_looping`)."""


_PLAY, _CHANCE, _WON, _BACK = EventKind.PLAY, EventKind.CHANCE, EventKind.WON, EventKind.BACK
_REVEAL, _SHED, _DRAW_TRUMP = EventKind.REVEAL, EventKind.SHED, EventKind.DRAW_TRUMP
_PICKUP, _CLEAR = EventKind.PICKUP, EventKind.CLEAR


@dataclass(frozen=True, slots=True)
class CardMemory:
    """One seat's memory of the public events at one moment (see :class:`CardTracker`)."""

    known_hands: tuple[int, ...]
    """Cards each seat is known to hold (the seat's own entry is its whole hand)."""
    known_won: tuple[int, ...]
    """Phase 1: the cards in each won pile (all were played face up)."""
    gone: int
    """Cards seen leaving the game (cleared phase-2 tricks)."""
    played_by: tuple[int, ...]
    """Cards each seat has been seen to play or chance in this game."""
    excluded: tuple[int, ...]
    """Cards each seat's unknown hand cards cannot be, as shown by its play: a forced
    pick-up (P2.4) shows it held nothing that beats; trumping under ``follow_suit`` (P2.5)
    shows a void. Phase-2 hands only lose unknown cards, so this stays true."""
    log: list[RawEvent]
    """The tracker's log of public events (shared, only ever appended to); only its first
    :attr:`count` belong to this moment (see :attr:`recent` and :meth:`public_events`)."""
    count: int
    """How many events this memory has followed."""

    @property
    def recent(self) -> tuple[RawEvent, ...]:
        """The latest events (at most :data:`RECENT_EVENTS`) as ``(kind, seat, mask)``,
        seat -1 for none: cheap to compare when looking for loops."""
        return tuple(self.log[max(0, self.count - RECENT_EVENTS):self.count])

    def public_events(self) -> tuple[Event, ...]:
        """Every public event of the game up to this moment, oldest first."""
        return tuple(Event.from_raw(raw) for raw in self.log[:self.count])


class CardTracker:
    """One seat's memory of the public events, as a player with a perfect memory keeps it.

    Feed it the events in order (:meth:`feed`, or :meth:`follow` with a view); it
    remembers how many it has seen, so the next view can be asked for with
    ``since=tracker.count``.
    """

    def __init__(self, players: int, rules: Rules) -> None:
        self.players = players
        self.rules = rules
        self.count = 0
        """Events fed so far."""
        self.known_hands = [0] * players
        self.known_won = [0] * players
        self.played_by = [0] * players
        self.excluded = [0] * players
        self.gone = 0
        self.trump_suit: int | None = None
        self.log: list[RawEvent] = []
        """Every event fed, oldest first (only ever appended to)."""
        self._trick_owner: dict[int, int] = {}
        self._table: list[int] = []  # phase-2 plays on the table, as masks, oldest first
        self._phase1 = True

    def follow(self, view: SeatView, first: int = 0) -> None:
        """Feed the events of ``view``, which must start where this tracker stopped
        (``Game.seat_view(seat, since=tracker.count)``). ``first``: how many events the
        tracker was fed before the view's game began (a game resumed from a position)."""
        if view.history_start + first != self.count:
            raise ValueError(f"view: history starts at event {view.history_start}, but "
                             f"{self.count - first} events were followed so far")
        if self.trump_suit is None:  # a puzzle's trump is known without a reveal
            self.trump_suit = view.trump_suit
        self.feed(view.events)

    def feed(self, events: Iterable[RawEvent]) -> None:
        """Follow ``events`` (``(kind, seat, mask)``, seat -1 for none), the next ones after
        those already fed."""
        rules = self.rules
        start = len(self.log)
        self.log.extend(events)
        for kind, seat, mask in self.log[start:]:
            if kind is _PLAY or kind is _CHANCE:
                self.known_hands[seat] &= ~mask
                self.played_by[seat] |= mask
                if self._phase1:
                    for card in _cards(mask):
                        self._trick_owner[card] = seat
                else:
                    if self._table and rules.follow_suit:
                        self.excluded[seat] |= _void_shown(self._table[-1], mask, self.trump_suit)
                    self._table.append(mask)
            elif kind is _WON:
                self.known_won[seat] |= mask
                self._trick_owner.clear()
            elif kind is _BACK:  # P1.8: each card goes back to whoever played it
                for card in _cards(mask):
                    owner = self._trick_owner.get(card)
                    if owner is not None:
                        self.known_hands[owner] |= 1 << card
                self._trick_owner.clear()
            elif kind is _REVEAL:
                if seat >= 0:
                    self.known_hands[seat] |= mask
                if mask:
                    self.trump_suit = (mask.bit_length() - 1) // 13
            elif kind is _SHED:  # P1.9: won piles join the hands
                self._phase1 = False
                self._table = []
                for s in range(self.players):
                    self.known_hands[s] |= self.known_won[s]
                    self.known_won[s] = 0
            elif kind is _DRAW_TRUMP:
                self.known_hands[seat] |= mask
            elif kind is _PICKUP:
                if self._table and not rules.voluntary_pickup:
                    self.excluded[seat] |= _beaters(self._table[-1], self.trump_suit,
                                                    rules.follow_suit, self.excluded[seat])
                if self._table:
                    del self._table[0]
                self.known_hands[seat] |= mask
            elif kind is _CLEAR:
                self.gone |= mask
                self._table = []
        self.count = len(self.log)

    @staticmethod
    def public(memory: CardMemory, players: int, rules: Rules, trump_suit: int | None) -> CardTracker:
        """A tracker of what everyone knows at ``memory``'s moment: its events followed
        again, so that no seat's own hand is in it (:meth:`snapshot` puts one in).
        ``trump_suit``: the view's, known without a reveal in a puzzle."""
        tracker = CardTracker(players, rules)
        tracker.trump_suit = trump_suit
        tracker.feed(memory.log[:memory.count])
        return tracker

    def fork(self) -> CardTracker:
        """A copy that follows events of its own (a searched line of play) while this one
        stays as it is."""
        other = CardTracker(self.players, self.rules)
        other.count = self.count
        other.known_hands = self.known_hands[:]
        other.known_won = self.known_won[:]
        other.played_by = self.played_by[:]
        other.excluded = self.excluded[:]
        other.gone = self.gone
        other.trump_suit = self.trump_suit
        other.log = self.log[:]
        other._trick_owner = dict(self._trick_owner)
        other._table = self._table[:]
        other._phase1 = self._phase1
        return other

    def snapshot(self, seat: int, hand: int) -> CardMemory:
        """The memory as it stands, for ``seat`` holding ``hand`` (its own entry of
        :attr:`CardMemory.known_hands`: private draws change it, so no event tells it)."""
        known_hands = list(self.known_hands)
        known_hands[seat] = hand
        return CardMemory(
            known_hands=tuple(known_hands),
            known_won=tuple(self.known_won),
            gone=self.gone,
            played_by=tuple(self.played_by),
            excluded=tuple(self.excluded),
            log=self.log,
            count=self.count,
        )


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge at one moment: what it sees (:attr:`public`) and what it
    remembers (:attr:`memory`). The properties are the facts that need both."""

    public: SeatView
    memory: CardMemory

    @staticmethod
    def of(public: SeatView, tracker: CardTracker | None = None) -> PlayerView:
        """The view of ``public``. Without a ``tracker`` its history must be the whole
        game's; with one, it must start where the tracker stopped
        (``since=tracker.count``), and the tracker follows the new events."""
        if tracker is None:
            tracker = CardTracker(public.players, public.rules)
        tracker.follow(public)
        return PlayerView(public, tracker.snapshot(public.seat, public.hand))

    @staticmethod
    def from_dict(view: Mapping[str, Any], tracker: CardTracker | None = None) -> PlayerView:
        """:meth:`of` a ``Game.view(seat)`` dict (or its JSON round trip)."""
        return PlayerView.of(SeatView.from_dict(view), tracker)

    @property
    def known_hands(self) -> tuple[int, ...]:
        """Cards each seat is known to hold (the seat's own entry is its whole hand)."""
        return self.memory.known_hands

    def public_events(self) -> tuple[Event, ...]:
        """Every public event of the game up to this moment, oldest first."""
        return self.memory.public_events()

    @property
    def in_play(self) -> int:
        """Cards face up right now (phase-1 trick or phase-2 table)."""
        mask = 0
        for _, card in self.public.trick:
            mask |= 1 << card
        for _, play in self.public.plays:
            mask |= play.mask
        return mask

    @property
    def unseen(self) -> int:
        """Cards whose place this seat cannot know: other hands' hidden parts, the stock,
        the reserved trump card and removed cards."""
        public, memory = self.public, self.memory
        known = self.in_play | memory.gone
        for mask in memory.known_hands:
            known |= mask
        for mask in memory.known_won:
            known |= mask
        if public.trump_card is not None and public.phase == Phase.COLLECT:
            known |= 1 << public.trump_card  # face-up bottom card still in the stock
        return FULL_DECK_MASK & ~known

    @property
    def seen(self) -> int:
        """Cards this seat has seen: everything but :attr:`unseen`."""
        return FULL_DECK_MASK & ~self.unseen


def _suit_above(target: int) -> int:
    """Cards of ``target``'s suit above its highest card."""
    high = target.bit_length() - 1
    return SUIT_MASKS[high // 13] & ~((2 << high) - 1)


def _void_shown(target: int, play: int, trump_suit: int | None) -> int:
    """Under ``follow_suit``, trumping a non-trump play shows a void in its suit."""
    target_suit = (target.bit_length() - 1) // 13
    play_suit = (play.bit_length() - 1) // 13
    if trump_suit is not None and play_suit == trump_suit and target_suit != trump_suit:
        return SUIT_MASKS[target_suit]
    return 0


def _beaters(target: int, trump_suit: int | None, follow_suit: bool, excluded: int) -> int:
    """Cards a player forced to pick up cannot have held: anything that beats ``target``."""
    cannot = _suit_above(target)
    target_suit = (target.bit_length() - 1) // 13
    if trump_suit is not None and target_suit != trump_suit:
        void_in_suit = excluded & SUIT_MASKS[target_suit] == SUIT_MASKS[target_suit]
        if not follow_suit or void_in_suit:
            cannot |= SUIT_MASKS[trump_suit]
    return cannot


def _cards(mask: int) -> list[int]:
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result
