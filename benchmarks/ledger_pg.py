"""How fast a group's ledger answers on a PostgreSQL full of groups (issue 25, item 7).

Starts a private PostgreSQL (``tests/cluster.py``, fsync off: this measures reads), creates
Mattis's schema with its indexes, fills it with ``--groups`` groups of ``--games`` counted
games each (four members per group, three or four seats a game, one or two of them Mattis,
the games spread over two seasons), then asks for ``--reads`` ledgers of random groups, for
the current season and for all time, exactly as ``GET /api/groups/{ID}/ledger`` does (the
membership check, the season's rows, the names, the arithmetic of
:func:`mattis.table.ledger.ledger`, the JSON), and reports p50 and p99 of each answer's time,
the CPU the answer took in this process (p50), and the machine's load average (a busy
machine stretches the wall-clock times, not the CPU).

    python benchmarks/ledger_pg.py                          # the issue's size: 10,000 x 1,000
    python benchmarks/ledger_pg.py --groups 300 --games 1000 --reads 400

The goal is p99 <= 50 ms. Needs the ``test`` extras (psycopg) and Debian's ``postgresql``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from mattis.table.ledger import ledger, season_of, stored_numbers, stored_players
from mattis.web.community import Community, digest
from mattis.web.store import GROUPS, KEYS, LEDGER, MEMBERS, PLAYERS, Store

NAMES = ("Mormor", "Morfar", "Kari", "Ola", "Per", "Siri", "Jonas", "Ingrid")
CHUNK = 20_000
"""Rows per insert statement batch."""


def fill(store: Store, groups: int, games: int, seed: int) -> list[tuple[str, str]]:
    """Fill the store; returns each group's id and one member."""
    rng = random.Random(seed)
    start = datetime(2025, 1, 1, tzinfo=UTC).timestamp()
    span = datetime(2026, 12, 1, tzinfo=UTC).timestamp() - start
    picked: list[tuple[str, str]] = []
    rows: list[dict[str, Any]] = []
    now = time.time()
    with store.engine.begin() as connection:
        for number in range(groups):
            group = f"g{number:06d}"
            members = [f"p{number:06d}{index}" for index in range(4)]
            connection.execute(insert(PLAYERS), [{"id": member, "name": rng.choice(NAMES), "created": now}
                                                  for member in members])
            connection.execute(insert(KEYS), [{"hash": digest(member), "player_id": member, "created": now}
                                               for member in members])
            connection.execute(insert(GROUPS).values(
                id=group, name=f"Familien {number}", code_hash=digest(group), creator=members[0],
                created=now))
            connection.execute(insert(MEMBERS), [{"group_id": group, "player_id": member, "joined": now}
                                                  for member in members])
            picked.append((group, members[0]))
            times = sorted(start + rng.random() * span for _ in range(games))
            for index, finished in enumerate(times):
                count = rng.choice((3, 4))
                seated: list[str | None] = [*rng.sample(members, count - 1), None]
                rng.shuffle(seated)
                seats = [{"player": player, "kind": "human" if player else "bot",
                          "name": "" if player else "Robin", "level": None if player else "normal"}
                         for player in seated]
                losers = [rng.randrange(count)] if rng.random() < 0.85 else rng.sample(range(count), 2)
                out = [seat for seat in range(count) if seat not in losers]
                rng.shuffle(out)
                rows.append({"group_id": group, "table_id": f"t{number:06d}x{index // 50}",
                             "game": index % 50 + 1, "finished": finished,
                             "season": int(season_of(finished)), "seats": seats,
                             "players": stored_players(seats), "losers": stored_numbers(losers),
                             "out_order": stored_numbers(out), "lost_on_empty": len(losers) > 1})
            if len(rows) >= CHUNK:
                connection.execute(insert(LEDGER), rows)
                rows = []
        if rows:
            connection.execute(insert(LEDGER), rows)
    with store.engine.begin() as connection:
        connection.exec_driver_sql("ANALYZE")
    return picked


def read_once(community: Community, group: str, player: str, season: str) -> int:
    """One ledger, as the endpoint makes it; the number of games in it."""
    games, names = community.ledger_games(player, group, season)
    body = ledger(games, names, season)
    json.dumps(body)
    return int(body["games"])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--reads", type=int, default=1_000, help="ledgers read per season choice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="an existing PostgreSQL URL (default: a private server)")
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
        picked = fill(store, args.groups, args.games, args.seed)
        filled = time.perf_counter() - began
        community = Community(store)
        rng = random.Random(args.seed + 1)
        report: dict[str, Any] = {"groups": args.groups, "games_per_group": args.games,
                                  "rows": args.groups * args.games, "fill_seconds": round(filled, 1)}
        for season in ("2026", "all"):
            read_once(community, *picked[0], season)  # warm the pool
            times, cpu, sizes = [], [], []
            for _ in range(args.reads):
                group, player = rng.choice(picked)
                started, started_cpu = time.perf_counter(), time.process_time()
                sizes.append(read_once(community, group, player, season))
                times.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
            report[season] = {"reads": len(times), "games_per_ledger": round(statistics.mean(sizes)),
                              "p50_ms": round(percentile(times, 0.5) * 1000, 2),
                              "p99_ms": round(percentile(times, 0.99) * 1000, 2),
                              "server_cpu_p50_ms": round(percentile(cpu, 0.5) * 1000, 2)}
        report["load_average"] = [round(value, 2) for value in os.getloadavg()]
        print(json.dumps(report, indent=2))
        store.close()
    finally:
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
