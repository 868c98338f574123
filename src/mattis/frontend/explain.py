"""Why a move is not allowed, in the player's language.

The rules core refuses a move with an :class:`~mattis.core.errors.IllegalAction` carrying a
reason code and the values its message is built from (card codes, suit letters, numbers).
Here each code is translated (key ``play.why.<reason>``) and each value is written the way
players read it (``7♥``, ``hjerter``); the core alone decides legality and its reasons.
"""

from __future__ import annotations

from ..core.actions import Action
from ..core.cards import SUITS, parse_card
from ..core.errors import IllegalAction, Reason
from ..i18n import Lang, t
from .cards import card_label, play_label, suit_word


def _play_text(code: str) -> str:
    try:
        return play_label(Action.parse(code))
    except ValueError:
        return code


def display_params(error: IllegalAction, lang: Lang) -> dict[str, object]:
    """The refusal's values as players read them."""
    shown: dict[str, object] = {}
    for name, value in error.params.items():
        text = str(value)
        if name in ("play", "target"):
            shown[name] = _play_text(text)
        elif name == "card":
            shown[name] = card_label(parse_card(text))
        elif name == "cards":
            codes = [code.strip() for code in text.split(",")]
            shown[name] = ", ".join(card_label(parse_card(code)) for code in codes)
        elif name == "suit" and text in SUITS:
            shown[name] = suit_word(SUITS.index(text), lang)
        else:
            shown[name] = value
    return shown


def explain_illegal(error: IllegalAction, lang: Lang) -> str:
    """The reason ``error`` gives, in ``lang``."""
    key = f"play.why.{error.reason.value}"
    params = display_params(error, lang)
    if error.reason is Reason.NOT_IN_HAND:  # "is" or "are": a plural form, by the cards named
        params["count"] = len(str(error.params.get("cards", "")).split(","))
    return t(key, lang, **params)
