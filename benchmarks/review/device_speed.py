"""What a review costs on the device: the offline app's worker (Pyodide in headless Chromium,
the network off) reviewing games played on the device, at the device's budget
(``DEVICE_ITERATIONS``, 50 deals a choice): the wall time from the first ``review`` call to the
answer with the review, asked every 0.2 s as the page asks. Prints one JSON line a game and a
summary; asserts nothing.

Games: the person (seat 0) plays the first legal move against ``normal`` and ``easy`` bots,
pagat 4p, kortregler 3p and pagat 3p in turn, deal seeds 1…

    .venv/bin/mattis app build && nice -n 10 .venv/bin/python benchmarks/review/device_speed.py --games 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from tests.app_helpers import CREATE, FAST_BOTS, PLAY, chromium, install  # noqa: E402
from tests.web_helpers import free_port, server  # noqa: E402

from mattis.bots.review import DEVICE_ITERATIONS  # noqa: E402
from mattis.web import pwa  # noqa: E402

CONFIGS = (("pagat", 4), ("kortregler", 3), ("pagat", 3))

REVIEW = """async ({ tableId }) => {
  const transport = await import('/static/transport.js');
  const seat = JSON.parse(localStorage.getItem(`mattis.seat.${tableId}`));
  const started = performance.now();
  let asks = 0;
  for (;;) {
    asks += 1;
    const answer = await transport.reviewGame(tableId, 1, seat.token, 'en');
    if (!answer.ok) throw new Error(JSON.stringify(answer.data));
    if (answer.status === 200) {
      const review = answer.data.report.review;
      const moves = review.decisions.reduce((sum, d) => sum + Object.keys(d.options).length, 0);
      return { seconds: (performance.now() - started) / 1000, asks, choices: review.decisions.length,
               playouts: review.iterations * moves, device: answer.data.device };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    pwa.build(say=lambda line: None)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        with server(port, f"sqlite:///{Path(folder) / 'site.sqlite3'}"), chromium() as (_, browser):
            context = browser.new_context()
            page = context.new_page()
            install(page, f"http://127.0.0.1:{port}/?lang=en")
            page.evaluate(FAST_BOTS)
            context.set_offline(True)
            for number in range(args.games):
                preset, players = CONFIGS[number % len(CONFIGS)]
                seats = [{"kind": "human", "name": "Kari"}] + [
                    {"kind": "bot", "level": "normal" if seat % 2 else "easy"} for seat in range(1, players)]
                body = {"rules": preset, "players": players, "seed": number + 1, "seats": seats}
                created = page.evaluate(CREATE, {"body": body, "lang": "en", "where": "local"})
                table = created["data"]["table"]
                page.evaluate(PLAY, {"tableId": table, "lang": "en", "moves": None, "hint": False, "pace": 0})
                started = time.perf_counter()
                measured = page.evaluate(REVIEW, {"tableId": table})
                row = {"preset": preset, "players": players, "seed": number + 1,
                       "iterations": DEVICE_ITERATIONS, **measured, "seconds": round(measured["seconds"], 1),
                       "wall_seconds": round(time.perf_counter() - started, 1)}
                print(json.dumps(row), flush=True)
                rows.append(row)
            context.close()
    times = [row["seconds"] for row in rows]
    print(f"median {statistics.median(times):.1f} s a game (range {min(times)}-{max(times)}) on the device's "
          f"budget of {DEVICE_ITERATIONS}, Pyodide in Chromium")


if __name__ == "__main__":
    main()
