"""The one place where a player's view is cut from the full game (rules section 5), and its
typed reader.

A seat may know: its own hand; everything played face up (the current trick, war cards, the
phase-2 table, and — as at a real table, for whoever remembers — every card played, chanced,
picked up or taken back so far); how many cards each player holds, each won pile and the
stock hold; the trump suit once known; who holds the reserved trump card; who is out.

Never: other hands, the stock's order, the reserved card's face before phase 2, removed
cards. A ``won`` event lists the cards of the trick just taken, because everyone had just
seen them face up; nothing ever lists what lies in a won pile as such.

The view is a JSON-ready dict (format ``mattis-view/1``, documented in :data:`VIEW_SCHEMA`);
:class:`SeatView` reads one back into typed fields, once, for bots and front ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .actions import Action
from .cards import SUITS, cards_in, parse_card
from .events import Event, raw_to_json
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

VIEW_FORMAT = "mattis-view/1"

VIEW_SCHEMA: Final[dict[str, str]] = {
    "format": '"mattis-view/1"',
    "seat": "the seat this view belongs to (0-based, clockwise)",
    "players": "the number of seats",
    "rules": "every rule option, as Rules.to_dict() gives it",
    "preset": "the preset the rules equal, or null for a house-rule mix",
    "dealer": "the dealer's seat, or null for a game set up from hands",
    "phase": '"collect" (phase 1), "shed" (phase 2) or "over"',
    "to_move": "the seat to act, or null when the game is over",
    "leader": "who led the current trick (or leads the next one)",
    "hand": "this seat's cards, sorted codes",
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


def build_view(game: Game, seat: int, since: int = 0) -> dict[str, Any]:
    """A JSON-ready dict of exactly what ``seat`` may know about ``game``; the history holds
    the events from number ``since`` on."""
    players = range(game.players)
    in_phase1 = game.phase == "collect"
    table = game.table
    return {
        "format": VIEW_FORMAT,
        "seat": seat,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "preset": game.rules.preset_name,
        "dealer": game.dealer if game.dealer >= 0 else None,
        "phase": game.phase,
        "to_move": game.to_move,
        "leader": game.leader,
        "hand": game.hand(seat),
        "hand_sizes": [game.hand_size(s) for s in players],
        "won_sizes": [game.won_size(s) for s in players],
        "stock_size": game.stock_size,
        "removed_count": game.card_locations()["removed"],
        "trump": game.trump,
        "trump_card": game.trump_card,
        "trump_holder": game.trump_holder,
        "trick": [[s, cards[0]] for s, cards in table] if in_phase1 else [],
        "plays": [] if in_phase1 else [[s, cards] for s, cards in table],
        "table": [[s, cards] for s, cards in table],
        "tie": game.tie,
        "due": game.due,
        "current_round": [[s, card] for s, card in game.current_round],
        "last_drawer": game.last_drawer,
        "trick_size": game.trick_size if game.phase == "shed" else None,
        "out": [s for s in players if game.is_out(s)],
        "out_order": game.out_order,
        "losers": game.losers,
        "history": [raw_to_json(raw) for raw in game.raw_events_since(since)],
        "history_start": since,
        "event_count": game.num_events,
    }


# ---------------------------------------------------------------------- the typed reader


def _play_of(codes: list[str]) -> Action:
    """The action a phase-2 table entry (its card codes) was played as."""
    if len(codes) == 1:
        return Action.parse(codes[0])
    return Action.parse(f"{codes[0]}-{codes[-1]}")


@dataclass(frozen=True, slots=True)
class SeatView:
    """A view read into typed fields. Cards are numbers 0-51 (see :mod:`mattis.core.cards`);
    whatever the seat does not know is ``None``."""

    seat: int
    players: int
    rules: Rules
    preset: str | None
    dealer: int | None
    phase: str
    to_move: int | None
    leader: int
    hand: int
    """This seat's cards as a 52-bit mask (:attr:`hand_cards` lists them)."""
    hand_sizes: tuple[int, ...]
    won_sizes: tuple[int, ...]
    stock_size: int
    removed_count: int
    trump_suit: int | None
    """0-3 (clubs … spades) once known."""
    trump_card: int | None
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
    out: frozenset[int]
    out_order: tuple[int, ...]
    losers: tuple[int, ...]
    history: tuple[Event, ...]
    """The events from number :attr:`history_start` on."""
    history_start: int
    event_count: int

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


def _card(code: Any) -> int:
    if not isinstance(code, str):
        raise ValueError(f"view: expected a card code, got {code!r}")
    return parse_card(code)


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _read(view: Mapping[str, Any]) -> SeatView:
    if view.get("format") != VIEW_FORMAT:
        raise ValueError(f"view: expected format {VIEW_FORMAT!r}, got {view.get('format')!r}")
    players = int(view["players"])
    hand = 0
    for code in view["hand"]:
        hand |= 1 << _card(code)
    trump = view["trump"]
    phase = str(view["phase"])
    if "trick" in view:
        trick = tuple((int(s), _card(code)) for s, code in view["trick"])
        plays = tuple((int(s), _play_of(list(codes))) for s, codes in view["plays"])
    else:  # an older view with only the shared "table" key
        table = view["table"]
        trick = tuple((int(s), _card(codes[0])) for s, codes in table) if phase == "collect" else ()
        plays = () if phase == "collect" else tuple((int(s), _play_of(list(codes))) for s, codes in table)
    history = tuple(Event.from_dict(item) for item in view["history"])
    return SeatView(
        seat=int(view["seat"]),
        players=players,
        rules=Rules.from_dict(dict(view["rules"])),
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
        history=history,
        history_start=int(view.get("history_start", 0)),
        event_count=int(view.get("event_count", len(history))),
    )

