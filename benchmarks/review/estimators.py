"""Which estimator should the review use? Six candidates at the same number of playouts:

* ``flat-informed``: for each legal move, the same K sampled worlds, the move played and the
  game played out by the ``expert`` rollout policy (the ``normal`` bot's card sense) with 10%
  random moves (the ``expert`` search's own rate); common random numbers across moves;
* ``flat-informed-0.05``, ``flat-informed-0.03``: the same with 5% and 3% random moves (3% is
  the review's choice, :data:`mattis.bots.review.ROLLOUT_NOISE`);
* ``flat-informed-0``: the same with no random moves (less noise, but a policy that can loop);
* ``flat-cheap``: the same worlds played out by the ``hard`` search's cheap rollout policy
  (a random card in phase 1, the lowest play in phase 2);
* ``ismcts``: the ``hard`` search (``IsmctsAgent``, early stop off) given K × (legal moves)
  iterations, each root move's risk read from its visits and rewards.

Decisions: ``--games`` games (pagat 4p, app 4p, kortregler 3p in turn, seeds 1…), played by
four (three) ``normal`` bots or, with ``--players-level hard``, by ``hard`` bots at 200
iterations a move; from each, ``--per-game`` decisions of one seat chosen by the seed. For
each decision and estimator, two runs with different seeds. Reported per estimator:

* CPU seconds per decision;
* noise: the mean over decisions of |cost₁ − cost₂| / √2, where cost is the played move's
  risk minus the lowest risk (the number a turning point is ranked by), and how often the
  two runs name the same best move;
* prediction: the Brier score of the played move's risk (run 1) against whether the seat
  really ended as Mattis (lower is better), beside the Brier score of always saying the
  share of losers (1/players), and the log loss; with standard errors, and each Brier score's
  paired difference from ``--baseline``'s on the same decisions.

    nice -n 10 python benchmarks/review/estimators.py --games 36 --per-game 3 --k 50
    nice -n 10 python benchmarks/review/estimators.py --players-level hard --cache hard.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from mattis import Rules
from mattis.bots import IsmctsAgent, Limit, make_agent, play_game
from mattis.bots.ismcts import _Node, informed_rollout_action, rollout_action
from mattis.bots.review import DecisionPoint, decision_points, evaluate_decision
from mattis.bots.view import PlayerView
from mattis.core.actions import Action
from mattis.core.game import Game

CONFIGS = (("pagat", 4), ("app", 4), ("kortregler", 3))

Estimator = Callable[[PlayerView, Sequence[Action], int, random.Random], list[float]]


def flat(policy: Callable[..., Action], noise: float) -> Estimator:
    def estimate(view: PlayerView, legal: Sequence[Action], k: int, rng: random.Random) -> list[float]:
        outcomes = evaluate_decision(view, legal, iterations=k, rng=rng, policy=policy, noise=noise)
        return [sum(row) / len(row) for row in outcomes]
    return estimate


def ismcts(view: PlayerView, legal: Sequence[Action], k: int, rng: random.Random) -> list[float]:
    """The hard search's root statistics after k × |legal| iterations (private API: a
    measurement, not a product)."""
    agent = IsmctsAgent(Limit(iterations=k * len(legal)), early_stop=False)
    root = _Node(None, -1, None)
    for _ in range(k * len(legal)):
        agent._iterate(root, view, rng)
    risks = []
    for action in legal:
        child = root.children.get(action.index)
        risks.append(1.0 - child.reward / child.visits if child and child.visits else 0.5)
    return risks


ESTIMATORS: dict[str, Estimator] = {
    "flat-informed": flat(informed_rollout_action, 0.1),
    "flat-informed-0.05": flat(informed_rollout_action, 0.05),
    "flat-informed-0.03": flat(informed_rollout_action, 0.03),
    "flat-informed-0": flat(informed_rollout_action, 0.0),
    "flat-cheap": flat(rollout_action, 0.1),
    "ismcts": ismcts,
}


def played_games(games: int, level: str, cache: str) -> list[dict[str, object]]:
    """The records of ``games`` games of ``level`` bots (read from ``cache`` if it holds
    them: ``hard`` games take a while to play, and are the same every time)."""
    if cache and Path(cache).is_file():
        records: list[dict[str, object]] = json.loads(Path(cache).read_text(encoding="utf-8"))
        if len(records) == games:
            return records
    records = []
    for number in range(games):
        preset, players = CONFIGS[number % len(CONFIGS)]
        game = Game.new(Rules.preset(preset), players, seed=number + 1)
        limit = Limit(iterations=200) if level == "hard" else None
        play_game(game, [make_agent(level, limit)] * players, seed=number + 1)
        records.append(game.record())
    if cache:
        Path(cache).write_text(json.dumps(records), encoding="utf-8")
    return records


def collect(games: int, per_game: int, level: str, cache: str) -> list[tuple[DecisionPoint, bool, int]]:
    """(decision, whether its seat lost, players) from ``games`` games played by ``level`` bots."""
    found = []
    for number, record in enumerate(played_games(games, level, cache)):
        game = Game.from_record(record)
        players = game.players
        if not game.is_over:
            continue
        chooser = random.Random(number)
        seat = chooser.randrange(players)
        _, points, _ = decision_points(game.record(), seat)
        for point in chooser.sample(points, min(per_game, len(points))):
            found.append((point, seat in game.losers, players))
    return found


def cost(risks: list[float], played: int) -> float:
    return risks[played] - min(risks)


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    return statistics.mean(values), statistics.stdev(values) / math.sqrt(len(values))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=36)
    parser.add_argument("--per-game", type=int, default=3)
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--players-level", default="normal")
    parser.add_argument("--only", default="")
    parser.add_argument("--cache", default="", help="a JSON file keeping the games played")
    parser.add_argument("--baseline", default="flat-informed-0.03",
                        help="the estimator the others' Brier scores are compared with, pairwise")
    args = parser.parse_args()
    points = collect(args.games, args.per_game, args.players_level, args.cache)
    chosen = [name for name in ESTIMATORS if not args.only or name in args.only.split(",")]
    report: dict[str, object] = {"games": args.games, "decisions": len(points), "k": args.k,
                                 "players_level": args.players_level}
    base = [(1 / players - lost) ** 2 for _, lost, players in points]
    report["brier_base_rate"] = round(statistics.mean(base), 4)
    report["lost_share"] = round(statistics.mean(float(lost) for _, lost, _ in points), 3)
    squared: dict[str, list[float]] = {}
    for name in chosen:
        estimate = ESTIMATORS[name]
        seconds, noise, same_best, brier, log_loss = [], [], 0, [], []
        for number, (point, lost, _players) in enumerate(points):
            played = point.legal.index(point.played)
            started = time.process_time()
            first = estimate(point.view, point.legal, args.k, random.Random(f"a{number}"))
            seconds.append(time.process_time() - started)
            second = estimate(point.view, point.legal, args.k, random.Random(f"b{number}"))
            noise.append(abs(cost(first, played) - cost(second, played)) / math.sqrt(2))
            same_best += first.index(min(first)) == second.index(min(second))
            brier.append((first[played] - lost) ** 2)
            p = min(max(first[played], 0.01), 0.99)
            log_loss.append(-math.log(p if lost else 1 - p))
        squared[name] = brier
        noise_mean, noise_se = mean_se(noise)
        brier_mean, brier_se = mean_se(brier)
        report[name] = {
            "cpu_seconds_per_decision": round(statistics.mean(seconds), 3),
            "cost_noise": round(noise_mean, 4), "cost_noise_se": round(noise_se, 4),
            "same_best": round(same_best / len(points), 3),
            "brier": round(brier_mean, 4), "brier_se": round(brier_se, 4),
            "log_loss": round(statistics.mean(log_loss), 4),
        }
        print(name, report[name], flush=True)
    if args.baseline in squared:
        for name, brier in squared.items():
            if name != args.baseline:
                difference, se = mean_se([a - b for a, b in zip(brier, squared[args.baseline], strict=True)])
                report[name]["brier_minus_baseline"] = [round(difference, 4), round(se, 4)]  # type: ignore[index]
        difference, se = mean_se([a - b for a, b in zip(base, squared[args.baseline], strict=True)])
        report["base_rate_minus_baseline"] = [round(difference, 4), round(se, 4)]
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
