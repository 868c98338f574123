"""N Mattis games stepped at once, with Gymnasium's vector conventions (the ``rl`` extra).

``MattisVectorEnv(num_envs=16, players=3, opponents="normal")`` holds ``num_envs``
:class:`~mattis.envs.gymnasium.MattisEnv` games and answers batches: observations of shape
``(num_envs, OBSERVATION_SIZE)``, rewards, ``terminated`` and ``truncated`` of shape
``(num_envs,)``, and the legal moves as ``info["action_mask"]`` of shape ``(num_envs, 366)``
(also from :meth:`MattisVectorEnv.action_masks`, for maskable PPO).

Finished games restart by themselves, the way ``gymnasium.vector`` does by default
(``AutoresetMode.NEXT_STEP``): the step that ends a game returns its last observation; the
next step ignores that game's action, deals a new game and returns its first observation
with reward 0. ``reset(seed=s)`` seeds game ``i`` with ``s + i``, so a batch replays exactly.
``gymnasium.make_vec("mattis/Mattis-v0", num_envs=16, vectorization_mode="vector_entry_point")``
builds one too.
Each game writes its observation straight into the batch array: nothing is copied twice.
"""

from __future__ import annotations

from typing import Any

from ..extras import MissingExtra

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..core.actions import NUM_ACTIONS
from .encoding import OBSERVATION_SIZE
from .gymnasium import MattisEnv


class MattisVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` games against bots or policies, stepped together (module docstring);
    every keyword is :class:`~mattis.envs.gymnasium.MattisEnv`'s."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - Gymnasium declares it so

    def __init__(self, num_envs: int = 8, **env_options: Any) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs: must be a positive whole number, got {num_envs!r}")
        if env_options.get("render_mode") is not None:
            raise ValueError("render_mode: render one MattisEnv instead of a whole batch")
        self.num_envs = num_envs
        self.envs = [MattisEnv(**env_options) for _ in range(num_envs)]
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self._observations = np.zeros((num_envs, OBSERVATION_SIZE), dtype=np.float32)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._restart = np.zeros(num_envs, dtype=np.bool_)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new game everywhere; ``seed`` is one number (game ``i`` gets ``seed + i``)
        or one seed per game."""
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: give one number or {self.num_envs} seeds, got {len(seeds)}")
        for index, (env, game_seed) in enumerate(zip(self.envs, seeds, strict=True)):
            self._observations[index], info = env.reset(seed=game_seed, options=options)
            self._masks[index] = info["action_mask"]
        self._restart[:] = False
        self._illegal[:] = False
        return self._observations.copy(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_],
               npt.NDArray[np.bool_], dict[str, Any]]:
        """One action per game (ignored for a game that restarts at this step)."""
        chosen = np.asarray(actions).reshape(-1)
        if chosen.shape[0] != self.num_envs:
            raise ValueError(f"actions: need one per game ({self.num_envs}), got {chosen.shape[0]}")
        for index, env in enumerate(self.envs):
            if self._restart[index]:
                self._observations[index], info = env.reset()
                reward, terminated, truncated = 0.0, False, False
            else:
                self._observations[index], reward, terminated, truncated, info = env.step(chosen[index])
            self._masks[index] = info["action_mask"]
            self._rewards[index] = reward
            self._terminated[index] = terminated
            self._truncated[index] = truncated
            self._illegal[index] = bool(info.get("illegal_action", False))
            self._restart[index] = terminated or truncated
        return (self._observations.copy(), self._rewards.copy(), self._terminated.copy(),
                self._truncated.copy(), self._infos())

    def action_masks(self) -> npt.NDArray[np.int8]:
        """Each game's legal actions as 0/1 rows (a finished game's row is all 0 until it
        restarts at the next step)."""
        return self._masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in this process."""

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._masks.copy(), "illegal_action": self._illegal.copy(),
                "_illegal_action": self._illegal.copy()}

