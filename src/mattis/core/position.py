"""A complete game state as one frozen value, hidden cards included.

:meth:`Game.position` exports it and :meth:`Game.from_position` continues a game from it.
Searching bots never see a real game's position: they build their own from their view and
cards they sample, then search on the game it gives.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import ALL_ACTIONS
from .cards import FULL_DECK_MASK, NUM_CARDS
from .rules import Rules

PHASES = ("collect", "shed", "over")


@dataclass(frozen=True, kw_only=True, slots=True)
class Position:
    """Every field the engine needs to continue a game. Card sets are 52-bit masks and
    cards are integers (see :mod:`mattis.core.cards`)."""

    rules: Rules
    players: int
    dealer: int
    phase: str
    to_move: int
    leader: int
    hands: tuple[int, ...]
    won: tuple[int, ...]
    stock: tuple[int, ...]
    """The stock, top first (its last card is the reserved or face-up trump card)."""
    trump_card: int
    """The trump card (-1 when a puzzle only names the suit)."""
    trump_suit: int
    trump_known: bool
    trump_holder: int
    """Who put the hidden trump card aside (-1: nobody yet)."""
    last_drawer: int
    """Who drew the stock's last card with ``bottom_up`` (-1: nobody yet)."""
    trick: tuple[tuple[int, int], ...] = ()
    due: tuple[int, ...] = ()
    current_round: tuple[tuple[int, int], ...] = ()
    tie: tuple[int, ...] = ()
    table: tuple[tuple[int, int], ...] = ()
    """Phase-2 plays as ``(seat, action index)``, oldest first."""
    trick_size: int = 0
    out: tuple[bool, ...] = ()
    out_order: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    lost_on_empty: bool = False
    removed: int = 0
    discard: int = 0

    def check(self) -> None:
        """Raise ``ValueError`` unless every card is in exactly one place and seats are sane."""
        if self.phase not in PHASES:
            raise ValueError(f"phase: expected one of {', '.join(PHASES)}, got {self.phase!r}")
        n = self.players
        if not (len(self.hands) == len(self.won) == len(self.out) == n):
            raise ValueError("hands, won and out need one entry per player")
        if self.phase != "over" and not 0 <= self.to_move < n:
            raise ValueError(f"to_move: must be a seat from 0 to {n - 1}, got {self.to_move}")
        places = [*self.hands, *self.won, self.removed, self.discard]
        places += [1 << card for card in self.stock]
        places += [1 << card for _, card in self.trick]
        places += [ALL_ACTIONS[index].mask for _, index in self.table]
        if self.trump_holder >= 0 and self.phase == "collect":
            places.append(1 << self.trump_card)
        seen = 0
        for mask in places:
            if seen & mask:
                raise ValueError("position: a card is in two places")
            seen |= mask
        if seen != FULL_DECK_MASK:
            missing = NUM_CARDS - seen.bit_count()
            raise ValueError(f"position: {missing} cards are nowhere")
