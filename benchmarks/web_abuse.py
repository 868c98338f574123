"""Abuse of the web server: a hint flood and thousands of sockets (issue 13, item 6);
hostile clients at the connection level, and a flood of new tables, searching bots and
hints from a few addresses, and a restart (issue 29).

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

Transport scenarios (issue 29), each against a fresh server while an honest client asks
``/healthz`` and plays a round (create a table, open its socket, make a move) twice a second;
attackers connect from other loopback addresses, 50 connections to an address:

* ``ws-choice``: uvicorn's WebSocket implementations as it ships them (``websockets``,
  ``websockets-sansio``, ``wsproto``: needs ``pip install wsproto==1.3.2``) and mattis serve's
  own (``guarded``): an honest socket's connect and round-trip latency, the memory of an idle
  socket, what each hostile handshake gets, and the server's CPU per 130-header upgrade.
* ``handshake-flood``: ``--flood-handshakes`` upgrades held open (half with 130 headers,
  half never finished): answers, closes, the server's memory and files before, during and
  after, and the honest client's latency.
* ``slow-bodies``: chunked bodies trickled a byte every 2 s: the 408s and the closes.
* ``unread-responses``: clients that ask for the 9.6 MB wasm and never read.
* ``one-address``: ``--address-connections`` never-ending heads from one address.

Run a scenario with another checkout's Python (``/work/main/.venv/bin/python
benchmarks/web_abuse.py --scenario handshake-flood``) to measure that server instead.

    python benchmarks/web_abuse.py                      # every scenario
    python benchmarks/web_abuse.py --scenario hints --flood-tables 20 --honest-turns 20
    python benchmarks/web_abuse.py --scenario sockets --sockets 2000

The scenarios of issue 29 run one at a time; the server trusts loopback as its proxy, so
each client names its address with ``X-Forwarded-For``:

* ``create-flood``: ``--flood-addresses`` addresses create tables that wait for a friend as
  fast as each may (bursts of 20, then the rate limit), for ``--create-seconds``, while a
  new household creates a table every second. Reports what the flood got, the households'
  answers and their latency, the tables in memory and the server's memory.
* ``workers``: an honest table asks a hint at each turn, quietly, then while one address
  runs ``--expert-tables`` tables of two ``expert`` bots (moving at once at each of its
  turns) and another floods hints from ``--flood-tables`` tables. Reports the honest hint's
  p50 quiet (the baseline) and under the attack, and their ratio.
* ``restart``: the time from starting a server process to its first answer, on an empty
  database and on one holding ``--stored-tables`` tables that wait for players (written
  straight into the store).

    python benchmarks/web_abuse.py --scenario create-flood --flood-addresses 445
    python benchmarks/web_abuse.py --scenario workers --expert-tables 20 --flood-tables 20
    python benchmarks/web_abuse.py --scenario restart --stored-tables 10000

Needs the ``web`` and ``test`` extras (websockets, psutil). Prints one JSON report.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import importlib.util
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
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

LIFTED_CAPS = {"max_sockets_per_seat": 1_000_000, "max_sockets_per_address": 1_000_000,
               "max_connections_per_address": 1_000_000}
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
    app = create_app(db, settings, workers=options.get("workers"))  # None: the server's default
    try:
        from mattis.web.server import uvicorn_config
    except ImportError:  # the server before issue 13: mattis serve's uvicorn options then
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                ws_max_size=64 * 1024, ws="websockets-sansio")
    else:  # the scenarios of issue 29 trust loopback as a proxy, to fake many client addresses
        config = uvicorn_config(app, "127.0.0.1", port, settings,
                                forwarded_allow_ips=options.get("forwarded_allow_ips"))
    if options.get("ws_implementation"):  # --scenario ws-choice: uvicorn's own protocols as shipped
        config.http, config.ws = "h11", options["ws_implementation"]
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


def post(url: str, body: dict[str, Any], address: str | None = None) -> dict[str, Any]:
    """A POST answered 2xx, from ``address`` (``X-Forwarded-For``) when given."""
    headers = {"content-type": "application/json", **forwarded(address)}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def forwarded(address: str | None) -> dict[str, str]:
    """The header that names the client's address to a server trusting loopback as its proxy."""
    return {} if address is None else {"x-forwarded-for": address}


async def new_table(base: str, name: str, address: str | None = None) -> str:
    """A table of one person and two ``normal`` bots; the person's socket address."""
    table = await asyncio.to_thread(post, f"{base}/api/tables", {
        "rules": "pagat", "players": 3, "seats": [
            {"kind": "human", "name": name}, {"kind": "bot", "level": "normal"},
            {"kind": "bot", "level": "normal"}]}, address)
    return base.replace("http", "ws") + f"/ws/tables/{table['table']}?token={table['token']}"


async def message(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(await ws.recv())
    return data


async def play_honestly(base: str, honest: Honest, stop: asyncio.Event, hints: bool, seed: int,
                        address: str | None = None) -> None:
    """A person at a table (from ``address`` if given): at each turn (until ``stop``) a hint
    if ``hints``, then a random legal move; a new game when one ends."""
    rng = random.Random(seed)
    async with connect(await new_table(base, "Honest", address), max_size=2**22, open_timeout=120,
                       additional_headers=forwarded(address)) as ws:
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


# ---------------------------------------------------------------------- transport (issue 29)
#
# Hostile clients at the connection level, each scenario against a fresh server while an
# honest client (from 127.0.0.1) asks /healthz and plays a round (create a table, open its
# socket, make a move) about twice a second. The attackers connect from other loopback
# addresses (127.0.x.y), 50 connections to an address, so the cap per address does not hide
# what the other limits do (except in one-address, which is about that cap).

UPGRADE = (b"GET /ws/tables/nothing?token=x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
           b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           b"Sec-WebSocket-Version: 13\r\n")
HOSTILE_HANDSHAKES = {
    "130_headers": UPGRADE + b"".join(b"X-N%d: a\r\n" % index for index in range(130)) + b"\r\n",
    "9_kib_header_line": UPGRADE + b"X-Long: " + b"a" * 9000 + b"\r\n\r\n",
    "body_on_upgrade": UPGRADE + b"Content-Length: 5\r\n\r\nhello",
    "60_kib_head_in_one_packet": UPGRADE + b"".join(b"X-P%d: %s\r\n" % (index, b"b" * 1000)
                                                    for index in range(60)) + b"\r\n",
    "unfinished_head": UPGRADE + b"X-Slow: 1\r\n",
}
"""Upgrades a hostile client sends: refused by websockets' parser (over 128 headers, a line
over 8 KiB, a body), over 16 KiB in one packet, and one whose head never ends."""
TRANSPORT_OPTIONS = {"bot_delay": 0.0, "posts_per_minute": 1e6}
"""Bots move at once (the honest round measures the server, not the bots' pace)."""
IMPLEMENTATIONS = ["websockets", "websockets-sansio", "wsproto", "guarded"]
"""uvicorn's WebSocket implementations as it ships them (with its own h11 protocol), and
``guarded``: mattis serve's own (websockets' sans-I/O one with the server's limits)."""
WASM = "/static/app/pyodide/pyodide.asm.wasm"
"""The largest file the server sends (9.6 MB), once the offline app is built."""


def attacker(index: int) -> str:
    """The loopback address of the ``index``th attacking connection: 50 to an address."""
    group = index // 50
    return f"127.0.{1 + group // 250}.{group % 250 + 1}"


def server_fds(pid: int) -> int:
    return int(psutil.Process(pid).num_fds())


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


@dataclass
class Raw:
    """A client's TCP connection, and when it was opened (``time.perf_counter``)."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    opened: float


async def raw_open(port: int, source: str, data: bytes = b"", receive_buffer: int | None = None) -> Raw:
    """A TCP connection to the server from ``source`` that sends ``data`` at once."""
    raw = socket.socket()
    if receive_buffer is not None:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    raw.bind((source, 0))
    raw.setblocking(False)
    await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=raw, limit=2**20)
    if data:
        writer.write(data)
    return Raw(reader, writer, time.perf_counter())


@dataclass
class Outcome:
    """What one hostile connection saw: the status answered (``none``: nothing), when, and
    when the server closed the connection (``None``: still open at the end)."""

    status: str = "none"
    answered: float | None = None
    closed: float | None = None


async def watch_connection(connection: Raw, deadline: float) -> Outcome:
    """Read what the server sends until it closes it, or until ``deadline``; the times are
    counted from the connection's opening."""
    outcome = Outcome()
    since = connection.opened
    try:
        async with asyncio.timeout(max(0.0, deadline - time.perf_counter())):
            while chunk := await connection.reader.read(65536):
                if outcome.answered is None:
                    outcome.answered = time.perf_counter() - since
                    outcome.status = chunk.split(b" ", 2)[1].decode("latin-1") if chunk.startswith(b"HTTP/") \
                        else "not HTTP"
    except TimeoutError:
        return outcome
    except ConnectionError:
        pass
    outcome.closed = time.perf_counter() - since
    return outcome


def outcomes_summary(outcomes: list[Outcome]) -> dict[str, Any]:
    answered = [outcome.answered for outcome in outcomes if outcome.answered is not None]
    closed = [outcome.closed for outcome in outcomes if outcome.closed is not None]
    return {"n": len(outcomes), "answers": dict(Counter(outcome.status for outcome in outcomes)),
            "seconds_to_answer": summary(answered), "closed_by_server": len(closed),
            "still_open": len(outcomes) - len(closed), "seconds_to_close": summary(closed)}


def get_url(url: str) -> int:
    with urllib.request.urlopen(url, timeout=120) as response:
        response.read()
        return int(response.status)


async def honest_round(base: str) -> None:
    """What a person does: create a table, open its socket, make a move, see the result."""
    table = await asyncio.to_thread(post, f"{base}/api/tables", {"rules": "pagat", "players": 3})
    url = base.replace("http", "ws") + f"/ws/tables/{table['table']}?token={table['token']}"
    async with connect(url, max_size=2**22, open_timeout=120) as ws:
        while not (state := await message(ws)).get("legal"):
            pass
        await ws.send(json.dumps({"type": "act", "action": state["legal"][0]}))
        while (await message(ws))["type"] != "state":
            pass


@dataclass
class Probe:
    """What the honest client measured, per phase: ``/healthz`` and whole rounds."""

    healthz: dict[str, list[float]] = field(default_factory=dict)
    rounds: dict[str, list[float]] = field(default_factory=dict)
    failures: Counter[str] = field(default_factory=Counter)
    phase: str = "quiet"

    def report(self) -> dict[str, Any]:
        return {"healthz": {phase: summary(values) for phase, values in self.healthz.items()},
                "round": {phase: summary(values) for phase, values in self.rounds.items()},
                "failures": dict(self.failures)}


async def probe_honestly(base: str, probe: Probe, stop: asyncio.Event) -> None:
    """Every half second, ``/healthz`` and then a round, each timed (or its failure counted)."""
    while not stop.is_set():
        for name in ("healthz", "round"):
            phase, started = probe.phase, time.perf_counter()
            try:
                if name == "healthz":
                    await asyncio.wait_for(asyncio.to_thread(get_url, f"{base}/healthz"), 120)
                else:
                    await asyncio.wait_for(honest_round(base), 120)
            except Exception as error:
                probe.failures[f"{phase}: {name} {type(error).__name__}"] += 1
            else:
                times = probe.healthz if name == "healthz" else probe.rounds
                times.setdefault(phase, []).append(time.perf_counter() - started)
        await asyncio.sleep(0.5)


@contextlib.asynccontextmanager
async def probed_server(options: dict[str, Any]) -> AsyncIterator[tuple[str, int, Probe]]:
    """A fresh server with the honest client at work (four quiet rounds first); after the
    block, four more rounds are measured as ``after``."""
    async with server({**TRANSPORT_OPTIONS, **options}) as (base, pid):
        probe, stop = Probe(), asyncio.Event()
        task = asyncio.create_task(probe_honestly(base, probe, stop))
        await until(lambda: len(probe.rounds.get("quiet", [])) >= 4, task)
        yield base, pid, probe
        probe.phase = "after"
        await until(lambda: len(probe.rounds.get("after", [])) >= 4, task)
        stop.set()
        await asyncio.gather(task, return_exceptions=True)


async def sample_server(pid: int, seconds: float, since: float) -> list[dict[str, float]]:
    """The server's memory and open files once a second until ``seconds`` after ``since``."""
    samples = []
    while (elapsed := time.perf_counter() - since) < seconds:
        samples.append({"t": round(elapsed, 1), "rss_mib": rss_mib(pid), "fds": server_fds(pid)})
        await asyncio.sleep(1.0)
    return samples


def server_figures(pid: int, start: dict[str, float], samples: list[dict[str, float]]) -> dict[str, Any]:
    return {"start": start, "peak_rss_mib": max(sample["rss_mib"] for sample in samples),
            "peak_fds": max(sample["fds"] for sample in samples), "at_end": samples[-1],
            "every_5_s": [{key: sample[key] for key in ("t", "rss_mib", "fds")} for sample in samples[::5]]}


async def close_all(connections: list[Raw]) -> None:
    for connection in connections:
        connection.writer.transport.abort()
    await asyncio.sleep(0)


async def handshake_flood_scenario(args: argparse.Namespace) -> dict[str, Any]:
    """``--flood-handshakes`` upgrades, half with 130 headers (refused by websockets' parser)
    and half whose head never ends, all held open by the client for ``--hold-seconds``; then
    the client closes them and the server's memory and files are measured again."""
    async with probed_server({}) as (base, pid, probe):
        port = port_of(base)
        start = {"rss_mib": rss_mib(pid), "fds": server_fds(pid)}
        probe.phase = "flood"
        began = time.perf_counter()
        kinds = ["130_headers", "unfinished_head"]
        connections = [await raw_open(port, attacker(index), HOSTILE_HANDSHAKES[kinds[index % 2]])
                       for index in range(args.flood_handshakes)]
        opened = time.perf_counter() - began
        watches = asyncio.gather(*(watch_connection(connection, began + args.hold_seconds)
                                   for connection in connections))
        samples = await sample_server(pid, args.hold_seconds, began)
        outcomes = await watches
        await close_all(connections)
        await asyncio.sleep(5)
        after = {"rss_mib": rss_mib(pid), "fds": server_fds(pid)}
    return {"handshakes": args.flood_handshakes, "seconds_to_open": round(opened, 2),
            "hold_seconds": args.hold_seconds,
            **{kind: outcomes_summary(outcomes[number::2]) for number, kind in enumerate(kinds)},
            "server": {**server_figures(pid, start, samples), "5_s_after_the_client_closed": after},
            "honest": probe.report()}


SLOW_BODY_HEAD = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")


async def slow_bodies_scenario(args: argparse.Namespace) -> dict[str, Any]:
    """``--slow-clients`` clients trickling a chunked body, a byte every 2 s, for
    ``--slow-seconds``: when each got its 408 and when (if) the server closed it."""
    async with probed_server({}) as (base, pid, probe):
        port = port_of(base)
        start = {"rss_mib": rss_mib(pid), "fds": server_fds(pid)}
        probe.phase = "slow_bodies"
        began = time.perf_counter()
        connections = [await raw_open(port, attacker(index), SLOW_BODY_HEAD)
                       for index in range(args.slow_clients)]

        async def trickle(connection: Raw) -> Outcome:
            watch = asyncio.create_task(watch_connection(connection, began + args.slow_seconds))
            while not watch.done():
                if not connection.writer.transport.is_closing():
                    connection.writer.write(b"1\r\na\r\n")
                await asyncio.wait([watch], timeout=2.0)
            return await watch

        sampling = asyncio.create_task(sample_server(pid, args.slow_seconds, began))
        outcomes = await asyncio.gather(*(trickle(connection) for connection in connections))
        samples = await sampling
        await close_all(connections)
    return {"clients": args.slow_clients, "seconds": args.slow_seconds, **outcomes_summary(outcomes),
            "server": server_figures(pid, start, samples), "honest": probe.report()}


async def unread_responses_scenario(args: argparse.Namespace) -> dict[str, Any]:
    """``--unread-clients`` clients asking for the 9.6 MB wasm and never reading a byte of
    it, for ``--unread-seconds``: how long the server keeps their connections."""
    async with probed_server({}) as (base, pid, probe):
        if await asyncio.to_thread(lambda: urllib.request.urlopen(f"{base}{WASM}", timeout=60).status) != 200:
            return {"skipped": "the offline app is not built (mattis app build)"}
        port = port_of(base)
        await asyncio.sleep(1)
        start = {"rss_mib": rss_mib(pid), "fds": server_fds(pid)}
        probe.phase = "unread"
        began = time.perf_counter()
        request = f"GET {WASM} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        connections = [await raw_open(port, attacker(index), request, receive_buffer=65536)
                       for index in range(args.unread_clients)]
        samples = await sample_server(pid, args.unread_seconds, began)
        await close_all(connections)
    held = [sample["fds"] - start["fds"] for sample in samples]
    return {"clients": args.unread_clients, "seconds": args.unread_seconds,
            "server_fds_above_start": {f"{sample['t']:g}s": count for sample, count in  # socket + file
                                       list(zip(samples, held, strict=True))[::5]},
            "server": server_figures(pid, start, samples), "honest": probe.report()}


SLOW_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"


async def one_address_scenario(args: argparse.Namespace) -> dict[str, Any]:
    """``--address-connections`` connections from one address, each sending a head a header
    line a second (it never ends): how many the server holds, and for how long."""
    async with probed_server({}) as (base, pid, probe):
        port = port_of(base)
        start = {"rss_mib": rss_mib(pid), "fds": server_fds(pid)}
        probe.phase = "one_address"
        began = time.perf_counter()
        connections = [await raw_open(port, "127.0.9.1", SLOW_HEAD) for _ in range(args.address_connections)]
        opened = time.perf_counter() - began

        async def trickle(connection: Raw) -> Outcome:
            watch = asyncio.create_task(watch_connection(connection, began + args.address_seconds))
            while not watch.done():
                if not connection.writer.transport.is_closing():
                    connection.writer.write(b"X-Slow: 1\r\n")
                await asyncio.wait([watch], timeout=1.0)
            return await watch

        sampling = asyncio.create_task(sample_server(pid, args.address_seconds, began))
        outcomes = await asyncio.gather(*(trickle(connection) for connection in connections))
        samples = await sampling
        await close_all(connections)
    closed = sorted(outcome.closed for outcome in outcomes if outcome.closed is not None)
    return {"connections": args.address_connections, "seconds_to_open": round(opened, 2),
            **outcomes_summary(outcomes),
            "closed_within_3_s": sum(1 for seconds in closed if seconds < 3),
            "server": server_figures(pid, start, samples), "honest": probe.report()}


async def socket_costs(base: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    """An honest socket's connect and round-trip latency, and the memory of idle sockets."""
    table = await asyncio.to_thread(post, f"{base}/api/tables", {"rules": "pagat", "players": 3})
    url = base.replace("http", "ws") + f"/ws/tables/{table['table']}?token={table['token']}"
    connects = []
    for _ in range(args.ws_connects):
        started = time.perf_counter()
        async with connect(url, max_size=2**22, open_timeout=60) as ws:
            await message(ws)
            connects.append(time.perf_counter() - started)
    trips = []
    async with connect(url, max_size=2**22, open_timeout=60) as ws:
        await message(ws)
        for _ in range(args.ws_round_trips):
            started = time.perf_counter()
            await ws.send(json.dumps({"type": "state"}))
            while (reply := await asyncio.wait_for(message(ws), 60))["type"] != "state":
                if reply["type"] == "error":
                    raise SystemExit(f"error: a round trip was refused: {reply['code']}")
            trips.append(time.perf_counter() - started)
    await asyncio.sleep(1)
    before = rss_mib(pid)
    kept: list[ClientConnection] = []
    outcome: Counter[str] = Counter()
    await open_sockets(url, args.idle_sockets, 50, time.perf_counter() + 300, kept, outcome)
    await asyncio.sleep(3)
    after = rss_mib(pid)
    await asyncio.gather(*(ws.close() for ws in kept), return_exceptions=True)
    return {"connect_to_first_state": summary(connects), "state_round_trip": summary(trips),
            "idle_sockets": dict(outcome),
            "kib_per_idle_socket": round(1024 * (after - before) / max(1, outcome["accepted"]), 1)}


async def ws_choice_scenario(args: argparse.Namespace) -> dict[str, Any]:
    """Each WebSocket implementation uvicorn offers, as it ships them, and mattis serve's
    own (``guarded``): an honest socket's latency, the memory of an idle socket, and what
    each hostile handshake gets (an answer, a close, or nothing for ``--hold-seconds``)."""
    report: dict[str, Any] = {}
    for implementation in IMPLEMENTATIONS:
        if implementation == "wsproto" and importlib.util.find_spec("wsproto") is None:
            report[implementation] = {"skipped": "wsproto is not installed (pip install wsproto==1.3.2)"}
            continue
        options = {**TRANSPORT_OPTIONS, **LIFTED_CAPS, "rate": 1e6, "burst": 1e6,  # round trips unthrottled
                   "ws_implementation": None if implementation == "guarded" else implementation}
        async with server(options) as (base, pid):
            costs = await socket_costs(base, pid, args)
            hostile = {}
            for name, data in HOSTILE_HANDSHAKES.items():
                began = time.perf_counter()
                connection = await raw_open(port_of(base), "127.0.0.1", data)
                outcome = await watch_connection(connection, began + args.hold_seconds)
                connection.writer.transport.abort()
                hostile[name] = {"status": outcome.status,
                                 "answered_s": outcome.answered and round(outcome.answered, 3),
                                 "closed_s": outcome.closed and round(outcome.closed, 3)}
            cpu = psutil.Process(pid).cpu_times()
            began = time.perf_counter()
            flood = [await raw_open(port_of(base), attacker(index), HOSTILE_HANDSHAKES["130_headers"])
                     for index in range(args.ws_flood)]
            outcomes = await asyncio.gather(*(watch_connection(connection, began + args.hold_seconds)
                                              for connection in flood))
            spent = psutil.Process(pid).cpu_times()
            await close_all(flood)
        report[implementation] = {
            **costs, "hostile_handshakes": hostile,
            "flood_of_130_header_upgrades": {
                **outcomes_summary(outcomes),
                "server_cpu_ms_each": round(1000 * (spent.user + spent.system - cpu.user - cpu.system)
                                            / args.ws_flood, 2)}}
    return report


TRANSPORT_SCENARIOS = {
    "ws-choice": ws_choice_scenario, "handshake-flood": handshake_flood_scenario,
    "slow-bodies": slow_bodies_scenario, "unread-responses": unread_responses_scenario,
    "one-address": one_address_scenario,
}


def add_transport_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("transport scenarios (issue 29)")
    group.add_argument("--flood-handshakes", type=int, default=2000,
                       help="handshake-flood: hostile upgrades held open at once")
    group.add_argument("--hold-seconds", type=float, default=20.0,
                       help="handshake-flood, ws-choice: how long the client keeps them open")
    group.add_argument("--slow-clients", type=int, default=200)
    group.add_argument("--slow-seconds", type=float, default=40.0)
    group.add_argument("--unread-clients", type=int, default=200)
    group.add_argument("--unread-seconds", type=float, default=60.0)
    group.add_argument("--address-connections", type=int, default=500)
    group.add_argument("--address-seconds", type=float, default=15.0)
    group.add_argument("--ws-connects", type=int, default=100, help="ws-choice: sockets opened one by one")
    group.add_argument("--ws-round-trips", type=int, default=200)
    group.add_argument("--idle-sockets", type=int, default=1000)
    group.add_argument("--ws-flood", type=int, default=500, help="ws-choice: 130-header upgrades at once")
# ---------------------------------------------------------------------- issue 29: tables and workers

PROXY = "127.0.0.1"
"""The scenarios below run the server trusting loopback as its proxy (``--forwarded-allow-ips``),
so each client names its address with ``X-Forwarded-For``, as nginx would, and one machine
plays many clients."""
INVITE_SEATS = [{"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot", "level": "normal"}]
"""A table that waits for a friend (it has not started)."""
QUICK_SEATS = [{"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "normal"},
               {"kind": "bot", "level": "easy"}]
"""A table against bots (it starts at once)."""


class Http:
    """One keep-alive HTTP/1.1 connection of a benchmark client, opened again when the server
    closed it (urllib opens one per request, too slow and too many for a flood)."""

    def __init__(self, base: str) -> None:
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(self, method: str, path: str, body: Any = None,
                   address: str | None = None) -> tuple[int, dict[str, Any], dict[str, str]]:
        """Status, JSON body (``{}`` if none) and headers of one request."""
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"host: {self.host}:{self.port}",
                 "content-type: application/json", f"content-length: {len(data)}",
                 *(f"{name}: {value}" for name, value in forwarded(address).items())]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        for attempt in range(2):
            try:
                if self.reader is None or self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.writer.write(request)
                head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
                headers = {name.strip().lower(): value.strip()
                           for name, _, value in (line.partition(":") for line in head[1:] if line)}
                payload = await self.reader.readexactly(int(headers.get("content-length", "0")))
                if headers.get("connection") == "close":
                    self.close()
                answer: dict[str, Any] = json.loads(payload) if payload.startswith(b"{") else {}
                return int(head[0].split()[1]), answer, headers
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()  # the server closed the idle connection: open it again once
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def flood_address(index: int) -> str:
    return f"10.{1 + index // 250}.{index % 250}.1"


async def create_flood_scenario(args: argparse.Namespace) -> dict[str, Any]:
    """``--flood-addresses`` addresses (faked through the trusted proxy) each create tables
    that wait for a friend as fast as the server lets them (bursts of 20, then the rate
    limit) for ``--create-seconds``, while a new honest household creates a table every
    second (alternately one against bots and one that waits) during the flood and for 10 s
    after it."""
    options: dict[str, Any] = {"bot_delay": args.bot_delay, "forwarded_allow_ips": PROXY}
    if args.max_tables is not None:
        options["max_tables"] = args.max_tables
    async with server(options) as (base, pid):
        rss_before = rss_mib(pid)
        stop = asyncio.Event()
        flood: Counter[str] = Counter()
        gate = asyncio.Semaphore(args.concurrency)
        pause = {201: 0.0, 429: 2.0, 503: 1.0}

        async def attacker(address: str) -> None:
            connection = Http(base)
            try:
                while not stop.is_set():
                    async with gate:
                        status, answer, _ = await connection.call(
                            "POST", "/api/tables", {"players": 3, "seats": INVITE_SEATS}, address)
                    flood["created" if status == 201 else f"{status} {answer.get('code')}"] += 1
                    await asyncio.sleep(pause.get(status, 1.0))
            finally:
                connection.close()

        honest: dict[str, Counter[str]] = {"flood": Counter(), "after": Counter()}
        latency: dict[str, list[float]] = {"flood": [], "after": []}
        phase = ["flood"]

        async def households() -> None:
            connection = Http(base)
            index = 0
            while not stop.is_set() or phase[0] == "after":
                seats = QUICK_SEATS if index % 2 == 0 else INVITE_SEATS
                sent = time.perf_counter()
                household = f"10.250.{index // 250}.{index % 250}"
                body = {"players": 3, "seats": seats}
                status, answer, _ = await connection.call("POST", "/api/tables", body, household)
                latency[phase[0]].append(time.perf_counter() - sent)
                honest[phase[0]]["created" if status == 201 else f"{status} {answer.get('code')}"] += 1
                index += 1
                await asyncio.sleep(1.0)
            connection.close()

        started = time.perf_counter()
        attackers = [asyncio.create_task(attacker(flood_address(index)))
                     for index in range(args.flood_addresses)]
        honest_task = asyncio.create_task(households())
        await asyncio.sleep(args.create_seconds)
        stop.set()
        phase[0] = "after"
        await asyncio.gather(*attackers, return_exceptions=True)
        flood_seconds = time.perf_counter() - started
        await asyncio.sleep(10)
        phase[0] = "done"
        await honest_task
        _, facts, _ = await Http(base).call("GET", "/healthz")
        rss_after = rss_mib(pid)
    return {"flood_addresses": args.flood_addresses, "max_tables": args.max_tables or "the server's",
            "flood_seconds": round(flood_seconds, 1),
            "flood_answers": dict(flood), "tables_in_memory": facts.get("tables"),
            "honest_creates_during_flood": dict(honest["flood"]),
            "honest_creates_after_flood": dict(honest["after"]),
            "honest_create_during_flood": summary(latency["flood"]),
            "honest_create_after_flood": summary(latency["after"]),
            "server_rss_mib": {"before": rss_before, "after": rss_after}}


async def expert_table(base: str, address: str, stop: asyncio.Event, outcome: Counter[str],
                       seed: int) -> None:
    """One table of two ``expert`` bots created from ``address``, whose person moves at once
    at every turn (so the bots think all the time) until ``stop``."""
    status, answer, _ = await Http(base).call("POST", "/api/tables", {"players": 3, "seats": [
        {"kind": "human", "name": "Busy"}, {"kind": "bot", "level": "expert"},
        {"kind": "bot", "level": "expert"}]}, address)
    if status != 201:
        outcome[f"{status} {answer.get('code')}"] += 1
        return
    outcome["created"] += 1
    rng = random.Random(seed)
    url = base.replace("http", "ws") + f"/ws/tables/{answer['table']}?token={answer['token']}"
    async with connect(url, max_size=2**22, open_timeout=120, additional_headers=forwarded(address)) as ws:
        while not stop.is_set():
            state = await message(ws)
            if state["type"] != "state" or state["view"] is None:
                continue
            if state["view"]["phase"] == "over":
                await ws.send(json.dumps({"type": "again"}))
            elif state["legal"]:
                await ws.send(json.dumps({"type": "act", "action": rng.choice(state["legal"])}))
                outcome["moves"] += 1


async def workers_scenario(args: argparse.Namespace) -> dict[str, Any]:
    """An honest table (address 10.1.0.1: a person asking a hint at each turn, two ``normal``
    bots) plays quietly; then one address (10.66.0.1) creates ``--expert-tables`` tables of
    two ``expert`` bots in one burst and moves at once at each of their turns, and another
    (127.0.0.1) floods hints from ``--flood-tables`` tables, and the honest table plays on."""
    options: dict[str, Any] = {"bot_delay": args.bot_delay, "forwarded_allow_ips": PROXY}
    if args.workers is not None:
        options["workers"] = args.workers
    async with server(options) as (base, pid):
        honest = Honest()
        stop = asyncio.Event()
        player = asyncio.create_task(play_honestly(base, honest, stop, True, args.seed, "10.1.0.1"))
        await until(lambda: honest.turns >= args.quiet_turns, player)
        honest.phase = "attack_start"
        attack_stop = asyncio.Event()
        experts: Counter[str] = Counter()
        expert_tasks = [asyncio.create_task(expert_table(base, "10.66.0.1", attack_stop, experts, index))
                        for index in range(args.expert_tables)]
        answers: Counter[str] = Counter()
        urls = [await new_table(base, f"Flood {index}") for index in range(args.flood_tables)]  # 127.0.0.1
        floods = [asyncio.create_task(flood_hints(url, attack_stop, answers)) for url in urls]
        await asyncio.sleep(args.flood_warmup)
        honest.phase = "attack"
        started = honest.turns
        attack_started = time.perf_counter()
        await until(lambda: honest.turns >= started + args.fair_turns, player, *floods)
        attack_seconds = time.perf_counter() - attack_started
        rss_attack = rss_mib(pid, children=True)
        stop.set()
        attack_stop.set()
        for task in (player, *floods, *expert_tasks):
            task.cancel()
        await asyncio.gather(player, *floods, *expert_tasks, return_exceptions=True)
    baseline = percentile(honest.hints.get("quiet", []), 0.5)
    attacked = percentile(honest.hints.get("attack", []), 0.5)
    return {
        "workers": args.workers or "the server's default",
        "expert_tables_asked": args.expert_tables, "expert_tables": dict(experts),
        "flood_tables": args.flood_tables, "flood_replies": dict(answers), "bot_delay": args.bot_delay,
        "honest_hint_baseline_p50_ms": baseline, "honest_hint_under_attack_p50_ms": attacked,
        "ratio": round(attacked / baseline, 2) if baseline and attacked else None,
        "honest_hint_quiet": summary(honest.hints.get("quiet", [])),
        "honest_hint_attack_start": summary(honest.hints.get("attack_start", [])),
        "honest_hint_attack": summary(honest.hints.get("attack", [])),
        "honest_move_quiet": summary(honest.moves.get("quiet", [])),
        "honest_move_attack": summary(honest.moves.get("attack", [])),
        "honest_refusals": dict(honest.refusals), "attack_seconds": round(attack_seconds, 1),
        "server_rss_mib_with_workers_under_attack": rss_attack,
    }


def fill_store(url: str, count: int) -> list[str]:
    """``count`` tables waiting for a friend, written straight into the store (much faster
    than through the API and its rate limit); their ids."""
    from mattis.table import TableSession
    from mattis.web.store import Store

    store = Store(url)
    ids: list[str] = []
    rows: list[Any] = []
    try:
        for index in range(count):
            session, _, _, outcome = TableSession.create(f"stored-{index:06d}", {
                "players": 3, "seats": INVITE_SEATS})
            ids.append(session.table_id)
            rows.extend(outcome.rows)
            if len(rows) >= 2000:
                store.add_actions(rows)
                rows = []
        if rows:
            store.add_actions(rows)
    finally:
        store.close()
    return ids


async def first_answers(db: str, table_id: str | None) -> dict[str, Any]:
    """Start a server process on ``db``: seconds from its start to its first answer
    (``/healthz``) and to a stored table's (``GET /api/tables/ID``), and its memory then."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--db", db,
                                "--options", "{}"])
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=60) as response:
                    tables = json.loads(response.read())["tables"]
                break
            except OSError:
                if process.poll() is not None or time.perf_counter() - started > 600:
                    raise SystemExit("error: the server did not start") from None
                await asyncio.sleep(0.01)
        first = time.perf_counter() - started
        found = {"seconds_to_first_answer": round(first, 2), "tables_in_memory_then": tables}
        if table_id is not None:
            asked = time.perf_counter()
            with urllib.request.urlopen(f"{base}/api/tables/{table_id}", timeout=60) as response:
                status = json.loads(response.read())["status"]
            found["seconds_to_a_stored_tables_answer"] = round(time.perf_counter() - started, 2)
            found["that_answer_ms"] = round(1000 * (time.perf_counter() - asked), 1)
            found["its_status"] = status
        found["server_rss_mib"] = rss_mib(process.pid)
        return found
    finally:
        process.terminate()
        process.wait(timeout=60)


def app_start_seconds(db: str) -> float:
    """Seconds the app takes to start on ``db`` (its lifespan: the store opened and whatever
    the server does before it serves), in this process, whose imports are done: the part of
    a restart that depends on what the database holds."""
    from starlette.testclient import TestClient

    from mattis.web import create_app

    started = time.perf_counter()
    with TestClient(create_app(db)) as client:
        seconds = time.perf_counter() - started
        client.get("/healthz")
    return seconds


async def restart_scenario(args: argparse.Namespace) -> dict[str, Any]:
    """Time to the first answer of a server process started on an empty database, then on
    one holding ``--stored-tables`` tables that wait for players; and the app's own start on
    each, in this process (without Python's start and imports, which a loaded machine makes
    slow and noisy)."""
    folder = tempfile.mkdtemp(prefix="mattis-restart-")
    empty_db = f"sqlite:///{folder}/empty.sqlite3"
    empty = await first_answers(empty_db, None)
    db = f"sqlite:///{folder}/restart.sqlite3"
    filled = time.perf_counter()
    ids = await asyncio.to_thread(fill_store, db, args.stored_tables)
    fill_seconds = time.perf_counter() - filled
    full = await first_answers(db, ids[len(ids) // 2])
    app_start = {"empty_database": await asyncio.to_thread(app_start_seconds, empty_db),
                 "with_stored_tables": await asyncio.to_thread(app_start_seconds, db)}
    return {"stored_tables": args.stored_tables, "fill_seconds": round(fill_seconds, 1),
            "empty_database": empty, "with_stored_tables": full,
            "app_start_seconds": {name: round(seconds, 3) for name, seconds in app_start.items()}}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {"cpus": os.cpu_count(), "load_average": os.getloadavg()[0]}
    if args.scenario in ("hints", "all"):
        report["hints"] = await hints_scenario(args)
    if args.scenario in ("sockets", "all"):
        if args.caps in ("lifted", "both"):
            report["sockets_caps_lifted"] = await sockets_run(args, LIFTED_CAPS)
        if args.caps in ("default", "both"):
            report["sockets_default_caps"] = await sockets_run(args, {})
    for name, scenario in TRANSPORT_SCENARIOS.items():
        if args.scenario in (name, "all"):
            report[name] = await scenario(args)
    if args.scenario == "create-flood":
        report["create_flood"] = await create_flood_scenario(args)
    if args.scenario == "workers":
        report["workers"] = await workers_scenario(args)
    if args.scenario == "restart":
        report["restart"] = await restart_scenario(args)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="all",
                        choices=["hints", "sockets", *TRANSPORT_SCENARIOS, "create-flood", "workers",
                                 "restart", "all"],
                        help="all: hints, sockets and the transport scenarios; create-flood, "
                        "workers and restart run one at a time")
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
    parser.add_argument("--flood-addresses", type=int, default=445,
                        help="create-flood: addresses creating tables that wait for a friend")
    parser.add_argument("--create-seconds", type=float, default=60.0, help="create-flood: how long they try")
    parser.add_argument("--max-tables", type=int, help="create-flood: the server's limit of tables in "
                        "memory (default its own, 10,000), to reach it sooner on a slow machine")
    parser.add_argument("--expert-tables", type=int, default=20,
                        help="workers: tables of two expert bots one address tries to run")
    parser.add_argument("--workers", type=int,
                        help="workers: the server's worker processes (default: its own)")
    parser.add_argument("--fair-turns", type=int, default=12,
                        help="workers: honest turns (a hint each) counted under the attack")
    parser.add_argument("--stored-tables", type=int, default=10_000,
                        help="restart: tables waiting for players in the database")
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=1)
    add_transport_arguments(parser)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--options", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = 4 * max(args.sockets, args.flood_handshakes, args.address_connections) + 1024
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, needed)), hard))
    if args.serve:
        serve(args.serve, args.db, json.loads(args.options))
        return
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()
