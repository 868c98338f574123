"""The playouts of ``benchmarks/peer_speed.py``, fixed, for instruction counting (issue 27.4).

    PYTHONHASHSEED=0 valgrind --tool=callgrind python peer_playout.py [GAMES] [RULES]

``GAMES`` (default 60) random games at 3, 4 and 6 players through the public API (``Game.new``,
``legal_actions``, ``apply``), moves chosen as ``floor(random() * len(legal))`` as the
benchmark's loop does. ``GAMES`` 0 only imports and starts: subtract it. See peer-speed.md.
"""

import math
import random
import sys

from mattis import Game


def main(games: int, rules: str) -> int:
    rand = random.Random(1).random
    floor = math.floor
    actions = 0
    for players in (3, 4, 6):
        for number in range(games):
            game = Game.new(rules, players, seed=100_000 + number)
            played = 0
            while not game.is_over and played < 3000:
                legal = game.legal_actions()
                game.apply(legal[floor(rand() * len(legal))])
                played += 1
            actions += played
    return actions


print(main(int(sys.argv[1]) if len(sys.argv) > 1 else 60, sys.argv[2] if len(sys.argv) > 2 else "app"))
