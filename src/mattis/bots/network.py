"""The policy-and-value network that guides the ``master`` search, played with numpy alone.

One trunk of fully connected layers reads a seat's encoded view
(:func:`~mattis.bots.encoding.encode_view`, :data:`~mattis.bots.encoding.OBSERVATION_SIZE`
numbers) and feeds two heads:

- the *policy* head: one logit per action index (:data:`~mattis.core.actions.NUM_ACTIONS`),
  the search's prior for each legal move once the illegal ones are masked out;
- the *value* head: :data:`~mattis.core.rules.MAX_SEATS` logits, one per seat counted
  from the observer (0 the observer, 1 the player on its left …, as the encoding counts
  them); their sigmoid is that seat's estimated chance of ending as Mattis. One call thus
  scores a leaf for every player, which the search needs at each backup.

A file is a compressed ``.npz`` with ``format`` = :data:`FORMAT`, the trunk's ``w0``, ``b0``,
``w1`` … (ReLU after each), ``policy_w``/``policy_b``, ``value_w``/``value_b`` and free-text
``meta_*`` entries. :func:`save_network` writes one and checks that it loads;
:func:`load_network` refuses anything else with a :class:`NetworkError` saying why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

from ..extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # numpy is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..core.actions import NUM_ACTIONS
from ..core.rules import MAX_SEATS
from .compact import Shape
from .encoding import OBSERVATION_SIZE, encode_view
from .view import PlayerView
from .weights import layer_arrays, meta_of, numbered_layers, read_arrays, write_arrays

FORMAT: Final = "mattis-policy-value-1"
"""What the ``format`` entry of a network file says; another value is refused."""
SHIPPED_NETWORK: Final = "master.npz"
"""The network in ``mattis/data`` that the ``master`` level plays."""

Matrix = npt.NDArray[np.float32]
AnyArray = npt.NDArray[Any]
"""What the network's fields accept: any float arrays, kept as contiguous float32."""


class NetworkError(ValueError):
    """A network file that cannot be used: missing, unreadable or of another shape."""


@dataclass(frozen=True, slots=True, eq=False)
class Evaluation:
    """What the network says of one view: a prior per legal move and each seat's risk."""

    priors: Matrix
    """The legal moves' probabilities, in the order the legal indices were given; sums to 1."""
    risks: Matrix
    """Each relative seat's chance of ending as Mattis (slot 0 the observer), length MAX_SEATS."""


@dataclass(eq=False)
class PolicyValueNet:
    """The arrays of a network file, float32, with what its trainer noted."""

    trunk_weights: list[AnyArray]
    trunk_biases: list[AnyArray]
    policy_weight: AnyArray
    policy_bias: AnyArray
    value_weight: AnyArray
    value_bias: AnyArray
    """Any float arrays may be passed; they are kept as contiguous float32."""
    meta: dict[str, str] = field(default_factory=dict)
    """What the trainer noted (games, positions, seed, CPU hours …), for people; play ignores it."""

    def __post_init__(self) -> None:
        if len(self.trunk_weights) != len(self.trunk_biases):
            raise NetworkError("the trunk needs one bias per weight matrix")
        size = OBSERVATION_SIZE
        for index, (weight, bias) in enumerate(zip(self.trunk_weights, self.trunk_biases, strict=True)):
            if weight.ndim != 2 or weight.shape[0] != size or bias.shape != (weight.shape[1],):
                raise NetworkError(f"trunk layer {index}: shape {weight.shape} with bias {bias.shape} "
                                   f"does not follow from {size} inputs")
            size = weight.shape[1]
        for name, weight, bias, outputs in (("policy", self.policy_weight, self.policy_bias, NUM_ACTIONS),
                                            ("value", self.value_weight, self.value_bias, MAX_SEATS)):
            if weight.shape != (size, outputs) or bias.shape != (outputs,):
                raise NetworkError(f"{name} head: expected {(size, outputs)} and ({outputs},), "
                                   f"got {weight.shape} and {bias.shape}")
        as32 = _float32
        self.trunk_weights = [as32(weight) for weight in self.trunk_weights]
        self.trunk_biases = [as32(bias) for bias in self.trunk_biases]
        self.policy_weight, self.policy_bias = as32(self.policy_weight), as32(self.policy_bias)
        self.value_weight, self.value_bias = as32(self.value_weight), as32(self.value_bias)

    def hidden(self, observations: Matrix) -> Matrix:
        """The trunk's output for one observation (or a batch, one per row)."""
        hidden = np.asarray(observations, dtype=np.float32)
        for weight, bias in zip(self.trunk_weights, self.trunk_biases, strict=True):
            hidden = np.maximum(hidden @ weight + bias, 0.0)
        return hidden

    def forward(self, observations: Matrix) -> tuple[Matrix, Matrix]:
        """All action logits and the seats' risk logits (one row per observation for a batch)."""
        hidden = self.hidden(observations)
        return hidden @ self.policy_weight + self.policy_bias, hidden @ self.value_weight + self.value_bias

    def evaluate(self, observation: Matrix, legal_indices: Sequence[int]) -> Evaluation:
        """Priors over ``legal_indices`` (a softmax of their logits only) and every seat's risk.

        Only the legal columns of the policy head are multiplied: the head is the widest
        layer, and a position has a handful of legal moves."""
        hidden = self.hidden(observation)
        columns = np.asarray(legal_indices, dtype=np.intp)
        logits = hidden @ self.policy_weight[:, columns] + self.policy_bias[columns]
        logits = np.exp(logits - logits.max())
        risks = 1.0 / (1.0 + np.exp(-(hidden @ self.value_weight + self.value_bias)))
        return Evaluation(logits / logits.sum(), risks.astype(np.float32))

    def risks(self, observation: Matrix) -> Matrix:
        """Only the value head: every relative seat's chance of ending as Mattis."""
        hidden = self.hidden(observation)
        logits = hidden @ self.value_weight + self.value_bias
        risks: Matrix = (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)
        return risks

    @property
    def parameters(self) -> int:
        """How many numbers the network holds."""
        arrays = [*self.trunk_weights, *self.trunk_biases, self.policy_weight, self.policy_bias,
                  self.value_weight, self.value_bias]
        return sum(array.size for array in arrays)


def _float32(array: Any) -> Matrix:
    return np.ascontiguousarray(array, dtype=np.float32)


def random_network(seed: int, hidden: Sequence[int] = (64,)) -> PolicyValueNet:
    """An untrained network with small random weights: for tests and as training's start."""
    rng = np.random.default_rng(seed)
    sizes = [OBSERVATION_SIZE, *hidden]
    trunk_weights = [rng.normal(0.0, (2.0 / inputs) ** 0.5, (inputs, outputs))
                     for inputs, outputs in pairwise(sizes)]
    trunk_biases = [np.zeros(outputs) for outputs in sizes[1:]]
    last = sizes[-1]
    return PolicyValueNet(trunk_weights, trunk_biases,
                          rng.normal(0.0, 0.01, (last, NUM_ACTIONS)), np.zeros(NUM_ACTIONS),
                          rng.normal(0.0, 0.01, (last, MAX_SEATS)), np.zeros(MAX_SEATS),
                          {"trained": "no", "seed": str(seed)})


def save_network(path: str | Path, network: PolicyValueNet, *, dtype: str = "float16") -> Path:
    """Write ``network`` (compressed; ``float16`` halves the file, ``float32`` keeps every bit)
    and check that the file loads."""
    arrays = layer_arrays(network.trunk_weights, network.trunk_biases, network.meta, dtype)
    arrays["format"] = np.array(FORMAT)
    arrays["policy_w"] = network.policy_weight.astype(dtype)
    arrays["policy_b"] = network.policy_bias.astype(dtype)
    arrays["value_w"] = network.value_weight.astype(dtype)
    arrays["value_b"] = network.value_bias.astype(dtype)
    target = write_arrays(path, arrays)
    load_network(target)
    return target


def load_network(path: str | Path | None = None) -> PolicyValueNet:
    """The network in the file at ``path`` (``None``: the shipped one); anything else raises
    :class:`NetworkError` saying why."""
    if path is None:
        return shipped_network()
    return network_of(read_arrays(path, "network", NetworkError), str(path))


def network_of(arrays: dict[str, Any], where: str) -> PolicyValueNet:
    """The network the arrays of a file (at ``where``, for messages) hold; a :class:`NetworkError`
    if they are not one. Shared with :func:`mattis.bots.learned.load_checkpoint`, which reads a
    file once and takes either format."""
    if str(arrays.get("format", "")) != FORMAT:
        raise NetworkError(f"{where} is not a Mattis policy-value network (format {FORMAT} expected)")
    missing = [key for key in ("policy_w", "policy_b", "value_w", "value_b") if key not in arrays]
    if missing:
        raise NetworkError(f"{where}: no {', '.join(missing)}")
    weights, biases = numbered_layers(arrays, where, "trunk layer", NetworkError)
    return PolicyValueNet(weights, biases, arrays["policy_w"], arrays["policy_b"],
                          arrays["value_w"], arrays["value_b"], meta_of(arrays))


class NetworkEvaluator:
    """A network as the ``master`` search's leaf evaluator
    (:class:`~mattis.bots.guided.LeafEvaluator`): the view encoded
    (:func:`~mattis.bots.encoding.encode_view`), then :meth:`PolicyValueNet.evaluate`."""

    def __init__(self, network: PolicyValueNet) -> None:
        self.network = network

    def __call__(self, view: PlayerView, legal_indices: Sequence[int]) -> tuple[list[float], list[float]]:
        evaluation = self.network.evaluate(encode_view(view), legal_indices)
        priors: list[float] = evaluation.priors.tolist()
        risks: list[float] = evaluation.risks.tolist()
        return priors, risks


def compact_bytes(network: PolicyValueNet) -> bytes:
    """``network`` in the offline app's file format (:mod:`mattis.bots.compact`): float16
    when every weight is a float16 number already (a network read from a float16 file, as
    the shipped one is), so the file is exact and half the size; float32 otherwise."""
    arrays: list[Matrix] = []
    for weight, bias in zip(network.trunk_weights, network.trunk_biases, strict=True):
        arrays += [weight, bias]
    arrays += [network.policy_weight.T, network.policy_bias, network.value_weight.T, network.value_bias]
    exact16 = all(np.array_equal(array.astype(np.float16).astype(np.float32), array) for array in arrays)
    dtype = np.dtype("<f2" if exact16 else "<f4")
    shape = Shape(OBSERVATION_SIZE, tuple(int(bias.size) for bias in network.trunk_biases), NUM_ACTIONS,
                  MAX_SEATS, dtype.itemsize)
    return shape.header() + b"".join(np.ascontiguousarray(array, dtype=dtype).tobytes() for array in arrays)


@lru_cache(maxsize=1)
def shipped_network() -> PolicyValueNet:
    """The shipped network, read once per process."""
    source = resources.files("mattis").joinpath("data", SHIPPED_NETWORK)
    with resources.as_file(source) as path:
        return load_network(path)


__all__ = ["FORMAT", "SHIPPED_NETWORK", "Evaluation", "NetworkError", "NetworkEvaluator", "PolicyValueNet",
           "compact_bytes", "load_network", "network_of", "random_network", "save_network", "shipped_network"]
