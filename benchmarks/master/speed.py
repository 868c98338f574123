"""Search speed of ``master`` beside ``hard``: iterations per CPU second on the same decisions,
what its default budget (1 s) buys a move, and where an iteration's time goes.

    python benchmarks/master/speed.py                    # the shipped network
    python benchmarks/master/speed.py --hidden 256,256   # a random network of that size instead
    MATTIS_PURE=1 python benchmarks/master/speed.py      # a compiled install's Python sources

Decisions: every third non-forced decision of seat 0 in one pagat 3-player game of three
``normal`` bots (seed 5), as ``benchmarks/expert/speed.py`` takes them. Iterations per
second: each decision searched 300 iterations with early stopping off (median over the
decisions). The breakdown profiles ``master`` over the same searches (cumulative seconds of
the leaf evaluator, the leaf views and sampling, as shares of the search; pure Python only,
since the profiler sees no compiled function).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import mattis.build
from mattis.bots import GuidedAgent, IsmctsAgent, Limit
from mattis.bots.guided import LeafEvaluator
from mattis.bots.network import NetworkEvaluator, random_network, shipped_network

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/, for expert/speed.py
from expert import speed as expert_speed
from expert.speed import Case

ITERATIONS = 300


def decisions() -> list[Case]:
    """Every third of ``benchmarks/expert/speed.py``'s decisions, over the whole game."""
    return expert_speed.decisions(most=None)[::3]


def rate(agent: GuidedAgent | IsmctsAgent, cases: Sequence[Case]) -> float:
    """Median iterations per CPU second over the cases, 300 iterations a search."""
    return expert_speed.rate(agent, cases, ITERATIONS)


def at_default(agent: GuidedAgent, cases: Sequence[Case]) -> dict[str, float]:
    """Median iterations and wall seconds a move at the default budget (early stopping on)."""
    iterations, wall = [], []
    for view, legal in cases:
        clock = time.perf_counter()
        iterations.append(agent.choose(view, legal, random.Random(2)).iterations)
        wall.append(time.perf_counter() - clock)
    return {"iterations_median": statistics.median(iterations),
            "wall_seconds_median": round(statistics.median(wall), 3)}


def breakdown(evaluator: LeafEvaluator, cases: Sequence[Case]) -> dict[str, float]:
    """Shares of a ``master`` search's time: the evaluator, building leaf views, sampling."""
    agent = GuidedAgent(Limit(iterations=ITERATIONS), evaluator=evaluator, early_stop=False)
    profile = cProfile.Profile()
    profile.enable()
    for view, legal in cases:
        agent.choose(view, legal, random.Random(1))
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    spent = {function: cumulative for (_, _, function), (_, _, _, cumulative, _) in stats.items()}
    total = spent["choose"]
    return {name: round(spent.get(function, 0.0) / total, 2)
            for name, function in (("evaluator", "__call__"), ("leaf_views", "leaf_view"),
                                   ("sampling", "sample_position"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hidden", help="a random network with these hidden layers (256,256) "
                                         "instead of the shipped one")
    arguments = parser.parse_args()
    if arguments.hidden:
        network = random_network(0, hidden=tuple(int(size) for size in arguments.hidden.split(",")))
    else:
        network = shipped_network()
    evaluator = NetworkEvaluator(network)
    cases = decisions()
    print(json.dumps({
        "build": mattis.build.build(), "decisions": len(cases), "iterations_per_search": ITERATIONS,
        "network_parameters": network.parameters,
        "hard_iterations_per_s": round(rate(IsmctsAgent(early_stop=False), cases)),
        "master_iterations_per_s": round(rate(GuidedAgent(evaluator=evaluator, early_stop=False), cases)),
        "master_at_default": at_default(GuidedAgent(evaluator=evaluator), cases),
        # the profiler sees no compiled function: shares on the pure build only
        "master_time_shares": breakdown(evaluator, cases) if mattis.build.build() == "pure" else None,
    }))


if __name__ == "__main__":
    main()
