"""What a table's state messages cost: whole games with a connection at every seat.

Plays ``--games`` seeded pagat games at a four-seat table (one person playing random legal
moves, three ``normal`` bots), and after every move builds the state message of every seat,
as the server does for four connections. With ``--no-messages`` it only plays, so the
difference between two runs is the messages' cost. Wall time on a shared machine is noisy;
count instructions instead:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/table_messages.py --games 5
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/table_messages.py --games 5 --no-messages

(``I refs`` of the first minus the second, divided by the messages printed.)
"""

from __future__ import annotations

import argparse
import random
import time

from mattis.table import MessageCursor, TableConfig, TableSession


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--no-messages", action="store_true", help="play only (the baseline)")
    options = parser.parse_args()
    moves = messages = 0
    started = time.perf_counter()
    for seed in range(options.games):
        body = {"rules": "pagat", "players": 4, "seed": seed,
                "seats": [{"kind": "human", "name": "Kari"}] + [{"kind": "bot", "level": "normal"}] * 3}
        session, _, _, _ = TableSession.create("bench", body, TableConfig())
        readers = [MessageCursor(seat, "en") for seat in range(4)]
        rng = random.Random(seed)
        game = session.game
        assert game is not None
        while not game.is_over:
            turn = session.bot_move_due()
            if turn is None:
                assert game.to_move is not None
                session.act(game.to_move, str(rng.choice(game.legal_actions())))
            else:
                assert turn.action is not None
                session.bot_act(turn, turn.action)
            moves += 1
            if not options.no_messages:
                for reader in readers:
                    session.state_message(reader)
                    messages += 1
    seconds = time.perf_counter() - started
    print(f"{options.games} games, {moves} moves, {messages} state messages, {seconds:.2f} s")


if __name__ == "__main__":
    main()
