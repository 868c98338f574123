"""Who sits where: the human ("Du"/"You") and bots with friendly Norwegian names.

A table of people reads better than "seat 2 (normal)", so bots get first names, and every
front end names them the same way in tables (name and level) and in sentences (name only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import parse_level
from ..bots.entrants import LEARNED_PREFIX, is_checkpoint_level, is_seat_level
from ..i18n import Lang, t
from .text import printable

BOT_NAMES: tuple[str, ...] = ("Kari", "Ola", "Siri", "Per", "Ingrid")
"""Names for up to five bots, in seat order after the human."""
MAX_NAME_LENGTH = 40
"""Longest name kept from a saved game: enough for any name, short enough for a table."""


@dataclass(frozen=True, slots=True)
class Participant:
    """One seat at the table."""

    seat: int
    name: str = ""
    """A bot's first name; empty for the human (called "Du"/"You") and for unknown seats
    in an old record (called "Plass 2"/"Seat 2")."""
    level: str | None = None
    """The bot level (``random``, ``easy``, ``normal``, ``hard``, ``expert``, ``learned``, or a
    checkpoint's ``learned:NAME``); ``None`` for a person."""
    human: bool = False
    """Whether this is the person at the keyboard."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form stored in saved games."""
        return {"seat": self.seat, "name": self.name or None, "level": self.level,
                "human": self.human}


def make_participants(players: int, human_seat: int, levels: Sequence[str]) -> list[Participant]:
    """The human at ``human_seat`` and one bot per level in the other seats, clockwise."""
    if len(levels) != players - 1:
        raise ValueError(f"bots: need {players - 1} levels for {players} players, got {len(levels)}")
    for level in levels:
        if not is_checkpoint_level(level):  # a checkpoint the host allowed (learned:mine)
            parse_level(level)
    seats: list[Participant] = []
    bot_levels = iter(levels)
    bot_names = iter(BOT_NAMES)
    for seat in range(players):
        if seat == human_seat:
            seats.append(Participant(seat, human=True))
        else:
            seats.append(Participant(seat, next(bot_names), next(bot_levels)))
    return seats


def participants_from_dicts(items: object, players: int) -> list[Participant] | None:
    """Participants read back from a saved game, or ``None`` if the data is not usable
    (a replay then falls back to seat numbers rather than failing). A file is outside text:
    names lose their control characters (:func:`~mattis.frontend.text.printable`), so a
    crafted name cannot clear the screen or reorder what follows it."""
    if not isinstance(items, list) or len(items) != players:
        return None
    result: list[Participant] = []
    for seat, item in enumerate(items):
        if not isinstance(item, dict):
            return None
        level, name, human = item.get("level"), item.get("name") or "", item.get("human") is True
        if level is not None and not is_seat_level(level):
            return None
        if not isinstance(name, str):
            return None
        result.append(Participant(seat, "" if human else printable(name)[:MAX_NAME_LENGTH], level, human))
    return result


def seat_numbers(players: int) -> list[Participant]:
    """Anonymous seats for records without names: "Plass 0", "Plass 1" …"""
    return [Participant(seat) for seat in range(players)]


def level_label(level: str, lang: Lang) -> str:
    """A bot level in words: ``"middels"`` / ``"normal"``, and a checkpoint by its name:
    ``"maskinlært: mine"``."""
    if is_checkpoint_level(level):
        return t("play.level_checkpoint", lang, name=level.removeprefix(LEARNED_PREFIX))
    return t(f"play.level.{level}", lang)


def seat_name(person: Participant, lang: Lang, initial: bool = True) -> str:
    """How sentences name the seat: ``"Kari"``, or ``"Du"``/``"du"`` for the human."""
    if person.human:
        return t("play.you" if initial else "play.you_mid", lang)
    if not person.name:
        return t("play.seat_n", lang, seat=person.seat)
    return person.name


def seat_label(person: Participant, lang: Lang) -> str:
    """How tables name the seat: ``"Kari (middels)"``, ``"Du"``."""
    if person.human or person.level is None:
        return seat_name(person, lang)
    return f"{seat_name(person, lang)} ({level_label(person.level, lang)})"


def join_names(names: Sequence[str], lang: Lang) -> str:
    """``"Kari, Ola og du"`` / ``"Kari, Ola and you"``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {t('play.and', lang)} {names[-1]}"
