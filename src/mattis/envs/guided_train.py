"""Training the ``master`` policy-and-value network on search data (the optional ``train``
extra: CPU torch).

:mod:`mattis.envs.guided_data` plays the ``hard`` search against itself and stores, per
decision, the deciding seat's encoded view, the search's root visits and who ended as Mattis.
:func:`train_network` fits a fully connected network to them: the policy head's logits,
restricted to the legal moves, by cross-entropy against the visit shares; the value head's
six logits by binary cross-entropy against the loser flags of the seats at the table, weighed
by :data:`VALUE_WEIGHT`. One game in :data:`HOLDOUT_EVERY` is held out (whole games, so no
position of a held-out game is seen in training); the weights of the epoch with the lowest
held-out loss (weighed as in training) are kept and written with
:func:`~mattis.bots.network.save_network`, which the ``master`` level reads with numpy alone.
``mattis train --level master`` is the command for both steps.

Training runs on one thread (``torch.set_num_threads(1)``), as :mod:`mattis.envs.train` does:
other work shares the machine's cores.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

from ..extras import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error
try:
    import torch
    from torch import nn
except ImportError as error:  # the train extra is missing: say what to install
    raise MissingExtra(__name__, "train", error.name) from error

from ..bots.encoding import MAX_SEATS, OBSERVATION_SIZE
from ..bots.network import PolicyValueNet, save_network
from ..core.actions import NUM_ACTIONS
from .guided_data import DataError, GameData, read_shard, shard_path

DEFAULT_HIDDEN: Final = (256, 128)
"""The trunk's layers: about 430,000 numbers, a file well under 2 MB in float16."""
VALUE_WEIGHT: Final = 0.25
"""The value loss's weight beside the policy's: a game's outcome is one noisy bit shared by all
its positions, so at full weight the trunk learns the training games' outcomes by heart within
two epochs (held-out Brier above the base rate's) while the policy head still improves."""
HOLDOUT_EVERY: Final = 10
"""Game numbers divisible by this are held out to measure the network (one game in ten)."""
BATCH: Final = 512
MAX_FILE_BYTES: Final = 2 * 1024 * 1024
"""The shipped network's size limit (issue 27)."""


@dataclass(frozen=True, slots=True)
class Positions:
    """The positions of some games, stacked: what training reads."""

    observations: npt.NDArray[np.float32]
    legal: npt.NDArray[np.int64]
    """Legal action indices per row, padded with -1."""
    shares: npt.NDArray[np.float32]
    """The search's visit share of each legal move (0 in the padding); each row sums to 1."""
    losers: npt.NDArray[np.float32]
    present: npt.NDArray[np.float32]

    @property
    def size(self) -> int:
        """How many positions."""
        return int(self.observations.shape[0])


@dataclass(frozen=True, slots=True)
class Metrics:
    """How well the network reads positions it was not trained on."""

    policy_loss: float
    """Cross-entropy of the legal-move priors against the search's visit shares."""
    agreement: float
    """Share of positions whose most probable legal move is the search's most visited one."""
    value_loss: float
    """Binary log-loss of the seats' Mattis risks (seats at the table only)."""
    brier: float
    """Mean squared error of the seats' Mattis risks."""
    base_brier: float
    """The Brier score of always saying each relative seat's Mattis rate in training: the
    score to beat."""

    def to_json(self) -> dict[str, float]:
        """The figures, rounded for a report."""
        return {name: round(getattr(self, name), 5) for name in
                ("policy_loss", "agreement", "value_loss", "brier", "base_brier")}


@dataclass(frozen=True, slots=True)
class DataSummary:
    """What the training data held."""

    games: int
    train_positions: int
    holdout_positions: int
    capped: int
    cpu_seconds: float
    """CPU seconds the games took to play (the sum of their shards' records)."""


@dataclass(frozen=True, slots=True)
class NetworkResult:
    """What :func:`train_network` made."""

    out: Path
    network: PolicyValueNet
    data: DataSummary
    metrics: Metrics
    """On the held-out games, for the epoch kept."""
    best_epoch: int
    history: tuple[Metrics, ...]
    """The held-out figures after every epoch."""
    cpu_seconds: float
    """CPU seconds of training (reading the shards included)."""
    file_bytes: int


def load_positions(games: Sequence[GameData]) -> Positions:
    """Stack ``games``' positions into one set."""
    width = max((game.legal.shape[1] for game in games), default=1)
    count = sum(game.positions for game in games)
    legal = np.full((count, width), -1, dtype=np.int64)
    shares = np.zeros((count, width), dtype=np.float32)
    row = 0
    for game in games:
        rows = game.positions
        columns = game.legal.shape[1]
        legal[row:row + rows, :columns] = game.legal
        totals = game.visits.sum(axis=1, keepdims=True)
        shares[row:row + rows, :columns] = game.visits / np.maximum(totals, 1.0)
        row += rows

    def stacked(name: str, columns: int) -> npt.NDArray[np.float32]:
        parts = [getattr(game, name) for game in games]
        return np.concatenate(parts) if parts else np.zeros((0, columns), dtype=np.float32)

    return Positions(stacked("observations", OBSERVATION_SIZE), legal, shares,
                     stacked("losers", MAX_SEATS), stacked("present", MAX_SEATS))


def read_games(folder: str | Path, games: int) -> tuple[list[GameData], list[GameData], DataSummary]:
    """Games ``0 … games-1`` from ``folder``, split into training and held-out games."""
    training: list[GameData] = []
    holdout: list[GameData] = []
    for game in range(games):
        path = shard_path(Path(folder), game)
        if not path.exists():
            raise DataError(f"{folder} has no game {game}: play the games first")
        (holdout if game % HOLDOUT_EVERY == 0 else training).append(read_shard(path))
    every = training + holdout
    summary = DataSummary(games, sum(game.positions for game in training),
                          sum(game.positions for game in holdout),
                          sum(1 for game in every if game.capped),
                          sum(game.cpu_seconds for game in every))
    return training, holdout, summary


class _Model(nn.Module):
    """The network as torch layers, mirroring :class:`PolicyValueNet`."""

    def __init__(self, hidden: Sequence[int]) -> None:
        super().__init__()
        sizes = [OBSERVATION_SIZE, *hidden]
        self.trunk = nn.ModuleList(nn.Linear(inputs, outputs)
                                   for inputs, outputs in pairwise(sizes))
        self.policy = nn.Linear(sizes[-1], NUM_ACTIONS)
        self.value = nn.Linear(sizes[-1], MAX_SEATS)

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = observations
        for layer in self.trunk:
            hidden = torch.relu(layer(hidden))
        return self.policy(hidden), self.value(hidden)

    def to_network(self, meta: dict[str, str]) -> PolicyValueNet:
        """The numpy network (weights as ``inputs × outputs``, as :class:`PolicyValueNet` has them)."""

        def arrays(layer: nn.Linear) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
            return layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy()

        trunk = [arrays(layer) for layer in self.trunk if isinstance(layer, nn.Linear)]
        policy_weight, policy_bias = arrays(self.policy)
        value_weight, value_bias = arrays(self.value)
        return PolicyValueNet([weight for weight, _ in trunk], [bias for _, bias in trunk],
                              policy_weight, policy_bias, value_weight, value_bias, meta)


def _losses(model: _Model, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor,
                                                                      torch.Tensor, torch.Tensor]:
    """Per-position policy cross-entropy and agreement, and per-seat value log-loss and risk."""
    policy_logits, value_logits = model(batch["observations"])
    legal = batch["legal"]
    padding = legal < 0
    logits = policy_logits.gather(1, legal.clamp(min=0)).masked_fill(padding, float("-inf"))
    log_priors = torch.log_softmax(logits, dim=1).masked_fill(padding, 0.0)
    policy_loss = -(batch["shares"] * log_priors).sum(dim=1)
    agree = (logits.argmax(dim=1) == batch["shares"].argmax(dim=1)).float()
    value_loss = nn.functional.binary_cross_entropy_with_logits(value_logits, batch["losers"],
                                                                reduction="none")
    return policy_loss, agree, value_loss, torch.sigmoid(value_logits)


def _tensors(positions: Positions, rows: npt.NDArray[np.intp] | slice) -> dict[str, torch.Tensor]:
    return {"observations": torch.from_numpy(positions.observations[rows]),
            "legal": torch.from_numpy(positions.legal[rows]),
            "shares": torch.from_numpy(positions.shares[rows]),
            "losers": torch.from_numpy(positions.losers[rows]),
            "present": torch.from_numpy(positions.present[rows])}


def evaluate(model: _Model, positions: Positions, seat_rates: npt.NDArray[np.float32]) -> Metrics:
    """The held-out figures of ``model``; ``seat_rates`` is each relative seat's Mattis rate in
    training, the baseline's constant guess."""
    policy_sum = agree_sum = value_sum = brier_sum = base_sum = seats = 0.0
    with torch.no_grad():
        for start in range(0, positions.size, 4 * BATCH):
            batch = _tensors(positions, slice(start, start + 4 * BATCH))
            policy_loss, agree, value_loss, risks = _losses(model, batch)
            present = batch["present"]
            policy_sum += float(policy_loss.sum())
            agree_sum += float(agree.sum())
            value_sum += float((value_loss * present).sum())
            brier_sum += float((((risks - batch["losers"]) ** 2) * present).sum())
            base = torch.from_numpy(seat_rates).expand_as(present)
            base_sum += float((((base - batch["losers"]) ** 2) * present).sum())
            seats += float(present.sum())
    count = max(positions.size, 1)
    seats = max(seats, 1.0)
    return Metrics(policy_sum / count, agree_sum / count, value_sum / seats, brier_sum / seats,
                   base_sum / seats)


@dataclass(frozen=True, slots=True)
class EpochReport:
    """Where training is, for a progress line."""

    epoch: int
    epochs: int
    metrics: Metrics
    seconds: float


def train_network(folder: str | Path, games: int, out: str | Path, *, epochs: int = 10,
                  hidden: Sequence[int] = DEFAULT_HIDDEN, seed: int = 1, learning_rate: float = 1e-3,
                  dtype: str = "float16", meta: dict[str, str] | None = None,
                  report: Callable[[EpochReport], None] | None = None) -> NetworkResult:
    """Train on games ``0 … games-1`` of ``folder`` and write the network to ``out``."""
    started = time.process_time()
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    training_games, holdout_games, summary = read_games(folder, games)
    training = load_positions(training_games)
    holdout = load_positions(holdout_games)
    del training_games, holdout_games
    present_counts = training.present.sum(axis=0)
    seat_rates = ((training.losers * training.present).sum(axis=0)
                  / np.maximum(present_counts, 1.0)).astype(np.float32)
    model = _Model(hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    order = np.random.default_rng(seed)
    best: tuple[float, int, dict[str, torch.Tensor], Metrics] | None = None
    history: list[Metrics] = []
    for epoch in range(1, epochs + 1):
        model.train()
        permutation = order.permutation(training.size)
        for start in range(0, training.size, BATCH):
            batch = _tensors(training, permutation[start:start + BATCH])
            policy_loss, _, value_loss, _ = _losses(model, batch)
            present = batch["present"]
            value = (value_loss * present).sum() / present.sum().clamp(min=1.0)
            loss = policy_loss.mean() + VALUE_WEIGHT * value
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]  # torch's backward is untyped
            optimizer.step()
        model.eval()
        metrics = evaluate(model, holdout, seat_rates)
        history.append(metrics)
        if report is not None:
            report(EpochReport(epoch, epochs, metrics, time.process_time() - started))
        total = metrics.policy_loss + VALUE_WEIGHT * metrics.value_loss
        if best is None or total < best[0]:
            state = {key: value.clone() for key, value in model.state_dict().items()}
            best = (total, epoch, state, metrics)
    if best is None:
        raise ValueError("epochs: must be at least 1")
    _, best_epoch, state, metrics = best
    model.load_state_dict(state)
    seconds = time.process_time() - started
    notes = {"trained": "search data", "games": str(summary.games),
             "positions": str(summary.train_positions + summary.holdout_positions),
             "hidden": ",".join(str(size) for size in hidden), "epochs": str(epochs),
             "best_epoch": str(best_epoch), "seed": str(seed),
             "generation_cpu_hours": f"{summary.cpu_seconds / 3600:.3f}",
             "training_cpu_hours": f"{seconds / 3600:.3f}",
             **{f"holdout_{name}": str(value) for name, value in metrics.to_json().items()},
             **(meta or {})}
    network = model.to_network(notes)
    target = save_network(out, network, dtype=dtype)
    return NetworkResult(target, network, summary, metrics, best_epoch, tuple(history), seconds,
                         target.stat().st_size)


__all__ = ["DEFAULT_HIDDEN", "HOLDOUT_EVERY", "MAX_FILE_BYTES", "VALUE_WEIGHT", "DataSummary", "EpochReport",
           "Metrics", "NetworkResult", "Positions", "evaluate", "load_positions", "read_games",
           "train_network"]
