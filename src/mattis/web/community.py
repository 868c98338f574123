"""Players without accounts, their groups, and the groups' ledgers, as the store keeps them.

A player is an id and a name. Each device holds a key (``secrets.token_urlsafe(24)``: 192
bits) sent as ``Authorization: Bearer KEY``; only the key's SHA-256 is stored, found by it
and compared with :func:`hmac.compare_digest`, so a copy of the database hands out no
player. A second device gets a key of its own through a short code that the first one asks
for ("Use on another device"): used once, for :data:`TRANSFER_SECONDS`.

A group is found only by a member: anything else asked of it is ``not_found``, exactly as
for a group that does not exist, so neither an id nor a code reveals one. Every call here
is blocking and small; the server makes them in a thread. Reads need no table's owner, so
any server of a cluster answers them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from ..table import Refusal
from ..table.ledger import HISTORY_SHOWN, LedgerGame, SeasonTally, level_stats, season_ledger
from ..table.rating import Rating, rating_summary
from .store import (
    GROUPS,
    KEYS,
    LEDGER,
    MEMBERS,
    PLAYER_GAMES,
    PLAYERS,
    RATINGS,
    TRANSFERS,
    Store,
    counted_games,
    member_and_tally,
    newest_games,
)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits nobody mistakes for another (no I/1, O/0) for codes people type."""
CODE_LENGTH = 8
"""Characters of a group's join code or a device code: 40 bits, on top of an unguessable
group id and the per-address rate limit."""
TRANSFER_SECONDS = 600.0
"""How long a device code may be used."""
MAX_GROUP_MEMBERS = 64
"""Members a group may have (a family, a circle of friends: not a crowd)."""
MAX_GROUPS_PER_PLAYER = 32
"""Groups one player may be a member of."""


def digest(secret: str) -> str:
    """What is stored of a key or a code."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_key() -> str:
    """A player's key for one device."""
    return secrets.token_urlsafe(24)


def new_code() -> str:
    """A short code people can type."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(value: object) -> str | None:
    """A typed code as compared: upper case, spaces and dashes dropped; ``None`` if it
    cannot be one."""
    if not isinstance(value, str) or len(value) > 4 * CODE_LENGTH:
        return None
    text = "".join(ch for ch in value.upper() if ch not in " -")
    return text if len(text) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in text) else None


@dataclass(frozen=True, slots=True)
class Player:
    """Who a key belongs to."""

    player: str
    name: str


@dataclass(frozen=True, slots=True)
class Member:
    """A member of a group, as the group page lists them."""

    player: str
    name: str
    creator: bool


@dataclass(frozen=True, slots=True)
class Group:
    """A group as a member sees it."""

    group: str
    name: str
    creator: str | None
    members: tuple[Member, ...]


class Community:
    """Players, groups and ledgers in the server's database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # ---------------------------------------------------------------- players

    def create_player(self, name: str) -> tuple[str, str]:
        """A new player named ``name``: their id and the first device's key."""
        player, key, now = secrets.token_urlsafe(9), new_key(), time.time()
        with self.engine.begin() as connection:
            connection.execute(insert(PLAYERS).values(id=player, name=name, created=now))
            connection.execute(insert(KEYS).values(hash=digest(key), player_id=player, created=now))
        return player, key

    def player_of(self, key: str) -> Player | None:
        """The player a key belongs to, or ``None``."""
        hashed = digest(key)
        with self.engine.connect() as connection:
            row = connection.execute(
                select(KEYS.c.hash, PLAYERS.c.id, PLAYERS.c.name)
                .join(PLAYERS, PLAYERS.c.id == KEYS.c.player_id)
                .where(KEYS.c.hash == hashed)).first()
        if row is None or not hmac.compare_digest(str(row.hash), hashed):
            return None
        return Player(str(row.id), str(row.name))

    def rename_player(self, player: str, name: str) -> None:
        """Give a player a new name (every ledger shows it)."""
        with self.engine.begin() as connection:
            connection.execute(update(PLAYERS).where(PLAYERS.c.id == player).values(name=name))

    def forget_player(self, player: str) -> None:
        """Forget a player: keys, codes, memberships and name go; ledger rows keep only the
        opaque id, which no longer has a name (shown as a former player)."""
        with self.engine.begin() as connection:
            connection.execute(delete(KEYS).where(KEYS.c.player_id == player))
            connection.execute(delete(PLAYER_GAMES).where(PLAYER_GAMES.c.player_id == player))
            connection.execute(delete(RATINGS).where(RATINGS.c.player_id == player))
            connection.execute(delete(TRANSFERS).where(TRANSFERS.c.player_id == player))
            connection.execute(delete(MEMBERS).where(MEMBERS.c.player_id == player))
            connection.execute(update(GROUPS).where(GROUPS.c.creator == player).values(creator=None))
            connection.execute(delete(PLAYERS).where(PLAYERS.c.id == player))

    def groups_of(self, player: str) -> list[tuple[str, str]]:
        """The groups a player is a member of: id and name."""
        with self.engine.connect() as connection:
            return [(str(row.id), str(row.name)) for row in connection.execute(
                select(GROUPS.c.id, GROUPS.c.name).join(MEMBERS, MEMBERS.c.group_id == GROUPS.c.id)
                .where(MEMBERS.c.player_id == player).order_by(GROUPS.c.name))]

    def own_stats(self, player: str) -> dict[str, Any]:
        """A player's own statistics: every finished game of theirs against each bot level
        (:func:`~mattis.table.ledger.level_stats`) and their OpenSkill rating (``None``
        before their first game)."""
        with self.engine.connect() as connection:
            games = connection.execute(select(PLAYER_GAMES.c.levels, PLAYER_GAMES.c.mattis)
                                       .where(PLAYER_GAMES.c.player_id == player)).all()
            rating = connection.execute(select(RATINGS).where(RATINGS.c.player_id == player)).first()
        stats = level_stats((str(row.levels).split(), bool(row.mattis)) for row in games)
        stats["rating"] = (None if rating is None else
                           rating_summary(Rating(rating.mu, rating.sigma), int(rating.games)))
        return stats

    def new_transfer(self, player: str) -> str:
        """A device code that gives another device a key of ``player`` (once, soon)."""
        code, now = new_code(), time.time()
        with self.engine.begin() as connection:
            connection.execute(delete(TRANSFERS).where(TRANSFERS.c.expires < now))
            connection.execute(insert(TRANSFERS).values(hash=digest(code), player_id=player,
                                                         expires=now + TRANSFER_SECONDS))
        return code

    def claim_transfer(self, code: str) -> tuple[str, str] | None:
        """Use a device code: the player and a new key for this device, or ``None``."""
        hashed, now = digest(code), time.time()
        with self.engine.begin() as connection:
            row = connection.execute(select(TRANSFERS).where(TRANSFERS.c.hash == hashed)
                                     .with_for_update()).first()
            if row is None or not hmac.compare_digest(str(row.hash), hashed):
                return None
            connection.execute(delete(TRANSFERS).where(TRANSFERS.c.hash == hashed))
            if row.expires < now:
                return None
            key = new_key()
            connection.execute(insert(KEYS).values(hash=digest(key), player_id=row.player_id, created=now))
            return str(row.player_id), key

    # ---------------------------------------------------------------- groups

    def create_group(self, player: str, name: str) -> tuple[str, str]:
        """A new group with ``player`` its creator and first member: its id and join code."""
        group, code, now = secrets.token_urlsafe(12), new_code(), time.time()
        with self.engine.begin() as connection:
            self._check_group_count(connection, player)
            connection.execute(insert(GROUPS).values(id=group, name=name, code_hash=digest(code),
                                                      creator=player, created=now))
            connection.execute(insert(MEMBERS).values(group_id=group, player_id=player, joined=now))
        return group, code

    @staticmethod
    def _check_group_count(connection: Connection, player: str) -> None:
        count = connection.execute(select(func.count()).select_from(MEMBERS)
                                   .where(MEMBERS.c.player_id == player)).scalar_one()
        if count >= MAX_GROUPS_PER_PLAYER:
            raise Refusal("too_many_groups", limit=MAX_GROUPS_PER_PLAYER)

    def join_group(self, player: str, group: str, code: str) -> bool:
        """Make ``player`` a member if ``code`` is the group's; ``False`` for a wrong code or
        no such group (the caller cannot tell them apart)."""
        with self.engine.begin() as connection:
            row = connection.execute(select(GROUPS.c.code_hash).where(GROUPS.c.id == group)
                                     .with_for_update()).first()
            if row is None or not hmac.compare_digest(str(row.code_hash), digest(code)):
                return False
            if self._is_member(connection, player, group):
                return True
            self._check_group_count(connection, player)
            members = connection.execute(select(func.count()).select_from(MEMBERS)
                                         .where(MEMBERS.c.group_id == group)).scalar_one()
            if members >= MAX_GROUP_MEMBERS:
                raise Refusal("group_full", limit=MAX_GROUP_MEMBERS)
            connection.execute(insert(MEMBERS).values(group_id=group, player_id=player, joined=time.time()))
        return True

    @staticmethod
    def _is_member(connection: Connection, player: str, group: str) -> bool:
        return connection.execute(select(MEMBERS.c.player_id).where(
            MEMBERS.c.group_id == group, MEMBERS.c.player_id == player)).first() is not None

    def is_member(self, player: str, group: str) -> bool:
        """Whether ``player`` is a member of ``group``."""
        with self.engine.connect() as connection:
            return self._is_member(connection, player, group)

    def group(self, player: str, group: str) -> Group:
        """The group as its member ``player`` sees it; ``not_found`` for anyone else."""
        with self.engine.connect() as connection:
            if not self._is_member(connection, player, group):
                raise Refusal("not_found")
            row = connection.execute(select(GROUPS).where(GROUPS.c.id == group)).one()
            members = connection.execute(
                select(PLAYERS.c.id, PLAYERS.c.name).join(MEMBERS, MEMBERS.c.player_id == PLAYERS.c.id)
                .where(MEMBERS.c.group_id == group).order_by(MEMBERS.c.joined, PLAYERS.c.id)).all()
        creator = None if row.creator is None else str(row.creator)
        return Group(group, str(row.name), creator,
                     tuple(Member(str(m.id), str(m.name), str(m.id) == creator) for m in members))

    def leave_group(self, player: str, group: str) -> None:
        """End ``player``'s membership (``not_found`` if there is none)."""
        with self.engine.begin() as connection:
            gone = connection.execute(delete(MEMBERS).where(MEMBERS.c.group_id == group,
                                                             MEMBERS.c.player_id == player))
            if not gone.rowcount:
                raise Refusal("not_found")

    def rename_group(self, player: str, group: str, name: str) -> None:
        """A member renames the group."""
        with self.engine.begin() as connection:
            if not self._is_member(connection, player, group):
                raise Refusal("not_found")
            connection.execute(update(GROUPS).where(GROUPS.c.id == group).values(name=name))

    def renew_code(self, player: str, group: str) -> str:
        """A new join code (the old one stops working); only the creator may."""
        code = new_code()
        with self.engine.begin() as connection:
            if not self._is_member(connection, player, group):
                raise Refusal("not_found")
            changed = connection.execute(update(GROUPS).where(GROUPS.c.id == group,
                                                               GROUPS.c.creator == player)
                                         .values(code_hash=digest(code)))
            if not changed.rowcount:
                raise Refusal("not_creator")
        return code

    # ---------------------------------------------------------------- the ledger

    def season_ledger(self, player: str, group: str, season: str,
                      former: str = "a former player") -> dict[str, Any]:
        """The body of ``GET /api/groups/{ID}/ledger`` (``not_found`` for a non-member): the
        group's stored tally of the season and its newest games, so the answer costs the
        same for a group's tenth game as for its ten-thousandth. A group without a stored
        tally (rows from before tallies) is counted from its rows. Three round trips, outside
        a transaction (PostgreSQL's READ COMMITTED gives each statement its own snapshot in
        one as well): under load each costs a wait for the database's turn on a core."""
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            member, counted = member_and_tally(connection, player, group, season)
            if not member:
                raise Refusal("not_found")
            if counted is None:
                games = counted_games(connection, group, season, HISTORY_SHOWN)
                counted, newest = SeasonTally.of(games), games[-HISTORY_SHOWN:]
            else:
                newest = newest_games(connection, group, season, HISTORY_SHOWN)
            names = self._names(connection, {*counted.tallies, *(seat.player for game in newest
                                                                  for seat in game.seats), player})
        return season_ledger(counted, newest, names, season=season, former=former)

    @staticmethod
    def _names(connection: Connection, players: set[str | None]) -> dict[str, str]:
        """The names of these players who are not forgotten."""
        ids = sorted(player for player in players if player is not None)
        return {str(row.id): str(row.name) for row in connection.execute(
            select(PLAYERS.c.id, PLAYERS.c.name).where(PLAYERS.c.id.in_(ids)))}

    def season_of_game(self, player: str, group: str, table: str, number: int) -> str | None:
        """The season a counted game of the group is in (``None``: no such game);
        ``not_found`` for a non-member. The result screen reads only that season's games."""
        with self.engine.connect() as connection:
            if not self._is_member(connection, player, group):
                raise Refusal("not_found")
            season = connection.execute(select(LEDGER.c.season).where(
                LEDGER.c.group_id == group, LEDGER.c.table_id == table, LEDGER.c.game == number)).scalar()
        return None if season is None else str(season)

    def ledger_games(self, player: str, group: str, season: str,
                     shown: int | None = HISTORY_SHOWN) -> tuple[list[LedgerGame], dict[str, str]]:
        """The counted games of a season (``all``: every one) in the order they ended, and
        the names of the players in them who are not forgotten; ``not_found`` for a
        non-member. The seats' details (the names of bots and guests, the seats a coach
        watched) are read for the last ``shown`` games (``None``: every game, for the export)."""
        with self.engine.connect() as connection:
            if not self._is_member(connection, player, group):
                raise Refusal("not_found")
            games = counted_games(connection, group, season, shown)
            names = self._names(connection, {*(seat.player for game in games for seat in game.seats), player})
        return games, names
