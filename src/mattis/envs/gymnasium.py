"""Mattis as a single-agent Gymnasium environment: one seat learns, our bots play the rest.

This is what people train against: ``MattisEnv(rules="pagat", players=3, opponents="normal")``.
An opponent is a bot level (``"random"``, ``"easy"``, ``"normal"``, ``"hard"``, ``"hard:500"``)
or any policy ``policy(view, legal) -> action``: it gets its seat's
:class:`~mattis.bots.PlayerView` and the legal :class:`~mattis.Action` list, and answers one of
them (or its index), so self-play and leagues seat earlier versions of the learner.
The learner's observation is the same vector as in PettingZoo
(:func:`mattis.envs.encoding.encode_view`, kept up to date by a
:class:`~mattis.envs.encoding.SeatEncoder`); the legal moves come as ``info["action_mask"]``
and from :meth:`MattisEnv.action_masks` (the method maskable-PPO implementations call).

* Actions: ``Discrete(366)`` indices (:attr:`mattis.Action.index`).
* Reward at the end only: the learner's share of :func:`~mattis.envs.encoding.terminal_rewards`.
  With ``shaping=w`` (off, 0, by default) each step also pays ``w`` times the change of a
  potential, minus the learner's share of the cards in the hands during phase 2 (0 in phase 1
  and at the end). Shaping of this kind (potential-based, Ng et al. 1999) sums to a constant
  over an episode, so it speeds learning without changing which policy is best.
* An illegal action ends the episode at once with reward −1 (``info["illegal_action"]``),
  so random exploration is safe; the game is left as it was.
* A game still running after ``max_actions`` actions is truncated with reward 0.
* The bots see only their own seat's view (through :func:`mattis.bots.decide`, each with its
  own memory of the events so far) and get their randomness from the episode seed, so
  ``reset(seed=s)`` replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from ..extras import MissingExtra

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..bots import (
    Agent,
    CardTracker,
    Limit,
    PlayerView,
    RandomAgent,
    decide,
    make_agent,
    parse_level,
    seat_rng,
    seat_view,
)
from ..core.actions import ALL_ACTIONS, NUM_ACTIONS, Action
from ..core.game import Game
from ..core.phase import Phase
from ..core.rules import Rules
from ..i18n import Lang, parse_lang
from . import DEFAULT_MAX_ACTIONS, check_max_actions, check_players, make_rules
from .encoding import OBSERVATION_SIZE, Observation, SeatEncoder, SeatPacker, action_mask, terminal_rewards
from .render import render_in_mode

ILLEGAL_ACTION_REWARD = -1.0
"""The reward for an illegal action, which also ends the episode."""
HARD_BOT_LIMIT = Limit(iterations=200)
"""The ``hard`` opponents' budget: a fixed iteration count keeps episodes reproducible."""

Policy: TypeAlias = Callable[[PlayerView, Sequence[Action]], "Action | int"]
"""An opponent that is not one of our bots: the seat's view and its legal moves in, one of
those moves (or its :attr:`~mattis.Action.index`) out."""
Opponent: TypeAlias = "str | Policy"
"""A bot level or a :data:`Policy`."""


class MattisEnv(gymnasium.Env[Observation, np.int64]):
    """One learning seat against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 - Gymnasium declares it so

    def __init__(
        self,
        rules: str | Rules = "pagat",
        players: int = 3,
        *,
        opponents: Opponent | Sequence[Opponent] = "normal",
        seat: int = 0,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        render_mode: str | None = None,
        lang: str = "en",
        hard_limit: Limit = HARD_BOT_LIMIT,
        shaping: float = 0.0,
        **options: object,
    ) -> None:
        self.rules = make_rules(rules, options)
        self.players = check_players(self.rules, players)
        self.max_actions = check_max_actions(max_actions)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat: must be from 0 to {self.players - 1}, got {seat!r}")
        self.seat = seat
        one = isinstance(opponents, str) or callable(opponents)
        given = [opponents] * (self.players - 1) if one else list(opponents)  # type: ignore[arg-type]
        if len(given) != self.players - 1:
            raise ValueError(f"opponents: give one level or {self.players - 1} levels, got {len(given)}")
        try:
            self.opponents: tuple[str | Policy, ...] = tuple(
                opponent if callable(opponent) else parse_level(opponent) for opponent in given)
        except ValueError as error:
            raise ValueError(f"opponents: {error}") from None
        self.hard_limit = hard_limit
        if not isinstance(shaping, int | float) or isinstance(shaping, bool) or not 0 <= shaping <= 1:
            raise ValueError(f"shaping: must be a weight from 0 (off) to 1, got {shaping!r}")
        self.shaping = float(shaping)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected one of human, ansi or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.lang: Lang = parse_lang(lang)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self._bots: dict[int, tuple[Agent | Policy, random.Random, CardTracker]] = {}
        self._encoder: SeatPacker = SeatEncoder(seat, self.players, self.rules)
        self._batched = False
        """Set by a batch that writes the observations itself (:meth:`_pack`): its games need
        no vector of their own."""
        self._truncated = False
        self._ended = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and let the bots play up to the learner's first turn."""
        self._deal(seed)
        return self._observe(), self._info()

    def _deal(self, seed: int | None) -> None:
        """:meth:`reset` without the observation: the batched environment writes that into
        its own array (:meth:`_pack`)."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.game = Game.new(self.rules, self.players, seed=game_seed)
        others = [seat for seat in range(self.players) if seat != self.seat]
        self._bots = {
            seat: (opponent if callable(opponent) else
                   make_agent(opponent, self.hard_limit if opponent == "hard" else None),
                   seat_rng(game_seed, seat), CardTracker(self.players, self.rules))
            for seat, opponent in zip(others, self.opponents, strict=True)
        }
        self._encoder = (SeatPacker if self._batched else SeatEncoder)(self.seat, self.players, self.rules)
        self._truncated = False
        self._ended = False
        self._play_bots()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the bots until the learner's turn or the end."""
        reward, terminated, truncated, illegal = self._advance(action)
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        return self._observe(), reward, terminated, truncated, info

    def _advance(self, action: Any) -> tuple[float, bool, bool, bool]:
        """:meth:`step` without the observation and the info: reward, terminated, truncated and
        whether ``action`` was illegal (the batched environment reads the rest in place)."""
        game = self._require_game()
        if self._ended:
            raise RuntimeError("the episode has ended: call reset()")
        index = int(action)
        legal = game.legal_actions()
        if not 0 <= index < NUM_ACTIONS or ALL_ACTIONS[index] not in legal:
            self._ended = True
            return ILLEGAL_ACTION_REWARD, True, False, True
        shaping = self.shaping
        before = self._potential() if shaping else 0.0
        game.apply_unchecked(ALL_ACTIONS[index])  # found among the legal moves just above
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        reward = shaping * (self._potential() - before) if shaping else 0.0
        self._ended = game.is_over or self._truncated
        if game.is_over:
            losers = game.result.losers if game.result else ()
            reward += terminal_rewards(losers, self.players)[self.seat]
        return reward, game.is_over, self._truncated, False

    def _pack(self) -> list[int]:
        """The learner's observation packed for a batch's one encoding
        (:meth:`~mattis.envs.encoding.SeatPacker.pack`); the same numbers as :meth:`step`."""
        game = self._require_game()
        encoder = self._encoder
        return encoder.pack(game.seat_view(self.seat, since=encoder.count))

    def _legal_indices(self) -> list[int]:
        """The indices :meth:`action_masks` marks 1."""
        game = self._require_game()
        if game.to_move != self.seat or self._truncated:
            return []
        return [action.index for action in game.legal_actions()]

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The learner's legal actions as a 0/1 vector (all 0 once the episode has ended)."""
        game = self._require_game()
        legal = game.legal_actions() if game.to_move == self.seat and not self._truncated else []
        return action_mask([action.index for action in legal])

    def render(self) -> str | None:
        """The table as text (``ansi`` returns it, ``human`` prints it)."""
        return render_in_mode(self.render_mode, self._require_game(), self.lang, self._truncated)

    def _play_bots(self) -> None:
        game = self._require_game()
        while not game.is_over and game.to_move != self.seat:
            if game.num_actions >= self.max_actions:
                break
            seat = game.to_move
            assert seat is not None
            agent, rng, tracker = self._bots[seat]
            legal = game.legal_actions()
            if len(legal) == 1:
                game.apply_unchecked(legal[0])
            elif type(agent) is RandomAgent:  # it reads the legal moves only: build it no view
                game.apply_unchecked(rng.choice(legal))
            elif callable(agent):  # a policy (our agents are objects with a choose method)
                game.apply(_policy_move(agent, seat_view(game, seat, tracker), legal, seat))
            else:
                game.apply(decide(agent, game, rng, tracker=tracker).action)
        self._truncated = not game.is_over and game.num_actions >= self.max_actions

    def _potential(self) -> float:
        """The shaping potential: minus the learner's share of the cards held in phase 2."""
        game = self._require_game()
        if game.phase != Phase.SHED:
            return 0.0
        sizes = [game.hand_size(seat) for seat in range(self.players)]
        return -sizes[self.seat] / (sum(sizes) or 1)

    def _observe(self) -> Observation:
        encoder = self._encoder
        if not isinstance(encoder, SeatEncoder):  # a batch's game, observed alone: from its start
            encoder = self._encoder = SeatEncoder(self.seat, self.players, self.rules)
        return encoder.update(self._require_game().seat_view(self.seat, since=encoder.count)).copy()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


def _policy_move(policy: Policy, view: PlayerView, legal: Sequence[Action], seat: int) -> Action:
    """A policy's answer as one of the legal moves; anything else is the policy's bug."""
    chosen = policy(view, legal)
    if isinstance(chosen, int) and not isinstance(chosen, bool) and 0 <= chosen < NUM_ACTIONS:
        chosen = ALL_ACTIONS[chosen]
    if not isinstance(chosen, Action) or chosen not in legal:
        raise ValueError(f"opponent policy at seat {seat} answered {chosen!r}, not a legal move")
    return chosen


ENV_ID = "mattis/Mattis-v0"
"""The Gymnasium id: ``gymnasium.make("mattis/Mattis-v0", players=4, opponents="hard")``."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=MattisEnv,
                       vector_entry_point="mattis.envs.vector:MattisVectorEnv")
