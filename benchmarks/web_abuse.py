"""Abuse of the web server: a hint flood and thousands of sockets (issue 13, item 6).

Two scenarios, each against a fresh server process (the app of ``mattis serve``, its own
default worker count, table creation unthrottled so the script can set up its tables):

* ``hints``: one honest table (a scripted person and two ``normal`` bots) plays quietly,
  asking for a hint before each move; then ``--flood-tables`` other tables start flooding
  hints (each asks at its turn, about 9 times a second, and never moves) and the honest
  table plays on. Reports the honest table's hint latency (asking → answer; refusals are
  counted apart) and move latency (sending → the state that follows): quiet, in the
  flood's first ``--flood-warmup`` seconds, and under the flood after that.
* ``sockets``: ``--sockets`` WebSockets opened to one seat, ``--concurrency`` at a time,
  while an honest table at the same server keeps playing. Run twice: with the per-seat and
  per-address caps lifted (the cost of a connect) and with the server's own caps (the
  refusals). Reports the time to open them, how many were accepted, the server's memory
  and the honest table's move latency meanwhile.

    python benchmarks/web_abuse.py                      # both scenarios
    python benchmarks/web_abuse.py --scenario hints --flood-tables 20 --honest-turns 20
    python benchmarks/web_abuse.py --scenario sockets --sockets 2000

Needs the ``web`` and ``test`` extras (websockets, psutil). Prints one JSON report.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

LIFTED_CAPS = {"max_sockets_per_seat": 1_000_000, "max_sockets_per_address": 1_000_000}
"""Settings that lift the socket caps (fields the server ignores if it has no caps)."""


def serve(port: int, db: str, options: dict[str, Any]) -> None:
    """The server process: ``mattis serve``'s app with ``options`` as its settings (the
    ones this version of the server knows)."""
    import uvicorn

    from mattis.web import Settings, create_app

    known = {item.name for item in dataclasses.fields(Settings)}
    chosen = {name: value for name, value in options.items() if name in known}
    if "table" in known:  # since issue 23 the tables' own settings are a profile inside Settings
        table = Settings().table
        table_known = {item.name for item in dataclasses.fields(table)}
        chosen["table"] = dataclasses.replace(table, **{name: value for name, value in options.items()
                                                        if name in table_known})
    settings = Settings(**chosen)
    app = create_app(db, settings)
    try:
        from mattis.web.server import uvicorn_config
    except ImportError:  # the server before issue 13: mattis serve's uvicorn options then
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                ws_max_size=64 * 1024, ws="websockets-sansio")
    else:
        config = uvicorn_config(app, "127.0.0.1", port, settings)
    uvicorn.Server(config).run()


# ---------------------------------------------------------------------- measuring


def percentile(values: list[float], share: float) -> float | None:
    """The ``share`` quantile of ``values`` in milliseconds (``None`` when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


def summary(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "p50_ms": percentile(values, 0.5), "p99_ms": percentile(values, 0.99),
            "max_ms": percentile(values, 1.0),
            "mean_ms": round(1000 * statistics.fmean(values), 1) if values else None}


def rss_mib(pid: int, children: bool = False) -> float:
    process = psutil.Process(pid)
    processes = [process, *process.children(recursive=True)] if children else [process]
    return round(sum(p.memory_info().rss for p in processes) / 2**20, 1)


@dataclass
class Honest:
    """What the honest table measured, per phase."""

    hints: dict[str, list[float]] = field(default_factory=dict)
    moves: dict[str, list[float]] = field(default_factory=dict)
    refusals: Counter[str] = field(default_factory=Counter)
    phase: str = "quiet"
    turns: int = 0


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


async def new_table(base: str, name: str) -> str:
    """A table of one person and two ``normal`` bots; the person's socket address."""
    table = await asyncio.to_thread(post, f"{base}/api/tables", {
        "rules": "pagat", "players": 3, "seats": [
            {"kind": "human", "name": name}, {"kind": "bot", "level": "normal"},
            {"kind": "bot", "level": "normal"}]})
    return base.replace("http", "ws") + f"/ws/tables/{table['table']}?token={table['token']}"


async def message(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(await ws.recv())
    return data


async def play_honestly(base: str, honest: Honest, stop: asyncio.Event, hints: bool, seed: int) -> None:
    """A person at a table: at each turn (until ``stop``) a hint if ``hints``, then a random
    legal move; a new game when one ends."""
    rng = random.Random(seed)
    async with connect(await new_table(base, "Honest"), max_size=2**22, open_timeout=120) as ws:
        state = await message(ws)
        while not stop.is_set():
            if state["type"] != "state" or state["view"] is None or not state["legal"]:
                if state["type"] == "state" and state["view"] and state["view"]["phase"] == "over":
                    await ws.send(json.dumps({"type": "again"}))
                state = await message(ws)
                continue
            if hints:
                asked = time.perf_counter()
                await ws.send(json.dumps({"type": "hint"}))
                while (reply := await message(ws))["type"] not in ("hint", "error"):
                    pass
                if reply["type"] == "error":  # counted, not timed: no hint came
                    honest.refusals[f"{honest.phase}: {reply['code']}"] += 1
                else:
                    honest.hints.setdefault(honest.phase, []).append(time.perf_counter() - asked)
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": rng.choice(state["legal"])}))
            while (state := await message(ws))["type"] != "state":
                if state["type"] == "error":
                    honest.refusals[state["code"]] += 1
            honest.moves.setdefault(honest.phase, []).append(time.perf_counter() - sent)
            honest.turns += 1
            await asyncio.sleep(0.12)  # a person's pace, under the rate limit


async def flood_hints(url: str, stop: asyncio.Event, answers: Counter[str]) -> None:
    """A client that asks for hints about 9 times a second at its turn and never moves."""
    async with connect(url, max_size=2**22, open_timeout=120) as ws:
        while True:
            state = await message(ws)
            if state["type"] == "state" and state["legal"]:
                break

        async def read() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for raw in ws:
                    reply = json.loads(raw)
                    answers[reply.get("code", reply["type"])] += 1

        reader = asyncio.create_task(read())
        while not stop.is_set():
            await ws.send(json.dumps({"type": "hint"}))
            await asyncio.sleep(0.11)
        reader.cancel()


async def until(condition: Any, *watched: asyncio.Task[Any]) -> None:
    """Wait until ``condition()`` holds; a watched client that died ends the run with its error."""
    while not condition():
        for task in watched:
            if task.done():
                task.result()
                raise SystemExit("error: a client stopped early")
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def server(options: dict[str, Any]) -> AsyncIterator[tuple[str, int]]:
    """A fresh server process on a new SQLite file: its address and process id."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="mattis-abuse-")
    process = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--db",
                                f"sqlite:///{folder}/abuse.sqlite3", "--options", json.dumps(options)])
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/options", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit("error: the server did not start") from None
                await asyncio.sleep(0.1)
        yield base, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # still busy writing to its sockets
            process.kill()
            process.wait(timeout=20)


# ---------------------------------------------------------------------- scenarios


async def hints_scenario(args: argparse.Namespace) -> dict[str, Any]:
    options = {"bot_delay": args.bot_delay, "posts_per_minute": 1e6}
    async with server(options) as (base, pid):
        honest = Honest()
        stop = asyncio.Event()
        player = asyncio.create_task(play_honestly(base, honest, stop, True, args.seed))
        await until(lambda: honest.turns >= args.quiet_turns, player)
        rss_quiet = rss_mib(pid, children=True)
        flood_stop = asyncio.Event()
        answers: Counter[str] = Counter()
        urls = [await new_table(base, f"Flood {index}") for index in range(args.flood_tables)]
        honest.phase = "flood_start"
        floods = [asyncio.create_task(flood_hints(url, flood_stop, answers)) for url in urls]
        await asyncio.sleep(args.flood_warmup)
        honest.phase = "flood"
        started = honest.turns
        flood_started = time.perf_counter()
        await until(lambda: honest.turns >= started + args.honest_turns, player, *floods)
        flood_seconds = time.perf_counter() - flood_started
        rss_flood = rss_mib(pid, children=True)
        stop.set()
        flood_stop.set()
        for task in (player, *floods):
            task.cancel()
        await asyncio.gather(player, *floods, return_exceptions=True)
    return {
        "flood_tables": args.flood_tables, "bot_delay": args.bot_delay,
        "honest_hint_quiet": summary(honest.hints.get("quiet", [])),
        "honest_hint_flood_start": summary(honest.hints.get("flood_start", [])),
        "honest_hint_flood": summary(honest.hints.get("flood", [])),
        "honest_move_quiet": summary(honest.moves.get("quiet", [])),
        "honest_move_flood": summary(honest.moves.get("flood", [])),
        "honest_refusals": dict(honest.refusals),
        "flood_seconds": round(flood_seconds, 1),
        "flood_replies": dict(answers),
        "server_rss_mib_with_workers": {"quiet": rss_quiet, "flood": rss_flood},
    }


async def open_sockets(url: str, count: int, concurrency: int, deadline: float,
                       kept: list[ClientConnection], outcome: Counter[str]) -> None:
    """Open ``count`` sockets to ``url``, ``concurrency`` at a time, each kept open (and read)
    if the server accepts it."""
    gate = asyncio.Semaphore(concurrency)

    async def drain(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for _ in ws:
                pass

    async def one() -> None:
        async with gate:
            if time.perf_counter() > deadline:
                outcome["not_tried"] += 1
                return
            try:
                ws = await connect(url, max_size=2**22, open_timeout=120, ping_interval=None)
                first = json.loads(await asyncio.wait_for(ws.recv(), 120))
            except Exception as error:
                outcome[f"failed: {type(error).__name__}"] += 1
                return
            if first["type"] == "state":
                outcome["accepted"] += 1
                kept.append(ws)
                asyncio.get_running_loop().create_task(drain(ws))
            else:
                outcome[first.get("code", first["type"])] += 1
                await ws.close()

    await asyncio.gather(*(one() for _ in range(count)))


async def sockets_run(args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    async with server({"bot_delay": args.bot_delay, "posts_per_minute": 1e6, **options}) as (base, pid):
        honest = Honest()
        stop = asyncio.Event()
        player = asyncio.create_task(play_honestly(base, honest, stop, False, args.seed))
        await until(lambda: honest.turns >= args.quiet_turns, player)
        url = await new_table(base, "Crowded")
        rss_before = rss_mib(pid)
        honest.phase = "sockets"
        kept: list[ClientConnection] = []
        outcome: Counter[str] = Counter()
        started = time.perf_counter()
        await open_sockets(url, args.sockets, args.concurrency, started + args.socket_seconds, kept, outcome)
        seconds = time.perf_counter() - started
        rss_after = rss_mib(pid)
        honest.phase = "after"
        turns = honest.turns
        await until(lambda: honest.turns >= turns + 10, player)
        stop.set()
        player.cancel()
        await asyncio.gather(player, return_exceptions=True)
        await asyncio.gather(*(ws.close() for ws in kept), return_exceptions=True)
    return {"sockets": args.sockets, "concurrency": args.concurrency, "seconds": round(seconds, 2),
            "outcome": dict(outcome), "server_rss_mib": {"before": rss_before, "after": rss_after},
            "honest_move_quiet": summary(honest.moves.get("quiet", [])),
            "honest_move_while_opening": summary(honest.moves.get("sockets", [])),
            "honest_move_after": summary(honest.moves.get("after", []))}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {"cpus": os.cpu_count(), "load_average": os.getloadavg()[0]}
    if args.scenario in ("hints", "all"):
        report["hints"] = await hints_scenario(args)
    if args.scenario in ("sockets", "all"):
        if args.caps in ("lifted", "both"):
            report["sockets_caps_lifted"] = await sockets_run(args, LIFTED_CAPS)
        if args.caps in ("default", "both"):
            report["sockets_default_caps"] = await sockets_run(args, {})
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=["hints", "sockets", "all"], default="all")
    parser.add_argument("--flood-tables", type=int, default=20)
    parser.add_argument("--flood-warmup", type=float, default=15.0,
                        help="seconds of the flood's start (reported on their own) before the "
                             "honest table's turns count as under the flood")
    parser.add_argument("--quiet-turns", type=int, default=8, help="honest turns before the abuse")
    parser.add_argument("--honest-turns", type=int, default=20, help="honest turns under the flood")
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--caps", choices=["lifted", "default", "both"], default="both",
                        help="socket runs: with the caps lifted, with the server's caps, or both")
    parser.add_argument("--concurrency", type=int, default=50, help="sockets being opened at once")
    parser.add_argument("--socket-seconds", type=float, default=300.0,
                        help="stop opening sockets after this long")
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--options", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.sockets + 1024)), hard))
    if args.serve:
        serve(args.serve, args.db, json.loads(args.options))
        return
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()
