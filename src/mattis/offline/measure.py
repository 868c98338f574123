"""Searches of given positions, timed: the same code in the offline app's worker and natively.

The device benchmark (``benchmarks/guided/device_speed.py``) and its browser test ask the
worker (the ``searchPositions`` call, :mod:`mattis.offline.requests`) and native Python to
search the same positions with the same seeds and budget, and compare how many iterations each
ran and which move each chose. So both sides run this one loop; only the ``master`` level's
leaf evaluator differs (the worker's JavaScript, numpy natively, or the pure-Python
:class:`~mattis.bots.compact.CompactNetwork`).

Only the standard library and ``bots``: a compiled build of the package without this module
can load it from its source file and run it (the benchmark does).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from ..bots.guided import GuidedAgent, LeafEvaluator
from ..bots.ismcts import IsmctsAgent
from ..bots.protocol import Agent, Limit
from ..bots.view import PlayerView
from ..core.actions import Action

MEASURED_LEVELS = ("hard", "master")
"""The searching levels the device plays whose thinking is measured here."""

Position = tuple[dict[str, Any], Sequence[str]]
"""A decision to search: the seat's view (``Game.view``) and its legal moves as text."""


def measured_agent(level: str, limit: Limit, *, evaluator: LeafEvaluator | None = None,
                   early_stop: bool = True) -> Agent:
    """The agent of ``level`` as a table makes it (``early_stop``: stop once the choice is
    settled, as the tables' bots do; off, the search spends its whole budget, which measures
    what the budget holds). ``evaluator``: ``master``'s (``None``: the shipped network in numpy)."""
    if level == "hard":
        return IsmctsAgent(limit, early_stop=early_stop)
    if level == "master":
        return GuidedAgent(limit, evaluator=evaluator, early_stop=early_stop)
    raise ValueError(f"level: one of {', '.join(MEASURED_LEVELS)}, got {level!r}")


def search_positions(positions: Sequence[Position], level: str, limit: Limit, *, seed: str,
                     evaluator: LeafEvaluator | None = None, early_stop: bool = True) -> list[dict[str, Any]]:
    """Each position searched by a fresh agent of ``level`` within ``limit``, its generator
    seeded with ``seed`` and the position's number: the move chosen (text), the iterations
    run and the seconds taken."""
    results = []
    for number, (view, legal) in enumerate(positions):
        agent = measured_agent(level, limit, evaluator=evaluator, early_stop=early_stop)
        player_view = PlayerView.from_dict(view)
        actions = [Action.parse(text) for text in legal]
        rng = random.Random(f"{seed}/{number}")
        started = time.perf_counter()
        decision = agent.choose(player_view, actions, rng)
        seconds = time.perf_counter() - started
        results.append({"action": str(decision.action), "iterations": decision.iterations,
                        "seconds": seconds})
    return results


def limit_from(message: dict[str, Any]) -> Limit:
    """The budget a call asks for: ``seconds``, ``iterations`` or both (at least one)."""
    seconds, iterations = message.get("seconds"), message.get("iterations")
    return Limit(seconds=None if seconds is None else float(seconds),
                 iterations=None if iterations is None else int(iterations))


__all__ = ["MEASURED_LEVELS", "Position", "limit_from", "measured_agent", "search_positions"]
