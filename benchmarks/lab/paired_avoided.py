"""How to pair the lab's skill comparison: random in hard's seat alone, or random's Mattis
share over the whole deal? Plays the random and skill runs of one configuration on the same
deals and prints both 95% half-widths (normal approximation) and the correlation behind them.

    python benchmarks/lab/paired_avoided.py pagat 3 300
"""

from __future__ import annotations

import math
import statistics
import sys

from mattis import Rules
from mattis.tools.lab import Variant, play_lab_game

Z = 1.959963984540054


def half_width(values: list[float]) -> float:
    """The 95% half-width of a mean, by normal approximation."""
    return Z * statistics.stdev(values) / math.sqrt(len(values))


def main(preset: str, players: int, games: int, hard_iterations: int = 20) -> None:
    variant = Variant(preset, Rules.preset(preset), preset)
    same_seat: list[float] = []
    whole_deal: list[float] = []
    random_in_seat: list[float] = []
    hard: list[float] = []
    for index in range(games):
        chance = play_lab_game(variant, players, "random", seed=1, index=index,
                               hard_iterations=hard_iterations)
        skill = play_lab_game(variant, players, "skill", seed=1, index=index,
                              hard_iterations=hard_iterations)
        if chance.capped or skill.capped:
            continue
        hard_lost = float(skill.hard_seat in skill.losers)
        random_lost = float(skill.hard_seat in chance.losers)
        same_seat.append(random_lost - hard_lost)
        whole_deal.append(len(chance.losers) / players - hard_lost)
        random_in_seat.append(random_lost)
        hard.append(hard_lost)
    print(f"{preset}, {players} players, {len(hard)} deals finished in both runs, hard:{hard_iterations}")
    for name, differences in (("random in hard's seat", same_seat), ("random's share of deal", whole_deal)):
        print(f"  {name:<22}  avoided {statistics.fmean(differences):+.3f} ± {half_width(differences):.3f}")
    if len(set(random_in_seat)) > 1 and len(set(hard)) > 1:
        correlation = statistics.correlation(random_in_seat, hard)
        print(f"  correlation of random and hard in the same seat: {correlation:.3f}")

if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
