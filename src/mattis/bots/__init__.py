"""Bots: agents that play from one seat's view only.

``make_agent(level)`` gives ``random``, ``easy``, ``normal``, ``hard``, ``expert``, ``master``
(the search guided by a policy-and-value network, :mod:`mattis.bots.guided`) or ``learned``
(a trained network, :mod:`mattis.bots.learned`); ``master`` and ``learned`` need numpy
(:func:`available_levels` says which levels can play here); :func:`hint` asks
the ``hard`` bot what it would play and why. Agents receive a :class:`PlayerView` (the
seat's view, ``Game.seat_view(seat)``, and its memory of the public events), the legal
actions, a seeded generator and an optional limit.
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Iterable, Sequence

from ..core.actions import Action
from ..core.game import Game
from ..extras import installed, needs_extra
from .expert import EXPERT_ITERATIONS, EXPERT_LIMIT, EXPERT_SECONDS, ExpertAgent
from .guided import MASTER_LIMIT, MASTER_SECONDS, GuidedAgent
from .ismcts import DEFAULT_LIMIT, IsmctsAgent
from .protocol import Agent, Decision, Limit
from .rule_based import RandomAgent, RuleBasedAgent
from .runner import DEFAULT_ACTION_CAP, PlayedGame, decide, derived_rng, play_game, seat_rng, seat_view
from .view import CardMemory, CardTracker, PlayerView

LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard", "expert", "master", "learned")
"""Every bot level: the built-in ones from weakest to strongest (``master``: the search
guided by the shipped network), then the trained network of the ``learned`` bot."""
BASE_LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard", "expert")
"""The levels that need no optional library (all the offline app can run)."""
LEARNED = "learned"
"""The level that plays a trained network: its inference needs numpy (the rl or web extra)."""
MASTER = "master"
"""The search guided by the shipped policy-and-value network: its evaluator needs numpy
(the offline app gives it one of its own, :class:`~mattis.bots.guided.LeafEvaluator`)."""
NUMPY_LEVELS: tuple[str, ...] = (MASTER, LEARNED)
"""The levels that cannot play where numpy is missing."""
SEARCHING_LEVELS: frozenset[str] = frozenset({"hard", "expert", MASTER})
"""The levels that search for each move (seconds of a worker, not a millisecond): a host
runs their moves away from the table, and a server limits how many tables of them one
client may have in play."""


def available_levels() -> tuple[str, ...]:
    """The levels that can play in this process: :data:`LEVELS` without
    :data:`NUMPY_LEVELS` when numpy is not installed."""
    if installed("numpy"):  # not on the offline app's Pyodide, which bundles no numpy
        return LEVELS
    return tuple(level for level in LEVELS if level not in NUMPY_LEVELS)


def missing_extra(levels: Iterable[str]) -> str | None:
    """Why one of ``levels`` cannot play here, in one line (``master`` and ``learned`` need
    numpy, which is missing), or ``None`` when all can."""
    available = available_levels()
    for level in levels:
        if level in NUMPY_LEVELS and level not in available:
            return needs_extra(f"the {level} bot", "rl")
    return None


def parse_level(text: object) -> str:
    """A bot level from text (any case, surrounding spaces ignored). The one place that
    says what an unknown level is: ``ValueError`` quoting what was given."""
    key = text.strip().lower() if isinstance(text, str) else None
    if key not in LEVELS:
        if isinstance(key, str):  # quoted printable and short: it may come from a file
            printable = "".join(char for char in key if char.isprintable())[:40]
            shown = repr(printable) if printable else "(empty)"
        else:
            shown = reprlib.repr(text)
        raise ValueError(f"bot: unknown level {shown}; choose one of {', '.join(LEVELS)}")
    return key


def make_agent(level: str, limit: Limit | None = None) -> Agent:
    """A new agent of ``level``; ``limit`` sets a searching bot's (``hard``, ``expert``,
    ``master``) thinking budget. ``learned`` without numpy raises
    :class:`mattis.extras.MissingExtra` (an ``ImportError``) naming it, and so does
    ``master``'s first move (its network's evaluator is read then)."""
    key = parse_level(level)
    if key == LEARNED:
        from .learned import LearnedAgent  # here: it needs numpy, which the other levels don't

        return LearnedAgent()
    if key == "random":
        return RandomAgent()
    if key in ("easy", "normal"):
        return RuleBasedAgent(key)
    if key == "expert":
        return ExpertAgent(limit or EXPERT_LIMIT)
    if key == MASTER:
        return GuidedAgent(limit or MASTER_LIMIT)
    return IsmctsAgent(limit or DEFAULT_LIMIT)


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
    return hint(seat_view(game, seat), game.legal_actions(), rng, limit)


__all__ = [
    "BASE_LEVELS", "DEFAULT_ACTION_CAP", "DEFAULT_LIMIT", "EXPERT_ITERATIONS", "EXPERT_LIMIT",
    "EXPERT_SECONDS", "LEARNED", "LEVELS", "MASTER", "MASTER_LIMIT", "MASTER_SECONDS", "NUMPY_LEVELS",
    "SEARCHING_LEVELS", "Agent", "CardMemory", "CardTracker", "Decision", "ExpertAgent", "GuidedAgent",
    "IsmctsAgent", "Limit", "PlayedGame", "PlayerView", "RandomAgent", "RuleBasedAgent",
    "available_levels", "decide", "derived_rng", "hint", "hint_for", "make_agent", "missing_extra",
    "parse_level", "play_game", "seat_rng", "seat_view",
]
