"""Why an action is refused: one reason code per distinct reason, and one English template each.

:class:`IllegalAction` carries a :class:`Reason` and the ``params`` its message is built
from (card codes, suit letters, numbers), so a front end can say the same thing in another
language by translating the key, and a server can send the code to its client. The English
text comes from :data:`MESSAGES` alone.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Reason(StrEnum):
    """Every distinct reason an action is refused."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    MALFORMED = "malformed"
    """The text (or object) is not an action at all (see :class:`InvalidAction`)."""
    NOT_A_SEQUENCE = "not_a_sequence"
    """Text written as a sequence that is not one (two suits, wrong order)."""
    PICKUP_IN_PHASE1 = "pickup_in_phase1"
    SEQUENCE_IN_PHASE1 = "sequence_in_phase1"
    CHANCE_OFF = "chance_off"
    CHANCE_IN_BATTLE = "chance_in_battle"
    CHANCE_LAST_CARD = "chance_last_card"
    CHANCE_IN_PHASE2 = "chance_in_phase2"
    NOT_IN_HAND = "not_in_hand"
    NOTHING_TO_PICK_UP = "nothing_to_pick_up"
    MUST_BEAT = "must_beat"
    """Picking up is forced-only (``voluntary_pickup=false``) and the player can beat."""
    SEQUENCES_OFF = "sequences_off"
    SEQUENCE_TOO_SHORT = "sequence_too_short"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    WRONG_SUIT = "wrong_suit"
    WRONG_SUIT_TRUMP = "wrong_suit_trump"
    """The target is trump, so only a higher trump beats it."""
    TOO_LOW = "too_low"
    MUST_PICK_UP = "must_pick_up"
    """An empty player under ``must_pick_up`` (P1.10) has nothing to play but must pick up."""


Params = dict[str, str | int]
"""Values a message is built from: card codes (``"7h"``), plays (``"6h-8h"``), suit
letters (``"h"``), seat numbers and counts."""

SUIT_WORDS: Final = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}

MESSAGES: Final[dict[Reason, str]] = {
    Reason.GAME_OVER: "the game is over",
    Reason.NOT_YOUR_TURN: "not your turn: seat {to_move} is to move, not seat {seat}",
    Reason.MALFORMED: "malformed action {text!r}: {problem}",
    Reason.NOT_A_SEQUENCE: "malformed action {text!r}: {problem}",
    Reason.PICKUP_IN_PHASE1: "picking up is only possible in phase 2 (utspilling)",
    Reason.SEQUENCE_IN_PHASE1: "sequences are only played in phase 2 (utspilling)",
    Reason.CHANCE_OFF: "chancing (sjansing) is not allowed in these rules",
    Reason.CHANCE_IN_BATTLE: "battle cards in a war must come from the hand: you cannot chance",
    Reason.CHANCE_LAST_CARD: "you cannot chance: the stock's last card is never chanced",
    Reason.CHANCE_IN_PHASE2: "chancing (sjansing) is only possible in phase 1 (innsamling)",
    Reason.NOT_IN_HAND: "{cards} {verb} not in your hand",
    Reason.NOTHING_TO_PICK_UP: "nothing to pick up: the table is empty",
    Reason.MUST_BEAT: "picking up is not allowed while you can beat {target} (you must beat when you can)",
    Reason.SEQUENCES_OFF: "sequences are not allowed in these rules",
    Reason.SEQUENCE_TOO_SHORT: "a sequence needs at least {length} cards in these rules",
    Reason.MUST_FOLLOW_SUIT: "you must follow suit: you hold {suit_word}, so you may not trump {target}",
    Reason.WRONG_SUIT: "{play} does not beat {target}: play higher {suit_word} or trump, or pick up",
    Reason.WRONG_SUIT_TRUMP: "{play} does not beat {target}: play higher {suit_word}, or pick up",
    Reason.TOO_LOW: "{play} does not beat {target}: its lowest card must be higher than {card}",
    Reason.MUST_PICK_UP: "{play}: you have no cards, so you must pick up",
}
"""The one English template per reason."""


def english(reason: Reason, params: Params) -> str:
    """The English message for ``reason`` (derived words such as ``suit_word`` added here)."""
    values: dict[str, object] = dict(params)
    if "suit" in params:
        values["suit_word"] = SUIT_WORDS.get(str(params["suit"]), str(params["suit"]))
    if "cards" in params:
        values["verb"] = "is" if "," not in str(params["cards"]) else "are"
    return MESSAGES[reason].format(**values)


class IllegalAction(ValueError):
    """An action that may not be played now. The game is unchanged.

    ``reason`` is a stable code for machines and translations; ``params`` holds the values
    the message is built from; ``str(error)`` is the English message.
    """

    reason: Reason
    params: Params

    def __init__(self, reason: Reason, params: Params | None = None) -> None:
        self.reason = reason
        self.params = dict(params or {})
        super().__init__(english(reason, self.params))

    def __reduce__(self) -> tuple[object, tuple[Reason, Params]]:
        return (type(self), (self.reason, self.params))


class InvalidAction(IllegalAction):
    """Not an action at all: malformed text (``"zz"``, ``"7h7s"``) or a hand-built object.

    A subclass of :class:`IllegalAction`, so callers catching that keep working.
    """
