"""What just happened, in sentences: "Kari la 7♥", "Ola sjanset og fikk K♠".

Every front end tells players what the others did from the game's public history events
(:class:`~mattis.core.events.Event`), which is exactly what everyone at a real table saw. A :class:`Narrator`
is fed the events in order, from the first, because a few sentences depend on what came
before: a player who loses before phase 2 is *Blåmattis*, and going out is numbered.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core.cards import cards_in, rank_of, suit_of
from ..core.events import Event, EventKind
from ..core.game import Game
from ..core.rules import NothingLeftCounts, Rules, TieMode, TrumpMode
from ..i18n import Lang, lost_on_empty_name, t
from .cards import card_label, mask_label, suit_word
from .seats import Participant, join_names, seat_name


class Narrator:
    """Turns history events into sentences for one language and one table of players."""

    def __init__(self, participants: Sequence[Participant], rules: Rules, lang: Lang) -> None:
        self.participants = list(participants)
        self.rules = rules
        self.lang = lang
        self._shedding = False
        self._out_count = 0
        self._trick: list[tuple[int, int]] = []
        """Phase 1: the cards of the trick so far, to name the card that won it."""

    def _who(self, seat: int | None, initial: bool = True) -> str:
        assert seat is not None, "this kind of event always names a seat"
        return seat_name(self.participants[seat], self.lang, initial)

    def _is_you(self, seat: int | None) -> bool:
        return seat is not None and 0 <= seat < len(self.participants) and self.participants[seat].human

    def describe(self, events: Iterable[Event]) -> list[str]:
        """One sentence per event worth telling (every kind is, today), in order."""
        lines: list[str] = []
        for event in events:
            line = self.describe_one(event)
            if line:
                lines.append(line)
        return lines

    def describe_one(self, event: Event, stand_in: bool = False) -> str | None:
        """The sentence for one event; call in history order (see the module docstring).
        ``stand_in``: a bot made this move for its person while they were away, and the
        sentence says so ("A robot played K♣ for you")."""
        kind, seat, mask = event.kind, event.seat, event.mask
        lang = self.lang
        count = mask.bit_count()
        if kind in (EventKind.PLAY, EventKind.CHANCE) and not self._shedding and seat is not None:
            self._trick.extend((seat, card) for card in cards_in(mask))
        stood_in = ("_stand_in_you" if self._is_you(seat) else "_stand_in") if stand_in else ""
        if kind == EventKind.PLAY:
            return t("play.ev.play" + stood_in, lang, who=self._who(seat), cards=mask_label(mask))
        if kind == EventKind.CHANCE:
            return t("play.ev.chance" + stood_in, lang, who=self._who(seat), card=mask_label(mask))
        if kind == EventKind.PICKUP:
            return t("play.ev.pickup" + stood_in, lang, who=self._who(seat), cards=mask_label(mask))
        if kind == EventKind.WON:
            assert seat is not None
            card = self._winning_card(seat)
            self._trick = []
            return t("play.ev.won", lang, who=self._who(seat), count=count,
                     card=card_label(card) if card >= 0 else "?")
        if kind == EventKind.ASIDE:
            return t("play.ev.aside", lang, who=self._who(seat))
        if kind == EventKind.DROP:
            return t("play.ev.drop", lang, who=self._who(seat))
        if kind == EventKind.BACK:
            self._trick = []
            return t("play.ev.back", lang, cards=mask_label(mask))
        if kind == EventKind.REVEAL:
            return self._reveal(seat, mask)
        if kind == EventKind.DRAW_TRUMP:
            return t("play.ev.draw_trump", lang, who=self._who(seat), card=mask_label(mask))
        if kind == EventKind.SHED:
            self._shedding = True
            return t("play.ev.shed", lang, who=self._who(seat, initial=False))
        if kind == EventKind.CLEAR:
            return t("play.ev.clear", lang, count=count)
        if kind == EventKind.OUT:
            self._out_count += 1
            return t("play.ev.out", lang, who=self._who(seat), place=self._out_count)
        if kind == EventKind.LOSE:
            you = "_you" if self._is_you(seat) else ""
            if self._shedding:
                return t("play.ev.lose" + you, lang, who=self._who(seat))
            name = lost_on_empty_name(self.rules.nothing_left_counts)
            key = ("play.ev.lose_blod" if self.rules.nothing_left_counts is NothingLeftCounts.WON_PILE
                   else "play.ev.lose_blaa")
            return t(key + you, lang, who=self._who(seat), name=name)
        return None

    def _winning_card(self, winner: int) -> int:
        """The card that took the trick: the winner's last card, or with a two-card war
        (P1.5 ``two_cards``) the better of their last two."""
        cards = [card for seat, card in self._trick if seat == winner]
        if not cards:
            return -1
        if self.rules.tie is TieMode.TWO_CARDS and len(cards) >= 3:
            return max(cards[-2:], key=rank_of)
        return cards[-1]

    def _reveal(self, seat: int | None, mask: int) -> str | None:
        cards = list(cards_in(mask))
        if not cards:
            return None
        card = cards[0]
        suit = suit_word(suit_of(card), self.lang)
        if self.rules.trump is TrumpMode.BOTTOM_UP:
            return t("play.ev.trump_known", self.lang, card=card_label(card), suit=suit)
        if seat is not None:
            return t("play.ev.reveal", self.lang, who=self._who(seat), card=card_label(card),
                     suit=suit)
        return t("play.ev.reveal_unheld", self.lang, card=card_label(card), suit=suit)


def result_headline(game: Game, participants: Sequence[Participant], lang: Lang) -> str:
    """Who is Mattis, as a headline: "Ola er Mattis!", "Du er Blåmattis: ingen kort …"."""
    result = game.result
    if result is None:
        return t("play.replay_unfinished", lang)
    names = [seat_name(participants[s], lang, initial=index == 0)
             for index, s in enumerate(result.losers)]
    you = any(participants[s].human for s in result.losers)
    key = "play.result_empty" if result.lost_on_empty else "play.result"
    if you and len(names) == 1:
        key += "_you"  # "You are", where a name "is"; a plural form counts the losers
    name = lost_on_empty_name(game.rules.nothing_left_counts)
    return t(key, lang, who=join_names(names, lang), name=name, count=len(names))


def out_order_line(game: Game, participants: Sequence[Participant], lang: Lang) -> str | None:
    """The order in which players went out, "1. Du  2. Kari", or ``None`` if nobody did."""
    if not game.out_order:
        return None
    order = "  ".join(f"{place}. {seat_name(participants[s], lang)}"
                      for place, s in enumerate(game.out_order, start=1))
    return t("play.out_order", lang, order=order)


def result_fate_line(game: Game, participants: Sequence[Participant], lang: Lang) -> str | None:
    """What the game did to the reader, in plain words: "Du tapte – du er Mattis", "Du gikk
    ut først", "Du kom ut som nr. 2 av 4". A reader without a seat (no participant is
    ``human``) reads the losers' fate in the third person: "Kari tapte og er Mattis".
    ``None`` while the game is not over."""
    result = game.result
    if result is None:
        return None
    name = lost_on_empty_name(game.rules.nothing_left_counts) if result.lost_on_empty else "Mattis"
    you = next((person.seat for person in participants if person.human), None)
    if you is None:
        names = [seat_name(participants[s], lang, initial=index == 0)
                 for index, s in enumerate(result.losers)]
        return t("play.fate_lost", lang, who=join_names(names, lang), name=name, count=len(names))
    if you in result.losers:
        return t("play.fate_lost_you", lang, name=name)
    if you not in result.out_order:
        return t("play.you_escaped", lang)  # a deal ended by Blåmattis/Blodmattis (P1.10)
    place = result.out_order.index(you) + 1
    if place == 1:
        return t("play.fate_first_you", lang)
    return t("play.fate_place_you", lang, place=place, players=len(participants))
