"""Where tables, games and every action are kept, so a killed server loses nothing.

SQLAlchemy Core over three tables: ``mattis_tables`` (rules, seats with hashed tokens, the
match score), ``mattis_games`` (each game's starting record: rules, dealer, seed, deck) and
``mattis_actions`` (one row per action, written when it is played; ``mattis_stand_ins``
marks those a bot played for a person away). Restarting replays a game's starting record
plus its actions with ``Game.from_record``. Players, groups and their ledgers have tables of
their own (below). The default is an
embedded SQLite file in WAL mode; any SQLAlchemy URL works, e.g.
``postgresql+psycopg://user:password@host/mattis``.

Calls are blocking and small (one row per action); the server makes them in a thread, never
on its event loop. With SQLite's WAL and ``synchronous=NORMAL`` a commit survives the
process being killed, which is the failure this store is built for. Each batch of changes (a
move, a join and the deal it starts, a new table and its first game; the server's group
commit puts the changes waiting together) is one transaction, so a write the database
refuses (a full disk) leaves nothing half-stored.

On SQLite one server owns the database: :class:`ServerLock` refuses a second one (a lock
file beside the file). On PostgreSQL several servers share it, each table owned by one of
them at a time through a row of ``mattis_leases`` (:mod:`.leases` says how a lease is taken
and how it ends): with :attr:`Store.owner` set, every write of a table is *fenced*: the
transaction first locks the table's lease row and writes nothing for a table whose lease
is no longer this server's (:meth:`Store.add_actions` returns those tables). Action numbers
are a primary key per game and game numbers unique per table, so even a write that slipped
past the fence would be refused by the database, never stored twice. Opening a database
checks that its tables are Mattis's (:class:`SchemaError`), so a wrong file fails at once in
one line.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Sequence,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    create_engine,
    event,
    exists,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql import ColumnElement, Select

from ..table.ledger import (
    ALL_SEASONS,
    LedgerGame,
    LedgerSeat,
    SeasonTally,
    game_from_stored,
    season_of,
    stored_numbers,
    stored_players,
)
from ..table.rows import ActionRow, LedgerRow, NewGame, NewTable, Row, StoredGame, StoredTable, TableUpdate
from .ratings import rate_game

STORAGE_ERRORS: tuple[type[Exception], ...] = (OSError, SQLAlchemyError)
"""What a database that cannot take a write raises (a full disk, a lost connection): the
change is refused with ``storage`` and nothing else is touched."""

_metadata = MetaData()

_tables = Table(
    "mattis_tables", _metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("match", JSON, nullable=False),
)
_games = Table(
    "mattis_games", _metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(40), ForeignKey("mattis_tables.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("start", JSON, nullable=False),
    Column("over", Boolean, nullable=False, default=False),
    UniqueConstraint("table_id", "number", name="mattis_games_table_number"),
)
_actions = Table(
    "mattis_actions", _metadata,
    Column("game_id", Integer, ForeignKey("mattis_games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(16), nullable=False),
    Column("at", Float, nullable=False),
)
_stand_ins = Table(
    "mattis_stand_ins", _metadata,
    Column("game_id", Integer, ForeignKey("mattis_games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
)
"""The stored actions (``mattis_actions.idx``) a bot played for a person who was away, so
the log of a restored table says so (a table of its own: databases from before it keep
their schema)."""
_leases = Table(
    "mattis_leases", _metadata,
    Column("table_id", String(40), ForeignKey("mattis_tables.id"), primary_key=True),
    Column("owner", Integer, nullable=True),
    Column("epoch", Integer, nullable=False),
    Column("taken", Float, nullable=False),
)
"""Which server owns each table (PostgreSQL only): ``owner`` is a server's number from
:data:`_owner_numbers` (``NULL``: parked, nobody's, taken by the next server asked for
it); ``epoch`` counts the owners the table has had."""
PLAYERS = Table(
    "mattis_players", _metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("created", Float, nullable=False),
)
"""A player without an account (``POST /api/players``): an id and a name, nothing else."""
KEYS = Table(
    "mattis_keys", _metadata,
    Column("hash", String(64), primary_key=True),
    Column("player_id", String(40), ForeignKey("mattis_players.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
)
"""The SHA-256 of each device's key of a player (never the key): one per device."""
TRANSFERS = Table(
    "mattis_transfers", _metadata,
    Column("hash", String(64), primary_key=True),
    Column("player_id", String(40), ForeignKey("mattis_players.id"), nullable=False, index=True),
    Column("expires", Float, nullable=False),
)
"""Short codes that give a second device a key of the player ("Use on another device"):
hashed, used once, and only for a few minutes."""
GROUPS = Table(
    "mattis_groups", _metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("code_hash", String(64), nullable=False),
    Column("creator", String(40), nullable=True),
    Column("created", Float, nullable=False),
)
"""A group (*lag*): its name, its join code (hashed) and its creator (``NULL`` once they
are forgotten)."""
MEMBERS = Table(
    "mattis_members", _metadata,
    Column("group_id", String(40), ForeignKey("mattis_groups.id"), primary_key=True),
    Column("player_id", String(40), ForeignKey("mattis_players.id"), primary_key=True, index=True),
    Column("joined", Float, nullable=False),
)
LEDGER = Table(
    "mattis_ledger", _metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("group_id", String(40), ForeignKey("mattis_groups.id"), nullable=False),
    Column("table_id", String(40), nullable=False),
    Column("game", Integer, nullable=False),
    Column("finished", Float, nullable=False),
    Column("season", Integer, nullable=False),
    Column("players", String(400), nullable=False),
    Column("losers", String(40), nullable=False),
    Column("out_order", String(40), nullable=False),
    Column("lost_on_empty", Boolean, nullable=False),
    Column("seats", JSON, nullable=False),
    UniqueConstraint("table_id", "game", name="mattis_ledger_table_game"),
    Index("mattis_ledger_group_season", "group_id", "season", "finished"),
    Index("mattis_ledger_group_finished", "group_id", "finished"),
)
"""A group's counted games (:class:`~mattis.table.rows.LedgerRow`), one row each, written
with the game's last action; unique per table and game, so no game counts twice. A ledger
reads its group's tally (:data:`LEDGER_TALLIES`) and only its newest rows; counting from the
rows (a tally to make again, the export, the result screen) reads the compact columns
(``players``: a member's id or a mark per seat, :func:`~mattis.table.ledger.stored_players`;
``losers`` and ``out_order``: seat numbers), and ``seats`` (names and levels of bots and
guests, ``"coached": true`` on a seat a coach watched) only for the games shown.
A seat's player stays an opaque id when the player is forgotten: the name goes with them."""
LEDGER_TALLIES = Table(
    "mattis_ledger_tallies", _metadata,
    Column("group_id", String(40), ForeignKey("mattis_groups.id"), primary_key=True),
    Column("season", Integer, primary_key=True),
    Column("tally", Text, nullable=False),
)
"""Each group's running count of a season (``season`` 0: all time), a
:class:`~mattis.table.ledger.SeasonTally` as JSON, updated with each counted game in the
transaction that writes its row: a ledger reads this and its newest 100 rows, never a whole
season (``benchmarks/ledger_pg.py``)."""
ALL_TIME = 0
"""The ``season`` of a group's all-time tally."""
PLAYER_GAMES = Table(
    "mattis_player_games", _metadata,
    Column("player_id", String(40), nullable=False),
    Column("table_id", String(40), nullable=False),
    Column("game", Integer, nullable=False),
    Column("finished", Float, nullable=False),
    Column("levels", String(200), nullable=False),
    Column("mattis", Boolean, nullable=False),
    UniqueConstraint("player_id", "table_id", "game", name="mattis_player_games_once"),
    Index("mattis_player_games_player", "player_id", "finished"),
)
"""Each finished game of each player (a seat bound to them, any table): the bot levels at
the table (space-separated) and whether they were Mattis, for their own statistics
(``GET /api/players/me``)."""
RATINGS = Table(
    "mattis_ratings", _metadata,
    Column("player_id", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)
"""Each player's OpenSkill rating (:mod:`.ratings`), updated with each of their finished
games in that game's transaction."""
_owner_numbers = Sequence("mattis_owner_seq", metadata=_metadata)
"""Each server process gets a number never given before, so a lease of a dead process can
never be mistaken for one of a live process."""

PRESENCE_LOCK_CLASS = 0x6D61
"""First key of the advisory lock ``(PRESENCE_LOCK_CLASS, owner)`` each server holds on
its presence connection for as long as it lives: a lease is good while its owner's lock is
held (:mod:`.leases`)."""

_LIVE_OWNERS = text(
    "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted "
    "AND objsubid = 2 AND classid = :presence "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
).bindparams(presence=PRESENCE_LOCK_CLASS).columns()
"""The owners whose presence lock is held: the servers alive."""


class LeaseLost(RuntimeError):
    """The table's lease is no longer this server's: its change was not stored."""


@dataclass(frozen=True, slots=True)
class LeaseAnswer:
    """What asking for a table's lease gave: ``taken`` (now ours; ``previous`` is the owner
    it was taken from, ``None`` if it was parked or new), ``busy`` (``owner`` is alive and
    holds it) or ``missing`` (no such table)."""

    outcome: str
    owner: int | None = None
    previous: int | None = None


def default_url() -> str:
    """An SQLite file in the user's data folder (created on first use)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("mattis", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'mattis-web.sqlite3'}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class SchemaError(ValueError):
    """The database holds tables that are not Mattis's, or Mattis's with columns missing."""


class Store:
    """The database behind the server (see the module docstring)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url)
        try:
            self._check_schema()  # before the pragmas: a file that is not ours stays as it was
            if self.engine.dialect.name == "sqlite":
                self.engine.dispose()
                event.listen(self.engine, "connect", _sqlite_pragmas)
            _metadata.create_all(self.engine)
        except BaseException:
            self.engine.dispose()
            raise
        self._game_ids: dict[tuple[str, int], int] = {}
        self.owner: int | None = None
        """This server's owner number while it shares a PostgreSQL database with others
        (:mod:`.leases`): then each write is fenced by the tables' leases. ``None``: this
        server is the database's only one, and owns every table."""

    @property
    def shared(self) -> bool:
        """Whether several servers may use this database at once (PostgreSQL)."""
        return self.engine.dialect.name == "postgresql"

    def _check_schema(self) -> None:
        """Refuse a database whose Mattis tables lack columns, and an SQLite file that holds
        other tables and none of Mattis's (an unrelated file given by mistake), before
        anything is written to it."""
        existing = set(inspect(self.engine).get_table_names())
        ours = set(_metadata.tables)
        if self.engine.dialect.name == "sqlite" and existing and not existing & ours:
            shown = ", ".join(sorted(existing)[:3])
            raise SchemaError(f"not a Mattis database: it holds other tables ({shown}) and none of Mattis's")
        inspector = inspect(self.engine)
        for name in sorted(existing & ours):
            present = {column["name"] for column in inspector.get_columns(name)}
            missing = [column.name for column in _metadata.tables[name].columns if column.name not in present]
            if missing:
                raise SchemaError(f"table {name} lacks the columns {', '.join(missing)}: not a Mattis "
                                  "database, or one from another version")

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    # ---------------------------------------------------------------- writes

    def add_actions(self, rows: list[Row]) -> set[str]:
        """Store one batch of rows (mostly actions, the moment they are played; several
        tables' changes together) in one transaction, all or none; a game's last action
        marks it over. With an :attr:`owner`, the rows of a table whose lease is not this
        server's are left out, and those tables are returned (each waiting change of theirs
        is refused); a new table's lease is written with it."""
        now = time.time()
        new_games: dict[tuple[str, int], int] = {}
        refused: set[str] = set()
        with self.engine.begin() as connection:
            if self.owner is not None:
                refused = self._fence(connection, rows, now)
                rows = [row for row in rows if row.table_id not in refused]
            self._lock_groups(connection, rows)
            for row in rows:
                self._write(connection, row, now, new_games)
        self._game_ids.update(new_games)  # only once the games are really there
        return refused

    def _fence(self, connection: Connection, rows: list[Row], now: float) -> set[str]:
        """Lock the lease rows of the tables written to (a takeover waits for this
        transaction, and this one for a takeover), and return the tables not ours."""
        new = {row.table_id for row in rows if isinstance(row, NewTable)}
        existing = {row.table_id for row in rows} - new
        owned: set[str] = set()
        if existing:
            owned = {str(table_id) for table_id in connection.execute(
                select(_leases.c.table_id).where(_leases.c.table_id.in_(sorted(existing)),
                                                 _leases.c.owner == self.owner)
                .with_for_update(read=True)).scalars()}
        for row in rows:  # the lease goes in right after its table (the key points at it)
            if isinstance(row, NewTable):
                connection.execute(insert(_tables).values(
                    id=row.table_id, created=now, rules=row.rules, players=row.players,
                    seats=row.seats, match=row.match))
                connection.execute(insert(_leases).values(
                    table_id=row.table_id, owner=self.owner, epoch=1, taken=now))
        return existing - owned

    def _lock_groups(self, connection: Connection, rows: list[Row]) -> None:
        """On a shared database, lock the groups whose ledgers this batch counts games in,
        in one order (two servers never wait for each other in a circle): a group's tallies
        then take one game at a time. A member joining is not held up (``FOR NO KEY
        UPDATE``). SQLite has one writer and needs no lock."""
        groups = sorted({row.group for row in rows if isinstance(row, LedgerRow) and row.group is not None})
        if groups and self.shared:
            connection.execute(select(GROUPS.c.id).where(GROUPS.c.id.in_(groups)).order_by(GROUPS.c.id)
                               .with_for_update(key_share=True)).all()

    def _write(self, connection: Connection, row: Row, now: float,
               new_games: dict[tuple[str, int], int]) -> None:
        if isinstance(row, ActionRow):
            key = (row.table_id, row.game_number)
            game_id = new_games.get(key) or self._game_id(connection, *key)
            connection.execute(insert(_actions).values(
                game_id=game_id, idx=row.index, seat=row.seat, action=row.action, at=now))
            if row.stand_in:
                connection.execute(insert(_stand_ins).values(game_id=game_id, idx=row.index))
            if row.over:
                connection.execute(update(_games).where(_games.c.id == game_id).values(over=True))
        elif isinstance(row, TableUpdate):
            self.update_table(row.table_id, row.seats, row.match, connection)
        elif isinstance(row, NewGame):
            result = connection.execute(insert(_games).values(
                table_id=row.table_id, number=row.number, start=row.start, over=False))
            inserted = result.inserted_primary_key
            assert inserted is not None
            new_games[(row.table_id, row.number)] = int(inserted[0])
        elif isinstance(row, LedgerRow):
            self._write_ledger(connection, row, now)
        elif isinstance(row, NewTable) and self.owner is None:  # else written by _fence
            connection.execute(insert(_tables).values(
                id=row.table_id, created=now, rules=row.rules, players=row.players, seats=row.seats,
                match=row.match))

    @staticmethod
    def _write_ledger(connection: Connection, row: LedgerRow, now: float) -> None:
        """A finished game with seats bound to players: each player's own row and rating,
        and, for a group's table, the group's ledger (:meth:`_count_for_group`)."""
        bound = sorted({seat["player"] for seat in row.seats if seat.get("player")})
        existing = {str(player) for player in connection.execute(
            select(PLAYERS.c.id).where(PLAYERS.c.id.in_(bound))).scalars()}  # not a forgotten one
        levels = " ".join(seat.get("level") or "" for seat in row.seats if seat["kind"] == "bot")
        for index, seat in enumerate(row.seats):
            if seat.get("player") in existing:
                connection.execute(insert(PLAYER_GAMES).values(
                    player_id=seat["player"], table_id=row.table_id, game=row.game_number, finished=now,
                    levels=levels, mattis=index in row.losers))
        rate_game(connection, RATINGS, row, existing)
        if row.group is not None:
            Store._count_for_group(connection, row, row.group, now=now, bound=bound)

    @staticmethod
    def _count_for_group(connection: Connection, row: LedgerRow, group: str, *, now: float,
                         bound: list[str]) -> None:
        """Count a finished game in its group's ledger if at least two of its bound players
        are members now (a bound player who is not is shown as a guest, under the name the
        table knew)."""
        members = {str(player) for player in connection.execute(
            select(MEMBERS.c.player_id).where(MEMBERS.c.group_id == group,
                                               MEMBERS.c.player_id.in_(bound))).scalars()}
        if len(members) < 2:
            return
        seats = [{"player": seat["player"], "kind": "human", "name": "", "level": None}
                 if seat.get("player") in members else
                 {"player": None, "kind": "guest" if seat["kind"] == "human" else "bot",
                  "name": seat.get("name") or "", "level": seat.get("level")}
                 for seat in row.seats]
        for index in row.coached:  # a coach watched this seat, with its person's consent
            seats[index]["coached"] = True
        players, losers = stored_players(seats), stored_numbers(row.losers)
        out_order = stored_numbers(row.out_order)
        connection.execute(insert(LEDGER).values(
            group_id=group, table_id=row.table_id, game=row.game_number, finished=now,
            season=int(season_of(now)), players=players, losers=losers, out_order=out_order,
            lost_on_empty=row.lost_on_empty, seats=seats))
        game = game_from_stored(row.table_id, row.game_number, now, players=players, losers=losers,
                                out_order=out_order, lost_on_empty=row.lost_on_empty, seats=seats)
        for season in (season_of(now), ALL_SEASONS):
            Store._tally_game(connection, group, season, game)

    @staticmethod
    def _tally_game(connection: Connection, group: str, season: str, game: LedgerGame) -> None:
        """Add a counted game (its row already written) to the group's tally of a season.
        A game that ended before the last one counted (two servers' clocks, one batch's
        tables), a missing tally (the group's first game) or a damaged one is counted again
        from the season's rows."""
        key = season_key(season)
        where = and_(LEDGER_TALLIES.c.group_id == group, LEDGER_TALLIES.c.season == key)
        found = connection.execute(select(LEDGER_TALLIES.c.tally).where(where)).scalar()
        counted: SeasonTally | None = None
        if found is not None:
            with contextlib.suppress(ValueError):
                counted = SeasonTally.from_stored(str(found))
        if counted is None or not counted.add(game):
            counted = SeasonTally.of(counted_games(connection, group, season, shown=0))
        if found is None:
            connection.execute(insert(LEDGER_TALLIES).values(group_id=group, season=key,
                                                             tally=counted.stored()))
        else:
            connection.execute(update(LEDGER_TALLIES).where(where).values(tally=counted.stored()))

    def update_table(self, table_id: str, seats: list[dict[str, Any]], match: dict[str, Any],
                     connection: Connection | None = None) -> None:
        """Store changed seats (a join) or match state (a finished game)."""
        statement = update(_tables).where(_tables.c.id == table_id).values(seats=seats, match=match)
        if connection is not None:
            connection.execute(statement)
            return
        with self.engine.begin() as own:
            own.execute(statement)

    def _game_id(self, connection: Connection, table_id: str, number: int) -> int:
        """The row id of game ``number`` of a table (remembered, so a move costs no lookup)."""
        key = (table_id, number)
        game_id = self._game_ids.get(key)
        if game_id is None:
            found = connection.execute(select(_games.c.id).where(
                _games.c.table_id == table_id, _games.c.number == number)).scalar()
            if found is None:
                raise ValueError(f"no game {number} at table {table_id!r}")
            game_id = self._game_ids[key] = int(found)
        return game_id

    # ---------------------------------------------------------------- leases (PostgreSQL)

    def new_owner(self) -> int:
        """A number for a server process that no process had before."""
        with self.engine.begin() as connection:
            return int(connection.execute(_owner_numbers.next_value()).scalar_one())

    def take_lease(self, table_id: str, owner: int) -> LeaseAnswer:
        """Make ``owner`` the table's owner if it is nobody's, its owner is dead, or it is
        ``owner``'s already. The lease row stays locked until the end, so a write of the old
        owner lands wholly before the takeover (and the replay sees it) or is refused."""
        with self.engine.begin() as connection:
            if not connection.execute(select(exists().where(_tables.c.id == table_id))).scalar():
                return LeaseAnswer("missing")
            holder = connection.execute(select(_leases.c.owner).where(_leases.c.table_id == table_id)
                                        .with_for_update()).first()
            now = time.time()
            if holder is None:  # a table from before leases, or from a single server
                added = connection.execute(pg_insert(_leases).values(
                    table_id=table_id, owner=owner, epoch=1, taken=now).on_conflict_do_nothing())
                return LeaseAnswer("taken", owner) if added.rowcount else LeaseAnswer("busy")
            previous = holder.owner
            if previous == owner:
                return LeaseAnswer("taken", owner, owner)
            if previous is not None and previous in self._live_owners(connection):
                return LeaseAnswer("busy", previous)
            connection.execute(update(_leases).where(_leases.c.table_id == table_id)
                               .values(owner=owner, epoch=_leases.c.epoch + 1, taken=now))
            return LeaseAnswer("taken", owner, previous)

    def release_lease(self, table_id: str, owner: int) -> None:
        """Park a table of ``owner`` (nobody's until a server is asked for it)."""
        with self.engine.begin() as connection:
            connection.execute(update(_leases).where(_leases.c.table_id == table_id,
                                                     _leases.c.owner == owner).values(owner=None))

    def ask_owner(self, owner: int, table_id: str) -> None:
        """Tell server ``owner`` that a request for the table reached another server
        (``NOTIFY`` on its channel, :func:`owner_channel`), so it hands the table over."""
        with self.engine.begin() as connection:
            connection.execute(text("SELECT pg_notify(:channel, :table_id)"),
                               {"channel": owner_channel(owner), "table_id": table_id})

    def orphaned_table_ids(self, limit: int) -> list[str]:
        """Tables with a game in play whose owner is dead (or that never had a lease), oldest
        first: what the servers alive take over without waiting to be asked. Parked tables
        and tables waiting for players are not: they wait to be opened."""
        with self.engine.connect() as connection:
            live = sorted(self._live_owners(connection))
            dead_owner: ColumnElement[bool] = _leases.c.owner.is_not(None)
            if live:
                dead_owner = and_(dead_owner, _leases.c.owner.not_in(live))
            query = (select(_tables.c.id).outerjoin(_leases, _leases.c.table_id == _tables.c.id)
                     .where(_tables.c.id.in_(select(_games.c.table_id)),
                            _tables.c.id.not_in(self._finished()),
                            or_(_leases.c.table_id.is_(None), dead_owner))
                     .order_by(_tables.c.created).limit(limit))
            return [str(table_id) for table_id in connection.execute(query).scalars()]

    @staticmethod
    def _live_owners(connection: Connection) -> set[int]:
        return {int(owner) for owner in connection.execute(_LIVE_OWNERS).scalars()}

    def lease_owners(self) -> dict[str, int | None]:
        """Every table's owner (for the tests and the deploy guide's queries)."""
        with self.engine.connect() as connection:
            return {str(row.table_id): row.owner for row in connection.execute(
                select(_leases.c.table_id, _leases.c.owner))}

    def ping(self) -> None:
        """One round trip to the database (``/healthz``); raises if it cannot be reached."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    # ---------------------------------------------------------------- reads

    @staticmethod
    def _finished() -> Select[tuple[str]]:
        """The tables whose latest game is over."""
        latest = (select(_games.c.table_id, func.max(_games.c.number).label("number"))
                  .group_by(_games.c.table_id).subquery())
        return (select(_games.c.table_id)
                .join(latest, and_(_games.c.table_id == latest.c.table_id,
                                   _games.c.number == latest.c.number))
                .where(_games.c.over.is_(True)))

    def load_table(self, table_id: str) -> StoredTable | None:
        """One table with its latest game, or ``None``."""
        with self.engine.connect() as connection:
            row = connection.execute(select(_tables).where(_tables.c.id == table_id)).first()
            return None if row is None else self._stored_table(connection, row)

    def _stored_table(self, connection: Any, row: Any) -> StoredTable:
        game_row = connection.execute(
            select(_games).where(_games.c.table_id == row.id)
            .order_by(_games.c.number.desc()).limit(1)).first()
        game = None if game_row is None else self._stored_game(connection, game_row)
        return StoredTable(table_id=row.id, rules=_as_dict(row.rules), players=int(row.players),
                           seats=_as_list(row.seats), match=_as_dict(row.match), game=game)

    def game(self, table_id: str, number: int | None = None) -> StoredGame | None:
        """Game ``number`` of a table (default: the latest), or ``None``."""
        with self.engine.connect() as connection:
            query = select(_games).where(_games.c.table_id == table_id)
            if number is None:
                query = query.order_by(_games.c.number.desc()).limit(1)
            else:
                query = query.where(_games.c.number == number)
            row = connection.execute(query).first()
            return None if row is None else self._stored_game(connection, row)

    @staticmethod
    def _stored_game(connection: Any, row: Any) -> StoredGame:
        actions = connection.execute(
            select(_actions.c.action).where(_actions.c.game_id == row.id)
            .order_by(_actions.c.idx)).scalars().all()
        stand_ins = connection.execute(
            select(_stand_ins.c.idx).where(_stand_ins.c.game_id == row.id)).scalars()
        return StoredGame(int(row.number), _as_dict(row.start), tuple(str(a) for a in actions),
                          bool(row.over), frozenset(int(place) for place in stand_ins))


def season_key(season: str) -> int:
    """A season (``2026``, ``all``) as the tallies' ``season`` column holds it."""
    return ALL_TIME if season == ALL_SEASONS else int(season)


def counted_games(connection: Connection, group: str, season: str, shown: int | None) -> list[LedgerGame]:
    """A group's counted games of a season (``all``: every one) in the order they ended.
    The seats (names and levels of bots and guests, coached seats) are read for the last
    ``shown`` games only (``None``: every game, for the export; 0: none, for counting)."""
    query = (select(LEDGER.c.id, LEDGER.c.table_id, LEDGER.c.game, LEDGER.c.finished,
                    LEDGER.c.players, LEDGER.c.losers, LEDGER.c.out_order, LEDGER.c.lost_on_empty)
             .where(LEDGER.c.group_id == group))
    if season != ALL_SEASONS:
        query = query.where(LEDGER.c.season == int(season))
    rows = connection.execute(query.order_by(LEDGER.c.finished, LEDGER.c.id)).all()
    wanted = [row.id for row in (rows if shown is None else rows[-shown:] if shown else [])]
    seats: dict[int, Any] = {}
    for start in range(0, len(wanted), 500):
        seats.update((int(found.id), found.seats) for found in connection.execute(
            select(LEDGER.c.id, LEDGER.c.seats).where(LEDGER.c.id.in_(wanted[start:start + 500]))))
    members: dict[str, LedgerSeat] = {}
    return [game_from_stored(str(row.table_id), row.game, row.finished, players=str(row.players),
                             losers=str(row.losers), out_order=str(row.out_order),
                             lost_on_empty=row.lost_on_empty, seats=seats.get(row.id), members=members)
            for row in rows]


def newest_games(connection: Connection, group: str, season: str, count: int) -> list[LedgerGame]:
    """The newest ``count`` counted games of a season (more when several ended at the same
    moment as the oldest of them, so the ledger's order can pick), with their seats: one
    statement, two short index ranges."""
    where: ColumnElement[bool] = LEDGER.c.group_id == group
    if season != ALL_SEASONS:
        where = and_(where, LEDGER.c.season == int(season))
    oldest = (select(LEDGER.c.finished).where(where).order_by(LEDGER.c.finished.desc())
              .offset(count - 1).limit(1).scalar_subquery())
    members: dict[str, LedgerSeat] = {}
    return [game_from_stored(str(row.table_id), row.game, row.finished, players=str(row.players),
                             losers=str(row.losers), out_order=str(row.out_order),
                             lost_on_empty=row.lost_on_empty, seats=row.seats, members=members)
            for row in connection.execute(select(LEDGER).where(
                where, LEDGER.c.finished >= func.coalesce(oldest, float("-inf"))))]


def member_and_tally(connection: Connection, player: str, group: str,
                     season: str) -> tuple[bool, SeasonTally | None]:
    """Whether ``player`` is a member of ``group``, and the group's tally of a season as
    stored (``None``: none, or a damaged one), in one round trip."""
    member = exists().where(MEMBERS.c.group_id == group, MEMBERS.c.player_id == player)
    tally = select(LEDGER_TALLIES.c.tally).where(
        LEDGER_TALLIES.c.group_id == group, LEDGER_TALLIES.c.season == season_key(season)).scalar_subquery()
    is_member, found = connection.execute(select(member.label("member"), tally.label("tally"))).one()
    if not is_member or found is None:
        return bool(is_member), None
    try:
        return True, SeasonTally.from_stored(str(found))
    except ValueError:
        return True, None


class DatabaseBusy(RuntimeError):
    """Another server holds the database (one line, for ``mattis serve`` to print)."""


def owner_channel(owner: int) -> str:
    """The ``LISTEN`` channel on which server ``owner`` hears requests to hand a table over."""
    return f"mattis_owner_{owner}"


class ServerLock:
    """One server per SQLite database, held for the life of the process: two servers on one
    file would each keep their own tables in memory and split a game in two.

    An SQLite file is locked through an exclusive ``flock`` on ``<file>.lock`` beside it
    (the lock ends with the process, however it ends). PostgreSQL is not locked: servers
    share it, each table owned by one of them (:mod:`.leases`). Other databases, and SQLite
    in memory, are not locked."""

    def __init__(self, release: contextlib.ExitStack) -> None:
        self._release = release

    @classmethod
    def acquire(cls, url: str) -> ServerLock:
        """Take the database for this process, or raise :class:`DatabaseBusy`."""
        parsed = make_url(url)
        stack = contextlib.ExitStack()
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            database = Path(str(parsed.database))
            cls._lock_file(database.with_name(database.name + ".lock"), stack)
        return cls(stack)

    @staticmethod
    def _lock_file(path: Path, stack: contextlib.ExitStack) -> None:
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock file
            return
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        stack.callback(os.close, descriptor)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(descriptor, 32).decode(errors="replace").strip()
            stack.close()
            raise DatabaseBusy(f"another mattis serve{f' (process {holder})' if holder.isdigit() else ''} "
                               f"is using this database ({path} is locked)") from None
        os.ftruncate(descriptor, 0)
        os.write(descriptor, str(os.getpid()).encode())

    def release(self) -> None:
        """Let the database go (also done by the end of the process)."""
        self._release.close()


def _as_dict(value: Any) -> dict[str, Any]:
    """JSON columns come back decoded on most backends; accept text too."""
    data = json.loads(value) if isinstance(value, str) else value
    if not isinstance(data, dict):
        raise ValueError("stored value is not an object")
    return data


def _as_list(value: Any) -> list[dict[str, Any]]:
    data = json.loads(value) if isinstance(value, str) else value
    if not isinstance(data, list):
        raise ValueError("stored value is not a list")
    return data
