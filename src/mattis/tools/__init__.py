"""Research tools over the rules core: random-playout statistics, benchmarks, bot
tournaments and the variant lab, run in this process, a local pool or on Ray
(:mod:`.backends`).

Pure functions that return frozen result values with ``to_dict()`` for JSON; they never
print, so the command line, notebooks and tests present the results as they like.
"""

from .bench import BenchCase, BenchReport, Throughput, run_benchmarks
from .simulate import LongestGame, SimulationStats, play_random_game, simulate

__all__ = [
    "BenchCase", "BenchReport", "LongestGame", "SimulationStats", "Throughput",
    "play_random_game", "run_benchmarks", "simulate",
]
