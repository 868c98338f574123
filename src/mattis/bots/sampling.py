"""Determinization: one full position consistent with everything a seat has seen.

The hidden cards (other players' unknown hand cards, the stock, the reserved trump card,
removed cards) are placed at random, subject to every fact the seat knows: cards known to be
in a hand (picked up, taken back, won, the revealed trump card, remembered in
:class:`~mattis.bots.view.CardMemory`), and cards a hand cannot hold because of how its owner
played (a forced pick-up shows nothing could beat, P2.4; trumping under ``follow_suit`` shows
a void, P2.5). Seats with such exclusions choose first among the cards they may hold; the
rest is a uniform shuffle.
"""

from __future__ import annotations

import random

from ..core.cards import cards_in
from ..core.game import Game
from ..core.phase import PHASE_NAMED, Phase
from ..core.position import Position
from ..core.rules import TrumpMode
from .view import PlayerView


def sample_position(view: PlayerView, rng: random.Random) -> Position:
    """A random full position consistent with ``view``."""
    unseen, hands = _deal_hidden_hands(view, rng)
    public = view.public
    players = public.players
    phase1 = public.phase == Phase.COLLECT
    bottom_card = public.trump_card if phase1 and public.rules.trump is TrumpMode.BOTTOM_UP else None
    bottom_known = bottom_card is not None and public.last_drawer is None
    hidden_stock = public.stock_size - (1 if bottom_known and public.stock_size else 0)
    stock = unseen[:hidden_stock]
    del unseen[:hidden_stock]
    if bottom_known and bottom_card is not None and public.stock_size:
        stock.append(bottom_card)
    trump_card = -1 if public.trump_card is None else public.trump_card
    if phase1 and public.rules.trump is TrumpMode.HIDDEN_LAST:
        if public.trump_holder is not None:
            trump_card = unseen.pop()  # the reserved card, put aside unseen
        elif stock:
            trump_card = stock[-1]
    removed = 0
    if len(unseen) != public.removed_count:
        raise ValueError(
            f"inconsistent view: {len(unseen)} unseen cards left for {public.removed_count} removed"
        )
    for card in unseen:
        removed |= 1 << card
    return Position(
        rules=public.rules,
        players=players,
        dealer=-1 if public.dealer is None else public.dealer,
        phase=PHASE_NAMED[public.phase],
        to_move=public.to_move if public.to_move is not None else -1,
        leader=public.leader,
        hands=tuple(hands),
        won=view.memory.known_won if phase1 else (0,) * players,
        stock=tuple(stock),
        trump_card=trump_card,
        trump_suit=trump_card // 13 if trump_card >= 0 else _or_none(public.trump_suit),
        trump_known=public.trump_suit is not None,
        trump_holder=_or_none(public.trump_holder),
        last_drawer=_or_none(public.last_drawer),
        trick=public.trick,
        due=public.due,
        current_round=public.current_round,
        tie=public.tie,
        table=tuple((seat, play.index) for seat, play in public.plays),
        trick_size=public.trick_size or 0,
        out=tuple(seat in public.out for seat in range(players)),
        out_order=public.out_order,
        losers=public.losers,
        removed=removed,
        discard=view.memory.gone,
    )


def _or_none(value: int | None) -> int:
    """The engine's ``-1`` for "nobody" or "not known"."""
    return -1 if value is None else value


def _deal_hidden_hands(view: PlayerView, rng: random.Random) -> tuple[list[int], list[int]]:
    """Give each other seat its unknown hand cards, respecting what its play excluded
    (:attr:`~mattis.bots.view.CardMemory.excluded`). Returns the cards left for the stock and removed
    places, shuffled, and the hands."""
    pool_mask = view.unseen
    public, known_hands, excluded = view.public, view.memory.known_hands, view.memory.excluded
    needs = {
        seat: public.hand_sizes[seat] - known_hands[seat].bit_count()
        for seat in range(public.players)
        if seat != public.seat
    }
    constrained = [seat for seat in needs if needs[seat] and excluded[seat] & pool_mask]
    for _ in range(100):
        hands = list(known_hands)
        remaining = pool_mask
        order = constrained[:]
        rng.shuffle(order)
        for seat in order:  # seats with exclusions choose first, among the cards they may hold
            allowed = list(cards_in(remaining & ~excluded[seat]))
            if len(allowed) < needs[seat]:
                break
            for card in rng.sample(allowed, needs[seat]):
                hands[seat] |= 1 << card
                remaining &= ~(1 << card)
        else:
            rest = list(cards_in(remaining))
            rng.shuffle(rest)
            for seat, need in needs.items():
                if need and seat not in constrained:
                    for card in rest[:need]:
                        hands[seat] |= 1 << card
                    del rest[:need]
            return rest, hands
    raise ValueError("inconsistent view: no deal of the unseen cards fits what the players showed")


def sample_game(view: PlayerView, rng: random.Random) -> Game:
    """A game continuing from a random position consistent with ``view``."""
    return Game.from_position(sample_position(view, rng))
