"""Game records read back, and the checks every value from outside the engine goes through.

A record is the rules, the seats, the deck (with the seed that shuffled it, if any) and the
actions (and, from a table where moves were taken back against robots, those moves in
``taken_back``, which the replay leaves out): :meth:`Game.record` writes one and
:meth:`Game.from_record` replays it through :func:`game_from_record`. Records come from files
and other people, so every field is checked before use, and anything malformed raises
``ValueError`` naming the field, never another error. :meth:`Game.new` and
:meth:`Game.from_hands` check their arguments with the same helpers, so a value is refused in
the same words whichever door it came through.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

from .cards import NUM_CARDS, card_code, parse_card, shuffled_deck
from .errors import IllegalAction
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

RECORD_FORMAT = "mattis-record/1"

MAX_SEED = 2**64 - 1
"""The largest seed a game or record may hold (seeds drawn by the program are 64-bit)."""


def game_from_record(game_type: type[Game], record: object) -> Game:
    """Replay ``record`` to the game it describes (see :meth:`Game.from_record`)."""
    if not isinstance(record, dict):
        raise ValueError(f"record: expected an object, got {kind(record)}")
    rules_data = record.get("rules")
    if not isinstance(rules_data, dict):
        raise ValueError(f"record: rules must be an object of rule options, got {kind(rules_data)}")
    try:
        rules = Rules.from_dict(rules_data)
    except ValueError as error:
        raise ValueError(f"record: rules: {error}") from None
    start = record.get("start")
    game = _from_deal(game_type, rules, record) if start is None else _from_start(game_type, rules, start)
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise ValueError(f"record: actions must be a list of action texts, got {kind(actions)}")
    for number, text in enumerate(actions):
        if not isinstance(text, str):
            raise ValueError(f"record: action {number} must be text such as '7h', got {kind(text)}")
        try:
            game.apply(text)
        except IllegalAction as error:
            raise ValueError(f"record: action {number} ({shown(text)}) is illegal: {error}") from None
    check_taken_back(record.get("taken_back"))
    check_coached(record.get("coached"), game.players)
    return game


def check_taken_back(taken_back: object) -> None:
    """A record's ``taken_back`` (moves taken back against robots, kept and marked; the game
    is ``actions`` without them) must be absent or a list of ``{"at": N, "actions": [...]}``:
    the stretch of moves that followed the first N moves before it was taken back."""
    if taken_back is None:
        return
    if not isinstance(taken_back, list):
        raise ValueError(f"record: taken_back must be a list of taken-back moves, got {kind(taken_back)}")
    for number, item in enumerate(taken_back):
        at = item.get("at") if isinstance(item, dict) else None
        moves = item.get("actions") if isinstance(item, dict) else None
        if not is_int(at) or at < 0 or not isinstance(moves, list) or not moves \
                or not all(isinstance(text, str) for text in moves):
            raise ValueError(f"record: taken_back {number} must be an object with at (a move number) "
                             "and actions (the moves taken back)")


def check_coached(coached: object, players: int) -> None:
    """A record's ``coached`` (the seats a coach watched, with their consent, at a shared
    table; the replay does not need it) must be absent or a list of distinct seat numbers."""
    if coached is None:
        return
    if (not isinstance(coached, list) or not all(is_int(seat) and 0 <= seat < players for seat in coached)
            or len(set(coached)) != len(coached)):
        raise ValueError("record: coached must be a list of distinct seat numbers")


def _from_start(game_type: type[Game], rules: Rules, start: object) -> Game:
    """A game set up from hands (:meth:`Game.from_hands`), as its record's ``start`` says."""
    if not isinstance(start, dict):
        raise ValueError(f"record: start must be an object, got {kind(start)}")
    hands = start.get("hands")
    if (not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands)
            or not all(isinstance(code, str) for hand in hands for code in hand)):
        raise ValueError("record: start.hands must be a list of lists of card codes")
    trump, leader = start.get("trump"), start.get("leader")
    if not isinstance(trump, str):
        raise ValueError(f"record: start.trump must be a suit letter, got {kind(trump)}")
    if not is_int(leader):
        raise ValueError(f"record: start.leader must be a seat number, got {kind(leader)}")
    try:
        return game_type.from_hands(rules, hands, trump, leader)
    except ValueError as error:
        raise ValueError(f"record: start: {error}") from None


def _from_deal(game_type: type[Game], rules: Rules, record: dict[str, Any]) -> Game:
    """A dealt game: from its deck, and from its seed too when the record has one, which
    must give that very deck (so neither can be changed alone)."""
    players, dealer, deck, seed = (record.get(key) for key in ("players", "dealer", "deck", "seed"))
    if not is_int(players):
        raise ValueError(f"record: players must be a number, got {kind(players)}")
    if not is_int(dealer):
        raise ValueError(f"record: dealer must be a seat number, got {kind(dealer)}")
    if not isinstance(deck, list):
        raise ValueError(f"record: deck must be the list of the 52 card codes dealt from, "
                         f"got {kind(deck)}")
    if not all(isinstance(code, str) for code in deck):
        bad = next(code for code in deck if not isinstance(code, str))
        raise ValueError(f"record: deck must hold card codes such as '7h', got {kind(bad)}")
    try:
        seed = check_seed(seed)
        game = game_type.new(rules, players, deck=deck, dealer=dealer)
    except ValueError as error:
        raise ValueError(f"record: {error}") from None
    if seed is None:
        return game
    if parse_deck(deck) != shuffled_deck(seed):
        raise ValueError("record: the seed does not give this deck (one of them was changed)")
    return game_type.new(rules, players, seed=seed, dealer=dealer)


def check_seed(seed: object) -> int | None:
    """``seed`` itself if it may shuffle a deck: ``None`` or a whole number from 0 to
    :data:`MAX_SEED` (a bool, float, text or a larger number would be accepted by
    ``random.Random`` but could not be written to a record and read back the same)."""
    if seed is None:
        return None
    if is_int(seed) and 0 <= seed <= MAX_SEED:
        return seed
    raise ValueError(f"seed: must be a whole number from 0 to 2**64-1, got {kind(seed)}")


def parse_deck(deck: object) -> list[int]:
    """All 52 cards, top first, as card numbers; the codes or numbers given are checked."""
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
        raise ValueError(f"deck: expected a list of 52 cards, got {kind(deck)}")
    order = []
    for item in deck:
        if is_int(item) and 0 <= item < NUM_CARDS:
            order.append(int(item))
        elif isinstance(item, str):
            order.append(parse_card(item))
        else:
            raise ValueError(f"deck: expected card codes such as '7h', got {kind(item)}")
    if len(order) != NUM_CARDS:
        raise ValueError(f"deck: must hold all 52 cards, got {len(order)}")
    if len(set(order)) != NUM_CARDS:
        seen: set[int] = set()
        for card in order:
            if card in seen:
                raise ValueError(f"deck: {card_code(card)} appears twice")
            seen.add(card)
        raise ValueError("deck: must hold each of the 52 cards once")
    return order


def is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not a bool (which Python counts as one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def kind(value: object) -> str:
    """What was given, for an error message: short, and safe for any value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 64 else f"a number of {value.bit_length()} bits"
    if isinstance(value, str):
        return f'"{shown(value)}"'
    if isinstance(value, float):
        return repr(value)
    return f"{'an' if type(value).__name__[0] in 'aeiou' else 'a'} {type(value).__name__}"


def shown(text: str) -> str:
    """Text quoted in a message: printable and at most 30 characters."""
    cleaned = "".join(char if char.isprintable() else "?" for char in text[:30])
    return cleaned + ("..." if len(text) > 30 else "")
