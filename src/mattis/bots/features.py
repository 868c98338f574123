"""The observation's layout and its sparse form, with the standard library alone.

The layout of the vector that every environment and every network reads (:data:`LAYOUT`,
block by block) is declared here, below :mod:`mattis.bots.encoding`, which builds its numpy
vectors from it, because the offline app runs on Pyodide without numpy and its ``master``
bot still reads the same numbers: :func:`sparse_view` gives a view's nonzero slots and their
values, which a network's first layer needs alone (a view has a few dozen nonzero slots out
of :data:`OBSERVATION_SIZE`). :func:`mattis.bots.encoding.encode_view` is these values
scattered into a float32 vector, so the two cannot differ.

Seats are *relative*: slot 0 is the observer, slot 1 the player on its left (the next to
play clockwise), and so on. Every per-seat block has :data:`MAX_SEATS` slots so one layout
fits 2-6 players; slots of absent seats stay 0. Cards are numbered 0-51, ``suit * 13 +
rank`` (clubs, diamonds, hearts, spades; 2 … A), the numbering of :attr:`Action.index` for
single cards. Every value lies in [0, 1]; counts are divided by 52 (or by 6 for the
phase-2 trick size). ``docs/research.md`` lists every slot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..core.cards import NUM_CARDS
from ..core.observation import SeatView
from ..core.phase import Phase
from ..core.rules import MAX_SEATS as MAX_SEATS
from ..core.rules import RULE_OPTIONS, Learned, Rules
from .view import PlayerView

PHASES = tuple(Phase)
"""The order of the ``phase`` block's one-hot slots."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One named block of the observation vector."""

    name: str
    size: int
    meaning: str


def _learned_options() -> tuple[tuple[str, Learned], ...]:
    """The options the rules block holds, by their first slot (from each field's
    :class:`~mattis.core.rules.RuleOption`)."""
    learned = [(name, option.learned) for name, option in RULE_OPTIONS.items() if option.learned]
    return tuple(sorted(learned, key=lambda item: item[1].slot))


_LEARNED = _learned_options()
RULES_SIZE: int = sum(learned.width for _, learned in _LEARNED)
"""How many numbers the ``rules`` block holds."""


def _rules_meaning() -> str:
    """The ``rules`` block's slots in words: ``trick=pair, chance, …, removed_two_player / 10``."""
    parts: list[str] = []
    for name, learned in _LEARNED:
        if learned.scale:
            parts.append(f"{name} / {learned.scale}")
        else:
            parts += [name if mark is True else f"{name}={mark}" for mark in learned.marks]
    return "the rule options: " + ", ".join(parts)


LAYOUT: tuple[Slot, ...] = (
    Slot("hand", NUM_CARDS, "1 for each card in the observer's hand"),
    Slot("table_by_seat", MAX_SEATS * NUM_CARDS,
         "cards face up on the table, by the relative seat that played them (phase 1: the "
         "current trick with war cards; phase 2: every play on the table)"),
    Slot("to_beat", NUM_CARDS, "phase 2: the cards of the newest play on the table, the one to beat"),
    Slot("current_round", NUM_CARDS,
         "phase 1: the cards of the current round (the first round of the trick or the current "
         "round of a tie), which decide it"),
    Slot("won_by_seat", MAX_SEATS * NUM_CARDS,
         "phase 1: the cards in each relative seat's won pile (all were played face up)"),
    Slot("known_by_seat", MAX_SEATS * NUM_CARDS,
         "cards known to be in each relative seat's hand (slot 0: the whole own hand; others: "
         "picked up, taken back, the revealed trump card, won piles that joined the hand)"),
    Slot("gone", NUM_CARDS, "cards seen leaving the game (cleared phase-2 tricks)"),
    Slot("unseen", NUM_CARDS,
         "cards whose place the observer cannot know: hidden parts of other hands, the stock, "
         "the reserved trump card, removed cards"),
    Slot("trump_card", NUM_CARDS, "the trump card, once its face is public"),
    Slot("trump_suit", 5, "the trump suit one-hot: clubs, diamonds, hearts, spades, unknown"),
    Slot("phase", 3, "one-hot: collect (phase 1), shed (phase 2), over"),
    Slot("to_move", MAX_SEATS, "one-hot relative seat to move (all 0 when the game is over)"),
    Slot("leader", MAX_SEATS, "one-hot relative seat that led the current trick"),
    Slot("dealer", MAX_SEATS, "one-hot relative seat of the dealer"),
    Slot("trump_holder", MAX_SEATS,
         "one-hot relative seat that put the hidden trump card aside (hidden_last), 0 if nobody"),
    Slot("last_drawer", MAX_SEATS,
         "one-hot relative seat that drew the face-up bottom card (bottom_up), 0 if nobody"),
    Slot("present", MAX_SEATS, "1 for each relative seat in the game (the player count)"),
    Slot("out", MAX_SEATS, "1 for each relative seat that has gone out in phase 2"),
    Slot("losers", MAX_SEATS, "1 for each relative seat that lost (Mattis), once the game is over"),
    Slot("tie", MAX_SEATS, "phase 1: 1 for each relative seat playing off a tie or war"),
    Slot("due", MAX_SEATS, "phase 1: 1 for each relative seat still due to play in this round"),
    Slot("hand_sizes", MAX_SEATS, "cards in each relative seat's hand / 52"),
    Slot("won_sizes", MAX_SEATS, "cards in each relative seat's won pile / 52"),
    Slot("stock_size", 1, "cards in the stock / 52 (the reserved trump card included until put aside)"),
    Slot("removed_count", 1, "cards that left the game unseen / 52"),
    Slot("trick_size", 1, "phase 2: how many plays complete the current trick / 6"),
    Slot("rules", RULES_SIZE, _rules_meaning()),
)
"""The observation vector, block by block, in order."""


def _offsets() -> dict[str, slice]:
    result: dict[str, slice] = {}
    start = 0
    for slot in LAYOUT:
        result[slot.name] = slice(start, start + slot.size)
        start += slot.size
    return result


SLICES: Mapping[str, slice] = _offsets()
"""Where each block of :data:`LAYOUT` lies in the vector."""
OBSERVATION_SIZE: int = sum(slot.size for slot in LAYOUT)
"""The length of every observation vector."""

Sparse = tuple[list[int], list[float]]
"""A vector's nonzero slots, in increasing order, and their values."""


def rules_values(rules: Rules) -> list[float]:
    """The numbers of the ``rules`` block (see :data:`LAYOUT`), laid out by each option's
    :class:`~mattis.core.rules.Learned`."""
    numbers: list[float] = []
    for name, learned in _LEARNED:
        value = getattr(rules, name)
        if learned.scale:
            numbers.append(value / learned.scale)
        else:
            numbers += [float(value == mark) for mark in learned.marks]
    return numbers


def player_view(view: Mapping[str, Any] | SeatView | PlayerView) -> PlayerView:
    """A :class:`PlayerView` from any of the forms a view comes in (a dict or a
    :class:`SeatView` must hold the whole history)."""
    if isinstance(view, PlayerView):
        return view
    if isinstance(view, SeatView):
        return PlayerView.of(view)
    return PlayerView.from_dict(dict(view))


def sparse_view(view: Mapping[str, Any] | SeatView | PlayerView) -> Sparse:
    """The nonzero slots of one seat's observation vector, in increasing order, and their
    values (Python floats; the vector holds each rounded to float32), worked out from scratch.

    ``view`` is a ``Game.view(seat)`` dict, a ``Game.seat_view(seat)`` or a
    :class:`PlayerView`. Each slot comes once, so a network's first layer may add each
    value's row of weights without looking. Every slot before ``hand_sizes`` holds 0 or 1,
    so the ones are listed first and the counts after them."""
    known = player_view(view)
    public, memory = known.public, known.memory
    players, me = public.players, public.seat
    order = [(me + row) % players for row in range(players)]
    """The seat of each relative row: the observer's, then the next clockwise …"""
    ones: list[int] = []
    add = ones.append

    def cards(start: int, mask: int) -> None:
        while mask:
            low = mask & -mask
            add(start + low.bit_length() - 1)
            mask ^= low

    def one_hot(start: int, seat: int | None) -> None:
        if seat is not None and seat >= 0:
            add(start + (seat - me) % players)

    cards(_HAND, public.hand)
    table = [0] * players
    for seat, card in public.trick:
        table[seat] |= 1 << card
    for seat, play in public.plays:
        table[seat] |= play.mask
    for row, seat in enumerate(order):
        cards(_TABLE + row * NUM_CARDS, table[seat])
    if public.plays:
        cards(_TO_BEAT, public.plays[-1][1].mask)
    current_round = 0
    for _, card in public.current_round:
        current_round |= 1 << card
    cards(_CURRENT_ROUND, current_round)
    for row, seat in enumerate(order):
        cards(_WON + row * NUM_CARDS, memory.known_won[seat])
    for row, seat in enumerate(order):
        cards(_KNOWN + row * NUM_CARDS, memory.known_hands[seat])
    cards(_GONE, memory.gone)
    cards(_UNSEEN, known.unseen)
    if public.trump_card is not None:
        add(_TRUMP_CARD + public.trump_card)
    add(_TRUMP_SUIT + (4 if public.trump_suit is None else public.trump_suit))
    add(_PHASE + PHASES.index(public.phase))
    one_hot(_TO_MOVE, public.to_move)
    one_hot(_LEADER, public.leader)
    one_hot(_DEALER, public.dealer)
    one_hot(_TRUMP_HOLDER, public.trump_holder)
    one_hot(_LAST_DRAWER, public.last_drawer)
    ones += range(_PRESENT, _PRESENT + players)
    for start, seats in ((_OUT, public.out), (_LOSERS, public.losers), (_TIE, public.tie),
                         (_DUE, public.due)):
        if seats:
            ones += sorted({start + (int(seat) - me) % players for seat in seats})
    indices = ones
    values = [1.0] * len(ones)
    for start, sizes in ((_HAND_SIZES, public.hand_sizes), (_WON_SIZES, public.won_sizes)):
        for row, seat in enumerate(order):
            if sizes[seat]:
                indices.append(start + row)
                values.append(sizes[seat] / NUM_CARDS)
    for index, count, scale in ((_STOCK_SIZE, public.stock_size, NUM_CARDS),
                                (_REMOVED_COUNT, public.removed_count, NUM_CARDS),
                                (_TRICK_SIZE, public.trick_size or 0, MAX_SEATS)):
        if count:
            indices.append(index)
            values.append(count / scale)
    rule_indices, rule_values = _sparse_rules(public.rules)
    return indices + rule_indices, values + rule_values


@lru_cache(maxsize=64)
def _sparse_rules(rules: Rules) -> Sparse:
    """The nonzero slots of the ``rules`` block and their values (a game's rules never change)."""
    numbers = rules_values(rules)
    indices = [_RULES + slot for slot, number in enumerate(numbers) if number]
    return indices, [number for number in numbers if number]


_HAND, _TABLE, _TO_BEAT, _CURRENT_ROUND, _WON, _KNOWN, _GONE, _UNSEEN, _TRUMP_CARD = (
    SLICES[name].start for name in ("hand", "table_by_seat", "to_beat", "current_round", "won_by_seat",
                                    "known_by_seat", "gone", "unseen", "trump_card"))
_TRUMP_SUIT, _PHASE, _TO_MOVE, _LEADER, _DEALER, _TRUMP_HOLDER, _LAST_DRAWER = (
    SLICES[name].start for name in ("trump_suit", "phase", "to_move", "leader", "dealer", "trump_holder",
                                    "last_drawer"))
_PRESENT, _OUT, _LOSERS, _TIE, _DUE = (
    SLICES[name].start for name in ("present", "out", "losers", "tie", "due"))
_HAND_SIZES, _WON_SIZES, _STOCK_SIZE, _REMOVED_COUNT, _TRICK_SIZE, _RULES = (
    SLICES[name].start for name in ("hand_sizes", "won_sizes", "stock_size", "removed_count", "trick_size",
                                    "rules"))


__all__ = ["LAYOUT", "MAX_SEATS", "OBSERVATION_SIZE", "PHASES", "RULES_SIZE", "SLICES", "Slot", "Sparse",
           "player_view", "rules_values", "sparse_view"]
