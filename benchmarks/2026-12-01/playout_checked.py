import random

from mattis import Game

total = 0
for name, players in (("pagat", 3), ("pagat", 4), ("kortregler", 3), ("app", 4)):
    for seed in range(40):
        g = Game.new(name, players, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.num_actions < 3000:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            c = g.copy()
            total += 1
print(total)
