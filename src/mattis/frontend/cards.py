"""Cards and actions as people read them: ``7♥``, ``10♠``, ``6♥–8♥``, "hjerter ess".

The core speaks card codes (``"Th"``); players read suit symbols and the ten as ``10``.
Every front end shows cards through these functions so a card looks the same in the
terminal, a replay and the web, and its colour *role* (red or black suit, trump) is decided
once here while each front end picks its own styles for the roles.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Literal

from ..core.actions import CHANCE, PICKUP, Action
from ..core.cards import SUIT_SYMBOLS, SUITS, cards_in, parse_card, rank_of, suit_of
from ..core.phase import Phase
from ..i18n import Lang, t

RANK_LABELS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Short rank labels as printed in the corner of a card (J, Q, K, A are used in Norway too)."""

_COURT_WORDS: tuple[str, ...] = ("jack", "queen", "king", "ace")
"""The keys of the ranks said in words (``card.rank.…``); 2 to 10 are said as digits."""
_SUIT_KEYS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
"""The keys of the suits in words (``card.suit.…``), in the core's suit order."""

SuitRole = Literal["black", "red"]
"""How a suit is coloured: clubs and spades black, diamonds and hearts red."""

DISPLAY_SUIT_ORDER: tuple[int, ...] = (0, 2, 3, 1)
"""Phase-2 hands group suits as ♣ ♥ ♠ ♦ so black and red alternate and neighbours never blur."""


ASCII_SUITS: tuple[str, ...] = ("c", "d", "h", "s")
"""Suit letters for a console that cannot print ``♣♦♥♠`` (the letters a turn accepts)."""

SYMBOL_SAMPLE = "♣♦♥♠–"
"""What a console must be able to print for cards to be shown with suit symbols."""


def console_takes_symbols(stream: object = None) -> bool:
    """Whether ``stream`` (default ``sys.stdout``) can print suit symbols, by its encoding."""
    encoding = getattr(stream if stream is not None else sys.stdout, "encoding", None) or "ascii"
    try:
        SYMBOL_SAMPLE.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


@functools.cache
def _symbols() -> bool:
    """Decided once per program, from the console it started with."""
    return console_takes_symbols()


_chosen: list[bool] = []
"""The front end's own choice, when it made one (see :func:`use_symbols`)."""


def use_symbols(enabled: bool | None) -> None:
    """Force suit symbols on or off, or ``None`` to follow the console again: for front ends
    that do not print to the console, such as a web server."""
    _chosen[:] = [] if enabled is None else [enabled]


def symbols_shown() -> bool:
    """Whether cards are labelled with suit symbols (``7♥``) rather than letters (``7h``)."""
    return _chosen[0] if _chosen else _symbols()


def run_dash() -> str:
    """The dash between the ends of a sequence: ``–``, or ``-`` without symbols."""
    return "–" if symbols_shown() else "-"


def card_int(card: int | str) -> int:
    """A card number from a number or a code (``"Th"``)."""
    return card if isinstance(card, int) else parse_card(card)


def card_label(card: int | str) -> str:
    """The short label of a card, e.g. ``10♥`` or ``K♠``."""
    number = card_int(card)
    suits = SUIT_SYMBOLS if symbols_shown() else ASCII_SUITS
    return RANK_LABELS[rank_of(number)] + suits[suit_of(number)]


def rank_word(rank: int, lang: Lang) -> str:
    """The rank in words: ``"dame"`` / ``"queen"`` (digits for 2-10)."""
    court = rank - (len(RANK_LABELS) - len(_COURT_WORDS))
    return t(f"card.rank.{_COURT_WORDS[court]}", lang) if court >= 0 else RANK_LABELS[rank]


def suit_word(suit: int, lang: Lang) -> str:
    """The suit in words: ``"hjerter"`` / ``"hearts"``."""
    return t(f"card.suit.{_SUIT_KEYS[suit]}", lang)


def card_name(card: int | str, lang: Lang) -> str:
    """The card in words: ``"hjerter ess"`` / ``"ace of hearts"``."""
    number = card_int(card)
    rank, suit = rank_word(rank_of(number), lang), suit_word(suit_of(number), lang)
    return t("card.name", lang, rank=rank, suit=suit)


def suit_role(suit: int) -> SuitRole:
    """Red for diamonds and hearts, black for clubs and spades."""
    return "red" if suit in (1, 2) else "black"


def card_role(card: int | str) -> SuitRole:
    """The colour role of a card's suit."""
    return suit_role(suit_of(card_int(card)))


def cards_label(cards: Iterable[int | str]) -> str:
    """Several cards: a run of one suit as ``6♥–8♥``, anything else as ``4♣ 7♥``."""
    numbers = sorted(card_int(card) for card in cards)
    if not numbers:
        return ""
    if len(numbers) > 1 and is_run(numbers):
        return f"{card_label(numbers[0])}{run_dash()}{card_label(numbers[-1])}"
    return " ".join(card_label(card) for card in numbers)


def mask_label(mask: int) -> str:
    """The cards of a 52-bit mask, as :func:`cards_label` shows them."""
    return cards_label(cards_in(mask))


def is_run(numbers: Sequence[int]) -> bool:
    """Whether sorted cards form a sequence (*serie*): one suit, consecutive ranks."""
    return (len({suit_of(card) for card in numbers}) == 1
            and all(b - a == 1 for a, b in pairwise(numbers)))


def play_label(action: Action) -> str:
    """A card play as players read it (``7♥``, ``6♥–8♥``); chance and pick-up by name
    belong to :func:`action_label`, which knows the language."""
    return cards_label(action.cards)


def action_label(action: Action, lang: Lang) -> str:
    """Any action in words for a list of moves: a card, a sequence, *sjanse*, *ta opp*."""
    if action is CHANCE:
        return t("play.action.chance", lang)
    if action is PICKUP:
        return t("play.action.pickup", lang)
    return play_label(action)


def sort_key(card: int, phase: str, trump_suit: int | None = None) -> tuple[int, int, int]:
    """How a hand is ordered for display.

    Phase 1 sorts by rank alone (P1.3: suits do not matter yet), so the strongest cards sit
    together on the right. Phase 2 groups suits with black and red alternating and the trump
    suit last, ranks rising within each suit, the way players hold a hand.
    """
    rank, suit = rank_of(card), suit_of(card)
    if phase == Phase.COLLECT:
        return (rank, DISPLAY_SUIT_ORDER.index(suit), 0)
    group = 4 if suit == trump_suit else DISPLAY_SUIT_ORDER.index(suit)
    return (group, rank, 0)


def sort_hand(cards: Iterable[int | str], phase: str, trump: str | None = None) -> list[int]:
    """A hand (codes or numbers) in display order; see :func:`sort_key`."""
    trump_suit = SUITS.index(trump) if trump else None
    return sorted((card_int(card) for card in cards), key=lambda c: sort_key(c, phase, trump_suit))


def sort_actions(actions: Iterable[Action], phase: str, trump: str | None = None) -> list[Action]:
    """Legal moves in the order the hand is shown, chance and pick-up last, so the numbered
    list reads left to right like the hand."""
    trump_suit = SUITS.index(trump) if trump else None

    def key(action: Action) -> tuple[int, tuple[int, int, int], int]:
        if action is CHANCE or action is PICKUP:
            return (1 + int(action is PICKUP), (0, 0, 0), 0)
        return (0, sort_key(action.low, phase, trump_suit), len(action.cards))

    return sorted(actions, key=key)
