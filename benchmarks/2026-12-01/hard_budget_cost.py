"""What one game of `hard` at a large budget costs: iterations per move (early stopping
ends many searches before the budget) and CPU seconds, over two games of one deal against
two `normal` bots. Iteration counts do not depend on the machine; CPU seconds do.

    python benchmarks/2026-12-01/hard_budget_cost.py > hard-budget-cost.jsonl
"""

import json
import time

from mattis import Rules
from mattis.tools.tournament import play_tournament_game, seating

RULES = Rules.preset("pagat")
SEED = 77

for budget in (2000, 4000, 8000):
    for index in (0, 1):
        started = time.process_time()
        bots = [f"hard:{budget}", "normal", "normal"]
        played = play_tournament_game(RULES, 3, bots, seed=SEED, index=index)
        cpu = time.process_time() - started
        hard_seat = seating(3, index).index(0)
        mine = [decision for decision in played.decisions if decision.seat == hard_seat]
        iterations = sum(decision.iterations for decision in mine)
        print(json.dumps({"budget": budget, "index": index, "decisions": len(mine), "iterations": iterations,
                          "per_decision": iterations / max(1, len(mine)), "cpu": cpu}), flush=True)
