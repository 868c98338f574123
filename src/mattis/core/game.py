"""The Mattis rules engine: one game from the deal to the loser.

Everything about the rules lives here, with no I/O. Rule numbers (C3, P1.5, P2.4 …) refer
to the project's rules documentation (``docs/rules.en.md``).

The state is a handful of integers, 52-bit card masks and short lists, so :meth:`Game.copy`
is cheap for searching bots. Its fields are declared once, in :mod:`mattis.core.state`: the
parts of :class:`Game` between ``generated`` markers (the fields, ``copy``, ``==``,
``position`` and ``from_position``) are written from that declaration by
``dev/generate_state.py``, so edit the declaration, not them.

The game is a pure function of its rules, its deck order and its actions:
:meth:`Game.record` returns exactly those, and :meth:`Game.from_record` replays them
(:mod:`mattis.core.record` checks what it reads).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from .actions import ALL_ACTIONS, CHANCE, PICKUP, RUNS, SINGLES, Action
from .cards import (
    CARD_CODES,
    NUM_CARDS,
    SUIT_MASKS,
    SUITS,
    card_code,
    codes_of,
    mask_of,
    parse_card,
    parse_suit,
    rank_of,
    shuffled_deck,
)
from .errors import IllegalAction, InvalidAction, Reason
from .events import Event, EventHistory, EventKind, RawEvent, RawEvents, raw_event
from .observation import SeatView, build_view, public_view
from .options import EngineOptions, options_for
from .phase import PHASE_NAMED, Phase
from .position import Position
from .record import RECORD_FORMAT, check_seed, game_from_record, is_int, kind, parse_deck
from .rules import (
    NothingLeft,
    NothingLeftCounts,
    Rules,
    TieMode,
    TrumpMode,
)

HAND_SIZE: Final = 3
"""Cards dealt to each player, and the hand size drawing restores (C3, P1.4a)."""

_BELOW_ACES: Final = ((1 << NUM_CARDS) - 1) & ~sum(1 << (13 * suit + 12) for suit in range(4))
"""Every card but the four aces: no sequence goes on above an ace (P2.2)."""

_COLLECT: Final = Phase.COLLECT
_SHED: Final = Phase.SHED
_OVER: Final = Phase.OVER
"""The phases under short names: the engine compares them by identity. (``Final`` names are
constants to a compiled build, not look-ups in the module's globals.)"""

_NO_EVENTS: Final = EventHistory(None, 0)
"""The history of a game before its first event, shared by all such games (it never changes)."""

_PRIVATE: Final = object()
"""The key to :class:`Game`'s constructor, which only the engine's own factories hold."""

EV_PLAY: Final = EventKind.PLAY
EV_CHANCE: Final = EventKind.CHANCE
EV_PICKUP: Final = EventKind.PICKUP
EV_WON: Final = EventKind.WON
EV_ASIDE: Final = EventKind.ASIDE
EV_DROP: Final = EventKind.DROP
EV_BACK: Final = EventKind.BACK
EV_REVEAL: Final = EventKind.REVEAL
EV_DRAW_TRUMP: Final = EventKind.DRAW_TRUMP
EV_SHED: Final = EventKind.SHED
EV_CLEAR: Final = EventKind.CLEAR
EV_OUT: Final = EventKind.OUT
EV_LOSE: Final = EventKind.LOSE


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game ended."""

    losers: tuple[int, ...]
    """Who is Mattis (usually one seat; several after a Blåmattis/Blodmattis deal)."""
    out_order: tuple[int, ...]
    """The order in which the other players went out in phase 2."""
    lost_on_empty: bool
    """True when the losers had nothing after phase 1 (P1.10) rather than losing phase 2."""


def _cons_to_list(cell: tuple[Any, ...] | None) -> list[Any]:
    """The items of a linked list of cells, oldest first: a cell is ``(item, earlier)`` (the
    action log) or ``(kind, seat, mask, earlier)`` (the event list, see
    :data:`~mattis.core.events.RawEvents`), whose item is the raw event before ``earlier``."""
    items = []
    while cell is not None:
        items.append(cell[0] if len(cell) == 2 else cell[:-1])
        cell = cell[-1]
    items.reverse()
    return items


class Game:
    """One game of Mattis. Create it with :meth:`new`, :meth:`from_hands` or :meth:`from_record`."""

    # --- generated fields: from mattis.core.state.STATE by dev/generate_state.py ---
    __slots__ = (
        "_discard", "_events", "_hands", "_history", "_in_count", "_last_drawer", "_leader",
        "_legal", "_log", "_losers", "_lost_on_empty", "_min_sequence", "_num_actions", "_options",
        "_origin", "_out", "_out_order", "_phase", "_queue", "_removed", "_round", "_stock",
        "_stock_pos", "_table", "_tie", "_to_move", "_trick", "_trick_size", "_trump_card",
        "_trump_holder", "_trump_known", "_trump_suit", "_won", "dealer", "players",
    )
    _options: EngineOptions
    players: int
    """The number of seats."""
    dealer: int
    """The dealer's seat (-1 for positions set up with :meth:`from_hands`)."""
    _origin: _Origin
    _phase: Phase
    _to_move: int
    _hands: list[int]
    _won: list[int]
    _stock: tuple[int, ...]
    _stock_pos: int
    _removed: int
    _discard: int
    _trump_card: int
    _trump_suit: int
    _trump_known: bool
    _trump_holder: int
    _last_drawer: int
    _leader: int
    _trick: list[tuple[int, int]]
    _queue: list[int]
    _round: list[tuple[int, int]]
    _tie: list[int]
    _table: list[tuple[int, Action]]
    _trick_size: int
    _out: list[bool]
    _in_count: int
    _out_order: list[int]
    _losers: tuple[int, ...]
    _lost_on_empty: bool
    _log: tuple[Action, Any] | None
    _events: RawEvents
    _num_actions: int
    _history: EventHistory
    _legal: list[Action] | None
    _min_sequence: int
    # --- end of generated fields ---

    # ------------------------------------------------------------------ creation

    def __init__(self, key: object = None) -> None:
        """Games come from :meth:`new`, :meth:`from_hands`, :meth:`from_record` and
        :meth:`from_position`, which set every field; the key keeps others out."""
        if key is not _PRIVATE:
            raise TypeError("use Game.new(), Game.from_hands() or Game.from_record()")

    @classmethod
    def new(
        cls,
        rules: str | Rules = "pagat",
        players: int = 3,
        seed: object = None,
        deck: Sequence[str | int] | None = None,
        dealer: object = None,
    ) -> Game:
        """Deal a new game (C3). ``deck`` is all 52 cards, top first; otherwise the pack is
        shuffled with ``random.Random(seed)`` (the seed is kept in the record, and only then).
        A seed is ``None`` or a whole number from 0 to 2**64-1, checked as a record's is.
        The dealer (a seat number) defaults to the last seat.

        Every argument is checked here, and a bad one raises ``ValueError``: the loosely
        typed ones (``object``) are so that a compiled build, which checks argument types
        on entry, raises the same error as pure Python."""
        resolved = _resolve_rules(rules)
        resolved.check_players(players)
        checked_seed = check_seed(seed)
        if deck is None:
            order = shuffled_deck(checked_seed)
        else:
            order = parse_deck(deck)
            checked_seed = None  # the deck was given: no seed made it
        if dealer is None:
            dealer = players - 1
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise ValueError(f"dealer: must be a seat from 0 to {players - 1}, got {kind(dealer)}")
        game = cls(_PRIVATE)
        game._deal(resolved, players, dealer, tuple(order), checked_seed)
        return game

    @classmethod
    def from_hands(
        cls,
        rules: str | Rules = "pagat",
        hands: Sequence[Sequence[str | int]] = (),
        trump: str = "s",
        leader: object = 0,
    ) -> Game:
        """Start directly in phase 2 from given hands (for tests, puzzles and teaching).

        Cards in no hand are out of the game. 2-6 hands are allowed whatever the preset's
        player range. P1.10 (nothing left) applies to the given hands at once.
        """
        resolved = _resolve_rules(rules)
        if not 2 <= len(hands) <= 6:
            raise ValueError(f"hands: give 2 to 6 hands, got {len(hands)}")
        masks = []
        seen = 0
        for hand in hands:
            mask = 0
            for item in hand:
                if is_int(item) and 0 <= item < NUM_CARDS:
                    card = item
                elif isinstance(item, str):
                    card = parse_card(item)
                else:
                    raise ValueError(f"hands: expected card codes such as '7h', got {kind(item)}")
                if (seen | mask) >> card & 1:
                    raise ValueError(f"hands: {card_code(card)} appears twice")
                mask |= 1 << card
            seen |= mask
            masks.append(mask)
        trump_suit = parse_suit(trump)
        if not is_int(leader) or not 0 <= leader < len(hands):
            raise ValueError(f"leader: must be a seat from 0 to {len(hands) - 1}, got {kind(leader)}")
        game = cls(_PRIVATE)
        game._start(resolved, len(hands), -1, (), None)
        game._origin = _Origin((), None, ([codes_of(m) for m in masks], SUITS[trump_suit], leader))
        game._removed = ((1 << NUM_CARDS) - 1) & ~seen
        game._won = masks  # treated as the phase-1 won piles for P1.10
        game._trump_card = -1
        game._trump_suit = trump_suit
        game._trump_known = True
        game._leader = leader
        game._end_phase1()
        return game

    @classmethod
    def from_record(cls, record: object) -> Game:
        """Replay a record made by :meth:`record` to an identical game.

        Records come from files and other people, so every field is checked before use:
        anything malformed raises ``ValueError`` naming the field, never another error
        (see :mod:`mattis.core.record`).
        """
        return game_from_record(cls, record)

    @classmethod
    def from_position(cls, position: Position, check: bool = True) -> Game:
        """A game continuing from ``position`` (its history starts empty). Searching bots
        build positions from their own view plus sampled hidden cards; they may skip the
        consistency check (``check=False``) for speed once their sampler is tested."""
        if check:
            position.check()
        game = cls(_PRIVATE)
        game._continue_from(position)
        return game

    def _deal(self, rules: Rules, players: int, dealer: int, deck: tuple[int, ...],
              seed: int | None) -> None:
        self._start(rules, players, dealer, deck, seed)
        order = list(deck)
        if players == 2 and rules.removed_two_player:  # C4
            self._removed = mask_of(order[: rules.removed_two_player])
            order = order[rules.removed_two_player:]
        for round_number in range(HAND_SIZE):  # C3: one at a time, left of the dealer first
            for offset in range(1, players + 1):
                seat = (dealer + offset) % players
                self._hands[seat] |= 1 << order[round_number * players + offset - 1]
        self._stock = tuple(order[HAND_SIZE * players:])
        self._trump_card = self._stock[-1]
        self._trump_suit = self._trump_card // 13
        self._trump_known = rules.trump is TrumpMode.BOTTOM_UP  # P1.6
        self._leader = (dealer + 1) % players  # P1.1
        self._p1_start_trick()
        self._p1_settle()

    # ------------------------------------------------------------------ public state

    @property
    def rules(self) -> Rules:
        """The options this game is played with."""
        return self._options.rules

    @property
    def phase(self) -> Phase:
        """``collect`` (phase 1), ``shed`` (phase 2) or ``over``; equal to those strings."""
        return self._phase

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        return None if self._phase is _OVER else self._to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._phase is _OVER

    @property
    def stock_size(self) -> int:
        """Cards left in the stock (the reserved trump card included until it is put aside)."""
        return len(self._stock) - self._stock_pos

    @property
    def trump(self) -> str | None:
        """The trump suit letter, or ``None`` while no player knows it (P1.6)."""
        return SUITS[self._trump_suit] if self._trump_known else None

    @property
    def trump_suit_index(self) -> int:
        """The trump suit as 0-3 (clubs … spades) once known, else -1 (fast path for bots)."""
        return self._trump_suit if self._trump_known else -1

    @property
    def trump_card(self) -> str | None:
        """The trump card's code once its face is public (at once with ``bottom_up``,
        from phase 2 with ``hidden_last``); ``None`` otherwise."""
        if self._trump_known and self._trump_card >= 0:
            return CARD_CODES[self._trump_card]
        return None

    @property
    def trump_holder(self) -> int | None:
        """Who put the hidden trump card aside (``hidden_last``), once someone has."""
        return self._trump_holder if self._trump_holder >= 0 else None

    @property
    def leader(self) -> int:
        """Who led the current trick (or will lead the next one)."""
        return self._leader

    @property
    def tie(self) -> list[int]:
        """The seats now playing off a tie or war in phase 1 (empty otherwise)."""
        return list(self._tie)

    @property
    def due(self) -> list[int]:
        """Phase 1: the seats still due to play in the current round of the trick, in order
        (public: everyone at the table sees whose turn comes next)."""
        return list(self._queue) if self._phase is _COLLECT else []

    @property
    def current_round(self) -> list[tuple[int, str]]:
        """Phase 1: the cards played in the current round (the first round of the trick, or
        the current round of a tie), in play order."""
        return [(seat, CARD_CODES[card]) for seat, card in self._round]

    @property
    def last_drawer(self) -> int | None:
        """``bottom_up``: who drew the stock's last (face-up) card, once someone has."""
        return self._last_drawer if self._last_drawer >= 0 else None

    @property
    def trick_size(self) -> int:
        """Phase 2: how many plays complete the current trick (P2.6)."""
        return self._trick_size

    @property
    def losers(self) -> list[int]:
        """The losing seats (Mattis), empty until the game is over."""
        return list(self._losers)

    @property
    def out_order(self) -> list[int]:
        """The seats that went out in phase 2, in order (P2.8)."""
        return list(self._out_order)

    @property
    def result(self) -> GameResult | None:
        """The result once the game is over, else ``None``."""
        if self._phase is not _OVER:
            return None
        return GameResult(self._losers, tuple(self._out_order), self._lost_on_empty)

    @property
    def num_actions(self) -> int:
        """How many actions have been applied."""
        return self._num_actions

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far, oldest first."""
        return _cons_to_list(self._log)

    @property
    def table(self) -> list[tuple[int, list[str]]]:
        """Phase 1: the current trick, one entry per card in play order (war cards included).
        Phase 2: the plays on the table, oldest first."""
        if self._phase is _COLLECT:
            return [(seat, [CARD_CODES[card]]) for seat, card in self._trick]
        return [(seat, [CARD_CODES[c] for c in play.cards]) for seat, play in self._table]

    @property
    def history(self) -> EventHistory:
        """Every public event so far, oldest first, as a read-only sequence: ``len()`` and
        the latest events cost next to nothing, and events become :class:`Event` values only
        when read."""
        history = self._history = self._history.later(self._events)
        return history

    @property
    def num_events(self) -> int:
        """How many public events have happened (the length of :attr:`history`).

        Counted lazily from the last count, so the hot path (``apply``) pays nothing and a
        caller asking after every move pays for the new events only.
        """
        history = self._history = self._history.later(self._events)
        return len(history)

    def events_since(self, start: object) -> list[Event]:
        """The public events from number ``start`` (0-based) on, oldest first. Costs time in
        proportion to the events returned, not to the whole history, so a front end that
        remembers how many it has seen stays fast in games of any length."""
        return [Event.from_raw(raw) for raw in self.raw_events_since(start)]

    def raw_events_since(self, start: object) -> list[RawEvent]:
        """:meth:`events_since` in the engine's internal ``(kind, seat, mask)`` form."""
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise ValueError(f"since: must be a whole number from 0, got {start!r}")
        items: list[RawEvent] = []
        cell = self._events
        for _ in range(self.num_events - start):
            assert cell is not None
            items.append(raw_event(cell))
            cell = cell[3]
        items.reverse()
        return items

    def hand(self, seat: object) -> list[str]:
        """The sorted card codes in ``seat``'s hand."""
        return codes_of(self._hands[self._check_seat(seat)])

    def hand_size(self, seat: object) -> int:
        """How many cards ``seat`` holds."""
        return self._hands[self._check_seat(seat)].bit_count()

    def won(self, seat: object) -> list[str]:
        """The sorted codes of ``seat``'s phase-1 won pile (empty once phase 2 begins, when the
        pile has joined the hand, P1.9)."""
        return codes_of(self._won[self._check_seat(seat)])

    def won_size(self, seat: object) -> int:
        """How many cards are in ``seat``'s won pile."""
        return self._won[self._check_seat(seat)].bit_count()

    def is_out(self, seat: object) -> bool:
        """Whether ``seat`` has gone out in phase 2."""
        return self._out[self._check_seat(seat)]

    def card_locations(self) -> dict[str, int]:
        """How many cards are in each place; they always add up to 52 (used by tests)."""
        trick_cards = len(self._trick)
        table_cards = sum(len(play.cards) for _, play in self._table)
        aside = 1 if self._trump_holder >= 0 and self._phase is _COLLECT else 0
        return {
            "hands": sum(h.bit_count() for h in self._hands),
            "won": sum(w.bit_count() for w in self._won),
            "stock": self.stock_size,
            "aside": aside,
            "trick": trick_cards,
            "table": table_cards,
            "discard": self._discard.bit_count(),
            "removed": self._removed.bit_count(),
        }

    def _check_seat(self, seat: object) -> int:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat: must be from 0 to {self.players - 1}, got {kind(seat)}")
        return seat

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """The legal actions of the player to move, sorted (plays by lowest then highest
        card, then ``chance``, then ``pickup``); empty when the game is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[:]

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` (an :class:`Action` or its text; anything else is not) may be
        applied now."""
        try:
            parsed = Action.parse(action)
        except InvalidAction:
            return False
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return parsed in legal

    def check(self, action: object, seat: object = None) -> IllegalAction | None:
        """Whether ``action`` (an :class:`Action` or its text) may be applied now (by
        ``seat``, if given): ``None`` if it may, else the :class:`IllegalAction` that
        :meth:`apply` would raise, with its ``reason`` code and ``params``. Never raises for
        bad input (hence ``object``, also for a compiled build) and changes nothing."""
        if self._phase is _OVER:
            return IllegalAction(Reason.GAME_OVER)
        if seat is not None and seat != self._to_move:
            return IllegalAction(Reason.NOT_YOUR_TURN, {
                "seat": seat if isinstance(seat, int) else repr(seat)[:20], "to_move": self._to_move})
        try:
            parsed = Action.parse(action)
        except InvalidAction as error:
            return error
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if parsed not in legal:
            return self._refusal(parsed)
        return None

    def apply(self, action: object, seat: object = None) -> Action:
        """Play ``action`` (an :class:`Action` or its text) for the player to move, or for
        ``seat`` if given. Raises :class:`IllegalAction` (with a ``reason`` code) and leaves
        the game unchanged if it may not be played, and :class:`InvalidAction` for anything
        that is no action (hence ``object``: a compiled build raises the same). Returns the
        parsed action."""
        if self._phase is _OVER or (seat is not None and seat != self._to_move):
            refusal = self.check(action, seat)
            assert refusal is not None
            raise refusal
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action in legal:  # actions compare by identity: only the engine's own get here
            self._do(action)
            return action
        parsed = Action.parse(action)  # raises InvalidAction, also for hand-built objects
        if parsed not in legal:
            raise self._refusal(parsed)
        self._do(parsed)
        return parsed

    def apply_unchecked(self, action: Action) -> None:
        """Apply a legal :class:`Action` without checking it: the fast path for search and
        simulations, which take actions from :meth:`legal_actions`."""
        self._do(action)

    def play_randomly(self, rng: random.Random, max_actions: object) -> int:
        """Play uniformly random legal actions until the game ends or :attr:`num_actions`
        reaches ``max_actions``, and return how many were played: a random playout in one
        call, so a compiled build runs the whole loop compiled (searches and benchmarks
        play millions). Each move is ``legal[int(rng.random() * len(legal))]``, one call
        into the generator's C code, so the games are reproducible from ``rng``'s seed."""
        if not is_int(max_actions) or max_actions < 0:
            raise ValueError(f"max_actions: must be a whole number from 0, got {max_actions!r}")
        cap: int = max_actions
        played = 0
        while self._phase is not _OVER and self._num_actions < cap:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal()
            self._do(legal[int(rng.random() * len(legal))])
            played += 1
        return played

    def __copy__(self) -> Game:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._same_state(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        preset = self.rules.preset_name or "house rules"
        return (f"<Game {preset}, {self.players} players, {self.phase}, "
                f"to move: {self.to_move}, {self._num_actions} actions>")

    # ------------------------------------------------------------------ records and views

    def record(self) -> dict[str, Any]:
        """A JSON-ready record (rules, players, dealer, deck and seed, actions);
        :meth:`from_record` replays it to an identical game."""
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "preset": self.rules.preset_name,
            "rules": self.rules.to_dict(),
            "players": self.players,
        }
        start = self._origin.start
        if start is not None:  # a copy: the caller may change the record freely
            hands, trump, leader = start
            record["start"] = {"hands": [list(hand) for hand in hands], "trump": trump, "leader": leader}
        else:
            record["dealer"] = self.dealer
            record["seed"] = self._origin.seed
            record["deck"] = [CARD_CODES[card] for card in self._origin.deck]
        record["actions"] = [str(action) for action in self.actions]
        if self._phase is _OVER:
            record["result"] = {"losers": list(self._losers), "out_order": list(self._out_order)}
        return record

    def view(self, seat: object, since: object = 0) -> dict[str, Any]:
        """Everything ``seat`` may know and nothing more (rules section 5), JSON-ready
        (keys: :data:`~mattis.core.observation.VIEW_SCHEMA`). Bots and front ends see the
        game only through this. The history holds the events from number ``since`` on, so
        a caller that remembers ``event_count`` gets views of constant size."""
        return self.seat_view(seat, since).to_dict()

    def seat_view(self, seat: object, since: object = 0) -> SeatView:
        """:meth:`view` as a typed :class:`~mattis.core.observation.SeatView`, without the
        JSON dict: for bots and learning environments in the same process."""
        count = self.num_events
        if not isinstance(since, int) or isinstance(since, bool) or not 0 <= since <= count:
            raise ValueError(f"since: must be from 0 to {count}, got {since!r}")
        return build_view(self, self._check_seat(seat), since)

    def public_view(self, since: object = 0) -> dict[str, Any]:
        """What anyone may know, seated or not (a spectator): :meth:`view` with ``"seat":
        null`` and no hand (``"hand": []``)."""
        count = self.num_events
        if not isinstance(since, int) or isinstance(since, bool) or not 0 <= since <= count:
            raise ValueError(f"since: must be from 0 to {count}, got {since!r}")
        return public_view(self, since)

    # ------------------------------------------------------------------ legal moves

    def _compute_legal(self) -> list[Action]:
        if self._phase is _SHED:
            return self._p2_legal(self._options.follow_suit)
        if self._phase is _COLLECT:
            seat = self._to_move
            hand = self._hands[seat]
            legal = self._plays(hand, hand, 0)  # phase 1: single cards, no sequences
            if self._p1_may_chance():
                legal.append(CHANCE)
            return legal
        return []

    def _p1_may_chance(self) -> bool:
        """P1.4: chancing needs the option, two or more stock cards, and no any_match battle."""
        if not self._options.chance or len(self._stock) - self._stock_pos < 2:
            return False
        return not (self._tie and self._options.any_match)

    def _p1_can_play(self, seat: int) -> bool:
        return self._hands[seat] != 0 or self._p1_may_chance()

    def _p2_legal(self, follow_suit: bool) -> list[Action]:
        """The legal phase-2 actions: the one place that decides which plays beat the table
        (P2.5). ``follow_suit`` is the rule's value, given so that :meth:`_refusal` can ask
        what would be legal without it."""
        hand = self._hands[self._to_move]
        table = self._table
        if not table:  # P2.3: lead any play
            return self._plays(hand, hand, self._min_sequence)
        if not hand:  # P1.10 must_pick_up: an empty player must pick up
            return [PICKUP]
        target = table[-1][1]
        target_suit = target.suit
        trump = self._trump_suit
        suit_cards = hand & SUIT_MASKS[target_suit]
        # P2.5: same suit above the target's highest card (for a trump target, higher trump) …
        starts = suit_cards & ~((2 << target.high) - 1)
        # … or any trump play, unless follow_suit binds a player holding the led suit.
        if target_suit != trump and not (suit_cards and follow_suit):
            starts |= hand & SUIT_MASKS[trump]
        plays = self._plays(hand, starts, self._min_sequence)
        if not plays or self._options.voluntary_pickup:  # P2.4
            plays.append(PICKUP)
        return plays

    def _plays(self, hand: int, starts: int, min_sequence: int) -> list[Action]:
        """Every single card of ``starts`` and every sequence of at least ``min_sequence``
        cards (none if 0) from it upwards in ``hand`` (P2.2)."""
        plays: list[Action] = []
        # Bit c: c and the next higher card of its suit are both in the hand, so a sequence
        # through c goes on (one mask for the whole hand, no rank arithmetic per card).
        linked = hand & (hand >> 1) & _BELOW_ACES if min_sequence else 0
        while starts:
            low_bit = starts & -starts
            starts ^= low_bit
            low = low_bit.bit_length() - 1
            plays.append(SINGLES[low])
            if linked >> low & 1:
                runs = RUNS[low]
                top = low
                while linked >> top & 1:
                    top += 1
                    if top - low + 1 >= min_sequence:
                        plays.append(runs[top - low - 1])
        return plays

    # ------------------------------------------------------------------ applying

    def _do(self, action: Action) -> None:
        self._log = (action, self._log)
        self._num_actions += 1
        self._legal = None
        if self._phase is _COLLECT:
            self._p1_do(action)
        else:
            self._p2_do(action)

    # Phase 1 ---------------------------------------------------------

    def _p1_do(self, action: Action) -> None:
        seat = self._to_move
        if action is CHANCE:  # P1.4: the top of the stock, played at once
            card = self._stock[self._stock_pos]
            self._stock_pos += 1
            self._events = (EV_CHANCE, seat, 1 << card, self._events)
        else:
            card = action.low
            bit = 1 << card
            hands = self._hands  # not `hands[seat] &= …`: a compiled build does that generically
            hands[seat] = hands[seat] & ~bit
            self._events = (EV_PLAY, seat, bit, self._events)
            if self._options.draws_after_play:  # P1.4a
                self._draw(seat)
        played = (seat, card)  # one tuple for both lists: it never changes
        self._trick.append(played)
        self._round.append(played)
        del self._queue[0]
        self._p1_settle()

    def _draw(self, seat: int) -> None:
        """Draw one card from the stock; the reserved hidden trump card is put aside (P1.6)."""
        remaining = len(self._stock) - self._stock_pos
        if remaining <= 0:
            return
        if remaining == 1 and self._options.hidden_trump:
            self._stock_pos += 1
            self._trump_holder = seat
            self._events = (EV_ASIDE, seat, 0, self._events)
            return
        card = self._stock[self._stock_pos]
        self._stock_pos += 1
        bit = 1 << card
        hands = self._hands
        hands[seat] = hands[seat] | bit
        if remaining == 1:
            self._last_drawer = seat
            if self._trump_known:  # everyone sees who takes the face-up bottom card
                self._events = (EV_DRAW_TRUMP, seat, bit, self._events)

    def _p1_settle(self) -> None:
        """Run the automatic steps until a player must choose or phase 1 ends."""
        while self._phase is _COLLECT:
            if not self._queue:
                self._p1_resolve_round()
                continue
            seat = self._queue[0]
            if self._p1_can_play(seat):
                self._to_move = seat
                return
            if not self._tie:  # the first round of a trick
                if self._options.ends_on_no_card:  # P1.7 no_card
                    self._end_phase1()
                    return
                del self._queue[0]  # P1.7 one_left / stock_empty: skipped
                continue
            # A tied player with nothing to play.
            if self._options.ends_on_no_card and self.stock_size == 0:
                self._end_phase1()  # P1.7 no_card, also in the middle of a tie
                return
            self._p1_drop_from_tie(seat)  # P1.7b

    def _p1_drop_from_tie(self, seat: int) -> None:
        self._tie.remove(seat)
        self._queue = [s for s in self._queue if s != seat]
        self._round = [(s, c) for s, c in self._round if s != seat]
        self._events = (EV_DROP, seat, 0, self._events)
        if len(self._tie) == 1:
            self._p1_win(self._tie[0])

    def _p1_resolve_round(self) -> None:
        """Everyone due has played: decide the trick or start a tie (P1.3, P1.5)."""
        played = self._round
        if not played:  # everyone was skipped
            self._end_phase1()
            return
        # Plain lists and a bit set, not a dict and a set: a round is decided thousands of
        # times a second in a search, and a compiled build keeps these loops native.
        best = [-1] * self.players
        for seat, card in played:
            rank = rank_of(card)
            if best[seat] < rank:
                best[seat] = rank
        seats = self._tie or [seat for seat, _ in played]
        top = -1
        for seat in seats:
            if best[seat] > top:
                top = best[seat]
        if not self._tie and self._options.any_match:
            seen = 0
            repeated = -1
            for seat in seats:
                rank = best[seat]
                if seen >> rank & 1 and rank > repeated:
                    repeated = rank
                seen |= 1 << rank
            if repeated >= 0:  # P1.5 any_match: the highest repeated rank goes to war
                top = repeated
        contenders = [seat for seat in seats if best[seat] == top]
        if len(contenders) == 1:
            self._p1_win(contenders[0])
            return
        self._p1_start_tie(contenders)

    def _p1_start_tie(self, contenders: list[int]) -> None:
        """The tied players play off the trick (P1.5), in playing order from the leader.
        (Its own method: the sort key's closure then costs only when there is a tie.)"""
        leader, players = self._leader, self.players
        contenders.sort(key=lambda s: (s - leader) % players)
        self._tie = contenders
        self._round = []
        if self._options.two_cards:
            self._queue = contenders + contenders  # two cards each, alternately
        else:
            self._queue = contenders[:]

    def _p1_win(self, winner: int) -> None:
        """``winner`` takes every card of the trick into the won pile (P1.1)."""
        taken = 0
        for _, card in self._trick:
            taken |= 1 << card
        won = self._won
        won[winner] = won[winner] | taken
        self._events = (EV_WON, winner, taken, self._events)
        self._trick = []
        self._round = []
        self._tie = []
        self._queue = []
        self._leader = winner
        if not self._options.draws_after_play:  # P1.4a after_trick: winner first, then clockwise
            for offset in range(self.players):
                seat = (winner + offset) % self.players
                # Counted once per seat (each draw adds one card, or empties the stock by
                # putting the hidden trump aside): a compiled build calls bit_count as a
                # Python method.
                for _ in range(HAND_SIZE - self._hands[seat].bit_count()):
                    if self.stock_size == 0:
                        break
                    self._draw(seat)
        self._p1_start_trick()

    def _p1_start_trick(self) -> None:
        options = self._options
        players = self.players
        if options.ends_on_stock_empty and self.stock_size == 0:
            self._end_phase1()
            return
        able = [self._p1_can_play(seat) for seat in range(players)]
        if options.ends_on_one_left and sum(able) < 2:
            self._end_phase1()
            return
        leader = self._leader
        if not options.ends_on_no_card and not able[leader]:
            # Decision: a leader with nothing to play passes the lead clockwise.
            for offset in range(1, players):
                if able[(leader + offset) % players]:
                    leader = (leader + offset) % players
                    break
            else:
                self._end_phase1()
                return
            self._leader = leader
        if options.everyone_plays:
            self._queue = [(leader + offset) % players for offset in range(players)]
        else:  # P1.2 pair: to the next player on the left who has something to play
            self._queue = [leader]
            for offset in range(1, players):
                if able[(leader + offset) % players]:
                    self._queue.append((leader + offset) % players)
                    break

    def _end_phase1(self) -> None:
        """Take back an unfinished trick, form phase-2 hands, apply P1.10, start phase 2."""
        if self._trick:  # P1.8
            returned = 0
            for seat, card in self._trick:
                self._hands[seat] |= 1 << card
                returned |= 1 << card
            self._events = (EV_BACK, -1, returned, self._events)
        self._trick, self._round, self._tie, self._queue = [], [], [], []
        if self.stock_size > 0:  # P1.7c: the rest of the stock leaves the game unseen
            self._removed |= mask_of(self._stock[self._stock_pos:])
            self._stock_pos = len(self._stock)
        won_pile_sizes = [pile.bit_count() for pile in self._won]
        for seat in range(self.players):  # P1.9
            self._hands[seat] |= self._won[seat]
            self._won[seat] = 0
        if self._trump_holder >= 0:
            self._hands[self._trump_holder] |= 1 << self._trump_card
        if self._trump_card >= 0:
            self._events = (EV_REVEAL, self._trump_holder,
                            (1 << self._trump_card) if self._trump_card >= 0 else 0, self._events)
        self._trump_known = True
        rules = self._options
        if rules.nothing_left is NothingLeft.LOSE:  # P1.10 Blåmattis / Blodmattis
            if rules.nothing_left_counts is NothingLeftCounts.WON_PILE:
                empty = [seat for seat in range(self.players) if won_pile_sizes[seat] == 0]
            else:
                empty = [seat for seat in range(self.players) if self._hands[seat] == 0]
            if empty:
                for seat in empty:
                    self._events = (EV_LOSE, seat, 0, self._events)
                self._losers = tuple(empty)
                self._lost_on_empty = True
                self._phase = _OVER
                self._to_move = -1
                return
        self._phase = _SHED
        if rules.trump is TrumpMode.HIDDEN_LAST and self._trump_holder >= 0:  # P2.1
            leader = self._trump_holder
        elif rules.trump is TrumpMode.BOTTOM_UP and self._last_drawer >= 0:
            leader = self._last_drawer
        else:  # P1.7c: whoever would have led the next phase-1 trick
            leader = self._leader
        self._p2_start_trick(leader)
        self._events = (EV_SHED, self._leader, 0, self._events)

    # Phase 2 ---------------------------------------------------------

    def _next_in(self, seat: int) -> int:
        out = self._out
        players = self.players
        seat = (seat + 1) % players
        while out[seat]:
            seat = (seat + 1) % players
        return seat

    def _p2_start_trick(self, leader: int) -> None:
        self._table = []
        self._trick_size = self._in_count  # P2.6: fixed when the trick begins
        if self._out[leader]:
            leader = self._next_in(leader)
        # P1.10 must_pick_up: with the table empty, an empty player's turn passes on.
        for _ in range(self.players):
            if self._hands[leader]:
                break
            leader = self._next_in(leader)
        else:
            # Decision: nobody still in holds a card and the table is empty, so no one can
            # ever act; every player still in loses.
            self._losers = tuple(seat for seat in range(self.players) if not self._out[seat])
            self._phase = _OVER
            self._to_move = -1
            return
        self._leader = leader
        self._to_move = leader

    def _p2_do(self, action: Action) -> None:
        seat = self._to_move
        table = self._table
        if action is PICKUP:  # P2.4: the oldest play comes back into the hand
            _, oldest = table.pop(0)
            mask = oldest.mask
            hands = self._hands
            hands[seat] = hands[seat] | mask
            self._events = (EV_PICKUP, seat, mask, self._events)
            if not table:  # P2.7
                self._p2_start_trick(self._next_in(seat))
            else:
                self._to_move = self._next_in(seat)
            return
        mask = action.mask
        hands = self._hands
        hand = hands[seat] & ~mask
        hands[seat] = hand
        table.append((seat, action))
        self._events = (EV_PLAY, seat, mask, self._events)
        if not hand:  # P2.8
            self._out[seat] = True
            self._out_order.append(seat)
            self._in_count -= 1
            self._events = (EV_OUT, seat, 0, self._events)
            if self._in_count == 1:  # P2.9
                loser = self._next_in(seat)
                self._losers = (loser,)
                self._events = (EV_LOSE, loser, 0, self._events)
                self._phase = _OVER
                self._to_move = -1
                return
        if len(table) >= self._trick_size:  # P2.6
            cleared = 0
            for _, play in table:
                cleared |= play.mask
            self._discard |= cleared
            self._events = (EV_CLEAR, seat, cleared, self._events)
            self._p2_start_trick(seat)
        else:
            self._to_move = self._next_in(seat)

    # ------------------------------------------------------------------ explanations

    def _refusal(self, action: Action) -> IllegalAction:
        """Why ``action`` (one of the engine's own) is not legal now, as a reason code."""
        seat = self._to_move
        hand = self._hands[seat]
        if self._phase is _COLLECT:
            if action is PICKUP:
                return IllegalAction(Reason.PICKUP_IN_PHASE1)
            if action.is_sequence:
                return IllegalAction(Reason.SEQUENCE_IN_PHASE1)
            if action is CHANCE:
                if not self._options.chance:
                    return IllegalAction(Reason.CHANCE_OFF)
                if self._tie and self._options.tie is TieMode.ANY_MATCH:
                    return IllegalAction(Reason.CHANCE_IN_BATTLE)
                return IllegalAction(Reason.CHANCE_LAST_CARD)
            return IllegalAction(Reason.NOT_IN_HAND, {"cards": str(action)})
        if action is CHANCE:
            return IllegalAction(Reason.CHANCE_IN_PHASE2)
        if action is PICKUP:
            if not self._table:
                return IllegalAction(Reason.NOTHING_TO_PICK_UP)
            return IllegalAction(Reason.MUST_BEAT, {"target": str(self._table[-1][1])})
        missing = action.mask & ~hand
        if missing:
            return IllegalAction(Reason.NOT_IN_HAND, {"cards": ", ".join(codes_of(missing))})
        if action.is_sequence:
            if not self._min_sequence:
                return IllegalAction(Reason.SEQUENCES_OFF)
            if len(action.cards) < self._min_sequence:
                return IllegalAction(Reason.SEQUENCE_TOO_SHORT, {"length": self._min_sequence})
        if not self._table:  # cannot happen: every card in hand may lead (P2.3)
            return IllegalAction(Reason.MUST_PICK_UP, {"play": str(action)})
        target = self._table[-1][1]
        trump = self._trump_suit
        params: dict[str, str | int] = {"play": str(action), "target": str(target),
                                        "suit": SUITS[target.suit]}
        if action in self._p2_legal(follow_suit=False):  # it beats, but the led suit binds
            return IllegalAction(Reason.MUST_FOLLOW_SUIT, params)
        # The play does not beat the target: say whether its suit or its rank is wrong.
        if action.suit != target.suit and action.suit != trump:
            reason = Reason.WRONG_SUIT if target.suit != trump else Reason.WRONG_SUIT_TRUMP
            return IllegalAction(reason, params)
        params["card"] = CARD_CODES[target.high]
        return IllegalAction(Reason.TOO_LOW, params)

    # --- generated methods: from mattis.core.state.STATE by dev/generate_state.py ---
    def _start(self, rules: Rules, players: int, dealer: int, deck: tuple[int, ...],
               seed: int | None) -> None:
        """Set every field to its value before the deal."""
        self._options = options_for(rules)
        self.players = players
        self.dealer = dealer
        self._origin = _Origin(deck, seed, None)
        self._phase = Phase.COLLECT
        self._to_move = -1
        self._hands = [0] * players
        self._won = [0] * players
        self._stock = ()
        self._stock_pos = 0
        self._removed = 0
        self._discard = 0
        self._trump_card = -1
        self._trump_suit = -1
        self._trump_known = False
        self._trump_holder = -1
        self._last_drawer = -1
        self._leader = 0
        self._trick = []
        self._queue = []
        self._round = []
        self._tie = []
        self._table = []
        self._trick_size = 0
        self._out = [False] * players
        self._in_count = players - sum(self._out)
        self._out_order = []
        self._losers = ()
        self._lost_on_empty = False
        self._log = None
        self._events = None
        self._num_actions = 0
        self._history = _NO_EVENTS
        self._legal = None
        self._min_sequence = rules.min_sequence

    def copy(self) -> Game:
        """An independent copy, cheap enough for tree search: lists are copied, and
        everything immutable (numbers, tuples, the event and action logs) is shared."""
        other = Game(_PRIVATE)
        other._options = self._options
        other.players = self.players
        other.dealer = self.dealer
        other._origin = self._origin
        other._phase = self._phase
        other._to_move = self._to_move
        other._hands = self._hands[:]
        other._won = self._won[:]
        other._stock = self._stock
        other._stock_pos = self._stock_pos
        other._removed = self._removed
        other._discard = self._discard
        other._trump_card = self._trump_card
        other._trump_suit = self._trump_suit
        other._trump_known = self._trump_known
        other._trump_holder = self._trump_holder
        other._last_drawer = self._last_drawer
        other._leader = self._leader
        other._trick = self._trick[:]
        other._queue = self._queue[:]
        other._round = self._round[:]
        other._tie = self._tie[:]
        other._table = self._table[:]
        other._trick_size = self._trick_size
        other._out = self._out[:]
        other._in_count = self._in_count
        other._out_order = self._out_order[:]
        other._losers = self._losers
        other._lost_on_empty = self._lost_on_empty
        other._log = self._log
        other._events = self._events
        other._num_actions = self._num_actions
        other._history = self._history
        other._legal = self._legal
        other._min_sequence = self._min_sequence
        return other

    def _same_state(self, other: Game) -> bool:
        """Whether the two games are in the same state, with the same record and history."""
        return (
            self._options == other._options
            and self.players == other.players
            and self.dealer == other.dealer
            and self._origin == other._origin
            and self._phase == other._phase
            and self._to_move == other._to_move
            and self._hands == other._hands
            and self._won == other._won
            and self._stock == other._stock
            and self._stock_pos == other._stock_pos
            and self._removed == other._removed
            and self._discard == other._discard
            and self._trump_card == other._trump_card
            and self._trump_suit == other._trump_suit
            and self._trump_known == other._trump_known
            and self._trump_holder == other._trump_holder
            and self._last_drawer == other._last_drawer
            and self._leader == other._leader
            and self._trick == other._trick
            and self._queue == other._queue
            and self._round == other._round
            and self._tie == other._tie
            and self._table == other._table
            and self._trick_size == other._trick_size
            and self._out == other._out
            and self._out_order == other._out_order
            and self._losers == other._losers
            and self._lost_on_empty == other._lost_on_empty
            and (self._log is other._log or _cons_to_list(self._log) == _cons_to_list(other._log))
            and (self._events is other._events or _cons_to_list(self._events) == _cons_to_list(other._events))
        )

    def position(self) -> Position:
        """The complete state, hidden cards included, as a frozen value (like a chess FEN).
        For engines, tests and analysis; never hand it to a player or bot."""
        return Position(
            rules=self._options.rules,
            players=self.players,
            dealer=self.dealer,
            phase=self._phase,
            to_move=self._to_move,
            hands=tuple(self._hands),
            won=tuple(self._won),
            stock=self._stock[self._stock_pos:],
            removed=self._removed,
            discard=self._discard,
            trump_card=self._trump_card,
            trump_suit=self._trump_suit,
            trump_known=self._trump_known,
            trump_holder=self._trump_holder,
            last_drawer=self._last_drawer,
            leader=self._leader,
            trick=tuple(self._trick),
            due=tuple(self._queue),
            current_round=tuple(self._round),
            tie=tuple(self._tie),
            table=tuple((seat, play.index) for seat, play in self._table),
            trick_size=self._trick_size,
            out=tuple(self._out),
            out_order=tuple(self._out_order),
            losers=self._losers,
            lost_on_empty=self._lost_on_empty,
        )

    def _continue_from(self, position: Position) -> None:
        """Set every field from ``position``, or to its start value if positions leave it out."""
        rules = position.rules
        players = position.players
        deck: tuple[int, ...] = ()
        seed: int | None = None
        self._options = options_for(position.rules)
        self.players = position.players
        self.dealer = position.dealer
        self._origin = _Origin(deck, seed, None)
        self._phase = PHASE_NAMED[position.phase]
        self._to_move = position.to_move
        self._hands = list(position.hands)
        self._won = list(position.won)
        self._stock = tuple(position.stock)
        self._stock_pos = 0
        self._removed = position.removed
        self._discard = position.discard
        self._trump_card = position.trump_card
        self._trump_suit = position.trump_suit
        self._trump_known = position.trump_known
        self._trump_holder = position.trump_holder
        self._last_drawer = position.last_drawer
        self._leader = position.leader
        self._trick = list(position.trick)
        self._queue = list(position.due)
        self._round = list(position.current_round)
        self._tie = list(position.tie)
        self._table = [(seat, ALL_ACTIONS[index]) for seat, index in position.table]
        self._trick_size = position.trick_size
        self._out = list(position.out)
        self._in_count = players - sum(self._out)
        self._out_order = list(position.out_order)
        self._losers = tuple(position.losers)
        self._lost_on_empty = position.lost_on_empty
        self._log = None
        self._events = None
        self._num_actions = 0
        self._history = _NO_EVENTS
        self._legal = None
        self._min_sequence = rules.min_sequence
    # --- end of generated methods ---


def _resolve_rules(rules: str | Rules) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    raise ValueError(f"rules: expected a preset name or a Rules value, got {rules!r}")


class _Origin(NamedTuple):
    """Where a game came from, for its record: fixed from the deal on, so copies share it."""

    deck: tuple[int, ...]
    seed: int | None
    """The seed that shuffled the deck, if the record has one."""
    start: tuple[list[list[str]], str, int] | None
    """A game set up from hands: the hands, the trump suit letter and the leader."""


def next_dealer(previous_dealer: int, losers: Sequence[int], players: int) -> int:
    """Who deals the next game of a match (C2): the loser; with several losers, the first
    of them clockwise from the previous dealer (section 4 Decision)."""
    if not losers:
        raise ValueError("losers: a finished game has at least one loser")
    return min(losers, key=lambda seat: (seat - previous_dealer - 1) % players)
