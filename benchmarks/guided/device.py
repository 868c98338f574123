"""What the ``master`` bot's network costs on the device (issue 27): prints figures, asserts nothing.

* one evaluation (a view and its legal moves to priors and risks), natively: numpy
  (``encode_view`` + ``PolicyValueNet.evaluate``) and the pure-Python fallback (``sparse_view`` +
  ``CompactNetwork.evaluate``), each also without its encoding;
* the same in the offline app's worker, in Chromium: JavaScript called from Pyodide with a
  sparse input (``networkCheck``), and with the view encoded on Pyodide first; the pure-Python
  fallback on Pyodide; and the first read of the shipped weights (fetch + parse) where the app
  has them;
* the time to the first deal of a game against ``easy`` (``FIRST_DEAL``), warm (installed,
  offline) and cold, for each app given on the command line, so the same run compares a build
  with the network and one without (the weights must not load for such a game).

The network is ``--network FILE.npz`` (default: ``mattis/data/master.npz``, else a random one of
64 hidden units saved as float16, the shipped format).

    .venv/bin/python benchmarks/guided/device.py [--network FILE.npz] [--first-deal LABEL=SRC ...] [--warm N]

``LABEL=SRC``: a ``src`` folder holding a ``mattis`` package to serve the app from
(``PYTHONPATH``), ``-`` for this checkout.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from tests.app_helpers import FAST_BOTS, chromium, install, wait_until  # noqa: E402
from tests.test_offline_network import positions  # noqa: E402
from tests.web_helpers import free_port, server  # noqa: E402

from mattis.bots.compact import CompactNetwork  # noqa: E402
from mattis.bots.encoding import encode_view  # noqa: E402
from mattis.bots.features import sparse_view  # noqa: E402
from mattis.bots.network import PolicyValueNet, compact_bytes, load_network, random_network, save_network  # noqa: E402
from mattis.bots.view import PlayerView  # noqa: E402
from mattis.web import pwa  # noqa: E402

FIRST_DEAL = """async () => {
  const transport = await import('/static/transport.js');
  const created = await transport.createTable({ rules: 'pagat', players: 3,
    seats: [{ kind: 'human' }, { kind: 'bot', level: 'easy' }, { kind: 'bot', level: 'easy' }] },
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

CHECK = """async (message) => new Promise((resolve, reject) => {
  const worker = new Worker('/static/app/worker.js', { type: 'module' });
  worker.onmessage = (event) => {
    const answer = JSON.parse(event.data);
    if (answer.failed) reject(new Error(answer.failed));
    const ask = { op: 'call', id: 1, name: 'networkCheck', lang: 'en', ...message };
    if (answer.ready) worker.postMessage(JSON.stringify(ask));
    if (answer.reply === 1) { worker.terminate(); resolve(answer.data); }
  };
})"""

WARM_RUNS = 5
"""Warm starts measured after the first (which makes the memory snapshot), by default."""


def per_call(function: Callable[[], object], calls: int) -> float:
    """Microseconds per call, best of three rounds."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(calls):
            function()
        best = min(best, (time.perf_counter() - started) / calls)
    return round(best * 1e6, 1)


def native(network: PolicyValueNet, cases: list[tuple[dict[str, Any], list[int]]]) -> dict[str, float]:
    compact = CompactNetwork.from_bytes(compact_bytes(network))
    views = [(PlayerView.from_dict(view), legal) for view, legal in cases]
    dense = [(encode_view(view), legal) for view, legal in views]
    sparse = [(*sparse_view(view), legal) for view, legal in views]
    count = len(cases)

    def each(function: Callable[..., object], items: list[Any]) -> Callable[[], None]:
        def run() -> None:
            for item in items:
                function(*item)
        return run

    def with_numpy(view: PlayerView, legal: list[int]) -> object:
        return network.evaluate(encode_view(view), legal)

    def in_python(view: PlayerView, legal: list[int]) -> object:
        return compact.evaluate(*sparse_view(view), legal)

    return {
        "numpy_view_to_answer_us": per_call(each(with_numpy, views), 20) / count,
        "numpy_evaluate_only_us": per_call(each(network.evaluate, dense), 20) / count,
        "python_view_to_answer_us": per_call(each(in_python, views), 3) / count,
        "python_evaluate_only_us": per_call(each(compact.evaluate, sparse), 3) / count,
        "sparse_view_only_us": per_call(each(lambda view, legal: sparse_view(view), views), 20) / count,
        "encode_view_only_us": per_call(each(lambda view, legal: encode_view(view), views), 20) / count,
        "nonzero_inputs_mean": statistics.mean(len(indices) for indices, _, _ in sparse),
    }


def first_deal(page: Any, url: str) -> float:
    started = time.perf_counter()
    page.goto(url)
    page.evaluate(FIRST_DEAL)
    return time.perf_counter() - started


@contextmanager
def serving(source: str, folder: str) -> Iterator[str]:
    """``mattis serve`` of this checkout (``-``) or of the package in ``source``; its base URL."""
    before = os.environ.get("PYTHONPATH")
    if source != "-":
        os.environ["PYTHONPATH"] = source
    try:
        port = free_port()
        with server(port, f"sqlite:///{folder}/bench.sqlite3", "--bot-delay", "0"):
            if before is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = before
            yield f"http://127.0.0.1:{port}"
    finally:
        if before is not None:
            os.environ["PYTHONPATH"] = before


def in_browser(network: PolicyValueNet, cases: list[tuple[dict[str, Any], list[int]]],
               apps: dict[str, str], warm_runs: int = WARM_RUNS) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    sparse = [[*sparse_view(view), legal] for view, legal in cases]
    weights = base64.b64encode(compact_bytes(network)).decode()
    with chromium() as (_, browser):
        for label, source in apps.items():
            with tempfile.TemporaryDirectory() as folder, serving(source, folder) as base:
                context = browser.new_context()
                page = context.new_page()
                cold = first_deal(page, f"{base}/?lang=en")
                wait_until(page, "navigator.serviceWorker.controller !== null")
                page.evaluate(FAST_BOTS)
                context.set_offline(True)
                first_deal(page, f"{base}/?lang=en")  # the first warm start makes the snapshot
                warm = sorted(first_deal(page, f"{base}/?lang=en") for _ in range(warm_runs))
                figures[f"first_deal_{label}"] = {"cold_s": round(cold, 2),
                                                  "warm_median_s": round(warm[len(warm) // 2], 2),
                                                  "warm_best_s": round(warm[0], 2)}
                context.close()
                if source != "-":
                    continue
                context = browser.new_context()
                page = context.new_page()
                install(page, f"{base}/?lang=en")
                answer = page.evaluate(CHECK, {"weights": weights, "cases": sparse, "repeat": 20,
                                               "views": [[view, legal] for view, legal in cases]})
                figures["worker_javascript_from_pyodide_us"] = round(answer["seconds_per_call"] * 1e6, 1)
                figures["worker_view_to_answer_us"] = round(answer["seconds_per_view"] * 1e6, 1)
                answer = page.evaluate(CHECK, {"weights": weights, "cases": sparse, "repeat": 2,
                                               "python": True})
                figures["worker_python_fallback_us"] = round(answer["seconds_per_call"] * 1e6, 1)
                if pwa.has_network():
                    shipped = page.evaluate(CHECK, {"cases": sparse[:1]})
                    figures["worker_first_read_of_shipped_weights_s"] = round(shipped["read_seconds"], 3)
                context.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", type=Path, default=pwa.shipped_network_file())
    parser.add_argument("--first-deal", nargs="*", default=["this=-"], metavar="LABEL=SRC")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--warm", type=int, default=WARM_RUNS, help="warm starts measured per app")
    args = parser.parse_args()
    if args.network is None:
        folder = Path(tempfile.mkdtemp())
        args.network = save_network(folder / "random.npz", random_network(0, hidden=(64,)))
    network = load_network(args.network)
    random.seed(0)
    cases = positions(args.positions, seed=1)
    pwa.build(say=lambda line: None)
    figures: dict[str, Any] = {
        "load_average": os.getloadavg(), "network": str(args.network),
        "hidden": [int(bias.size) for bias in network.trunk_biases], "parameters": network.parameters,
        "file_bytes": len(compact_bytes(network)), "app_has_network": pwa.has_network(),
        "native": native(network, cases),
    }
    apps = dict(item.split("=", 1) for item in args.first_deal)
    figures |= in_browser(network, cases, apps, args.warm)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
