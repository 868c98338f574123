"""Rows kept in memory: the store of the offline app (which saves it whole to IndexedDB after
every change) and of the tests.

It applies the same rows a database store writes, refuses the same double writes (an action
number already stored in its game), and hands back the same :class:`~.rows.StoredTable` for
a restart, so a table restored from it is exactly the table restored from a database.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .rows import ActionRow, NewGame, NewTable, Row, StoredGame, StoredTable, TableUpdate


@dataclass
class _Game:
    start: dict[str, Any]
    actions: list[str] = field(default_factory=list)
    over: bool = False
    stand_ins: list[int] = field(default_factory=list)
    """The places in :attr:`actions` of the moves a bot played for a person away."""


@dataclass
class MemoryStore:
    """Tables, games and actions, kept as plain data (:meth:`to_data` is JSON-ready)."""

    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    games: dict[str, list[_Game]] = field(default_factory=dict)

    def write(self, rows: Iterable[Row]) -> None:
        """Apply ``rows`` all or none: a row that does not fit (an unknown table, a game or
        action number out of turn) raises ``ValueError`` and nothing is changed."""
        written = self.with_rows(rows)
        self.tables, self.games = written.tables, written.games

    def with_rows(self, rows: Iterable[Row]) -> MemoryStore:
        """A new store: this one with ``rows`` applied (this one unchanged), so a host can
        save the new store elsewhere first and keep it only once that worked."""
        tables, games = copy.deepcopy(self.tables), copy.deepcopy(self.games)
        for row in rows:
            _apply(tables, games, row)
        return MemoryStore(tables, games)

    def stored(self, table_id: str) -> StoredTable | None:
        """One table with its latest game, as a restart reads it; ``None`` if unknown."""
        table = self.tables.get(table_id)
        if table is None:
            return None
        played = self.games.get(table_id, [])
        game = None
        if played:
            latest = played[-1]
            game = StoredGame(len(played), copy.deepcopy(latest.start), tuple(latest.actions), latest.over,
                              frozenset(latest.stand_ins))
        return StoredTable(table_id=table_id, rules=copy.deepcopy(table["rules"]),
                           players=table["players"], seats=copy.deepcopy(table["seats"]),
                           match=copy.deepcopy(table["match"]), game=game)

    def game(self, table_id: str, number: int) -> StoredGame | None:
        """Game ``number`` (1-based) of a table, or ``None``."""
        played = self.games.get(table_id, [])
        if not 1 <= number <= len(played):
            return None
        item = played[number - 1]
        return StoredGame(number, copy.deepcopy(item.start), tuple(item.actions), item.over,
                          frozenset(item.stand_ins))

    def to_data(self) -> dict[str, Any]:
        """Everything as JSON-ready data (to save whole)."""
        return {"tables": copy.deepcopy(self.tables),
                "games": {table_id: [{"start": g.start, "actions": g.actions, "over": g.over,
                                      "stand_ins": g.stand_ins}
                                     for g in items] for table_id, items in self.games.items()}}

    @classmethod
    def from_data(cls, data: object) -> MemoryStore:
        """A store read back from :meth:`to_data`; malformed data raises ``ValueError``."""
        if not isinstance(data, dict) or not isinstance(data.get("tables"), dict) \
                or not isinstance(data.get("games"), dict):
            raise ValueError("saved tables: expected an object with tables and games")
        games: dict[str, list[_Game]] = {}
        for table_id, items in data["games"].items():
            if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
                raise ValueError(f"saved tables: the games of {table_id!r} are not a list of objects")
            games[str(table_id)] = [_Game(dict(item.get("start") or {}),
                                          [str(a) for a in item.get("actions") or []],
                                          bool(item.get("over")),
                                          [int(place) for place in item.get("stand_ins") or []])
                                    for item in items]
        return cls(copy.deepcopy(data["tables"]), games)


def _apply(tables: dict[str, dict[str, Any]], games: dict[str, list[_Game]], row: Row) -> None:
    if isinstance(row, NewTable):
        if row.table_id in tables:
            raise ValueError(f"table {row.table_id!r} exists already")
        tables[row.table_id] = {"rules": row.rules, "players": row.players, "seats": row.seats,
                                "match": row.match}
        games[row.table_id] = []
        return
    if row.table_id not in tables:
        raise ValueError(f"no table {row.table_id!r}")
    played = games[row.table_id]
    if isinstance(row, TableUpdate):
        tables[row.table_id].update(seats=row.seats, match=row.match)
    elif isinstance(row, NewGame):
        if row.number != len(played) + 1:
            raise ValueError(f"game {row.number} of {row.table_id!r} is out of turn")
        played.append(_Game(row.start))
    elif isinstance(row, ActionRow):
        if row.game_number != len(played) or row.index != len(played[-1].actions):
            raise ValueError(f"action {row.index} of game {row.game_number} is out of turn")
        if row.stand_in:
            played[-1].stand_ins.append(row.index)
        played[-1].actions.append(row.action)
        played[-1].over = played[-1].over or row.over
