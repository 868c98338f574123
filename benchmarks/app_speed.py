"""How big and how fast the offline app is (issue 16, item 6): prints figures, asserts nothing.

* download, compressed: every file the service worker keeps, gzipped as a server or static host
  sends it (the runtime precompressed, the rest at gzip level 6), on the first visit; and an
  update that changes our Python package (the zip, a new ``sw.js``);
* time to the first deal: from opening ``/`` to the first ``state`` of a new table on the
  device, cold (first visit, nothing cached) and warm (installed, offline: the first such
  start, then the median and best of five more), also with the
  page's CPU throttled 4x through the DevTools protocol (``Emulation.setCPUThrottlingRate``;
  Chromium throttles the page's thread, not the worker's, so the throttled figure shows what
  the page itself costs);
* ``hard``'s iterations per second in the worker (Pyodide) and in native CPython, in one run;
* memory: the resident size of the browser's renderer processes (the page and its worker) and
  of all its processes, once a game is dealt.

    .venv/bin/mattis app build && .venv/bin/python benchmarks/app_speed.py
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.app_helpers import FAST_BOTS, chromium, install, wait_until  # noqa: E402
from tests.web_helpers import free_port, server  # noqa: E402

from mattis.table.jobs import search_speed  # noqa: E402
from mattis.web import pwa  # noqa: E402
from mattis.web.app import options_payload, texts_payload  # noqa: E402
from mattis.web.rules_page import rules_page  # noqa: E402

FIRST_DEAL = """async () => {
  const transport = await import('/static/transport.js');
  const created = await transport.createTable({ rules: 'pagat', players: 3,
    seats: [{ kind: 'human' }, { kind: 'bot', level: 'hard' }, { kind: 'bot', level: 'normal' }] },
    'en', { where: 'local' });
  const seat = created.data;
  return await new Promise((resolve) => {
    const link = transport.openSeat({ tableId: seat.table, token: seat.token, lang: 'en' }, {
      onMessage(message) {
        if (message.type === 'state' && message.view) { link.close(); resolve(performance.now()); }
      },
    });
  });
}"""


WARM_RUNS = 5
"""Warm starts measured after the first (whose compiled WebAssembly the browser caches only
then), reported as their median and best."""


def compressed(data: bytes, level: int = 6) -> int:
    return len(gzip.compress(data, level, mtime=0))


def download_sizes() -> dict[str, int]:
    files = pwa.app_files(rules_page, options_payload, texts_payload)
    runtime = {f"/static/app/pyodide/{name}" for name in pwa.RUNTIME_FILES}
    sizes = {}
    for item in files:
        packed = pwa.RUNTIME_DIR / (Path(item.url).name + ".gz")
        sizes[item.url] = packed.stat().st_size if item.url in runtime else compressed(item.data)
    first = sum(sizes.values()) + compressed(pwa.service_worker(files).encode())
    update = sizes["/static/app/mattis.zip"] + compressed(pwa.service_worker(files).encode())
    return {
        "first_visit": first,
        "update_python_change": update,
        "runtime": sum(sizes[url] for url in runtime),
        "package_zip": sizes["/static/app/mattis.zip"],
        "files": len(files),
    }


def first_deal(page: Any, url: str, throttle: float) -> dict[str, float]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    started = time.perf_counter()
    page.goto(url)
    dealt = page.evaluate(FIRST_DEAL)
    total = time.perf_counter() - started
    ready = page.evaluate("import('/static/transport.js').then(t => t.engineReady())")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    return {
        "seconds_to_first_deal": round(total, 2),
        "page_ms_at_deal": round(dealt),
        "worker_start_seconds": round(ready["seconds"], 2),
        "python_seconds": round(ready["phases"]["python"], 2),
        "from": ready["from"],
        "package_seconds": round(ready["phases"]["package"], 2),
    }


def browser_memory() -> dict[str, int]:
    """Resident bytes of the browser's renderer processes (the page and its worker) and of
    all its processes."""
    renderers = everything = 0
    for process in psutil.process_iter(["cmdline"]):
        try:
            command = " ".join(process.info["cmdline"] or [])
            if "chromium" not in command:
                continue
            rss = process.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        everything += rss
        if "--type=renderer" in command:
            renderers += rss
    return {"renderers": renderers, "all_processes": everything}


def main() -> None:
    if not pwa.is_built():
        pwa.build()
    figures: dict[str, Any] = {"load_average": os.getloadavg(), "download_bytes": download_sizes()}
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        with (
            server(port, f"sqlite:///{folder}/bench.sqlite3", "--bot-delay", "0"),
            chromium() as (_, browser),
        ):
            base = f"http://127.0.0.1:{port}"
            for throttle in (1.0, 4.0):
                context = browser.new_context()
                page = context.new_page()
                label = "unthrottled" if throttle == 1 else "cpu_4x"
                figures[f"cold_{label}"] = first_deal(page, f"{base}/?lang=en", throttle)
                wait_until(page, "navigator.serviceWorker.controller !== null")
                page.evaluate(FAST_BOTS)
                context.set_offline(True)
                figures[f"warm_first_{label}"] = first_deal(page, f"{base}/?lang=en", throttle)
                runs = [first_deal(page, f"{base}/?lang=en", throttle) for _ in range(WARM_RUNS)]
                runs.sort(key=lambda run: run["seconds_to_first_deal"])
                figures[f"warm_median_{label}"] = runs[len(runs) // 2]
                figures[f"warm_best_{label}"] = runs[0]
                if throttle == 1.0:
                    figures["memory_bytes_at_deal"] = browser_memory()
                context.close()
            context = browser.new_context()
            page = context.new_page()
            install(page, f"{base}/?lang=en")
            worker_speed = page.evaluate("""() => new Promise((resolve) => {
              const w = new Worker('/static/app/worker.js', { type: 'module' });
              w.onmessage = (event) => {
                const message = JSON.parse(event.data);
                const ask = { op: 'call', id: 1, name: 'searchSpeed', seconds: 2, lang: 'en' };
                if (message.ready) w.postMessage(JSON.stringify(ask));
                if (message.reply === 1) { w.terminate(); resolve(message.data); }
              };
            })""")
            context.close()
    native = search_speed(2.0)
    figures["hard_iterations_per_second"] = {
        "worker_pyodide": round(worker_speed["per_second"]),
        "native_cpython": round(native["per_second"]),
        "ratio": round(native["per_second"] / worker_speed["per_second"], 2),
    }
    figures["python"] = sys.version.split()[0]
    figures["zip_sha256"] = hashlib.sha256(pwa.package_zip()).hexdigest()[:16]
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
