"""Actions: small frozen values with a text form that parses back exactly.

There are four kinds: playing one card (``"7h"``), playing a sequence lowest-highest
(``"6h-8h"``, phase 2 only), chancing the top of the stock (``"chance"``, *sjansing*) and
picking up the oldest play on the table (``"pickup"``). Every possible action exists once:
:func:`Action.parse` and the game's legal-move lists hand out the same interned objects,
which keeps legal-move generation allocation-free and comparisons cheap.

Each action also has a dense integer :attr:`Action.index` (0-365) for RL adapters.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from .cards import CARD_CODES, Card, parse_card, rank_of, suit_of
from .errors import InvalidAction, Reason


class ActionKind(IntEnum):
    """What an action does. The order is the order of legal-action lists."""

    PLAY = 0
    CHANCE = 1
    PICKUP = 2


class Action:
    """One move. Create actions with :meth:`parse`, :meth:`single`, :meth:`sequence`,
    :data:`CHANCE` or :data:`PICKUP`; never construct them directly."""

    __slots__ = ("_text", "cards", "high", "index", "kind", "low", "mask", "suit")

    kind: ActionKind
    cards: tuple[Card, ...]
    """The cards played, lowest first (empty for chance and pick-up)."""
    mask: int
    """The played cards as a mask."""
    low: Card
    """The lowest played card (-1 for chance and pick-up)."""
    high: Card
    """The highest played card (-1 for chance and pick-up)."""
    suit: int
    """The suit of the played cards (-1 for chance and pick-up)."""
    index: int
    """A dense integer id 0..365, stable across versions, for RL adapters."""

    def __init__(self, kind: ActionKind, cards: tuple[Card, ...], index: int) -> None:
        self.kind = kind
        self.cards = cards
        self.mask = 0
        for card in cards:
            self.mask |= 1 << card
        self.low = cards[0] if cards else -1
        self.high = cards[-1] if cards else -1
        self.suit = suit_of(cards[0]) if cards else -1
        self.index = index
        if kind is ActionKind.CHANCE:
            self._text = "chance"
        elif kind is ActionKind.PICKUP:
            self._text = "pickup"
        elif len(cards) == 1:
            self._text = CARD_CODES[cards[0]]
        else:
            self._text = f"{CARD_CODES[cards[0]]}-{CARD_CODES[cards[-1]]}"

    @property
    def is_sequence(self) -> bool:
        """True for a play of two or more cards (a *serie*)."""
        return len(self.cards) > 1

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    # Equality is identity (object's own): every real action exists once, so two equal
    # actions are the same object, and a hand-built look-alike equals none of them.

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Action) -> bool:
        return self.sort_key < other.sort_key

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Pickling (worker processes) must give back the interned object.
        return (Action.parse, (self._text,))

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Plays by lowest then highest card, then chance, then pick-up."""
        return (int(self.kind), self.low, self.high)

    @staticmethod
    def single(card: Card) -> Action:
        """The action of playing ``card`` alone."""
        return SINGLES[card]

    @staticmethod
    def sequence(low: Card, high: Card) -> Action:
        """The action of playing ``low`` up to ``high`` (same suit, ``low < high``) at once."""
        if suit_of(low) != suit_of(high) or low >= high:
            raise ValueError(
                f"malformed sequence {CARD_CODES[low]}-{CARD_CODES[high]}: "
                "a sequence runs from a lower to a higher card of one suit"
            )
        return SEQUENCES[low][high]

    @staticmethod
    def parse(text: object) -> Action:
        """Parse action text: ``"7h"``, ``"6h-8h"``, ``"chance"`` or ``"pickup"``.

        Raises :class:`~mattis.core.errors.InvalidAction` (a ``ValueError``) naming what is
        malformed, for anything given (hence ``object``: a compiled build, which checks
        argument types, raises the same). An :class:`Action` is returned as it is only if it
        is one of the engine's own interned actions: a hand-built object is refused, so what
        is checked is what runs.
        """
        if isinstance(text, Action):
            index = text.index
            if (isinstance(index, int) and 0 <= index < len(_BY_INDEX)
                    and _BY_INDEX[index] is text):
                return text
            raise InvalidAction(Reason.MALFORMED, {
                "text": _short(repr(text)), "problem": "not one of the engine's actions (use Action.parse)"})
        if not isinstance(text, str):
            raise InvalidAction(Reason.MALFORMED, {
                "text": _short(repr(text)), "problem": "expected text such as '7h' or 'pickup'"})
        if len(text) > MAX_ACTION_TEXT:
            raise InvalidAction(Reason.MALFORMED, {
                "text": _short(text), "problem": "far too long for an action"})
        cleaned = text.strip().lower()
        if cleaned == "chance":
            return CHANCE
        if cleaned in ("pickup", "pick-up", "pick up"):
            return PICKUP
        if "-" in cleaned:
            parts = cleaned.split("-")
            if len(parts) != 2:
                raise _not_sequence(text, "a sequence is written lowest-highest, like '6h-8h'")
            try:
                low, high = parse_card(parts[0]), parse_card(parts[1])
            except ValueError as error:
                raise _not_sequence(text, f"a sequence is written like '6h-8h' ({error})") from None
            if suit_of(low) != suit_of(high):
                raise _not_sequence(text, "a sequence must be of one suit")
            if rank_of(low) >= rank_of(high):
                raise _not_sequence(text, "a sequence is written lowest-highest, like '6h-8h'")
            return SEQUENCES[low][high]
        try:
            return SINGLES[parse_card(cleaned)]
        except ValueError as error:
            raise InvalidAction(Reason.MALFORMED, {
                "text": text,
                "problem": f"expected a card like '7h', a sequence like '6h-8h', 'chance' or 'pickup' "
                           f"({error})"}) from None


MAX_ACTION_TEXT = 64
"""Longer text is refused before any parsing (hostile input stays cheap)."""


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _not_sequence(text: str, problem: str) -> InvalidAction:
    return InvalidAction(Reason.NOT_A_SEQUENCE, {"text": text, "problem": problem})


def _build_tables() -> tuple[tuple[Action, ...], tuple[dict[Card, Action], ...], list[Action]]:
    singles = tuple(Action(ActionKind.PLAY, (card,), card) for card in range(52))
    sequences: list[dict[Card, Action]] = [{} for _ in range(52)]
    by_index: list[Action] = list(singles)
    for suit in range(4):
        for low_rank in range(13):
            for high_rank in range(low_rank + 1, 13):
                low, high = suit * 13 + low_rank, suit * 13 + high_rank
                action = Action(ActionKind.PLAY, tuple(range(low, high + 1)), len(by_index))
                sequences[low][high] = action
                by_index.append(action)
    return singles, tuple(sequences), by_index


_TABLES = _build_tables()
SINGLES: Final = _TABLES[0]
SEQUENCES: Final = _TABLES[1]
_BY_INDEX: Final = _TABLES[2]
RUNS: Final = tuple(tuple(row[high] for high in sorted(row)) for row in SEQUENCES)
"""The sequences from each card upwards, shortest first: ``RUNS[low][high - low - 1]`` is
``SEQUENCES[low][high]``, for the legal-move generator (a tuple index, not a dict look-up)."""
CHANCE: Final = Action(ActionKind.CHANCE, (), len(_BY_INDEX))
_BY_INDEX.append(CHANCE)
PICKUP: Final = Action(ActionKind.PICKUP, (), len(_BY_INDEX))
_BY_INDEX.append(PICKUP)
ALL_ACTIONS: tuple[Action, ...] = tuple(_BY_INDEX)
"""Every action, indexed by :attr:`Action.index`."""
NUM_ACTIONS: Final = len(ALL_ACTIONS)
