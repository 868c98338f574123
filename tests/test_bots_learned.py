"""The ``learned`` level (issue 17, item 4; issue 27, item 3): a trained network played with
numpy alone, by default the shipped ``master`` network's policy path.

The shipped policy loads and plays whole games legally in every preset and player count,
its logits are the master network's policy head, a checkpoint or a network file both load,
always the same move for a view; the numpy inference is the torch policy's (when torch is
installed); the web server offers the level and the offline app, which has no numpy, does not.
Without numpy, choosing it is one line (tests/test_install.py runs the commands so).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mattis import Game, Rules
from mattis.bots import BASE_LEVELS, LEARNED, LEVELS, PlayerView, available_levels, make_agent, play_game
from mattis.bots.learned import (
    CheckpointError,
    LearnedAgent,
    Policy,
    load_checkpoint,
    policy_of_network,
    save_checkpoint,
    shipped_policy,
)
from mattis.bots.network import SHIPPED_NETWORK, random_network, save_network, shipped_network
from mattis.bots.rule_based import RandomAgent
from mattis.core.actions import NUM_ACTIONS
from mattis.core.rules import PRESET_NAMES
from mattis.envs.encoding import OBSERVATION_SIZE, SeatEncoder, encode_view
from mattis.extras import install_command, installed
from mattis.i18n import Lang
from mattis.tools.tournament import run_tournament
from tests.test_install import run_blocked

HAS_TORCH = installed("torch") and installed("sb3_contrib")


def shipped_path() -> Path:
    """The file the shipped policy comes from: the master network's."""
    return Path(str(resources.files("mattis").joinpath("data", SHIPPED_NETWORK)))


def positions(seed: int, players: int = 3, preset: str = "pagat") -> list[tuple[Game, int]]:
    """Positions of one random game, each with the seat to move (at least two legal moves)."""
    rng = random.Random(seed)
    game = Game.new(preset, players, seed=seed)
    found: list[tuple[Game, int]] = []
    while not game.is_over and game.num_actions < 400:
        legal = game.legal_actions()
        if len(legal) > 1 and game.to_move is not None:
            found.append((Game.from_record(game.record()), game.to_move))
        game.apply(rng.choice(legal))
    return found


# ---------------------------------------------------------------------------- the shipped policy


def test_the_shipped_policy_is_the_master_networks_policy_path_and_fits_the_encoding() -> None:
    """One fact in one place: the level's weights are those of master.npz (no file of its own)."""
    assert not resources.files("mattis").joinpath("data", "learned.npz").is_file()
    policy = shipped_policy()
    network = shipped_network()
    assert policy.weights[0].shape[0] == OBSERVATION_SIZE and policy.weights[-1].shape[1] == NUM_ACTIONS
    assert policy.activation == "relu" and len(policy.weights) == len(network.trunk_weights) + 1
    assert policy.weights[-1] is network.policy_weight  # the network's arrays, not a copy
    assert policy.parameters == network.parameters - network.value_weight.size - network.value_bias.size
    assert load_checkpoint(None) is policy  # built once per process
    assert "learned" in LEVELS and make_agent("learned").name == "learned"


@pytest.mark.parametrize("hidden", [(), (64,), (32, 16)])
def test_the_policy_of_a_network_gives_its_policy_heads_logits(hidden: tuple[int, ...]) -> None:
    """On views of real games (and on a batch of them), the policy's logits are the network's
    policy head's, and its move is the network's legal move of highest logit."""
    network = random_network(7 + len(hidden), hidden)
    policy = policy_of_network(network)
    views = [encode_view(PlayerView.from_dict(game.view(seat))) for game, seat in positions(11)[::4]]
    batch = np.stack(views)
    assert np.allclose(policy.logits(batch), network.forward(batch)[0], rtol=1e-6, atol=1e-6)
    for (game, _), observation in zip(positions(11)[::4], views, strict=True):
        legal = [action.index for action in game.legal_actions()]
        logits = network.forward(observation)[0]
        assert policy.best(observation, legal) == max(legal, key=lambda index: (logits[index], -index))
    assert policy.meta["seed"] == network.meta["seed"]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_learned_bot_plays_whole_games_legally_at_every_player_count(preset: str) -> None:
    """Every preset and player count: the learned bot takes every seat of one game and sits
    among random players in another; each game ends (no cap) and every move was legal (the
    engine refuses an illegal one)."""
    rules = Rules.preset(preset)
    for players in range(rules.min_players, rules.max_players + 1):
        alone = [make_agent("learned") for _ in range(players)]
        mixed = [make_agent("learned"), *(RandomAgent() for _ in range(players - 1))]
        for seed, agents in ((players, alone), (100 + players, mixed)):
            played = play_game(Game.new(rules, players, seed=seed), agents, seed=seed)
            if agents is mixed:  # the random seats break any loop of the deterministic ones
                assert played.game.is_over and not played.capped, (preset, players)
            assert played.capped or played.game.is_over
            assert len(played.decisions) > 0


def test_the_agent_is_deterministic_for_a_view_and_uses_only_the_view() -> None:
    """The same view gives the same move whatever the generator; the move is the legal action
    of highest logit for encode_view of that view (the lowest index on a tie)."""
    agent = LearnedAgent()
    checked = 0
    for game, seat in positions(5)[::3]:
        legal = game.legal_actions()
        view = PlayerView.from_dict(game.view(seat))
        moves = {agent.choose(view, legal, random.Random(seed)).action for seed in range(3)}
        assert len(moves) == 1
        logits = shipped_policy().logits(encode_view(view))
        best = max(legal, key=lambda action: (logits[action.index], -action.index))
        assert moves == {best}
        assert agent.choose(PlayerView.from_dict(json.loads(json.dumps(game.view(seat)))), legal,
                            random.Random(9)).action is best
        checked += 1
    assert checked > 10


def test_ties_go_to_the_lowest_index() -> None:
    weights = [np.zeros((OBSERVATION_SIZE, NUM_ACTIONS), dtype=np.float32)]
    biases = [np.zeros(NUM_ACTIONS, dtype=np.float32)]
    biases[0][[7, 40, 41]] = [1.0, 2.0, 2.0]
    policy = Policy(weights, biases, "tanh")
    observation = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    assert policy.best(observation, [41, 3, 40, 7]) == 40
    assert policy.best(observation, [9, 3]) == 3


def test_a_file_that_is_no_checkpoint_is_refused_saying_why(tmp_path: Path) -> None:
    text = tmp_path / "notes.npz"
    text.write_text("not a checkpoint", encoding="utf-8")
    with pytest.raises(CheckpointError, match="cannot read"):
        load_checkpoint(text)
    other = tmp_path / "other.npz"
    np.savez(other, w0=np.zeros((3, 3)))
    with pytest.raises(CheckpointError, match="not a Mattis policy checkpoint nor network file"):
        load_checkpoint(other)
    headless = tmp_path / "headless.npz"  # a network file without its policy head
    arrays = dict(np.load(save_network(tmp_path / "whole.npz", random_network(1))))
    np.savez(headless, **{key: value for key, value in arrays.items() if not key.startswith("policy_")})
    with pytest.raises(CheckpointError, match="no policy_w, policy_b"):
        load_checkpoint(headless)
    with pytest.raises(CheckpointError, match="does not follow"):
        save_checkpoint(tmp_path / "bad.npz", [np.zeros((10, NUM_ACTIONS))], [np.zeros(NUM_ACTIONS)], "tanh")
    with pytest.raises(CheckpointError, match="one per action"):
        save_checkpoint(tmp_path / "bad.npz", [np.zeros((OBSERVATION_SIZE, 5))], [np.zeros(5)], "relu")


def test_a_saved_checkpoint_loads_back_with_its_numbers(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    weights = [rng.normal(size=(OBSERVATION_SIZE, 16)), rng.normal(size=(16, NUM_ACTIONS))]
    biases = [rng.normal(size=16), rng.normal(size=NUM_ACTIONS)]
    exact = load_checkpoint(save_checkpoint(tmp_path / "a.npz", weights, biases, "relu", dtype="float32",
                                            meta={"note": "test"}))
    assert np.array_equal(exact.weights[0], weights[0].astype(np.float32)) and exact.meta == {"note": "test"}
    half = load_checkpoint(save_checkpoint(tmp_path / "b.npz", weights, biases, "relu"))
    assert np.array_equal(half.weights[1], weights[1].astype(np.float16).astype(np.float32))
    observation = rng.random(OBSERVATION_SIZE).astype(np.float32)
    hidden = np.maximum(observation @ weights[0] + biases[0], 0) @ weights[1] + biases[1]
    assert np.allclose(exact.logits(observation), hidden, rtol=1e-4, atol=1e-3)


def test_a_network_file_loads_as_its_policy_path(tmp_path: Path) -> None:
    """``learned:FILE.npz`` takes a master network file as well as a checkpoint (its policy
    path, the value head unused), with the same logits as the network read directly."""
    network = random_network(5, (32,))
    path = save_network(tmp_path / "net.npz", network, dtype="float32")
    policy = load_checkpoint(path)
    observation = encode_view(PlayerView.from_dict(positions(3)[4][0].view(positions(3)[4][1])))
    assert policy.activation == "relu"
    assert np.allclose(policy.logits(observation), network.forward(observation)[0], rtol=1e-6, atol=1e-6)
    game = Game.new("pagat", 3, seed=4)
    played = play_game(game, [LearnedAgent(policy), RandomAgent(), RandomAgent()], seed=4)
    assert played.game.is_over


def test_a_tournament_seats_a_checkpoint_file_and_names_it(tmp_path: Path) -> None:
    path = tmp_path / "copy.npz"
    path.write_bytes(shipped_path().read_bytes())
    rules = Rules.preset("pagat")
    given = run_tournament(rules, 3, ["learned", "random", "random"], 6, seed=2, learned_checkpoint=str(path))
    shipped = run_tournament(rules, 3, ["learned", "random", "random"], 6, seed=2)
    assert given.to_dict()["learned_checkpoint"] == str(path)
    assert shipped.to_dict()["learned_checkpoint"] is None
    assert [o.losers for o in given.outcomes] == [o.losers for o in shipped.outcomes]  # the same network
    with pytest.raises(ValueError, match=r"learned checkpoint: no checkpoint file .*missing\.npz"):
        run_tournament(rules, 3, ["learned", "random", "random"], 3, seed=2,
                       learned_checkpoint=str(tmp_path / "missing.npz"))


# ---------------------------------------------------------------------------- where it is offered


def test_the_web_offers_the_learned_level_and_the_offline_app_does_not() -> None:
    from mattis.table import table_profile
    from mattis.web import pwa  # here, not above: CI's train venv runs the torch test without the web
    from mattis.web.app import device_levels, options_payload
    labels: tuple[tuple[Lang, str], ...] = (("nb", "maskinlært"), ("en", "learned"))
    for lang, label in labels:
        served = {item["level"]: item for item in options_payload(lang)["levels"]}
        assert list(served) == list(LEVELS)
        assert served["learned"]["label"] == label and served["learned"]["description"]
        offered = options_payload(lang, table_profile("device"), on_device=True)["levels"]
        device = [item["level"] for item in offered]
        assert device == list(device_levels())  # the numpy-free levels, and master with its network
        assert "learned" not in device and device[:len(BASE_LEVELS)] == list(BASE_LEVELS)
    kept = {item.url: item for item in pwa.app_files(lambda lang: "", options_payload, lambda lang: {})}
    for lang in ("nb", "en"):
        levels = [item["level"] for item in json.loads(kept[f"/api/options?lang={lang}"].data)["levels"]]
        assert levels == list(device_levels())


def test_the_offline_apps_python_does_not_offer_the_learned_level(tmp_path: Path) -> None:
    """The worker's own package, on a Python with only the standard library (as Pyodide has):
    ``learned`` is not among the levels that can play, and a table refuses it."""
    from mattis.web import pwa

    archive = tmp_path / "mattis.zip"
    archive.write_bytes(pwa.package_zip())
    code = f"""
import sys
class OnlyTheStandardLibrary:
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top not in sys.stdlib_module_names and top != "mattis":
            raise ModuleNotFoundError(name, name=name)
        return None
sys.meta_path.insert(0, OnlyTheStandardLibrary())
sys.path.insert(0, {str(archive)!r})
from mattis.bots import available_levels
from mattis.table.errors import Refusal
from mattis.table import session
print(",".join(available_levels()))
try:
    session._requested_seats([{{"kind": "human"}}, {{"kind": "bot", "level": "learned"}}], 2)
except Refusal as error:
    print("refused", error)
"""
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=120,
                          check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.split(",") == list(BASE_LEVELS)
    assert second.startswith("refused") and "learned" not in second


def test_without_numpy_the_level_is_not_available_and_a_table_refuses_it() -> None:
    code = """from tests.test_install import BLOCKER
exec(BLOCKER)
from mattis.bots import available_levels, make_agent
from mattis.table.errors import Refusal
from mattis.table import session
print(",".join(available_levels()))
try:
    make_agent("learned")
except ImportError as error:
    print(type(error).__name__, error)
try:
    session._requested_seats([{"kind": "human"}, {"kind": "bot", "level": "learned"}], 2)
except Refusal as error:
    print("refused")
"""
    done = run_blocked(code, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        ",".join(BASE_LEVELS),
        f'MissingExtra mattis.bots.learned needs the rl extra: {install_command("rl")}',
        "refused",
    ]
    assert LEARNED in available_levels()  # here numpy is installed


# ---------------------------------------------------------------------------- torch


@pytest.mark.skipif(not HAS_TORCH, reason="the train extra (torch, sb3-contrib) is not installed")
def test_the_numpy_inference_is_the_torch_policy_of_the_same_checkpoint(tmp_path: Path) -> None:
    """A short training run writes a float32 checkpoint whose numpy logits and chosen moves
    are MaskablePPO's own (its deterministic predict with the legal-move mask) on observations
    from real games, and the float16 one almost always picks the same moves; a run started
    from the checkpoint (``start``) begins with its very policy."""
    import torch

    from mattis.envs.train import train

    result = train(tmp_path / "tiny.npz", opponents=("easy", "random"), steps=256, envs=2, seed=4,
                   dtype="float32")
    model: Any = result.model
    assert result.policy.meta["opponents"] == "easy,random"
    assert (result.steps, result.run_steps, result.rollout) == (256, 256, 256)  # 2 games × 128 steps
    policy = load_checkpoint(result.out)
    observations, masks = [], []
    for game, seat in positions(8) + positions(9, 4):
        encoder = SeatEncoder(seat, game.players, game.rules)
        observations.append(encoder.update(game.seat_view(seat)).copy())
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[[action.index for action in game.legal_actions()]] = True
        masks.append(mask)
    batch, allowed = np.stack(observations), np.stack(masks)
    with torch.no_grad():
        tensor = torch.as_tensor(batch)
        features = model.policy.mlp_extractor.forward_actor(model.policy.extract_features(tensor))
        torch_logits = model.policy.action_net(features).numpy()
    assert np.allclose(policy.logits(batch), torch_logits, rtol=1e-5, atol=1e-5)
    predicted, _ = model.predict(batch, deterministic=True, action_masks=allowed)
    ours = [policy.best(row, np.flatnonzero(mask).tolist()) for row, mask in zip(batch, allowed, strict=True)]
    assert ours == predicted.tolist()
    half = load_checkpoint(save_checkpoint(tmp_path / "half.npz", policy.weights, policy.biases,
                                           policy.activation))
    same = [half.best(row, np.flatnonzero(mask).tolist()) == move
            for row, mask, move in zip(batch, allowed, ours, strict=True)]
    assert sum(same) >= 0.9 * len(same)
    # --start: a new model begins from the checkpoint's policy, layer for layer
    again = train(tmp_path / "again.npz", opponents=("random",), steps=17, envs=2, seed=5, start=policy,
                  learning_rate=1e-9, dtype="float32")
    assert np.allclose(again.policy.logits(batch), policy.logits(batch), atol=1e-4)
    # the steps counted: 17 asked make two whole rollouts of 2 games × 8 steps; a run that goes
    # on from a model (model=) rounds up to that model's rollouts, and counts its steps too
    assert (again.run_steps, again.rollout, again.steps) == (32, 16, 32)
    more = train(tmp_path / "more.npz", opponents=("random",), steps=17, envs=2, seed=6, model=model)
    assert (more.run_steps, more.rollout, more.steps) == (256, 256, 512)


@pytest.mark.skipif(not HAS_TORCH, reason="the train extra (torch, sb3-contrib) is not installed")
def test_mattis_train_says_what_its_steps_count(tmp_path: Path) -> None:
    """The steps asked for and the whole rollouts they were rounded up to (issue 30.6: 1,500
    asked printed 5,984 with no word why)."""
    from typer.testing import CliRunner

    from mattis.cli.app import app

    out = tmp_path / "tiny.npz"
    result = CliRunner().invoke(app, ["train", "--opponents", "random", "--steps", "17", "--envs", "2",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert (" after 32 steps of the learner (17 asked, rounded up to whole PPO rollouts of 16: "
            "2 games × 8 steps) and ") in result.stdout
    assert load_checkpoint(out).meta["steps"] == "32"


@pytest.mark.skipif(not HAS_TORCH, reason="the train extra (torch, sb3-contrib) is not installed")
def test_train_refuses_to_start_from_a_master_network_saying_why(tmp_path: Path) -> None:
    """PPO trains tanh layers: a network file plays as ``learned:FILE`` but cannot be ``--start``."""
    from typer.testing import CliRunner

    from mattis.cli.app import app

    out = tmp_path / "from-master.npz"
    result = CliRunner().invoke(app, ["train", "--out", str(out), "--steps", "16", "--envs", "2",
                                      "--start", str(shipped_path())])
    assert result.exit_code != 0 and not out.exists()
    assert "--start:" in result.output and "relu policy (a master network file is one)" in result.output


@pytest.mark.skipif(not HAS_TORCH, reason="the train extra (torch, sb3-contrib) is not installed")
def test_train_with_two_workers_learns_the_same_weights_and_says_its_speed_up(tmp_path: Path) -> None:
    """Issue 30 item 5: ``mattis train --envs 4 --workers 2`` steps the batch in two processes,
    reports the games' speed-up, and writes the very checkpoint one process writes."""
    from typer.testing import CliRunner

    from mattis.cli.app import app
    from mattis.envs.train import train

    out = tmp_path / "two.npz"
    result = CliRunner().invoke(app, ["train", "--out", str(out), "--steps", "64", "--envs", "4",
                                      "--workers", "2", "--opponents", "random", "--seed", "3",
                                      "--float32"])
    assert result.exit_code == 0, result.output
    assert "4 in one batch, 2 worker processes" in result.stdout
    assert "cores busy, a speed-up of" in result.stdout and "learner decisions" in result.stdout
    alone = train(tmp_path / "one.npz", opponents=("random",), steps=64, envs=4, workers=1, seed=3,
                  dtype="float32")
    two = load_checkpoint(out)
    assert alone.steps == 64 and two.meta["steps"] == "64"
    mine_all, theirs_all = two.weights + two.biases, alone.policy.weights + alone.policy.biases
    for mine, theirs in zip(mine_all, theirs_all, strict=True):
        assert np.array_equal(mine, theirs)


@pytest.mark.skipif(not HAS_TORCH, reason="the train extra (torch, sb3-contrib) is not installed")
def test_train_stops_after_its_minutes_and_keeps_snapshots_on_the_way(tmp_path: Path) -> None:
    """Issue 30.3's learning curve: ``--minutes`` ends a run on its CPU time before its steps,
    and ``--snapshot-minutes`` leaves the policy as it stood at each of those minutes (one
    that the run never reached is said, not written)."""
    from typer.testing import CliRunner

    from mattis.cli.app import app
    from mattis.envs.train import snapshot_path

    out = tmp_path / "curve.npz"
    result = CliRunner().invoke(app, ["train", "--opponents", "random", "--steps", "1000000", "--envs", "2",
                                      "--minutes", "0.02", "--snapshot-minutes", "0.005,50",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "(stopped at --minutes 0.02)" in result.stdout
    steps = int(load_checkpoint(out).meta["steps"])
    assert 0 < steps < 1_000_000
    early = snapshot_path(out, 0.005)
    assert early == tmp_path / "curve-0.005min.npz"
    snapshot = load_checkpoint(early)
    assert snapshot.meta["minutes"] == "0.005" and int(snapshot.meta["steps"]) <= steps
    assert f"snapshot after 0.005 min: {early}" in result.stdout
    assert "no snapshot after 50 min: the run ended before" in result.stdout
    assert not snapshot_path(out, 50).exists()


def test_train_refuses_snapshot_minutes_it_cannot_read(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from mattis.cli.app import app

    result = CliRunner().invoke(app, ["train", "--snapshot-minutes", "5,soon",
                                      "--out", str(tmp_path / "x.npz")])
    assert result.exit_code != 0
    if HAS_TORCH:
        assert "--snapshot-minutes: give minutes separated by commas" in result.output
