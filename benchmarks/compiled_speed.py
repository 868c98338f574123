"""The compiled build against pure Python, side by side in one run (issue 17, item 2).

Run it with a compiled install (``MATTIS_COMPILE=1 pip install .``)::

    python benchmarks/compiled_speed.py [--rounds 5] [--json FILE]

Each round starts one fresh interpreter per build (``MATTIS_PURE=1`` for pure Python), the
two alternating so that load on the machine falls on both alike, and each times:

* random playouts: seeded random games through the checked ``apply`` and through
  ``apply_unchecked`` (the search path), per preset, in actions per CPU second;
* random playouts through :meth:`mattis.Game.play_randomly`, the loop inside the library
  (in a compiled build the loop is compiled too, as a search's rollouts are);
* ``hard``: its tree search (``IsmctsAgent``, early stopping off so every search runs its
  full budget) on the same sampled decisions, in iterations per CPU second.

It prints the median of the rounds for each build and the ratio compiled / pure. CPU time
of the worker process is used, not wall time, because other processes share this machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

PLAYOUT_CASES = (("pagat", 3), ("kortregler", 3), ("app", 4))
PLAYOUT_GAMES = 200
HARD_DECISIONS = 12
HARD_ITERATIONS = 400
ACTION_CAP = 3000


def playouts(preset: str, players: int, checked: bool) -> float:
    """Actions per CPU second over :data:`PLAYOUT_GAMES` seeded random games."""
    from mattis import Game

    actions = 0
    started = time.process_time()
    for seed in range(PLAYOUT_GAMES):
        game = Game.new(preset, players, seed=seed)
        rng = random.Random(seed)
        step = game.apply if checked else game.apply_unchecked
        while not game.is_over and game.num_actions < ACTION_CAP:
            legal = game.legal_actions()
            step(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (time.process_time() - started)


def library_playouts(preset: str, players: int) -> float:
    """Actions per CPU second of :meth:`mattis.Game.play_randomly` over the same number of
    seeded games: the playout loop inside the library, compiled with it in a compiled build."""
    from mattis import Game

    actions = 0
    started = time.process_time()
    for seed in range(PLAYOUT_GAMES):
        actions += Game.new(preset, players, seed=seed).play_randomly(random.Random(seed), ACTION_CAP)
    return actions / (time.process_time() - started)


def hard_iterations() -> float:
    """``hard`` search iterations per CPU second on :data:`HARD_DECISIONS` fixed decisions
    (pagat, 3 players; positions a few to a few dozen random moves into a game)."""
    from mattis import Game
    from mattis.bots.ismcts import IsmctsAgent
    from mattis.bots.protocol import Limit
    from mattis.bots.view import PlayerView

    agent = IsmctsAgent(early_stop=False)
    limit = Limit(iterations=HARD_ITERATIONS)
    decisions = []
    for seed in range(HARD_DECISIONS):
        game = Game.new("pagat", 3, seed=seed)
        rng = random.Random(seed)
        for _ in range(3 + seed * 7 % 60):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        while not game.is_over and len(game.legal_actions()) < 2:
            game.apply(game.legal_actions()[0])
        if not game.is_over:
            decisions.append(game)
    iterations = 0
    started = time.process_time()
    for number, game in enumerate(decisions):
        seat = game.to_move
        assert seat is not None
        view = PlayerView.of(game.seat_view(seat))
        iterations += agent.choose(view, game.legal_actions(), random.Random(number), limit).iterations
    return iterations / (time.process_time() - started)


def worker() -> dict[str, Any]:
    """One round's figures for the build this interpreter runs."""
    from mattis.build import build

    figures: dict[str, Any] = {"build": build()}
    for preset, players in PLAYOUT_CASES:
        for checked in (True, False):
            name = f"playouts {preset} {players}p {'apply' if checked else 'apply_unchecked'}"
            figures[name] = playouts(preset, players, checked)
        if hasattr(__import__("mattis").Game, "play_randomly"):  # not in older checkouts
            figures[f"playouts {preset} {players}p play_randomly"] = library_playouts(preset, players)
    figures["hard iterations"] = hard_iterations()
    return figures


def run_round(pure: bool) -> dict[str, Any]:
    env = {key: value for key, value in os.environ.items() if key != "MATTIS_PURE"}
    if pure:
        env["MATTIS_PURE"] = "1"
    done = subprocess.run([sys.executable, __file__, "--worker"], capture_output=True, text=True,
                          env=env, check=True)
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", dest="json_path", default=None, help="also write the figures here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        print(json.dumps(worker()))
        return
    rounds: dict[str, list[dict[str, Any]]] = {"pure": [], "compiled": []}
    for number in range(arguments.rounds):
        for pure in (number % 2 == 0, number % 2 == 1):  # alternate which build goes first
            figures = run_round(pure)
            expected = "pure" if pure else "compiled"
            if figures["build"] != expected:
                raise SystemExit(f"expected the {expected} build, got {figures['build']}: "
                                 "run this with a compiled install (MATTIS_COMPILE=1 pip install .)")
            rounds[expected].append(figures)
        print(f"round {number + 1}/{arguments.rounds} done", file=sys.stderr, flush=True)
    names = [name for name in rounds["pure"][0] if name != "build"]
    table = {}
    print(f"{'case':<50} {'pure':>12} {'compiled':>12} {'ratio':>7}")
    for name in names:
        pure = statistics.median(figures[name] for figures in rounds["pure"])
        compiled = statistics.median(figures[name] for figures in rounds["compiled"])
        table[name] = {"pure": pure, "compiled": compiled, "ratio": compiled / pure}
        unit = "it/s" if name.startswith("hard") else "act/s"
        print(f"{name + ' (' + unit + ')':<50} {pure:>12,.0f} {compiled:>12,.0f} {compiled / pure:>6.2f}x")
    if arguments.json_path:
        report = {"rounds": arguments.rounds, "medians": table, "raw": rounds,
                  "python": sys.version.split()[0], "cpu_count": os.cpu_count()}
        with open(arguments.json_path, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
