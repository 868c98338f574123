"""Random playouts for instruction counting: legal_actions + apply + copy at every step.

``python playout.py`` uses the checked ``apply``; ``python playout.py unchecked`` uses
``apply_unchecked``. Run it under callgrind (see engine-before-after.md).
"""

import random
import sys

from mattis import Game

unchecked = sys.argv[1:] == ["unchecked"]
total = 0
for name, players in (("pagat", 3), ("pagat", 4), ("kortregler", 3), ("app", 4)):
    for seed in range(40):
        game = Game.new(name, players, seed=seed)
        rng = random.Random(seed)
        step = game.apply_unchecked if unchecked else game.apply
        while not game.is_over and game.num_actions < 3000:
            legal = game.legal_actions()
            step(legal[rng.randrange(len(legal))])
            game.copy()
            total += 1
print(total)
