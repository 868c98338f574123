"""What a player types, understood the same way by every front end, in every language we speak.

A turn accepts a card (``7h``, ``10h``, ``Th``, ``7♥``, Norwegian suit letters ``k r h s``
and ranks ``D`` dame, ``E`` ess, ``Kn`` knekt too), a sequence (``6h-8h``, or ``6-8h``), a
number from the displayed list of legal moves, *sjanse*/``chance``, *ta opp*/``pickup``, or a
command (``hint``, ``help``, ``rules``, ``quit``, ``show``), and in any language the words the
help names for them (``play.help.<command>_cmd``: *reglar* in nynorsk). Parsing never guesses and never
consults the game: it returns what was asked for, or an error saying what is wrong, and the
game decides whether the move is legal.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ..core.actions import CHANCE, PICKUP, Action
from ..core.cards import make_card, rank_of, suit_of
from ..i18n import LANGS, Lang, t
from .text import shown


class Command(StrEnum):
    """Requests that are not moves."""

    HINT = "hint"
    HELP = "help"
    RULES = "rules"
    QUIT = "quit"
    SHOW = "show"


_COMMAND_WORDS: dict[str, Command | Action] = {
    "hint": Command.HINT, "tips": Command.HINT, "tip": Command.HINT,
    "help": Command.HELP, "hjelp": Command.HELP, "?": Command.HELP,
    "rules": Command.RULES, "regler": Command.RULES, "regel": Command.RULES,
    "quit": Command.QUIT, "exit": Command.QUIT, "avslutt": Command.QUIT, "slutt": Command.QUIT,
    "stopp": Command.QUIT,
    "show": Command.SHOW, "vis": Command.SHOW, "bord": Command.SHOW, "board": Command.SHOW,
    "chance": CHANCE, "sjanse": CHANCE, "sjans": CHANCE, "sjansing": CHANCE, "sjanser": CHANCE,
    "pickup": PICKUP, "pick up": PICKUP, "pick-up": PICKUP, "take": PICKUP,
    "ta opp": PICKUP, "opp": PICKUP, "ta inn": PICKUP,
}
"""The words a turn understands besides cards and numbers (lower case, single spaces), besides
the ones the help shows in each language (:func:`command_words`)."""
_HELP_WORDS: dict[str, Command | Action] = {
    "hint": Command.HINT, "help": Command.HELP, "rules": Command.RULES, "quit": Command.QUIT,
    "show": Command.SHOW, "chance": CHANCE, "pickup": PICKUP,
}
"""The commands the help lists, by the key of their word (``play.help.<key>_cmd``)."""


@functools.cache
def command_words() -> dict[str, Command | Action]:
    """Every word a turn understands besides cards and numbers: :data:`_COMMAND_WORDS` and the
    word the help shows for each command in every language, so a language's own words work as
    soon as its catalogue has them."""
    words = dict(_COMMAND_WORDS)
    for lang in LANGS:
        for key, meaning in _HELP_WORDS.items():
            words.setdefault(" ".join(t(f"play.help.{key}_cmd", lang).split()).lower(), meaning)
    return words

_SUIT_CHARS: dict[str, int] = {
    "c": 0, "k": 0, "♣": 0, "♧": 0,
    "d": 1, "r": 1, "♦": 1, "♢": 1,
    "h": 2, "♥": 2, "♡": 2,
    "s": 3, "♠": 3, "♤": 3,
}
"""English (c d h s) and Norwegian (k r h s: kløver, ruter, hjerter, spar) suit letters."""

_RANK_TEXTS: dict[str, int] = {
    **{str(number): number - 2 for number in range(2, 11)},
    "t": 8, "j": 9, "kn": 9, "q": 10, "d": 10, "k": 11, "a": 12, "e": 12,
}
"""Ranks: 2-10 and T, J/Kn (knekt), Q/D (dame), K (konge), A/E (ess)."""

_DASHES = ("-", "–", "—")

MAX_NUMBER_DIGITS = 6
"""Longest move number read as a number: far more than any list of legal moves, far less
than the 4,300 digits where Python refuses to convert text to an integer."""


@dataclass(frozen=True, slots=True)
class MoveInput:
    """The player asked for this action (the game still decides whether it is legal)."""

    action: Action


@dataclass(frozen=True, slots=True)
class CommandInput:
    """The player asked for a command."""

    command: Command


@dataclass(frozen=True, slots=True)
class InputError:
    """Input that is neither a move nor a command; :meth:`text` says why in either language."""

    key: str
    params: dict[str, object] = field(default_factory=dict)

    def text(self, lang: Lang) -> str:
        """The one-line explanation."""
        return t(self.key, lang, **self.params)


ParsedInput = MoveInput | CommandInput | InputError
"""What :func:`parse_input` makes of a line (``None`` for a blank line)."""


class _CardError(ValueError):
    def __init__(self, error: InputError) -> None:
        super().__init__(error.key)
        self.error = error


def parse_input(text: str, choices: Sequence[Action] = ()) -> ParsedInput | None:
    """Understand one line typed at a turn. ``choices`` is the numbered list of legal moves
    the player was shown (numbers start at 1). A blank line gives ``None``."""
    words = " ".join(text.split()).lower().rstrip(".!")
    if not words:
        return None
    known = command_words().get(words)
    if isinstance(known, Command):
        return CommandInput(known)
    if isinstance(known, Action):
        return MoveInput(known)
    if words.isascii() and words.isdigit() and len(words) <= MAX_NUMBER_DIGITS:
        number = int(words)
        if not choices:
            return InputError("play.err.no_list")
        if not 1 <= number <= len(choices):
            return InputError("play.err.number_range", {"number": number, "max": len(choices)})
        return MoveInput(choices[number - 1])
    if all(char.isnumeric() for char in words.replace(" ", "")):
        # ``²``, ``①``, ``٣`` or a 5,000-digit number: Python would read some of them as
        # numbers, but they are not what the list shows, so say what a move looks like.
        if choices:
            return InputError("play.err.not_a_move", {"text": shown(text.strip()), "max": len(choices)})
        return InputError("play.err.not_a_move_no_list", {"text": shown(text.strip())})
    compact = words.replace(" ", "")
    if compact[:1] in _DASHES and compact[1:].isascii() and compact[1:].isdigit():
        # ``-1``: a number below the list, not a sequence with its first card missing
        if choices:
            return InputError("play.err.not_a_move", {"text": shown(text.strip()), "max": len(choices)})
        return InputError("play.err.not_a_move_no_list", {"text": shown(text.strip())})
    try:
        if any(dash in compact for dash in _DASHES):
            return MoveInput(_parse_sequence(compact, shown(text.strip())))
        if _looks_like_card(compact):
            return MoveInput(Action.single(_parse_card(compact, shown(text.strip()))))
    except _CardError as problem:
        return problem.error
    return InputError("play.err.unknown", {"text": shown(text.strip())})


def _looks_like_card(compact: str) -> bool:
    """Short text that starts or ends like a card: worth a card error rather than
    "unknown command" when it is malformed (``7x``, ``1h``, ``Zh``)."""
    if not 2 <= len(compact) <= 4 or (compact.isalpha() and len(compact) > 3):
        return False  # a word such as ``blah`` is no card: say what a move looks like
    return compact[0].isdigit() or compact[-1] in _SUIT_CHARS or compact[0] in _SUIT_CHARS


def _parse_card(compact: str, original: str) -> int:
    # Rank first (``7h``, ``kns``) is the documented form; suit first (``h7``) is how
    # some people say a card ("hjerter sju"), and the two never read the same text
    # differently, so both are safe to accept.
    if len(compact) >= 2:
        rank, suit = compact[:-1], compact[-1]
        if rank in _RANK_TEXTS and suit in _SUIT_CHARS:
            return make_card(_RANK_TEXTS[rank], _SUIT_CHARS[suit])
        suit, rank = compact[0], compact[1:]
        if rank in _RANK_TEXTS and suit in _SUIT_CHARS:
            return make_card(_RANK_TEXTS[rank], _SUIT_CHARS[suit])
    # Say what is wrong with the documented rank-first form before guessing at the other
    # (``Kx`` is a king with a bad suit, although ``k`` is also the Norwegian clubs letter).
    if len(compact) >= 2 and compact[:-1] in _RANK_TEXTS:
        raise _CardError(InputError("play.err.bad_suit", {"text": original, "suit": shown(compact[-1])}))
    if compact and compact[-1] in _SUIT_CHARS:
        raise _CardError(InputError("play.err.bad_rank", {"text": original, "rank": shown(compact[:-1])}))
    if compact and compact[0] in _SUIT_CHARS and len(compact) > 1:
        raise _CardError(InputError("play.err.bad_rank", {"text": original, "rank": shown(compact[1:])}))
    raise _CardError(InputError("play.err.bad_card", {"text": original}))


def _parse_sequence(compact: str, original: str) -> Action:
    for dash in _DASHES[1:]:
        compact = compact.replace(dash, "-")
    parts = compact.split("-")
    if len(parts) != 2 or not parts[0] or not parts[1]:
        raise _CardError(InputError("play.err.bad_sequence", {"text": original}))
    high = _parse_card(parts[1], original)
    if parts[0] in _RANK_TEXTS:  # ``6-8h``: the suit written once, at the end
        low = make_card(_RANK_TEXTS[parts[0]], suit_of(high))
    else:
        low = _parse_card(parts[0], original)
    if suit_of(low) != suit_of(high):
        raise _CardError(InputError("play.err.sequence_suits", {"text": original}))
    if rank_of(low) == rank_of(high):
        return Action.single(low)
    low, high = min(low, high), max(low, high)  # ``8h-6h`` can only mean one thing
    return Action.sequence(low, high)
