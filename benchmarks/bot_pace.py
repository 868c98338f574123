"""How long a searching bot's move takes to reach the table, forced or chosen (issue 29.7).

A person plays the first legal move at once, two ``hard`` bots search; the time from the
state before a bot's move to the state after it is measured on the offline app's host (the
table layer's master, searches in line), for moves with one legal choice (forced: no search)
and moves with several (chosen). Before issue 29.7 a forced move came after the bot delay
alone and a chosen one after the delay and the search, so anyone could tell them apart; now
both come ``bot_delay + hard_seconds`` after the turn.

    .venv/bin/python benchmarks/bot_pace.py --games 2 --bot-delay 0.05 --hard-seconds 0.25
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from mattis.offline import DeviceHost
from mattis.table import TableSession, table_profile


class Device:
    """IndexedDB as a dictionary."""

    def __init__(self) -> None:
        self.saved: dict[str, str] = {}

    async def load(self, table_id: str) -> object:
        return self.saved.get(table_id)

    async def save(self, table_id: str, data: str, finished: str) -> object:
        self.saved[table_id] = data
        return None

    async def table_ids(self) -> object:
        return list(self.saved)

    async def results(self) -> object:
        return []

    async def claim(self, table_id: str) -> object:
        return True

    def release(self, table_id: str) -> object:
        return None


async def measure(games: int, bot_delay: float, hard_seconds: float) -> dict[str, list[float]]:
    """Delivery times of forced and chosen bot moves over ``games`` games."""
    config = dataclasses.replace(table_profile("device"), bot_delay=bot_delay, hard_seconds=hard_seconds)
    forced_flags: list[bool] = []
    real_bot_act = TableSession.bot_act

    def bot_act(self: TableSession, turn: Any, answer: Any) -> Any:
        outcome = real_bot_act(self, turn, answer)
        if outcome is not None:
            forced_flags.append(turn.job is None)
        return outcome

    TableSession.bot_act = bot_act  # type: ignore[method-assign]
    times: dict[str, list[float]] = {"forced": [], "chosen": []}
    state: dict[str, Any] = {"last": None, "seen": 0}
    loop = asyncio.get_running_loop()

    def post(text: str) -> None:
        now = time.perf_counter()
        item = json.loads(text)
        if "reply" in item:
            state["reply"].set_result(item)
            return
        message = item.get("message") or {}
        if message.get("type") != "state" or not message.get("view"):
            return
        if len(forced_flags) > state["seen"] and state["last"] is not None:
            times["forced" if forced_flags[-1] else "chosen"].append(now - state["last"])
        state["seen"], state["last"] = len(forced_flags), now
        if message["view"]["phase"] == "over":
            state["done"].set()
        elif message["legal"]:
            act = json.dumps({"type": "act", "action": message["legal"][0]})
            host.receive(json.dumps({"op": "send", "conn": item["conn"], "text": act}))

    host = DeviceHost(Device(), post, config)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "hard"}]
    for seed in range(games):
        state["reply"], state["done"], state["last"] = loop.create_future(), asyncio.Event(), None
        body = {"players": 3, "seats": seats, "seed": seed}
        call = {"op": "call", "id": seed, "name": "createTable", "lang": "en", "body": body}
        host.receive(json.dumps(call))
        created = (await state["reply"])["data"]
        host.receive(json.dumps({"op": "open", "conn": f"c{seed}", "tableId": created["table"],
                                 "token": created["token"], "lang": "en"}))
        await state["done"].wait()
    await host.close()
    TableSession.bot_act = real_bot_act  # type: ignore[method-assign]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument("--hard-seconds", type=float, default=0.25)
    args = parser.parse_args()
    times = asyncio.run(measure(args.games, args.bot_delay, args.hard_seconds))
    print(f"bot delay {args.bot_delay} s, hard {args.hard_seconds} s, {args.games} games:")
    for kind, values in times.items():
        values.sort()
        print(f"  {kind}: {len(values)} moves, min {values[0]:.3f} s, "
              f"median {statistics.median(values):.3f} s, max {values[-1]:.3f} s")


if __name__ == "__main__":
    main()
