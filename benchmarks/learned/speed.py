"""How long the ``learned`` bot takes per decision, with numpy alone: encoding the seat's view
(``encode_view``) and the network's forward pass, each timed over the non-forced decisions of
whole games between the learned bot and ``easy`` bots.

    python benchmarks/learned/speed.py [--checkpoint FILE] [--games 20]

Prints medians in microseconds (one run on a shared machine: compare figures of one run).
"""

from __future__ import annotations

import argparse
import statistics
import time

from mattis import Game
from mattis.bots import PlayerView, make_agent, play_game
from mattis.bots.learned import LearnedAgent, load_checkpoint
from mattis.envs.encoding import encode_view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", default=None, help="a checkpoint file (default: the shipped one)")
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    policy = load_checkpoint(args.checkpoint)
    agent = LearnedAgent(policy)
    views: list[tuple[PlayerView, list[int]]] = []

    whole: list[float] = []
    for seed in range(args.games):
        game = Game.new("pagat", 3, seed=seed)
        played = play_game(game, [agent, make_agent("easy"), make_agent("easy")], seed=seed)
        whole += [stat.seconds for stat in played.decisions if stat.seat == 0]
        replay = Game.new("pagat", 3, seed=seed)
        for action in played.game.actions:
            if replay.to_move == 0 and len(replay.legal_actions()) > 1:
                views.append((PlayerView.of(replay.seat_view(0)), [a.index for a in replay.legal_actions()]))
            replay.apply(action)
    encode, forward = [], []
    for view, legal in views:
        started = time.perf_counter()
        observation = encode_view(view)
        middle = time.perf_counter()
        policy.best(observation, legal)
        forward.append(time.perf_counter() - middle)
        encode.append(middle - started)

    def micro(values: list[float]) -> str:
        return f"{statistics.median(values) * 1e6:,.0f} µs"

    print(f"network: {policy.parameters:,} numbers, layers "
          f"{' x '.join(str(w.shape[0]) for w in policy.weights)} x {policy.weights[-1].shape[1]}")
    print(f"whole decision (choose, in play_game): median {micro(whole)} over {len(whole):,} decisions "
          f"in {args.games} games")
    print(f"  encode_view of the view:  median {micro(encode)} over {len(encode):,} views")
    print(f"  forward pass and masking: median {micro(forward)}")


if __name__ == "__main__":
    main()
