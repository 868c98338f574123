"""Mattis: the Norwegian card game, as a rules engine, bots and front ends.

The rules core (:mod:`mattis.core`) is pure Python with no I/O; everything else calls it::

    import mattis
    game = mattis.Game.new("pagat", players=3, seed=1)
    game.apply(game.legal_actions()[0])

A compiled install runs the core and the search from extension modules built from these same
sources (:mod:`mattis.build`); ``MATTIS_PURE=1`` makes it run the sources.
"""

from .build import choose_modules

choose_modules()  # before the core is imported: MATTIS_PURE=1 picks the Python sources

from .core import (  # noqa: E402 (after choose_modules, on purpose)
    ALL_ACTIONS,
    CHANCE,
    NUM_ACTIONS,
    PICKUP,
    PRESET_NAMES,
    PRESETS,
    VIEW_FORMAT,
    VIEW_SCHEMA,
    Action,
    ActionKind,
    DrawMode,
    Event,
    EventKind,
    Game,
    GameResult,
    IllegalAction,
    InvalidAction,
    NothingLeft,
    NothingLeftCounts,
    Phase,
    Phase1End,
    Position,
    Reason,
    Rules,
    SeatView,
    TieMode,
    TrickMode,
    TrumpMode,
    card_code,
    next_dealer,
    parse_card,
)

__version__ = "0.1.0"

__all__ = [
    "ALL_ACTIONS",
    "CHANCE",
    "NUM_ACTIONS",
    "PICKUP",
    "PRESETS",
    "PRESET_NAMES",
    "VIEW_FORMAT",
    "VIEW_SCHEMA",
    "Action",
    "ActionKind",
    "DrawMode",
    "Event",
    "EventKind",
    "Game",
    "GameResult",
    "IllegalAction",
    "InvalidAction",
    "NothingLeft",
    "NothingLeftCounts",
    "Phase",
    "Phase1End",
    "Position",
    "Reason",
    "Rules",
    "SeatView",
    "TieMode",
    "TrickMode",
    "TrumpMode",
    "__version__",
    "card_code",
    "next_dealer",
    "parse_card",
]
