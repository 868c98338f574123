"""What a review costs: whole games reviewed at a budget, per game in CPU and wall seconds.

Games: ``--games`` games of ``normal`` bots, cycling through pagat 4p, app 4p, kortregler 3p
and pagat 3p (deal seeds 1…); each reviewed for the seat that leads first (seat 0) at
``--iterations`` sampled deals a choice (default: the review's own default). Run it on a
compiled install and, with ``MATTIS_PURE=1``, on the same install's Python sources:

    nice -n 10 python benchmarks/review/speed.py                  # compiled, if installed so
    MATTIS_PURE=1 nice -n 10 python benchmarks/review/speed.py    # pure Python

CPU seconds are what to compare between runs on a shared machine; wall seconds are what a
person waited. Each game also gives the median standard error of the played moves' risks and
the largest standard error of a turning point's cost: the review's uncertainty at that budget.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import mattis.build
from mattis import Game, Rules
from mattis.bots import make_agent, play_game
from mattis.bots.review import REVIEW_ITERATIONS, review_record

CONFIGS = (("pagat", 4), ("app", 4), ("kortregler", 3), ("pagat", 3))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=REVIEW_ITERATIONS)
    args = parser.parse_args()
    rows = []
    for number in range(args.games):
        preset, players = CONFIGS[number % len(CONFIGS)]
        game = Game.new(Rules.preset(preset), players, seed=number + 1)
        play_game(game, [make_agent("normal")] * players, seed=number + 1)
        cpu, wall = time.process_time(), time.perf_counter()
        review = review_record(game.record(), 0, iterations=args.iterations)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        playouts = args.iterations * sum(len(decision.options) for decision in review.decisions)
        turning = [review.decision(action).cost_se for action in review.turning_points]
        rows.append({"preset": preset, "players": players, "actions": game.num_actions,
                     "decisions": len(review.decisions), "playouts": playouts,
                     "cpu_seconds": round(cpu, 2), "wall_seconds": round(wall, 2),
                     "risk_se_median": round(statistics.median(d.risk_se for d in review.decisions), 4),
                     "turning_cost_se_max": round(max(turning, default=0.0), 4)})
        print(json.dumps(rows[-1]), flush=True)
    cpu_times = [row["cpu_seconds"] for row in rows]
    print(json.dumps({
        "build": mattis.build.build(), "iterations": args.iterations, "games": len(rows),
        "cpu_seconds_median": round(statistics.median(cpu_times), 1),
        "cpu_seconds_max": round(max(cpu_times), 1),
        "wall_seconds_median": round(statistics.median(row["wall_seconds"] for row in rows), 1),
        "playouts_per_cpu_second": round(sum(row["playouts"] for row in rows) / sum(cpu_times)),
        "decisions_median": statistics.median(row["decisions"] for row in rows),
        "risk_se_median": round(statistics.median(row["risk_se_median"] for row in rows), 4),
        "turning_cost_se_max": max(row["turning_cost_se_max"] for row in rows),
    }))


if __name__ == "__main__":
    main()
