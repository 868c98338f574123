"""How fast a group's ledger answers on a PostgreSQL full of groups (issue 25, item 7).

Starts a private PostgreSQL 15 (``tests/cluster.py``, on loopback, fsync off: this measures
reads), creates Mattis's schema with its indexes, fills it with ``--groups`` groups of
``--games`` counted games each, then asks for ``--reads`` ledgers of random groups, for the
current season and for all time, as ``GET /api/groups/{ID}/ledger`` makes them
(:meth:`mattis.web.community.Community.season_ledger`: the membership check, the group's
stored tally of the season, its newest 100 games, the names, the JSON; no HTTP), and
reports p50 and p99 of the answer time, the CPU the answer took in this process (p50, p99)
and in the database's processes (the mean, from ``/proc``), the machine's load average (on a
busy machine the wall-clock times are mostly waits for a core), and the query plans
(``EXPLAIN ANALYZE``) of one answer.

The fill happens inside PostgreSQL: ``--templates`` random game histories (four members a
group, three or four seats a game with a bot, one Mattis or two after an empty-handed
loss, the games spread over two seasons) are made here with their tallies, and each group
gets one of them, its own ids written in by ``INSERT ... SELECT`` over ``generate_series``.
The rows go in rounds (every group's first 25 games, then the next 25, ...), so a group's
games lie scattered over the whole table as when many families play at once; the indexes
are built after the rows. Then ``--writes`` more games are counted through the store's own
write path (row, tallies and group lock in one transaction) and timed, and the ledgers of
``--check`` of those groups and as many others are compared with the ledger counted from
all their rows, as it was read before the tallies (timed too: ``counted_from_rows``).

    python benchmarks/ledger_pg.py                          # the issue's size: 10,000 x 1,000
    python benchmarks/ledger_pg.py --groups 300 --games 1000 --reads 400

The goal is p99 <= 50 ms. Needs the ``test`` and ``web`` extras and Debian's ``postgresql``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import openskill.models  # noqa: F401  (imported by the first game's rating otherwise: not a write's time)
from sqlalchemy import Connection, text

from mattis.table.ledger import (
    ALL_SEASONS,
    HISTORY_SHOWN,
    LedgerGame,
    SeasonTally,
    game_from_stored,
    ledger,
    season_of,
    stored_numbers,
    stored_players,
)
from mattis.table.rows import LedgerRow
from mattis.web.community import Community
from mattis.web.store import ALL_TIME, Store

NAMES = ("Mormor", "Morfar", "Kari", "Ola", "Per", "Siri", "Jonas", "Ingrid")
MEMBERS = 4
MARK = "@"
"""Stands for a group's number in a template's player ids (``@2``: the group's third member)."""
TABLE_GAMES = 50
"""Games a table of the fill plays."""
ROUND = 25
"""Games of every group written by one statement of the fill."""


def template(rng: random.Random, games: int) -> list[dict[str, Any]]:
    """One group's history of counted games, with ``MARK`` for the group's number."""
    start = datetime(2025, 1, 1, tzinfo=UTC).timestamp()
    span = datetime(2026, 12, 1, tzinfo=UTC).timestamp() - start
    members = [f"{MARK}{index}" for index in range(MEMBERS)]
    rows = []
    for index, finished in enumerate(sorted(start + rng.random() * span for _ in range(games))):
        count = rng.choice((3, 4))
        seated: list[str | None] = [*rng.sample(members, count - 1), None]
        rng.shuffle(seated)
        seats = [{"player": player, "kind": "human" if player else "bot",
                  "name": "" if player else "Robin", "level": None if player else "normal"}
                 for player in seated]
        losers = [rng.randrange(count)] if rng.random() < 0.85 else rng.sample(range(count), 2)
        out = [seat for seat in range(count) if seat not in losers]
        rng.shuffle(out)
        rows.append({"idx": index, "finished": finished, "season": int(season_of(finished)),
                     "players": stored_players(seats), "losers": stored_numbers(losers),
                     "out_order": stored_numbers(out), "lost_on_empty": len(losers) > 1,
                     "seats": json.dumps(seats)})
    return rows


def tallies(rows: list[dict[str, Any]]) -> dict[int, str]:
    """A template's stored tally of each season and of all time, as the store keeps them."""
    games = [game_from_stored(f"t{MARK}x{row['idx'] // TABLE_GAMES}", row["idx"] % TABLE_GAMES + 1,
                              row["finished"], players=row["players"], losers=row["losers"],
                              out_order=row["out_order"], lost_on_empty=row["lost_on_empty"]) for row in rows]
    by_season: dict[int, list[LedgerGame]] = {}
    for game in games:
        by_season.setdefault(int(season_of(game.finished)), []).append(game)
    stored = {season: SeasonTally.of(played).stored() for season, played in by_season.items()}
    stored[ALL_TIME] = SeasonTally.of(games).stored()
    return stored


def fill(store: Store, groups: int, games: int, templates: int, seed: int) -> dict[str, float]:
    """Fill the store inside PostgreSQL; the seconds each step took."""
    rng = random.Random(seed)
    made = [template(rng, games) for _ in range(min(templates, groups))]
    steps: dict[str, float] = {}
    began = time.perf_counter()
    group, player = "'g' || lpad(g::text, 6, '0')", "'p' || lpad(g::text, 6, '0')"
    with store.engine.begin() as connection:
        connection.exec_driver_sql("SET maintenance_work_mem = '1GB'")
        connection.exec_driver_sql("SET session_replication_role = replica")  # no per-row key checks
        connection.exec_driver_sql(
            "CREATE TEMP TABLE bench_games (t int, idx int, finished float8, season int, players text, "
            "losers text, out_order text, lost_on_empty bool, seats text)")
        connection.exec_driver_sql("CREATE TEMP TABLE bench_tallies (t int, season int, tally text)")
        connection.execute(text(
            "INSERT INTO bench_games VALUES (:t, :idx, :finished, :season, :players, :losers, :out_order, "
            ":lost_on_empty, :seats)"),
            [{"t": number, **row} for number, rows in enumerate(made) for row in rows])
        connection.execute(text("INSERT INTO bench_tallies VALUES (:t, :season, :tally)"),
                           [{"t": number, "season": season, "tally": tally}
                            for number, rows in enumerate(made) for season, tally in tallies(rows).items()])
        steps["templates_seconds"] = time.perf_counter() - began
        names = "ARRAY[" + ", ".join(f"'{name}'" for name in NAMES) + "]"
        connection.execute(text(
            f"INSERT INTO mattis_players SELECT {player} || m, ({names})[1 + (g * 4 + m) % 8], "
            "extract(epoch FROM now()) FROM generate_series(0, :groups - 1) g, generate_series(0, 3) m"),
            {"groups": groups})
        connection.execute(text(
            f"INSERT INTO mattis_groups SELECT {group}, 'Familien ' || g, encode(sha256(convert_to({group}, "
            f"'UTF8')), 'hex'), {player} || '0', extract(epoch FROM now()) "
            "FROM generate_series(0, :groups - 1) g"), {"groups": groups})
        connection.execute(text(
            f"INSERT INTO mattis_members SELECT {group}, {player} || m, "
            "extract(epoch FROM now()) FROM generate_series(0, :groups - 1) g, generate_series(0, 3) m"),
            {"groups": groups})
        connection.execute(text(
            f"INSERT INTO mattis_ledger_tallies SELECT {group}, b.season, replace(b.tally, '{MARK}', "
            f"{player}) FROM generate_series(0, :groups - 1) g "
            "JOIN bench_tallies b ON b.t = g % :templates"), {"groups": groups, "templates": len(made)})
        dropped = _drop_ledger_indexes(connection)
        steps["groups_seconds"] = time.perf_counter() - began - sum(steps.values())
        for first in range(0, games, ROUND):
            connection.execute(text(
                "INSERT INTO mattis_ledger (group_id, table_id, game, finished, season, players, losers, "
                f"out_order, lost_on_empty, seats) SELECT {group}, "
                f"'t' || {player} || 'x' || (b.idx / {TABLE_GAMES}), b.idx % {TABLE_GAMES} + 1, "
                f"b.finished, b.season, replace(b.players, '{MARK}', {player}), b.losers, "
                f"b.out_order, b.lost_on_empty, replace(b.seats, '{MARK}', {player})::json "
                "FROM generate_series(0, :groups - 1) g JOIN bench_games b ON b.t = g % :templates "
                "WHERE b.idx >= :first AND b.idx < :last ORDER BY b.idx, g"),
                {"groups": groups, "templates": len(made), "first": first, "last": first + ROUND})
        steps["rows_seconds"] = time.perf_counter() - began - sum(steps.values())
        for statement in dropped:
            connection.exec_driver_sql(statement)
        steps["indexes_seconds"] = time.perf_counter() - began - sum(steps.values())
    with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM ANALYZE")
    steps["vacuum_seconds"] = time.perf_counter() - began - sum(steps.values())
    return {name: round(seconds, 1) for name, seconds in steps.items()}


def _drop_ledger_indexes(connection: Connection) -> list[str]:
    """Drop the ledger's secondary indexes and unique key (built once after the rows, which
    is many times faster than keeping them up to date row by row); the statements that
    make them again."""
    found = connection.exec_driver_sql(
        "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid), "
        "(SELECT conname FROM pg_constraint WHERE conindid = indexrelid), "
        "(SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conindid = indexrelid) "
        "FROM pg_index WHERE indrelid = 'mattis_ledger'::regclass AND NOT indisprimary").all()
    again = []
    for name, definition, constraint, constraint_definition in found:
        if constraint:
            connection.exec_driver_sql(f"ALTER TABLE mattis_ledger DROP CONSTRAINT {constraint}")
            again.append(f"ALTER TABLE mattis_ledger ADD CONSTRAINT {constraint} {constraint_definition}")
        else:
            connection.exec_driver_sql(f"DROP INDEX {name}")
            again.append(definition)
    return again


def answer(community: Community, group: str, player: str, season: str) -> int:
    """One ledger, as the endpoint makes it; the number of games in it."""
    body = community.season_ledger(player, group, season)
    json.dumps(body)
    return int(body["games"])


def member(group: int) -> tuple[str, str]:
    """A group's id and its first member's."""
    return f"g{group:06d}", f"p{group:06d}0"


def database_cpu(server: Any) -> float | None:
    """CPU seconds used so far by the private server's processes (its postmaster's children,
    from ``/proc``); ``None`` for a server given by ``--url`` or without ``/proc``."""
    if server is None:
        return None
    try:
        postmaster = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == postmaster:  # its parent
                    total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / ticks
    except (OSError, ValueError, IndexError):
        return None


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timings(values: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(values, 0.5) * 1000, 2),
            "p99_ms": round(percentile(values, 0.99) * 1000, 2)}


def write_games(store: Store, groups: int, count: int, rng: random.Random) -> tuple[list[float], set[int]]:
    """Count ``count`` new games of random groups through the store's write path: the
    seconds each transaction took, and the groups written to."""
    times, touched = [], set()
    for number in range(count):
        group = rng.randrange(groups)
        touched.add(group)
        players = [f"p{group:06d}{index}" for index in rng.sample(range(MEMBERS), 3)]
        seats = [{"player": player, "kind": "human", "name": "", "level": None} for player in players]
        seats.append({"player": None, "kind": "bot", "name": "Robin", "level": "normal"})
        losers = [rng.randrange(4)]
        row = LedgerRow(table_id=f"w{group:06d}x{number}", group=f"g{group:06d}", game_number=1, seats=seats,
                        losers=losers, out_order=[seat for seat in range(4) if seat not in losers],
                        lost_on_empty=False)
        started = time.perf_counter()
        store.add_actions([row])
        times.append(time.perf_counter() - started)
    return times, touched


def check(community: Community, groups: list[int], season: str) -> list[float]:
    """Compare the ledgers of ``groups`` with those counted from every row (the way they
    were read before tallies); the seconds each count from the rows took."""
    times = []
    for number in groups:
        group, player = member(number)
        started = time.perf_counter()
        games, names = community.ledger_games(player, group, season)
        counted = ledger(games, names, season)
        json.dumps(counted)
        times.append(time.perf_counter() - started)
        if community.season_ledger(player, group, season) != counted:
            raise SystemExit(f"the ledger of {group} ({season}) differs from the one counted from its rows")
    return times


def explain(store: Store, group: str, season: str) -> list[str]:
    """The plans of one answer's reads of the ledger's rows."""
    lines = []
    where = "group_id = %(group)s" + ("" if season == ALL_SEASONS else f" AND season = {int(season)}")
    key = ALL_TIME if season == ALL_SEASONS else int(season)
    with store.engine.connect() as connection:
        cursor = connection.connection.cursor()
        for query in (
                f"SELECT tally FROM mattis_ledger_tallies WHERE group_id = %(group)s AND season = {key}",
                f"SELECT * FROM mattis_ledger WHERE {where} AND finished >= coalesce((SELECT finished "
                f"FROM mattis_ledger WHERE {where} ORDER BY finished DESC OFFSET {HISTORY_SHOWN - 1} "
                "LIMIT 1), '-Infinity')"):
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {query}", {"group": group})
            lines += [str(line[0]) for line in cursor.fetchall()]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--reads", type=int, default=1_000, help="ledgers read per season choice")
    parser.add_argument("--writes", type=int, default=200, help="games counted through the store, timed")
    parser.add_argument("--check", type=int, default=10,
                        help="groups whose ledgers are compared with those counted from their rows")
    parser.add_argument("--templates", type=int, default=100, help="distinct game histories the groups share")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="an existing, empty PostgreSQL database (default: a private server)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.cluster import Postgres

    server = None
    if args.url is None:
        server = Postgres()
        server.start()
    try:
        store = Store(args.url or server.url)  # type: ignore[union-attr]
        began = time.perf_counter()
        steps = fill(store, args.groups, args.games, args.templates, args.seed)
        report: dict[str, Any] = {"groups": args.groups, "games_per_group": args.games,
                                  "rows": args.groups * args.games,
                                  "fill_seconds": round(time.perf_counter() - began, 1), **steps}
        with store.engine.connect() as connection:
            report["ledger_table_mb"] = round(int(connection.exec_driver_sql(
                "SELECT pg_total_relation_size('mattis_ledger')").scalar_one()) / 2 ** 20)
        community = Community(store)
        rng = random.Random(args.seed + 1)
        season = season_of(time.time())
        seasons = (season, ALL_SEASONS)
        for chosen in seasons:
            answer(community, *member(0), chosen)  # warm the pool
        times: dict[str, list[float]] = {chosen: [] for chosen in seasons}
        cpu: dict[str, list[float]] = {chosen: [] for chosen in seasons}
        sizes: dict[str, list[int]] = {chosen: [] for chosen in seasons}
        database_before = database_cpu(server)
        for _ in range(args.reads):
            group, player = member(rng.randrange(args.groups))
            for chosen in seasons:  # one group's two ledgers in a row: both kinds see the same load
                started, started_cpu = time.perf_counter(), time.process_time()
                sizes[chosen].append(answer(community, group, player, chosen))
                times[chosen].append(time.perf_counter() - started)
                cpu[chosen].append(time.process_time() - started_cpu)
        database_after = database_cpu(server)
        for chosen in seasons:
            report[chosen] = {"reads": len(times[chosen]),
                              "games_per_ledger": round(statistics.mean(sizes[chosen])),
                              **timings(times[chosen]),
                              "cpu_p50_ms": round(percentile(cpu[chosen], 0.5) * 1000, 2),
                              "cpu_p99_ms": round(percentile(cpu[chosen], 0.99) * 1000, 2)}
        report["database_cpu_per_read_ms"] = (
            None if database_before is None or database_after is None
            else round((database_after - database_before) / (2 * args.reads) * 1000, 2))
        report["load_average"] = [round(value, 2) for value in os.getloadavg()]
        written, touched = write_games(store, args.groups, args.writes, rng)
        report["writes"] = {"games": len(written), **timings(written)} if written else None
        sample = sorted(touched)[:args.check] + rng.sample(range(args.groups), min(args.check, args.groups))
        for chosen in seasons:
            counted = check(community, sample, chosen)
            report[chosen]["same_as_counted_from_rows"] = len(counted)
            report[chosen]["counted_from_rows"] = timings(counted)
        report["explain"] = {chosen: explain(store, member(sample[-1])[0], chosen)
                             for chosen in seasons}
        print(json.dumps(report, indent=2))
        store.close()
    finally:
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
