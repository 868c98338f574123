"""Determinization: one full position consistent with everything a seat has seen.

The hidden cards (other players' unknown hand cards, the stock, the reserved trump card,
removed cards) are exchangeable from the seat's point of view: nothing it saw tells which
unseen card lies where, except the known facts tracked by :class:`PlayerView` (cards picked
up, taken back, won, the revealed trump card). So a uniform shuffle of the unseen cards into
the hidden places is a correct sample.
"""

from __future__ import annotations

import random

from ..core.cards import cards_in
from ..core.game import Game
from ..core.position import Position
from ..core.rules import TrumpMode
from .view import PlayerView


def sample_position(view: PlayerView, rng: random.Random) -> Position:
    """A random full position consistent with ``view``."""
    unseen = list(cards_in(view.unseen))
    rng.shuffle(unseen)
    players = view.players
    hands = list(view.known_hands)
    for seat in range(players):
        if seat == view.seat:
            continue
        missing = view.hand_sizes[seat] - hands[seat].bit_count()
        if missing:
            for card in unseen[:missing]:
                hands[seat] |= 1 << card
            del unseen[:missing]
    phase1 = view.phase == "collect"
    bottom_known = phase1 and view.rules.trump is TrumpMode.BOTTOM_UP and view.last_drawer < 0
    hidden_stock = view.stock_size - (1 if bottom_known and view.stock_size else 0)
    stock = unseen[:hidden_stock]
    del unseen[:hidden_stock]
    if bottom_known and view.stock_size:
        stock.append(view.trump_card)
    trump_card = view.trump_card
    if phase1 and view.rules.trump is TrumpMode.HIDDEN_LAST:
        if view.trump_holder >= 0:
            trump_card = unseen.pop()  # the reserved card, put aside unseen
        elif stock:
            trump_card = stock[-1]
    removed = 0
    if len(unseen) != view.removed_count:
        raise ValueError(
            f"inconsistent view: {len(unseen)} unseen cards left for {view.removed_count} removed"
        )
    for card in unseen:
        removed |= 1 << card
    raw = view.raw
    return Position(
        rules=view.rules,
        players=players,
        dealer=int(raw["dealer"]),
        phase=view.phase,
        to_move=view.to_move if view.to_move is not None else -1,
        leader=view.leader,
        hands=tuple(hands),
        won=view.known_won if phase1 else (0,) * players,
        stock=tuple(stock),
        trump_card=trump_card,
        trump_suit=trump_card // 13 if trump_card >= 0 else view.trump_suit,
        trump_known=view.trump_suit >= 0,
        trump_holder=view.trump_holder,
        last_drawer=view.last_drawer,
        trick=view.trick,
        due=view.due,
        current_round=view.current_round,
        tie=view.tie,
        table=tuple((seat, play.index) for seat, play in view.table),
        trick_size=view.trick_size,
        out=view.out,
        out_order=tuple(raw["out_order"]),
        losers=tuple(raw["losers"]),
        removed=removed,
        discard=view.gone,
    )


def sample_game(view: PlayerView, rng: random.Random) -> Game:
    """A game continuing from a random position consistent with ``view``."""
    return Game.from_position(sample_position(view, rng))
