"""A shared table of Mattis that any host can drive: the web server, the offline app, tests.

:class:`TableSession` is the table (seats, match, game, each seat's story and messages) with
no sockets, database or event loop; :class:`TableHost` is what a host provides, and
:func:`perform`, :func:`carry_out`, :func:`play_bot_turn` and :func:`drive_bots` are the steps
every host takes; :mod:`.protocol` reads and dispatches a seat's messages for every host.
"""

from .errors import IllegalMove, Refusal
from .host import TableHost, carry_out, drive_bots, perform, play_bot_turn
from .jobs import BotJob, DecisionParts, HintJob, Job, choose_move, run_job, suggest_move
from .memory import MemoryStore
from .rows import ActionRow, NewGame, NewTable, Row, StoredGame, StoredTable, TableUpdate
from .seats import Seat, SeatKind, clean_name, hash_token
from .session import BotTurn, Outcome, Reader, TableConfig, TableSession

__all__ = [
    "ActionRow",
    "BotJob",
    "BotTurn",
    "DecisionParts",
    "HintJob",
    "IllegalMove",
    "Job",
    "MemoryStore",
    "NewGame",
    "NewTable",
    "Outcome",
    "Reader",
    "Refusal",
    "Row",
    "Seat",
    "SeatKind",
    "StoredGame",
    "StoredTable",
    "TableConfig",
    "TableHost",
    "TableSession",
    "TableUpdate",
    "carry_out",
    "choose_move",
    "clean_name",
    "drive_bots",
    "hash_token",
    "perform",
    "play_bot_turn",
    "run_job",
    "suggest_move",
]
