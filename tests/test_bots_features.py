"""The observation's numpy-free sparse form (``mattis.bots.features``, issue 27): the offline
app's ``master`` bot reads the same numbers as every environment and network.

``sparse_view`` lists each nonzero slot once, in increasing order, and scattered into a float32
vector it is ``encode_view`` bit for bit, at random points of random games of every preset and
house rule and every allowed player count (rules section 5: a function of the seat's view only).
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mattis import Game
from mattis.bots.encoding import OBSERVATION_SIZE, encode_view
from mattis.bots.features import LAYOUT, SLICES, sparse_view
from mattis.bots.runner import seat_view

from .variants import CONFIGS, VARIANTS

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def scattered(view: object) -> np.ndarray:
    indices, values = sparse_view(view)  # type: ignore[arg-type]
    assert indices == sorted(set(indices)), "each slot once, in increasing order"
    assert all(value != 0.0 for value in values) and len(values) == len(indices)
    dense = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    dense[indices] = values
    return dense


@settings(max_examples=80, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=SEEDS, policy_seed=SEEDS,
       cut=st.integers(min_value=0, max_value=400))
def test_sparse_view_scattered_is_encode_view_bit_for_bit(
    config: tuple[str, int], seed: int, policy_seed: int, cut: int
) -> None:
    variant, players = config
    game = Game.new(VARIANTS[variant], players, seed=seed)
    rng = random.Random(policy_seed)
    while not game.is_over and game.num_actions < cut:
        game.apply(rng.choice(game.legal_actions()))
    for seat in range(players):
        for view in (game.view(seat), game.seat_view(seat), seat_view(game, seat)):
            dense = scattered(view)
            reference = encode_view(view)
            assert np.array_equal(dense, reference), (
                f"{variant}, {players} players, seed {seed}, seat {seat}, action {game.num_actions}: "
                f"slots {np.flatnonzero(dense != reference).tolist()} differ")


def test_the_layout_is_declared_once() -> None:
    """``mattis.bots.encoding`` (and its public name ``mattis.envs.encoding``) hand out the
    numpy-free module's layout, not a copy."""
    from mattis.bots import encoding
    from mattis.envs import encoding as public

    assert encoding.LAYOUT is LAYOUT is public.LAYOUT and encoding.SLICES is SLICES
    assert sum(slot.size for slot in LAYOUT) == OBSERVATION_SIZE
