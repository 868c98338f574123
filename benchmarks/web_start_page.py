"""How heavy and how quick the start page is (issue 15): page weight, first paint, first deal.

Starts ``mattis serve`` on a temporary database, then opens the start page and the rules page
in headless Chromium (``/usr/bin/chromium``) several times, each in a fresh browser context
(nothing cached), and reports the median of:

* the bytes each page loads, as sent (gzip-compressed) and unpacked, from the browser's
  resource timings;
* the time to the first contentful paint, and until the start page shows its words (the
  texts and options come from the server after the page has loaded);
* the time from the click on "Play now" until your three cards are on the table.

    python benchmarks/web_start_page.py --runs 5

Needs the ``test`` extra (Playwright) and Debian's ``chromium``.
"""

from __future__ import annotations

import argparse
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

from playwright.sync_api import Browser, sync_playwright

ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WEIGHT = """() => {
  const entries = ["navigation", "resource"].flatMap((kind) => performance.getEntriesByType(kind));
  return { sent: entries.reduce((sum, e) => sum + e.encodedBodySize, 0),
           unpacked: entries.reduce((sum, e) => sum + e.decodedBodySize, 0), files: entries.length };
}"""
PAINT = """() => performance.getEntriesByType("paint")
  .find((entry) => entry.name === "first-contentful-paint")?.startTime"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def measure_start(browser: Browser, base: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/?lang=en")
    page.wait_for_selector("#quick-summary:not(:empty)")
    words = page.evaluate("performance.now()")
    page.wait_for_load_state("networkidle")
    weight = page.evaluate(WEIGHT)
    paint = page.evaluate(PAINT)
    clicked = time.perf_counter()
    page.click('[data-action="quick-start"]')
    page.wait_for_url("**/t/**")
    page.locator("[data-card]").nth(2).wait_for()
    dealt = time.perf_counter() - clicked
    context.close()
    return {"sent": weight["sent"], "unpacked": weight["unpacked"], "files": weight["files"],
            "first_paint_ms": paint, "words_ms": words, "first_deal_ms": dealt * 1000}


def measure_rules(browser: Browser, base: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/rules?lang=en")
    page.wait_for_load_state("networkidle")
    weight = page.evaluate(WEIGHT)
    result = {"sent": weight["sent"], "unpacked": weight["unpacked"], "files": weight["files"],
              "first_paint_ms": page.evaluate(PAINT),
              "height_px": page.evaluate("document.documentElement.scrollHeight")}
    context.close()
    return result


def median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        process = subprocess.Popen([sys.executable, "-m", "mattis", "serve", "--port", str(port), "--db", db],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/options", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                measure_start(browser, base)  # warm the server (first imports, first table)
                start = median([measure_start(browser, base) for _ in range(options.runs)])
                rules = median([measure_rules(browser, base) for _ in range(options.runs)])
                browser.close()
        finally:
            process.kill()
            process.wait()
    report: dict[str, Any] = {"runs": options.runs, "start_page": start, "rules_page": rules}
    if options.json:
        print(json.dumps(report))
        return
    print(f"start page: {start['sent'] / 1024:.1f} KiB sent, {start['unpacked'] / 1024:.1f} KiB unpacked, "
          f"{start['files']:.0f} files; first paint {start['first_paint_ms']:.0f} ms, words shown "
          f"{start['words_ms']:.0f} ms; 'Play now' to your cards {start['first_deal_ms']:.0f} ms")
    print(f"rules page: {rules['sent'] / 1024:.1f} KiB sent, {rules['unpacked'] / 1024:.1f} KiB unpacked, "
          f"{rules['files']:.0f} files; first paint {rules['first_paint_ms']:.0f} ms; "
          f"{rules['height_px']:.0f} px tall at 1200 px wide")
    print(f"(median of {options.runs} runs, each in a fresh browser context)")


if __name__ == "__main__":
    main()
