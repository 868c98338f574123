"""One shared table of Mattis, with no sockets, no database and no event loop.

A :class:`TableSession` holds everything a table is: the seats (people with a seat token,
bots, open seats, bots standing in for people who went away), the match (the score, and the
loser deals the next game, C2), the current game, each seat's story in each language, and
the messages each seat is sent. Any host drives it: the web server (:mod:`mattis.web`), the
offline app's Web Worker, the terminal (:mod:`mattis.terminal.host`), the tests. The host's
part is small and the same everywhere:

* it calls the session's inputs — :meth:`~TableSession.act`, :meth:`~TableSession.join`,
  :meth:`~TableSession.fill_with_bot`, :meth:`~TableSession.play_again`,
  :meth:`~TableSession.connect`/:meth:`~TableSession.disconnect`,
  :meth:`~TableSession.set_absent`, :meth:`~TableSession.bot_move_due`,
  :meth:`~TableSession.begin` (a table built full, the terminal's) and
  :meth:`~TableSession.request_hint`;
* each returns an :class:`Outcome`: rows to store (:mod:`.rows`), whether every seat's state
  changed, and the seats whose absence clock starts. The host stores the rows **before**
  anyone hears of the change, and if storing fails calls :meth:`~TableSession.undo`, which
  puts the table back exactly as it was;
* it sends each connection :meth:`~TableSession.state_message` for its
  :class:`MessageCursor`;
* it runs the jobs the session hands out (a ``hard`` bot's search, a hint:
  :mod:`.jobs`) wherever it likes, and hands the answer back.

Refusals are :class:`~.errors.Refusal` values with stable codes; the host turns them into
HTTP statuses or socket errors. :mod:`.master` runs a session for every host (connections,
changes, hints, the bots' loop), and :mod:`.host` is what a host supplies to it.

Secrets: a table has a secret that never leaves the host. Each game's deal is derived
one-way from it (:class:`~mattis.frontend.match.MatchSecret`), and so are the bots' and the
hint's generators, so nothing a player sees — the invite link, a finished game's record —
lets anyone compute a later deal or a bot's next choice. A table created with an explicit
seed (which its creator can replay) says so to everyone (``seeded``). The terminal's table
has one person and no secret: its match deals ``--seed``, ``--seed + 1`` … and its bots
draw from :class:`~mattis.frontend.match.SeatStreams` (``move_seeds``), so a seed replays.
"""

from __future__ import annotations

import copy
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from ..bots import SEARCHING_LEVELS, CardTracker, Decision, available_levels, seat_view
from ..core.actions import Action
from ..core.errors import IllegalAction
from ..core.game import Game
from ..core.observation import SeatView
from ..core.record import MAX_SEED
from ..core.rules import PRESET_NAMES, RULE_OPTIONS, Rules
from ..frontend.cards import action_label, sort_actions
from ..frontend.match import Match, MatchSecret, MoveSeeds
from ..frontend.narrate import out_order_line, result_fate_line, result_headline
from ..frontend.reasons import hint_reason
from ..frontend.seats import Participant, join_names
from ..frontend.story import TableStory
from ..frontend.table import turn_advice
from ..i18n import Lang, t
from .advice import watch_advice
from .coaching import MAX_COACH_CONNECTIONS, Suggestion, coach_marker, coach_url
from .config import TableConfig
from .errors import IllegalMove, Refusal
from .jobs import BotJob, DecisionParts, HintJob, RngSeed, decision_from_parts, generator
from .limits import RateLimiter
from .logs import SeatLog
from .page import add_page_facts, rules_facts
from .rows import ActionRow, LedgerRow, NewGame, NewTable, Row, StoredTable, TableUpdate
from .seats import (
    Seat,
    clean_name,
    distinct_name,
    hash_token,
    new_token,
    participants,
    spare_bot_name,
)
from .takeback import replay_with_movers, undo_marker
from .tricks import TrickWatcher
from .watchers import Watchers

FIRST_LOG_LINES = 80
"""How much of the log a new connection receives (older lines add nothing on a phone)."""
REACTIONS: tuple[str, ...] = ("thumbs_up", "phew", "wow", "well_played")
"""The quick reactions anyone at a table may send (👍 😅 😮 "Well played!"): a fixed list,
so a reaction can never carry words of its own."""


@dataclass(slots=True)
class MessageCursor:
    """A connection's cursor into the table's messages: whose messages they are (the seat
    whose view they show, in which language) and how much of the current game's history
    and log has been sent, so each message carries only what is new."""

    seat: int | None
    """The seat whose view the messages show; ``None`` for a spectator's (the public view)."""
    lang: Lang
    _: KW_ONLY
    game_number: int = 0
    takebacks: int = 0
    """The takebacks of the game seen so far: after one, the history and log start afresh."""
    history_sent: int = 0
    log_sent: int = 0

    def switch_language(self, lang: Lang) -> None:
        """Read in ``lang`` from now on; the log is sent again, in the new language."""
        self.lang = lang
        self.log_sent = 0


@dataclass(slots=True)
class _Snapshot:
    """Everything a change may touch, so a change the host could not store is undone."""

    game: Game | None
    game_number: int
    match: Match
    seats: list[Seat]
    movers: list[int]
    stored_actions: int
    taken_back: list[dict[str, Any]]
    stand_in_moves: set[int]
    away_plays: dict[int, list[Action]]
    coached: set[int]
    watching: bool = True


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one input did: rows to store first, then who must hear of it."""

    rows: tuple[Row, ...] = ()
    changed: bool = False
    """Every seat's state changed: send each connection its :meth:`TableSession.state_message`."""
    timers: tuple[int, ...] = ()
    """Seats whose absence clock starts now: call :meth:`TableSession.set_absent` for each
    once :attr:`TableConfig.absence_timeout` has passed."""
    snapshot: _Snapshot | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class BotTurn:
    """A bot (or a stand-in) is to move: either its move is already chosen (a forced move or
    a rule-based bot, in a millisecond) or a :class:`~.jobs.BotJob` must think first."""

    seat: int
    level: str
    """The level that moves (a stand-in plays as ``normal``): its pace is
    :meth:`TableConfig.move_seconds` of it, forced move or not."""
    game_number: int
    moves_before: int
    takebacks: int = 0
    """The game's takebacks when the turn began (a move chosen before one is not played)."""
    decision: Decision | None
    """The move and its reason, when chosen at once (``None`` while a job must think)."""
    job: BotJob | None

    @property
    def action(self) -> Action | None:
        """The move, when chosen at once."""
        return None if self.decision is None else self.decision.action


def table_secret(seed: int | None) -> MatchSecret:
    """The secret a table's deals and bots come from: random, or made from the creator's
    seed (so the creator can replay the deals; the table then says it is ``seeded``)."""
    return MatchSecret.fresh() if seed is None else MatchSecret.from_seed(seed)


class TableSession:
    """One shared table (see the module docstring)."""

    def __init__(self, table_id: str, rules: Rules, *, seats: list[Seat], match: Match,
                 secret: MatchSecret | None, seed: int | None = None, config: TableConfig | None = None,
                 clock: Callable[[], float] = time.monotonic, host: int | None = None,
                 move_seeds: MoveSeeds | None = None, group: str | None = None) -> None:
        self.table_id = table_id
        self.group = group
        """The group (``POST /api/groups``) the table plays for: its finished games with two
        or more seats bound to players go to the group's ledger (:class:`~.rows.LedgerRow`)."""
        self.rules = rules
        self.seats = seats
        self.match = match
        self.secret = secret
        """The shared table's secret (its deals, bots and hints come from it); ``None`` for
        a table of one person (the terminal), whose match and ``move_seeds`` say where."""
        seeds = move_seeds if move_seeds is not None else secret
        if seeds is None:
            raise ValueError("a table needs a secret or its move_seeds")
        self.move_seeds: MoveSeeds = seeds
        """Where the bots' and the hints' generators come from."""
        self.seed = seed
        """The creator's seed, if the table was created with one (else ``None``)."""
        self.host = host if host is not None else next(
            (index for index, seat in enumerate(seats) if seat.kind == "human"), 0)
        """The creator's seat: an invited friend is told whose table it is."""
        self.config = config or TableConfig()
        self.clock = clock
        self.game: Game | None = None
        self.game_number = 0
        self.logs: dict[tuple[int | None, Lang], SeatLog] = {}
        """The move log of the current game, per seat and language, fed after every move."""
        self.trackers: dict[int, CardTracker] = {}
        """What each bot seat remembers of the current game, so a bot reads only new events."""
        self.away_since: dict[int, float] = {}
        self.hinting: set[int] = set()
        """Seats whose hint is being worked out."""
        self.hint_limits: dict[int, RateLimiter] = {}
        """How often each seat may have a new hint (:attr:`TableConfig.hint_cooldown`)."""
        self.hints_given: dict[int, tuple[tuple[int, int], Decision]] = {}
        """Each seat's last hint and the point of the game it is for (game, action count)."""
        self.reacted_at: dict[int, float] = {}
        self.tricks = TrickWatcher(self.rules)
        """The current game's last completed trick, followed from its public events."""
        self.movers: list[int] = []
        """The seat that made each move of the current game (a takeback goes back to before
        the asker's last one)."""
        self.stored_actions = 0
        """How many actions of the current game are stored: moves, taken back or not, and
        takebacks (:mod:`.takeback`); the next one's number."""
        self.taken_back: list[dict[str, Any]] = []
        """The current game's stretches of moves taken back (the record's ``taken_back``)."""
        self.stand_in_moves: set[int] = set()
        """The moves of the current game a bot made for a person who was away (the log
        says so; stored with each move, so a restored table's log says so too)."""
        self.away_plays: dict[int, list[Action]] = {}
        """What a stand-in played for each seat since its person went away, until they are
        told (:meth:`take_away_summary`)."""
        self.coached: set[int] = set()
        """The seats of the current game that a coach watched (the record's ``coached``)."""
        self.suggestions: dict[int, Suggestion] = {}
        """The move each coached seat's coach last suggested (shown until the game moves on)."""
        self.watchers = Watchers.fresh()
        """The spectators (:mod:`.watchers`): the watch secret, the setting, how many watch."""

    # ---------------------------------------------------------------- creating and restoring

    @classmethod
    def create(cls, table_id: str, request: object, config: TableConfig | None = None,
               clock: Callable[[], float] = time.monotonic, *, player: str | None = None,
               group: str | None = None) -> tuple[TableSession, int, str, Outcome]:
        """A new table from a request (``{"rules", "set", "players", "seats", "seed"}``, as
        ``POST /api/tables`` takes it); returns the table, the creator's seat and token, and
        the outcome to store (the table, and its first deal when no seat is open). The
        creator's seat is bound to ``player``, and the table plays for ``group`` (the host
        has checked both)."""
        if not isinstance(request, dict):
            raise Refusal("bad_request", "expected a JSON object")
        preset = request.get("rules", "pagat")
        if not isinstance(preset, str) or preset.strip().lower() not in PRESET_NAMES:
            raise Refusal("bad_request", f"rules must be one of {', '.join(PRESET_NAMES)}")
        rules = _house_rules(Rules.preset(preset), request.get("set") or {})
        players = request.get("players", 3)
        if not isinstance(players, int) or isinstance(players, bool) or not rules.allows_players(players):
            raise Refusal("bad_request", f"players must be from {rules.min_players} to {rules.max_players}")
        levels = (config or TableConfig()).levels()
        seats, creator, token = _requested_seats(request.get("seats"), players, levels)
        seats[creator].player = player
        seed = request.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed <= MAX_SEED):
            raise Refusal("bad_request", "seed must be a whole number from 0 to 2**64-1")
        secret = table_secret(seed)
        match = Match(rules, players, secret)
        session = cls(table_id, rules, seats=seats, match=match, secret=secret, seed=seed, config=config,
                      clock=clock, host=creator, group=group)
        session.away_since[creator] = clock()
        rows: list[Row] = [NewTable(table_id=table_id, rules=rules.to_dict(), players=players,
                                    seats=session._stored_seats(), match=session._stored_match())]
        timers: tuple[int, ...] = ()
        if session.full:
            deal_rows, timers = session._deal()
            rows += deal_rows
        return session, creator, token, Outcome(tuple(rows), True, timers)

    @classmethod
    def restore(cls, stored: StoredTable, config: TableConfig | None = None,
                clock: Callable[[], float] = time.monotonic) -> tuple[TableSession, Outcome]:
        """A table brought back from the store: its game replayed from the stored actions.
        Anything that does not restore (a damaged row, a record the engine refuses) raises;
        the host sets that table aside. The outcome holds the absence clocks to start, and
        the score of a game finished just before a crash, if it was not stored."""
        rules = Rules.from_dict(stored.rules)
        rules.check_players(stored.players)
        seats = [Seat.from_stored(item) for item in stored.seats]
        if len(seats) != stored.players:
            raise ValueError(f"stored table: {len(seats)} seats for {stored.players} players")
        data = stored.match
        seed = data.get("seed")
        if seed is not None and not (isinstance(seed, int) and not isinstance(seed, bool)):
            raise ValueError("stored match: seed must be a whole number or null")
        stored_secret = data.get("secret")
        fresh_secret = not (isinstance(stored_secret, str) and len(stored_secret) == 64)
        # a table stored before tables had secrets gets one now (its later deals use it)
        secret = table_secret(seed) if fresh_secret else MatchSecret(str(stored_secret))
        scores = [int(score) for score in data.get("scores") or [0] * stored.players]
        results = [tuple(int(seat) for seat in losers) for losers in data.get("results") or []]
        dealer = int(data.get("dealer", stored.players - 1))
        if len(scores) != stored.players or not 0 <= dealer < stored.players:
            raise ValueError("stored match: scores or dealer do not fit the table")
        match = Match(rules, stored.players, secret, dealer=dealer, played=len(results),
                      scores=scores, results=results)
        host = data.get("host")  # tables stored before it was kept: the first person's seat
        valid_host = isinstance(host, int) and not isinstance(host, bool) and 0 <= host < stored.players
        group = data.get("group")
        if group is not None and not isinstance(group, str):
            raise ValueError("stored match: group must be text or null")
        session = cls(stored.table_id, rules, seats=seats, match=match, secret=secret, seed=seed,
                      config=config, clock=clock, host=host if valid_host else None, group=group)
        session.watchers, fresh_watch = Watchers.from_stored(data)
        rows: list[Row] = []
        if stored.game is not None:
            record = stored.game.record()
            session.game, session.movers = replay_with_movers(record)
            session.game_number = stored.game.number
            session.stored_actions = len(stored.game.actions)
            session.taken_back = record.get("taken_back", [])
            session.coached = set(record.get("coached", []))
            session.stand_in_moves = stored.game.stand_in_moves()
            if session.game.is_over and match.played < session.game_number:
                match.finish(session.game)  # killed between the last move and the score
                rows.append(session._table_update())
        if (fresh_secret or fresh_watch) and not rows:
            rows.append(session._table_update())
        now = clock()
        timers = []
        for index, seat in enumerate(seats):
            if seat.kind == "human":
                session.away_since[index] = now
                if session.game is not None and not session.game.is_over and not session.solo:
                    timers.append(index)
        return session, Outcome(tuple(rows), False, tuple(timers))

    # ---------------------------------------------------------------- facts

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.seats)

    @property
    def full(self) -> bool:
        """Whether every seat is taken (the game can start)."""
        return all(seat.kind != "open" for seat in self.seats)

    @property
    def status(self) -> str:
        """``waiting`` for players, ``playing``, or ``over`` (between games)."""
        if self.game is None:
            return "waiting"
        return "over" if self.game.is_over else "playing"

    @property
    def seeded(self) -> bool:
        """Whether the creator chose the seed (and so can replay every deal)."""
        return self.seed is not None

    @property
    def bot_to_move(self) -> bool:
        """Whether the table is waiting for a bot (or a stand-in) to move."""
        game = self.game
        return (game is not None and not game.is_over and game.to_move is not None
                and self.seats[game.to_move].bot_plays)

    @property
    def solo(self) -> bool:
        """Whether the table's only person plays with robots: nobody else waits for them, so
        nobody stands in while they are away (the game waits), and they may take moves back."""
        return (sum(seat.kind == "human" for seat in self.seats) == 1
                and all(seat.kind != "open" for seat in self.seats))

    @property
    def waits_for_person(self) -> bool:
        """Whether the game waits for the one person of a :attr:`solo` table to come back
        (no connection of theirs is open and looking): its robots make no move meanwhile."""
        return self.solo and self.game is not None and not self.game.is_over and not self.connected

    @property
    def connected(self) -> bool:
        """Whether any person has a connection open (that plays their seat)."""
        return any(seat.connections for seat in self.seats)

    @property
    def unattended_since(self) -> float | None:
        """When the last person left the table (on the session's clock), or ``None`` while
        someone is connected."""
        if self.connected:
            return None
        return max(self.away_since.values(), default=None)

    def seat_of(self, token: str) -> int | None:
        """The seat a token belongs to, compared in constant time."""
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return index
        return None

    def participants(self, viewer: int | None) -> list[Participant]:
        """The seats as the narration names them from ``viewer``'s chair."""
        return participants(self.seats, viewer)

    def seat_info(self, index: int, viewer: int | None) -> dict[str, Any]:
        """One seat's public facts (``player``: the player it is bound to, if any)."""
        seat = self.seats[index]
        return {"seat": index, "kind": seat.kind, "name": seat.name, "level": seat.level,
                "player": seat.player,
                "connected": bool(seat.connections) if seat.kind == "human" else None,
                "stand_in": seat.stand_in, "coached": seat.coaches > 0, "you": index == viewer}

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (for the invite page: whose table, which rules, which
        seats are free)."""
        return {"table": self.table_id, "players": self.players, "rules": self.rules.to_dict(),
                "preset": self.rules.preset_name, "status": self.status, "seeded": self.seeded,
                "host": {"seat": self.host, "name": self.seats[self.host].name},
                "open_seats": sum(seat.kind == "open" for seat in self.seats),
                "seats": [self.seat_info(index, None) for index in range(self.players)],
                **rules_facts(self.rules)}

    # ---------------------------------------------------------------- seats and games

    def join(self, name: object, player: str | None = None) -> tuple[int, str, Outcome]:
        """Seat a person (bound to ``player``, if the host knows them) in the first open
        seat; returns the seat, its new token and the outcome (the game is dealt once every
        seat is taken)."""
        shown = clean_name(name)
        for index, seat in enumerate(self.seats):
            if seat.kind == "open":
                snapshot = self._snapshot()
                token = new_token()
                shown = distinct_name(self.seats, shown)
                seat.kind, seat.name, seat.token_hash = "human", shown, hash_token(token)
                seat.player = player
                self.away_since[index] = self.clock()
                return index, token, self._seats_changed(snapshot)
        raise Refusal("table_full")

    def fill_with_bot(self, index: object, level: object) -> Outcome:
        """Put a bot in an open seat (a friend who does not come); the game starts when the
        table is full."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < self.players:
            raise Refusal("bad_message", "bot needs a seat number")
        levels = self.config.levels()  # learned only where numpy is (never in the offline app)
        if not isinstance(level, str) or level not in levels:
            raise Refusal("bad_message", f"level must be one of {', '.join(levels)}")
        seat = self.seats[index]
        if seat.kind != "open" or self.game is not None:
            raise Refusal("bad_message", "that seat is not open")
        snapshot = self._snapshot()
        seat.kind, seat.level, seat.name = "bot", level, spare_bot_name(self.seats, index)
        return self._seats_changed(snapshot)

    def begin(self) -> Outcome:
        """Deal the first game of a table built with every seat taken (the terminal's)."""
        if self.game is not None or not self.full:
            raise Refusal("bad_message", "the table has begun, or has open seats")
        snapshot = self._snapshot()
        rows, timers = self._deal()
        return Outcome(tuple(rows), True, timers, snapshot)

    def play_again(self, seat: int) -> Outcome:
        """Deal the next game of the match once this one is over."""
        if self.game is None:
            raise Refusal("not_started")
        if not self.game.is_over:
            raise Refusal("bad_message", "the game is still on")
        snapshot = self._snapshot()
        rows, timers = self._deal()
        return Outcome(tuple(rows), True, timers, snapshot)

    def _seats_changed(self, snapshot: _Snapshot) -> Outcome:
        rows: list[Row] = [self._table_update()]
        timers: tuple[int, ...] = ()
        if self.full:
            deal_rows, timers = self._deal()
            rows = deal_rows
        return Outcome(tuple(rows), True, timers, snapshot)

    def _deal(self) -> tuple[list[Row], tuple[int, ...]]:
        """Deal the next game of the match: rows to store, absence clocks to start."""
        number = self.match.played + 1
        game = self.match.new_game()
        start = game.record()
        start.pop("actions", None)
        self.game, self.game_number = game, number
        self.movers, self.stored_actions, self.taken_back = [], 0, []
        self.stand_in_moves, self.coached = set(), set()
        self._follow_afresh()
        now = self.clock()
        timers = []
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and not seat.connections and not self.solo:
                self.away_since.setdefault(index, now)
                timers.append(index)
        return [NewGame(self.table_id, number, start), self._table_update()], tuple(timers)

    # ---------------------------------------------------------------- moves

    def _turn_of(self, seat: int) -> Game:
        """The game, if it is ``seat``'s turn in it; otherwise the refusal that says why."""
        game = self.game
        if game is None:
            raise Refusal("not_started")
        if game.is_over:
            raise Refusal("game_over")
        if game.to_move != seat:
            raise Refusal("not_your_turn")
        return game

    def act(self, seat: int, text: str) -> Outcome:
        """Play ``text`` (``7h``, ``6h-8h``, ``chance``, ``pickup``) for the person at ``seat``;
        an illegal move raises :class:`~.errors.IllegalMove` with the engine's reason and
        changes nothing."""
        game = self._turn_of(seat)
        snapshot = self._snapshot()
        try:
            action = game.apply(text, seat=seat)
        except IllegalAction as error:
            raise IllegalMove(error) from None
        return self._moved(game, seat, action, snapshot)

    def _moved(self, game: Game, seat: int, action: Action, snapshot: _Snapshot, *,
               stand_in: bool = False) -> Outcome:
        """The rows of a move just applied (by a stand-in for the person away, if
        ``stand_in``); the story of every seat is told it at once."""
        rows: list[Row] = self._coach_marks()
        rows.append(ActionRow(table_id=self.table_id, game_number=self.game_number,
                              index=self.stored_actions, seat=seat, action=str(action),
                              over=game.is_over, stand_in=stand_in))
        self.stored_actions += 1
        self.movers.append(seat)
        if stand_in:
            self.stand_in_moves.add(game.num_actions - 1)
            self.away_plays.setdefault(seat, []).append(action)
        self._tell_logs(game, seat if stand_in else None)
        if game.is_over:
            self.match.finish(game)
            rows.append(self._table_update())
            ledger = self._ledger_row(game)
            if ledger is not None:
                rows.append(ledger)
        return Outcome(tuple(rows), True, (), snapshot)

    def _ledger_row(self, game: Game) -> LedgerRow | None:
        """The finished game for its players' statistics and its group's ledger, when a seat
        is bound to a player (stored with the game's last action)."""
        result = game.result
        if result is None or all(seat.player is None for seat in self.seats):
            return None
        seats = [{"player": seat.player, "kind": "human" if seat.kind == "human" else "bot",
                  "name": seat.name, "level": seat.level}
                 for seat in self.seats]
        return LedgerRow(table_id=self.table_id, group=self.group, game_number=self.game_number,
                         seats=seats, losers=list(result.losers), out_order=list(result.out_order),
                         lost_on_empty=result.lost_on_empty, coached=tuple(sorted(self.coached)))

    def undo(self, outcome: Outcome) -> None:
        """Put the table back as it was before ``outcome`` (its rows could not be stored).
        Only the latest outcome can be undone; the logs and bot memories start again from
        the game's deal the next time they are needed."""
        snapshot = outcome.snapshot
        if snapshot is None:
            return
        self.game, self.game_number, self.match = snapshot.game, snapshot.game_number, snapshot.match
        for seat, before in zip(self.seats, snapshot.seats, strict=True):
            seat.kind, seat.name, seat.level = before.kind, before.name, before.level
            seat.token_hash, seat.stand_in, seat.player = before.token_hash, before.stand_in, before.player
            seat.coach_hash = before.coach_hash
        self.movers, self.stored_actions = snapshot.movers, snapshot.stored_actions
        self.taken_back, self.stand_in_moves = snapshot.taken_back, snapshot.stand_in_moves
        self.away_plays, self.coached = snapshot.away_plays, snapshot.coached
        self.watchers.allowed = snapshot.watching
        self._follow_afresh()

    def _follow_afresh(self) -> None:
        """The logs, bot memories, last trick and hints begin again from the game's deal
        the next time they are needed (a new game, a takeback, an undone change)."""
        self.logs.clear()
        self.trackers.clear()
        self.tricks = TrickWatcher(self.rules)
        self.hints_given.clear()

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(None if self.game is None else self.game.copy(), self.game_number,
                         copy.deepcopy(self.match), copy.deepcopy(self.seats), list(self.movers),
                         self.stored_actions, list(self.taken_back), set(self.stand_in_moves),
                         {seat: list(plays) for seat, plays in self.away_plays.items()}, set(self.coached),
                         self.watchers.allowed)

    # ---------------------------------------------------------------- takebacks

    def undo_point(self, seat: int) -> int | None:
        """How many moves the game keeps if ``seat`` takes back now: all before its last move
        (the robots' replies since go with it). ``None`` where no takeback is allowed: only
        the person of a :attr:`solo` table may take back, a move of theirs in a game still on."""
        game = self.game
        if game is None or game.is_over or not self.solo or self.seats[seat].kind != "human":
            return None
        movers = self.movers
        for index in range(len(movers) - 1, -1, -1):
            if movers[index] == seat:
                return index
        return None

    def take_back(self, seat: int) -> Outcome:
        """Take back the last move of ``seat`` and every move since: the game is replayed
        from its record without them (:mod:`.takeback`), and they stay in the record,
        marked (``taken_back``). Refused with ``cannot_undo`` where :meth:`undo_point` says
        none is allowed."""
        at = self.undo_point(seat)
        game = self.game
        if at is None or game is None:
            raise Refusal("cannot_undo")
        snapshot = self._snapshot()
        record = game.record()
        taken = record["actions"][at:]
        record["actions"] = record["actions"][:at]
        self.game = Game.from_record(record)
        del self.movers[at:]
        self.taken_back.append({"at": at, "actions": taken})
        self.stand_in_moves = {move for move in self.stand_in_moves if move < at}
        rows: list[Row] = [ActionRow(table_id=self.table_id, game_number=self.game_number,
                                     index=self.stored_actions, seat=seat, action=undo_marker(at),
                                     over=False)]
        self.stored_actions += 1
        self._follow_afresh()
        return Outcome(tuple(rows), True, (), snapshot)

    def record(self) -> dict[str, Any]:
        """The current game's record, its takebacks included (``taken_back``); the host
        gives it out only once the game is over (it holds the deck)."""
        if self.game is None:
            raise Refusal("not_started")
        record = self.game.record()
        if self.taken_back:
            record["taken_back"] = copy.deepcopy(self.taken_back)
        if self.coached:
            record["coached"] = sorted(self.coached)
        return record

    # ---------------------------------------------------------------- bots

    def _rng_seed(self, purpose: str, seat: int) -> RngSeed:
        """A generator's seed for one decision (``purpose`` ``"bot"`` or ``"hint"``): at a
        shared table secret, so nobody can predict a bot or the hint from what the table
        shows, and fixed, so a restarted host plays on the same way (:attr:`move_seeds`)."""
        game = self.game
        moves = game.num_actions if game is not None else 0
        return self.move_seeds.move_seed(purpose, self.game_number, seat, moves)

    def bot_move_due(self) -> BotTurn | None:
        """The bot move the table waits for, or ``None`` if it waits for a person (or for
        nothing). Rule-based bots and forced moves are chosen here; a searching bot's move
        comes with the job to run. Hand the move back with :meth:`bot_act`."""
        game = self.game
        if not self.bot_to_move or game is None or game.to_move is None:
            return None
        seat = game.to_move
        legal = game.legal_actions()
        level = self.seats[seat].bot_level
        decision: Decision | None = None
        job: BotJob | None = None
        if len(legal) == 1:
            decision = Decision(legal[0], "the only legal move", "forced")
        elif level in SEARCHING_LEVELS:
            job = BotJob(table_id=self.table_id, seat=seat, view=game.view(seat),
                         legal=tuple(str(a) for a in legal), level=level,
                         rng_seed=self._rng_seed("bot", seat), seconds=self.config.thinking_seconds(level))
        else:
            decision = self._rule_based(level, seat)
        return BotTurn(seat=seat, level=level, game_number=self.game_number, moves_before=game.num_actions,
                       takebacks=len(self.taken_back), decision=decision, job=job)

    def _rule_based(self, level: str, seat: int) -> Decision:
        assert self.game is not None
        view = seat_view(self.game, seat, self._tracker(seat))
        agent = self.config.make_agent(level)
        rng = generator(self._rng_seed("bot", seat))
        return agent.choose(view, self.game.legal_actions(), rng)

    def fallback_move(self, turn: BotTurn) -> Decision:
        """A careful human's move for a bot whose search failed (a broken worker must not stop
        the game)."""
        return self._rule_based("normal", turn.seat)

    def bot_act(self, turn: BotTurn, answer: Action | Decision | DecisionParts) -> Outcome | None:
        """Play the bot's move of ``turn`` (its chosen action, or the job's answer); ``None``
        if the table moved on meanwhile (someone else moved, a person took the seat back)."""
        game = self.game
        if (game is None or self.game_number != turn.game_number or game.num_actions != turn.moves_before
                or len(self.taken_back) != turn.takebacks or game.to_move != turn.seat
                or not self.seats[turn.seat].bot_plays):
            return None
        if isinstance(answer, Action):
            action = answer
        else:
            action = (answer if isinstance(answer, Decision) else decision_from_parts(answer)).action
        snapshot = self._snapshot()
        game.apply(action, seat=turn.seat)
        return self._moved(game, turn.seat, action, snapshot, stand_in=self.seats[turn.seat].kind == "human")

    def _tracker(self, seat: int) -> CardTracker:
        """The memory of the bot at ``seat`` (begun, from the first event, when first needed)."""
        tracker = self.trackers.get(seat)
        if tracker is None:
            tracker = self.trackers[seat] = CardTracker(self.players, self.rules)
        return tracker

    # ---------------------------------------------------------------- hints

    def request_hint(self, seat: int) -> HintJob | Decision:
        """A hint for ``seat``, whose turn it must be: the job that works it out, or — asked
        again at the same point of the game — the same hint again at once (say it with
        :meth:`hint_message`), which costs nothing. A new hint is worked out at most one
        at a time per seat and about once per :attr:`TableConfig.hint_cooldown` (a few in a
        row are fine). Hand a job's answer back with :meth:`hint_done` (or :meth:`hint_failed`)."""
        game = self._turn_of(seat)
        point = (self.game_number, game.num_actions)
        given = self.hints_given.get(seat)
        if given is not None and given[0] == point:
            return given[1]
        if seat in self.hinting:
            raise Refusal("hint_busy")
        limit = self.hint_limits.get(seat)
        if limit is None:
            limit = self.hint_limits[seat] = RateLimiter(1 / max(self.config.hint_cooldown, 1e-3),
                                                         self.config.hint_burst, self.clock)
        if not limit.allow():
            raise Refusal("hint_cooldown", seconds=f"{max(limit.wait(), 0.1):.1f}")
        self.hinting.add(seat)
        legal = tuple(str(action) for action in game.legal_actions())
        return HintJob(table_id=self.table_id, seat=seat, view=game.view(seat), legal=legal,
                       rng_seed=self._rng_seed("hint", seat), seconds=self.config.hint_seconds,
                       game_number=self.game_number, moves=game.num_actions)

    def hint_done(self, seat: int, job: HintJob, parts: DecisionParts) -> Decision:
        """The hint a job worked out for ``seat``, remembered for its point of the game."""
        self.hinting.discard(seat)
        decision = decision_from_parts(parts)
        self.hints_given[seat] = ((job.game_number, job.moves), decision)
        return decision

    def hint_failed(self, seat: int) -> None:
        """The hint job of ``seat`` failed: the seat may ask again."""
        self.hinting.discard(seat)

    @staticmethod
    def hint_message(decision: Decision, lang: Lang) -> dict[str, Any]:
        """The ``hint`` message of a hint, in ``lang``."""
        return {"type": "hint", "action": str(decision.action), "explanation": hint_reason(decision, lang)}

    # ---------------------------------------------------------------- presence

    def connect(self, seat: int) -> Outcome:
        """A connection of ``seat`` opened: the person is here (and takes the seat back from a
        stand-in). Only a seat's first connection changes what others see."""
        occupant = self.seats[seat]
        occupant.connections += 1
        self.away_since.pop(seat, None)
        first = occupant.connections == 1
        if occupant.stand_in:
            occupant.stand_in = False
        return Outcome(changed=first)

    def disconnect(self, seat: int) -> Outcome:
        """A connection of ``seat`` closed; after the last one the absence clock starts."""
        occupant = self.seats[seat]
        occupant.connections = max(0, occupant.connections - 1)
        if occupant.connections:
            return Outcome()
        self.away_since[seat] = self.clock()
        return Outcome(changed=True, timers=() if self.solo else (seat,))

    def set_absent(self, seat: int) -> Outcome:
        """The absence clock of ``seat`` ran out: a bot stands in for a person who has been
        away for :attr:`TableConfig.absence_timeout` (a person who came back meanwhile, or
        not long enough ago, keeps the seat; at a :attr:`solo` table nobody stands in: the
        game waits)."""
        occupant = self.seats[seat]
        since, timeout = self.away_since.get(seat), self.config.absence_timeout
        if occupant.kind != "human" or occupant.connections or occupant.stand_in or since is None \
                or timeout is None or self.solo:
            return Outcome()
        if self.clock() - since + 1e-3 < timeout:
            return Outcome()
        occupant.stand_in = True
        return Outcome(changed=True)

    def take_away_summary(self, seat: int, lang: Lang) -> dict[str, Any] | None:
        """The ``away_summary`` message for the person of ``seat``, back after a stand-in
        played for them (what it played, in words), or ``None`` if it played nothing; it is
        told once. Only that seat's connection is sent it."""
        plays = self.away_plays.pop(seat, None)
        if not plays or self.seats[seat].stand_in:
            if plays:
                self.away_plays[seat] = plays
            return None
        labels = [action_label(action, lang) for action in plays]
        return {"type": "away_summary", "actions": [str(action) for action in plays],
                "text": t("web.away.summary", lang, moves=join_names(labels, lang))}

    # ---------------------------------------------------------------- messages

    def cursor(self, seat: int | None, lang: Lang) -> MessageCursor:
        """A new connection's cursor into the messages: it is sent everything at first
        (``seat`` ``None``: a spectator's, which shows the public view)."""
        return MessageCursor(seat, lang)

    def state_message(self, reader: MessageCursor) -> dict[str, Any]:
        """The ``state`` message for one connection (``docs/web.md``): its seat's view, the
        legal moves when it is to move, the new log lines and the table around the game.

        ``view["history"]`` holds only the events from ``history_start`` on (everything at
        the first message of a connection and of each game); ``log`` likewise holds the
        sentences from ``log_start`` on. The cursor remembers what has been sent.
        """
        seat, lang, game = reader.seat, reader.lang, self.game
        message: dict[str, Any] = {"type": "state", "seat": seat, "view": None, "legal": [],
                                   "log": [], "log_kinds": [], "log_start": 0, "history_start": 0,
                                   "last_trick": None, "table": self._table_part(seat),
                                   "coach": self.coach_part(seat, lang)}
        if game is None:
            return add_page_facts(message, None, [])
        takebacks = len(self.taken_back)
        if reader.game_number != self.game_number or reader.takebacks != takebacks:
            reader.game_number, reader.history_sent, reader.log_sent = self.game_number, 0, 0
            reader.takebacks = takebacks
        since = min(reader.history_sent, game.num_events)
        view = game.public_view(since) if seat is None else game.view(seat, since=since)
        message["history_start"] = reader.history_sent
        reader.history_sent = view["event_count"]
        message["view"] = view
        legal = game.legal_actions() if seat is not None and game.to_move == seat else []
        message["legal"] = [str(a) for a in sort_actions(legal, game.phase, game.trump)]
        entries = self.log_of(seat, lang).entries
        start = reader.log_sent or max(0, len(entries) - FIRST_LOG_LINES)
        message["log_start"] = start
        message["log"] = [entry.text for entry in entries[start:]]
        message["log_kinds"] = [str(entry.kind) for entry in entries[start:]]
        reader.log_sent = len(entries)
        message["last_trick"] = self.last_trick()
        message["undo"] = seat is not None and self.undo_point(seat) is not None
        message["takebacks"] = takebacks
        people = self.participants(seat)
        if game.is_over:
            result = game.result
            assert result is not None
            message["result"] = {"headline": result_headline(game, people, lang),
                                 "you": result_fate_line(game, people, lang),
                                 "out_order": out_order_line(game, people, lang),
                                 "losers": game.losers, "order": list(result.out_order),
                                 "lost_on_empty": result.lost_on_empty,
                                 "hands": [game.hand(s) for s in range(self.players)]}
        elif legal:
            message["advice"] = turn_advice(view, people, legal, lang)
        elif game.to_move is not None:
            message["advice"] = watch_advice(game, people, lang)
        return add_page_facts(message, game, legal)

    def last_trick(self) -> dict[str, Any] | None:
        """The last trick of the current game that left the table (``last_trick`` in
        ``docs/web.md``), or ``None``: public, so the same for every seat, and brought up to
        date from the events since the last call (constant work per move)."""
        game = self.game
        if game is None:
            return None
        watcher = self.tricks
        if watcher.seen < game.num_events:
            watcher.feed(game.raw_events_since(watcher.seen))
        return watcher.last

    def react(self, seat: int | None, reaction: object, spectator: object = None) -> dict[str, Any]:
        """The ``reaction`` message every connection of the table is sent when ``seat`` sends
        one of :data:`REACTIONS`: never free text, and at most one per
        :attr:`TableConfig.reaction_interval` per seat (else ``rate_limited``). A spectator
        (``seat`` ``None``, ``spectator`` its connection) is limited the same, on its own."""
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            raise Refusal("bad_message", f"reaction must be one of {', '.join(REACTIONS)}")
        now = self.clock()
        times: dict[Any, float] = self.reacted_at if seat is not None else self.watchers.reacted_at
        key = seat if seat is not None else spectator
        last = times.get(key)
        if last is not None and now - last < self.config.reaction_interval:
            raise Refusal("rate_limited")
        times[key] = now
        return {"type": "reaction", "seat": seat, "reaction": reaction}

    def set_watching(self, allowed: object) -> Outcome:
        """A seated player lets people watch the table, or no longer (a table setting, stored
        with the match); the master closes the spectators' connections when it is turned off."""
        if not isinstance(allowed, bool):
            raise Refusal("bad_message", "watching needs allowed: true or false")
        if allowed == self.watchers.allowed:
            return Outcome()
        snapshot = self._snapshot()
        self.watchers.allowed = allowed
        return Outcome((self._table_update(),), True, (), snapshot)

    def _table_part(self, viewer: int | None) -> dict[str, Any]:
        prefix = self.config.invite_prefix
        watchers = self.watchers
        return {"id": self.table_id, "status": self.status, "game": self.game_number,
                "scores": list(self.match.scores), "seeded": self.seeded, "host": self.host,
                "group": self.group,
                "seats": [self.seat_info(index, viewer) for index in range(self.players)],
                "reactions": list(REACTIONS),
                "invite": None if prefix is None else f"{prefix}{self.table_id}",
                "watchers": watchers.count, "watching": watchers.allowed,
                "watch": None if viewer is None else watchers.link(prefix, self.table_id)}

    def _tell_logs(self, game: Game, stand_in: int | None = None) -> None:
        """Feed the step just played (by a stand-in for the person at ``stand_in``, if
        given) to every move log (each with its own seat's table)."""
        views: dict[int, SeatView] = {}
        for seat_log in self.logs.values():
            reader = seat_log.seat  # a spectators' log is told from seat 0's (public parts only)
            if reader not in views:
                views[reader] = SeatView.from_dict(game.view(reader, since=game.num_events))
            seat_log.feed(game, views[reader], stand_in)

    def prepare_log(self, seat: int | None, lang: Lang) -> None:
        """Begin the move log of ``seat`` in ``lang`` now if it is not there yet (one replay of
        the game so far), so a host can do it away from its event loop, with the table to
        itself, before a new reader's first message needs it."""
        if self.game is not None:
            self.log_of(seat, lang)

    def log_of(self, seat: int | None, lang: Lang) -> SeatLog:
        """The move log of ``seat`` in ``lang``, begun (by one replay) when first asked for
        (``seat`` ``None``: the spectators', where nobody is "you")."""
        seat_log = self.logs.get((seat, lang))
        if seat_log is None:
            assert self.game is not None
            story = TableStory(self.participants(seat), self.rules, lang)
            # the story reads only a view's public parts, so any seat's view explains it
            seat_log = SeatLog.caught_up(story, 0 if seat is None else seat, self.game, self.stand_in_moves)
            self.logs[(seat, lang)] = seat_log
        return seat_log

    # ---------------------------------------------------------------- coaching

    def coach_link(self, seat: int) -> tuple[str, Outcome]:
        """A new coach link for the person at ``seat`` (the invite with ``?coach=…``), replacing the
        seat's last one (its coach is let go by the host); the outcome stores its secret's
        hash. Refused with ``no_coach`` where there are no links (the offline app)."""
        prefix = self.config.invite_prefix
        if prefix is None:
            raise Refusal("no_coach")
        if self.seats[seat].kind != "human":
            raise Refusal("bad_message", "only a person's seat may have a coach")
        snapshot = self._snapshot()
        token = new_token()
        self.seats[seat].coach_hash = hash_token(token)
        return coach_url(prefix, self.table_id, token), Outcome((self._table_update(),), False, (), snapshot)

    def coach_revoke(self, seat: int) -> Outcome:
        """The person at ``seat`` ends the coaching: the link stops working (the host lets
        the coach go)."""
        snapshot = self._snapshot()
        self.seats[seat].coach_hash = None
        self.suggestions.pop(seat, None)
        return Outcome((self._table_update(),), False, (), snapshot)

    def coach_seat(self, token: str) -> int | None:
        """The seat a coach link's secret belongs to, compared in constant time."""
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.coach_hash is not None and secrets.compare_digest(seat.coach_hash, digest):
                return index
        return None

    def coach_arrived(self, seat: int) -> Outcome:
        """A coach's connection of ``seat`` opened (refused ``too_many_sockets`` beyond
        :data:`~.coaching.MAX_COACH_CONNECTIONS`); the first tells everyone the seat is coached.
        The game is marked with the next move (:meth:`_coach_marks`)."""
        occupant = self.seats[seat]
        if occupant.coaches >= MAX_COACH_CONNECTIONS:
            raise Refusal("too_many_sockets")
        occupant.coaches += 1
        return Outcome(changed=occupant.coaches == 1)

    def coach_left(self, seat: int) -> Outcome:
        """A coach's connection of ``seat`` closed; after the last one the seat is no longer
        coached."""
        occupant = self.seats[seat]
        occupant.coaches = max(0, occupant.coaches - 1)
        return Outcome(changed=occupant.coaches == 0)

    def _coach_marks(self) -> list[Row]:
        """The markers of the seats whose coach is connected at this move and that the game
        has not marked yet (stored before the move, :mod:`.coaching`)."""
        rows: list[Row] = []
        for index, seat in enumerate(self.seats):
            if seat.coaches and index not in self.coached:
                self.coached.add(index)
                rows.append(ActionRow(table_id=self.table_id, game_number=self.game_number,
                                      index=self.stored_actions, seat=index, action=coach_marker(index),
                                      over=False))
                self.stored_actions += 1
        return rows

    def suggest(self, seat: int, text: str) -> None:
        """A coach of ``seat`` suggests ``text``: refused as the move itself would be (not
        the seat's turn, the engine's reason for an illegal or malformed move), else kept
        for the seat's state until the game moves on."""
        game = self._turn_of(seat)
        refusal = game.check(text, seat)
        if refusal is not None:
            raise IllegalMove(refusal)
        self.suggestions[seat] = Suggestion(self._point(game), Action.parse(text))

    def _point(self, game: Game) -> tuple[int, int, int]:
        return (self.game_number, game.num_actions, len(self.taken_back))

    def coach_part(self, seat: int | None, lang: Lang) -> dict[str, Any] | None:
        """The state's ``coach`` for the seat's own connections (the person and their coach):
        whether a coach link is open, and the coach's suggestion while it holds (``None`` for
        a reader without a seat)."""
        if seat is None:
            return None
        suggestion = self.suggestions.get(seat)
        game = self.game
        current = suggestion is not None and game is not None and suggestion.point == self._point(game)
        return {"link": self.seats[seat].coach_hash is not None,
                "suggestion": suggestion.message_part(lang) if current and suggestion else None}

    # ---------------------------------------------------------------- stored form

    def _stored_seats(self) -> list[dict[str, Any]]:
        return [seat.to_stored() for seat in self.seats]

    def _stored_match(self) -> dict[str, Any]:
        match = self.match
        return {"scores": list(match.scores), "dealer": match.dealer, "games": self.game_number,
                "seed": self.seed, "secret": None if self.secret is None else self.secret.hex,
                "host": self.host, "group": self.group,
                "results": [list(r) for r in match.results], **self.watchers.stored()}

    def _table_update(self) -> TableUpdate:
        return TableUpdate(self.table_id, self._stored_seats(), self._stored_match())


def _house_rules(preset: Rules, changes: object) -> Rules:
    """The preset with the requested house rules (``set``); a refusal names the option in our
    words and never repeats a name or value the client sent."""
    if not isinstance(changes, dict) or not all(
            isinstance(value, str | int | bool) for value in changes.values()):
        raise Refusal("bad_request", "set must map option names to values")
    if any(name not in RULE_OPTIONS for name in changes):
        raise Refusal("bad_request", "set names an option that does not exist (see /api/options)")
    for name, value in changes.items():
        try:
            preset.with_options(**{name: value})
        except (ValueError, TypeError):
            raise Refusal("bad_request", f"set: {name} must be one of "
                                         f"{', '.join(Rules.option_choices(name))}") from None
    try:
        return preset.with_options(**changes)
    except (ValueError, TypeError):
        raise Refusal("bad_request", "set: these options do not go together") from None


def _requested_seats(items: object, players: int,
                     levels: tuple[str, ...] | None = None) -> tuple[list[Seat], int, str]:
    """The seats of a new table: exactly one person (the creator), bots of ``levels`` (default:
    those that can play here) and open seats."""
    allowed = available_levels() if levels is None else levels  # learned only where numpy is
    if items is None:
        items = [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * (players - 1)
    if not isinstance(items, list) or len(items) != players:
        raise Refusal("bad_request", f"seats must list {players} seats")
    if not all(isinstance(item, Mapping) for item in items):
        raise Refusal("bad_request", "each seat must be an object")
    taken = {clean_name(item.get("name")).casefold() for item in items if item.get("kind") == "human"}
    seats: list[Seat] = []
    creator, token = -1, ""
    for index, item in enumerate(items):
        kind = item.get("kind")
        if kind == "human":
            if creator >= 0:
                raise Refusal("bad_request", "only the creator's seat is human; mark friends' seats open")
            creator, token = index, new_token()
            seats.append(Seat("human", clean_name(item.get("name")), token_hash=hash_token(token)))
        elif kind == "bot":
            level = item.get("level", "normal")
            if not isinstance(level, str) or level not in allowed:
                raise Refusal("bad_request", f"level must be one of {', '.join(allowed)}")
            name = clean_name(item.get("name")) or spare_bot_name(seats, index, taken)
            seats.append(Seat("bot", name, level=level))
        elif kind == "open":
            seats.append(Seat("open"))
        else:
            raise Refusal("bad_request", "seat kind must be human, bot or open")
    if creator < 0:
        raise Refusal("bad_request", "one seat must be the creator's (kind human)")
    return seats, creator, token
