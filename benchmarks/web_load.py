"""Load on the web server: many tables at once over real WebSockets (issue 8, item 8).

Starts a server process (the app of ``mattis serve`` with bots moving at once and the rate
limit raised, since one scripted client plays as fast as it can), then plays ``--tables``
tables at the same time, each with one scripted client (random legal moves, seeded) and two
``normal`` bots on the server. Reports the actions per second the server handled (every
action of every table: the clients' and the bots'), the time from sending an action to
receiving the state that follows it (p50, p99) and the server process's memory.

    python benchmarks/web_load.py --tables 100 --seed 1                # bots at the served pace
    python benchmarks/web_load.py --tables 100 --seed 1 --bot-delay 0  # saturated

Needs the ``web`` and ``test`` extras (websockets, psutil).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import psutil
from websockets.asyncio.client import connect

SERVED_BOT_DELAY = 0.8
"""``mattis serve``'s ``--bot-delay`` default (``Settings().bot_delay``)."""


def serve(port: int, db: str, bot_delay: float) -> None:
    """The server process: ``mattis serve``'s app, bots waiting ``bot_delay`` before a move."""
    import uvicorn

    from mattis.web import Settings, create_app

    settings = Settings(bot_delay=bot_delay, rate=10_000.0, burst=10_000.0, posts_per_minute=100_000.0)
    uvicorn.run(create_app(db, settings), host="127.0.0.1", port=port, log_level="warning",
                ws="websockets-sansio")


@dataclass
class Totals:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    client_actions: int = 0
    tables: list[str] = field(default_factory=list)
    errors: int = 0


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


async def play_table(base: str, index: int, games: int, seed: int, totals: Totals) -> None:
    """One scripted client playing ``games`` games against two ``normal`` bots."""
    rng = random.Random(f"{seed}/{index}")
    table = await asyncio.to_thread(post, f"{base}/api/tables", {
        "rules": "pagat", "players": 3, "seed": seed * 1000 + index,
        "seats": [{"kind": "human", "name": f"Client {index}"},
                  {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "normal"}]})
    totals.tables.append(table["table"])
    url = base.replace("http", "ws") + f"/ws/tables/{table['table']}?token={table['token']}"
    played = 0
    sent_at: float | None = None
    async with connect(url, max_size=2**22) as ws:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "error":
                totals.errors += 1
                continue
            if message["type"] != "state":
                continue
            if sent_at is not None:
                totals.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            view = message["view"]
            if view is None:
                continue
            if view["phase"] == "over":
                if message["table"]["game"] > played:
                    played = message["table"]["game"]
                    if played >= games:
                        return
                    await ws.send(json.dumps({"type": "again"}))
                continue
            if message["legal"]:
                sent_at = time.perf_counter()
                totals.client_actions += 1
                await ws.send(json.dumps({"type": "act", "action": rng.choice(message["legal"])}))


def count_actions(base: str, tables: list[str], games: int) -> int:
    """Every action of every finished game, from the records."""
    total = 0
    for table_id in tables:
        for number in range(1, games + 1):
            with urllib.request.urlopen(f"{base}/api/tables/{table_id}/record?game={number}",
                                        timeout=30) as response:
                total += len(json.loads(response.read())["actions"])
    return total


async def sample_memory(process: psutil.Process, peak: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        rss = sum(p.memory_info().rss for p in [process, *process.children(recursive=True)])
        peak[0] = max(peak[0], rss / 2**20)
        await asyncio.sleep(0.25)


async def run(base: str, server_pid: int, tables: int, games: int, seed: int) -> dict[str, Any]:
    totals = Totals()
    process = psutil.Process(server_pid)
    idle_rss = process.memory_info().rss / 2**20
    peak = [idle_rss]
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(process, peak, stop))
    server_cpu = sum(process.cpu_times()[:2])
    client_cpu = time.process_time()
    started = time.perf_counter()
    await asyncio.gather(*(play_table(base, index, games, seed, totals) for index in range(tables)))
    seconds = time.perf_counter() - started
    server_cpu = sum(process.cpu_times()[:2]) - server_cpu
    client_cpu = time.process_time() - client_cpu
    stop.set()
    await sampler
    actions = await asyncio.to_thread(count_actions, base, totals.tables, games)
    latencies = sorted(totals.latencies)
    return {
        "tables": tables, "games_per_table": games, "seconds": round(seconds, 2),
        "actions": actions, "actions_per_second": round(actions / seconds, 1),
        "client_actions": totals.client_actions,
        "latency_ms_p50": round(1000 * statistics.median(latencies), 2),
        "latency_ms_p99": round(1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 2),
        "latency_ms_max": round(1000 * latencies[-1], 2),
        "errors": totals.errors,
        "server_cpu_seconds": round(server_cpu, 2), "client_cpu_seconds": round(client_cpu, 2),
        "server_rss_mb_idle": round(idle_rss, 1), "server_rss_mb_peak": round(peak[0], 1),
        "server_rss_mb_after": round(process.memory_info().rss / 2**20, 1),
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--games", type=int, default=1, help="games per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-delay", type=float, default=SERVED_BOT_DELAY,
                        help="seconds before each bot move (default: mattis serve's pace for "
                             "people; 0: as fast as the server goes)")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.db, args.bot_delay)
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="mattis-load-")
    db = f"sqlite:///{folder}/load.sqlite3"
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--db", db,
                               "--bot-delay", str(args.bot_delay)])
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/options", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("error: the server did not start") from None
                time.sleep(0.1)
        report = asyncio.run(run(base, server.pid, args.tables, args.games, args.seed))
        report["bot_delay"] = args.bot_delay
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
