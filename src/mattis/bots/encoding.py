"""One numeric encoding of a seat's view, shared by the PettingZoo, Gymnasium and OpenSpiel
adapters, so an agent trained in one framework reads the same numbers in the others, and by
the ``learned`` bot, which reads the numbers it was trained on. It lives with the bots, below
the environments, so that both can use it; :mod:`mattis.envs.encoding` is its public name.

The input is the seat's view (``Game.seat_view(seat)``, or its JSON dict) and nothing else:
the view is the single place where hidden cards are cut away, so an observation cannot
leak what the view does not hold. Memory of the public history (won piles, cards known to
be in a hand, cards gone) is the seat's :class:`~mattis.bots.view.CardTracker`, fed from
the same views. :func:`encode_view` works a vector out from a whole view;
:class:`SeatEncoder` keeps one up to date from the events since its last update.

The layout (:data:`LAYOUT`: relative seats, card numbering, scales) and the values are
declared once, without numpy, in :mod:`mattis.bots.features` (the offline app's network reads
them there); this module builds numpy vectors and batches from them. ``docs/research.md``
lists every slot.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

from ..extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..core.actions import NUM_ACTIONS
from ..core.cards import FULL_DECK_MASK, NUM_CARDS
from ..core.events import RawEvent
from ..core.observation import SeatView
from ..core.phase import Phase
from ..core.rules import Rules
from .features import (
    LAYOUT,
    MAX_SEATS,
    OBSERVATION_SIZE,
    PHASES,
    RULES_SIZE,
    SLICES,
    Slot,
    rules_values,
    sparse_view,
)
from .view import CardTracker, PlayerView

Observation = npt.NDArray[np.float32]


def encode_view(view: Mapping[str, Any] | SeatView | PlayerView) -> Observation:
    """The observation vector of one seat's view, float32 in [0, 1], worked out from scratch:
    :func:`~mattis.bots.features.sparse_view`'s values in their slots, zeros elsewhere.

    ``view`` is a ``Game.view(seat)`` dict, a ``Game.seat_view(seat)`` or a
    :class:`PlayerView`; a dict or a :class:`SeatView` must hold the whole history. This
    is the reference the environments' :class:`SeatEncoder` is tested against; it costs
    time in proportion to the history, the encoder a constant time per step.
    """
    indices, values = sparse_view(view)
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    out[indices] = values
    return out


class SeatPacker:
    """One seat's observation in packed form: the seat's memory of the public events (a
    :class:`CardTracker`) and :meth:`pack`, which turns a view into :data:`PACKED_WORDS` whole
    numbers. What a batch needs, without a vector of its own per game (:func:`unpack_into`
    writes the batch's rows); :class:`SeatEncoder` adds the vector."""

    def __init__(self, seat: int, players: int, rules: Rules, before: Sequence[RawEvent] = ()) -> None:
        """``before``: public events the seat saw before the game its views come from (a
        game resumed from a position, as OpenSpiel's resampled states are)."""
        self.seat = seat
        self.players = players
        self.tracker = CardTracker(players, rules)
        self.tracker.feed(before)
        self._first = len(before)
        self._rel = [(other - seat) % players for other in range(players)]
        self._bits_of: dict[Iterable[int], int] = {}
        # For pack(): each seat's one-hot bit, and the zeros of absent seats' slots.
        self._bit: dict[int | None, int] = {None: 0}
        self._bit.update((other, 1 << rel) for other, rel in enumerate(self._rel))
        self._absent = [0] * (MAX_SEATS - players)
        self._present = (1 << players) - 1

    @property
    def count(self) -> int:
        """Events of the game followed so far: ask for the next view with ``since=count``."""
        return self.tracker.count - self._first

    def pack(self, public: SeatView) -> list[int]:
        """Follow ``public`` (the events since the last call) and return the observation
        packed into :data:`PACKED_WORDS` whole numbers: every 0/1 block as a bit mask
        (relative seats in order), then the counts. :func:`unpack_into` turns the packs of a
        whole batch into its rows in one go, so a batch pays NumPy's cost once and each game
        only its Python part. A :class:`SeatEncoder`'s :attr:`~SeatEncoder.vector` is left
        as it was (its next :meth:`~SeatEncoder.update` still brings it up to date)."""
        tracker = self.tracker
        tracker.follow(public, self._first)
        seat, absent = self.seat, self._absent
        table = [0] * self.players
        in_play = 0
        for owner, card in public.trick:
            table[owner] |= 1 << card
            in_play |= 1 << card
        for owner, play in public.plays:
            table[owner] |= play.mask
            in_play |= play.mask
        hand = public.hand
        won, known = tracker.known_won, tracker.known_hands
        gone = tracker.gone
        others_known = [*known[seat + 1:], *known[:seat]]  # the own row is the whole hand
        seen = in_play | gone | hand
        for mask in won:
            seen |= mask
        for mask in others_known:
            seen |= mask
        trump_card = 0 if public.trump_card is None else 1 << public.trump_card
        if public.phase == Phase.COLLECT:
            seen |= trump_card  # the face-up bottom card still in the stock
        current_round = 0
        for _, card in public.current_round:
            current_round |= 1 << card
        bit = self._bit
        bits_of = self._bits_of
        try:
            flags = (bits_of[public.out], bits_of[public.losers], bits_of[public.tie], bits_of[public.due])
        except KeyError:
            for seats in (public.out, public.losers, public.tie, public.due):
                bits_of[seats] = sum(1 << self._rel[other] for other in set(seats))
            flags = (bits_of[public.out], bits_of[public.losers], bits_of[public.tie], bits_of[public.due])
        hand_sizes, won_sizes = public.hand_sizes, public.won_sizes
        return [  # relative seat order: this seat's row, then the next clockwise, ...
            hand,
            *table[seat:], *table[:seat], *absent,
            public.plays[-1][1].mask if public.plays else 0,
            current_round,
            *won[seat:], *won[:seat], *absent,
            hand, *others_known, *absent,
            gone,
            FULL_DECK_MASK & ~seen,
            trump_card,
            (_TRUMP_BIT[public.trump_suit] | _PHASE_BIT[public.phase] << 5 | bit[public.to_move] << 8
             | bit[public.leader] << 14 | bit[public.dealer] << 20 | bit[public.trump_holder] << 26
             | bit[public.last_drawer] << 32),
            self._present | flags[0] << 6 | flags[1] << 12 | flags[2] << 18 | flags[3] << 24,
            *hand_sizes[seat:], *hand_sizes[:seat], *absent,
            *won_sizes[seat:], *won_sizes[:seat], *absent,
            public.stock_size, public.removed_count, public.trick_size or 0,
        ]



class SeatEncoder(SeatPacker):
    """One seat's observation vector, kept up to date instead of rebuilt.

    Each :meth:`update` takes the seat's view of the events since the last one
    (``Game.seat_view(seat, since=encoder.count)``): its :class:`CardTracker` follows just
    those, and only the numbers that changed are rewritten, so a step costs the same at
    action 5 as at action 3,000. The vector equals :func:`encode_view` of the whole view
    at every step (the tests compare them over whole games).

    The same numbers are also kept as a list of Python floats (:attr:`values`), for
    OpenSpiel, which hands tensors out as lists: copying the list costs a sixth of
    converting 1,349 float32 numbers afresh, and keeping it costs a store per change.
    """

    def __init__(self, seat: int, players: int, rules: Rules, before: Sequence[RawEvent] = ()) -> None:
        """``before``: public events the seat saw before the game its views come from (a
        game resumed from a position, as OpenSpiel's resampled states are)."""
        super().__init__(seat, players, rules, before)
        self._buffer = array("f", bytes(4 * OBSERVATION_SIZE))
        self.vector: Observation = np.frombuffer(self._buffer, dtype=np.float32)
        """The observation as of the last :meth:`update`; the encoder writes into it, so
        copy it to keep it."""
        # A float object of its own in every slot: copying a list that holds one object many
        # times waits on that object's reference count at every item, and costs 2.5 times more.
        self.values: list[float] = self._buffer.tolist()
        """:attr:`vector` as Python floats (equal to ``vector.tolist()``); copy it to keep it."""
        self._rows = [rel * NUM_CARDS for rel in self._rel]
        for rel in self._rel:
            self._buffer[_PRESENT + rel] = self.values[_PRESENT + rel] = 1.0
        rules_slots = SLICES["rules"]
        self.vector[rules_slots] = rules_vector(rules)
        self.values[rules_slots] = self.vector[rules_slots].tolist()
        # What the vector holds now: card blocks as masks, per-seat rows by absolute seat,
        # one-hot blocks as the index set (-1: none), flag blocks as bits by relative seat.
        self._cards: tuple[int, ...] = (0,) * len(_CARD_STARTS)
        self._table = [0] * players
        self._won = [0] * players
        self._known = [0] * players
        self._hot: tuple[int, ...] = (-1,) * len(_ONE_HOT_STARTS)
        self._flags: tuple[int, ...] = (0,) * len(_FLAG_STARTS)
        self._slot: dict[int | None, int] = {None: -1, **dict(enumerate(self._rel))}
        self._hand_sizes: tuple[int, ...] = (0,) * players
        self._won_sizes: tuple[int, ...] = (0,) * players
        self._scalars: tuple[int, ...] = (0, 0, 0)

    def update(self, public: SeatView) -> Observation:
        """Follow ``public`` (the events since the last update) and return :attr:`vector`."""
        tracker = self.tracker
        tracker.follow(public, self._first)
        buffer, values = self._buffer, self.values
        rel = self._rel

        # Per-seat card rows by absolute seat (the own known row is the whole hand, which
        # private draws change), and everything the seat has seen (for ``unseen``).
        table = [0] * self.players
        in_play = 0
        for owner, card in public.trick:
            table[owner] |= 1 << card
            in_play |= 1 << card
        for owner, play in public.plays:
            table[owner] |= play.mask
            in_play |= play.mask
        hand = public.hand
        won, known = tracker.known_won, tracker.known_hands
        seat = self.seat
        old_table, old_won, old_known = self._table, self._won, self._known
        seen = in_play | tracker.gone | hand
        for other, row in enumerate(self._rows):
            mask = table[other]
            if mask != old_table[other]:
                _write_cards(buffer, values, _TABLE + row, old=old_table[other], new=mask)
            mask = won[other]
            if mask != old_won[other]:
                _write_cards(buffer, values, _WON + row, old=old_won[other], new=mask)
                old_won[other] = mask
            seen |= mask
            mask = hand if other == seat else known[other]
            if mask != old_known[other]:
                _write_cards(buffer, values, _KNOWN + row, old=old_known[other], new=mask)
                old_known[other] = mask
            seen |= mask
        self._table = table

        # Single card blocks, in the order of _CARD_STARTS.
        trump_card = 0 if public.trump_card is None else 1 << public.trump_card
        if public.phase == Phase.COLLECT:
            seen |= trump_card  # the face-up bottom card still in the stock
        current_round = 0
        for _, card in public.current_round:
            current_round |= 1 << card
        masks = (hand, public.plays[-1][1].mask if public.plays else 0, current_round,
                 tracker.gone, FULL_DECK_MASK & ~seen, trump_card)
        old_masks = self._cards
        if masks != old_masks:
            for index, mask in enumerate(masks):
                if mask != old_masks[index]:
                    _write_cards(buffer, values, _CARD_STARTS[index], old=old_masks[index], new=mask)
            self._cards = masks

        # One-hot blocks, in the order of _ONE_HOT_STARTS.
        slot = self._slot  # a seat (or None) to its relative slot (or -1)
        hot = (
            _TRUMP_SLOT[public.trump_suit],
            _PHASE_SLOT[public.phase],
            slot[public.to_move],
            slot[public.leader],
            slot[public.dealer],
            slot[public.trump_holder],
            slot[public.last_drawer],
        )
        old_hot = self._hot
        if hot != old_hot:
            for index, new in enumerate(hot):
                old = old_hot[index]
                if old != new:
                    start = _ONE_HOT_STARTS[index]
                    if old >= 0:
                        buffer[start + old] = values[start + old] = 0.0
                    if new >= 0:
                        buffer[start + new] = values[start + new] = 1.0
            self._hot = hot

        # Flag blocks, in the order of _FLAG_STARTS (seat groups as bits of relative seats,
        # remembered: the same few groups come back all game).
        bits_of = self._bits_of
        try:
            flags = (bits_of[public.out], bits_of[public.losers], bits_of[public.tie], bits_of[public.due])
        except KeyError:
            for seats in (public.out, public.losers, public.tie, public.due):
                bits_of[seats] = sum(1 << rel[other] for other in set(seats))
            flags = (bits_of[public.out], bits_of[public.losers], bits_of[public.tie], bits_of[public.due])
        old_flags = self._flags
        if flags != old_flags:
            for index, bits in enumerate(flags):
                if bits != old_flags[index]:
                    _write_cards(buffer, values, _FLAG_STARTS[index], old=old_flags[index], new=bits)
            self._flags = flags

        # Counts.
        if public.hand_sizes != self._hand_sizes:
            for other, size in enumerate(public.hand_sizes):
                if size != self._hand_sizes[other]:
                    buffer[_HAND_SIZES + rel[other]] = values[_HAND_SIZES + rel[other]] = _PER_52[size]
            self._hand_sizes = public.hand_sizes
        if public.won_sizes != self._won_sizes:
            for other, size in enumerate(public.won_sizes):
                if size != self._won_sizes[other]:
                    buffer[_WON_SIZES + rel[other]] = values[_WON_SIZES + rel[other]] = _PER_52[size]
            self._won_sizes = public.won_sizes
        scalars = (public.stock_size, public.removed_count, public.trick_size or 0)
        if scalars != self._scalars:
            buffer[_STOCK_SIZE] = values[_STOCK_SIZE] = _PER_52[scalars[0]]
            buffer[_REMOVED_COUNT] = values[_REMOVED_COUNT] = _PER_52[scalars[1]]
            buffer[_TRICK_SIZE] = values[_TRICK_SIZE] = _PER_SIX[scalars[2]]
            self._scalars = scalars
        return self.vector


def _write_cards(buffer: array[float], values: list[float], start: int, *, old: int, new: int) -> None:
    """Rewrite the slots of a card block (or a flag block) whose bit differs from ``old``."""
    changed = old ^ new
    while changed:
        low = changed & -changed
        index = start + low.bit_length() - 1
        buffer[index] = values[index] = 1.0 if new & low else 0.0
        changed ^= low


def _float32(number: float) -> float:
    """``number`` rounded to float32, as the vector stores it."""
    return array("f", [number])[0]


_PER_52 = [_float32(count / NUM_CARDS) for count in range(NUM_CARDS + 1)]
"""Each count of cards / 52, as the vector holds it."""
_PER_SIX = [_float32(count / MAX_SEATS) for count in range(MAX_SEATS + 1)]
"""Each trick size / 6, as the vector holds it."""


_TABLE = SLICES["table_by_seat"].start
_WON = SLICES["won_by_seat"].start
_KNOWN = SLICES["known_by_seat"].start
_CARD_STARTS = tuple(SLICES[name].start for name in (
    "hand", "to_beat", "current_round", "gone", "unseen", "trump_card"))
_PRESENT = SLICES["present"].start
_ONE_HOT_STARTS = tuple(SLICES[name].start for name in (
    "trump_suit", "phase", "to_move", "leader", "dealer", "trump_holder", "last_drawer"))
_FLAG_STARTS = tuple(SLICES[name].start for name in ("out", "losers", "tie", "due"))
_TRUMP_SLOT: dict[int | None, int] = {None: 4, 0: 0, 1: 1, 2: 2, 3: 3}
_PHASE_SLOT = {phase: index for index, phase in enumerate(PHASES)}
_HAND_SIZES = SLICES["hand_sizes"].start
_WON_SIZES = SLICES["won_sizes"].start
_STOCK_SIZE = SLICES["stock_size"].start
_REMOVED_COUNT = SLICES["removed_count"].start
_TRICK_SIZE = SLICES["trick_size"].start
_TRUMP_BIT: dict[int | None, int] = {None: 1 << 4, 0: 1, 1: 2, 2: 4, 3: 8}
_PHASE_BIT = {phase: 1 << index for index, phase in enumerate(PHASES)}


def _packed_layout() -> tuple[int, int, npt.NDArray[np.intp]]:
    """How :meth:`SeatEncoder.pack` lays the vector out: how many words hold 0/1 blocks,
    how many slots those blocks fill (the vector's first ones), and for each such slot its
    bit among the words' bits (word * 64 + bit)."""
    blocks = [(name, SLICES[name].stop - SLICES[name].start) for name in (
        "hand", *["table_by_seat"] * MAX_SEATS, "to_beat", "current_round", *["won_by_seat"] * MAX_SEATS,
        *["known_by_seat"] * MAX_SEATS, "gone", "unseen", "trump_card")]
    columns = [word * 64 + bit for word in range(len(blocks)) for bit in range(NUM_CARDS)]
    small = [("trump_suit", "phase", "to_move", "leader", "dealer", "trump_holder", "last_drawer"),
             ("present", "out", "losers", "tie", "due")]
    for word, names in enumerate(small, start=len(blocks)):
        bit = 0
        for name in names:
            size = SLICES[name].stop - SLICES[name].start
            columns += [word * 64 + bit + index for index in range(size)]
            bit += size
        assert bit <= 64
    assert len(columns) == SLICES["due"].stop == SLICES["hand_sizes"].start
    return len(blocks) + len(small), len(columns), np.array(columns, dtype=np.intp)


_BIT_WORDS, _BIT_SLOTS, _BIT_COLUMNS = _packed_layout()
_CARD_WORDS = SLICES["trump_card"].stop // NUM_CARDS
_CARD_SLOTS = _CARD_WORDS * NUM_CARDS
_SMALL_COLUMNS = _BIT_COLUMNS[_CARD_SLOTS:]
_COUNTS = SLICES["rules"].start - _BIT_SLOTS
PACKED_WORDS: int = _BIT_WORDS + _COUNTS
"""How many whole numbers :meth:`SeatEncoder.pack` gives: the 0/1 blocks as 64-bit masks,
then the counts of ``hand_sizes`` to ``trick_size``."""
_COUNT_SCALE = np.array([_PER_52] * (_COUNTS - 1) + [_PER_SIX + [0.0] * (NUM_CARDS - MAX_SEATS)],
                        dtype=np.float32)
"""Each count's value in the vector, by count column and count (the float32 numbers
:meth:`SeatEncoder.update` writes)."""
_COUNT_COLUMNS = np.arange(_COUNTS)


def unpack_into(packs: Sequence[Sequence[int]], out: npt.NDArray[np.float32],
                rows: npt.NDArray[np.intp] | None = None) -> None:
    """Write the observations of :meth:`SeatEncoder.pack` into ``out`` (or into ``out[rows]``),
    one pack per row, with a few NumPy calls for the whole batch. The ``rules`` block is not
    written: it never changes in a game, so a batch writes it once (:func:`rules_vector`)."""
    count = len(packs)
    numbers = array("Q", chain.from_iterable(packs))  # one C loop over every word of the batch
    words = np.frombuffer(numbers, dtype=np.uint64).reshape(count, PACKED_WORDS)
    bits = np.unpackbits(words[:, :_BIT_WORDS].copy().view(np.uint8), axis=1, bitorder="little")
    blocks = bits.reshape(count, _BIT_WORDS, 64)
    target = out if rows is None else np.empty((count, OBSERVATION_SIZE), dtype=np.float32)
    # The card blocks, 52 bits of a word each, then the few bits of the small blocks' words.
    # a view of the rows (copy=False raises rather than copy)
    cards = np.reshape(target[:, :_CARD_SLOTS], (count, _CARD_WORDS, NUM_CARDS), copy=False)
    cards[...] = blocks[:, :_CARD_WORDS, :NUM_CARDS]
    target[:, _CARD_SLOTS:_BIT_SLOTS] = bits[:, _SMALL_COLUMNS]
    counts = words[:, _BIT_WORDS:].astype(np.intp)
    target[:, _BIT_SLOTS:_BIT_SLOTS + _COUNTS] = _COUNT_SCALE[_COUNT_COLUMNS, counts]
    if rows is not None:
        out[rows, :_BIT_SLOTS + _COUNTS] = target[:, :_BIT_SLOTS + _COUNTS]


def rules_vector(rules: Rules) -> Observation:
    """The numbers of the ``rules`` block (see :data:`LAYOUT`) as float32."""
    return np.array(rules_values(rules), dtype=np.float32)


def action_mask(legal_indices: list[int] | tuple[int, ...]) -> npt.NDArray[np.int8]:
    """A 0/1 vector over every action index (``mattis.NUM_ACTIONS`` long)."""
    mask = bytearray(NUM_ACTIONS)  # filled as bytes and viewed by NumPy: twice as fast as indexing
    for index in legal_indices:
        mask[index] = 1
    return np.frombuffer(mask, dtype=np.int8)


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


__all__ = [
    "LAYOUT", "MAX_SEATS", "OBSERVATION_SIZE", "PACKED_WORDS", "PHASES", "RULES_SIZE", "SLICES",
    "Observation", "SeatEncoder", "SeatPacker", "Slot", "action_mask", "encode_view", "rules_vector",
    "terminal_rewards", "unpack_into",
]
