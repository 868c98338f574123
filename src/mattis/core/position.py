"""A complete game state as one frozen value, hidden cards included.

:meth:`Game.position` exports it and :meth:`Game.from_position` continues a game from it.
Searching bots never see a real game's position: they build their own from their view and
cards they sample, then search on the game it gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeGuard

from .actions import ALL_ACTIONS, Action
from .cards import CARD_CODES, FULL_DECK_MASK, NUM_CARDS, SUITS, codes_of, mask_of, parse_card, parse_suit
from .phase import Phase
from .rules import PRESETS, Rules

PHASES = tuple(Phase)


@dataclass(frozen=True, kw_only=True, slots=True)
class Position:
    """Every field the engine needs to continue a game. Card sets are 52-bit masks and
    cards are integers (see :mod:`mattis.core.cards`)."""

    rules: Rules
    players: int
    dealer: int
    phase: Phase
    to_move: int
    leader: int
    hands: tuple[int, ...]
    won: tuple[int, ...]
    stock: tuple[int, ...]
    """The stock, top first (its last card is the reserved or face-up trump card)."""
    trump_card: int
    """The trump card (-1 when a puzzle only names the suit)."""
    trump_suit: int
    trump_known: bool
    trump_holder: int
    """Who put the hidden trump card aside (-1: nobody yet)."""
    last_drawer: int
    """Who drew the stock's last card with ``bottom_up`` (-1: nobody yet)."""
    trick: tuple[tuple[int, int], ...] = ()
    due: tuple[int, ...] = ()
    current_round: tuple[tuple[int, int], ...] = ()
    tie: tuple[int, ...] = ()
    table: tuple[tuple[int, int], ...] = ()
    """Phase-2 plays as ``(seat, action index)``, oldest first."""
    trick_size: int = 0
    out: tuple[bool, ...] = ()
    out_order: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    lost_on_empty: bool = False
    removed: int = 0
    discard: int = 0

    def check(self) -> None:
        """Raise ``ValueError`` naming the field unless the position is one the engine can
        continue from: every card in exactly one place, every seat in range, and the phase's
        bookkeeping consistent (so :meth:`Game.apply` can neither fail nor loop for ever)."""
        if not isinstance(self.rules, Rules):
            raise ValueError("rules: expected a Rules value")
        if self.phase not in PHASES:
            raise ValueError(f"phase: expected one of {', '.join(PHASES)}, got {self.phase!r}")
        n = self.players
        if not _is_int(n) or not 2 <= n <= 6:
            raise ValueError(f"players: must be from 2 to 6, got {n!r}")
        if not (len(self.hands) == len(self.won) == len(self.out) == n):
            raise ValueError("hands, won and out need one entry per player")
        over, collect = self.phase == Phase.OVER, self.phase == Phase.COLLECT
        _seat("dealer", self.dealer, n, none_ok=True)
        _seat("leader", self.leader, n)
        if over:
            if self.to_move != -1:
                raise ValueError(f"to_move: must be -1 once the game is over, got {self.to_move!r}")
        else:
            _seat("to_move", self.to_move, n)
        _seat("trump_holder", self.trump_holder, n, none_ok=True)
        _seat("last_drawer", self.last_drawer, n, none_ok=True)
        if not _is_int(self.trump_suit) or not 0 <= self.trump_suit < 4:
            raise ValueError(f"trump_suit: must be from 0 to 3, got {self.trump_suit!r}")
        if self.trump_card != -1:
            _card("trump_card", self.trump_card)
            if self.trump_card // 13 != self.trump_suit:
                raise ValueError("trump_card: its suit is not the trump suit")
        for name, entries in (("trick", self.trick), ("current_round", self.current_round)):
            for seat, card in entries:
                _seat(name, seat, n)
                _card(name, card)
        for name, seats in (("due", self.due), ("tie", self.tie), ("out_order", self.out_order),
                            ("losers", self.losers)):
            for seat in seats:
                _seat(name, seat, n)
        for name, seats in (("tie", self.tie), ("out_order", self.out_order), ("losers", self.losers)):
            if len(set(seats)) != len(seats):
                raise ValueError(f"{name}: a seat appears twice")
        for seat, index in self.table:
            _seat("table", seat, n)
            if not _is_int(index) or not 0 <= index < len(ALL_ACTIONS) or not ALL_ACTIONS[index].cards:
                raise ValueError(f"table: {index!r} is not the index of a card play")
        if any(not self.out[seat] for seat in self.out_order) or sum(self.out) != len(self.out_order):
            raise ValueError("out_order: must list exactly the seats that are out")
        if over:
            if not self.losers:
                raise ValueError("losers: a finished game has at least one loser")
        else:
            if self.losers:
                raise ValueError("losers: only a finished game has losers")
            if n - sum(self.out) < 2:
                raise ValueError("out: a game still running needs two players still in")
            if self.out[self.to_move]:
                raise ValueError("to_move: that seat is out")
        if collect:
            if not self.due or self.due[0] != self.to_move:
                raise ValueError("due: in phase 1 the seat to move is the first one due")
            if self.table or self.out_order:
                raise ValueError("table and out_order are empty in phase 1")
            if self.tie and not set(self.due) <= set(self.tie):
                raise ValueError("due: during a tie only tied seats are due")
        elif self.phase == Phase.SHED:
            if self.trick or self.due or self.tie or self.current_round:
                raise ValueError("trick, due, tie and current_round are empty in phase 2")
            if not 1 <= self.trick_size <= n:
                raise ValueError(f"trick_size: must be from 1 to {n} in phase 2, got {self.trick_size!r}")
            if len(self.table) >= self.trick_size:
                raise ValueError("table: a complete trick would already have left the table")
        masks = [*self.hands, *self.won, self.removed, self.discard]
        if any(not _is_int(mask) or mask < 0 or mask > FULL_DECK_MASK for mask in masks):
            raise ValueError("hands, won, removed and discard must be sets of the 52 cards")
        for card in self.stock:
            _card("stock", card)
        places = list(masks)
        places += [1 << card for card in self.stock]
        places += [1 << card for _, card in self.trick]
        places += [ALL_ACTIONS[index].mask for _, index in self.table]
        if self.trump_holder >= 0 and collect:
            if self.trump_card < 0:
                raise ValueError("trump_card: the card put aside by trump_holder must be named")
            places.append(1 << self.trump_card)
        seen = 0
        for mask in places:
            if seen & mask:
                raise ValueError("position: a card is in two places")
            seen |= mask
        if seen != FULL_DECK_MASK:
            missing = NUM_CARDS - seen.bit_count()
            raise ValueError(f"position: {missing} cards are nowhere")

    # ------------------------------------------------------------------ text form

    def to_text(self) -> str:
        """One line that :meth:`from_text` reads back to an equal position, like a chess
        FEN: handy in tests and bug reports. Cards are codes, sets are dot-separated,
        seats' entries slash-separated, ``-`` is empty or nobody."""
        rules_text = _rules_text(self.rules)
        fields = {
            "rules": rules_text,
            "players": str(self.players),
            "dealer": _opt(self.dealer),
            "phase": self.phase,
            "to_move": _opt(self.to_move),
            "leader": str(self.leader),
            "hands": "/".join(_mask_text(mask) for mask in self.hands),
            "won": "/".join(_mask_text(mask) for mask in self.won),
            "stock": ".".join(CARD_CODES[card] for card in self.stock) or "-",
            "trump_card": CARD_CODES[self.trump_card] if self.trump_card >= 0 else "-",
            "trump_suit": SUITS[self.trump_suit],
            "trump_known": str(int(self.trump_known)),
            "trump_holder": _opt(self.trump_holder),
            "last_drawer": _opt(self.last_drawer),
            "trick": _pairs(f"{seat}:{CARD_CODES[card]}" for seat, card in self.trick),
            "due": _seats(self.due),
            "current_round": _pairs(f"{seat}:{CARD_CODES[card]}" for seat, card in self.current_round),
            "tie": _seats(self.tie),
            "table": _pairs(f"{seat}:{ALL_ACTIONS[index]}" for seat, index in self.table),
            "trick_size": str(self.trick_size),
            "out": _seats(tuple(seat for seat, gone in enumerate(self.out) if gone)),
            "out_order": _seats(self.out_order),
            "losers": _seats(self.losers),
            "lost_on_empty": str(int(self.lost_on_empty)),
            "removed": _mask_text(self.removed),
            "discard": _mask_text(self.discard),
        }
        return " ".join([TEXT_FORMAT, *(f"{key}={value}" for key, value in fields.items())])

    @staticmethod
    def from_text(text: str) -> Position:
        """Read :meth:`to_text` back, checked (:meth:`check`); ``ValueError`` names the part
        that is wrong."""
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise ValueError("position text: expected one line of at most 4,000 characters")
        words = text.split()
        if not words or words[0] != TEXT_FORMAT:
            raise ValueError(f"position text: must start with {TEXT_FORMAT!r}")
        values: dict[str, str] = {}
        for word in words[1:]:
            key, sep, value = word.partition("=")
            if not sep or key not in TEXT_KEYS or key in values:
                raise ValueError(f"position text: unexpected {word[:30]!r}")
            values[key] = value
        missing = [key for key in TEXT_KEYS if key not in values]
        if missing:
            raise ValueError(f"position text: missing {', '.join(missing)}")
        try:
            position = _from_values(values)
        except (ValueError, IndexError, KeyError) as error:
            raise ValueError(f"position text: {error}") from None
        position.check()
        return position


TEXT_FORMAT = "mattis-position/1"
MAX_TEXT = 4000
TEXT_KEYS = ("rules", "players", "dealer", "phase", "to_move", "leader", "hands", "won", "stock",
             "trump_card", "trump_suit", "trump_known", "trump_holder", "last_drawer", "trick", "due",
             "current_round", "tie", "table", "trick_size", "out", "out_order", "losers",
             "lost_on_empty", "removed", "discard")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(name: str, seat: object, players: int, none_ok: bool = False) -> None:
    if none_ok and seat == -1:
        return
    if not _is_int(seat) or not 0 <= seat < players:
        raise ValueError(f"{name}: {seat!r} is not a seat from 0 to {players - 1}")


def _card(name: str, card: object) -> None:
    if not _is_int(card) or not 0 <= card < NUM_CARDS:
        raise ValueError(f"{name}: {card!r} is not a card number from 0 to 51")


def _opt(seat: int) -> str:
    return "-" if seat < 0 else str(seat)


def _seats(seats: tuple[int, ...]) -> str:
    return ",".join(str(seat) for seat in seats) or "-"


def _pairs(items: Iterable[str]) -> str:
    return ",".join(items) or "-"


def _mask_text(mask: int) -> str:
    return ".".join(codes_of(mask)) or "-"


def _rules_text(rules: Rules) -> str:
    """``app`` or ``pagat,min_sequence:3`` (the preset the options differ least from)."""
    best = min(PRESETS, key=lambda name: len(rules.differences(PRESETS[name])))
    changes = rules.differences(PRESETS[best])
    return ",".join([best, *(f"{key}:{str(ours).lower()}" for key, (ours, _) in changes.items())])


def _parse_rules(text: str) -> Rules:
    name, *changes = text.split(",")
    options: dict[str, str] = {}
    for change in changes:
        key, sep, value = change.partition(":")
        if not sep:
            raise ValueError(f"rules: expected option:value, got {change[:30]!r}")
        options[key] = value
    return Rules.preset(name).with_options(**options)


def _parse_phase(text: str) -> Phase:
    if text not in PHASES:
        raise ValueError(f"phase: expected one of {', '.join(PHASES)}, got {text[:30]!r}")
    return Phase(text)


def _parse_int(text: str) -> int:
    if not (text.isascii() and text.lstrip("-").isdigit()) or len(text) > 3:
        raise ValueError(f"expected a small whole number, got {text[:30]!r}")
    return int(text)


def _parse_opt(text: str) -> int:
    return -1 if text == "-" else _parse_int(text)


def _parse_seats(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(_parse_int(part) for part in text.split(","))


def _parse_mask(text: str) -> int:
    return 0 if text == "-" else mask_of(parse_card(code) for code in text.split("."))


def _parse_card_pairs(text: str) -> tuple[tuple[int, int], ...]:
    if text == "-":
        return ()
    pairs = []
    for part in text.split(","):
        seat, _, code = part.partition(":")
        pairs.append((_parse_int(seat), parse_card(code)))
    return tuple(pairs)


def _from_values(values: dict[str, str]) -> Position:
    table = []
    if values["table"] != "-":
        for part in values["table"].split(","):
            seat, _, action = part.partition(":")
            table.append((_parse_int(seat), Action.parse(action).index))
    players = _parse_int(values["players"])
    out = set(_parse_seats(values["out"]))
    return Position(
        rules=_parse_rules(values["rules"]),
        players=players,
        dealer=_parse_opt(values["dealer"]),
        phase=_parse_phase(values["phase"]),
        to_move=_parse_opt(values["to_move"]),
        leader=_parse_int(values["leader"]),
        hands=tuple(_parse_mask(part) for part in values["hands"].split("/")),
        won=tuple(_parse_mask(part) for part in values["won"].split("/")),
        stock=() if values["stock"] == "-" else tuple(parse_card(c) for c in values["stock"].split(".")),
        trump_card=-1 if values["trump_card"] == "-" else parse_card(values["trump_card"]),
        trump_suit=parse_suit(values["trump_suit"]),
        trump_known=values["trump_known"] == "1",
        trump_holder=_parse_opt(values["trump_holder"]),
        last_drawer=_parse_opt(values["last_drawer"]),
        trick=_parse_card_pairs(values["trick"]),
        due=_parse_seats(values["due"]),
        current_round=_parse_card_pairs(values["current_round"]),
        tie=_parse_seats(values["tie"]),
        table=tuple(table),
        trick_size=_parse_int(values["trick_size"]),
        out=tuple(seat in out for seat in range(players)),
        out_order=_parse_seats(values["out_order"]),
        losers=_parse_seats(values["losers"]),
        lost_on_empty=values["lost_on_empty"] == "1",
        removed=_parse_mask(values["removed"]),
        discard=_parse_mask(values["discard"]),
    )
