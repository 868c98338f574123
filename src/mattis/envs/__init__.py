"""Mattis for reinforcement-learning and game-theory frameworks (the optional ``rl`` extra).

* :mod:`mattis.envs.pettingzoo` — ``env()``: an AEC environment, every seat an agent;
* :mod:`mattis.envs.gymnasium` — ``MattisEnv``: one seat, the others played by our bots;
* :mod:`mattis.envs.openspiel` — the OpenSpiel game ``python_mattis`` and an ISMCTS agent;
* :mod:`mattis.envs.encoding` — the numeric observation all three share.

Importing this package imports nothing heavy: numpy, PettingZoo, Gymnasium and OpenSpiel
load only with the submodule that needs them (``pip install "mattis[rl]"``). Without the
extra, importing one raises :class:`mattis.extras.MissingExtra`, an ``ImportError`` that
says what to install.
"""

from __future__ import annotations

from ..bots.runner import DEFAULT_ACTION_CAP
from ..core.rules import Rules

DEFAULT_MAX_ACTIONS = DEFAULT_ACTION_CAP
"""Actions after which an environment truncates a game (with zero rewards): the one cap
every tool uses, :data:`mattis.bots.DEFAULT_ACTION_CAP`."""


def make_rules(rules: str | Rules, options: dict[str, object]) -> Rules:
    """A preset (or given rules) with house-rule options changed; bad names or values raise
    ``ValueError`` naming the option."""
    base = rules if isinstance(rules, Rules) else Rules.preset(rules)
    return base.with_options(**options) if options else base


def check_players(rules: Rules, players: object) -> int:
    """``players`` if ``rules`` allow that many seats, else a ``ValueError`` saying the range."""
    rules.check_players(players)
    assert isinstance(players, int)
    return players


def check_max_actions(max_actions: object) -> int:
    """A positive action cap, else a ``ValueError``."""
    if not isinstance(max_actions, int) or isinstance(max_actions, bool) or max_actions < 1:
        raise ValueError(f"max_actions: must be a positive whole number, got {max_actions!r}")
    return max_actions


__all__ = ["DEFAULT_MAX_ACTIONS", "check_max_actions", "check_players", "make_rules"]
