"""Mini Mattis: a research variant small enough to solve exactly (``docs/rules.en.md``,
"Research variant: mini").

Two players, a few ranks of a few suits, and ``pagat``'s rules otherwise. It is not a family
preset (:data:`mattis.core.rules.PRESETS`): the engine's card encoding and dealing stay as
they are, and a mini deal is an ordinary two-player deal whose other cards leave the game
unseen before play (the engine's *removed* cards, as C4 and the lessons use them). So every
bot, view and record works on it unchanged, and no preset's game changes.

A deal is a number (:func:`deal_count` of them, equally likely): it names seat 0's hand, seat
1's hand and the order of the stock, whose last card is the trump card (P1.6). That single
chance node is what makes exact game theory (CFR, NashConv) affordable on it.
"""

from __future__ import annotations

import dataclasses
import itertools
from functools import cache
from typing import Final

from .cards import parse_card
from .game import HAND_SIZE, Game
from .rules import Rules

MINI_NAME: Final = "mini"
"""The name ``--rules`` and the OpenSpiel parameter ``rules`` take for this variant."""
MINI_PLAYERS: Final = 2
MINI_RULES: Final = dataclasses.replace(Rules.preset("pagat"), min_players=2, max_players=2)
"""``pagat``'s rules at two seats (its only difference from ``pagat``: the seat count)."""
MINI_CARDS: Final[tuple[int, ...]] = tuple(
    parse_card(code) for code in ("Qh", "Kh", "Ah", "Qs", "Ks", "As", "Qd"))
"""The mini deck: chosen by measuring (``benchmarks/mini/README.md``) so that CFR converges
on a laptop core within minutes."""
MINI_DEALER: Final = 1
"""Seat 1 deals, so seat 0 leads (P1.1); the deal itself is chance."""


@cache
def _deals() -> tuple[tuple[int, ...], ...]:
    """Every deal as the mini cards in deck order: seat 0's hand, seat 1's hand (each in
    card order: the order within a hand tells nobody anything), then the stock, top first."""
    cards = MINI_CARDS
    deals: list[tuple[int, ...]] = []
    for first in itertools.combinations(cards, HAND_SIZE):
        rest = [card for card in cards if card not in first]
        for second in itertools.combinations(rest, HAND_SIZE):
            stock = [card for card in rest if card not in second]
            for order in itertools.permutations(stock):
                deals.append((*first, *second, *order))
    return tuple(deals)


def deal_count() -> int:
    """How many deals mini has (the chance root's outcomes)."""
    return len(_deals())


def deal_cards(deal: int) -> tuple[int, ...]:
    """Deal ``deal``'s mini cards in deck order (hands, then the stock top first)."""
    deals = _deals()
    if not 0 <= deal < len(deals):
        raise ValueError(f"deal: must be from 0 to {len(deals) - 1}, got {deal}")
    return deals[deal]


def new_mini_game(deal: int) -> Game:
    """The game of deal ``deal``: a two-player ``pagat`` deal whose cards outside the mini
    deck are removed unseen before the first play (as ``removed_two_player`` does, C4)."""
    order = deal_cards(deal)
    hands, stock = order[: HAND_SIZE * MINI_PLAYERS], order[HAND_SIZE * MINI_PLAYERS:]
    others = [card for card in range(52) if card not in order]
    # Dealing alternates seats (C3): lay the hands out so seat 0 gets the first three.
    dealt = [card for pair in zip(hands[:HAND_SIZE], hands[HAND_SIZE:], strict=True) for card in pair]
    deck = [*dealt, *stock[:-1], *others, stock[-1]]  # the trump card stays the bottom card
    full = Game.new(MINI_RULES, MINI_PLAYERS, deck=deck, dealer=MINI_DEALER)
    position = full.position()
    kept = position.stock[: len(stock) - 1] + position.stock[-1:]
    left_out = 0
    for card in others:
        left_out |= 1 << card
    return Game.from_position(dataclasses.replace(position, stock=kept, removed=position.removed | left_out))
