"""Cards as small integers, and their text codes.

A card is an ``int`` from 0 to 51, ``suit * 13 + rank``: suits clubs, diamonds, hearts,
spades (0-3) and ranks 2..A (0-12). Suit-major numbering makes a sorted hand read like a
bridge hand and makes a sequence (*serie*) a run of consecutive integers, so sets of cards
are kept as 52-bit masks: copying them is free and set operations are single instructions.

The public API speaks card *codes*: rank from ``23456789TJQKA`` plus suit from ``cdhs``
(``"Th"`` is the ten of hearts). Parsing also accepts ``"10h"``, upper-case suits and the
suit symbols ``♣♦♥♠``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Final

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
NUM_CARDS: Final = 52
FULL_DECK_MASK = (1 << NUM_CARDS) - 1

Card = int
"""A card number 0-51 (``suit * 13 + rank``)."""

CARD_CODES: Final[tuple[str, ...]] = tuple(r + s for s in SUITS for r in RANKS)
SUIT_MASKS: Final[tuple[int, ...]] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))

_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"10": 8}


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = two … 12 = ace) and ``suit`` (0 = clubs … 3 = spades)."""
    return suit * 13 + rank


def rank_of(card: Card) -> int:
    """Rank 0 (two) … 12 (ace): all that counts in phase 1 (P1.3)."""
    return card % 13


def suit_of(card: Card) -> int:
    """Suit 0 (clubs) … 3 (spades)."""
    return card // 13


def card_code(card: Card) -> str:
    """The canonical text code, e.g. ``"Th"``."""
    return CARD_CODES[card]


def parse_card(text: str) -> Card:
    """Parse a card code such as ``"7h"``, ``"10H"``, ``"Th"`` or ``"Q♠"``.

    Raises ``ValueError`` saying what is wrong, never guesses.
    """
    cleaned = text.strip()
    if len(cleaned) < 2:
        raise ValueError(f"malformed card {text!r}: expected rank and suit, like '7h' or 'Td'")
    rank_text, suit_text = cleaned[:-1].upper(), cleaned[-1].lower()
    if suit_text not in _SUIT_ALIASES:
        raise ValueError(f"malformed card {text!r}: suit must be one of c, d, h, s")
    if rank_text not in _RANK_ALIASES:
        raise ValueError(f"malformed card {text!r}: rank must be one of 2-9, T (or 10), J, Q, K, A")
    return make_card(_RANK_ALIASES[rank_text], _SUIT_ALIASES[suit_text])


def parse_suit(text: str) -> int:
    """Parse a suit letter (``c d h s``) or symbol."""
    key = text.strip().lower()
    if key not in _SUIT_ALIASES:
        raise ValueError(f"malformed suit {text!r}: expected one of c, d, h, s")
    return _SUIT_ALIASES[key]


def bit(card: Card) -> int:
    """The one-card mask of ``card``."""
    return 1 << card


def mask_of(cards: Iterable[Card]) -> int:
    """The mask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of ``mask`` in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def codes_of(mask: int) -> list[str]:
    """The sorted card codes of ``mask`` (the public form of a set of cards)."""
    return [CARD_CODES[card] for card in cards_in(mask)]


def shuffled_deck(seed: int | None) -> list[Card]:
    """The deck order a seed gives (C3): the cards 0-51 shuffled by ``random.Random(seed)``.
    A record keeps the seed beside the deck, and this is how the two are checked against
    each other.

    The loop is ``Random.shuffle``'s own, written out (Fisher-Yates from the top, each index
    drawn with ``getrandbits`` and redrawn while too large, as ``Random._randbelow`` does), so
    that it runs natively in a compiled build and the deck order no longer depends on how a
    Python version writes ``shuffle``; a test checks that both give the same decks."""
    order = list(range(NUM_CARDS))
    getrandbits = random.Random(seed).getrandbits
    for top in range(NUM_CARDS - 1, 0, -1):
        bound = top + 1
        bits = _BIT_LENGTHS[bound]
        other = getrandbits(bits)
        while other >= bound:
            other = getrandbits(bits)
        order[top], order[other] = order[other], order[top]
    return order


_BIT_LENGTHS: Final = tuple(number.bit_length() for number in range(NUM_CARDS + 1))
