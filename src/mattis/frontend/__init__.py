"""Presentation shared by every front end: cards as people read them, what a player types,
what just happened and why (the move log, :class:`TableStory`; a bot's and the hint's
reasons), the table as a player sees it, saved games and matches.

No terminal or web code lives here, and no game loop: every front end plays on the table
layer (:mod:`mattis.table`), which uses these pieces.
"""

from .cards import action_label, card_label, card_name, card_role, cards_label, sort_actions, sort_hand
from .explain import explain_illegal
from .inputs import Command, CommandInput, InputError, MoveInput, parse_input
from .match import ConsecutiveSeeds, Match, MatchSecret, MoveSeeds, SeatStreams, SeedPlan
from .narrate import Narrator, out_order_line, result_headline
from .reasons import bot_reason, hint_reason
from .record import LoadedGame, RecordError, load_record, play_record, save_record
from .seats import BOT_NAMES, Participant, make_participants, seat_label, seat_name
from .story import Announcement, LogLine, TableStory
from .table import TableState, table_state, turn_advice

__all__ = [
    "BOT_NAMES",
    "Announcement",
    "Command",
    "CommandInput",
    "ConsecutiveSeeds",
    "InputError",
    "LoadedGame",
    "LogLine",
    "Match",
    "MatchSecret",
    "MoveInput",
    "MoveSeeds",
    "Narrator",
    "Participant",
    "RecordError",
    "SeatStreams",
    "SeedPlan",
    "TableState",
    "TableStory",
    "action_label",
    "bot_reason",
    "card_label",
    "card_name",
    "card_role",
    "cards_label",
    "explain_illegal",
    "hint_reason",
    "load_record",
    "make_participants",
    "out_order_line",
    "parse_input",
    "play_record",
    "result_headline",
    "save_record",
    "seat_label",
    "seat_name",
    "sort_actions",
    "sort_hand",
    "table_state",
    "turn_advice",
]
