"""Training a ``learned`` policy with maskable PPO (the optional ``train`` extra: CPU torch and
sb3-contrib).

:func:`train` seats one learner in ``envs`` :class:`~mattis.envs.gymnasium.MattisEnv` games
(learning seats spread over the table) against the given opponents, bot levels or policies
``policy(view, legal) -> action``; with several, each game gets one of them in turn, so a mix
such as ``("easy", "normal")`` trains against both at once. It runs sb3-contrib's
``MaskablePPO``, whose action distribution gets the environment's legal-move mask, and writes
the policy network as a numpy checkpoint (:func:`mattis.bots.learned.save_checkpoint`), which
the ``learned`` level plays without torch. ``mattis train`` is the command for it.

Training runs on one thread (``torch.set_num_threads(1)``): the games, not the matrix products,
take the time, and other work shares the machine's cores. The games are one batch
(:class:`~mattis.envs.vector.MattisVectorEnv`); ``workers=2`` steps them in two processes
(:class:`~mattis.envs.vector.AsyncMattisVectorEnv`), on a second core, with the same result.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..extras import MissingExtra

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error
try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as error:  # the train extra is missing: say what to install
    raise MissingExtra(__name__, "train", error.name) from error

from ..bots.learned import Policy, load_checkpoint, save_checkpoint
from ..core.rules import Rules
from .gymnasium import Opponent
from .vector import AsyncMattisVectorEnv, MattisVectorEnv

DEFAULT_HIDDEN = (128, 128)
"""The hidden layers of the policy (and, separately, of the value network): small enough for a
checkpoint of a few hundred kB, large enough to beat the ``easy`` bot."""
DEFAULT_ENVS = 8
"""Games stepped together: PPO's batch mixes their experience."""


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a training run is, for a progress line."""

    steps: int
    total: int
    seconds: float
    games: int
    mattis_rate: float | None
    """The learner's Mattis share over its last :attr:`window` finished games."""
    window: int
    game_speedup: float = 1.0
    """CPU seconds the games took in all processes over the wall-clock seconds training waited
    for them: how much faster than one process the batch stepped them (about 1 without
    workers; towards ``workers`` with them)."""
    game_share: float = 0.0
    """The share of the run's wall-clock time spent waiting for the games (the rest is PPO)."""


@dataclass(slots=True)
class TrainResult:
    """What a run made and how long it took."""

    out: Path
    steps: int
    """The model's decisions in all: this run's and those of any earlier run it goes on from
    (``model=``), each run rounded up to whole rollouts (see :attr:`rollout`)."""
    seconds: float
    games: int
    mattis_rate: float | None
    policy: Policy
    model: Any
    """The ``MaskablePPO`` model, to go on training (pass it as ``model``)."""
    meta: dict[str, str] = field(default_factory=dict)
    run_steps: int = 0
    """This run's decisions: the ``steps`` asked for, rounded up to whole rollouts."""
    rollout: int = 0
    """Decisions per PPO rollout (``n_steps`` × games at once): PPO learns from whole rollouts,
    so a run stops at the first rollout's end at or past the steps asked for (1,500 asked at
    8 games of 187 steps run 2 rollouts, 2,992 steps)."""
    game_speedup: float = 1.0
    """:attr:`Progress.game_speedup` over the whole run."""


class BatchVecEnv(VecEnv):
    """A :class:`~mattis.envs.vector.MattisVectorEnv` (or its async variant) as the
    Stable-Baselines3 ``VecEnv`` PPO steps: same-step restarts with the last observation in
    ``info["terminal_observation"]``, the legal-move masks for maskable PPO, and
    ``info["mattis"]`` (whether the learner was Mattis) when a game ends."""

    def __init__(self, batch: MattisVectorEnv) -> None:
        super().__init__(batch.num_envs, batch.single_observation_space, batch.single_action_space)
        self.batch = batch
        self._actions: npt.NDArray[np.int64] = np.zeros(batch.num_envs, dtype=np.int64)

    def reset(self) -> npt.NDArray[np.float32]:
        seeds = None if all(seed is None for seed in self._seeds) else list(self._seeds)
        observations, _ = self.batch.reset(seed=seeds)
        self._reset_seeds()
        return observations

    def step_async(self, actions: npt.NDArray[np.int64]) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                 list[dict[str, Any]]]:
        observations, rewards, terminated, truncated, info = self.batch.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for index in np.flatnonzero(dones):
            infos[index]["terminal_observation"] = info["final_obs"][index]
            infos[index]["TimeLimit.truncated"] = bool(truncated[index] and not terminated[index])
            if info["mattis"][index] >= 0:
                infos[index]["mattis"] = bool(info["mattis"][index])
        return observations, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.batch.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "render_mode":  # SB3 asks; a batch is not rendered
            return [None for _ in self._get_indices(indices)]
        return [getattr(env, attr_name) for env in self._envs(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the batch's games do not take {attr_name} from outside")

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"the batch's games answer action_masks only, not {method_name}")
        masks = self.batch.action_masks()
        return [masks[index] for index in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]],
                       indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def _envs(self, indices: Any) -> list[Any]:
        if isinstance(self.batch, AsyncMattisVectorEnv):
            raise AttributeError("the games live in the worker processes")
        return [self.batch.envs[index] for index in self._get_indices(indices)]


class _Reporter(BaseCallback):
    """Counts finished games and the learner's Mattis share; calls ``report`` now and then."""

    def __init__(self, total: int, report: Callable[[Progress], None] | None, *, every: float,
                 save: Callable[[Any], object] | None = None, save_every: int | None = None,
                 window: int = 500, minutes: float | None = None,
                 snapshot: Callable[[Any, float], object] | None = None,
                 snapshot_minutes: Sequence[float] = (),
                 clock: Callable[[], float] = time.process_time) -> None:
        super().__init__()
        self.total, self.report, self.every, self.window = total, report, every, window
        self.save, self.save_every = save, save_every
        self.next_save = save_every or 0
        self.minutes, self.snapshot, self.clock = minutes, snapshot, clock
        self.pending = sorted(snapshot_minutes)
        self.clock_start = clock()
        self.started = time.perf_counter()
        self.first = -1
        self.last = self.started
        self.games = 0
        self.outcomes: list[bool] = []

    def _on_step(self) -> bool:
        if self.first < 0:
            self.first = self.num_timesteps - self.training_env.num_envs
        for info in self.locals.get("infos", ()):
            if "mattis" in info:
                self.games += 1
                self.outcomes.append(bool(info["mattis"]))
        if len(self.outcomes) > 4 * self.window:
            del self.outcomes[:-self.window]
        if self.save is not None and self.save_every and self.num_timesteps - self.first >= self.next_save:
            self.next_save += self.save_every
            self.save(self.model)
        now = time.perf_counter()
        if self.report is not None and now - self.last >= self.every:
            self.last = now
            self.report(self.progress())
        if self.minutes is None and not self.pending:
            return True
        spent = (self.clock() - self.clock_start) / 60
        while self.pending and spent >= self.pending[0]:
            if self.snapshot is not None:
                self.snapshot(self.model, self.pending[0])
            del self.pending[0]
        return self.minutes is None or spent < self.minutes

    def progress(self) -> Progress:
        recent = self.outcomes[-self.window:]
        rate = sum(recent) / len(recent) if recent else None
        done = self.num_timesteps - max(self.first, 0)
        seconds = time.perf_counter() - self.started
        batch = getattr(self.training_env, "batch", None)
        speedup, share = 1.0, 0.0
        if isinstance(batch, MattisVectorEnv) and batch.wait_seconds > 0:
            speedup = batch.game_seconds / batch.wait_seconds
            share = min(1.0, batch.wait_seconds / seconds) if seconds > 0 else 0.0
        return Progress(min(done, self.total), self.total, seconds, self.games, rate, len(recent),
                        speedup, share)


def make_envs(opponents: Sequence[Opponent], envs: int, *, rules: str | Rules, players: int, seed: int,
              shaping: float, workers: int = 1) -> BatchVecEnv:
    """``envs`` games in one batch, game ``i`` against ``opponents[i % len]`` with the learner
    at seat ``i % players``, game ``i`` seeded ``seed + i``; with ``workers`` above 1 the games
    are split over that many processes (opponent policies must then pickle)."""
    if not opponents:
        raise ValueError("opponents: give at least one level or policy")
    if not isinstance(envs, int) or envs < 1:
        raise ValueError(f"envs: must be a positive whole number, got {envs!r}")

    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers: must be a positive whole number, got {workers!r}")
    each = [{"opponents": opponents[index % len(opponents)], "seat": index % players}
            for index in range(envs)]
    options: dict[str, Any] = {"rules": rules, "players": players, "shaping": shaping, "each": each,
                               "autoreset_mode": "same_step"}
    batch = (AsyncMattisVectorEnv(envs, workers=workers, **options) if workers > 1
             else MattisVectorEnv(envs, **options))
    vector = BatchVecEnv(batch)
    vector.seed(seed)
    return vector


def snapshot_path(out: str | Path, minutes: float) -> Path:
    """Where a run writing ``out`` keeps its policy as it stood after ``minutes`` of training:
    ``learned.npz`` → ``learned-5min.npz``."""
    path = Path(out)
    return path.with_name(f"{path.stem}-{minutes:g}min{path.suffix or '.npz'}")


def export_policy(model: Any) -> tuple[list[npt.NDArray[np.float32]], list[npt.NDArray[np.float32]], str]:
    """The policy network of a ``MaskablePPO`` MLP model as numpy layers (inputs x outputs)."""
    policy = model.policy
    layers = [module for module in policy.mlp_extractor.policy_net if isinstance(module, torch.nn.Linear)]
    layers.append(policy.action_net)
    activations = {type(module) for module in policy.mlp_extractor.policy_net
                   if not isinstance(module, torch.nn.Linear)}
    names = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}
    if len(activations) > 1 or not activations <= set(names):
        raise ValueError(f"only a tanh or relu MLP policy can be exported, got {activations}")
    activation = names[activations.pop()] if activations else "tanh"
    weights = [layer.weight.detach().cpu().numpy().T.astype(np.float32) for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().astype(np.float32) for layer in layers]
    return weights, biases, activation


def import_policy(model: Any, policy: Policy) -> None:
    """Copy a checkpoint's layers into the policy network of a fresh ``MaskablePPO`` of the
    same shape (the inverse of :func:`export_policy`)."""
    if policy.activation != "tanh":
        raise ValueError(f"start: only a tanh policy can be trained on, got {policy.activation}")
    net = model.policy.mlp_extractor.policy_net
    layers = [*(module for module in net if isinstance(module, torch.nn.Linear)), model.policy.action_net]
    if len(layers) != len(policy.weights):
        raise ValueError(f"start: the checkpoint has {len(policy.weights)} layers, the model {len(layers)}")
    with torch.no_grad():
        for layer, weight, bias in zip(layers, policy.weights, policy.biases, strict=True):
            layer.weight.copy_(torch.as_tensor(weight.T))
            layer.bias.copy_(torch.as_tensor(bias))


def new_model(vector: VecEnv, seed: int, *, hidden: Sequence[int] = DEFAULT_HIDDEN,
              n_steps: int = 256, batch_size: int = 512, learning_rate: float = 3e-4,
              ent_coef: float = 0.01) -> Any:
    """A fresh ``MaskablePPO`` on ``vector`` (tanh MLP policy and value networks); the learning
    rate falls linearly to a tenth of ``learning_rate`` over the run."""
    torch.set_num_threads(1)

    def schedule(remaining: float) -> float:
        return learning_rate * (0.1 + 0.9 * remaining)

    return MaskablePPO(
        "MlpPolicy", vector, seed=seed, device="cpu", verbose=0, n_steps=n_steps,
        batch_size=min(batch_size, n_steps * vector.num_envs), n_epochs=4, learning_rate=schedule,
        gamma=0.995, gae_lambda=0.95, ent_coef=ent_coef, clip_range=0.2,
        policy_kwargs={"net_arch": {"pi": list(hidden), "vf": list(hidden)}, "activation_fn": torch.nn.Tanh},
    )


def train(
    out: str | Path,
    opponents: Sequence[Opponent] = ("easy",),
    *,
    steps: int = 100_000,
    seed: int = 1,
    rules: str | Rules = "pagat",
    players: int = 3,
    envs: int = DEFAULT_ENVS,
    workers: int = 1,
    shaping: float = 0.3,
    hidden: Sequence[int] = DEFAULT_HIDDEN,
    dtype: str = "float16",
    report: Callable[[Progress], None] | None = None,
    report_every: float = 10.0,
    save_every: int | None = None,
    model: Any = None,
    start: Policy | None = None,
    learning_rate: float = 3e-4,
    minutes: float | None = None,
    snapshot_minutes: Sequence[float] = (),
) -> TrainResult:
    """Train for ``steps`` learner decisions and write the checkpoint to ``out``; ``report``
    gets a :class:`Progress` every ``report_every`` seconds and once at the end; with
    ``save_every``, the checkpoint is also written after every that many steps (a long run
    stopped early leaves its latest policy). ``model`` continues an earlier run's
    ``MaskablePPO`` (a curriculum: easier opponents first); ``start`` begins a new one from a
    checkpoint's policy (its layers decide ``hidden``; the value network starts afresh), for
    a run that goes on from a checkpoint file against other opponents. ``envs`` games are
    stepped as one batch (:class:`~mattis.envs.vector.MattisVectorEnv`); ``workers`` above 1
    splits them over that many processes (:class:`~mattis.envs.vector.AsyncMattisVectorEnv`),
    with the same games and the same weights for a seed.

    ``minutes`` ends the run early, at the first step after that many minutes of training
    (the process's CPU time, so a busy machine does not shorten a run; wall-clock time with
    ``workers`` above 1, where the games' CPU time is spent elsewhere); ``snapshot_minutes``
    also writes the policy as it stands at each of those minutes to :func:`snapshot_path`
    (a learning curve from one run)."""
    if not isinstance(steps, int) or steps < 1:
        raise ValueError(f"steps: must be a positive whole number, got {steps!r}")
    torch.set_num_threads(1)
    vector = make_envs(opponents, envs, rules=rules, players=players, seed=seed, shaping=shaping,
                       workers=workers)
    n_steps = max(8, min(256, steps // envs))
    if model is None:
        if start is not None:
            hidden = [weight.shape[1] for weight in start.weights[:-1]]
        model = new_model(vector, seed, hidden=hidden, n_steps=n_steps, learning_rate=learning_rate)
        if start is not None:
            import_policy(model, start)
    else:
        model.set_env(vector)
    names = [opponent if isinstance(opponent, str) else getattr(opponent, "__name__", "policy")
             for opponent in opponents]
    meta = {"opponents": ",".join(names), "seed": str(seed), "players": str(players),
            "rules": rules if isinstance(rules, str) else rules.preset_name or "custom",
            "hidden": ",".join(str(size) for size in hidden)}

    def save(current: Any) -> Path:
        weights, biases, activation = export_policy(current)
        return save_checkpoint(out, weights, biases, activation, dtype=dtype,
                               meta={**meta, "steps": str(current.num_timesteps)})

    def snapshot(current: Any, at: float) -> Path:
        weights, biases, activation = export_policy(current)
        return save_checkpoint(snapshot_path(out, at), weights, biases, activation, dtype=dtype,
                               meta={**meta, "steps": str(current.num_timesteps), "minutes": f"{at:g}"})

    for value in (minutes, *snapshot_minutes):
        if value is not None and not value > 0:
            raise ValueError(f"minutes: must be above 0, got {value!r}")
    reporter = _Reporter(steps, report, every=report_every, save=save, save_every=save_every,
                         minutes=minutes, snapshot=snapshot, snapshot_minutes=snapshot_minutes,
                         clock=time.process_time if workers == 1 else time.perf_counter)
    before = model.num_timesteps
    try:
        model.learn(total_timesteps=steps, callback=reporter, reset_num_timesteps=False)
    except BaseException:
        vector.close()  # the workers, if any, go with the run
        raise
    progress = reporter.progress()
    if report is not None:
        report(progress)
    meta["seconds"] = f"{progress.seconds:.0f}"
    path = save(model)
    meta["steps"] = str(model.num_timesteps)
    vector.close()
    return TrainResult(path, model.num_timesteps, progress.seconds, progress.games, progress.mattis_rate,
                       load_checkpoint(path), model, meta, game_speedup=progress.game_speedup,
                       run_steps=model.num_timesteps - before, rollout=model.n_steps * vector.num_envs)
