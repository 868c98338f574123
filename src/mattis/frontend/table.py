"""The table as a player sees it, ready to draw: a front-end-neutral picture of one view.

:func:`table_state` turns ``Game.view(seat)`` (the one place hidden cards are cut away) into
plain values: rows of players with their counts, the current trick or the phase-2 plays
with who played them, the hand in display order, the stock and the trump. The terminal
draws it with rich today; the web front end can send it as JSON tomorrow. :func:`turn_advice`
says in one line what the player to move can do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.actions import PICKUP, Action
from ..core.cards import SUITS, rank_of, suit_of
from ..core.observation import SeatView
from ..core.phase import Phase
from ..core.rules import Rules, TieMode, TrickMode, TrumpMode
from ..i18n import Lang, t
from .cards import card_label, cards_label, play_label, sort_hand, suit_word
from .seats import Participant, join_names, seat_label, seat_name


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One player's public situation."""

    seat: int
    label: str
    hand_size: int
    won_size: int
    dealer: bool
    to_move: bool
    out_place: int | None
    """1 for the first player out (phase 2), …"""
    loser: bool
    in_tie: bool
    holds_trump_card: bool
    """Has put the hidden trump card aside (``hidden_last``, phase 1)."""
    hand: tuple[int, ...] | None = None
    """The cards, when this seat's hand may be shown (your own; every hand in a replay)."""


@dataclass(frozen=True, slots=True)
class TableEntry:
    """A card or play on the table and who put it there."""

    seat: int
    name: str
    cards: tuple[int, ...]

    @property
    def label(self) -> str:
        """``7♥`` or ``6♥–8♥``."""
        return cards_label(self.cards)


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything one seat sees, in display form."""

    seat: int
    phase: str
    rules: Rules
    rows: tuple[SeatRow, ...]
    hand: tuple[int, ...]
    trick: tuple[TableEntry, ...]
    """Phase 1: the current trick in play order (tie cards included)."""
    plays: tuple[TableEntry, ...]
    """Phase 2: the plays on the table, oldest first."""
    tie: tuple[int, ...]
    stock_size: int
    trump_suit: int | None
    """``None`` while unknown."""
    trump_card: int | None
    """``None`` while its face is hidden."""
    trump_holder: int | None
    trick_size: int | None
    to_move: int | None
    losers: tuple[int, ...]
    out_order: tuple[int, ...]

    @property
    def trump(self) -> str | None:
        """The trump suit letter, if known."""
        return None if self.trump_suit is None else SUITS[self.trump_suit]


def table_state(
    view: Mapping[str, Any],
    participants: Sequence[Participant],
    lang: Lang,
    show_hands: Mapping[int, Sequence[str]] | None = None,
) -> TableState:
    """The display picture of ``view``. ``show_hands`` adds other seats' hands (replays
    only: a live game shows nobody another player's cards)."""
    public = SeatView.from_dict(view)
    phase, trump, seat = public.phase, public.trump, public.seat
    rows = []
    for person in participants:
        s = person.seat
        hand: tuple[int, ...] | None = None
        if show_hands is not None and s in show_hands:
            hand = tuple(sort_hand(show_hands[s], phase, trump))
        elif s == seat:
            hand = tuple(sort_hand(public.hand_cards, phase, trump))
        rows.append(SeatRow(
            seat=s, label=seat_label(person, lang), hand_size=public.hand_sizes[s],
            won_size=public.won_sizes[s], dealer=s == public.dealer, to_move=s == public.to_move,
            out_place=public.out_order.index(s) + 1 if s in public.out_order else None,
            loser=s in public.losers, in_tie=s in public.tie,
            holds_trump_card=phase == Phase.COLLECT and public.trump_holder == s, hand=hand))
    trick = tuple(TableEntry(s, seat_name(participants[s], lang), (card,)) for s, card in public.trick)
    plays = tuple(TableEntry(s, seat_name(participants[s], lang), play.cards) for s, play in public.plays)
    return TableState(
        seat=seat, phase=phase, rules=public.rules, rows=tuple(rows),
        hand=tuple(sort_hand(public.hand_cards, phase, trump)), trick=trick, plays=plays,
        tie=public.tie, stock_size=public.stock_size, trump_suit=public.trump_suit,
        trump_card=public.trump_card, trump_holder=public.trump_holder,
        trick_size=public.trick_size, to_move=public.to_move, losers=public.losers,
        out_order=public.out_order,
    )


def current_best(public: SeatView) -> tuple[int, list[int]] | None:
    """Phase 1: the highest card of the round being played and the seats holding that rank
    (more than one means a tie is coming), or ``None`` before the first card."""
    played = public.current_round
    if not played:
        return None
    top = max(rank_of(card) for _, card in played)
    best_card = max((card for _, card in played if rank_of(card) == top))
    return best_card, [s for s, card in played if rank_of(card) == top]


def turn_advice(
    view: Mapping[str, Any] | SeatView,
    participants: Sequence[Participant],
    legal: Sequence[Action],
    lang: Lang,
) -> str:
    """One line telling the player to move what they can do right now."""
    public = view if isinstance(view, SeatView) else SeatView.from_dict(view)
    rules = public.rules
    if public.phase == Phase.COLLECT:
        if public.tie:
            names = join_names([seat_name(participants[s], lang, initial=False) for s in public.tie],
                               lang)
            key = {TieMode.REPLAY: "play.advice.tie_replay", TieMode.TWO_CARDS: "play.advice.tie_two",
                   TieMode.ANY_MATCH: "play.advice.tie_battle"}[rules.tie]
            return t(key, lang, names=names, count=len(public.trick))
        best = current_best(public)
        if best is None:
            if rules.trick is TrickMode.PAIR and len(public.due) > 1:  # P1.2 pair: a duel
                opponent = seat_name(participants[public.due[1]], lang, initial=False)
                return t("play.advice.lead1_pair", lang, who=opponent)
            return t("play.advice.lead1", lang)
        card, seats = best
        holders = join_names([seat_name(participants[s], lang, initial=False) for s in seats], lang)
        key = "play.advice.beat1" if len(seats) == 1 else "play.advice.beat1_tied"
        return t(key, lang, card=card_label(card), who=holders)
    if not public.plays:
        if not public.hand:
            return t("play.advice.empty_hand", lang)
        return t("play.advice.lead2", lang)
    newest = public.plays[-1][1]
    target = play_label(newest)
    oldest = play_label(public.plays[0][1])
    plays = [action for action in legal if action is not PICKUP]
    # P2.5 follow suit: holding the newest play's suit forbids trumping it
    no_trumping = (rules.follow_suit and newest.suit != public.trump_suit
                   and any(suit_of(card) == newest.suit for card in public.hand_cards))
    suit = suit_word(newest.suit, lang)
    if not plays:
        key = "play.advice.must_pick_up_follow" if no_trumping else "play.advice.must_pick_up"
        return t(key, lang, target=target, oldest=oldest, suit=suit)
    if PICKUP not in legal:
        return t("play.advice.must_beat", lang, target=target)
    key = "play.advice.beat_or_pick_up_follow" if no_trumping else "play.advice.beat_or_pick_up"
    return t(key, lang, target=target, oldest=oldest, suit=suit)


def status_line(state: TableState, lang: Lang) -> str:
    """Phase, stock and trump in one line."""
    parts = [t("play.phase." + state.phase, lang)]
    if state.phase == Phase.COLLECT:
        parts.append(t("play.status.stock", lang, count=state.stock_size))
    parts.append(trump_text(state, lang))
    if state.phase == Phase.SHED and state.trick_size:
        parts.append(t("play.status.trick_size", lang, count=state.trick_size,
                       played=len(state.plays)))
    return " · ".join(parts)


def trump_text(state: TableState, lang: Lang) -> str:
    """What is known about trump: the suit and card, or why it is still hidden."""
    if state.trump_suit is not None:
        if state.trump_card is not None:
            return t("play.status.trump_card", lang, suit=suit_word(state.trump_suit, lang),
                     card=card_label(state.trump_card))
        return t("play.status.trump", lang, suit=suit_word(state.trump_suit, lang))
    if state.rules.trump is TrumpMode.HIDDEN_LAST and state.trump_holder is not None:
        return t("play.status.trump_aside", lang)
    return t("play.status.trump_hidden", lang)
