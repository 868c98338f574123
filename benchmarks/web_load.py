"""Load on the web server: many tables at once over real WebSockets (issue 8, item 8).

Starts a server process (the app of ``mattis serve`` with bots moving at once and the rate
limit raised, since one scripted client plays as fast as it can), then plays ``--tables``
tables at the same time, each with one scripted client (random legal moves, seeded) and two
``normal`` bots on the server. Reports the actions per second the server handled (every
action of every table: the clients' and the bots'), the time from sending an action to
receiving the state that follows it (p50, p99) and the server process's memory.

    python benchmarks/web_load.py --tables 100 --seed 1                # bots at the served pace
    python benchmarks/web_load.py --tables 100 --seed 1 --bot-delay 0  # saturated

With ``--processes N`` (issue 18) the same load goes through nginx, with the shipped
configuration, to N server processes on one PostgreSQL database (a private cluster with
fsync on, from ``tests/cluster.py``), and the report adds each process's memory and CPU.
``--kill-after S`` then SIGKILLs the server that owns the most tables S seconds into the run
and reports the takeover: for each of its tables, the time from the kill to the first state
its client receives again (reconnected through nginx to the server that took it over).

    python benchmarks/web_load.py --tables 100 --seed 1 --bot-delay 0 --processes 3
    python benchmarks/web_load.py --tables 30 --seed 1 --processes 3 --kill-after 10

Needs the ``test`` extras (websockets, psutil, psycopg) and, for ``--processes``, Debian's
``postgresql`` and ``nginx``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

SERVED_BOT_DELAY = 0.8
"""``mattis serve``'s ``--bot-delay`` default (``table_profile("server").bot_delay``)."""


def serve(port: int, db: str, bot_delay: float) -> None:
    """The server process: ``mattis serve``'s app and uvicorn configuration (nginx on
    loopback trusted for ``X-Forwarded-For``), bots waiting ``bot_delay`` before a move."""
    import uvicorn

    from mattis.web import Settings, create_app
    from mattis.web.server import uvicorn_config

    table = dataclasses.replace(Settings().table, bot_delay=bot_delay)
    settings = Settings(table=table, rate=10_000.0, burst=10_000.0, posts_per_minute=100_000.0,
                        max_sockets_per_address=100_000)
    app = create_app(db, settings)
    uvicorn.Server(uvicorn_config(app, "127.0.0.1", port, settings, forwarded_allow_ips="127.0.0.1")).run()


@dataclass
class Totals:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    client_actions: int = 0
    tables: list[str] = field(default_factory=list)
    errors: int = 0
    killed_at: float | None = None
    """When the server was killed (``time.perf_counter()``), with ``--kill-after``."""
    victims: set[str] = field(default_factory=set)
    """The tables the killed server owned."""
    takeovers: dict[str, float] = field(default_factory=dict)
    """Each victim table's seconds from the kill to its client's next state."""


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    for _ in range(100):  # asked again while nginx has no server or the answer is "moved"
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                data: dict[str, Any] = json.loads(response.read())
                return data
        except urllib.error.HTTPError as error:
            if error.code not in (502, 503):
                raise
        except urllib.error.URLError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"error: {url} kept failing")


async def play_table(base: str, index: int, games: int, seed: int, totals: Totals) -> None:
    """One scripted client playing ``games`` games against two ``normal`` bots."""
    rng = random.Random(f"{seed}/{index}")
    table = await asyncio.to_thread(post, f"{base}/api/tables", {
        "rules": "pagat", "players": 3, "seed": seed * 1000 + index,
        "seats": [{"kind": "human", "name": f"Client {index}"},
                  {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "normal"}]})
    table_id = table["table"]
    totals.tables.append(table_id)
    url = base.replace("http", "ws") + f"/ws/tables/{table_id}?token={table['token']}"
    played = 0
    while played < games:  # a socket that drops (its server killed) is opened again, as the page does
        sent_at: float | None = None
        try:
            async with connect(url, max_size=2**22) as ws:
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] == "error":
                        totals.errors += message["code"] != "moved"
                        continue
                    if message["type"] != "state":
                        continue
                    if totals.killed_at is not None and table_id in totals.victims \
                            and table_id not in totals.takeovers:
                        totals.takeovers[table_id] = time.perf_counter() - totals.killed_at
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
        except (OSError, ConnectionClosed, InvalidStatus):
            pass
        await asyncio.sleep(0.1)


def count_actions(base: str, tables: list[str], games: int) -> int:
    """Every action of every finished game, from the records."""
    total = 0
    for table_id in tables:
        for number in range(1, games + 1):
            with urllib.request.urlopen(f"{base}/api/tables/{table_id}/record?game={number}",
                                        timeout=30) as response:
                total += len(json.loads(response.read())["actions"])
    return total


def tree_rss(process: psutil.Process) -> float:
    """Resident MiB of a server process and its workers (0 once it has ended)."""
    try:
        return float(sum(p.memory_info().rss for p in [process, *process.children(recursive=True)])) / 2**20
    except psutil.Error:
        return 0.0


def cpu_seconds(process: psutil.Process) -> float:
    try:
        return float(sum(process.cpu_times()[:2]))
    except psutil.Error:
        return 0.0


def tree_cpu_seconds(process: psutil.Process) -> float:
    """CPU seconds of a process, its children alive and those it has reaped (PostgreSQL's
    backends come and go; nginx's worker stays)."""
    try:
        times = process.cpu_times()
        total = times.user + times.system + times.children_user + times.children_system
        for child in process.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                total += sum(child.cpu_times()[:2])
        return float(total)
    except psutil.Error:
        return 0.0


async def sample(processes: list[psutil.Process], peaks: list[float], cpu: list[float],
                 stop: asyncio.Event) -> None:
    """Each server's peak memory, and its CPU time as last seen (a killed one's stays)."""
    while not stop.is_set():
        for index, process in enumerate(processes):
            peaks[index] = max(peaks[index], tree_rss(process))
            cpu[index] = max(cpu[index], cpu_seconds(process))
        await asyncio.sleep(0.25)


async def run(base: str, server_pids: list[int], tables: int, games: int, seed: int,
              kill: Callable[[Totals], None] | None = None, kill_after: float = 0.0,
              others: dict[str, int] | None = None) -> dict[str, Any]:
    """Play the tables; ``others`` names more processes whose CPU time (with their
    children's) is reported, e.g. PostgreSQL and nginx."""
    totals = Totals()
    helpers = {name: psutil.Process(pid) for name, pid in (others or {}).items()}
    helper_cpu = {name: tree_cpu_seconds(process) for name, process in helpers.items()}
    processes = [psutil.Process(pid) for pid in server_pids]
    idle = [tree_rss(process) for process in processes]
    peaks = list(idle)
    stop = asyncio.Event()
    server_cpu = [cpu_seconds(process) for process in processes]
    last_cpu = list(server_cpu)
    sampler = asyncio.create_task(sample(processes, peaks, last_cpu, stop))
    client_cpu = time.process_time()
    started = time.perf_counter()
    killer = None
    if kill is not None:
        async def kill_later() -> None:
            await asyncio.sleep(kill_after)
            await asyncio.to_thread(kill, totals)

        killer = asyncio.create_task(kill_later())
    await asyncio.gather(*(play_table(base, index, games, seed, totals) for index in range(tables)))
    seconds = time.perf_counter() - started
    client_cpu = time.process_time() - client_cpu
    stop.set()
    await sampler
    server_cpu = [max(last, cpu_seconds(process)) - before
                  for process, before, last in zip(processes, server_cpu, last_cpu, strict=True)]
    helper_cpu = {name: tree_cpu_seconds(helpers[name]) - before for name, before in helper_cpu.items()}
    if killer is not None:
        await killer
    actions = await asyncio.to_thread(count_actions, base, totals.tables, games)
    latencies = sorted(totals.latencies)
    report: dict[str, Any] = {
        "tables": tables, "games_per_table": games, "seconds": round(seconds, 2),
        "actions": actions, "actions_per_second": round(actions / seconds, 1),
        "client_actions": totals.client_actions,
        "latency_ms_p50": round(1000 * statistics.median(latencies), 2),
        "latency_ms_p99": round(1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 2),
        "latency_ms_max": round(1000 * latencies[-1], 2),
        "errors": totals.errors,
        "server_cpu_seconds": [round(cpu, 2) for cpu in server_cpu],
        "client_cpu_seconds": round(client_cpu, 2),
        **{f"{name}_cpu_seconds": round(cpu, 2) for name, cpu in helper_cpu.items()},
        "server_rss_mb_idle": [round(rss, 1) for rss in idle],
        "server_rss_mb_peak": [round(rss, 1) for rss in peaks],
        "cpus": os.cpu_count(), "load_average_1min": round(os.getloadavg()[0], 2),
    }
    if kill is not None:
        takeovers = sorted(totals.takeovers.values())
        report["killed_tables"] = len(totals.victims)
        report["takeover_seconds"] = {
            "min": round(takeovers[0], 3), "p50": round(statistics.median(takeovers), 3),
            "max": round(takeovers[-1], 3)} if takeovers else None
        report["killed_tables_not_back"] = len(totals.victims) - len(takeovers)
    return report


def owners(db: str) -> dict[str, int]:
    """Each table's owner number, from the database."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    try:
        with engine.connect() as connection:
            return {str(table): int(owner) for table, owner in connection.execute(
                text("SELECT table_id, owner FROM mattis_leases WHERE owner IS NOT NULL"))}
    finally:
        engine.dispose()


def run_cluster(args: argparse.Namespace) -> dict[str, Any]:
    """The load through nginx to ``args.processes`` servers on PostgreSQL."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.cluster import cluster

    def command(port: int, db: str) -> list[str]:
        return [sys.executable, __file__, "--serve", str(port), "--db", db,
                "--bot-delay", str(args.bot_delay)]

    with cluster(args.processes, command, fsync=True) as running:
        servers = running.servers

        def kill(totals: Totals) -> None:
            by_owner = servers.owner_ports()
            held = owners(running.postgres.url)
            counts = {port: sum(1 for owner in held.values() if by_owner.get(owner) == port)
                      for port in servers.ports}
            victim = max(counts, key=lambda port: counts[port])
            totals.victims = {table for table, owner in held.items() if by_owner.get(owner) == victim}
            totals.killed_at = time.perf_counter()
            servers.kill(victim)

        pids = [servers.processes[port].pid for port in servers.ports]
        postmaster = int((running.postgres.folder / "data" / "postmaster.pid").read_text().split()[0])
        assert running.nginx.process is not None
        others = {"postgres": postmaster, "nginx": running.nginx.process.pid}
        report = asyncio.run(run(running.base, pids, args.tables, args.games, args.seed,
                                 kill if args.kill_after else None, args.kill_after, others))
    report["processes"] = args.processes
    report["database"] = "postgresql (fsync on), behind nginx"
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--games", type=int, default=1, help="games per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-delay", type=float, default=SERVED_BOT_DELAY,
                        help="seconds before each bot move (default: mattis serve's pace for "
                             "people; 0: as fast as the server goes)")
    parser.add_argument("--processes", type=int, default=0,
                        help="server processes behind nginx on PostgreSQL (default 0: one server on "
                             "SQLite, no proxy)")
    parser.add_argument("--kill-after", type=float, default=0.0,
                        help="with --processes: SIGKILL the server owning the most tables this many "
                             "seconds in, and report the takeover time")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.db, args.bot_delay)
        return
    if args.processes:
        report = run_cluster(args)
        report["bot_delay"] = args.bot_delay
        print(json.dumps(report, indent=2))
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
        report = asyncio.run(run(base, [server.pid], args.tables, args.games, args.seed))
        report["bot_delay"] = args.bot_delay
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
