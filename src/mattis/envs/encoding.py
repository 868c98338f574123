"""One numeric encoding of a seat's view, shared by the PettingZoo, Gymnasium and OpenSpiel
adapters, so an agent trained in one framework reads the same numbers in the others.

The input is the JSON dict of ``Game.view(seat)`` and nothing else: the view is the single
place where hidden cards are cut away, so an observation cannot leak what the view does
not hold. Memory of the public history (won piles, cards known to be in a hand, cards gone)
is worked out by :class:`mattis.bots.view.PlayerView` from the same dict.

Seats are *relative*: slot 0 is the observer, slot 1 the player on its left (the next to
play clockwise), and so on. Every per-seat block has :data:`MAX_SEATS` slots so one layout
fits 2-6 players; slots of absent seats stay 0. Cards are numbered 0-51, ``suit * 13 +
rank`` (clubs, diamonds, hearts, spades; 2 … A), the numbering of :attr:`Action.index` for
single cards. Every value lies in [0, 1]; counts are divided by 52 (or by 6 for the
phase-2 trick size). ``docs/research.md`` lists every slot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..bots.view import PlayerView
from ..core.actions import NUM_ACTIONS
from ..core.cards import NUM_CARDS
from ..core.rules import (
    DrawMode,
    NothingLeft,
    NothingLeftCounts,
    Phase1End,
    Rules,
    TieMode,
    TrickMode,
    TrumpMode,
)

MAX_SEATS = 6
"""Per-seat blocks always have this many slots (the most players any rules allow)."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One named block of the observation vector."""

    name: str
    size: int
    meaning: str


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
    Slot("rules", 18,
         "the rule options: trick=pair, chance, draw=after_trick, tie=replay, tie=two_cards, "
         "tie=any_match, trump=bottom_up, phase1_end=no_card, phase1_end=one_left, "
         "phase1_end=stock_empty, nothing_left=must_pick_up, nothing_left_counts=won_pile, "
         "min_sequence=0, min_sequence=2, min_sequence=3, voluntary_pickup, follow_suit, "
         "removed_two_player / 10"),
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

Observation = npt.NDArray[np.float32]


def encode_view(view: Mapping[str, Any]) -> Observation:
    """The observation vector of one seat's view (``Game.view(seat)``), float32 in [0, 1]."""
    known = PlayerView.from_dict(dict(view))
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    players = known.players
    me = known.seat

    def rel(seat: int) -> int:
        return (seat - me) % players

    def cards(name: str, mask: int, row: int = 0) -> None:
        base = SLICES[name].start + row * NUM_CARDS
        while mask:
            low = mask & -mask
            out[base + low.bit_length() - 1] = 1.0
            mask ^= low

    def one_hot(name: str, seat: int | None) -> None:
        if seat is not None and seat >= 0:
            out[SLICES[name].start + rel(seat)] = 1.0

    def flags(name: str, seats: Iterable[int]) -> None:
        for seat in seats:
            out[SLICES[name].start + rel(int(seat))] = 1.0

    cards("hand", known.hand)
    for seat, card in known.trick:
        cards("table_by_seat", 1 << card, rel(seat))
    for seat, play in known.table:
        cards("table_by_seat", play.mask, rel(seat))
    if known.table:
        cards("to_beat", known.table[-1][1].mask)
    for _, card in known.current_round:
        cards("current_round", 1 << card)
    for seat in range(players):
        cards("won_by_seat", known.known_won[seat], rel(seat))
        cards("known_by_seat", known.known_hands[seat], rel(seat))
    cards("gone", known.gone)
    cards("unseen", known.unseen)
    if known.trump_card is not None:
        cards("trump_card", 1 << known.trump_card)
    out[SLICES["trump_suit"].start + (4 if known.trump_suit is None else known.trump_suit)] = 1.0
    out[SLICES["phase"].start + ("collect", "shed", "over").index(known.phase)] = 1.0
    one_hot("to_move", known.to_move)
    one_hot("leader", known.leader)
    one_hot("dealer", known.dealer)
    one_hot("trump_holder", known.trump_holder)
    one_hot("last_drawer", known.last_drawer)
    flags("present", range(players))
    flags("out", (seat for seat in range(players) if known.out[seat]))
    flags("losers", known.losers)
    flags("tie", known.tie)
    flags("due", known.due)
    for seat in range(players):
        out[SLICES["hand_sizes"].start + rel(seat)] = known.hand_sizes[seat] / NUM_CARDS
        out[SLICES["won_sizes"].start + rel(seat)] = known.won_sizes[seat] / NUM_CARDS
    out[SLICES["stock_size"].start] = known.stock_size / NUM_CARDS
    out[SLICES["removed_count"].start] = known.removed_count / NUM_CARDS
    out[SLICES["trick_size"].start] = known.trick_size / MAX_SEATS
    out[SLICES["rules"]] = rules_vector(known.rules)
    return out


def rules_vector(rules: Rules) -> Observation:
    """The 18 numbers of the ``rules`` block (see :data:`LAYOUT`)."""
    return np.array(
        [
            rules.trick is TrickMode.PAIR,
            rules.chance,
            rules.draw is DrawMode.AFTER_TRICK,
            rules.tie is TieMode.REPLAY,
            rules.tie is TieMode.TWO_CARDS,
            rules.tie is TieMode.ANY_MATCH,
            rules.trump is TrumpMode.BOTTOM_UP,
            rules.phase1_end is Phase1End.NO_CARD,
            rules.phase1_end is Phase1End.ONE_LEFT,
            rules.phase1_end is Phase1End.STOCK_EMPTY,
            rules.nothing_left is NothingLeft.MUST_PICK_UP,
            rules.nothing_left_counts is NothingLeftCounts.WON_PILE,
            rules.min_sequence == 0,
            rules.min_sequence == 2,
            rules.min_sequence == 3,
            rules.voluntary_pickup,
            rules.follow_suit,
            rules.removed_two_player / 10,
        ],
        dtype=np.float32,
    )


def action_mask(legal_indices: list[int] | tuple[int, ...]) -> npt.NDArray[np.int8]:
    """A 0/1 vector over every action index (``mattis.NUM_ACTIONS`` long)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[list(legal_indices)] = 1
    return mask


def terminal_rewards(losers: tuple[int, ...] | list[int], players: int) -> tuple[float, ...]:
    """Rewards at the end of a game, summing to 0: the Mattis loser(s) share −1 and the other
    players share +1. With one loser that is −1 for Mattis and +1/(players−1) for the rest.
    If nobody or everybody lost (a capped game, or nobody could move), everyone gets 0."""
    lost = set(losers)
    if not lost or len(lost) == players:
        return (0.0,) * players
    loser_share = -1.0 / len(lost)
    winner_share = 1.0 / (players - len(lost))
    return tuple(loser_share if seat in lost else winner_share for seat in range(players))
