"""Batched and self-play training (issue 17, item 3): the vector environment, opponents that
are any policy, and the optional reward shaping.

1. ``MattisVectorEnv`` steps N games at once with Gymnasium's vector conventions: batched
   observations and masks, game ``i`` seeded ``seed + i`` (the same games as N single
   environments), and ``NEXT_STEP`` autoreset; ``gymnasium.make_vec`` builds it.
2. An opponent may be a callable ``policy(view, legal) -> action``: it sees its own seat's
   view only, and an answer that is not a legal move is its bug, said in one error.
3. Shaping is off by default; on, it pays the change of a potential that starts and ends
   at 0, so an episode's rewards still add up to the result's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest

from mattis import Action
from mattis.bots import PlayerView
from mattis.envs.encoding import OBSERVATION_SIZE
from mattis.envs.gymnasium import ENV_ID, MattisEnv
from mattis.envs.vector import MattisVectorEnv


def first_legal(masks: np.ndarray) -> np.ndarray:
    """The lowest legal action of each game (0 for a game with no legal move)."""
    return np.array([int(np.flatnonzero(row)[0]) if row.any() else 0 for row in masks])


def test_a_batch_is_the_same_games_as_single_environments_seeded_one_apart() -> None:
    batch = MattisVectorEnv(3, players=3, opponents="easy")
    singles = [MattisEnv(players=3, opponents="easy") for _ in range(3)]
    observations, info = batch.reset(seed=40)
    assert observations.shape == (3, OBSERVATION_SIZE) and observations.dtype == np.float32
    assert info["action_mask"].shape == (3, 366)
    for index, single in enumerate(singles):
        alone, alone_info = single.reset(seed=40 + index)
        assert np.array_equal(observations[index], alone)
        assert np.array_equal(info["action_mask"][index], alone_info["action_mask"])
    for _ in range(25):
        actions = first_legal(info["action_mask"])
        observations, rewards, terminated, truncated, info = batch.step(actions)
        for index, single in enumerate(singles):
            if terminated[index] or truncated[index]:
                return  # the batch restarts it next step; the single one would need reset()
            alone, reward, _, _, alone_info = single.step(actions[index])
            assert np.array_equal(observations[index], alone) and rewards[index] == reward
            assert np.array_equal(batch.action_masks()[index], alone_info["action_mask"])


def test_a_finished_game_restarts_at_the_next_step_with_reward_zero() -> None:
    batch = MattisVectorEnv(2, rules="kortregler", players=2, opponents="random")
    _, info = batch.reset(seed=5)
    finished = 0
    for _ in range(3_000):
        _, rewards, terminated, truncated, info = batch.step(first_legal(info["action_mask"]))
        ended = terminated | truncated
        if ended.any():
            index = int(np.flatnonzero(ended)[0])
            assert rewards[index] in (-1.0, 1.0) or truncated[index]
            assert not info["action_mask"][index].any()  # no legal move once it ended
            _, rewards, terminated, truncated, info = batch.step(np.full(2, 9_999))
            assert rewards[index] == 0.0 and not terminated[index] and not truncated[index]
            assert info["action_mask"][index].any() and not info["illegal_action"][index]
            restarted = batch.envs[index].game
            assert restarted is not None and restarted.num_actions < 20
            finished += 1
            if finished == 3:
                return
    pytest.fail("no game ended")


def test_make_vec_builds_the_batch_and_a_seed_replays_it() -> None:
    def trajectory() -> list[float]:
        batch = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="vector_entry_point",
                                   opponents="normal")
        assert isinstance(batch, MattisVectorEnv)
        _, info = batch.reset(seed=9)
        sums = []
        for _ in range(40):
            observations, rewards, _, _, info = batch.step(first_legal(info["action_mask"]))
            sums.append(float(observations.sum()) + float(rewards.sum()))
        return sums

    assert trajectory() == trajectory()


def test_bad_batch_arguments_fail_with_one_clear_error() -> None:
    with pytest.raises(ValueError, match="num_envs: must be a positive whole number"):
        MattisVectorEnv(0)
    batch = MattisVectorEnv(2)
    batch.reset(seed=1)
    with pytest.raises(ValueError, match="need one per game"):
        batch.step([0, 0, 0])
    with pytest.raises(ValueError, match="give one number or 2 seeds"):
        batch.reset(seed=[1])


def test_an_opponent_may_be_any_policy_that_sees_its_own_seat_only() -> None:
    seen: list[tuple[int, int]] = []

    def last_move(view: PlayerView, legal: Sequence[Action]) -> Action:
        seen.append((view.public.seat, len(legal)))
        assert view.public.hand_cards and all(isinstance(action, Action) for action in legal)
        return legal[-1]

    def by_index(view: PlayerView, legal: Sequence[Action]) -> int:
        return legal[0].index

    environment = MattisEnv(players=4, opponents=[last_move, "easy", by_index])
    _, info = environment.reset(seed=3)
    for _ in range(30):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = environment.step(int(legal[0]))
        if terminated or truncated:
            break
    assert seen and {seat for seat, _ in seen} == {1}  # the policy sat at seat 1 only

    def cheater(view: PlayerView, legal: Sequence[Action]) -> str:
        return "not a move"

    environment = MattisEnv(players=3, opponents=cheater, seat=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="opponent policy at seat 0 answered 'not a move'"):
        environment.reset(seed=1)


def test_shaping_is_off_by_default_and_on_keeps_the_episode_total() -> None:
    def episode(shaping: float) -> list[float]:
        environment = MattisEnv(players=3, opponents="easy", shaping=shaping)
        _, info = environment.reset(seed=12)
        rewards = []
        while True:
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, reward, terminated, truncated, info = environment.step(action)
            rewards.append(reward)
            if terminated or truncated:
                return rewards

    plain, shaped = episode(0.0), episode(0.5)
    assert all(reward == 0.0 for reward in plain[:-1]) and plain[-1] != 0.0
    assert len(shaped) == len(plain)  # shaping changes rewards, never the game
    assert any(reward != 0.0 for reward in shaped[:-1])
    assert sum(shaped) == pytest.approx(sum(plain))
    with pytest.raises(ValueError, match="shaping: must be a weight from 0"):
        MattisEnv(shaping=2.0)


def test_every_tool_and_environment_caps_games_at_the_one_documented_default() -> None:
    """Issue 17 item 7: one action cap, ``mattis.bots.DEFAULT_ACTION_CAP``, everywhere."""
    import inspect

    from mattis.bots import DEFAULT_ACTION_CAP, play_game
    from mattis.cli.lab import lab_command
    from mattis.cli.simulate import simulate_command
    from mattis.cli.tournament import tournament_command
    from mattis.envs import DEFAULT_MAX_ACTIONS
    from mattis.envs import pettingzoo as aec
    from mattis.tools.lab import play_lab_game, run_lab
    from mattis.tools.simulate import play_random_game, simulate
    from mattis.tools.tournament import run_tournament

    def default(function: object, name: str) -> object:
        return inspect.signature(function).parameters[name].default  # type: ignore[arg-type]

    assert DEFAULT_ACTION_CAP == DEFAULT_MAX_ACTIONS == 2_000
    for function in (play_game, simulate, play_random_game, run_tournament, run_lab, play_lab_game,
                     simulate_command, tournament_command, lab_command):
        assert default(function, "action_cap") == DEFAULT_ACTION_CAP, function
    for maker in (MattisEnv, aec.env):
        assert default(maker, "max_actions") == DEFAULT_ACTION_CAP, maker


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly drawn legal action of each game (0 for a game with no legal move)."""
    return np.asarray(np.argmax(np.where(masks > 0, rng.random(masks.shape), -1.0), axis=1))


def test_the_batch_writes_the_single_environments_numbers_bit_for_bit_over_whole_games() -> None:
    """Issue 30 item 5: one batched encoding into preallocated arrays, the same observations,
    masks and rewards as single environments (learners at different seats, restarts
    included), written in place when ``copy=False``."""
    each: list[dict[str, Any]] = [{"seat": 0}, {"seat": 1, "opponents": "easy"}, {"seat": 2}]
    batch = MattisVectorEnv(3, each=each, players=3, opponents="random", copy=False)
    singles = [MattisEnv(**{"players": 3, "opponents": "random", **options}) for options in each]
    observations, info = batch.reset(seed=70)
    assert observations is batch.arrays.observations  # the preallocated array itself
    expected = [single.reset(seed=70 + index) for index, single in enumerate(singles)]
    restart = [False] * 3
    finished = [0] * 3
    rng = np.random.default_rng(4)
    for _ in range(1_500):
        for index, (alone, alone_info) in enumerate(expected):
            assert observations[index].tobytes() == alone.tobytes()
            assert info["action_mask"][index].tobytes() == alone_info["action_mask"].tobytes()
        actions = random_legal(info["action_mask"], rng)
        observations, rewards, terminated, truncated, info = batch.step(actions)
        for index, single in enumerate(singles):
            if restart[index]:
                alone, alone_info = single.reset()
                reward, done, cut = 0.0, False, False
            else:
                alone, reward, done, cut, alone_info = single.step(int(actions[index]))
            expected[index] = (alone, alone_info)
            assert (rewards[index], terminated[index], truncated[index]) == (reward, done, cut)
            restart[index] = done or cut
            finished[index] += done or cut
        if min(finished) >= 2:
            return
    pytest.fail(f"games finished: {finished}")


def test_the_async_batch_answers_what_the_sync_batch_answers_for_a_seed() -> None:
    """Two worker processes writing into shared memory: the same numbers as one process,
    with the same-step restarts training uses."""
    from mattis.envs.vector import AsyncMattisVectorEnv

    options: dict[str, Any] = {"players": 2, "rules": "kortregler", "opponents": "random",
                               "autoreset_mode": "same_step"}
    sync = MattisVectorEnv(3, **options)
    batch = AsyncMattisVectorEnv(3, workers=2, **options)
    try:
        answers = [sync.reset(seed=11), batch.reset(seed=11)]
        rng = np.random.default_rng(2)
        ended = 0
        for _ in range(400):
            assert np.array_equal(answers[0][0], answers[1][0])
            for key in ("action_mask", "mattis", "illegal_action"):
                assert np.array_equal(answers[0][1][key], answers[1][1][key]), key
            actions = random_legal(answers[0][1]["action_mask"], rng)
            steps = [sync.step(actions), batch.step(actions)]
            for got, want in zip(steps[1][:4], steps[0][:4], strict=True):
                assert np.array_equal(np.asarray(got), np.asarray(want))
            if steps[0][4].get("_final_obs", np.zeros(1, bool)).any():
                assert np.array_equal(steps[0][4]["final_obs"], steps[1][4]["final_obs"])
                ended += 1
            answers = [(step[0], step[4]) for step in steps]
        assert ended >= 2
    finally:
        batch.close()


def test_a_batch_process_polls_a_while_then_sleeps_until_its_message_comes() -> None:
    """The async batch's processes poll for the next message (``SPIN_SECONDS``) before they
    sleep on it: a message already there, one that comes while polling and one that comes
    long after the polling gave up all arrive, in order."""
    import multiprocessing
    import threading

    from mattis.envs.vector import _receive

    mine, theirs = multiprocessing.Pipe()
    theirs.send("waiting")
    assert _receive(mine, 0.001) == "waiting"
    later = threading.Timer(0.0005, theirs.send, args=("while polling",))
    later.start()
    assert _receive(mine, 0.05) == "while polling"
    much_later = threading.Timer(0.05, theirs.send, args=("after polling",))
    much_later.start()
    assert _receive(mine, 0.0001) == "after polling"
    later.join()
    much_later.join()


def test_random_opponents_play_the_moves_they_would_play_with_a_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment lets a ``random`` bot pick from the legal moves without building its
    seat view (it reads none): the games are the same as when it gets one."""
    from mattis.bots import RandomAgent

    class Viewing(RandomAgent):
        """``random`` as any other agent: asked through its seat view."""

    def play(environment: MattisEnv) -> list[bytes]:
        observation, info = environment.reset(seed=21)
        seen = [observation.tobytes()]
        for _ in range(400):
            action = int(first_legal(info["action_mask"][None])[0])
            observation, _, terminated, truncated, info = environment.step(action)
            seen.append(observation.tobytes())
            if terminated or truncated:
                observation, info = environment.reset()
                seen.append(observation.tobytes())
        return seen

    plain = play(MattisEnv(players=4, opponents="random"))
    monkeypatch.setattr("mattis.envs.gymnasium.make_agent", lambda level, limit=None: Viewing())
    viewing = MattisEnv(players=4, opponents="random")
    assert play(viewing) == plain
    assert all(type(agent) is Viewing for agent, _, _ in viewing._bots.values())
