"""The ``learned`` bot level: a trained network's first instinct, played with numpy alone
(no torch, no search).

The level plays a :class:`Policy`: fully connected layers ending in one logit per action
index. Two kinds of file hold one, and :func:`load_checkpoint` reads either:

- a *checkpoint* (``format`` :data:`FORMAT`): the layers ``w0``, ``b0``, ``w1`` … and the
  activation between them, as PPO training (``mattis train``, :mod:`mattis.envs.train`)
  writes it (:func:`save_checkpoint`);
- a ``master`` *network file* (:data:`mattis.bots.network.FORMAT`): its policy path alone,
  the ReLU trunk and the policy head (:func:`policy_of_network`), the value head unused.

The level's default is the policy path of the shipped ``master`` network
(:func:`~mattis.bots.network.shipped_network`, trained on positions from the ``hard``
search's games), so its weights live in one file, ``master.npz``.

The agent reads only the seat's view: :func:`~mattis.envs.encoding.encode_view` of the
:class:`~mattis.bots.PlayerView` it is handed, the same numbers the training environment
showed the learner. It plays the legal action with the highest logit (the others are masked
out), the lowest index on a tie, so a view always gets the same move: no randomness is used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from ..extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # numpy is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..core.actions import NUM_ACTIONS, Action
from .encoding import OBSERVATION_SIZE, encode_view
from .network import FORMAT as NETWORK_FORMAT
from .network import NetworkError, PolicyValueNet, network_of, shipped_network
from .protocol import Decision, Limit
from .view import PlayerView
from .weights import layer_arrays, meta_of, numbered_layers, read_arrays, write_arrays

FORMAT: Final = "mattis-policy-1"
"""What the ``format`` entry of a checkpoint says; another value is refused."""
ACTIVATIONS: Final = ("tanh", "relu")
"""The activations a checkpoint may name (applied after every layer but the last)."""

Matrix = npt.NDArray[np.float32]


class CheckpointError(ValueError):
    """A checkpoint file that cannot be played: missing, unreadable or of another shape."""


class Policy:
    """The network of a checkpoint, as float32 arrays, with the numbers it was trained on."""

    def __init__(self, weights: Sequence[Matrix], biases: Sequence[Matrix], activation: str,
                 meta: dict[str, str] | None = None) -> None:
        if activation not in ACTIVATIONS:
            raise CheckpointError(f"activation: expected one of {', '.join(ACTIVATIONS)}, got {activation!r}")
        if not weights or len(weights) != len(biases):
            raise CheckpointError("the checkpoint needs one bias per weight matrix and at least one layer")
        size = OBSERVATION_SIZE
        for index, (weight, bias) in enumerate(zip(weights, biases, strict=True)):
            if weight.ndim != 2 or weight.shape[0] != size or bias.shape != (weight.shape[1],):
                raise CheckpointError(f"layer {index}: shape {weight.shape} with bias {bias.shape} does not "
                                      f"follow from {size} inputs")
            size = weight.shape[1]
        if size != NUM_ACTIONS:
            raise CheckpointError(f"the last layer gives {size} logits, not one per action ({NUM_ACTIONS})")
        self.weights = [np.ascontiguousarray(weight, dtype=np.float32) for weight in weights]
        self.biases = [np.ascontiguousarray(bias, dtype=np.float32) for bias in biases]
        self.activation = activation
        self.meta: dict[str, str] = dict(meta or {})
        """What the trainer noted (opponents, steps, seed …), for people; play ignores it."""

    def logits(self, observations: Matrix) -> Matrix:
        """The action logits of one observation (or a batch, one per row)."""
        hidden = np.asarray(observations, dtype=np.float32)
        last = len(self.weights) - 1
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            hidden = hidden @ weight + bias
            if index < last:
                hidden = np.tanh(hidden) if self.activation == "tanh" else np.maximum(hidden, 0.0)
        return hidden

    def best(self, observation: Matrix, legal_indices: Sequence[int]) -> int:
        """The legal action index with the highest logit; the lowest index on a tie."""
        logits = self.logits(observation)
        ordered = sorted(legal_indices)
        chosen = logits[np.asarray(ordered, dtype=np.intp)]
        return ordered[int(np.argmax(chosen))]  # argmax takes the first of equal values

    @property
    def parameters(self) -> int:
        """How many numbers the network holds."""
        return sum(weight.size + bias.size for weight, bias in zip(self.weights, self.biases, strict=True))


def save_checkpoint(path: str | Path, weights: Sequence[Any], biases: Sequence[Any], activation: str,
                    *, dtype: str = "float16", meta: dict[str, str] | None = None) -> Path:
    """Write a checkpoint (compressed ``.npz``; ``dtype`` ``float16`` halves the file, ``float32``
    keeps the trained numbers exactly) and check that it loads."""
    arrays = layer_arrays(weights, biases, meta or {}, dtype)
    arrays.update(format=np.array(FORMAT), activation=np.array(activation))
    target = write_arrays(path, arrays)
    load_checkpoint(target)
    return target


def load_checkpoint(path: str | Path | None = None) -> Policy:
    """The policy in the file at ``path``, a checkpoint or a ``master`` network file (its
    policy path); ``None``: the shipped one. Any other file raises :class:`CheckpointError`
    saying why."""
    if path is None:
        return shipped_policy()
    return _policy_of(read_arrays(path, "checkpoint", CheckpointError), str(path))


def policy_of_network(network: PolicyValueNet) -> Policy:
    """The policy path of a ``master`` network: its ReLU trunk, then the policy head, giving
    the same logits as the network's policy head (the value head is left out)."""
    meta = {**network.meta, "policy_of": NETWORK_FORMAT}
    return Policy([*network.trunk_weights, network.policy_weight],
                  [*network.trunk_biases, network.policy_bias], "relu", meta)


@lru_cache(maxsize=1)
def shipped_policy() -> Policy:
    """The ``learned`` level's default: the policy path of the shipped ``master`` network,
    built once per process (it shares the network's arrays)."""
    return policy_of_network(shipped_network())


def _policy_of(arrays: dict[str, Any], where: str) -> Policy:
    kind = str(arrays.get("format", ""))
    if kind == NETWORK_FORMAT:
        try:
            return policy_of_network(network_of(arrays, where))
        except NetworkError as error:
            raise CheckpointError(str(error)) from None
    if kind != FORMAT:
        raise CheckpointError(f"{where} is not a Mattis policy checkpoint nor network file "
                              f"(format {FORMAT} or {NETWORK_FORMAT} expected)")
    weights, biases = numbered_layers(arrays, where, "layer", CheckpointError)
    return Policy(weights, biases, str(arrays.get("activation", "")), meta_of(arrays))


class LearnedAgent:
    """The ``learned`` level: the policy's best legal move for the seat's encoded view."""

    name = "learned"

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy = policy if policy is not None else shipped_policy()

    def choose(
        self, view: PlayerView, legal: Sequence[Action], rng: random.Random, limit: Limit | None = None
    ) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], "the only legal move", "forced")
        by_index = {action.index: action for action in legal}
        chosen = by_index[self.policy.best(encode_view(view), list(by_index))]
        return Decision(chosen, f"the trained network rates {chosen} best", "network")


__all__ = ["ACTIVATIONS", "FORMAT", "CheckpointError", "LearnedAgent", "Policy", "load_checkpoint",
           "policy_of_network", "save_checkpoint", "shipped_policy"]
