"""Mattis as a PettingZoo AEC environment, in the classic-games convention.

``env(rules="pagat", players=3, **options)`` gives the wrapped environment (illegal moves end
the game with −1 for the offender, out-of-range actions are refused, the call order is
enforced); ``raw_env`` is the bare one, which raises ``ValueError`` on an illegal move.

* Agents ``player_0`` … ``player_{n-1}`` are the seats; ``agent_selection`` is the seat to
  move (Mattis does not go round in a fixed order: tricks are won, ties replayed).
* Actions: ``Discrete(366)``, the index is :attr:`mattis.Action.index` (cards 0-51, same-suit
  sequences 52-363, ``chance`` 364, ``pickup`` 365).
* Observations: ``{"observation": float32[OBSERVATION_SIZE], "action_mask": int8[366]}``,
  the observation :func:`mattis.envs.encoding.encode_view` gives for the seat's own view,
  kept up to date per seat by a :class:`~mattis.envs.encoding.SeatEncoder` (fed only the
  events since that seat's last observation), so a step costs the same all game long.
* Rewards only at the end: :func:`mattis.envs.encoding.terminal_rewards` (−1 for Mattis,
  the others share +1).
* A game still running after ``max_actions`` actions is truncated, all rewards 0.
"""

from __future__ import annotations

import operator
import random
from typing import Any, ClassVar

from ..extras import MissingExtra

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..core.actions import ALL_ACTIONS, NUM_ACTIONS
from ..core.game import Game
from ..core.rules import Rules
from ..i18n import Lang, parse_lang
from . import DEFAULT_MAX_ACTIONS, check_max_actions, check_players, make_rules
from .encoding import OBSERVATION_SIZE, SeatEncoder, action_mask, terminal_rewards
from .render import render_in_mode

ILLEGAL_MOVE_REWARD = -1.0
"""What the wrapped environment gives a seat that plays an illegal action (the game ends)."""


def env(
    rules: str | Rules = "pagat",
    players: int = 3,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    render_mode: str | None = None,
    lang: str = "en",
    **options: object,
) -> AECEnv:
    """The wrapped environment; ``options`` are house rules, e.g. ``min_sequence=3``.

    It behaves as the classic games' stack of PettingZoo wrappers (``TerminateIllegal``,
    ``AssertOutOfBounds``, ``OrderEnforcing``), with the first two done in place
    (:class:`_CheckedEnv`) and the order check forwarding the attributes read at every
    step directly (:class:`_OrderEnforced`): three layers of generic forwarding cost more
    than a whole Mattis step.
    """
    return _OrderEnforced(_CheckedEnv(rules, players, max_actions=max_actions, render_mode=render_mode,
                                      lang=lang, **options))


class raw_env(AECEnv):  # PettingZoo's naming convention for the unwrapped class
    """The bare AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "mattis_v0", "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Rules = "pagat",
        players: int = 3,
        *,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        render_mode: str | None = None,
        lang: str = "en",
        **options: object,
    ) -> None:
        super().__init__()
        self.rules = make_rules(rules, options)
        self.players = check_players(self.rules, players)
        self.max_actions = check_max_actions(max_actions)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected one of human, ansi or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.lang: Lang = parse_lang(lang)
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {agent: self._observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self._seeds: random.Random | None = None
        self.game: Game | None = None
        self._encoders: list[SeatEncoder] = []
        self._truncated = False

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. With ``seed`` the deal is ``Game.new(rules, players, seed=seed)``
        and later unseeded resets continue a sequence drawn from it; without any seed ever,
        deals come from fresh entropy. ``options`` is accepted for the API and unused."""
        if seed is not None:
            game_seed = operator.index(seed)  # numpy integers too; a float or text is refused
            self._seeds = random.Random(game_seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random()
            game_seed = self._seeds.getrandbits(63)
        self.game = Game.new(self.rules, self.players, seed=game_seed)
        self._encoders = [SeatEncoder(seat, self.players, self.rules) for seat in range(self.players)]
        self._truncated = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._settle()

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's encoded view; the mask is all 0 unless it is the agent's turn."""
        game = self._require_game()
        seat = self._seats[agent]
        encoder = self._encoders[seat]
        legal = game.legal_actions() if game.to_move == seat and not self._truncated else []
        return {
            "observation": encoder.update(game.seat_view(seat, since=encoder.count)).copy(),
            "action_mask": action_mask([action.index for action in legal]),
        }

    def step(self, action: Any) -> None:
        """Play ``action`` (an index) for ``agent_selection``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        index = int(action)
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"action: must be an index from 0 to {NUM_ACTIONS - 1}, got {action!r}")
        game.apply(ALL_ACTIONS[index])  # IllegalAction (a ValueError) says why
        self._after_move(agent)

    def _after_move(self, agent: str) -> None:
        """The rewards and the next agent after ``agent`` moved."""
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """Point at the seat to move, or end the game (terminated or truncated)."""
        game = self._require_game()
        if game.is_over:
            losers = game.result.losers if game.result else ()
            for agent, reward in zip(self.agents, terminal_rewards(losers, self.players), strict=True):
                self.rewards[agent] = reward
                self.terminations[agent] = True
        elif game.num_actions >= self.max_actions:
            self._truncated = True
            for agent in self.agents:
                self.truncations[agent] = True
        else:
            self.agent_selection = self.possible_agents[game.to_move or 0]
        # At the end agent_selection stays on the last mover; agent_iter then visits every
        # agent once more so each can see its final reward and step(None).

    def render(self) -> str | None:
        """The table as text (``ansi`` returns it, ``human`` prints it)."""
        return render_in_mode(self.render_mode, self._require_game(), self.lang, self._truncated)

    def close(self) -> None:
        """Nothing to release."""

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


class _CheckedEnv(raw_env):
    """:class:`raw_env` that ends the game with :data:`ILLEGAL_MOVE_REWARD` for an illegal
    move and asserts that actions lie in the action space: what PettingZoo's
    ``TerminateIllegalWrapper`` and ``AssertOutOfBoundsWrapper`` do, done in place."""

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        dead = self.terminations[agent] or self.truncations[agent]
        assert (action is None and dead) or _in_action_space(action), "action is not in action space"
        if dead:
            self._was_dead_step(action)
            return
        game = self._require_game()
        move = ALL_ACTIONS[int(action)]
        if move in game.legal_actions():
            game.apply_unchecked(move)  # just checked
            self._after_move(agent)
        else:
            EnvLogger.warn_on_illegal_move()
            self._cumulative_rewards[agent] = 0
            self.terminations = dict.fromkeys(self.agents, True)
            self.truncations = dict.fromkeys(self.agents, True)
            self.rewards = dict.fromkeys(self.truncations, 0)
            self.rewards[agent] = float(ILLEGAL_MOVE_REWARD)
            self._accumulate_rewards()
            self._deads_step_first()


def _in_action_space(action: Any) -> bool:
    """``Discrete(NUM_ACTIONS).contains(action)``, without its NumPy conversions for ints."""
    if isinstance(action, int):
        return 0 <= action < NUM_ACTIONS
    if isinstance(action, np.generic | np.ndarray) and np.issubdtype(action.dtype, np.integer):
        return action.shape == () and 0 <= int(action) < NUM_ACTIONS
    return False


def _forwarded(name: str) -> property:
    """An attribute of the wrapped environment, refused before ``reset`` as
    ``OrderEnforcingWrapper`` refuses it."""

    def get(self: _OrderEnforced) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get)


class _OrderEnforced(OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the attributes every step reads found
    directly, not through its ``__getattr__``."""

    agents = _forwarded("agents")
    agent_selection = _forwarded("agent_selection")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        """``OrderEnforcingWrapper.step``, calling the wrapped environment directly."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``, reading the wrapped environment once."""
        agent = self.agent_selection  # refused before reset, as in AECEnv.last
        env = self.env
        return (env.observe(agent) if observe else None, env._cumulative_rewards[agent],
                env.terminations[agent], env.truncations[agent], env.infos[agent])

    def __str__(self) -> str:
        return str(self.env)
