"""Tests of the single-agent Gymnasium environment (``mattis.envs.gymnasium``): one seat
learns, our bots play the others.

1. Gymnasium's own ``check_env`` passes for every preset (through ``gymnasium.make`` too).
2. Episodes are reproducible from ``reset(seed=...)``, bots included, and end with the
   learner's share of the rewards (−1 when it is Mattis).
3. An illegal action ends the episode with −1 and leaves the game as it was; the action cap
   truncates; bad arguments fail with one clear error.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mattis.bots import Limit
from mattis.envs.gymnasium import ENV_ID, MattisEnv


@pytest.mark.parametrize(("preset", "players", "opponents"),
                         [("pagat", 3, "normal"), ("kortregler", 2, "easy"), ("app", 5, "random")])
def test_gymnasium_check_env_passes(preset: str, players: int, opponents: str) -> None:
    environment = gymnasium.make(ENV_ID, rules=preset, players=players, opponents=opponents)
    assert isinstance(environment.unwrapped, MattisEnv)
    check_env(environment.unwrapped)


def test_the_registered_id_makes_a_checked_environment() -> None:
    environment = gymnasium.make(ENV_ID, players=4, opponents="random", render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(environment.unwrapped)


def run_episode(environment: MattisEnv, seed: int) -> tuple[list[int], float, bool, bool]:
    """Random legal learner moves to the end; returns the actions, last reward and flags."""
    rng = np.random.default_rng(seed)
    _, info = environment.reset(seed=seed)
    actions = []
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        _, reward, terminated, truncated, info = environment.step(action)
        if terminated or truncated:
            return actions, reward, terminated, truncated


def test_an_episode_is_reproducible_from_its_seed_and_scored_for_the_learner() -> None:
    environment = MattisEnv(players=4, opponents=["normal", "easy", "random"], seat=2)
    first = run_episode(environment, seed=11)
    assert environment.game is not None
    record = environment.game.record()
    assert run_episode(environment, seed=11) == first
    assert environment.game.record() == record
    _, reward, terminated, _ = first
    result = environment.game.result
    assert terminated and result is not None
    assert reward == (-1.0 if 2 in result.losers else pytest.approx(1 / 3))


def test_hard_opponents_search_a_fixed_budget_so_episodes_replay() -> None:
    environment = MattisEnv(players=3, opponents=["hard", "normal"], max_actions=40,
                            hard_limit=Limit(iterations=30))
    first = run_episode(environment, seed=4)
    assert environment.game is not None
    record = environment.game.record()
    assert run_episode(environment, seed=4) == first
    assert environment.game.record() == record


def test_bots_play_until_the_learners_turn() -> None:
    environment = MattisEnv(players=5, opponents="normal", seat=3)
    _, info = environment.reset(seed=1)
    assert environment.game is not None and environment.game.to_move == 3
    assert info["action_mask"].sum() == len(environment.game.legal_actions())
    assert np.array_equal(environment.action_masks(), info["action_mask"])


def test_an_illegal_action_ends_the_episode_with_minus_one() -> None:
    environment = MattisEnv(players=3, opponents="random")
    _, info = environment.reset(seed=5)
    assert environment.game is not None
    before = environment.game.record()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert environment.game.record() == before
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(0)


def test_the_action_cap_truncates_with_zero_reward() -> None:
    environment = MattisEnv(players=3, opponents="random", max_actions=8)
    _, reward, terminated, truncated = run_episode(environment, seed=2)
    assert (reward, terminated, truncated) == (0.0, False, True)


def test_bad_arguments_fail_with_one_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        MattisEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="give one level or 2 levels, got 3"):
        MattisEnv(players=3, opponents=["easy", "easy", "easy"])
    with pytest.raises(ValueError, match="seat: must be from 0 to 2"):
        MattisEnv(players=3, seat=3)
    with pytest.raises(ValueError, match="players: app allows 3-6 players"):
        MattisEnv(rules="app", players=2)
