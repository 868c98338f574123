"""Our engine against a peer's JavaScript engine on random playouts, in one run (issue 27.4).

    python benchmarks/peer_speed.py [--peer DIR --adapter FILE.mjs] [--rounds 5] [--json FILE]

Both engines play the same number of random games at each player count (3, 4 and 6 by
default) through their public API only, and each side's figure is actions per CPU second:

* ours: ``Game.new(rules, players, seed=i)``, then ``legal_actions()`` and ``apply()`` until
  the game is over, in a fresh interpreter (run it with a compiled install for the compiled
  build's figure; it prints which build ran);
* theirs: ``peer_driver.mjs`` beside this file, run by Node: the same loop over the peer's
  engine, reached through an adapter module (``--adapter``) that maps four calls (a new
  game, its legal moves, playing one, whether it is over) onto the peer's own functions.
  The peer's code is never part of this project: ``--peer`` is the folder of a built
  checkout of it, made outside the project, and the adapter only calls what it exports.

Both loops choose a move as ``floor(random() * number_of_moves)`` with a seeded generator,
the idiom a JavaScript driver writes (``Math.floor(rand() * legal.length)``), play a few
untimed games first (V8 compiles hot code as it runs), count a game's actions in a local
counter and stop it at :data:`ACTION_CAP`, and count only the timed games. Rounds alternate which engine
runs first, so load on this shared machine falls on both alike; the medians of the rounds
and their ratio (ours / theirs) are printed per player count. Without ``--peer`` only our
figures are measured and the peer is reported as skipped.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ACTION_CAP = 3000
"""Actions after which a game is abandoned (random play in phase 2 can circle for long)."""
HERE = Path(__file__).resolve().parent
DRIVER = HERE / "peer_driver.mjs"


def our_playouts(rules: str, players: int, games: int, warmup: int, seed: int) -> dict[str, Any]:
    """Random games through the public API: actions, games and CPU seconds of the timed ones."""
    from mattis import Game

    rand = random.Random(seed).random
    floor = math.floor
    actions = 0
    started = 0.0
    for number in range(warmup + games):
        if number == warmup:
            actions = 0
            started = time.process_time()
        game = Game.new(rules, players, seed=seed * 100_000 + number)
        played = 0
        while not game.is_over and played < ACTION_CAP:
            legal = game.legal_actions()
            game.apply(legal[floor(rand() * len(legal))])
            played += 1
        actions += played
    return {"actions": actions, "games": games, "cpu_seconds": time.process_time() - started}


def our_worker(rules: str, players_list: list[int], games: int, warmup: int, seed: int) -> dict[str, Any]:
    from mattis.build import build

    return {"build": build(), "by_players": {
        str(players): our_playouts(rules, players, games, warmup, seed) for players in players_list}}


def run_ours(arguments: argparse.Namespace, seed: int) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--rules", arguments.rules,
               "--games", str(arguments.games), "--warmup", str(arguments.warmup), "--seed", str(seed),
               "--players", *map(str, arguments.players)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def run_peer(arguments: argparse.Namespace, seed: int) -> dict[str, Any]:
    by_players = {}
    for players in arguments.players:
        command = [arguments.node, str(DRIVER), "--peer", str(arguments.peer),
                   "--adapter", str(arguments.adapter), "--players", str(players),
                   "--games", str(arguments.games), "--warmup", str(arguments.warmup),
                   "--seed", str(seed), "--cap", str(ACTION_CAP)]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"the peer's driver failed ({' '.join(command)}):\n{done.stderr.strip()}")
        by_players[str(players)] = json.loads(done.stdout)
    return {"by_players": by_players}


def rate(figures: dict[str, Any]) -> float:
    return float(figures["actions"]) / float(figures["cpu_seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", type=Path, default=os.environ.get("MATTIS_PEER") or None,
                        help="folder of a built checkout of the peer (default: $MATTIS_PEER); "
                             "without it only our engine is measured")
    parser.add_argument("--adapter", type=Path, default=os.environ.get("MATTIS_PEER_ADAPTER") or None,
                        help="ES module mapping the driver's four calls onto the peer's engine "
                             "(default: $MATTIS_PEER_ADAPTER; see peer_driver.mjs)")
    parser.add_argument("--node", default="node", help="the Node.js executable")
    parser.add_argument("--rules", default="app", help="our preset (default app: see peer-speed.md)")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 6])
    parser.add_argument("--games", type=int, default=300, help="timed games per player count and round")
    parser.add_argument("--warmup", type=int, default=20, help="untimed games first, on both sides")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", dest="json_path", type=Path, default=None,
                        help="also write the figures here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        print(json.dumps(our_worker(arguments.rules, arguments.players, arguments.games, arguments.warmup,
                                    arguments.seed)))
        return
    peer_skipped = None
    if arguments.peer is None or arguments.adapter is None:
        peer_skipped = "no --peer DIR and --adapter FILE (or $MATTIS_PEER, $MATTIS_PEER_ADAPTER) given"
    elif shutil.which(arguments.node) is None:
        peer_skipped = f"no Node.js ({arguments.node!r} is not on PATH)"
    if peer_skipped:
        print(f"peer: skipped: {peer_skipped}; measuring our engine only", file=sys.stderr)

    raw: dict[str, list[dict[str, Any]]] = {"ours": [], "peer": []}
    for number in range(arguments.rounds):
        seed = arguments.seed + number
        runs = [("ours", run_ours), ("peer", run_peer)]
        if number % 2 == 1:
            runs.reverse()  # alternate which engine goes first
        for side, run in runs:
            if side == "peer" and peer_skipped:
                continue
            raw[side].append(run(arguments, seed))
        print(f"round {number + 1}/{arguments.rounds} done", file=sys.stderr, flush=True)

    build = raw["ours"][0]["build"]
    if build != "compiled":
        print(f"note: our figures are the {build} build's "
              "(install with MATTIS_COMPILE=1 for the compiled one)", file=sys.stderr)
    medians: dict[str, dict[str, float | None]] = {}
    print(f"{'players':>7} {'ours (act/s)':>14} {'peer (act/s)':>14} {'ratio':>7}")
    for players in map(str, arguments.players):
        ours = statistics.median(rate(figures["by_players"][players]) for figures in raw["ours"])
        peer = (statistics.median(rate(figures["by_players"][players]) for figures in raw["peer"])
                if raw["peer"] else None)
        ratio = ours / peer if peer else None
        medians[players] = {"ours": ours, "peer": peer, "ratio": ratio}
        shown = f"{ratio:>6.2f}x" if ratio else "      -"
        peer_shown = f"{peer:>14,.0f}" if peer else f"{'-':>14}"
        print(f"{players:>7} {ours:>14,.0f} {peer_shown} {shown}")
    if arguments.json_path:
        report = {"rules": arguments.rules, "games": arguments.games, "warmup": arguments.warmup,
                  "rounds": arguments.rounds, "build": build, "peer_skipped": peer_skipped,
                  "medians": medians, "raw": raw, "python": sys.version.split()[0],
                  "cpu_count": os.cpu_count()}
        arguments.json_path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
