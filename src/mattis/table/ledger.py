"""A group's ledger: who was Mattis, how often, how long they went without, and the awards.

Pure arithmetic over the counted games of a group (``docs/ledger.md``): no database, no clock,
no language. A host reads the games (:class:`LedgerGame`, one per finished game with at least
two seats bound to members) and the players' names, and :func:`ledger` answers the
``GET /api/groups/{ID}/ledger`` body. The web server stores the games; the rules of every
award live here and only here (:data:`AWARDS`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

ALL_SEASONS = "all"
"""The season of every game ever counted."""
MIN_GAMES_ARETS_MATTIS = 5
"""Games a player must have played in the season to be *Årets Mattis*."""
COMEBACK_AFTER = 2
"""Mattis in a row a player must have had for the run after it to count as a *Comeback*."""
INTERVAL_FROM = 10
"""Games from which a player's rate carries its 95% interval."""
TREND_POINTS = 40
"""Most points of a player's loss-rate curve over the season (the page draws them)."""
HISTORY_SHOWN = 100
"""Most recent games the ledger lists in ``history`` (``export.csv`` has every one)."""
Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True, slots=True)
class LedgerSeat:
    """One seat of a counted game: the member bound to it (``player``), or a bot, a person
    without a player, or a player who is not a member (``kind`` ``bot``/``guest``), named as
    the table named them."""

    player: str | None
    kind: str
    name: str = ""
    level: str | None = None


@dataclass(frozen=True, slots=True)
class LedgerGame:
    """A counted game: where it was played, when it ended (seconds since the epoch, UTC), its
    seats, who was Mattis (seats), the order the others went out, and whether the losers lost
    with nothing left (Blåmattis/Blodmattis, rule P1.10)."""

    table: str
    game: int
    finished: float
    seats: tuple[LedgerSeat, ...]
    losers: tuple[int, ...]
    out_order: tuple[int, ...] = ()
    lost_on_empty: bool = False
    coached: tuple[int, ...] = ()
    """The seats a coach watched, with the player's consent (``mattis.table.coaching``)."""

    @property
    def players(self) -> list[str]:
        """The members who played, in seat order."""
        return [seat.player for seat in self.seats if seat.player is not None]

    @property
    def mattis(self) -> list[str]:
        """The members who were Mattis."""
        return [player for index in self.losers if (player := self.seats[index].player) is not None]

    def last_in_with_loser(self) -> str | None:
        """The member who went out last, still in beside the Mattis when they lost (no one
        when the losers lost on an empty hand before anyone went out, or it was a bot)."""
        if not self.out_order:
            return None
        return self.seats[self.out_order[-1]].player


def season_of(finished: float) -> str:
    """The season (a calendar year, UTC) a game ended in."""
    return str(datetime.fromtimestamp(finished, UTC).year)


def iso_time(finished: float) -> str:
    """``2026-12-03T19:02:11Z``."""
    return datetime.fromtimestamp(finished, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_season(value: str | None, now: float) -> str:
    """A ``?season=`` value: a year (``2026``), ``all``, or the current year when absent;
    ``ValueError`` for anything else."""
    if not value:
        return season_of(now)
    if value == ALL_SEASONS:
        return value
    if len(value) == 4 and value.isascii() and value.isdigit() and 1970 <= int(value) <= 9999:
        return value
    raise ValueError("season must be a year such as 2026, or all")


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a rate (sound at 0 and at 1, unlike the normal one)."""
    if trials <= 0:
        return (0.0, 1.0)
    rate = successes / trials
    denominator = 1 + Z95 ** 2 / trials
    centre = (rate + Z95 ** 2 / (2 * trials)) / denominator
    spread = Z95 * math.sqrt(rate * (1 - rate) / trials + Z95 ** 2 / (4 * trials ** 2)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


@dataclass(slots=True)
class _Tally:
    """What the ledger has counted of one player so far, game by game."""

    games: int = 0
    mattis: int = 0
    empty_losses: int = 0
    run: int = 0
    best_run: int = 0
    best_reached: int = -1
    losing_streak: int = 0
    after_streak: bool = False
    comeback: int = 0
    comeback_reached: int = -1
    last_mattis: float | None = None
    mattis_reached: int = -1
    empty_reached: int = -1
    nemesis_of: dict[str, int] = field(default_factory=dict)
    """For each player: how often this one was still in beside them when they lost."""
    still_in: int = 0
    still_in_reached: int = -1
    lost: int = 0
    """Bit ``i`` is set when the player was Mattis in their ``i``-th game of the season:
    their loss-rate curve (``trend``), kept in one integer so a season's tally stays small."""

    def stored(self) -> dict[str, Any]:
        """The tally as plain JSON values (:meth:`SeasonTally.stored`)."""
        return {**{name: getattr(self, name) for name in _TALLY_NUMBERS}, "after_streak": self.after_streak,
                "last_mattis": self.last_mattis, "nemesis_of": self.nemesis_of,
                "lost": format(self.lost, "x")}

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> _Tally:
        tally = cls()
        for name in _TALLY_NUMBERS:
            setattr(tally, name, int(data[name]))
        tally.after_streak = bool(data["after_streak"])
        last = data["last_mattis"]
        tally.last_mattis = None if last is None else float(last)
        tally.nemesis_of = {str(player): int(count) for player, count in dict(data["nemesis_of"]).items()}
        tally.lost = int(str(data["lost"]), 16)
        return tally

    def trend(self) -> list[float]:
        """The loss rate after each of the player's games, at most :data:`TREND_POINTS` of
        them, evenly picked, the last one always kept."""
        games = self.games
        if games <= TREND_POINTS:
            ends: Sequence[int] = range(1, games + 1)
        else:
            step = games / TREND_POINTS
            ends = [min(games, int((i + 1) * step)) for i in range(TREND_POINTS)]
        return [round((self.lost & ((1 << end) - 1)).bit_count() / end, 4) for end in ends]


_TALLY_NUMBERS = ("games", "mattis", "empty_losses", "run", "best_run", "best_reached", "losing_streak",
                  "comeback", "comeback_reached", "mattis_reached", "empty_reached", "still_in",
                  "still_in_reached")
"""The whole-number fields of a tally, as a stored tally names them."""


@dataclass(frozen=True, slots=True)
class Award:
    """An award: its id (the API's and the texts' key) and how a player's value is read from
    their tally (``None``: not eligible)."""

    award: str
    rule: str
    """The rule in one sentence (``docs/ledger.md`` says the same)."""


AWARDS: tuple[Award, ...] = (
    Award("arets_mattis", f"most Mattis in the season, among players with {MIN_GAMES_ARETS_MATTIS} games"),
    Award("mattis_fri", "the longest run of games in a row without being Mattis"),
    Award("blodig", "the most losses with nothing left (Blåmattis or Blodmattis, P1.10)"),
    Award("nemesis", "the player most often still in when someone else became Mattis"),
    Award("comeback", f"the longest run without Mattis right after {COMEBACK_AFTER} or more Mattis in a row"),
    Award("stamgjest", "the most games played"),
)
"""Every award, in the order the ledger lists them. A tie goes to whoever reached the value
first; an award nobody has a value above zero for is not given."""


def game_order(game: LedgerGame) -> tuple[float, str, int]:
    """The order the ledger counts games in: when they ended, then table and number."""
    return (game.finished, game.table, game.game)


def _count_game(tallies: dict[str, _Tally], index: int, game: LedgerGame) -> None:
    """Count the season's ``index``-th game (from 0) into the players' tallies."""
    losers = set(game.mattis)
    beside = game.last_in_with_loser()
    for player in game.players:
        tally = tallies.setdefault(player, _Tally())
        tally.games += 1
        if player in losers:
            tally.lost |= 1 << (tally.games - 1)
            tally.mattis += 1
            tally.mattis_reached = index
            tally.last_mattis = game.finished
            if game.lost_on_empty:
                tally.empty_losses += 1
                tally.empty_reached = index
            tally.run = 0
            tally.losing_streak += 1
            tally.after_streak = tally.losing_streak >= COMEBACK_AFTER
        else:
            tally.run += 1
            tally.losing_streak = 0
            if tally.run > tally.best_run:
                tally.best_run, tally.best_reached = tally.run, index
            if tally.after_streak and tally.run > tally.comeback:
                tally.comeback, tally.comeback_reached = tally.run, index
    if beside is not None and losers and beside not in losers:
        nemesis = tallies[beside]
        nemesis.still_in += 1
        nemesis.still_in_reached = index
        for loser in losers:
            nemesis.nemesis_of[loser] = nemesis.nemesis_of.get(loser, 0) + 1


@dataclass(slots=True)
class SeasonTally:
    """Everything the ledger counts over one season of a group (or all time), game by game:
    the number of games, the last one counted (:func:`game_order`) and each player's tally.

    The web store keeps one per group and season beside the counted games and adds each
    game to it in the transaction that counts the game, so a ledger is read from a few
    hundred bytes and the newest games, not folded over a season's thousand rows."""

    games: int = 0
    last: tuple[float, str, int] | None = None
    tallies: dict[str, _Tally] = field(default_factory=dict)

    @classmethod
    def of(cls, games: Iterable[LedgerGame]) -> SeasonTally:
        """The tally of these games (any order)."""
        tally = cls()
        for game in sorted(games, key=game_order):
            tally.add(game)
        return tally

    def add(self, game: LedgerGame) -> bool:
        """Count a game that ended after every game counted so far; ``False`` (nothing
        counted) for one that belongs before the last: its season must be counted again."""
        order = game_order(game)
        if self.last is not None and order <= self.last:
            return False
        _count_game(self.tallies, self.games, game)
        self.games += 1
        self.last = order
        return True

    def stored(self) -> str:
        """The tally as compact JSON (players in the order they first played, which decides
        ties)."""
        return json.dumps({"games": self.games, "last": self.last,
                           "players": [[player, tally.stored()] for player, tally in self.tallies.items()]},
                          separators=(",", ":"))

    @classmethod
    def from_stored(cls, text: str) -> SeasonTally:
        """A tally from :meth:`stored` (``ValueError`` if malformed)."""
        try:
            data = json.loads(text)
            last = data["last"]
            return cls(int(data["games"]),
                       None if last is None else (float(last[0]), str(last[1]), int(last[2])),
                       {str(player): _Tally.from_stored(tally) for player, tally in data["players"]})
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise ValueError(f"malformed stored ledger tally: {error}") from None


def _award_value(award: str, tally: _Tally) -> tuple[int, int] | None:
    """A player's value for an award and the game index it was reached at."""
    if award == "arets_mattis":
        return (tally.mattis, tally.mattis_reached) if tally.games >= MIN_GAMES_ARETS_MATTIS else None
    if award == "mattis_fri":
        return tally.best_run, tally.best_reached
    if award == "blodig":
        return tally.empty_losses, tally.empty_reached
    if award == "nemesis":
        return tally.still_in, tally.still_in_reached
    if award == "comeback":
        return tally.comeback, tally.comeback_reached
    if award == "stamgjest":
        return tally.games, -tally.games  # everyone's count grows together: the first to play it
    raise ValueError(award)


def awards(tallies: Mapping[str, _Tally]) -> list[dict[str, Any]]:
    """The holder of each award: the highest value above zero, the earliest to reach it on a tie."""
    given = []
    for award in AWARDS:
        best: tuple[int, int, str] | None = None
        for player, tally in tallies.items():
            value = _award_value(award.award, tally)
            if value is None or value[0] <= 0:
                continue
            key = (value[0], -value[1], player)
            if best is None or key[:2] > best[:2]:
                best = key
        if best is not None:
            given.append({"award": award.award, "player": best[2], "value": best[0]})
    return given


def ledger(games: Iterable[LedgerGame], names: Mapping[str, str], season: str,
           former: str = "a former player") -> dict[str, Any]:
    """The ledger of a season's ``games``: the body of ``GET /api/groups/{ID}/ledger``. A
    player missing from ``names`` has been forgotten and is shown as ``former``."""
    played = sorted(games, key=game_order)
    return season_ledger(SeasonTally.of(played), played[-HISTORY_SHOWN:], names, season=season, former=former)


def season_ledger(counted: SeasonTally, newest: Sequence[LedgerGame], names: Mapping[str, str], *,
                  season: str, former: str = "a former player") -> dict[str, Any]:
    """The ledger from a season's tally and its newest games (at least the last
    :data:`HISTORY_SHOWN`, in any order): what :func:`ledger` answers for all its games."""
    tallies = counted.tallies
    players: list[dict[str, Any]] = []
    for player, tally in tallies.items():
        rate = tally.mattis / tally.games
        nemesis = max(((count, other) for other, tally_other in tallies.items()
                       if (count := tally_other.nemesis_of.get(player, 0)) > 0), default=None)
        players.append({
            "player": player, "name": names.get(player, former), "former": player not in names,
            "games": tally.games, "mattis": tally.mattis, "rate": round(rate, 4),
            "rate_interval": ([round(bound, 4) for bound in wilson(tally.mattis, tally.games)]
                              if tally.games >= INTERVAL_FROM else None),
            "empty_losses": tally.empty_losses, "best_run": tally.best_run, "current_run": tally.run,
            "last_mattis": (None if tally.last_mattis is None
                            else datetime.fromtimestamp(tally.last_mattis, UTC).date().isoformat()),
            "nemesis": None if nemesis is None else nemesis[1],
            "trend": tally.trend()})
    players.sort(key=lambda row: (-int(row["mattis"]), -int(row["games"]), str(row["name"])))
    shown = sorted(newest, key=game_order)[-HISTORY_SHOWN:]
    history = [history_entry(game, names, former) for game in reversed(shown)]
    return {"season": season, "games": counted.games, "players": players,
            "awards": awards(tallies), "history": history}


def ledger_changes(games: Sequence[LedgerGame], names: Mapping[str, str], table: str, number: int, *,
                   former: str = "a former player") -> dict[str, Any] | None:
    """What one counted game changed in its season's ledger (the result screen): each of its
    players' Mattis this season, whether they were Mattis, their run now and by how much it
    changed, and every award that changed hands with it. ``None`` if the game is not among
    ``games``."""
    counted = next((game for game in games if game.table == table and game.game == number), None)
    if counted is None:
        return None
    season = season_of(counted.finished)
    in_season = [game for game in games if season_of(game.finished) == season]
    before = ledger([game for game in in_season if game is not counted], names, season, former)
    after = ledger(in_season, names, season, former)
    rows_before = {row["player"]: row for row in before["players"]}
    rows_after = {row["player"]: row for row in after["players"]}
    losers = set(counted.mattis)
    players = []
    for player in counted.players:
        row, old = rows_after[player], rows_before.get(player)
        players.append({"player": player, "name": row["name"], "mattis": row["mattis"],
                        "was_mattis": player in losers, "run": row["current_run"],
                        "run_change": row["current_run"] - (old["current_run"] if old else 0)})
    held = {award["award"]: award["player"] for award in before["awards"]}
    changed = [{**award, "name": names.get(award["player"], former), "before": held.get(award["award"])}
               for award in after["awards"] if held.get(award["award"]) != award["player"]]
    return {"season": season, "players": players, "awards": changed}


def history_entry(game: LedgerGame, names: Mapping[str, str], former: str) -> dict[str, Any]:
    """One counted game as the ledger lists it (bots and people without a player as such)."""
    losers = set(game.losers)
    return {"table": game.table, "game": game.game, "finished": iso_time(game.finished),
            "players": game.players, "mattis": game.mattis, "lost_on_empty": game.lost_on_empty,
            "seats": [{"seat": index, "player": seat.player, "kind": seat.kind,
                       "name": (names.get(seat.player, former) if seat.player is not None else seat.name),
                       "level": seat.level, "mattis": index in losers, "coached": index in game.coached}
                      for index, seat in enumerate(game.seats)],
            "coached": [player for index in game.coached if (player := game.seats[index].player) is not None]}


CSV_HEADER: tuple[str, ...] = ("finished", "table", "game", "seat", "kind", "player", "name", "level",
                               "mattis", "lost_on_empty", "out_position", "coached")


def csv_rows(games: Iterable[LedgerGame], names: Mapping[str, str],
             former: str = "a former player") -> list[list[str]]:
    """Every counted game, one row per seat (``export.csv``), after :data:`CSV_HEADER`."""
    rows: list[list[str]] = []
    for game in sorted(games, key=game_order):
        position = {seat: place + 1 for place, seat in enumerate(game.out_order)}
        for index, seat in enumerate(game.seats):
            name = names.get(seat.player, former) if seat.player is not None else seat.name
            rows.append([iso_time(game.finished), game.table, str(game.game), str(index), seat.kind,
                         seat.player or "", name, seat.level or "",
                         "1" if index in game.losers else "0", "1" if game.lost_on_empty else "0",
                         str(position.get(index, "")), "1" if index in game.coached else "0"])
    return rows


BOT_MARK = "~b"
"""A bot's seat in a stored row's ``players`` text ..."""
GUEST_MARK = "~g"
"""... and a person's who is not a member (player ids never contain ``~`` or spaces)."""


def stored_players(seats: Sequence[Mapping[str, Any]]) -> str:
    """The compact text a counted game's seats are read back from: ``"p1 ~b p3"``, a
    member's player id or a mark per seat. The ledger is computed from this and two short
    lists of numbers, so a season of a thousand games reads without decoding JSON."""
    return " ".join(str(seat["player"]) if seat.get("player") else
                    (BOT_MARK if seat.get("kind") == "bot" else GUEST_MARK) for seat in seats)


def stored_numbers(numbers: Iterable[int]) -> str:
    """Seat numbers as stored: ``"0 2"``."""
    return " ".join(str(number) for number in numbers)


def game_from_stored(table: str, game: int, finished: float, *, players: str, losers: str, out_order: str,
                     lost_on_empty: object, seats: object = None,
                     members: dict[str, LedgerSeat] | None = None) -> LedgerGame:
    """A counted game read back from the store: its compact columns, and the seats' JSON
    (names and levels of bots and guests, and which seats a coach watched) when it is to be
    shown (``ValueError`` if malformed). ``members`` keeps one seat value per player over many
    games."""
    marks = players.split(" ")
    members = {} if members is None else members
    details = seats if isinstance(seats, list) and len(seats) == len(marks) else None
    parsed = []
    for index, mark in enumerate(marks):
        if mark.startswith("~"):
            item = details[index] if details is not None else {}
            if not isinstance(item, dict):
                raise ValueError("stored ledger seat must be an object")
            level = item.get("level")
            kind = "bot" if mark == BOT_MARK else "guest"
            parsed.append(LedgerSeat(None, kind, str(item.get("name") or ""),
                                     level if isinstance(level, str) else None))
        else:
            seat = members.get(mark)
            if seat is None:
                seat = members[mark] = LedgerSeat(mark, "human")
            parsed.append(seat)
    coached = tuple(index for index, item in enumerate(details or ())
                    if isinstance(item, dict) and item.get("coached") is True)
    return LedgerGame(table, int(game), float(finished), tuple(parsed),
                      tuple(int(seat) for seat in losers.split()),
                      tuple(int(seat) for seat in out_order.split()), bool(lost_on_empty), coached)


def level_stats(results: Iterable[tuple[Sequence[str], bool]]) -> dict[str, Any]:
    """One person's record against the bots (``mattis stats``, "Min statistikk"): from each
    finished game the levels of the bots at the table and whether the person was Mattis,
    the games, Mattis, rate and its 95% interval (from :data:`INTERVAL_FROM` games) over all
    games and against each level (a game with bots of two levels counts for both)."""
    totals: dict[str, list[int]] = {}
    games = mattis = 0
    for levels, lost in results:
        games += 1
        mattis += int(lost)
        for level in sorted(set(levels)):
            tally = totals.setdefault(level, [0, 0])
            tally[0] += 1
            tally[1] += int(lost)

    def row(played: int, lost: int) -> dict[str, Any]:
        return {"games": played, "mattis": lost, "rate": round(lost / played, 4) if played else None,
                "rate_interval": ([round(bound, 4) for bound in wilson(lost, played)]
                                  if played >= INTERVAL_FROM else None)}

    return {**row(games, mattis),
            "levels": [{"level": level, **row(*totals[level])} for level in sorted(totals)]}
