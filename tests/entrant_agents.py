"""Agents named ``module:callable`` by tests/test_bots_entrants.py: each shape an entrant may take."""

from __future__ import annotations

import random
from collections.abc import Sequence

from mattis.bots import Decision, Limit, PlayerView
from mattis.core.actions import Action


def lowest(view: PlayerView, legal: Sequence[Action]) -> Action:
    """A policy: the legal move with the lowest action index."""
    return min(legal, key=lambda action: action.index)


def highest_index(view: PlayerView, legal: Sequence[Action]) -> int:
    """A policy answering an action index."""
    return max(action.index for action in legal)


class Careful:
    """An agent class: a zero-argument factory, so every game gets a fresh one."""

    name = "careful"
    made = 0

    def __init__(self) -> None:
        Careful.made += 1

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random,
               limit: Limit | None = None) -> Decision:
        return Decision(rng.choice(list(legal)), "a careful guess")


careful = Careful()
"""An agent object, used as it is."""


def make_policy() -> object:
    """A factory returning a policy."""
    return lowest


def three(a: object, b: object, c: object) -> Action:
    """The wrong shape: three arguments."""
    raise AssertionError("never called")


not_callable = 42
