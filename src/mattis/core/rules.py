"""Rule options and the three presets.

A :class:`Rules` value is a frozen, keyword-only dataclass; its field names and option
values are the ones the project's rules documentation uses (``docs/rules.en.md``), so a
house rule is one replaced field::

    dataclasses.replace(Rules.preset("pagat"), min_sequence=3)

The typed path is the enums, booleans and ints themselves. Text (from ``--set``, a file or a
form) has one entry point, :meth:`Rules.with_options`, which takes option values as their
strings (``nothing_left="must_pick_up"``), booleans as ``"true"``/``"false"`` and numbers as
ASCII digits, and raises ``ValueError`` naming the field for a bad one. (``dataclasses.replace``
with strings converts them the same way at run time, but only ``with_options`` says so in its
types.)
"""

from __future__ import annotations

import dataclasses
import functools
import reprlib
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any


class TrickMode(StrEnum):
    """Who plays to a phase-1 trick (P1.2)."""

    ALL = "all"
    PAIR = "pair"


class DrawMode(StrEnum):
    """When players draw from the stock in phase 1 (P1.4a)."""

    AFTER_PLAY = "after_play"
    AFTER_TRICK = "after_trick"


class TieMode(StrEnum):
    """How a tie (*krig*) for the highest rank is settled (P1.5)."""

    REPLAY = "replay"
    TWO_CARDS = "two_cards"
    ANY_MATCH = "any_match"


class TrumpMode(StrEnum):
    """How the trump card is chosen (P1.6)."""

    HIDDEN_LAST = "hidden_last"
    BOTTOM_UP = "bottom_up"


class Phase1End(StrEnum):
    """When phase 1 ends (P1.7)."""

    NO_CARD = "no_card"
    ONE_LEFT = "one_left"
    STOCK_EMPTY = "stock_empty"


class NothingLeft(StrEnum):
    """What happens to a player with nothing after phase 1 (P1.10)."""

    LOSE = "lose"
    MUST_PICK_UP = "must_pick_up"


class NothingLeftCounts(StrEnum):
    """Which cards count for "nothing left" under ``lose`` (P1.10)."""

    ALL_CARDS = "all_cards"
    WON_PILE = "won_pile"


MIN_SEQUENCE_VALUES = (0, 2, 3)
_TRUE_WORDS = {"true", "yes", "on", "1", "ja", "sann"}
_FALSE_WORDS = {"false", "no", "off", "0", "nei", "usann"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """The options of one Mattis variant. See ``docs/rules.en.md`` section 4."""

    min_players: int = 3
    """Fewest players allowed (2-6)."""
    max_players: int = 6
    """Most players allowed (2-6)."""
    removed_two_player: int = 0
    """Cards put away unseen before a two-player deal (C4), 0-10."""
    trick: TrickMode = TrickMode.ALL
    """Who plays to a phase-1 trick (P1.2)."""
    chance: bool = True
    """Whether chancing (*sjansing*) the top of the stock is allowed (P1.4)."""
    draw: DrawMode = DrawMode.AFTER_PLAY
    """When players draw in phase 1 (P1.4a)."""
    tie: TieMode = TieMode.REPLAY
    """How ties for the highest rank are settled (P1.5)."""
    trump: TrumpMode = TrumpMode.HIDDEN_LAST
    """How the trump suit is chosen (P1.6)."""
    phase1_end: Phase1End = Phase1End.NO_CARD
    """When phase 1 ends (P1.7)."""
    nothing_left: NothingLeft = NothingLeft.LOSE
    """What happens to a player left with nothing (P1.10)."""
    nothing_left_counts: NothingLeftCounts = NothingLeftCounts.ALL_CARDS
    """Which cards count for ``nothing_left=lose`` (P1.10)."""
    min_sequence: int = 2
    """Shortest sequence allowed in phase 2; 0 turns sequences off (P2.2)."""
    voluntary_pickup: bool = True
    """Whether picking up is allowed when the player could beat (P2.4)."""
    follow_suit: bool = False
    """Whether a player holding the led suit may not trump it (P2.5)."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            object.__setattr__(self, field.name, _coerce(field.name, field.type, value))
        _check_range("min_players", self.min_players, 2, 6)
        _check_range("max_players", self.max_players, 2, 6)
        if self.min_players > self.max_players:
            raise ValueError(
                f"min_players: {self.min_players} is more than max_players {self.max_players}"
            )
        _check_range("removed_two_player", self.removed_two_player, 0, 10)
        if self.min_sequence not in MIN_SEQUENCE_VALUES:
            raise ValueError(
                f"min_sequence: must be 0 (off), 2 or 3, got {self.min_sequence}"
            )

    @staticmethod
    def preset(name: str) -> Rules:
        """The preset ``pagat`` (default), ``kortregler`` or ``app``."""
        key = name.strip().lower()
        if key not in PRESETS:
            raise ValueError(f"rules: unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
        return PRESETS[key]

    @staticmethod
    def option_names() -> tuple[str, ...]:
        """The option fields, in documentation order."""
        return tuple(field.name for field in fields(Rules))

    @staticmethod
    def option_choices(name: str) -> tuple[str, ...]:
        """The values an option accepts, as text (for help and error messages)."""
        field_type = _field_types().get(name)
        if field_type is None:
            raise ValueError(f"unknown option {name!r}; options are: {', '.join(Rules.option_names())}")
        if isinstance(field_type, type) and issubclass(field_type, StrEnum):
            return tuple(member.value for member in field_type)
        if field_type is bool:
            return ("true", "false")
        if name == "min_sequence":
            return tuple(str(v) for v in MIN_SEQUENCE_VALUES)
        if name == "removed_two_player":
            return tuple(str(v) for v in range(11))
        return tuple(str(v) for v in range(2, 7))

    def with_options(self, **changes: object) -> Rules:
        """A copy with some options changed, given typed or as text (the string entry point,
        see the module docstring); unknown option names and bad values raise ``ValueError``."""
        known = set(self.option_names())
        for name in changes:
            if name not in known:
                raise ValueError(f"unknown option {name!r}; options are: {', '.join(sorted(known))}")
        # Typed before the dataclass sees them: a compiled build (mypyc) checks field types.
        typed = {name: _coerce(name, None, value) for name, value in changes.items()}
        return dataclasses.replace(self, **typed)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready options (enums as their strings)."""
        return {
            field.name: (str(v) if isinstance(v := getattr(self, field.name), StrEnum) else v)
            for field in fields(self)
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output; missing options take the ``pagat`` value."""
        return Rules.preset("pagat").with_options(**data)

    @property
    def preset_name(self) -> str | None:
        """The preset these rules equal, or ``None`` for a house-rule mix."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    def differences(self, other: Rules) -> dict[str, tuple[Any, Any]]:
        """Options that differ from ``other``: ``{name: (ours, theirs)}``."""
        mine, theirs = self.to_dict(), other.to_dict()
        return {key: (mine[key], theirs[key]) for key in mine if mine[key] != theirs[key]}

    def allows_players(self, players: int) -> bool:
        """Whether ``players`` seats are allowed."""
        return self.min_players <= players <= self.max_players

    def check_players(self, players: object) -> None:
        """Raise ``ValueError`` unless ``players`` is an allowed number of seats. The one
        place that words it: ``players: pagat allows 3-6 players, got 7``."""
        if isinstance(players, int) and not isinstance(players, bool) and self.allows_players(players):
            return
        allows = f"{self.preset_name} allows" if self.preset_name else "these house rules allow"
        given = _quoted(players)
        raise ValueError(f"players: {allows} {self.min_players}-{self.max_players} players, got {given}")


@functools.cache
def _field_types() -> dict[str, Any]:
    hints = {"int": int, "bool": bool}
    enums = {cls.__name__: cls for cls in (TrickMode, DrawMode, TieMode, TrumpMode, Phase1End,
                                           NothingLeft, NothingLeftCounts)}
    result: dict[str, Any] = {}
    for field in fields(Rules):
        type_name = field.type if isinstance(field.type, str) else field.type.__name__
        result[field.name] = hints.get(type_name) or enums[type_name]
    return result


def _coerce(name: str, declared: object, value: object) -> object:
    """Turn option text into its typed value, or raise ``ValueError`` naming the option."""
    target = _field_types()[name]
    if target is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE_WORDS:
            return True
        if isinstance(value, str) and value.strip().lower() in _FALSE_WORDS:
            return False
        raise ValueError(f"{name}: expected true or false, got {_quoted(value)}")
    if target is int:
        if isinstance(value, bool):
            raise ValueError(f"{name}: expected a whole number, got {value!r}")
        if isinstance(value, int):
            return value
        text = value.strip() if isinstance(value, str) else ""
        digits = text[1:] if text.startswith("-") else text
        if digits.isascii() and digits.isdigit() and len(digits) <= 6:
            return int(text)
        raise ValueError(f"{name}: expected a whole number, got {_quoted(value)}")
    if isinstance(value, target):
        return value
    try:
        if not isinstance(value, str):
            raise ValueError(name)
        return target(value.strip().lower())
    except ValueError:
        choices = ", ".join(member.value for member in target)
        raise ValueError(f"{name}: expected one of {choices}, got {_quoted(value)}") from None


def _quoted(value: object) -> str:
    """A given value as an error message shows it: text in double quotes (so ``"3"`` reads
    as text, not the number 3), anything else as Python writes it, cut to 40 characters."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of {value.bit_length()} bits"
    shown = '"' + value.replace('"', '\\"') + '"' if isinstance(value, str) else reprlib.repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise ValueError(f"{name}: must be from {low} to {high}, got {value}")


PRESETS: dict[str, Rules] = {}
PRESETS["pagat"] = Rules()
PRESETS["kortregler"] = Rules(
    min_players=2,
    removed_two_player=10,
    trick=TrickMode.PAIR,
    tie=TieMode.TWO_CARDS,
    phase1_end=Phase1End.ONE_LEFT,
    nothing_left=NothingLeft.MUST_PICK_UP,
    min_sequence=0,
    voluntary_pickup=False,
)
PRESETS["app"] = Rules(
    chance=False,
    draw=DrawMode.AFTER_TRICK,
    tie=TieMode.ANY_MATCH,
    trump=TrumpMode.BOTTOM_UP,
    nothing_left_counts=NothingLeftCounts.WON_PILE,
    follow_suit=True,
)
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
