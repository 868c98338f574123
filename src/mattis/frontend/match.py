"""A match: several games at one table, the score, the deal passing to the loser (C2), and
where each game's deal comes from.

One :class:`Match` type serves every front end: the terminal (one person against bots) and
the shared tables of the web server and the offline app (:mod:`mattis.table`). They differ
only in how a game's seed is made, which is a :class:`SeedPlan`:

* :class:`ConsecutiveSeeds` — the terminal's ``--seed S``: games use ``S``, ``S + 1`` … so a
  match is reproducible from one number and its first game is ``Game.new(seed=S)``. Only one
  person plays, so nothing is hidden from anyone by it.
* :class:`MatchSecret` — a table shared with other people: each game's seed is derived
  one-way (SHA-256) from the table's secret and the game number, so the record of a finished
  game, which shows its own seed, says nothing about the next deal.

The bots' and the hint's generators come from a :class:`MoveSeeds`: the secret again at a
shared table (a fresh generator for every move), :class:`SeatStreams` at the terminal.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass, field
from typing import Protocol

from ..bots import derived_rng, seat_rng
from ..core.game import Game, next_dealer
from ..core.record import MAX_SEED
from ..core.rules import Rules


class SeedPlan(Protocol):
    """Where the deals of a match come from: the seed of game ``number`` (1-based)."""

    def __call__(self, number: int) -> int: ...


class MoveSeeds(Protocol):
    """Where the generator of a bot's move (``purpose="bot"``) or a hint (``"hint"``) comes
    from: for ``seat`` before action ``action_number`` of game ``number``."""

    def move_seed(self, purpose: str, number: int, seat: int, action_number: int) -> str | random.Random:
        """A seed (text that crosses to a worker, a fresh generator made from it) or the
        generator itself (for a host that runs its jobs in line)."""
        ...


@dataclass(frozen=True, slots=True)
class ConsecutiveSeeds:
    """Games ``seed``, ``seed + 1`` … (wrapping below 2**64, so every record replays)."""

    seed: int

    def __call__(self, number: int) -> int:
        return (self.seed + number - 1) % (MAX_SEED + 1)


@dataclass(slots=True)
class SeatStreams:
    """The terminal's generators: in each game one per bot seat and one for the hints,
    derived from the game's seed as tournaments derive theirs (:func:`mattis.bots.seat_rng`)
    and carried on from move to move, so ``mattis play --seed S`` plays the same game every
    time. They are state: only for a host that runs its jobs in line and in turn."""

    seeds: SeedPlan
    _streams: dict[tuple[str, int, int], random.Random] = field(default_factory=dict, repr=False)

    def move_seed(self, purpose: str, number: int, seat: int, action_number: int) -> random.Random:
        """The stream of ``seat``'s bot (or of the hints) in game ``number``, begun at its
        first move; the action number does not matter, the stream goes on."""
        key = (purpose, number, seat if purpose == "bot" else -1)
        stream = self._streams.get(key)
        if stream is None:
            if any(game != number for _, game, _ in self._streams):
                self._streams.clear()  # a new game: the last one's streams are done
            seed = self.seeds(number)
            stream = seat_rng(seed, seat) if purpose == "bot" else derived_rng(seed, purpose)
            self._streams[key] = stream
        return stream


SEED_STRETCH = 20_000
"""SHA-256 rounds from an explicit seed to a table secret (about 10 ms once per table, some
30 ms in the offline app)."""


@dataclass(frozen=True, slots=True)
class MatchSecret:
    """A shared table's secret and everything derived from it: each game's seed (it is the
    table's :class:`SeedPlan`) and each bot's and hint's generator.

    Every table has a secret of 256 bits, kept in the store and never sent to anyone. Each
    value derived from it is a SHA-256 of the secret and what the value is for: one-way, so
    the record of a finished game, which shows its own seed, tells nothing about the next
    deal, and nothing public (the table id is the invite link) lets anyone foresee a bot's
    or a hint's choice. A table created with an explicit seed takes its secret from that
    seed, stretched by many SHA-256 rounds so each guess costs real work: its creator can
    deal the same match again (at any table), and everyone at the table is told it is seeded.
    """

    hex: str = field(repr=False)
    """64 hexadecimal digits, as stored."""

    @classmethod
    def fresh(cls) -> MatchSecret:
        """A new random secret, for a table without a seed."""
        return cls(secrets.token_hex(32))

    @classmethod
    def from_seed(cls, seed: int) -> MatchSecret:
        """The secret of a table created with ``seed``: the same seed, the same match."""
        # Plain rounds of hashlib.sha256, not pbkdf2_hmac: Pyodide's standard library has no
        # OpenSSL, hence no pbkdf2_hmac, and the offline app must deal the same match.
        stretched = hashlib.sha256(f"mattis-seed/{seed}".encode()).digest()
        for _ in range(SEED_STRETCH):
            stretched = hashlib.sha256(stretched).digest()
        return cls(stretched.hex())

    def _derive(self, *parts: object) -> bytes:
        """The one derivation: SHA-256 of the secret and what the value is for."""
        text = "/".join(["mattis", *(str(part) for part in parts)])
        return hashlib.sha256(f"{text}/{self.hex}".encode()).digest()

    def __call__(self, number: int) -> int:
        return self.game_seed(number)

    def game_seed(self, number: int) -> int:
        """The seed of game ``number`` of the match (a whole number below 2**64)."""
        return int.from_bytes(self._derive("game", number)[:8], "big")

    def move_seed(self, purpose: str, number: int, seat: int, action_number: int) -> str:
        """The generator seed of a bot's move (``purpose="bot"``) or a hint (``"hint"``) for
        ``seat`` before action ``action_number`` of game ``number``: the same move after a
        restart, and unknowable without the secret."""
        return self._derive(purpose, number, seat, action_number).hex()


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
