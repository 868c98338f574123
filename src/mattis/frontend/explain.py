"""Why a move is not allowed, in the player's language.

The rules core explains a rejected action in English (``IllegalAction``). Norwegian players
deserve the same explanation in bokmål, so this module derives it again from the player's
own view, in the same order and with the same wording as the core (a test checks that the
English texts are identical to the core's for many random positions). It only ever runs
after the core has rejected the move, so it never decides legality itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core.actions import CHANCE, PICKUP, Action
from ..core.cards import SUIT_MASKS, SUITS, mask_of, parse_card
from ..core.rules import Rules, TieMode
from ..i18n import Lang, t
from .cards import card_label, play_label, suit_word


def table_play(cards: list[str]) -> Action:
    """The action a phase-2 table entry (its list of card codes) was played as."""
    if len(cards) == 1:
        return Action.parse(cards[0])
    return Action.parse(f"{cards[0]}-{cards[-1]}")


def explain_illegal(
    view: Mapping[str, Any],
    action: Action,
    lang: Lang,
    *,
    play_text: Callable[[Action], str] = play_label,
    card_text: Callable[[int], str] = card_label,
) -> str:
    """Why ``action`` may not be played by the seat of ``view`` (which must be to move).

    ``play_text`` and ``card_text`` choose how cards are written (the default is ``7♥``); the
    tests pass the core's codes to compare with ``IllegalAction`` messages.
    """
    rules = Rules.from_dict(dict(view["rules"]))
    hand = mask_of(parse_card(code) for code in view["hand"])
    if view["phase"] == "collect":
        if action is PICKUP:
            return t("play.why.pickup_phase1", lang)
        if action.is_sequence:
            return t("play.why.sequence_phase1", lang)
        if action is CHANCE:
            if not rules.chance:
                return t("play.why.chance_off", lang)
            if view["tie"] and rules.tie is TieMode.ANY_MATCH:
                return t("play.why.chance_battle", lang)
            return t("play.why.chance_last", lang)
        return t("play.why.not_in_hand", lang, play=play_text(action))
    if action is CHANCE:
        return t("play.why.chance_phase2", lang)
    table = view["table"]
    if action is PICKUP:
        if not table:
            return t("play.why.pickup_empty", lang)
        return t("play.why.must_beat", lang, target=play_text(table_play(table[-1][1])))
    missing = action.mask & ~hand
    if missing:
        cards = [card for card in action.cards if missing >> card & 1]
        key = "play.why.missing_one" if len(cards) == 1 else "play.why.missing_many"
        return t(key, lang, cards=", ".join(card_text(card) for card in cards))
    if action.is_sequence:
        if not rules.min_sequence:
            return t("play.why.sequence_off", lang)
        if len(action.cards) < rules.min_sequence:
            return t("play.why.sequence_short", lang, n=rules.min_sequence)
    if not table:
        return t("play.why.not_now", lang, play=play_text(action))
    target = table_play(table[-1][1])
    trump = SUITS.index(view["trump"]) if view["trump"] else -1
    if (action.suit == trump and target.suit != trump and rules.follow_suit
            and hand & SUIT_MASKS[target.suit]):
        return t("play.why.follow_suit", lang, suit=suit_word(target.suit, lang),
                 target=play_text(target))
    if action.suit != target.suit and action.suit != trump:
        key = "play.why.wrong_suit" if target.suit != trump else "play.why.wrong_suit_trump"
        return t(key, lang, play=play_text(action), target=play_text(target),
                 suit=suit_word(target.suit, lang))
    return t("play.why.too_low", lang, play=play_text(action), target=play_text(target),
             card=card_text(target.high))
