"""The ``master`` bot's network on the device: its leaf evaluator, with no numpy.

Pyodide in the offline app has no numpy, so the network's arithmetic runs in the worker's
JavaScript (``static/app/network.js``; the worker registers it as the module
``mattis_network``) and Python hands it each view's sparse encoding
(:func:`~mattis.bots.features.sparse_view`): the nonzero slots, their values and the legal
action indices. Where that module is missing (CPython, the tests) the same arithmetic runs in
Python (:class:`~mattis.bots.compact.CompactNetwork`).

The weights are fetched once, when a ``master`` bot first moves (:meth:`DeviceNetworks.shipped`),
never at the start: a game against other levels does not wait for them.
"""

from __future__ import annotations

import base64
import importlib
import time
from array import array
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from ..bots.compact import CompactNetwork
from ..bots.features import MAX_SEATS, OBSERVATION_SIZE, sparse_view
from ..bots.guided import GuidedAgent
from ..bots.protocol import Agent, Limit
from ..bots.view import PlayerView
from ..core.actions import NUM_ACTIONS
from ..table.jobs import BotJob, DecisionParts, agent_move

JS_MODULE = "mattis_network"
"""The name the worker registers the JavaScript network under (``worker.js``)."""
MASTER_LEVEL = "master"
"""The level the device plays with its network (``mattis.bots.MASTER`` once merged)."""


class NetworkAgent(Protocol):
    """Makes the ``master`` agent for one move from its budget and the device's leaf
    evaluator, as ``GuidedAgent(limit, evaluator=…)`` does."""

    def __call__(self, limit: Limit, *, evaluator: DeviceEvaluator) -> Agent:
        ...


NETWORK_AGENT: NetworkAgent | None = GuidedAgent
"""The agent the device's ``master`` level plays; ``None``: the app offers no ``master``."""


def network_levels(has_network: bool, agent: NetworkAgent | None = NETWORK_AGENT) -> tuple[str, ...]:
    """The levels the device plays with its network: ``master`` when the app was built with
    one (``has_network``: its ``network.json`` names a file) and there is an agent to play it."""
    return (MASTER_LEVEL,) if has_network and agent is not None else ()


def network_move(job: BotJob, agent: NetworkAgent, evaluator: DeviceEvaluator) -> DecisionParts:
    """A ``master`` bot's move on the device: its search, with the network in JavaScript."""
    return agent_move(job, agent(Limit(seconds=job.seconds), evaluator=evaluator))


class SparseNetwork(Protocol):
    """A network that evaluates a sparse input: priors over the legal actions and risks."""

    def evaluate(self, indices: Sequence[int], values: Sequence[float],
                 legal_indices: Sequence[int]) -> tuple[list[float], list[float]]:
        """Priors over ``legal_indices`` and each relative seat's chance of ending as Mattis."""
        ...


SHARED_SIZE = 2 * OBSERVATION_SIZE + NUM_ACTIONS
"""Numbers in the array Python and JavaScript share: the most an evaluation reads."""


class JsNetwork:
    """A network read by the worker's JavaScript, evaluated there.

    Python and JavaScript share one array: Python writes the input into it and JavaScript its
    answer over it, so a call passes two whole numbers (converting lists each way cost more
    than the arithmetic)."""

    def __init__(self, module: Any, net: Any) -> None:
        self.shared = array("d", bytes(8 * SHARED_SIZE))
        self._evaluate = module.share(net, self.shared)

    def evaluate(self, indices: Sequence[int], values: Sequence[float],
                 legal_indices: Sequence[int]) -> tuple[list[float], list[float]]:
        count, legal = len(indices), len(legal_indices)
        shared = self.shared
        shared[:count] = array("d", indices)
        shared[count:2 * count] = array("d", values)
        shared[2 * count:2 * count + legal] = array("d", legal_indices)
        self._evaluate(count, legal)
        numbers = shared[:legal + MAX_SEATS].tolist()
        return numbers[:legal], numbers[legal:]


class DeviceEvaluator:
    """The ``master`` search's leaf evaluator (``mattis.bots.guided.LeafEvaluator``) on the
    device: the view's sparse encoding, evaluated by ``network``."""

    def __init__(self, network: SparseNetwork) -> None:
        self.network = network

    def __call__(self, view: PlayerView, legal_indices: Sequence[int]) -> tuple[list[float], list[float]]:
        indices, values = sparse_view(view)
        return self.network.evaluate(indices, values, list(legal_indices))


def js_module() -> Any | None:
    """The worker's JavaScript network module, or ``None`` outside the worker."""
    try:
        return importlib.import_module(JS_MODULE)
    except ImportError:
        return None


NetworkSource = Callable[[], Awaitable[SparseNetwork]]
"""Where a host gets the shipped network from, once it is needed."""


class DeviceNetworks:
    """The device's networks: the shipped one, read once when first needed, and any handed in
    as bytes (the tests' and the benchmark's, :meth:`check`)."""

    def __init__(self, source: NetworkSource | None = None) -> None:
        """``source``: where the shipped network comes from (default: the worker's JavaScript
        fetches ``network.bin``)."""
        self.source = source or self._from_javascript
        self._shipped: SparseNetwork | None = None

    async def shipped(self) -> SparseNetwork:
        """The shipped network; the first call fetches and reads it."""
        if self._shipped is None:
            self._shipped = await self.source()
        return self._shipped

    async def evaluator(self) -> DeviceEvaluator:
        """The shipped network as a leaf evaluator."""
        return DeviceEvaluator(await self.shipped())

    @staticmethod
    async def _from_javascript() -> SparseNetwork:
        module = js_module()
        if module is None or not module.available():
            raise RuntimeError("this app was built without a network (network.bin)")
        return JsNetwork(module, await module.load())

    async def from_bytes(self, text: str, python: bool = False) -> tuple[SparseNetwork, str]:
        """A network from base64 text of its file, and what evaluates it (``javascript`` in
        the worker, ``python`` elsewhere or if asked)."""
        module = js_module()
        if module is not None and not python:
            return JsNetwork(module, await module.parse(text)), "javascript"
        return CompactNetwork.from_bytes(base64.b64decode(text)), "python"

    async def check(self, message: dict[str, Any]) -> dict[str, Any]:
        """The page's ``networkCheck`` call (the browser test and the benchmark): the network
        in ``weights`` (base64; without it the shipped one, read now if it was not yet; in
        Python if ``python`` is true) evaluated on each of ``cases`` (``[indices, values,
        legal]``) and, if given, on each of ``views`` (``[view, legal]``: a ``Game.view``
        dict, encoded here); each ``repeat`` times, timed; with ``grow_mb``, the cases once more
        after that many megabytes were taken (``after_growth``: the shared array moved)."""
        started = time.perf_counter()
        if message.get("weights"):
            network, backend = await self.from_bytes(str(message["weights"]), bool(message.get("python")))
        else:
            network, backend = await self.shipped(), "shipped"
        read_seconds = time.perf_counter() - started
        repeat = max(1, int(message.get("repeat") or 1))
        cases = [(list(indices), list(values), list(legal))
                 for indices, values, legal in message.get("cases") or []]
        results = []
        started = time.perf_counter()
        for _ in range(repeat):
            results = [network.evaluate(*case) for case in cases]
        per_call = (time.perf_counter() - started) / max(1, repeat * len(cases))
        answer: dict[str, Any] = {"backend": backend, "results": results, "seconds_per_call": per_call,
                                  "read_seconds": read_seconds}
        if message.get("grow_mb"):  # the same again once Python's memory has grown (the shared array moves)
            grown = bytearray(int(message["grow_mb"]) << 20)
            answer["after_growth"] = [network.evaluate(*case) for case in cases]
            del grown
        views = [(PlayerView.from_dict(view), list(legal)) for view, legal in message.get("views") or []]
        if views:
            evaluator = DeviceEvaluator(network)
            started = time.perf_counter()
            for _ in range(repeat):
                for view, legal in views:
                    evaluator(view, legal)
            answer["seconds_per_view"] = (time.perf_counter() - started) / (repeat * len(views))
        return answer


__all__ = ["JS_MODULE", "MASTER_LEVEL", "NETWORK_AGENT", "DeviceEvaluator", "DeviceNetworks", "JsNetwork",
           "NetworkAgent", "NetworkSource", "SparseNetwork", "js_module", "network_levels", "network_move"]
