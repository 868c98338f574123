"""Bot thinking away from the event loop.

A ``hard`` bot searches for about a second; done on the event loop it would freeze every
table. These functions run in a worker process and receive only what the seat may know
(the view dict and the legal moves as text), and send back plain values: the action's text
and the decision's explanation parts, which the server turns back into a ``Decision``.
"""

from __future__ import annotations

import random

from ..bots import Decision, Limit, hint, make_agent
from ..bots.view import PlayerView
from ..core.actions import Action

DecisionParts = tuple[str, str, str, tuple[tuple[str, str], ...], int]
"""``(action text, explanation, reason, detail, iterations)`` — picklable and exact."""


def _parts(decision: Decision) -> DecisionParts:
    return (str(decision.action), decision.explanation, decision.reason, decision.detail,
            decision.iterations)


def decision_from_parts(parts: DecisionParts) -> Decision:
    """The worker's answer as a ``Decision`` (actions are interned, so parse the text)."""
    text, explanation, reason, detail, iterations = parts
    return Decision(Action.parse(text), explanation, reason, detail, iterations)


def choose_move(view: dict[str, object], legal: list[str], level: str, rng_seed: str,
                seconds: float) -> DecisionParts:
    """What the bot of ``level`` plays from ``view`` (runs in a worker process)."""
    agent = make_agent(level, Limit(seconds=seconds) if level == "hard" else None)
    actions = [Action.parse(text) for text in legal]
    decision = agent.choose(PlayerView.from_dict(view), actions, random.Random(rng_seed))
    return _parts(decision)


def suggest_move(view: dict[str, object], legal: list[str], rng_seed: str,
                 seconds: float) -> DecisionParts:
    """The ``hard`` bot's hint for the seat of ``view`` (runs in a worker process)."""
    actions = [Action.parse(text) for text in legal]
    decision = hint(view, actions, random.Random(rng_seed), Limit(seconds=seconds))
    return _parts(decision)
