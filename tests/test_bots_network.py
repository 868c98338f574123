"""The policy-and-value network file and its numpy inference (issue 27, item 1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mattis.bots.encoding import MAX_SEATS, OBSERVATION_SIZE, encode_view
from mattis.bots.network import (
    FORMAT,
    NetworkError,
    PolicyValueNet,
    load_network,
    random_network,
    save_network,
)
from mattis.bots.runner import seat_view
from mattis.core.actions import NUM_ACTIONS
from mattis.core.game import Game


def test_a_saved_network_loads_back_with_the_same_numbers(tmp_path: Path) -> None:
    network = random_network(3, hidden=(32, 16))
    path = save_network(tmp_path / "net.npz", network, dtype="float32")
    loaded = load_network(path)
    assert loaded.meta == network.meta
    for mine, theirs in zip(network.trunk_weights, loaded.trunk_weights, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    observation = np.linspace(0.0, 1.0, OBSERVATION_SIZE, dtype=np.float32)
    for mine, theirs in zip(network.forward(observation), loaded.forward(observation), strict=True):
        np.testing.assert_array_equal(mine, theirs)
    assert network.parameters == OBSERVATION_SIZE * 32 + 32 + 32 * 16 + 16 + 16 * NUM_ACTIONS + NUM_ACTIONS \
        + 16 * MAX_SEATS + MAX_SEATS


def test_evaluate_gives_a_distribution_over_the_legal_moves_and_a_risk_per_seat() -> None:
    network = random_network(5)
    game = Game.new("pagat", 3, seed=11)
    legal = game.legal_actions()
    assert game.to_move is not None
    observation = encode_view(seat_view(game, game.to_move))
    evaluation = network.evaluate(observation, [action.index for action in legal])
    assert evaluation.priors.shape == (len(legal),)
    assert evaluation.priors.sum() == pytest.approx(1.0, abs=1e-5)
    assert (evaluation.priors > 0).all()
    assert evaluation.risks.shape == (MAX_SEATS,)
    assert ((evaluation.risks > 0) & (evaluation.risks < 1)).all()
    np.testing.assert_allclose(evaluation.risks, network.risks(observation), rtol=1e-6)
    logits, _ = network.forward(observation)  # the softmax of the legal columns of the full head
    legal_logits = logits[[action.index for action in legal]]
    expected = np.exp(legal_logits - legal_logits.max())
    np.testing.assert_allclose(evaluation.priors, expected / expected.sum(), rtol=1e-5)


def test_files_that_are_not_networks_are_refused_saying_why(tmp_path: Path) -> None:
    with pytest.raises(NetworkError, match="cannot read"):
        load_network(tmp_path / "missing.npz")
    other = tmp_path / "other.npz"
    np.savez(other, format=np.array("mattis-policy-1"))
    with pytest.raises(NetworkError, match=FORMAT):
        load_network(other)
    headless = tmp_path / "headless.npz"
    np.savez(headless, format=np.array(FORMAT), w0=np.zeros((OBSERVATION_SIZE, 4)), b0=np.zeros(4))
    with pytest.raises(NetworkError, match="policy_w"):
        load_network(headless)
    with pytest.raises(NetworkError, match="value head"):
        PolicyValueNet([np.zeros((OBSERVATION_SIZE, 4))], [np.zeros(4)], np.zeros((4, NUM_ACTIONS)),
                       np.zeros(NUM_ACTIONS), np.zeros((4, 2)), np.zeros(2))
