"""Whether a very long record costs time in proportion to its length.

Endless pick-up loops are legal (P2.4, P2.7), so a record can be very long. Replaying it
(the engine), narrating it step by step with views of constant size (what front ends do)
and showing it in the terminal (``mattis replay``) should each cost time linear in its
length: ten times the actions, about ten times the time (square growth would be 100).
Prints, for each, the CPU time of the short and the long record and their ratio:

    python benchmarks/long_records.py            # 10,000 and 100,000 actions for the engine
    python benchmarks/long_records.py --scale 0.1

CPU time of this process, with the cyclic garbage collector paused, so other work on a busy
machine does not count (its passes over a growing heap measure the heap, not the engine).
The test suite plays the same records at a small size for what they must show, not for time.
"""

from __future__ import annotations

import argparse
import gc
import io
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from rich.console import Console

from mattis import Game
from mattis.frontend.narrate import Narrator
from mattis.frontend.record import LoadedGame
from mattis.frontend.seats import seat_numbers
from mattis.terminal.replay import TerminalReplay


def cyclic_record(actions: int) -> dict[str, Any]:
    """A legal record of ``actions`` actions that never ends: three players pass two cards
    round the table by leading and picking up (P2.4 voluntary pick-up, P2.7)."""
    game = Game.from_hands("pagat", [["2c", "Ad"], ["Kd"], ["2h", "Qd"]], trump="s", leader=0)
    cycle = ["2c", "pickup", "2h", "pickup"] * 3
    record = game.record()
    record["actions"] = [cycle[number % len(cycle)] for number in range(actions)]
    return record


def replay(record: dict[str, Any]) -> Game:
    """The engine's replay of a whole record."""
    return Game.from_record(record)


def narrate(record: dict[str, Any]) -> int:
    """Tell the record action by action as a front end does, asking each time only for the
    view since the last one; answers the longest history such a view carried (it stays 0)."""
    game = Game.from_record({**record, "actions": []})
    narrator = Narrator(seat_numbers(3), game.rules, "en")
    told, longest = 0, 0
    for text in record["actions"]:
        game.apply(text)
        narrator.describe(game.events_since(told))
        told = game.num_events
        longest = max(longest, len(game.view(0, since=told)["history"]))
    return longest


def show(record: dict[str, Any]) -> str:
    """``mattis replay`` of the record, without stepping, into a string."""
    out = io.StringIO()
    loaded = LoadedGame(record, Game.from_record(record), seat_numbers(3), None)
    TerminalReplay(loaded, "en", Console(file=out, width=100), False, None).run()
    return out.getvalue()


def cpu_seconds(work: Callable[[], object]) -> float:
    """The CPU time of this process that ``work`` took, the garbage collector paused."""
    gc.collect()
    gc.disable()
    try:
        started = time.process_time()
        work()
        return time.process_time() - started
    finally:
        gc.enable()


WORKLOADS: list[tuple[str, Callable[[dict[str, Any]], object], int]] = [
    ("replay", replay, 10_000),
    ("narrate", narrate, 2_000),
    ("show", show, 1_000),
]
"""What is measured, and its short record's length (the long one has ten times as many)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every record's length")
    options = parser.parse_args()
    print(f"{'':8} {'actions':>17} {'CPU seconds':>17} {'ratio':>6}")
    for name, work, short in WORKLOADS:
        short = max(10, round(short * options.scale))
        small, large = cyclic_record(short), cyclic_record(10 * short)
        first, second = cpu_seconds(partial(work, small)), cpu_seconds(partial(work, large))
        print(f"{name:8} {short:>8,} {10 * short:>8,} {first:8.3f} {second:8.3f} {second / first:6.1f}")


if __name__ == "__main__":
    main()
