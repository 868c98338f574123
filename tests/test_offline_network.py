"""The ``master`` bot's network on the device, without numpy (issue 27): the compact file
``mattis app build`` writes (:mod:`mattis.bots.compact`), its arithmetic in plain Python (the
fallback, and the reference the worker's JavaScript is compared with in
``tests/test_offline_network_browser.py``), the device's leaf evaluator, and the app's plumbing:
the weights are read only when a ``master`` bot moves, never for a game against other levels.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mattis import Game, Rules
from mattis.bots.compact import CompactError, CompactNetwork, read_shape
from mattis.bots.encoding import OBSERVATION_SIZE, encode_view
from mattis.bots.features import MAX_SEATS, sparse_view
from mattis.bots.network import PolicyValueNet, compact_bytes, load_network, random_network, save_network
from mattis.bots.protocol import Decision, Limit
from mattis.bots.view import PlayerView
from mattis.core.actions import NUM_ACTIONS, Action
from mattis.core.rules import PRESET_NAMES
from mattis.offline import DeviceHost, device_config
from mattis.offline.network import MASTER_LEVEL, NETWORK_AGENT, DeviceEvaluator, network_levels
from mattis.table import table_profile
from mattis.table.jobs import BotJob, decision_from_parts
from mattis.web import pwa

from .test_install import BLOCKER, run_blocked
from .test_offline_tables import Dictionary

TOLERANCE = 1e-5
"""float32 arithmetic (numpy) against double (Python): a few float32 roundings apart."""


def float16_network(tmp_path: Path, hidden: tuple[int, ...] = (64,)) -> PolicyValueNet:
    """A random network as the shipped one is stored: float16 in a ``.npz``."""
    return load_network(save_network(tmp_path / "net.npz", random_network(0, hidden=hidden)))


def positions(count: int, seed: int = 3) -> list[tuple[dict[str, Any], list[int]]]:
    """Views (JSON dicts) of the player to move and their legal indices, from random games of
    every preset."""
    rng = random.Random(seed)
    found: list[tuple[dict[str, Any], list[int]]] = []
    while len(found) < count:
        rules = Rules.preset(rng.choice(PRESET_NAMES))
        game = Game.new(rules, rng.randint(rules.min_players, rules.max_players), seed=rng.randrange(2**32))
        cut = rng.randrange(200)
        while not game.is_over and game.num_actions < cut:
            game.apply(rng.choice(game.legal_actions()))
        if game.to_move is not None:
            found.append((game.view(game.to_move), [action.index for action in game.legal_actions()]))
    return found


def assert_evaluates_like_numpy(network: PolicyValueNet, evaluate: Any, count: int = 25) -> None:
    for view, legal in positions(count):
        expected = network.evaluate(encode_view(view), legal)
        indices, values = sparse_view(view)
        priors, risks = evaluate(indices, values, legal)
        np.testing.assert_allclose(priors, expected.priors, atol=TOLERANCE, rtol=TOLERANCE)
        np.testing.assert_allclose(risks, expected.risks, atol=TOLERANCE, rtol=TOLERANCE)
        assert sum(priors) == pytest.approx(1.0) and len(risks) == MAX_SEATS


def test_the_compact_file_of_a_float16_network_is_exact_and_evaluates_like_numpy(tmp_path: Path) -> None:
    network = float16_network(tmp_path)
    data = compact_bytes(network)
    shape = read_shape(data)
    assert (shape.inputs, shape.widths, shape.actions, shape.seats, shape.itemsize) == (
        OBSERVATION_SIZE, (64,), NUM_ACTIONS, MAX_SEATS, 2)  # float16: the weights are float16 already
    assert len(data) == shape.header_bytes + 2 * network.parameters
    compact = CompactNetwork.from_bytes(data)
    np.testing.assert_array_equal(np.array(compact.trunk[0][0], dtype=np.float32), network.trunk_weights[0])
    np.testing.assert_array_equal(np.array(compact.policy[0], dtype=np.float32), network.policy_weight.T)
    assert_evaluates_like_numpy(network, compact.evaluate)


def test_a_float32_network_of_two_layers_keeps_float32() -> None:
    network = random_network(7, hidden=(32, 16))
    data = compact_bytes(network)
    assert read_shape(data).itemsize == 4 and read_shape(data).widths == (32, 16)
    assert_evaluates_like_numpy(network, CompactNetwork.from_bytes(data).evaluate, count=10)


def test_bytes_that_are_not_a_network_are_refused(tmp_path: Path) -> None:
    data = compact_bytes(float16_network(tmp_path))
    for bad in (b"", b"PK\x03\x04" + data[4:], data[:-2], data + b"\0\0"):
        with pytest.raises(CompactError):
            CompactNetwork.from_bytes(bad)


def test_the_device_evaluator_reads_the_view_as_the_search_gives_it(tmp_path: Path) -> None:
    """The :class:`LeafEvaluator` interface: a :class:`PlayerView` and legal indices in, priors in
    that order and one risk per relative seat out."""
    network = float16_network(tmp_path)
    evaluator = DeviceEvaluator(CompactNetwork.from_bytes(compact_bytes(network)))
    for view, legal in positions(5, seed=9):
        priors, risks = evaluator(PlayerView.from_dict(view), legal)
        expected = network.evaluate(encode_view(view), legal)
        np.testing.assert_allclose(priors, expected.priors, atol=TOLERANCE)
        np.testing.assert_allclose(risks, expected.risks, atol=TOLERANCE)


def test_the_device_path_runs_with_numpy_absent(tmp_path: Path) -> None:
    """Pyodide has no numpy: the sparse encoding, the compact file and the evaluator import and
    give numpy's numbers with every optional library refused."""
    network = float16_network(tmp_path)
    (tmp_path / "net.bin").write_bytes(compact_bytes(network))
    cases = positions(4, seed=5)
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    code = BLOCKER + f"""
import json, sys
from pathlib import Path
from mattis.bots.compact import CompactNetwork
from mattis.bots.view import PlayerView
from mattis.offline.network import DeviceEvaluator
evaluator = DeviceEvaluator(CompactNetwork.from_bytes(Path({str(tmp_path / "net.bin")!r}).read_bytes()))
cases = json.loads(Path({str(tmp_path / "cases.json")!r}).read_text())
print(json.dumps([evaluator(PlayerView.from_dict(view), legal) for view, legal in cases]))
assert "numpy" not in sys.modules
"""
    done = run_blocked(code, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for (view, legal), (priors, risks) in zip(cases, json.loads(done.stdout), strict=True):
        expected = network.evaluate(encode_view(view), legal)
        np.testing.assert_allclose(priors, expected.priors, atol=TOLERANCE)
        np.testing.assert_allclose(risks, expected.risks, atol=TOLERANCE)


# ---------------------------------------------------------------------------- the app's plumbing


class Source:
    """The shipped network as the worker would fetch it, counting the fetches."""

    def __init__(self, network: PolicyValueNet) -> None:
        self.compact = CompactNetwork.from_bytes(compact_bytes(network))
        self.fetches = 0

    async def __call__(self) -> CompactNetwork:
        self.fetches += 1
        return self.compact


class Greedy:
    """A stand-in for the ``master`` search (``GuidedAgent(limit, evaluator=…)``): the move of
    highest prior, which only the evaluator can tell."""

    name = "master"

    def __init__(self, limit: Limit, *, evaluator: DeviceEvaluator) -> None:
        self.limit, self.evaluator = limit, evaluator

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random,
               limit: Limit | None = None) -> Decision:
        priors, _ = self.evaluator(view, [action.index for action in legal])
        best = max(range(len(legal)), key=lambda index: priors[index])
        return Decision(legal[best], "the network's favourite", "network")


def test_a_master_move_on_the_device_uses_the_network_fetched_once(tmp_path: Path) -> None:
    network = float16_network(tmp_path)
    source = Source(network)
    config = dataclasses.replace(table_profile("device"), host_levels=(MASTER_LEVEL,))
    host = DeviceHost(Dictionary(), lambda text: None, config, network=source, network_agent=Greedy)
    assert MASTER_LEVEL in config.levels()
    game = Game.new("pagat", 3, seed=4)
    assert game.to_move is not None

    async def moves() -> list[str]:
        chosen = []
        for number in range(3):
            legal = game.legal_actions()
            job = BotJob(table_id="t", seat=game.to_move or 0, view=game.view(game.to_move or 0),
                         legal=tuple(str(action) for action in legal), level=MASTER_LEVEL,
                         rng_seed=str(number), seconds=0.1)
            decision = decision_from_parts(await host.think(job))
            priors = network.evaluate(encode_view(job.view), [action.index for action in legal]).priors
            assert decision.action == legal[int(np.argmax(priors))]
            chosen.append(str(decision.action))
            game.apply(decision.action)
        return chosen

    assert len(asyncio.run(moves())) == 3
    assert source.fetches == 1


def test_other_levels_never_fetch_the_network(tmp_path: Path) -> None:
    source = Source(float16_network(tmp_path))
    config = dataclasses.replace(table_profile("device"), host_levels=(MASTER_LEVEL,), hard_seconds=0.02)
    host = DeviceHost(Dictionary(), lambda text: None, config, network=source, network_agent=Greedy)
    game = Game.new("pagat", 3, seed=4)
    job = BotJob(table_id="t", seat=game.to_move or 0, view=game.view(game.to_move or 0),
                 legal=tuple(str(action) for action in game.legal_actions()), level="hard", rng_seed="x",
                 seconds=0.02)
    asyncio.run(host.think(job))
    assert source.fetches == 0


def test_master_is_offered_only_with_a_network_and_an_agent_to_play_it() -> None:
    assert network_levels(False, Greedy) == () and network_levels(True, None) == ()
    assert network_levels(True, Greedy) == (MASTER_LEVEL,)
    assert device_config(network=False).host_levels == ()
    # NETWORK_AGENT: None until the master branch is merged (mattis.offline.network), then master.
    assert device_config(network=True).host_levels == network_levels(True, NETWORK_AGENT)
    config = dataclasses.replace(table_profile("device"), host_levels=(MASTER_LEVEL,))
    assert MASTER_LEVEL in config.levels() and config.levels().count(MASTER_LEVEL) == 1


def test_the_network_check_call_answers_numpy_s_numbers_on_cpython(tmp_path: Path) -> None:
    """The call the browser test and the benchmark make in the worker, here in Python."""
    network = float16_network(tmp_path)
    cases: list[tuple[list[int], list[float], list[int]]] = []
    for view, legal in positions(3, seed=2):
        indices, values = sparse_view(view)
        cases.append((indices, values, legal))
    posted: list[dict[str, Any]] = []
    host = DeviceHost(Dictionary(), lambda text: posted.append(json.loads(text)))
    message = {"op": "call", "id": 1, "name": "networkCheck", "lang": "en", "repeat": 2, "cases": cases,
               "views": [[view, legal] for view, legal in positions(2, seed=2)],
               "weights": base64.b64encode(compact_bytes(network)).decode()}

    async def ask() -> None:
        host.receive(json.dumps(message))
        await host.idle()

    asyncio.run(ask())
    answer = posted[0]["data"]
    assert posted[0]["ok"] and answer["backend"] == "python"
    assert answer["seconds_per_call"] > 0 and answer["seconds_per_view"] > 0
    for (indices, values, legal), (priors, risks) in zip(cases, answer["results"], strict=True):
        dense = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        dense[indices] = values
        expected = network.evaluate(dense, legal)
        np.testing.assert_allclose(priors, expected.priors, atol=TOLERANCE)
        np.testing.assert_allclose(risks, expected.risks, atol=TOLERANCE)


def test_the_build_exports_the_shipped_network_and_removes_a_stale_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = save_network(tmp_path / "master.npz", random_network(1, hidden=(16,)))
    monkeypatch.setattr(pwa, "NETWORK_FILE", tmp_path / "app" / "network.bin")
    monkeypatch.setattr(pwa, "NETWORK_INFO", tmp_path / "app" / "network.json")
    (tmp_path / "app").mkdir()
    monkeypatch.setattr(pwa, "shipped_network_file", lambda: source)
    said: list[str] = []
    assert pwa.export_network(said.append)
    data = pwa.NETWORK_FILE.read_bytes()
    assert data == compact_bytes(load_network(source))
    info = json.loads(pwa.NETWORK_INFO.read_text(encoding="utf-8"))
    assert info["file"] == "network.bin" and info["bytes"] == len(data) and info["widths"] == [16]
    assert info["float_bytes"] == 2
    assert not pwa.export_network(said.append)  # current: nothing written
    assert pwa.has_network()
    monkeypatch.setattr(pwa, "shipped_network_file", lambda: None)
    assert pwa.export_network(said.append)
    assert not pwa.NETWORK_FILE.exists() and not pwa.has_network()
    assert json.loads(pwa.NETWORK_INFO.read_text(encoding="utf-8")) == {"file": None}  # no 404 at the start
    assert not pwa.export_network(said.append)
