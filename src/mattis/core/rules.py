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

Everything else about an option (the values it accepts, its rule number, the key of its words,
its place in the learning encoding) is declared with its field, as a :class:`RuleOption`
(:data:`RULE_OPTIONS`), and every front end and adapter reads it from there: a new option is
one field, its words in every language and its rule logic (``docs/architecture.md``).
"""

from __future__ import annotations

import dataclasses
import functools
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from types import MappingProxyType
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


@dataclass(frozen=True, slots=True)
class Learned:
    """Where an option sits in the rules block of the learning environments' observation
    (:mod:`mattis.envs.encoding`): from ``slot`` on, one 0/1 number per value of ``marks``
    (1 where the option has that value), or, with ``scale``, one number: the value divided
    by ``scale``. Slots are given, not counted, so the numbers an agent was trained on keep
    their places: a new option takes the next free slots."""

    slot: int
    marks: tuple[object, ...] = ()
    scale: int = 0

    @property
    def width(self) -> int:
        """How many numbers of the rules block this option takes."""
        return 1 if self.scale else len(self.marks)


@dataclass(frozen=True, slots=True)
class RuleOption:
    """What every front end and adapter needs to know about one option of :class:`Rules`,
    kept on the field itself (``dataclasses.fields(Rules)[i].metadata["option"]``), so a
    house rule is declared once and the CLI, the web, the texts and the learning encoding
    all follow it."""

    rule: str
    """Its number in the rules documentation (``docs/rules.en.md``), e.g. ``"P2.2"``."""
    values: tuple[object, ...]
    """Every value it accepts, typed, in the order menus show them."""
    text: str
    """The key of its words (name, description, values) in :mod:`mattis.i18n.options`."""
    learned: Learned | None
    """Its place in the learning environments' rules vector; ``None`` only for the player
    count bounds, which the observation holds as the seats present."""
    in_play: bool = True
    """``False`` for an option that only bounds the number of players: the start page asks
    for the count itself, and a game being played already has it."""

    @property
    def choices(self) -> tuple[str, ...]:
        """:attr:`values` as text, the way ``--set`` and forms take them."""
        return tuple(_as_text(value) for value in self.values)

    @property
    def json_values(self) -> tuple[object, ...]:
        """:attr:`values` as :meth:`Rules.to_dict` writes them (enums as their text)."""
        return tuple(_json_value(value) for value in self.values)


def _option(rule: str, values: tuple[object, ...], text: str, learned: Learned | None, *,
            in_play: bool = True) -> dict[str, RuleOption]:
    """A field's metadata (see :class:`RuleOption`)."""
    return {"option": RuleOption(rule, values, text, learned, in_play)}


def _json_value(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value.value if isinstance(value, StrEnum) else str(value)


MAX_SEATS = 6
"""The most players any rules allow (C2): per-seat vectors (the bots' encoding blocks, the
policy-and-value network's risks) have this many slots."""
_PLAYER_COUNTS = tuple(range(2, MAX_SEATS + 1))
_FLAG = (True,)


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """The options of one Mattis variant. See ``docs/rules.en.md`` section 4.

    Each field's metadata (:class:`RuleOption`) says what it accepts, which rule it is, where
    its words are and how it is learned; a new house rule is one field here plus its logic
    in the engine (``docs/architecture.md``)."""

    min_players: int = field(default=3, metadata=_option("C2", _PLAYER_COUNTS, "min_players", None,
                                                         in_play=False))
    """Fewest players allowed (2-6)."""
    max_players: int = field(default=6, metadata=_option("C2", _PLAYER_COUNTS, "max_players", None,
                                                         in_play=False))
    """Most players allowed (2-6)."""
    removed_two_player: int = field(default=0, metadata=_option(
        "C4", tuple(range(11)), "removed_two_player", Learned(17, scale=10)))
    """Cards put away unseen before a two-player deal (C4), 0-10."""
    trick: TrickMode = field(default=TrickMode.ALL, metadata=_option(
        "P1.2", tuple(TrickMode), "trick", Learned(0, (TrickMode.PAIR,))))
    """Who plays to a phase-1 trick (P1.2)."""
    chance: bool = field(default=True, metadata=_option(
        "P1.4", (True, False), "chance", Learned(1, _FLAG)))
    """Whether chancing (*sjansing*) the top of the stock is allowed (P1.4)."""
    draw: DrawMode = field(default=DrawMode.AFTER_PLAY, metadata=_option(
        "P1.4a", tuple(DrawMode), "draw", Learned(2, (DrawMode.AFTER_TRICK,))))
    """When players draw in phase 1 (P1.4a)."""
    tie: TieMode = field(default=TieMode.REPLAY, metadata=_option(
        "P1.5", tuple(TieMode), "tie", Learned(3, tuple(TieMode))))
    """How ties for the highest rank are settled (P1.5)."""
    trump: TrumpMode = field(default=TrumpMode.HIDDEN_LAST, metadata=_option(
        "P1.6", tuple(TrumpMode), "trump", Learned(6, (TrumpMode.BOTTOM_UP,))))
    """How the trump suit is chosen (P1.6)."""
    phase1_end: Phase1End = field(default=Phase1End.NO_CARD, metadata=_option(
        "P1.7", tuple(Phase1End), "phase1_end", Learned(7, tuple(Phase1End))))
    """When phase 1 ends (P1.7)."""
    nothing_left: NothingLeft = field(default=NothingLeft.LOSE, metadata=_option(
        "P1.10", tuple(NothingLeft), "nothing_left", Learned(10, (NothingLeft.MUST_PICK_UP,))))
    """What happens to a player left with nothing (P1.10)."""
    nothing_left_counts: NothingLeftCounts = field(default=NothingLeftCounts.ALL_CARDS, metadata=_option(
        "P1.10", tuple(NothingLeftCounts), "nothing_left_counts",
        Learned(11, (NothingLeftCounts.WON_PILE,))))
    """Which cards count for ``nothing_left=lose`` (P1.10)."""
    min_sequence: int = field(default=2, metadata=_option(
        "P2.2", MIN_SEQUENCE_VALUES, "min_sequence", Learned(12, MIN_SEQUENCE_VALUES)))
    """Shortest sequence allowed in phase 2; 0 turns sequences off (P2.2)."""
    voluntary_pickup: bool = field(default=True, metadata=_option(
        "P2.4", (True, False), "voluntary_pickup", Learned(15, _FLAG)))
    """Whether picking up is allowed when the player could beat (P2.4)."""
    follow_suit: bool = field(default=False, metadata=_option(
        "P2.5", (True, False), "follow_suit", Learned(16, _FLAG)))
    """Whether a player holding the led suit may not trump it (P2.5)."""

    def __post_init__(self) -> None:
        for name in RULE_OPTIONS:
            object.__setattr__(self, name, _coerce(name, None, getattr(self, name)))
        for name, option in RULE_OPTIONS.items():
            if (value := getattr(self, name)) not in option.values:
                raise ValueError(f"{name}: must be {_allowed_numbers(option.values)}, got {value}")
        if self.min_players > self.max_players:
            raise ValueError(
                f"min_players: {self.min_players} is more than max_players {self.max_players}"
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
        return tuple(item.name for item in fields(Rules))

    @staticmethod
    def option_choices(name: str) -> tuple[str, ...]:
        """The values an option accepts, as text (for help and error messages)."""
        return Rules.option(name).choices

    @staticmethod
    def option(name: str) -> RuleOption:
        """The metadata of the option ``name``; ``ValueError`` for an unknown name."""
        option = RULE_OPTIONS.get(name)
        if option is None:
            raise ValueError(f"unknown option {name!r}; options are: {', '.join(Rules.option_names())}")
        return option

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
        return {item.name: _json_value(getattr(self, item.name)) for item in fields(self)}

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


def _allowed_numbers(values: tuple[object, ...]) -> str:
    """``from 0 to 10``, or ``0 (off), 2 or 3`` when the numbers have gaps (0 turns a
    number option off). Only numbers get here: text values are checked by :func:`_coerce`."""
    numbers = [value for value in values if isinstance(value, int)]
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"from {numbers[0]} to {numbers[-1]}"
    spoken = [f"{number} (off)" if number == 0 else str(number) for number in numbers]
    return f"{', '.join(spoken[:-1])} or {spoken[-1]}"


def _rule_options() -> Mapping[str, RuleOption]:
    options: dict[str, RuleOption] = {}
    for item in fields(Rules):
        option = item.metadata.get("option")
        if not isinstance(option, RuleOption):
            raise TypeError(f"Rules.{item.name} needs its RuleOption: field(..., metadata=_option(...))")
        options[item.name] = option
    return MappingProxyType(options)


RULE_OPTIONS: Mapping[str, RuleOption] = _rule_options()
"""Every option's :class:`RuleOption`, by field name, in documentation order."""


@functools.cache
def _field_types() -> dict[str, Any]:
    """Each option's type, read off its first allowed value (an enum member's type is its
    enum), so a new option needs no entry here."""
    return {name: type(option.values[0]) for name, option in RULE_OPTIONS.items()}


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
