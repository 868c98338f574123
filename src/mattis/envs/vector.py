"""N Mattis games stepped at once, with Gymnasium's vector conventions (the ``rl`` extra).

``MattisVectorEnv(num_envs=16, players=3, opponents="normal")`` holds ``num_envs``
:class:`~mattis.envs.gymnasium.MattisEnv` games and answers batches: observations of shape
``(num_envs, OBSERVATION_SIZE)``, rewards, ``terminated`` and ``truncated`` of shape
``(num_envs,)``, and the legal moves as ``info["action_mask"]`` of shape ``(num_envs, 366)``
(also from :meth:`MattisVectorEnv.action_masks`, for maskable PPO).

One step writes every game's observation and mask in place into one preallocated
``(num_envs, 1349)`` and one ``(num_envs, 366)`` array, each straight from the game's
:class:`~mattis.envs.encoding.SeatEncoder` (which reads the learner's seat view and nothing
else): no per-game arrays, info dicts or concatenation. ``copy=False`` hands out those arrays
themselves (valid until the next step) instead of copies.

:class:`AsyncMattisVectorEnv` is the same batch split over worker processes (``workers=2`` by
default, one per core), each stepping its share of the games into shared memory; it returns
exactly what :class:`MattisVectorEnv` returns for the same seed.

Finished games restart by themselves, the way ``gymnasium.vector`` does by default
(``AutoresetMode.NEXT_STEP``): the step that ends a game returns its last observation; the
next step ignores that game's action, deals a new game and returns its first observation
with reward 0. With ``autoreset_mode=AutoresetMode.SAME_STEP`` (what Stable-Baselines3
expects) the ending step deals the next game at once and returns its first observation; the
last one is in ``info["final_obs"]`` (rows flagged by ``info["_final_obs"]``).
``reset(seed=s)`` seeds game ``i`` with ``s + i``, so a batch replays exactly.
``gymnasium.make_vec("mattis/Mattis-v0", num_envs=16, vectorization_mode="vector_entry_point")``
builds one too. ``each=[{...}, ...]`` gives game ``i`` its own options (its seat, its
opponents) on top of the shared ones.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
from .encoding import OBSERVATION_SIZE, SLICES, rules_vector, unpack_into
from .gymnasium import MattisEnv

RULES_SLOTS = SLICES["rules"]
SPIN_SECONDS = 0.001
"""How long a process of an async batch polls for its next message before it sleeps on it. A
sleeping process wakes up about 50 microseconds later than a polling one (measured on our 2-core
test machine), which it does twice a step; a millisecond of polling covers the usual wait between
steps and costs nothing when the other core has nothing else to do (training runs on one
thread)."""
NO_OUTCOME, NOT_MATTIS, MATTIS = -1, 0, 1
"""``info["mattis"]`` per game: the learner's game did not end at this step, ended with the
learner not Mattis, or with the learner Mattis."""


@dataclass(frozen=True, slots=True)
class _Arrays:
    """Every per-game number a step answers, one row per game; the workers of an async batch
    write their rows of the same (shared) memory."""

    observations: npt.NDArray[np.float32]
    final_observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.int8]
    actions: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float64]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    illegal: npt.NDArray[np.bool_]
    ended: npt.NDArray[np.bool_]
    mattis: npt.NDArray[np.int8]

    FIELDS = (
        ("observations", np.float32, OBSERVATION_SIZE), ("final_observations", np.float32, OBSERVATION_SIZE),
        ("masks", np.int8, NUM_ACTIONS), ("actions", np.int64, 0), ("rewards", np.float64, 0),
        ("terminated", np.bool_, 0), ("truncated", np.bool_, 0), ("illegal", np.bool_, 0),
        ("ended", np.bool_, 0), ("mattis", np.int8, 0))

    @classmethod
    def over(cls, buffers: Sequence[Any], num_envs: int) -> _Arrays:
        """Arrays viewing ``buffers`` (bytearrays or shared memory), one per field."""
        arrays = []
        for buffer, (_, dtype, width) in zip(buffers, cls.FIELDS, strict=True):
            array: npt.NDArray[Any] = np.frombuffer(buffer, dtype=dtype)
            arrays.append(array.reshape(num_envs, width) if width else array)
        return cls(*arrays)

    @classmethod
    def sizes(cls, num_envs: int) -> list[int]:
        """Bytes of each field's buffer."""
        return [num_envs * max(width, 1) * np.dtype(dtype).itemsize for _, dtype, width in cls.FIELDS]

    def rows(self, start: int, stop: int) -> _Arrays:
        """The same arrays cut to games ``start`` to ``stop - 1`` (views, not copies)."""
        return _Arrays(*(getattr(self, name)[start:stop] for name, _, _ in self.FIELDS))


class _Games:
    """Some games of a batch, stepped into their rows of the batch's arrays: each game plays
    on in Python, then one batched encoding writes every observation
    (:func:`~mattis.envs.encoding.unpack_into`) and one indexed store every mask."""

    def __init__(self, options: Sequence[Mapping[str, Any]], arrays: _Arrays, same_step: bool) -> None:
        self.envs = [MattisEnv(**dict(option)) for option in options]
        for env in self.envs:
            env._batched = True  # the batch writes their observations: no vector per game
        self.arrays = arrays
        self.same_step = same_step
        self._games = np.arange(len(self.envs))
        for index, env in enumerate(self.envs):  # the rules block never changes: written once
            arrays.observations[index, RULES_SLOTS] = arrays.final_observations[index, RULES_SLOTS] = (
                rules_vector(env.rules))

    def reset(self, seeds: Sequence[int | None], options: dict[str, Any] | None) -> None:
        arrays = self.arrays
        for env, seed in zip(self.envs, seeds, strict=True):
            env._deal(seed)
        self._observe([env._pack() for env in self.envs])
        for flags in (arrays.terminated, arrays.truncated, arrays.illegal, arrays.ended):
            flags[:] = False
        arrays.rewards[:] = 0.0
        arrays.mattis[:] = NO_OUTCOME

    def step(self) -> None:
        arrays = self.arrays
        actions, ended = arrays.actions.tolist(), arrays.ended.tolist()
        same_step = self.same_step
        rewards: list[float] = []
        terminated: list[bool] = []
        truncated: list[bool] = []
        illegal: list[bool] = []
        mattis: list[int] = []
        packs: list[list[int]] = []
        final_packs: list[list[int]] = []
        finals: list[int] = []
        for index, env in enumerate(self.envs):
            if ended[index]:  # NEXT_STEP: the game that ended last step restarts now
                env._deal(None)
                reward, done, cut, wrong = 0.0, False, False, False
            else:
                reward, done, cut, wrong = env._advance(actions[index])
            rewards.append(reward)
            terminated.append(done)
            truncated.append(cut)
            illegal.append(wrong)
            game = env.game
            mattis.append(NO_OUTCOME if not done or game is None or game.result is None
                          else MATTIS if env.seat in game.result.losers else NOT_MATTIS)
            if (done or cut) and same_step:
                final_packs.append(env._pack())
                finals.append(index)
                env._deal(None)
                ended[index] = False
            else:
                ended[index] = done or cut
            packs.append(env._pack())
        arrays.rewards[:] = rewards
        arrays.terminated[:] = terminated
        arrays.truncated[:] = truncated
        arrays.illegal[:] = illegal
        arrays.mattis[:] = mattis
        arrays.ended[:] = ended
        if finals:
            unpack_into(final_packs, arrays.final_observations, np.array(finals, dtype=np.intp))
        self._observe(packs)

    def _observe(self, packs: list[list[int]]) -> None:
        """Every game's observation and legal-move mask, each written by one batched call."""
        arrays = self.arrays
        unpack_into(packs, arrays.observations)
        columns: list[int] = []
        counts: list[int] = []
        for env in self.envs:
            legal = env._legal_indices()
            columns += legal
            counts.append(len(legal))
        masks = arrays.masks
        masks.fill(0)
        masks[np.repeat(self._games, counts), columns] = 1


class MattisVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` games against bots or policies, stepped together in this process (module
    docstring); every other keyword is :class:`~mattis.envs.gymnasium.MattisEnv`'s."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - Gymnasium declares it so

    def __init__(self, num_envs: int = 8, *, each: Sequence[Mapping[str, Any]] | None = None,
                 copy: bool = True, autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 **env_options: Any) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs: must be a positive whole number, got {num_envs!r}")
        if env_options.get("render_mode") is not None:
            raise ValueError("render_mode: render one MattisEnv instead of a whole batch")
        if each is not None and len(each) != num_envs:
            raise ValueError(f"each: give one dict of options per game ({num_envs}), got {len(each)}")
        mode = (AutoresetMode[autoreset_mode.upper()] if isinstance(autoreset_mode, str)
                and autoreset_mode.upper() in AutoresetMode.__members__ else AutoresetMode(autoreset_mode))
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode: next_step or same_step, got {mode.value}")
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.num_envs = num_envs
        self.copy = copy
        self.options = [{**env_options, **(each[index] if each else {})} for index in range(num_envs)]
        first = MattisEnv(**self.options[0])
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self.game_seconds = 0.0
        """CPU seconds spent stepping the games so far, summed over every process."""
        self.wait_seconds = 0.0
        """Wall-clock seconds :meth:`step` waited for them: ``game_seconds / wait_seconds`` is
        how many cores the games kept busy (about 1 for this class, more with workers)."""
        self._buffers = self._allocate(_Arrays.sizes(num_envs))
        self.arrays = _Arrays.over(self._buffers, num_envs)
        self._start()

    def _allocate(self, sizes: list[int]) -> list[Any]:
        return [bytearray(size) for size in sizes]

    def _start(self) -> None:
        same_step = self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        self._games = _Games(self.options, self.arrays, same_step)
        self.envs = self._games.envs

    def _reset_games(self, seeds: list[int | None], options: dict[str, Any] | None) -> None:
        self._games.reset(seeds, options)

    def _step_games(self) -> None:
        started = time.process_time()
        self._games.step()
        self.game_seconds += time.process_time() - started

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
        self._reset_games(seeds, options)
        return self._out(self.arrays.observations), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_],
               npt.NDArray[np.bool_], dict[str, Any]]:
        """One action per game (ignored for a game that restarts at this step)."""
        chosen = np.asarray(actions).reshape(-1)
        if chosen.shape[0] != self.num_envs:
            raise ValueError(f"actions: need one per game ({self.num_envs}), got {chosen.shape[0]}")
        arrays = self.arrays
        arrays.actions[:] = chosen
        started = time.perf_counter()
        self._step_games()
        self.wait_seconds += time.perf_counter() - started
        return (self._out(arrays.observations), self._out(arrays.rewards), self._out(arrays.terminated),
                self._out(arrays.truncated), self._infos())

    def action_masks(self) -> npt.NDArray[np.int8]:
        """Each game's legal actions as 0/1 rows (a finished game's row is all 0 until it
        restarts at the next step)."""
        return self.arrays.masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in this process."""

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _infos(self) -> dict[str, Any]:
        arrays = self.arrays
        infos = {"action_mask": self._out(arrays.masks), "illegal_action": arrays.illegal.copy(),
                 "_illegal_action": arrays.illegal.copy(), "mattis": arrays.mattis.copy(),
                 "_mattis": arrays.mattis >= 0}
        if self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP:
            ended = arrays.terminated | arrays.truncated
            infos["final_obs"] = arrays.final_observations.copy()
            infos["_final_obs"] = ended
        return infos


class AsyncMattisVectorEnv(MattisVectorEnv):
    """:class:`MattisVectorEnv` with its games split over ``workers`` processes that write
    into shared memory: the same numbers for the same seed, on several cores. This process is
    the first of them (it steps its share while the others step theirs), so ``workers=2``
    starts one more process and keeps two cores busy."""

    def __init__(self, num_envs: int = 8, *, workers: int = 2, **options: Any) -> None:
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ValueError(f"workers: must be a positive whole number, got {workers!r}")
        self.workers = min(workers, num_envs) if isinstance(num_envs, int) else workers
        self._pipes: list[Any] = []
        self._processes: list[Any] = []
        super().__init__(num_envs, **options)

    def _allocate(self, sizes: list[int]) -> list[Any]:
        context = multiprocessing.get_context("spawn")  # no fork of a parent's threads (torch)
        return [context.RawArray("b", size) for size in sizes]

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        bounds = np.linspace(0, self.num_envs, self.workers + 1).astype(int).tolist()
        self._bounds = list(itertools.pairwise(bounds))
        same_step = self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        for start, stop in self._bounds[1:]:
            mine, theirs = context.Pipe()
            share = {"start": start, "stop": stop, "options": self.options[start:stop],
                     "same_step": same_step}
            process = context.Process(target=_work, daemon=True, args=(theirs, self._buffers, self.num_envs),
                                      kwargs=share)
            process.start()
            theirs.close()
            self._pipes.append(mine)
            self._processes.append(process)
        start, stop = self._bounds[0]
        self._games = _Games(self.options[start:stop], self.arrays.rows(start, stop), same_step)
        self._await()

    def _await(self) -> float:
        """The workers' CPU seconds for the command they were sent, once all have answered."""
        try:
            answers = [_receive(pipe) for pipe in self._pipes]
        except EOFError:  # a worker died (killed, or its start failed before it could answer)
            raise RuntimeError("a worker of the batch stopped") from None
        errors = [answer for answer in answers if isinstance(answer, str)]
        if errors:
            raise RuntimeError(f"a worker of the batch failed: {errors[0]}")
        return float(sum(answers))

    def _reset_games(self, seeds: list[int | None], options: dict[str, Any] | None) -> None:
        for pipe, (start, stop) in zip(self._pipes, self._bounds[1:], strict=True):
            pipe.send(("reset", seeds[start:stop], options))
        start, stop = self._bounds[0]
        self._games.reset(seeds[start:stop], options)
        self._await()

    def _step_games(self) -> None:
        for pipe in self._pipes:
            pipe.send(("step", None, None))
        super()._step_games()  # this process's share, meanwhile
        self.game_seconds += self._await()

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the workers."""
        for pipe in self._pipes:
            with contextlib.suppress(OSError):  # that worker is gone already
                pipe.send(("close", None, None))
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
        self._pipes, self._processes = [], []

    def __del__(self) -> None:
        if getattr(self, "_processes", None):
            self.close()


def _work(pipe: Any, buffers: list[Any], num_envs: int, *, start: int, stop: int,
          options: list[dict[str, Any]], same_step: bool) -> None:
    """A worker: games ``start`` to ``stop - 1`` of the batch, stepped on command into their
    rows of the shared arrays; answers the CPU seconds it took, or the error's text."""
    try:
        games = _Games(options, _Arrays.over(buffers, num_envs).rows(start, stop), same_step)
    except Exception as error:  # the parent raises it
        pipe.send(repr(error))
        return
    pipe.send(0.0)
    while True:
        command, seeds, reset_options = _receive(pipe)
        if command == "close":
            return
        started = time.process_time()
        try:
            if command == "reset":
                games.reset(seeds, reset_options)
            else:
                games.step()
        except Exception as error:  # the parent raises it
            pipe.send(repr(error))
        else:
            pipe.send(time.process_time() - started)


def _receive(pipe: Any, spin_seconds: float = SPIN_SECONDS) -> Any:
    """The next message on ``pipe``: polled for up to ``spin_seconds``, then waited for."""
    deadline = time.perf_counter() + spin_seconds
    while not pipe.poll() and time.perf_counter() < deadline:
        pass
    return pipe.recv()
