"""Bots: agents that play from one seat's view only.

``make_agent(level)`` gives ``random``, ``easy``, ``normal`` or ``hard``; :func:`hint` asks
the ``hard`` bot what it would play and why. Agents receive a :class:`PlayerView` built
from ``Game.view(seat)``, the legal actions, a seeded generator and an optional limit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.actions import Action
from ..core.game import Game
from .ismcts import DEFAULT_LIMIT, IsmctsAgent
from .protocol import Agent, Decision, Limit
from .rule_based import RandomAgent, RuleBasedAgent
from .runner import PlayedGame, decide, play_game, seat_rng
from .view import PlayerView

LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard")
"""Bot levels from weakest to strongest."""


def make_agent(level: str, limit: Limit | None = None) -> Agent:
    """A new agent of ``level``; ``limit`` sets the ``hard`` bot's thinking budget."""
    key = level.strip().lower()
    if key == "random":
        return RandomAgent()
    if key in ("easy", "normal"):
        return RuleBasedAgent(key)
    if key == "hard":
        return IsmctsAgent(limit or DEFAULT_LIMIT)
    raise ValueError(f"bot: unknown level {level!r}; choose one of {', '.join(LEVELS)}")


def hint(
    view: PlayerView | dict[str, object],
    legal: Sequence[Action],
    rng: random.Random,
    limit: Limit | None = None,
) -> Decision:
    """What the ``hard`` bot would play from this view, and why (for any front end)."""
    player_view = view if isinstance(view, PlayerView) else PlayerView.from_dict(dict(view))
    return IsmctsAgent(limit or DEFAULT_LIMIT).choose(player_view, legal, rng)


def hint_for(game: Game, rng: random.Random, limit: Limit | None = None) -> Decision:
    """A hint for the player to move in ``game`` (built from that seat's view only)."""
    seat = game.to_move
    if seat is None:
        raise ValueError("the game is over")
    return hint(game.view(seat), game.legal_actions(), rng, limit)


__all__ = [
    "DEFAULT_LIMIT", "LEVELS", "Agent", "Decision", "IsmctsAgent", "Limit", "PlayedGame",
    "PlayerView", "RandomAgent", "RuleBasedAgent", "decide", "hint", "hint_for", "make_agent",
    "play_game", "seat_rng",
]
