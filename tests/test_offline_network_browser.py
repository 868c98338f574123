"""The ``master`` bot's network in the offline app's worker, in a real headless Chromium
(issue 27): Python on Pyodide hands each view's sparse encoding to the worker's JavaScript
(``static/app/network.js``), which gives numpy's numbers (``PolicyValueNet.evaluate``) within
1e-4 for positions of random games of every preset."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mattis.bots import Limit
from mattis.bots.features import OBSERVATION_SIZE, sparse_view
from mattis.bots.network import compact_bytes, load_network, random_network, save_network
from mattis.offline.measure import search_positions
from mattis.web import pwa

from .app_helpers import ASK_WORKER, BENCH_WORKER, chromium, install, pagat_decisions
from .test_offline_network import positions
from .web_helpers import free_port, server

pytestmark = pytest.mark.browser

CHECK = """async (message) => new Promise((resolve, reject) => {
  const worker = new Worker('/static/app/worker.js', { type: 'module' });
  worker.onerror = (event) => reject(new Error(event.message));
  worker.onmessage = (event) => {
    const answer = JSON.parse(event.data);
    if (answer.failed) reject(new Error(answer.failed));
    const ask = { op: 'call', id: 1, name: 'networkCheck', lang: 'en', ...message };
    if (answer.ready) worker.postMessage(JSON.stringify(ask));
    if (answer.reply === 1) { worker.terminate(); resolve(answer); }
  };
})"""
"""A fresh worker asked ``networkCheck`` (:meth:`mattis.offline.network.DeviceNetworks.check`)."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pwa.build(say=lambda line: None)  # once per machine: does nothing when current
    port = free_port()
    db = f"sqlite:///{tmp_path_factory.mktemp('net') / 'app.sqlite3'}"
    with server(port, db, "--bot-delay", "0"):
        yield f"http://127.0.0.1:{port}"


def test_the_worker_evaluates_the_network_in_javascript_like_numpy(base_url: str, tmp_path: Path) -> None:
    for hidden in ((64,), (32, 16)):
        network = load_network(save_network(tmp_path / "net.npz", random_network(2, hidden=hidden)))
        cases: list[Any] = []
        for view, legal in positions(12, seed=len(hidden)):
            indices, values = sparse_view(view)
            cases.append([indices, values, legal])
        message = {"weights": base64.b64encode(compact_bytes(network)).decode(), "cases": cases, "repeat": 1,
                   "grow_mb": 64}  # the array shared with JavaScript must survive Pyodide's memory growing
        with chromium() as (_, browser):
            page = browser.new_page()
            install(page, f"{base_url}/?lang=en")
            answer = page.evaluate(CHECK, message)
        assert answer["ok"], answer
        data = answer["data"]
        assert data["backend"] == "javascript"
        for (indices, values, legal), (priors, risks) in zip(cases, data["results"], strict=True):
            dense = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
            dense[indices] = values
            expected = network.evaluate(dense, legal)
            np.testing.assert_allclose(priors, expected.priors, atol=1e-4, rtol=1e-4)
            np.testing.assert_allclose(risks, expected.risks, atol=1e-4, rtol=1e-4)
            assert sum(priors) == pytest.approx(1.0, abs=1e-6)
        assert data["after_growth"] == data["results"]
        assert json.dumps(data["results"])  # plain numbers, as the page's answers are


def test_the_shipped_network_is_fetched_by_the_worker_and_evaluates_like_numpy(base_url: str) -> None:
    """The app is built with the shipped network (``mattis app build`` exports
    ``mattis/data/master.npz``, which the package always carries: a missing one is a broken
    build): the worker fetches ``network.bin`` itself and agrees with numpy."""
    source = pwa.shipped_network_file()
    assert source is not None and pwa.has_network(), "the app was built without mattis/data/master.npz"
    network = load_network(source)
    cases: list[Any] = []
    for view, legal in positions(8, seed=4):
        indices, values = sparse_view(view)
        cases.append([indices, values, legal])
    with chromium() as (_, browser):
        page = browser.new_page()
        install(page, f"{base_url}/?lang=en")
        answer = page.evaluate(CHECK, {"cases": cases})
    assert answer["ok"] and answer["data"]["backend"] == "shipped", answer
    for (indices, values, legal), (priors, risks) in zip(cases, answer["data"]["results"], strict=True):
        dense = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        dense[indices] = values
        expected = network.evaluate(dense, legal)
        np.testing.assert_allclose(priors, expected.priors, atol=1e-4, rtol=1e-4)
        np.testing.assert_allclose(risks, expected.risks, atol=1e-4, rtol=1e-4)


def test_master_in_the_worker_chooses_as_native_master_does_within_an_iteration_budget(base_url: str) -> None:
    """The same positions, seeds and iteration budget: the worker's search with the network in
    JavaScript (float32) picks the move native Python with numpy picks
    (``benchmarks/guided/device_speed.py`` counts this on 30 positions at the device's budget)."""
    assert pwa.has_network(), "the app was built without mattis/data/master.npz"
    positions = pagat_decisions(4, seed=2)
    budget = Limit(iterations=200)
    with chromium() as (_, browser):
        page = browser.new_page()
        install(page, f"{base_url}/?lang=en")
        page.evaluate(BENCH_WORKER)
        answer = page.evaluate(ASK_WORKER, {"name": "searchPositions", "level": "master",
                                            "positions": positions, "seed": "same",
                                            "iterations": budget.iterations})
    assert answer["ok"], answer
    native = search_positions(positions, "master", budget, seed="same")
    assert [item["iterations"] for item in answer["data"]] == [item["iterations"] for item in native]
    assert [item["action"] for item in answer["data"]] == [item["action"] for item in native]
