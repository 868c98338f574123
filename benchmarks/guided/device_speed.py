"""How far ``master`` and ``hard`` search on the device, and whether the device chooses as a
computer does (issue 27, "On the device"): prints figures, asserts nothing.

* **iterations per move**: the same real decisions (non-forced ones of 3-player pagat games
  among ``normal`` bots, :func:`tests.app_helpers.pagat_decisions`) searched at the device's
  own budget (``table_profile("device")``: ``master`` 2 s, ``hard`` 1 s), in the offline app's
  worker (Pyodide, ``master``'s network in JavaScript: the ``searchPositions`` call), in native
  CPython (numpy evaluator) and in the compiled build (``--compiled PYTHON``, main's mypyc
  build, which runs this checkout's :mod:`mattis.offline.measure` from its source); each
  ``full`` (no early stop: what the budget holds) and as the bots play (``app``: stopping once
  the choice is settled); median and quartiles;
* **same choice**: ``master`` with an iteration budget (``--iterations``, default: the
  worker's median ``full`` iterations) and the same seed per position, in the worker and
  natively with numpy, and natively with the pure-Python evaluator on the app's own
  ``network.bin`` (the same float16 weights in double precision): how often they choose alike.

    .venv/bin/mattis app build && nice -n 5 .venv/bin/python benchmarks/guided/device_speed.py \
        [--positions 30] [--iterations N] [--compiled /work/cvenv/bin/python] [--skip speed|choice]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

SEED = "device-speed"
"""The search's seed: each position's generator is seeded with it and the position's number."""
LEVELS = ("master", "hard")
MODES = {"full": False, "app": True}
"""Early stop off (the whole budget: what it holds) and on (as the tables' bots play)."""


def measure_module() -> Any:
    """:mod:`mattis.offline.measure` of this checkout, also where the installed ``mattis`` (a
    compiled build of main) lacks it: loaded from its source as a module of that package."""
    try:
        from mattis.offline import measure
        return measure
    except ImportError:
        path = ROOT / "src" / "mattis" / "offline" / "measure.py"
        spec = importlib.util.spec_from_file_location("mattis.offline.measure", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module


def device_seconds(level: str) -> float:
    from mattis.table.config import table_profile

    return table_profile("device").thinking_seconds(level)


def native_speed(positions: list[Any]) -> dict[str, list[dict[str, Any]]]:
    """Every level and mode searched here at the device's budget."""
    from mattis.bots import Limit

    measure = measure_module()
    return {f"{level}_{mode}": measure.search_positions(
                positions, level, Limit(seconds=device_seconds(level)), seed=SEED, early_stop=early_stop)
            for level in LEVELS for mode, early_stop in MODES.items()}


def native_choices(positions: list[Any], iterations: int, evaluator: str) -> list[dict[str, Any]]:
    """``master`` within ``iterations``; ``evaluator``: ``numpy`` (the shipped network) or
    ``python`` (the pure-Python evaluator on the app's ``network.bin``)."""
    from mattis.bots import Limit

    measure = measure_module()
    leaf = None
    if evaluator == "python":
        from mattis.bots.compact import CompactNetwork
        from mattis.offline.network import DeviceEvaluator
        from mattis.web import pwa

        leaf = DeviceEvaluator(CompactNetwork.from_bytes(pwa.NETWORK_FILE.read_bytes()))
    limit = Limit(iterations=iterations)
    return measure.search_positions(positions, "master", limit, seed=SEED, evaluator=leaf)


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    counts = sorted(result["iterations"] for result in results)
    quartiles = statistics.quantiles(counts, n=4)
    seconds = [result["seconds"] for result in results]
    return {"median": statistics.median(counts), "q1": quartiles[0], "q3": quartiles[2], "min": counts[0],
            "max": counts[-1], "per_second_median": round(statistics.median(
                result["iterations"] / result["seconds"] for result in results)),
            "seconds_median": round(statistics.median(seconds), 3), "positions": len(counts)}


def in_worker(positions: list[Any], speed: bool, iterations: int | None) -> dict[str, Any]:
    """The worker's figures: speed at the device's budget, and the choices within ``iterations``
    (``None``: the median of ``master``'s full budget measured first)."""
    from tests.app_helpers import ASK_WORKER, BENCH_WORKER, chromium, install
    from tests.web_helpers import free_port, server

    from mattis.web import pwa

    pwa.build(say=lambda line: None)  # does nothing when current
    found: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        with (
            server(port, f"sqlite:///{folder}/bench.sqlite3", "--bot-delay", "0"),
            chromium() as (_, browser),
        ):
            page = browser.new_page()
            install(page, f"http://127.0.0.1:{port}/?lang=en")
            page.evaluate(BENCH_WORKER)

            def ask(message: dict[str, Any]) -> Any:
                answer = page.evaluate(ASK_WORKER, message)
                if not answer["ok"]:
                    raise RuntimeError(answer)
                return answer["data"]

            if speed:
                for level in LEVELS:
                    for mode, early_stop in MODES.items():
                        found[f"{level}_{mode}"] = ask({
                            "name": "searchPositions", "level": level, "positions": positions, "seed": SEED,
                            "seconds": device_seconds(level), "early_stop": early_stop})
            if iterations is None and speed:
                iterations = round(statistics.median(item["iterations"] for item in found["master_full"]))
            if iterations is not None:
                found["choices"] = ask({"name": "searchPositions", "level": "master", "positions": positions,
                                        "seed": SEED, "iterations": iterations})
                found["choice_iterations"] = iterations
    return found


def main() -> None:
    """The figures as JSON; with ``--native-only FILE`` (the compiled build's part) only the
    native speed of the positions in ``FILE``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--iterations", type=int, help="master's budget for the same-choice check")
    parser.add_argument("--compiled", help="a Python holding a compiled build of mattis")
    parser.add_argument("--skip", choices=("speed", "choice"), help="leave out one of the two parts")
    parser.add_argument("--native-only", help=argparse.SUPPRESS)  # positions file: the compiled run's part
    args = parser.parse_args()
    if args.native_only:
        print(json.dumps(native_speed(json.loads(Path(args.native_only).read_text()))))
        return
    from tests.app_helpers import pagat_decisions  # Playwright: not in the compiled build's venv

    positions = pagat_decisions(args.positions)
    speed, choice = args.skip != "speed", args.skip != "choice"
    worker = in_worker(positions, speed, args.iterations if choice or not speed else None)
    figures: dict[str, Any] = {"load_average": os.getloadavg(), "positions": len(positions),
                               "device_seconds": {level: device_seconds(level) for level in LEVELS}}
    if speed:
        native = native_speed(positions)
        runs = {"worker": worker, "native_cpython": native}
        if args.compiled:
            with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
                json.dump(positions, file)
                file.flush()
                done = subprocess.run([args.compiled, __file__, "--native-only", file.name], check=True,
                                      capture_output=True, text=True, cwd=ROOT)
            runs["native_compiled"] = json.loads(done.stdout)
        figures["iterations_per_move"] = {
            f"{where}/{key}": summary(results[key]) for where, results in runs.items()
            for key in (f"{level}_{mode}" for level in LEVELS for mode in MODES)}
    if choice and "choices" in worker:
        iterations = worker["choice_iterations"]
        numpy_choices = native_choices(positions, iterations, "numpy")
        python_choices = native_choices(positions, iterations, "python")
        device = [item["action"] for item in worker["choices"]]
        with_numpy = [item["action"] for item in numpy_choices]
        in_python = [item["action"] for item in python_choices]
        figures["same_choice"] = {
            "iterations": iterations,
            "worker_vs_numpy": sum(a == b for a, b in zip(device, with_numpy, strict=True)),
            "worker_vs_python": sum(a == b for a, b in zip(device, in_python, strict=True)),
            "numpy_vs_python": sum(a == b for a, b in zip(with_numpy, in_python, strict=True)),
            "of": len(positions),
            "differ": [{"position": number, "legal": len(positions[number][1]), "worker": device[number],
                        "numpy": with_numpy[number], "python": in_python[number],
                        "iterations": [worker["choices"][number]["iterations"],
                                       numpy_choices[number]["iterations"]]}
                       for number in range(len(positions))
                       if len({device[number], with_numpy[number], in_python[number]}) > 1],
        }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
