"""The OpenSkill update shared by the server and the offline app (``mattis.table.rating``,
issue 25 item 6) gives the ``openskill`` package's Plackett-Luce figures."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from mattis.table.rating import GUEST, Rating, finishing_ranks, prior, rate, rating_summary


def openskill_rate(ratings: list[Rating], ranks: list[int]) -> list[Rating]:
    model = PlackettLuce()
    rated = model.rate([[model.rating(mu=rating.mu, sigma=rating.sigma)] for rating in ratings],
                       ranks=[float(rank) for rank in ranks])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]


def test_the_update_matches_openskill_on_random_games_with_ties() -> None:
    rng = random.Random(11)
    for _ in range(200):
        seats = rng.randint(2, 6)
        ratings = [Rating(rng.uniform(10, 35), rng.uniform(0.5, 9)) for _ in range(seats)]
        losers = rng.sample(range(seats), rng.choice((1, 1, 2)))  # two Mattis share the last place
        out = [seat for seat in range(seats) if seat not in losers]
        rng.shuffle(out)
        ranks = finishing_ranks(seats, out[:rng.choice((len(out), len(out) - 1))], losers)
        for ours, theirs in zip(rate(ratings, ranks), openskill_rate(ratings, ranks), strict=True):
            assert ours.mu == pytest.approx(theirs.mu, abs=1e-9)
            assert ours.sigma == pytest.approx(theirs.sigma, abs=1e-9)


def test_going_out_first_raises_a_rating_and_every_game_makes_it_surer() -> None:
    first, _, last = rate([Rating(), prior("bot", "normal"), prior("bot", "easy")], [1, 2, 3])
    assert first.mu > 25 and first.sigma < Rating().sigma
    assert last.mu < 20 and prior("human", None) == GUEST and prior("bot", "unknown") == GUEST
    with pytest.raises(ValueError):
        rate([Rating()], [1])
    assert rating_summary(None, 0) is None
    assert rating_summary(first, 1) == {"mu": round(first.mu, 3), "sigma": round(first.sigma, 3),
                                        "ordinal": round(first.mu - 3 * first.sigma, 3), "games": 1}
