"""Players' OpenSkill ratings: the Plackett-Luce update of Weng and Lin (2011, algorithm 4).

One pure function for every host: the web server rates each player bound to a seat with each
finished game (``web/ratings.py``, in the game's transaction), and the offline app rates its
owner over the games saved on the device ("Min statistikk", :mod:`mattis.offline.stats`),
where the ``openskill`` package is not available (Pyodide has no such package, and the app
ships only the standard library). The figures are the ``openskill`` package's
``PlackettLuce()`` with its defaults (``tests/test_rating.py`` compares them): each sigma first
grows by ``tau``, and seats tied for a place (several Mattis) each move by their own change
(version 6.2.0 means to give them their mean change, but its code leaves each its own).

A game ranks its seats: the first out first, then the others in the order they went out,
the Mattis last (several Mattis share the last place). Bots and people without a player
take part with a fixed rating by level (:data:`BOT_PRIORS`), never updated, so beating a
``hard`` bot counts for more than beating a ``random`` one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

MU = 25.0
"""A new player's mean."""
SIGMA = MU / 3
"""A new player's uncertainty."""
BETA = MU / 6
"""The spread of one game's performance around a player's mean."""
TAU = MU / 300
"""Added (as a variance) to every sigma before a game, so a rating never freezes."""
KAPPA = 0.0001
"""The least share of its variance a sigma keeps after one game."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating: the mean and its uncertainty."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the conservative figure to sort by."""
        return self.mu - 3 * self.sigma


BOT_PRIORS: dict[str, Rating] = {
    "random": Rating(15.0, 2.0), "easy": Rating(20.0, 2.0), "normal": Rating(25.0, 2.0),
    "learned": Rating(26.0, 2.0), "hard": Rating(28.0, 2.0), "expert": Rating(30.0, 2.0),
    "master": Rating(31.0, 2.0),
}
"""The fixed rating a bot of each level plays with."""
GUEST = Rating(25.0, 8.333)
"""A person without a player: the model's starting rating, never updated."""


def prior(kind: str, level: str | None) -> Rating:
    """The fixed rating of a seat that is not rated: a bot by its level, anyone else a guest."""
    return BOT_PRIORS.get(level or "", GUEST) if kind == "bot" else GUEST


def finishing_ranks(players: int, out_order: Sequence[int], losers: Sequence[int]) -> list[int]:
    """Each seat's place (1 is best): out first is first, the Mattis last, anyone else
    (neither out nor Mattis) just before the Mattis."""
    ranks = [0] * players
    for place, seat in enumerate(out_order, start=1):
        ranks[seat] = place
    middle = [seat for seat in range(players) if ranks[seat] == 0 and seat not in losers]
    for seat in middle:
        ranks[seat] = len(out_order) + 1
    for seat in losers:
        ranks[seat] = len(out_order) + (2 if middle else 1)
    return ranks


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """Every seat's rating after a game in which seat ``i`` took place ``ranks[i]`` (1 is
    best; equal places are a tie). Each seat is a team of one."""
    count = len(ratings)
    if count != len(ranks) or count < 2:
        raise ValueError("a game rates two or more seats, each with a place")
    variances = [rating.sigma ** 2 + TAU ** 2 for rating in ratings]
    scale = math.sqrt(sum(variance + BETA ** 2 for variance in variances))
    strength = [math.exp(rating.mu / scale) for rating in ratings]
    # the strength of everyone who placed no better than seat q, and how many share q's place
    at_or_below = [sum(strength[i] for i in range(count) if ranks[i] >= ranks[q]) for q in range(count)]
    sharing = [sum(1 for i in range(count) if ranks[i] == ranks[q]) for q in range(count)]
    changes: list[float] = []
    sigmas: list[float] = []
    for i in range(count):
        step = shrink = 0.0
        for q in range(count):
            if ranks[q] > ranks[i]:
                continue
            chance = strength[i] / at_or_below[q]  # of seat i placing first among those left at q
            shrink += chance * (1 - chance) / sharing[q]
            step += ((1.0 if q == i else 0.0) - chance) / sharing[q]
        variance = variances[i]
        changes.append(step * variance / scale)
        shrink *= variance / scale ** 2 * (math.sqrt(variance) / scale)
        sigmas.append(math.sqrt(variance) * math.sqrt(max(1 - shrink, KAPPA)))
    return [Rating(rating.mu + change, sigma)
            for rating, change, sigma in zip(ratings, changes, sigmas, strict=True)]


def rating_summary(rating: Rating | None, games: int) -> dict[str, float | int] | None:
    """A rating as ``GET /api/players/me`` and "Min statistikk" show it (``None`` before the
    first game)."""
    if rating is None:
        return None
    return {"mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3), "ordinal": round(rating.ordinal, 3),
            "games": games}
