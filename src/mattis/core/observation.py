"""The one place where a player's view is cut from the full game (rules section 5).

A seat may know: its own hand; everything played face up (the current trick, war cards, the
phase-2 table, and — as at a real table, for whoever remembers — every card played, chanced,
picked up or taken back so far); how many cards each player holds, each won pile and the
stock hold; the trump suit once known; who holds the reserved trump card; who is out.

Never: other hands, the stock's order, the reserved card's face before phase 2, removed
cards. A ``won`` event lists the cards of the trick just taken, because everyone had just
seen them face up; nothing ever lists what lies in a won pile as such.

:func:`build_view` cuts a :class:`SeatView`: typed, frozen, and what bots, front ends and
the learning environments read. JSON exists only at the wire: :meth:`SeatView.to_dict` gives
the ``mattis-view/1`` dict (documented key by key in :data:`VIEW_SCHEMA`) that
``Game.view(seat)`` returns, and :meth:`SeatView.from_dict` reads one back (from a worker
process, a file or a socket).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from itertools import compress
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .actions import Action
from .cards import CARD_CODES, SUITS, cards_in, parse_card
from .events import Event, RawEvent, raw_to_json
from .phase import PHASE_NAMED, Phase
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

VIEW_FORMAT = "mattis-view/1"

VIEW_SCHEMA: Final[dict[str, str]] = {
    "format": '"mattis-view/1"',
    "seat": "the seat this view belongs to (0-based, clockwise); null in a public view",
    "players": "the number of seats",
    "rules": "every rule option, as Rules.to_dict() gives it",
    "preset": "the preset the rules equal, or null for a house-rule mix",
    "dealer": "the dealer's seat, or null for a game set up from hands",
    "phase": '"collect" (phase 1), "shed" (phase 2) or "over"',
    "to_move": "the seat to act, or null when the game is over",
    "leader": "who led the current trick (or leads the next one)",
    "hand": "this seat's cards, sorted codes; [] in a public view",
    "hand_sizes": "cards each seat holds",
    "won_sizes": "cards in each won pile (phase 1; zeros once the piles joined the hands)",
    "stock_size": "cards left in the stock, the reserved trump card included until put aside",
    "removed_count": "cards out of the game unseen (C4, P1.7c, cards outside a puzzle)",
    "trump": "the trump suit letter (c, d, h, s) once known, else null",
    "trump_card": "the trump card's code once its face is public, else null",
    "trump_holder": "who put the hidden trump card aside (hidden_last), else null",
    "trick": "phase 1: the current trick's cards as [seat, code], in play order; [] in phase 2",
    "plays": "phase 2: the plays on the table as [seat, [codes]], oldest first; [] in phase 1",
    "table": "the older, shared key: \"trick\" in phase 1 as [seat, [code]], \"plays\" in phase 2",
    "tie": "phase 1: the seats playing off a tie or war, in playing order",
    "due": "phase 1: the seats still due to play in this round, in order",
    "current_round": "phase 1: the cards of the current round as [seat, code]",
    "last_drawer": "bottom_up: who drew the stock's last (face-up) card, else null",
    "trick_size": "phase 2: how many plays complete the trick (P2.6), else null",
    "out": "the seats that have gone out",
    "out_order": "the seats that went out, in order",
    "losers": "the losing seats (Mattis), empty until the game is over",
    "history": "public events from number history_start on: {event, seat (or null), cards}",
    "history_start": "the number of the first event in history (0 unless asked with since)",
    "event_count": "how many events have happened in all (ask since=event_count next time)",
}
"""Every key of a view and what it means (the ``mattis-view/1`` contract)."""


class SeatView(NamedTuple):
    """Exactly what one seat may know at one moment, typed and immutable. Cards are numbers
    0-51 (see :mod:`mattis.core.cards`), card sets 52-bit masks; whatever the seat does not
    know is ``None``.

    A named tuple rather than a frozen dataclass because bots and learning environments
    make one at every step: a frozen dataclass of this many fields costs about six times
    as much to build as everything else in a view.
    """

    seat: int
    players: int
    rules: Rules
    preset: str | None
    """The preset the rules equal, or ``None`` for a house-rule mix."""
    dealer: int | None
    phase: Phase
    to_move: int | None
    leader: int
    hand: int
    """This seat's cards as a mask (:attr:`hand_cards` lists them)."""
    hand_sizes: tuple[int, ...]
    won_sizes: tuple[int, ...]
    stock_size: int
    removed_count: int
    trump_suit: int | None
    """0-3 (clubs … spades) once known."""
    trump_card: int | None
    """The trump card once its face is public."""
    trump_holder: int | None
    trick: tuple[tuple[int, int], ...]
    """Phase 1: the current trick as ``(seat, card)``, in play order."""
    plays: tuple[tuple[int, Action], ...]
    """Phase 2: the plays on the table as ``(seat, action)``, oldest first."""
    tie: tuple[int, ...]
    due: tuple[int, ...]
    current_round: tuple[tuple[int, int], ...]
    last_drawer: int | None
    trick_size: int | None
    """Phase 2: how many plays complete the trick (P2.6)."""
    out: frozenset[int]
    out_order: tuple[int, ...]
    losers: tuple[int, ...]
    events: tuple[RawEvent, ...]
    """The public events from number :attr:`history_start` on, in the engine's ``(kind,
    seat, mask)`` form (seat -1 for none): cheap to make and to follow, which matters to
    trackers fed at every step. :attr:`history` gives them as :class:`Event` values."""
    history_start: int
    event_count: int
    """How many events have happened in all (ask ``since=event_count`` next time)."""

    @property
    def history(self) -> tuple[Event, ...]:
        """The events from number :attr:`history_start` on, as :class:`Event` values."""
        return tuple(Event.from_raw(raw) for raw in self.events)

    @property
    def hand_cards(self) -> list[int]:
        """This seat's cards, ascending."""
        return list(cards_in(self.hand))

    @property
    def trump(self) -> str | None:
        """The trump suit letter once known."""
        return None if self.trump_suit is None else SUITS[self.trump_suit]

    @property
    def target(self) -> Action | None:
        """Phase 2: the play to beat (the most recent on the table), if any."""
        return self.plays[-1][1] if self.plays else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, ``mattis-view/1`` (every key of :data:`VIEW_SCHEMA`, in its order)."""
        in_phase1 = self.phase == Phase.COLLECT
        if in_phase1:
            trick = [[seat, CARD_CODES[card]] for seat, card in self.trick]
            table = [[seat, [code]] for seat, code in trick]
            plays: list[list[Any]] = []
        else:
            trick = []
            table = [[seat, [CARD_CODES[card] for card in play.cards]] for seat, play in self.plays]
            plays = [[seat, cards] for seat, cards in table]
        return {
            "format": VIEW_FORMAT,
            "seat": self.seat,
            "players": self.players,
            "rules": dict(_rules_dict(self.rules)),
            "preset": self.preset,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_move": self.to_move,
            "leader": self.leader,
            "hand": [CARD_CODES[card] for card in cards_in(self.hand)],
            "hand_sizes": list(self.hand_sizes),
            "won_sizes": list(self.won_sizes),
            "stock_size": self.stock_size,
            "removed_count": self.removed_count,
            "trump": self.trump,
            "trump_card": None if self.trump_card is None else CARD_CODES[self.trump_card],
            "trump_holder": self.trump_holder,
            "trick": trick,
            "plays": plays,
            "table": table,
            "tie": list(self.tie),
            "due": list(self.due),
            "current_round": [[seat, CARD_CODES[card]] for seat, card in self.current_round],
            "last_drawer": self.last_drawer,
            "trick_size": self.trick_size,
            "out": sorted(self.out),
            "out_order": list(self.out_order),
            "losers": list(self.losers),
            "history": [raw_to_json(raw) for raw in self.events],
            "history_start": self.history_start,
            "event_count": self.event_count,
        }

    @staticmethod
    def from_dict(view: Mapping[str, Any]) -> SeatView:
        """Read ``Game.view(seat)`` (or its JSON round trip). ``ValueError`` names the key
        that is missing or malformed."""
        try:
            return _read(view)
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise ValueError(f"view: malformed or missing {error}") from None
        except ValueError as error:
            message = str(error)
            raise ValueError(message if message.startswith("view") else f"view: {message}") from None


def build_view(game: Game, seat: int, since: int = 0) -> SeatView:
    """What ``seat`` may know about ``game``, with the events from number ``since`` on.

    It reads the engine's own fields (this is the core's one redaction point) so that a
    view costs a few microseconds: bots and learning environments ask for one at every
    step. The caller (``Game.seat_view``) has checked ``seat`` and ``since``.
    """
    phase = game.phase
    in_phase1 = phase == Phase.COLLECT
    rules = game._options.rules
    trump_known = game._trump_known
    trump_card = game._trump_card
    return SeatView(  # by position, in field order: keywords would cost three times more
        seat,                                                      # seat
        game.players,                                              # players
        rules,                                                     # rules
        _facts_of(rules)[2],                                       # preset
        game.dealer if game.dealer >= 0 else None,                 # dealer
        phase,                                                     # phase
        game.to_move,                                              # to_move
        game._leader,                                              # leader
        game._hands[seat],                                         # hand
        tuple([hand.bit_count() for hand in game._hands]),         # hand_sizes
        tuple([pile.bit_count() for pile in game._won]),           # won_sizes
        game.stock_size,                                           # stock_size
        game._removed.bit_count(),                                 # removed_count
        game._trump_suit if trump_known else None,                 # trump_suit
        trump_card if trump_known and trump_card >= 0 else None,   # trump_card
        game.trump_holder,                                         # trump_holder
        tuple(game._trick) if in_phase1 else (),                   # trick
        () if in_phase1 else tuple(game._table),                   # plays
        tuple(game._tie),                                          # tie
        tuple(game._queue) if in_phase1 else (),                   # due
        tuple(game._round),                                        # current_round
        game.last_drawer,                                          # last_drawer
        game._trick_size if phase == Phase.SHED else None,             # trick_size
        _out_seats(game._out),                                     # out
        tuple(game._out_order),                                    # out_order
        tuple(game._losers),                                       # losers
        tuple(game.raw_events_since(since)),                       # events
        since,                                                     # history_start
        game.num_events,                                           # event_count
    )


def public_view(game: Game, since: int = 0) -> dict[str, Any]:
    """What anyone may know about ``game``, seated or not (a spectator): a seat's view with
    no seat and no hand (``"seat": null``, ``"hand": []``), in the ``mattis-view/1`` form.

    Every other part of a view is public, the same for every seat (only ``seat`` and
    ``hand`` are cut for one), so this is any seat's view with those two taken out: the
    redaction stays in :func:`build_view` alone. The caller (``Game.public_view``) has
    checked ``since``.
    """
    view = build_view(game, 0, since)._replace(hand=0).to_dict()
    view["seat"] = None
    return view


def _out_seats(out: list[bool]) -> frozenset[int]:
    """The seats marked out (nobody, most of the game: that answer is shared)."""
    return frozenset(compress(range(len(out)), out)) if True in out else _NOBODY


_NOBODY: frozenset[int] = frozenset()


def _rules_dict(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()``, made once per rules object (callers copy it before handing it out)."""
    return _facts_of(rules)[1]


_RULES_FACTS: dict[int, tuple[Rules, dict[str, Any], str | None]] = {}


def _facts_of(rules: Rules) -> tuple[Rules, dict[str, Any], str | None]:
    """The rules' dict and preset name, kept by object identity: hashing a ``Rules`` value
    costs more than the rest of a view, and a game passes the same object every time. The
    entry holds the object, so its id cannot be reused while it is cached."""
    facts = _RULES_FACTS.get(id(rules))
    if facts is None or facts[0] is not rules:
        if len(_RULES_FACTS) >= 512:
            _RULES_FACTS.clear()
        facts = _RULES_FACTS[id(rules)] = (rules, rules.to_dict(), rules.preset_name)
    return facts


@functools.lru_cache(maxsize=256)
def _rules_from_items(items: tuple[tuple[str, Any], ...]) -> Rules:
    """The rules of a view's ``rules`` dict, read once per distinct dict."""
    return Rules.from_dict(dict(items))


# ---------------------------------------------------------------------- the typed reader


def _play_of(codes: list[str]) -> Action:
    """The action a phase-2 table entry (its card codes) was played as."""
    if len(codes) == 1:
        return Action.parse(codes[0])
    return Action.parse(f"{codes[0]}-{codes[-1]}")


def _card(code: Any) -> int:
    if not isinstance(code, str):
        raise ValueError(f"view: expected a card code, got {code!r}")
    return parse_card(code)


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _raw_event(item: Any) -> RawEvent:
    event = Event.from_dict(item)
    return (event.kind, -1 if event.seat is None else event.seat, event.mask)


def _read_rules(data: Any) -> Rules:
    if not isinstance(data, Mapping):
        raise ValueError(f"view: rules must be an object, got {type(data).__name__}")
    try:
        return _rules_from_items(tuple(data.items()))
    except TypeError:  # a value that cannot be a cache key: read it uncached (and fail)
        return Rules.from_dict(dict(data))


def _read(view: Mapping[str, Any]) -> SeatView:
    if view.get("format") != VIEW_FORMAT:
        raise ValueError(f"view: expected format {VIEW_FORMAT!r}, got {view.get('format')!r}")
    players = int(view["players"])
    hand = 0
    for code in view["hand"]:
        hand |= 1 << _card(code)
    trump = view["trump"]
    phase = PHASE_NAMED[str(view["phase"])]
    if "trick" in view:
        trick = tuple((int(s), _card(code)) for s, code in view["trick"])
        plays = tuple((int(s), _play_of(list(codes))) for s, codes in view["plays"])
    else:  # an older view with only the shared "table" key
        table = view["table"]
        trick = tuple((int(s), _card(codes[0])) for s, codes in table) if phase == Phase.COLLECT else ()
        plays = () if phase == Phase.COLLECT else tuple((int(s), _play_of(list(codes))) for s, codes in table)
    events = tuple(_raw_event(item) for item in view["history"])
    return SeatView(
        seat=int(view["seat"]),
        players=players,
        rules=_read_rules(view["rules"]),
        preset=view.get("preset"),
        dealer=_optional_int(view.get("dealer")),
        phase=phase,
        to_move=_optional_int(view["to_move"]),
        leader=int(view["leader"]),
        hand=hand,
        hand_sizes=tuple(int(n) for n in view["hand_sizes"]),
        won_sizes=tuple(int(n) for n in view["won_sizes"]),
        stock_size=int(view["stock_size"]),
        removed_count=int(view["removed_count"]),
        trump_suit=None if trump is None else SUITS.index(str(trump)),
        trump_card=None if view["trump_card"] is None else _card(view["trump_card"]),
        trump_holder=_optional_int(view["trump_holder"]),
        trick=trick,
        plays=plays,
        tie=tuple(int(s) for s in view["tie"]),
        due=tuple(int(s) for s in view["due"]),
        current_round=tuple((int(s), _card(code)) for s, code in view["current_round"]),
        last_drawer=_optional_int(view["last_drawer"]),
        trick_size=_optional_int(view["trick_size"]),
        out=frozenset(int(s) for s in view["out"]),
        out_order=tuple(int(s) for s in view["out_order"]),
        losers=tuple(int(s) for s in view["losers"]),
        events=events,
        history_start=int(view.get("history_start", 0)),
        event_count=int(view.get("event_count", len(events))),
    )
