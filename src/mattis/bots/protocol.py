"""The agent protocol: a bot sees one seat's view and the legal actions, never the game.

An agent is any object with a ``name`` and a ``choose`` method. It receives a
:class:`~mattis.bots.view.PlayerView` (built from ``Game.seat_view(seat)``), the legal actions,
a seeded ``random.Random`` and an optional :class:`Limit`, and returns a :class:`Decision`:
the action plus a short explanation that front ends show as a hint.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..core.actions import Action
from .view import PlayerView


@dataclass(frozen=True, slots=True)
class Limit:
    """How long a searching agent may think: a time budget, an iteration count, or both
    (whichever ends first). Iteration limits make a search reproducible for a seed."""

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("limit: give seconds, iterations or both")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds: must be positive, got {self.seconds}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations: must be at least 1, got {self.iterations}")


@dataclass(frozen=True, slots=True)
class Decision:
    """An agent's choice and why, in a few words (English; front ends may translate the
    ``reason`` key with its ``detail`` values)."""

    action: Action
    explanation: str
    reason: str = ""
    """A stable key for the kind of reason (``"cheapest_beat"``, ``"search"`` …)."""
    detail: tuple[tuple[str, str], ...] = ()
    """Values the explanation is built from, for translations."""
    iterations: int = 0
    """Search iterations spent (0 for rule-based agents)."""


@runtime_checkable
class Agent(Protocol):
    """Anything that can choose an action from a view."""

    name: str

    def choose(
        self,
        view: PlayerView,
        legal: Sequence[Action],
        rng: random.Random,
        limit: Limit | None = None,
    ) -> Decision:
        """Pick one of ``legal`` (never empty) using only ``view``."""
        ...
