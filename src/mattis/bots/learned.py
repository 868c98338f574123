"""The ``learned`` bot level: a small trained network played with numpy alone (no torch).

A checkpoint is an ``.npz`` file holding the policy's layers (``w0``, ``b0``, ``w1`` …, the
last layer giving one logit per action index), the activation between them and the
observation and action sizes it was trained for (:func:`save_checkpoint` writes one,
:func:`load_checkpoint` reads and checks it). ``mattis train`` (:mod:`mattis.envs.train`)
makes them; the package ships one, :data:`SHIPPED_CHECKPOINT`.

The agent reads only the seat's view: :func:`~mattis.envs.encoding.encode_view` of the
:class:`~mattis.bots.PlayerView` it is handed, the same numbers the training environment
showed the learner. It plays the legal action with the highest logit (the others are masked
out), the lowest index on a tie, so a view always gets the same move: no randomness is used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
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
from .protocol import Decision, Limit
from .view import PlayerView
from .weights import layer_arrays, meta_of, numbered_layers, read_arrays, write_arrays

FORMAT: Final = "mattis-policy-1"
"""What the ``format`` entry of a checkpoint says; another value is refused."""
ACTIVATIONS: Final = ("tanh", "relu")
"""The activations a checkpoint may name (applied after every layer but the last)."""
SHIPPED_CHECKPOINT: Final = "learned.npz"
"""The checkpoint in ``mattis/data`` that the ``learned`` level plays."""

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
    """The policy of the checkpoint at ``path`` (``None``: the shipped one); a file that is not
    one raises :class:`CheckpointError` saying why."""
    if path is None:
        return shipped_policy()
    return _policy_of(read_arrays(path, "checkpoint", CheckpointError), str(path))


@lru_cache(maxsize=1)
def shipped_policy() -> Policy:
    """The shipped checkpoint, read once per process."""
    source = resources.files("mattis").joinpath("data", SHIPPED_CHECKPOINT)
    with resources.as_file(source) as path:
        return load_checkpoint(path)


def _policy_of(arrays: dict[str, Any], where: str) -> Policy:
    if str(arrays.get("format", "")) != FORMAT:
        raise CheckpointError(f"{where} is not a Mattis policy checkpoint (format {FORMAT} expected)")
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


__all__ = ["ACTIVATIONS", "FORMAT", "SHIPPED_CHECKPOINT", "CheckpointError", "LearnedAgent", "Policy",
           "load_checkpoint", "save_checkpoint", "shipped_policy"]
