"""Random playouts for instruction counting: legal_actions + apply + copy at every step.

``python playout.py`` uses the checked ``apply``; ``python playout.py unchecked`` uses
``apply_unchecked``. Two more modes take parts apart: ``no-copy`` leaves out the copy (so
the difference to the checked run is the cost of ``copy``), and ``positions`` adds a
``Game.from_position(game.position(), check=False)`` round trip at every step (what a
searching bot does once per iteration). Run it under callgrind (see
engine-before-after.md and state-declaration-callgrind.md).
"""

import random
import sys

from mattis import Game

mode = sys.argv[1] if len(sys.argv) > 1 else "checked"
if mode not in ("checked", "unchecked", "no-copy", "positions"):
    raise SystemExit(f"unknown mode {mode!r}")
total = 0
for name, players in (("pagat", 3), ("pagat", 4), ("kortregler", 3), ("app", 4)):
    for seed in range(40):
        game = Game.new(name, players, seed=seed)
        rng = random.Random(seed)
        step = game.apply_unchecked if mode == "unchecked" else game.apply
        while not game.is_over and game.num_actions < 3000:
            legal = game.legal_actions()
            step(legal[rng.randrange(len(legal))])
            if mode != "no-copy":
                game.copy()
            if mode == "positions":
                Game.from_position(game.position(), check=False)
            total += 1
print(total)
