"""What a table asks its host to keep, and what a host hands back after a restart.

The session never touches a database. Each change comes out as rows (frozen values) that the
host writes before anyone hears of the change; a restart hands the stored table back as a
:class:`StoredTable`. The web server writes them with SQLAlchemy, the offline app into
IndexedDB, the tests into a list: all three read and write these same shapes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .coaching import split_coach_marks
from .takeback import fold_actions, move_places


@dataclass(frozen=True, slots=True, kw_only=True)
class NewTable:
    """A table was created: its rules, seats (tokens only hashed) and match state."""

    table_id: str
    rules: dict[str, Any]
    players: int
    seats: list[dict[str, Any]]
    match: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """The seats (a join, a bot) or the match state (a finished game, a new deal) changed."""

    table_id: str
    seats: list[dict[str, Any]]
    match: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NewGame:
    """Game ``number`` of the match was dealt: its starting record (no actions yet)."""

    table_id: str
    number: int
    start: dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionRow:
    """One action: which table and game, its index in the game, who played it, its text."""

    table_id: str
    game_number: int
    index: int
    seat: int
    action: str
    over: bool
    """Whether this action ended the game."""
    stand_in: bool = False
    """Whether a bot played it for its person, who was away (the log says so, after a
    restart too)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LedgerRow:
    """A game ended with seats bound to players: the host stores it with the game's last
    action, in the same transaction, for each player's own statistics and, for a group's
    table (``group``), in the group's ledger if at least two of those players are members
    then (``docs/ledger.md``). ``seats`` are ``{"player", "kind", "name", "level"}``; the
    time is the host's."""

    table_id: str
    group: str | None
    game_number: int
    seats: list[dict[str, Any]]
    losers: list[int]
    out_order: list[int]
    lost_on_empty: bool
    coached: tuple[int, ...] = ()
    """The seats a coach watched during the game (:mod:`.coaching`)."""


Row = NewTable | TableUpdate | NewGame | ActionRow | LedgerRow
"""Anything a session asks its host to store."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game as stored: its number in the match, starting record and actions so far."""

    number: int
    start: dict[str, Any]
    actions: tuple[str, ...]
    """Every stored action in the order it came: moves, and takebacks (``undo:N``)."""
    over: bool
    stand_ins: frozenset[int] = frozenset()
    """The stored actions (their places in :attr:`actions`) a bot played for a person who
    was away."""

    def stand_in_moves(self) -> set[int]:
        """The moves of the game as it stands (their numbers) a bot played for a person who
        was away: a stand-in's move taken back is no longer one."""
        return {move for move, place in enumerate(move_places(self.actions)) if place in self.stand_ins}

    def record(self) -> dict[str, Any]:
        """The engine record (start plus actions) that ``Game.from_record`` replays: the moves
        of the game as it stands, and the moves taken back, if any, in ``taken_back``
        (:mod:`.takeback`; a stored takeback that does not fit raises ``ValueError``), and
        the seats a coach watched, if any, in ``coached`` (:mod:`.coaching`)."""
        moves, coached = split_coach_marks(self.actions)
        actions, taken_back = fold_actions(moves)
        record = {**self.start, "actions": actions}
        if taken_back:
            record["taken_back"] = taken_back
        if coached:
            record["coached"] = coached
        return record


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredTable:
    """One table as stored, with its latest game (``None`` before it started)."""

    table_id: str
    rules: dict[str, Any]
    players: int
    seats: list[dict[str, Any]]
    match: dict[str, Any]
    game: StoredGame | None
