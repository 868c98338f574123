"""Search speed of ``hard`` and ``expert``: iterations per second (CPU time) on the same
decisions, and what each default budget costs a move. Run it on a compiled install and,
with ``MATTIS_PURE=1``, on the same install's Python sources:

    python benchmarks/expert/speed.py            # compiled (if installed so)
    MATTIS_PURE=1 python benchmarks/expert/speed.py

Decisions: every non-forced decision of seat 0 in one pagat 3-player game of three
``normal`` bots (seed 5). Iterations per second: each decision searched 400 iterations by
each bot with early stopping off. Default budgets: every third decision searched with each
bot's default limit (early stopping on), reporting the median iterations, CPU and wall seconds
a move (``hard``: 1 s; ``expert``: 4,000 iterations or 2.5 s).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Sequence

import mattis.build
from mattis import Rules
from mattis.bots import (
    DEFAULT_LIMIT,
    EXPERT_LIMIT,
    ExpertAgent,
    GuidedAgent,
    IsmctsAgent,
    Limit,
    PlayerView,
    RuleBasedAgent,
)
from mattis.bots.runner import seat_view
from mattis.core.actions import Action
from mattis.core.game import Game

ITERATIONS = 400
Case = tuple[PlayerView, list[Action]]


def decisions(most: int | None = 40) -> list[Case]:
    """(view, legal) for seat 0's non-forced decisions (the first ``most``, or all) in one game
    of ``normal`` bots: ``benchmarks/master/speed.py`` takes its decisions from here too."""
    game = Game.new(Rules.preset("pagat"), 3, seed=5)
    bot = RuleBasedAgent("normal")
    rng = random.Random(5)
    found: list[Case] = []
    while not game.is_over and (most is None or len(found) < most):
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        view = seat_view(game, seat)
        if seat == 0 and len(legal) > 1:
            found.append((view, legal))
        game.apply(bot.choose(view, legal, rng).action)
    return found


def rate(agent: IsmctsAgent | ExpertAgent | GuidedAgent, cases: Sequence[Case],
         iterations: int = ITERATIONS) -> float:
    """Median iterations per CPU second over the cases, each searched ``iterations`` times."""
    rates = []
    for view, legal in cases:
        started = time.process_time()
        decision = agent.choose(view, legal, random.Random(1), Limit(iterations=iterations))
        rates.append(decision.iterations / (time.process_time() - started))
    return statistics.median(rates)


def at_default(agent: IsmctsAgent | ExpertAgent, cases: Sequence[Case]) -> dict[str, float]:
    """Median iterations and CPU seconds a move at the agent's own default budget."""
    iterations, seconds, wall = [], [], []
    for view, legal in cases[::3]:
        started, clock = time.process_time(), time.perf_counter()
        decision = agent.choose(view, legal, random.Random(2))
        seconds.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
        iterations.append(decision.iterations)
    return {"iterations_median": statistics.median(iterations),
            "cpu_seconds_median": round(statistics.median(seconds), 3),
            "wall_seconds_median": round(statistics.median(wall), 3), "wall_seconds_max": round(max(wall), 3)}


def main() -> None:
    cases = decisions()
    hard = IsmctsAgent(early_stop=False)
    expert = ExpertAgent()
    expert._search.early_stop = False
    hard_rate = rate(hard, cases)
    expert_rate = rate(expert, cases)
    print(json.dumps({
        "build": mattis.build.build(), "decisions": len(cases), "iterations_per_search": ITERATIONS,
        "hard_iterations_per_s": round(hard_rate), "expert_iterations_per_s": round(expert_rate),
        "hard_default": {"seconds": DEFAULT_LIMIT.seconds, "iterations": DEFAULT_LIMIT.iterations},
        "expert_default": {"seconds": EXPERT_LIMIT.seconds, "iterations": EXPERT_LIMIT.iterations},
        "hard_at_default": at_default(IsmctsAgent(), cases),
        "expert_at_default": at_default(ExpertAgent(), cases),
    }))


if __name__ == "__main__":
    main()
