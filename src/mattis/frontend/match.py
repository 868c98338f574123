"""A match: several games at one table, the score, the deal passing to the loser (C2), and
where each game's deal comes from.

One :class:`Match` type serves every front end: the terminal (one person against bots) and
the shared tables of the web server and the offline app (:mod:`mattis.table`). They differ
only in how a game's seed is made, which is a :class:`SeedPlan`:

* :class:`ConsecutiveSeeds` — the terminal's ``--seed S``: games use ``S``, ``S + 1`` … so a
  match is reproducible from one number and its first game is ``Game.new(seed=S)``. Only one
  person plays, so nothing is hidden from anyone by it.
* :class:`SecretSeeds` — a table shared with other people: each game's seed is derived
  one-way (SHA-256) from the table's secret and the game number, so the record of a finished
  game, which shows its own seed, says nothing about the next deal.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Protocol

from ..core.game import Game, next_dealer
from ..core.record import MAX_SEED
from ..core.rules import Rules


class SeedPlan(Protocol):
    """Where the deals of a match come from: the seed of game ``number`` (1-based)."""

    def __call__(self, number: int) -> int: ...


@dataclass(frozen=True, slots=True)
class ConsecutiveSeeds:
    """Games ``seed``, ``seed + 1`` … (wrapping below 2**64, so every record replays)."""

    seed: int

    def __call__(self, number: int) -> int:
        return (self.seed + number - 1) % (MAX_SEED + 1)


@dataclass(frozen=True, slots=True)
class SecretSeeds:
    """Each game's seed derived one-way from a secret and the game number: a record shows its
    own game's seed, from which no other game's seed can be computed."""

    secret: str = field(repr=False)

    def __call__(self, number: int) -> int:
        digest = hashlib.sha256(f"mattis-game/{self.secret}/{number}".encode()).digest()
        return int.from_bytes(digest[:8], "big")


@dataclass
class Match:
    """Several games at one table: the score (times each seat was Mattis) and the deal.

    The first game is dealt by the last seat (C2); after that the loser deals, and with
    several losers the first of them clockwise from the previous dealer (``next_dealer``).
    ``games`` is how many games the match has, or ``None`` for a table that plays on as
    long as its players ask for another game.
    """

    rules: Rules
    players: int
    seeds: SeedPlan
    games: int | None = None
    dealer: int = -1
    played: int = 0
    scores: list[int] = field(default_factory=list)
    results: list[tuple[int, ...]] = field(default_factory=list)
    """The losers of each finished game."""

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if self.games is not None and self.games < 1:
            raise ValueError(f"games: must be at least 1, got {self.games}")
        if self.dealer < 0:
            self.dealer = self.players - 1
        if not self.scores:
            self.scores = [0] * self.players

    @property
    def finished(self) -> bool:
        """Whether every game has been played (never, for a match without an end)."""
        return self.games is not None and self.played >= self.games

    def game_seed(self, number: int | None = None) -> int:
        """The seed of game ``number`` (1-based; default: the next game)."""
        return self.seeds(self.played + 1 if number is None else number)

    def new_game(self) -> Game:
        """Deal the next game: the current dealer deals, from the next game's seed."""
        return Game.new(self.rules, self.players, seed=self.game_seed(), dealer=self.dealer)

    def finish(self, game: Game) -> None:
        """Count a finished game: score its losers and pass the deal to the loser."""
        if not game.is_over:
            raise ValueError("the game is not over")
        for loser in game.losers:
            self.scores[loser] += 1
        self.results.append(tuple(game.losers))
        self.dealer = next_dealer(game.dealer, game.losers, self.players)
        self.played += 1
