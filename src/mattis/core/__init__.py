"""The pure rules core: cards, actions, rule options and the game. Standard library only, no I/O."""

from .actions import ALL_ACTIONS, CHANCE, NUM_ACTIONS, PICKUP, Action, ActionKind
from .cards import RANKS, SUITS, card_code, parse_card
from .game import Event, Game, GameResult, IllegalAction, next_dealer
from .rules import (
    PRESET_NAMES,
    PRESETS,
    DrawMode,
    NothingLeft,
    NothingLeftCounts,
    Phase1End,
    Rules,
    TieMode,
    TrickMode,
    TrumpMode,
)

__all__ = [
    "ALL_ACTIONS", "CHANCE", "NUM_ACTIONS", "PICKUP", "PRESETS", "PRESET_NAMES", "RANKS", "SUITS",
    "Action", "ActionKind", "DrawMode", "Event", "Game", "GameResult", "IllegalAction",
    "NothingLeft", "NothingLeftCounts", "Phase1End", "Rules", "TieMode", "TrickMode", "TrumpMode",
    "card_code", "next_dealer", "parse_card",
]
