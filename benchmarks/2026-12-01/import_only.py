from mattis import Game

g = Game.new("pagat", 3, seed=0)
