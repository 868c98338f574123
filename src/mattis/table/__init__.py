"""A shared table of Mattis that any host can run: the web server, the offline app, the
terminal, tests.

:class:`TableSession` is the table's state (seats, match, game, each seat's story and
messages) with no sockets, database or event loop; :class:`TableMaster` runs one session for
a host (connections, changes, hints, reactions, the bots' loop); :class:`TableHost` is the
little a host supplies (rows, sending, jobs, clocks); :class:`TableConfig` and its profiles
say how a table behaves; :mod:`.protocol` reads and dispatches a connection's messages.
"""

from .config import TABLE_PROFILES, Profile, TableConfig, table_profile
from .errors import STATUS, IllegalMove, Refusal, error_message
from .host import Connection, TableHost, Timer
from .jobs import BotJob, DecisionParts, HintJob, Job, choose_move, run_job, search_speed, suggest_move
from .master import TableMaster
from .memory import MemoryStore
from .records import finished_record
from .rows import (
    ActionRow,
    NewGame,
    NewTable,
    Row,
    StoredGame,
    StoredTable,
    TableUpdate,
)
from .seats import Seat, SeatKind, clean_name, hash_token
from .session import BotTurn, MessageCursor, Outcome, TableSession

__all__ = [
    "STATUS",
    "TABLE_PROFILES",
    "ActionRow",
    "BotJob",
    "BotTurn",
    "Connection",
    "DecisionParts",
    "HintJob",
    "IllegalMove",
    "Job",
    "MemoryStore",
    "MessageCursor",
    "NewGame",
    "NewTable",
    "Outcome",
    "Profile",
    "Refusal",
    "Row",
    "Seat",
    "SeatKind",
    "StoredGame",
    "StoredTable",
    "TableConfig",
    "TableHost",
    "TableMaster",
    "TableSession",
    "TableUpdate",
    "Timer",
    "choose_move",
    "clean_name",
    "error_message",
    "finished_record",
    "hash_token",
    "run_job",
    "search_speed",
    "suggest_move",
    "table_profile",
]
