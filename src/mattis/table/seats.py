"""Who sits at a shared table: people with a seat token, bots, open seats and stand-ins.

A person's seat is theirs through a secret token (kept in their browser); only its SHA-256
is stored, so a copy of the database hands out no seats. The names people see are cleaned
here once, for every host.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import KW_ONLY, dataclass
from typing import Any, Literal

from ..frontend.seats import BOT_NAMES, Participant
from .errors import Refusal

SeatKind = Literal["human", "bot", "open"]
SEAT_KINDS: tuple[SeatKind, ...] = ("human", "bot", "open")
MAX_NAME = 24
"""Longest name shown at a table."""
STAND_IN_LEVEL = "normal"
"""The bot that plays for a person who is away."""


def hash_token(token: str) -> str:
    """Tokens are stored hashed, so a copy of the database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh seat token: unguessable, and longer than a table id."""
    return secrets.token_urlsafe(24)


def clean_name(value: object) -> str:
    """A player name fit to show: printable, single-spaced, at most :data:`MAX_NAME` long."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Refusal("bad_request", "name must be text")
    text = "".join(ch for ch in value if ch.isprintable())
    return " ".join(text.split())[:MAX_NAME]


@dataclass(slots=True)
class Seat:
    """One seat: who sits there and, for a person, whether they are here."""

    kind: SeatKind
    name: str = ""
    _: KW_ONLY
    level: str | None = None
    token_hash: str | None = None
    connections: int = 0
    """Open connections of this seat (the host counts them in through the session)."""
    stand_in: bool = False
    """A bot plays for this person while they are away."""
    player: str | None = None
    """The player (``POST /api/players``) this person's seat is bound to: their games count
    in their groups' ledgers. ``None`` for a seat taken without a player's key."""
    coach_hash: str | None = None
    """The hash of this person's coach link's secret (:mod:`.coaching`), while they have one."""
    coaches: int = 0
    """Open connections of this seat's coach (counted like :attr:`connections`, never stored)."""

    @property
    def bot_plays(self) -> bool:
        """Whether the table moves for this seat."""
        return self.kind == "bot" or self.stand_in

    @property
    def bot_level(self) -> str:
        """The level of the bot that moves here (a stand-in plays as :data:`STAND_IN_LEVEL`)."""
        return self.level if self.kind == "bot" and self.level else STAND_IN_LEVEL

    def to_stored(self) -> dict[str, Any]:
        """The stored form (no connections; the token only hashed)."""
        stored = {"kind": self.kind, "name": self.name, "level": self.level, "token": self.token_hash}
        if self.player is not None:
            stored["player"] = self.player
        if self.coach_hash is not None:
            stored["coach"] = self.coach_hash
        return stored

    @classmethod
    def from_stored(cls, item: object) -> Seat:
        """A seat read back from the store; anything malformed raises ``ValueError``."""
        if not isinstance(item, dict) or item.get("kind") not in SEAT_KINDS:
            raise ValueError("stored seat: expected an object with kind human, bot or open")
        name, level, token = item.get("name") or "", item.get("level"), item.get("token")
        player, coach = item.get("player"), item.get("coach")
        if not isinstance(name, str) or not all(value is None or isinstance(value, str)
                                                for value in (level, token, player, coach)):
            raise ValueError("stored seat: name, level, token, player and coach must be text")
        kind: SeatKind = item["kind"]
        return cls(kind, name, level=level, token_hash=token, player=player, coach_hash=coach)


def participants(seats: list[Seat], viewer: int | None) -> list[Participant]:
    """The seats as sentences name them from ``viewer``'s chair (``"You"`` for the viewer)."""
    people = []
    for index, seat in enumerate(seats):
        if index == viewer:
            people.append(Participant(index, human=True))
        elif seat.kind == "bot":
            people.append(Participant(index, seat.name, seat.level))
        else:
            people.append(Participant(index, seat.name))
    return people


def spare_bot_name(seats: list[Seat], index: int, taken: set[str] | None = None) -> str:
    """A bot name nobody at the table uses (``Bot 3`` when the friendly names run out)."""
    used = {seat.name.casefold() for seat in seats if seat.kind != "open"} | (taken or set())
    spare = [name for name in BOT_NAMES if name.casefold() not in used]
    return spare[0] if spare else f"Bot {index + 1}"


def distinct_name(seats: list[Seat], name: str) -> str:
    """The newcomer's name, kept apart from every name at the table (a bot's too) with a
    number: ``Siri 2``. Nobody already seated is renamed, so the names people have been
    reading stay true."""
    if not name:
        return name
    used = {seat.name.casefold() for seat in seats if seat.kind != "open"}
    if name.casefold() in used:
        number = 2
        while f"{name} {number}".casefold() in used:
            number += 1
        name = f"{name} {number}"
    return name
