"""How heavy and how quick the card table page is (issue 15): page weight, first paint, first deal.

Starts ``mattis serve`` on a fresh SQLite file, then opens a new table's page ``--loads``
times in headless Chromium (Debian's, at ``/usr/bin/chromium``), on a desktop-sized and a
phone-sized screen, each time in a fresh browser context (nothing cached). Prints

* the page weight: every response the table page loads (HTML, CSS, scripts, the icon, the
  texts, the WebSocket's first state not included), as sent and as gzip -9 would send it;
* the time to first paint (``first-contentful-paint``) and to the first deal (the first card
  of the hand on the screen), median and slowest, from the start of navigation.

    python benchmarks/table_page.py --loads 7

Needs the ``web`` and ``test`` extras (Playwright).
"""

from __future__ import annotations

import argparse
import gzip
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Response, ViewportSize, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
SCREENS: dict[str, ViewportSize] = {"desktop": {"width": 1280, "height": 860},
                                    "phone": {"width": 390, "height": 844}}
FIRST_DEAL = """() => {
  const seen = () => {
    if (document.querySelector('#hand [data-card]')) { window.firstDeal = performance.now(); return true; }
    return false;
  };
  new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); })
    .observe(document, { childList: true, subtree: true });
}"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def new_table(base: str) -> dict[str, Any]:
    bot = {"kind": "bot", "level": "normal"}
    body = {"rules": "pagat", "players": 3, "seats": [{"kind": "human", "name": "Kari"}, bot, bot]}
    request = urllib.request.Request(f"{base}/api/tables", data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=7, help="page loads per screen size")
    options = parser.parse_args()
    port = free_port()
    folder = tempfile.mkdtemp(prefix="mattis-page-")
    server = subprocess.Popen([sys.executable, "-m", "mattis", "serve", "--port", str(port), "--db",
                               f"sqlite:///{Path(folder) / 'page.sqlite3'}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/api/options", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for screen, viewport in SCREENS.items():
                paints, deals = [], []
                weight: dict[str, tuple[int, int, int]] = {}
                for _ in range(options.loads):
                    table = new_table(base)
                    context = browser.new_context(viewport=viewport)
                    page = context.new_page()
                    key = f"mattis.seat.{table['table']}"
                    value = json.dumps({"seat": table["seat"], "token": table["token"]})
                    page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(value)})")
                    page.add_init_script(f"({FIRST_DEAL})()")
                    responses: list[Response] = []
                    page.on("response", lambda response, seen=responses: seen.append(response))
                    page.goto(f"{base}/t/{table['table']}?lang=nb")
                    page.wait_for_selector("#hand [data-card]")
                    page.wait_for_function("() => window.firstDeal !== undefined")
                    paint = page.evaluate(
                        "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime")
                    paints.append(float(paint))
                    deals.append(float(page.evaluate("() => window.firstDeal")))
                    for response in responses:
                        if response.url.startswith(base) and response.status == 200:
                            body = response.body()
                            sent = int(response.headers.get("content-length") or len(body))
                            name = response.url[len(base):].split("?")[0]
                            name = "/t/{ID}" if name.startswith("/t/") else name
                            weight[name] = (len(body), sent, len(gzip.compress(body, 9)))
                    context.close()
                print(f"{screen} ({viewport['width']}x{viewport['height']}), {options.loads} loads:")
                for label, times in (("first paint", paints), ("first deal", deals)):
                    middle, slowest = statistics.median(times), max(times)
                    print(f"  {label:12} median {middle:6.0f} ms, slowest {slowest:6.0f} ms")
            print("page weight (bytes: as served / gzip -9):")
            for name, (size, sent, packed) in sorted(weight.items()):
                print(f"  {name:28} {size:7,} {sent:7,} / {packed:6,}")
            print(f"  {'total':28} {sum(w[0] for w in weight.values()):7,} "
                  f"{sum(w[1] for w in weight.values()):7,} / {sum(w[2] for w in weight.values()):6,}")
            browser.close()
    finally:
        server.kill()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
