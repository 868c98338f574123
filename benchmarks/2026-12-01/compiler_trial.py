"""The quick trial that chose the compiler (issue 17.2): one playout and one `hard` figure for
whichever build of Mattis is on the path. Wall time, median of 3 runs.

    PYTHONPATH=DIR python benchmarks/2026-12-01/compiler_trial.py

with DIR a copy of `src` compiled in place (see compiled-build.md for the commands).
"""

import random
import statistics
import time

import mattis.core.game as engine
from mattis import Game
from mattis.bots import make_agent
from mattis.bots.protocol import Limit
from mattis.bots.view import PlayerView


def playouts(games: int = 150) -> float:
    """Random pagat games, 3 players, through the checked apply: actions per second."""
    started = time.perf_counter()
    actions = 0
    for seed in range(games):
        game = Game.new("pagat", 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.num_actions < 3000:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (time.perf_counter() - started)


def hard(decisions: int = 6, iterations: int = 300) -> float:
    """`hard` iterations per second on a few early decisions."""
    agent = make_agent("hard")
    total = 0
    started = time.perf_counter()
    for seed in range(decisions):
        game = Game.new("pagat", 3, seed=seed)
        rng = random.Random(seed)
        for _ in range(seed * 7 % 40):
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        while len(game.legal_actions()) < 2:
            game.apply(game.legal_actions()[0])
        seat = game.to_move
        assert seat is not None
        view = PlayerView.of(game.seat_view(seat))
        limit = Limit(iterations=iterations)
        total += agent.choose(view, game.legal_actions(), random.Random(1), limit).iterations
    return total / (time.perf_counter() - started)


print(engine.__file__)
print("playouts actions/s", statistics.median(playouts() for _ in range(3)))
print("hard iterations/s", statistics.median(hard() for _ in range(3)))
