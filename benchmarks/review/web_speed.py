"""What a review costs on the web server: the wall time from the first ``POST
/api/tables/{ID}/games/{N}/review`` to the answer with the review, per game, through the real
server (its worker processes and fair queue, ``--workers`` of them), at the server's budget.

Each game: a table of one person and ``normal`` bots (pagat 4p, kortregler 3p, pagat 3p in
turn, deal seeds 1…), the person playing the first legal move over the socket; then its review
for the person's seat, asked every 0.2 s as the page asks. Prints one JSON line a game and a
summary.

    nice -n 10 python benchmarks/review/web_speed.py --games 3              # 400 deals a choice
    nice -n 10 python benchmarks/review/web_speed.py --games 3 --iterations 50

On a shared machine the wall seconds depend on the load; CPU seconds are in ``speed.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from mattis.bots.review import REVIEW_ITERATIONS
from mattis.table import table_profile
from mattis.web import Settings, create_app

CONFIGS = (("pagat", 4), ("kortregler", 3), ("pagat", 3))


def play_a_game(client: TestClient, preset: str, players: int, seed: int) -> dict[str, Any]:
    seats = [{"kind": "human", "name": "Kari"}] + [{"kind": "bot", "level": "normal"}] * (players - 1)
    body = {"rules": preset, "players": players, "seed": seed, "seats": seats}
    table: dict[str, Any] = client.post("/api/tables", json=body).json()
    with client.websocket_connect(f"/ws/tables/{table['table']}?token={table['token']}") as socket:
        while True:
            message = json.loads(socket.receive_text())
            if message["type"] != "state" or message["view"] is None:
                continue
            if message["view"]["phase"] == "over":
                return table
            if message["legal"]:
                socket.send_text(json.dumps({"type": "act", "action": message["legal"][0]}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=REVIEW_ITERATIONS)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    tables = dataclasses.replace(table_profile("server"), bot_delay=0.0, review_iterations=args.iterations)
    settings = Settings(table=tables, rate=10_000.0, burst=10_000.0, posts_per_minute=10_000.0)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'speed.sqlite3'}", settings, workers=args.workers)
        with TestClient(app) as client:
            for number in range(args.games):
                preset, players = CONFIGS[number % len(CONFIGS)]
                table = play_a_game(client, preset, players, number + 1)
                started = time.perf_counter()
                asks = 0
                while True:
                    asks += 1
                    answer = client.post(f"/api/tables/{table['table']}/games/1/review",
                                         json={"token": table["token"]})
                    if answer.status_code == 200:
                        break
                    assert answer.status_code == 202, answer.text
                    time.sleep(0.2)
                seconds = time.perf_counter() - started
                review = answer.json()["report"]["review"]
                row = {"preset": preset, "players": players, "seed": number + 1,
                       "iterations": args.iterations, "workers": args.workers,
                       "choices": len(review["decisions"]),
                       "playouts": args.iterations * sum(len(d["options"]) for d in review["decisions"]),
                       "wall_seconds": round(seconds, 1), "asks": asks}
                print(json.dumps(row), flush=True)
                rows.append(row)
    walls = [row["wall_seconds"] for row in rows]
    print(f"median {statistics.median(walls):.1f} s a game (range {min(walls)}-{max(walls)}), "
          f"{args.iterations} deals a choice, {args.workers} workers")


if __name__ == "__main__":
    main()
