"""Presentation shared by every front end: cards as people read them, what a player types,
what just happened and why (the move log, :class:`TableStory`), the table as a player sees
it, saved games and the game loop.

No terminal or web code lives here; :mod:`mattis.terminal` draws with rich, and a web front
end can use the same pieces.
"""

from .cards import action_label, card_label, card_name, card_role, cards_label, sort_actions, sort_hand
from .explain import explain_illegal
from .inputs import Command, CommandInput, InputError, MoveInput, parse_input
from .match import ConsecutiveSeeds, Match, MatchSecret, SeedPlan
from .narrate import Narrator, out_order_line, result_headline
from .record import LoadedGame, RecordError, load_record, play_record, save_record
from .seats import BOT_NAMES, Participant, make_participants, seat_label, seat_name
from .session import Asked, Blank, GameSession, Hint, Moved, News, Rejected, Reply, bot_reason
from .story import Announcement, LogLine, TableStory
from .table import TableState, table_state, turn_advice

__all__ = [
    "BOT_NAMES",
    "Announcement",
    "Asked",
    "Blank",
    "Command",
    "CommandInput",
    "ConsecutiveSeeds",
    "GameSession",
    "Hint",
    "InputError",
    "LoadedGame",
    "LogLine",
    "Match",
    "MatchSecret",
    "MoveInput",
    "Moved",
    "Narrator",
    "News",
    "Participant",
    "RecordError",
    "Rejected",
    "Reply",
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
