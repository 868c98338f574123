"""The master network's search data and its training (issue 27, item 1): ``mattis train --level master``.

The data tests need numpy alone; the training tests need the ``train`` extra (torch), which only
the train venv has.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from mattis.bots.encoding import MAX_SEATS, encode_view
from mattis.bots.ismcts import IsmctsAgent
from mattis.bots.network import load_network
from mattis.bots.protocol import Limit
from mattis.bots.runner import seat_view
from mattis.cli.app import app
from mattis.core.game import Game
from mattis.core.rules import Rules
from mattis.envs.guided_data import (
    DataError,
    DataSettings,
    GameData,
    generate,
    play_search_game,
    read_shard,
    shard_path,
    stored_games,
)
from mattis.extras import installed

HAS_TORCH = installed("torch")
ITERATIONS = 12
"""A tiny search budget: the tests check what is recorded, not how well it plays."""


def settings(seed: int = 5, players: tuple[int, ...] = (3,)) -> DataSettings:
    return DataSettings.of(Rules.preset("pagat"), players, iterations=ITERATIONS, seed=seed)


def replay_and_check(data: GameData, rules: Rules) -> Game:
    """Play the recorded game again from its deal, checking at every recorded decision that the
    row is the deciding seat's own view, its legal moves and a full search's visits."""
    game = Game.new(rules, data.players, seed=data.game_seed)
    row = 0
    while not game.is_over:
        legal = game.legal_actions()
        if len(legal) == 1:
            game.apply(legal[0])
            continue
        seat = game.to_move
        assert seat is not None and seat == data.seats[row]
        np.testing.assert_array_equal(data.observations[row], encode_view(seat_view(game, seat)))
        indices = [action.index for action in legal]
        assert data.legal[row, :len(indices)].tolist() == indices
        assert (data.legal[row, len(indices):] == -1).all()
        visits = data.visits[row, :len(indices)]
        assert visits.sum() == ITERATIONS  # every simulation passes through one root move
        best = max(range(len(legal)), key=lambda k: (visits[k], -indices[k]))
        game.apply(legal[best])
        row += 1
    assert row == data.positions
    return game


@pytest.mark.parametrize("players", [3, 4])
def test_each_row_is_the_deciding_seats_own_view_and_the_targets_name_the_loser(players: int) -> None:
    chosen = settings(players=(players,))
    data = play_search_game(chosen, 0)
    assert data.players == players and not data.capped and data.positions > 20
    game = replay_and_check(data, chosen.resolved_rules)
    # P2.9: the last player still in is Mattis; the targets count seats from the decider.
    (loser,) = game.losers
    for row, seat in enumerate(data.seats.tolist()):
        expected = [1.0 if (seat + offset) % players == loser else 0.0 for offset in range(MAX_SEATS)]
        expected[players:] = [0.0] * (MAX_SEATS - players)
        assert data.losers[row].tolist() == expected
        assert data.present[row].tolist() == [1.0] * players + [0.0] * (MAX_SEATS - players)


def test_the_same_seed_gives_the_same_data_bit_for_bit_and_a_stopped_run_goes_on(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    result = generate(whole, settings(), 3)
    assert result.played == 3 and stored_games(whole) == [0, 1, 2]
    parts = tmp_path / "parts"
    generate(parts, settings(), 1)
    resumed = generate(parts, settings(), 3)
    assert (resumed.played, resumed.skipped) == (2, 1)
    for game in range(3):
        first, second = read_shard(shard_path(whole, game)), read_shard(shard_path(parts, game))
        for name in ("observations", "legal", "visits", "losers", "present", "seats"):
            mine, theirs = getattr(first, name), getattr(second, name)
            assert mine.dtype == theirs.dtype and mine.tobytes() == theirs.tobytes()
        assert first.game_seed == second.game_seed
    other = read_shard(shard_path(whole, 1))
    assert other.game_seed != read_shard(shard_path(whole, 0)).game_seed


def test_a_folder_of_other_settings_is_refused(tmp_path: Path) -> None:
    generate(tmp_path, settings(seed=5), 1)
    with pytest.raises(DataError, match="seed"):
        generate(tmp_path, settings(seed=6), 1)


def test_root_visits_is_the_search_choose_runs() -> None:
    """The hook returns the tree :meth:`IsmctsAgent.choose` grows: its most visited move is the
    move choose plays, for the same generator state."""
    game = Game.new("pagat", 3, seed=21)
    while len(game.legal_actions()) == 1:
        game.apply(game.legal_actions()[0])
    seat = game.to_move
    assert seat is not None
    view, legal = seat_view(game, seat), game.legal_actions()
    agent = IsmctsAgent(Limit(iterations=60), early_stop=False)
    found = agent.root_visits(view, legal, random.Random(4))
    decision = agent.choose(view, legal, random.Random(4))
    assert found.actions == tuple(legal) and sum(found.visits) == found.iterations == 60
    best = max(range(len(legal)), key=lambda k: (found.visits[k], -legal[k].index))
    assert decision.action == legal[best]


def test_train_level_master_refuses_the_options_of_learned(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "--level", "master", "--steps", "10",
                                      "--out", str(tmp_path / "m.npz")])
    assert result.exit_code == 2
    assert "--steps applies to --level learned only" in result.stderr


@pytest.mark.skipif(not HAS_TORCH, reason="the train extra (torch) is not installed")
def test_a_tiny_master_run_writes_a_loadable_network_and_its_figures(tmp_path: Path) -> None:
    out = tmp_path / "master.npz"
    summary = tmp_path / "run.json"
    result = CliRunner().invoke(app, [
        "train", "--level", "master", "--games", "2", "--search-iterations", str(ITERATIONS),
        "--epochs", "1", "--seed", "3", "--out", str(out), "--summary", str(summary), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.stdout and "CPU hours" in result.stdout
    network = load_network(out)
    assert network.meta["games"] == "2" and network.meta["trained"] == "search data"
    assert out.stat().st_size <= 2 * 1024 * 1024
    figures = json.loads(summary.read_text(encoding="utf-8"))
    assert figures["games"] == 2 and figures["holdout_positions"] > 0 and figures["train_positions"] > 0
    assert 0.0 <= figures["holdout"]["agreement"] <= 1.0
    assert stored_games(tmp_path / "master-data") == [0, 1]
    # The network reads a view and gives priors over the legal moves and six risks.
    game = Game.new("pagat", 3, seed=2)
    assert game.to_move is not None
    legal = [action.index for action in game.legal_actions()]
    evaluation = network.evaluate(encode_view(seat_view(game, game.to_move)), legal)
    assert evaluation.priors.shape == (len(legal),) and evaluation.risks.shape == (MAX_SEATS,)
    assert abs(float(evaluation.priors.sum()) - 1.0) < 1e-5


@pytest.mark.skipif(not HAS_TORCH, reason="the train extra (torch) is not installed")
def test_the_same_seed_trains_the_same_network(tmp_path: Path) -> None:
    from mattis.envs.guided_train import train_network

    generate(tmp_path / "data", settings(), 2)
    first = train_network(tmp_path / "data", 2, tmp_path / "a.npz", epochs=1, hidden=(16,))
    second = train_network(tmp_path / "data", 2, tmp_path / "b.npz", epochs=1, hidden=(16,))
    for mine, theirs in zip(first.network.trunk_weights, second.network.trunk_weights, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    assert first.metrics == second.metrics
