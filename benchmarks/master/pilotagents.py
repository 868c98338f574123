"""The pilots' settings of the ``master`` search as ``module:callable`` entrants (run
``mattis tournament`` from this folder: ``--bots pilotagents:rollout_master,normal,normal``)."""

from __future__ import annotations

from collections.abc import Sequence

from mattis.bots import GuidedAgent, Limit, PlayerView
from mattis.bots.guided import MAX_SEATS


def uniform(view: PlayerView, legal_indices: Sequence[int]) -> tuple[list[float], list[float]]:
    """An evaluator that knows nothing: even priors, every seat's risk one half."""
    return [1 / len(legal_indices)] * len(legal_indices), [0.5] * MAX_SEATS


def rollout_master() -> GuidedAgent:
    """PUCT over sampled worlds with even priors and only ``hard``'s rollout as the leaf
    value: the search machinery beside ``hard`` at the same budget."""
    return GuidedAgent(Limit(iterations=300), evaluator=uniform, rollout_weight=1.0)


def _network_master(iterations: int, rollout_weight: float, exploration: float = 1.0) -> GuidedAgent:
    return GuidedAgent(Limit(iterations=iterations), rollout_weight=rollout_weight, exploration=exploration)


def priors_rollouts_1000() -> GuidedAgent:
    """The trained network's priors, ``hard``'s rollouts as the only leaf value."""
    return _network_master(1000, 1.0)


def half_rollouts_1000() -> GuidedAgent:
    """The trained network's priors, leaves scored half by its value and half by a rollout."""
    return _network_master(1000, 0.5)


def value_1000() -> GuidedAgent:
    """The trained network's priors and values, no rollout: ``master:1000``."""
    return _network_master(1000, 0.0)


def device_budget_master() -> GuidedAgent:
    """``master`` as the offline app plays it on this machine's Chromium: 6,400 iterations a
    move (the worker's median in 2 s, ``benchmarks/guided/device.md``), rollouts mixed in."""
    return _network_master(6400, 0.5)
