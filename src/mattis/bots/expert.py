"""The ``expert`` level: the ``hard`` search with informed rollouts and a larger budget.

``hard`` plays each sampled game out with a cheap policy (a random card in phase 1, the
lowest play in phase 2). A rollout game is fully known once sampled, so ``expert`` plays
it out with the ``normal`` bot's card sense instead (win rounds cheaply, keep high cards,
pick up rather than waste a high trump), which makes the simulated opponents play like
people and the search's estimates closer to real games. It also thinks longer. What
each choice bought is measured in ``benchmarks/expert/README.md``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.actions import Action
from .ismcts import ROLLOUT_NOISE, IsmctsAgent
from .protocol import Decision, Limit
from .view import PlayerView

EXPERT_ITERATIONS = 4000
"""The default iteration budget a move (the search may stop sooner once settled)."""
EXPERT_SECONDS = 2.5
"""The default longest thinking time a move: a slow pure-Python install (or a phone) stops
here before reaching :data:`EXPERT_ITERATIONS`."""
EXPERT_LIMIT = Limit(seconds=EXPERT_SECONDS, iterations=EXPERT_ITERATIONS)
"""The default budget: :data:`EXPERT_ITERATIONS` or :data:`EXPERT_SECONDS`, whichever ends first."""


class ExpertAgent:
    """Information-set search with informed rollouts (see the module docstring)."""

    name = "expert"

    def __init__(self, limit: Limit = EXPERT_LIMIT, rollout_noise: float = ROLLOUT_NOISE) -> None:
        self.limit = limit
        self._search = IsmctsAgent(limit, rollout_noise=rollout_noise, informed_rollouts=True,
                                   name=self.name)

    def choose(
        self, view: PlayerView, legal: Sequence[Action], rng: random.Random, limit: Limit | None = None
    ) -> Decision:
        return self._search.choose(view, legal, rng, limit or self.limit)
