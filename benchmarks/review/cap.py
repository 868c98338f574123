"""How often a review's playout reaches the action cap, for each rate of random moves.

A capped playout says nothing about the move it follows (the review counts it as an even
share of the loss among the players still in), so the rate of random moves in the playouts
(:data:`mattis.bots.review.ROLLOUT_NOISE`) must keep it rare. Games: 12 games of ``normal``
bots (pagat 4p, app 4p, kortregler 3p in turn, seeds 1…); every third choice of seat 0,
``--iterations`` sampled deals each. A capped playout is seen by its share between 0 and 1,
so one capped after seat 0 went out is not counted: the figures are a lower bound.

    nice -n 10 python benchmarks/review/cap.py
"""

from __future__ import annotations

import argparse
import json
import random

from mattis import Game, Rules
from mattis.bots import make_agent, play_game
from mattis.bots.review import decision_points, evaluate_decision

CONFIGS = (("pagat", 4), ("app", 4), ("kortregler", 3))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args()
    for noise in (0.0, 0.03, 0.1):
        capped = total = 0
        for number in range(args.games):
            preset, players = CONFIGS[number % len(CONFIGS)]
            game = Game.new(Rules.preset(preset), players, seed=number + 1)
            play_game(game, [make_agent("normal")] * players, seed=number + 1)
            _, points, _ = decision_points(game.record(), 0)
            for point in points[::3]:
                outcomes = evaluate_decision(point.view, point.legal, iterations=args.iterations,
                                             rng=random.Random(number), noise=noise)
                for row in outcomes:
                    total += len(row)
                    capped += sum(1 for value in row if 0 < value < 1)  # an even share: capped with seat 0 in
        print(json.dumps({"noise": noise, "playouts": total, "capped": capped,
                          "capped_share": round(capped / total, 4)}), flush=True)


if __name__ == "__main__":
    main()
