"""Where a match's randomness comes from: its deals and its bots' and hints' choices.

Every table has a secret of 256 bits, kept in the store and never sent to anyone. Each
game's seed and each bot or hint generator is a SHA-256 of that secret and the game (and
seat and move) it is for: one-way, so the record of a finished game, which shows its own
seed, tells nothing about the next deal, and nothing public (the table id is the invite
link) lets anyone foresee a bot's or a hint's choice.

A table created with an explicit seed takes its secret from that seed, through PBKDF2 so
each guess costs real work: its creator can deal the same match again, and everyone at the
table is told it is seeded (a seed someone else can guess is no secret).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

SEED_STRETCH = 20_000
"""PBKDF2 rounds from an explicit seed to a table secret (about 5 ms once per table)."""


@dataclass(frozen=True, slots=True)
class MatchSecret:
    """A table's secret and everything derived from it."""

    hex: str
    """64 hexadecimal digits, as stored."""

    @classmethod
    def fresh(cls) -> MatchSecret:
        """A new random secret, for a table without a seed."""
        return cls(secrets.token_hex(32))

    @classmethod
    def from_seed(cls, seed: int) -> MatchSecret:
        """The secret of a table created with ``seed``: the same seed, the same match."""
        stretched = hashlib.pbkdf2_hmac("sha256", str(seed).encode(), b"mattis-seed", SEED_STRETCH)
        return cls(stretched.hex())

    def _derive(self, *parts: object) -> bytes:
        """The one derivation: SHA-256 of the secret and what the value is for."""
        text = "/".join(["mattis", *(str(part) for part in parts)])
        return hashlib.sha256(f"{text}/{self.hex}".encode()).digest()

    def game_seed(self, number: int) -> int:
        """The seed of game ``number`` of the match (a whole number below 2**64)."""
        return int.from_bytes(self._derive("game", number)[:8], "big")

    def move_seed(self, purpose: str, number: int, seat: int, action_number: int) -> str:
        """The generator seed of a bot's move (``purpose="bot"``) or a hint (``"hint"``) for
        ``seat`` before action ``action_number`` of game ``number``: the same move after a
        restart, and unknowable without the secret."""
        return self._derive(purpose, number, seat, action_number).hex()
