"""The rule options as the engine reads them on every move (see :class:`EngineOptions`)."""

from __future__ import annotations

from .rules import DrawMode, NothingLeft, NothingLeftCounts, Phase1End, Rules, TieMode, TrickMode, TrumpMode


class EngineOptions:
    """The rule options the engine reads while it plays, made once per :class:`Rules` value
    (:func:`options_for`). Every game holds one in place of its rules, so a move reads an
    option with one attribute hop, as from the rules, and a compiled build reads a field of
    its own class rather than an attribute of a Python object (``rules.py`` stays
    uncompiled: its dataclass takes option text at run time, see :mod:`mattis.core.rules`)."""

    __slots__ = ("any_match", "chance", "draw", "draws_after_play", "ends_on_no_card", "ends_on_one_left",
                 "ends_on_stock_empty", "everyone_plays", "follow_suit", "hidden_trump", "nothing_left",
                 "nothing_left_counts", "phase1_end", "rules", "tie", "trick", "trump", "two_cards",
                 "voluntary_pickup")

    def __init__(self, rules: Rules) -> None:
        self.rules: Rules = rules
        self.chance: bool = rules.chance
        self.draw: DrawMode = rules.draw
        self.tie: TieMode = rules.tie
        self.trump: TrumpMode = rules.trump
        self.trick: TrickMode = rules.trick
        self.phase1_end: Phase1End = rules.phase1_end
        self.nothing_left: NothingLeft = rules.nothing_left
        self.nothing_left_counts: NothingLeftCounts = rules.nothing_left_counts
        self.follow_suit: bool = rules.follow_suit
        self.voluntary_pickup: bool = rules.voluntary_pickup
        # The comparisons the hot path makes, as booleans:
        self.any_match: bool = rules.tie is TieMode.ANY_MATCH
        self.two_cards: bool = rules.tie is TieMode.TWO_CARDS
        self.draws_after_play: bool = rules.draw is DrawMode.AFTER_PLAY
        self.hidden_trump: bool = rules.trump is TrumpMode.HIDDEN_LAST
        self.ends_on_no_card: bool = rules.phase1_end is Phase1End.NO_CARD
        self.ends_on_one_left: bool = rules.phase1_end is Phase1End.ONE_LEFT
        self.ends_on_stock_empty: bool = rules.phase1_end is Phase1End.STOCK_EMPTY
        self.everyone_plays: bool = rules.trick is TrickMode.ALL

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EngineOptions) and self.rules == other.rules

    __hash__ = None  # type: ignore[assignment]


_CACHE: dict[int, EngineOptions] = {}
"""The options of recently used :class:`Rules` values by ``id``; each entry holds its rules,
so while it is here no other value can have that ``id``."""


def options_for(rules: Rules) -> EngineOptions:
    """The options of ``rules``, made once: a searching bot starts a game from a position
    thousands of times a move, always with the same rules."""
    options = _CACHE.get(id(rules))
    if options is None or options.rules is not rules:
        if len(_CACHE) >= 64:  # many rules values (a long-running server): start afresh
            _CACHE.clear()
        options = _CACHE[id(rules)] = EngineOptions(rules)
    return options
