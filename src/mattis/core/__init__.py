"""The pure rules core: cards, actions, rule options and the game. Standard library only, no I/O."""

from .actions import ALL_ACTIONS, CHANCE, NUM_ACTIONS, PICKUP, Action, ActionKind
from .cards import RANKS, SUITS, card_code, parse_card
from .errors import IllegalAction, InvalidAction, Reason
from .events import Event, EventHistory, EventKind
from .game import Game, GameResult, next_dealer
from .observation import VIEW_FORMAT, VIEW_SCHEMA, SeatView
from .phase import Phase
from .position import Position
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
    "VIEW_FORMAT", "VIEW_SCHEMA", "Action", "ActionKind", "DrawMode", "Event", "EventHistory", "EventKind",
    "Game", "GameResult", "IllegalAction", "InvalidAction", "NothingLeft", "NothingLeftCounts", "Phase",
    "Phase1End", "Position", "Reason", "Rules", "SeatView", "TieMode", "TrickMode", "TrumpMode", "card_code",
    "next_dealer", "parse_card",
]
