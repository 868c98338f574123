"""What a bot knows: a typed, card-mask form of one seat's view, and nothing else.

:class:`PlayerView` is built from the JSON dict of ``Game.view(seat)`` alone (read once by
:class:`~mattis.core.observation.SeatView`), so an agent holding one cannot reach the game.
It also tracks cards the way an attentive player does from the public history: cards each
player is known to hold (picked up, taken back, the revealed trump card, won piles that
joined the hand), and the cards still unseen. That memory is a :class:`CardTracker`, fed
only the events it has not seen yet, so following a game costs time in proportion to its
length, however long it runs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.actions import Action
from ..core.cards import FULL_DECK_MASK, SUIT_MASKS
from ..core.events import Event, EventKind
from ..core.observation import SeatView
from ..core.rules import Rules

RECENT_EVENTS = 240
"""How many of the latest events a view keeps for spotting repeated play (see
:func:`mattis.bots.heuristics.is_looping`)."""

RecentEvent = tuple[EventKind, int | None, int]
"""An event as ``(kind, seat, card mask)``: cheap to compare when looking for loops."""


class CardTracker:
    """One seat's memory of the public events, as a player with a perfect memory keeps it.

    Feed it the events in order (:meth:`feed`); it remembers how many it has seen, so the
    next view can be asked for with ``since=tracker.count``.
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
        self.recent: deque[RecentEvent] = deque(maxlen=RECENT_EVENTS)
        self.log: list[Event] = []
        """Every event fed, oldest first (only ever appended to)."""
        self._trick_owner: dict[int, int] = {}
        self._table: list[int] = []  # phase-2 plays on the table, as masks, oldest first
        self._phase1 = True

    def feed(self, events: Iterable[Event]) -> None:
        """Follow ``events``, the next ones after those already fed."""
        rules = self.rules
        for event in events:
            kind, seat, mask = event.kind, event.seat, event.mask
            self.count += 1
            self.log.append(event)
            self.recent.append((kind, seat, mask))
            if kind is EventKind.PLAY or kind is EventKind.CHANCE:
                assert seat is not None
                self.known_hands[seat] &= ~mask
                self.played_by[seat] |= mask
                if self._phase1:
                    for card in _cards(mask):
                        self._trick_owner[card] = seat
                else:
                    if self._table and rules.follow_suit:
                        self.excluded[seat] |= _void_shown(self._table[-1], mask, self.trump_suit)
                    self._table.append(mask)
            elif kind is EventKind.WON:
                assert seat is not None
                self.known_won[seat] |= mask
                self._trick_owner.clear()
            elif kind is EventKind.BACK:  # P1.8: each card goes back to whoever played it
                for card in _cards(mask):
                    owner = self._trick_owner.get(card)
                    if owner is not None:
                        self.known_hands[owner] |= 1 << card
                self._trick_owner.clear()
            elif kind is EventKind.REVEAL:
                if seat is not None:
                    self.known_hands[seat] |= mask
                if mask:
                    self.trump_suit = (mask.bit_length() - 1) // 13
            elif kind is EventKind.SHED:  # P1.9: won piles join the hands
                self._phase1 = False
                self._table = []
                for s in range(self.players):
                    self.known_hands[s] |= self.known_won[s]
                    self.known_won[s] = 0
            elif kind is EventKind.DRAW_TRUMP:
                assert seat is not None
                self.known_hands[seat] |= mask
            elif kind is EventKind.PICKUP:
                assert seat is not None
                if self._table and not rules.voluntary_pickup:
                    self.excluded[seat] |= _beaters(self._table[-1], self.trump_suit,
                                                    rules.follow_suit, self.excluded[seat])
                if self._table:
                    del self._table[0]
                self.known_hands[seat] |= mask
            elif kind is EventKind.CLEAR:
                self.gone |= mask
                self._table = []


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge at one moment. Card sets are 52-bit masks; whatever the seat
    does not know is ``None``."""

    seat: int
    players: int
    rules: Rules
    phase: str
    to_move: int | None
    leader: int
    dealer: int | None
    hand: int
    hand_sizes: tuple[int, ...]
    won_sizes: tuple[int, ...]
    stock_size: int
    removed_count: int
    trump_suit: int | None
    trump_card: int | None
    """The trump card once its face is public."""
    trump_holder: int | None
    last_drawer: int | None
    trick: tuple[tuple[int, int], ...]
    """Phase 1: the current trick's cards ``(seat, card)`` in play order."""
    table: tuple[tuple[int, Action], ...]
    """Phase 2: the plays on the table, oldest first."""
    tie: tuple[int, ...]
    due: tuple[int, ...]
    current_round: tuple[tuple[int, int], ...]
    trick_size: int
    out: tuple[bool, ...]
    out_order: tuple[int, ...]
    losers: tuple[int, ...]
    history: tuple[RecentEvent, ...]
    """The latest events (at most :data:`RECENT_EVENTS`), as ``(kind, seat, mask)``."""
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
    raw: Mapping[str, Any]
    """The view dict this was read from (its history may start later than the game's)."""
    event_log: list[Event]
    """The tracker's log of public events; only its first :attr:`event_count` belong to
    this moment (see :meth:`public_events`)."""
    event_count: int

    @staticmethod
    def from_dict(view: Mapping[str, Any], tracker: CardTracker | None = None) -> PlayerView:
        """Build from ``Game.view(seat)`` (or its JSON round trip). Without a ``tracker`` the
        view must hold the whole history; with one, the view's history must start where the
        tracker stopped (``since=tracker.count``), and the tracker is fed the new events."""
        public = SeatView.from_dict(view)
        if tracker is None:
            tracker = CardTracker(public.players, public.rules)
        if public.history_start != tracker.count:
            raise ValueError(f"view: history starts at event {public.history_start}, but "
                             f"{tracker.count} events were followed so far")
        if tracker.trump_suit is None:  # a puzzle's trump is known without a reveal
            tracker.trump_suit = public.trump_suit
        tracker.feed(public.history)
        known_hands = list(tracker.known_hands)
        known_hands[public.seat] = public.hand
        return PlayerView(
            seat=public.seat,
            players=public.players,
            rules=public.rules,
            phase=public.phase,
            to_move=public.to_move,
            leader=public.leader,
            dealer=public.dealer,
            hand=public.hand,
            hand_sizes=public.hand_sizes,
            won_sizes=public.won_sizes,
            stock_size=public.stock_size,
            removed_count=public.removed_count,
            trump_suit=public.trump_suit,
            trump_card=public.trump_card,
            trump_holder=public.trump_holder,
            last_drawer=public.last_drawer,
            trick=public.trick,
            table=public.plays,
            tie=public.tie,
            due=public.due,
            current_round=public.current_round,
            trick_size=public.trick_size or 0,
            out=tuple(s in public.out for s in range(public.players)),
            out_order=public.out_order,
            losers=public.losers,
            history=tuple(tracker.recent),
            known_hands=tuple(known_hands),
            known_won=tuple(tracker.known_won),
            gone=tracker.gone,
            played_by=tuple(tracker.played_by),
            excluded=tuple(tracker.excluded),
            raw=view,
            event_log=tracker.log,
            event_count=tracker.count,
        )

    def public_events(self) -> tuple[Event, ...]:
        """Every public event of the game up to this moment, oldest first."""
        return tuple(self.event_log[:self.event_count])

    @property
    def in_play(self) -> int:
        """Cards face up right now (phase-1 trick or phase-2 table)."""
        mask = 0
        for _, card in self.trick:
            mask |= 1 << card
        for _, play in self.table:
            mask |= play.mask
        return mask

    @property
    def unseen(self) -> int:
        """Cards whose place this seat cannot know: other hands' hidden parts, the stock,
        the reserved trump card and removed cards."""
        known = self.in_play | self.gone
        for mask in self.known_hands:
            known |= mask
        for mask in self.known_won:
            known |= mask
        if self.trump_card is not None and self.phase == "collect":
            known |= 1 << self.trump_card  # face-up bottom card still in the stock
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
