"""Live tables: seats, the game, bots, connections and the match, with the engine in charge.

A :class:`LiveTable` (held by the :class:`~.lobby.Lobby`) owns one game at a time and
everything around it: who sits where (a person with a seat token, a bot, or an open seat),
the connections of each seat, the bots' turns (one move at a time, at a pace people can
follow; ``hard`` thinks in a worker process), players who went away (a bot stands in after a
while; they take the seat back by coming back), and the match (the loser deals the next
game, C2; a score of who was Mattis).

Every change is stored before anyone hears of it, and a change the database refuses is
undone and refused with ``storage``. Each connection receives its own seat's ``Game.view``
only, plus sentences about public events in its own language. The deals and the bots' and
hints' choices come from the table's secret (:mod:`.seeding`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..bots import LEVELS, CardTracker, Decision, make_agent, seat_view
from ..core.actions import Action
from ..core.errors import IllegalAction
from ..core.game import Game, next_dealer
from ..core.observation import SeatView
from ..core.rules import Rules
from ..frontend.cards import sort_actions
from ..frontend.explain import explain_illegal
from ..frontend.narrate import out_order_line, result_headline
from ..frontend.seats import BOT_NAMES, Participant
from ..frontend.session import hint_reason
from ..frontend.story import TableStory
from ..frontend.table import turn_advice
from ..i18n import Lang, t
from .seeding import MatchSecret
from .store import STORAGE_ERRORS, ActionRow, NewGame
from .workers import choose_move, decision_from_parts, suggest_move

if TYPE_CHECKING:
    from .lobby import Lobby

SeatKind = Literal["human", "bot", "open"]
log = logging.getLogger("mattis.web")
MAX_NAME = 24
FIRST_LOG_LINES = 80
"""How much of the log a new connection receives (older lines add nothing on a phone)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How a server behaves; the defaults suit people, the tests shorten the waits."""

    bot_delay: float = 0.8
    """Seconds before each bot move, so people can follow the play."""
    absence_timeout: float = 60.0
    """Seconds a person may be away before a bot plays their seat."""
    hard_seconds: float = 1.0
    """Thinking time of a ``hard`` bot per move."""
    hint_seconds: float = 0.5
    """Thinking time of the hint."""
    hint_cooldown: float = 2.0
    """Seconds between a seat's hints, on average (asking again at the same point of the
    game gets the same hint again at once, and costs nothing) ..."""
    hint_burst: int = 3
    """... and how many may come one right after the other (a person who asks at each turn
    of a quick round is not refused)."""
    max_message: int = 4096
    """Largest client message, in characters."""
    rate: float = 10.0
    """Messages per second a connection may send on average ..."""
    burst: float = 20.0
    """... and in a burst."""
    flood_close: int = 200
    """Refused messages after which a flooding connection is closed."""
    max_tables: int = 10_000
    """Tables kept in memory at once (creation is refused beyond)."""
    posts_per_minute: float = 30.0
    """Tables created and seats joined per minute from one address (bursts of 20)."""
    idle_unload: float = 3600.0
    """Seconds after which a table nobody is connected to leaves memory (it stays stored and
    comes back when someone opens it)."""
    max_sockets_per_seat: int = 8
    """Open sockets one seat may have (tabs, devices)."""
    max_sockets_per_address: int = 64
    """Open sockets one client address (an IPv6 /64) may have, over all tables."""
    header_timeout: float = 10.0
    """Seconds a connection has to send its request headers."""
    body_timeout: float = 10.0
    """Seconds a request has to send its whole body."""
    allowed_origins: frozenset[str] = frozenset()
    """Origins besides the server's own whose pages may open sockets (``--allow-origin``)."""


class ApiError(Exception):
    """A refusal for one client: an HTTP status, a stable code and a message."""

    def __init__(self, status: int, code: str, detail: str = "", **params: object) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.detail = detail
        self.params = params

    def message(self, lang: Lang) -> str:
        """The refusal in words (anything that could not be sent as UTF-8 made harmless)."""
        text = t(f"web.err.{self.code}", lang, detail=self.detail, **self.params)
        return text.encode("utf-8", "replace").decode("utf-8")


def hash_token(token: str) -> str:
    """Tokens are stored hashed, so a copy of the database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(value: object) -> str:
    """A player name fit to show: printable, single-spaced, at most :data:`MAX_NAME` long."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ApiError(400, "bad_request", "name must be text")
    text = "".join(ch for ch in value if ch.isprintable())
    return " ".join(text.split())[:MAX_NAME]


@dataclass(slots=True)
class Seat:
    """One seat: who sits there and, for a person, their connections and absence."""

    kind: SeatKind
    name: str = ""
    level: str | None = None
    token_hash: str | None = None
    connections: set[Connection] = field(default_factory=set)
    away_since: float | None = None
    stand_in: bool = False
    """A bot plays for this person while they are away."""

    def to_stored(self) -> dict[str, Any]:
        """The stored form (no connections; the token only hashed)."""
        return {"kind": self.kind, "name": self.name, "level": self.level, "token": self.token_hash}

    @property
    def bot_plays(self) -> bool:
        """Whether the server moves for this seat."""
        return self.kind == "bot" or self.stand_in


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()
        self.refused = 0

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False

    def wait(self) -> float:
        """Seconds until :meth:`allow` will take a token (after a refusal)."""
        return max(0.0, (1 - self.tokens) / self.rate)


class Connection:
    """One open WebSocket of a seat: its language, what it has been sent, its send queue."""

    QUEUE_LIMIT = 256

    def __init__(self, seat: int, lang: Lang, settings: Settings) -> None:
        self.seat = seat
        self.lang: Lang = lang
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(self.QUEUE_LIMIT)
        self.limiter = RateLimiter(settings.rate, settings.burst)
        self.game_number = 0
        self.history_sent = 0
        self.log_sent = 0
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client too slow to read 256 messages is let go."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Ask the writer to close the socket."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)


class SeatLog:
    """The move log of one game for one seat in one language: a
    :class:`~mattis.frontend.story.TableStory` fed one step at a time, so each step costs
    only its own events, however long the game."""

    def __init__(self, story: TableStory, seat: int) -> None:
        self.story = story
        self.seat = seat
        self.events_told = 0
        self.lines: list[str] = []
        self.kinds: list[str] = []
        """Each line's kind (``"war"``, ``"out"``, ``"lead"`` …), for the page to style."""

    def feed(self, game: Game, public: SeatView | None = None) -> None:
        """Tell the events since the last feed; they must be one step's (the table after
        them explains them). ``public`` is the table now, if the caller already has it."""
        if game.num_events == self.events_told and self.events_told:
            return
        events = game.events_since(self.events_told)
        table_now = public or SeatView.from_dict(game.view(self.seat, since=game.num_events))
        for line in self.story.tell(events, table_now):
            self.lines.append(line.text)
            self.kinds.append(str(line.kind))
        self.events_told = game.num_events

    @classmethod
    def caught_up(cls, story: TableStory, seat: int, game: Game) -> SeatLog:
        """A log that starts in the middle of a game (a new connection or language, a
        restored table): the game is replayed once, step by step, from its deal."""
        seat_log = cls(story, seat)
        replay = Game.from_record({**game.record(), "actions": [], "result": None})
        seat_log.feed(replay)
        for action in game.actions:
            replay.apply_unchecked(action)
            seat_log.feed(replay)
        return seat_log


class LiveTable:
    """One table of a running server (see the module docstring)."""

    def __init__(self, lobby: Lobby, table_id: str, rules: Rules, seats: list[Seat],
                 match: dict[str, Any]) -> None:
        self.lobby = lobby
        self.table_id = table_id
        self.rules = rules
        self.seats = seats
        self.match = match
        """``{"scores": [...], "dealer": d, "games": n, "seed": s|None, "secret": hex,
        "results": [...]}``: the match so far (stored, never sent)."""
        self.secret = secret_of(match)
        self.game: Game | None = None
        self.game_id = 0
        self.game_number = 0
        self.changed = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self.logs: dict[tuple[int, Lang], SeatLog] = {}
        """The move log of the current game, per seat and language, fed after every move."""
        self.trackers: dict[int, CardTracker] = {}
        """What each bot seat remembers of the current game, so a bot reads only new events."""
        self.hinting: set[int] = set()
        """Seats whose hint is being worked out."""
        self.hint_limits: dict[int, RateLimiter] = {}
        """How often each seat may have a new hint (:attr:`Settings.hint_cooldown`)."""
        self.hints_given: dict[int, tuple[tuple[int, int], Decision]] = {}
        """Each seat's last hint and the point of the game it is for (game, action count)."""
        self.lock = asyncio.Lock()
        """Held from applying a move until it is stored and sent, so moves never interleave."""
        self.last_active = time.monotonic()

    # ---------------------------------------------------------------- facts

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.seats)

    @property
    def full(self) -> bool:
        """Whether every seat is taken (the game can start)."""
        return all(seat.kind != "open" for seat in self.seats)

    def seat_of(self, token: str) -> int | None:
        """The seat a token belongs to, compared in constant time."""
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return index
        return None

    def participants(self, viewer: int) -> list[Participant]:
        """The seats as the narration names them from ``viewer``'s chair."""
        people = []
        for index, seat in enumerate(self.seats):
            if index == viewer:
                people.append(Participant(index, human=True))
            elif seat.kind == "bot":
                people.append(Participant(index, seat.name, seat.level))
            else:
                people.append(Participant(index, seat.name))
        return people

    @property
    def seeded(self) -> bool:
        """Whether the table was created with an explicit seed, so its creator can know
        the deals: everyone who joins is told."""
        return self.match.get("seed") is not None

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (for the join page)."""
        return {"table": self.table_id, "players": self.players, "rules": self.rules.to_dict(),
                "preset": self.rules.preset_name, "status": self.status(), "seeded": self.seeded,
                "seats": [self.seat_info(index, None) for index in range(self.players)]}

    def status(self) -> str:
        """``waiting`` for players, ``playing``, or ``over`` (between games)."""
        if self.game is None:
            return "waiting"
        return "over" if self.game.is_over else "playing"

    def seat_info(self, index: int, viewer: int | None) -> dict[str, Any]:
        """One seat's public facts."""
        seat = self.seats[index]
        return {"seat": index, "kind": seat.kind, "name": seat.name, "level": seat.level,
                "connected": bool(seat.connections) if seat.kind == "human" else None,
                "stand_in": seat.stand_in, "you": index == viewer}

    # ---------------------------------------------------------------- storage

    def store_seats(self) -> None:
        """Write seats and match state."""
        self.lobby.store.update_table(self.table_id, [s.to_stored() for s in self.seats], self.match)

    def _seat_facts(self) -> list[tuple[SeatKind, str, str | None, str | None]]:
        """What a change of seats may alter, to put back if storing it fails."""
        return [(seat.kind, seat.name, seat.level, seat.token_hash) for seat in self.seats]

    def _save(self, before: list[tuple[SeatKind, str, str | None, str | None]], deal: bool) -> None:
        """Store the seats as they now are, with the next game of the match if ``deal``, in
        one transaction, then start that game. If the database refuses, the seats are put
        back as ``before`` and the change is refused with ``storage``: nothing half-done."""
        dealt = self.next_game() if deal else None
        match = self.match if dealt is None else {**self.match, "games": dealt[1].number}
        try:
            game_id = self.lobby.store.update_table(self.table_id, [s.to_stored() for s in self.seats],
                                                    match, dealt[1] if dealt else None)
        except STORAGE_ERRORS as error:
            for seat, (kind, name, level, token_hash) in zip(self.seats, before, strict=True):
                seat.kind, seat.name, seat.level, seat.token_hash = kind, name, level, token_hash
            log.warning("table %s: a change could not be stored: %s", self.table_id, first_line(error))
            raise ApiError(503, "storage") from None
        if dealt is not None and game_id is not None:
            self.start_game(dealt[0], dealt[1].number, game_id)

    # ---------------------------------------------------------------- joining and games

    def join(self, name: str) -> tuple[int, str]:
        """Seat a person in the first open seat; returns the seat and its new token."""
        for index, seat in enumerate(self.seats):
            if seat.kind == "open":
                before = self._seat_facts()
                token = secrets.token_urlsafe(24)
                name = self._distinct_name(name)
                seat.kind, seat.name, seat.token_hash = "human", name, hash_token(token)
                seat.away_since = time.monotonic()
                self._save(before, deal=self.full)
                self.broadcast()
                return index, token
        raise ApiError(409, "table_full")

    def fill_with_bot(self, index: object, level: object) -> None:
        """Put a bot in an open seat (a friend who does not come); the game starts when the
        table is full."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < self.players:
            raise ApiError(400, "bad_message", "bot needs a seat number")
        if level not in LEVELS:
            raise ApiError(400, "bad_message", f"level must be one of {', '.join(LEVELS)}")
        seat = self.seats[index]
        if seat.kind != "open" or self.game is not None:
            raise ApiError(409, "bad_message", "that seat is not open")
        used = {s.name.casefold() for s in self.seats if s.kind != "open"}
        spare = [name for name in BOT_NAMES if name.casefold() not in used]
        before = self._seat_facts()
        seat.kind, seat.level, seat.name = "bot", str(level), spare[0] if spare else f"Bot {index + 1}"
        self._save(before, deal=self.full)
        self.broadcast()

    def _distinct_name(self, name: str) -> str:
        """Keep names apart: a bot with the newcomer's name takes another, and a second
        person of the same name gets a number."""
        if not name:
            return name
        used = {seat.name.casefold() for seat in self.seats if seat.kind != "open"}
        for seat in self.seats:
            if seat.kind == "bot" and seat.name.casefold() == name.casefold():
                spare = [n for n in BOT_NAMES if n.casefold() not in used | {name.casefold()}]
                seat.name = spare[0] if spare else f"Bot {self.seats.index(seat) + 1}"
                used = {s.name.casefold() for s in self.seats if s.kind != "open"}
        if name.casefold() in used:
            number = 2
            while f"{name} {number}".casefold() in used:
                number += 1
            name = f"{name} {number}"
        return name

    def next_game(self) -> tuple[Game, NewGame]:
        """The next game of the match, dealt but not yet stored or started: its seed comes
        from the table's secret (:meth:`MatchSecret.game_seed`), the dealer from the match."""
        number = int(self.match.get("games", 0)) + 1
        dealer = int(self.match.get("dealer", self.players - 1))
        game = Game.new(self.rules, self.players, seed=self.secret.game_seed(number), dealer=dealer)
        start = game.record()
        start.pop("actions", None)
        return game, NewGame(number, start)

    def start_game(self, game: Game, number: int, game_id: int) -> None:
        """Play ``game`` (game ``number`` of the match, stored as ``game_id``) from now on."""
        self.match["games"] = number
        self.game_id = game_id
        self.game, self.game_number = game, number
        self.logs.clear()
        self.trackers.clear()
        now = time.monotonic()
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and not seat.connections:
                seat.away_since = seat.away_since or now
                self.lobby.watch_absence(self, index)
        self.changed.set()

    def play_again(self, seat: int) -> None:
        """Deal the next game of the match once this one is over."""
        if self.game is None:
            raise ApiError(409, "not_started")
        if not self.game.is_over:
            raise ApiError(409, "bad_message", "the game is still on")
        self._save(self._seat_facts(), deal=True)
        self.broadcast()

    def finish_match_game(self, game: Game) -> None:
        """Score a finished game and pass the deal to the loser (C2)."""
        scores = list(self.match.get("scores") or [0] * self.players)
        for loser in game.losers:
            scores[loser] += 1
        self.match["scores"] = scores
        self.match["dealer"] = next_dealer(game.dealer, game.losers, self.players)
        self.match.setdefault("results", []).append(list(game.losers))
        self.store_seats()

    def _turn_of(self, seat: int) -> Game:
        """The game, if it is ``seat``'s turn in it; otherwise the refusal that says why."""
        game = self.game
        if game is None:
            raise ApiError(409, "not_started")
        if game.is_over:
            raise ApiError(409, "game_over")
        if game.to_move != seat:
            raise ApiError(409, "not_your_turn")
        return game

    async def act(self, seat: int, text: str, lang: Lang) -> None:
        """Play ``text`` for ``seat``; refusals raise :class:`ApiError` or its illegal twin."""
        async with self.lock:
            game = self._turn_of(seat)
            before = game.copy()
            try:
                action = game.apply(text, seat=seat)
            except IllegalAction as error:
                raise IllegalMove(error, self._why(error, lang)) from None
            await self._commit(before, game, seat, action)

    @staticmethod
    def _why(error: IllegalAction, lang: Lang) -> str:
        return t("play.err.illegal", lang, reason=explain_illegal(error, lang))

    async def _commit(self, before: Game, game: Game, seat: int, action: Action) -> None:
        """Store the move just applied (hold :attr:`lock`), then tell everyone; if storing
        fails, undo it, so nothing is half-done."""
        try:
            await self.lobby.action_log.write(
                ActionRow(self.game_id, game.num_actions - 1, seat, str(action), game.is_over))
        except Exception as error:  # the database is outside our control: refuse, keep state
            self.game = before
            raise ApiError(503, "storage") from error
        self._tell_logs(game)
        if game.is_over:
            try:
                self.finish_match_game(game)
            except STORAGE_ERRORS as error:  # the game itself is stored; the score is recounted
                log.warning("table %s: the match score could not be stored: %s", self.table_id,
                            first_line(error))
            except Exception:
                log.exception("could not score the game at table %s", self.table_id)
        self.changed.set()
        self.broadcast()

    def _tell_logs(self, game: Game) -> None:
        """Feed the step just played to every move log (each with its own seat's table)."""
        tables: dict[int, SeatView] = {}
        for (seat, _), seat_log in self.logs.items():
            if seat not in tables:
                tables[seat] = SeatView.from_dict(game.view(seat, since=game.num_events))
            seat_log.feed(game, tables[seat])

    def _log_of(self, seat: int, lang: Lang) -> SeatLog:
        """The move log of ``seat`` in ``lang``, begun (by one replay) when first asked for."""
        seat_log = self.logs.get((seat, lang))
        if seat_log is None:
            assert self.game is not None
            story = TableStory(self.participants(seat), self.rules, lang)
            seat_log = SeatLog.caught_up(story, seat, self.game)
            self.logs[(seat, lang)] = seat_log
        return seat_log

    # ---------------------------------------------------------------- bots

    async def drive(self) -> None:
        """Move for bots and stand-ins, one move at a time, until the table is closed. A
        failure (a database that refuses a write, a crashed worker) costs a pause, never the
        table: the move is undone and tried again."""
        settings = self.lobby.settings
        while True:
            game = self.game
            seat = None if game is None or game.is_over else game.to_move
            if seat is None or not self.seats[seat].bot_plays or game is None:
                self.changed.clear()
                await self.changed.wait()
                continue
            await asyncio.sleep(settings.bot_delay)  # also lets other tables go first
            try:
                await self._bot_move(game, seat)
            except Exception:
                log.exception("bot move failed at table %s; trying again", self.table_id)
                await asyncio.sleep(1.0)

    async def _bot_move(self, game: Game, seat: int) -> None:
        """One move for the bot at ``seat``, unless the table moved on meanwhile."""
        if self.game is not game or game.to_move != seat or not self.seats[seat].bot_plays:
            return
        moves_before = game.num_actions
        async with self.lobby.bot_gate:
            action = self._quick_choice(game, seat)
        if action is None:
            action = await self._hard_choice(game, seat)
        async with self.lock:
            if self.game is not game or game.num_actions != moves_before:
                return  # someone else moved while the bot was thinking
            before = game.copy()
            game.apply(action, seat=seat)
            await self._commit(before, game, seat, action)

    def _bot_level(self, seat: int) -> str:
        occupant = self.seats[seat]
        return occupant.level if occupant.kind == "bot" and occupant.level else "normal"

    def _rng_seed(self, game: Game, seat: int) -> str:
        """Each bot move has its own seed, so a restarted server plays on the same way."""
        return self.secret.move_seed("bot", self.game_number, seat, game.num_actions)

    def _quick_choice(self, game: Game, seat: int) -> Action | None:
        """A forced move or a rule-based bot's move, or ``None`` for a ``hard`` search."""
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        level = self._bot_level(seat)
        if level == "hard":
            return None
        view = seat_view(game, seat, self._tracker(seat))
        return make_agent(level).choose(view, legal, random.Random(self._rng_seed(game, seat))).action

    def _tracker(self, seat: int) -> CardTracker:
        """The memory of the bot at ``seat`` (begun, from the first event, when first needed)."""
        tracker = self.trackers.get(seat)
        if tracker is None:
            tracker = self.trackers[seat] = CardTracker(self.players, self.rules)
        return tracker

    async def _hard_choice(self, game: Game, seat: int) -> Action:
        """A ``hard`` bot's move, searched in the worker while the server goes on."""
        legal = game.legal_actions()
        seconds = self.lobby.settings.hard_seconds
        try:
            parts = await self.lobby.work.run(self.table_id, seconds, choose_move, game.view(seat),
                                              [str(a) for a in legal], "hard", self._rng_seed(game, seat),
                                              seconds)
        except Exception:  # a broken worker must not stop the game: play like a careful human
            log.exception("hard bot failed at table %s; playing as normal", self.table_id)
            view = seat_view(game, seat, self._tracker(seat))
            return make_agent("normal").choose(view, legal, random.Random(self._rng_seed(game, seat))).action
        return decision_from_parts(parts).action

    async def hint(self, connection: Connection) -> None:
        """Send the ``hard`` bot's suggestion to a seat whose turn it is: worked out in the
        worker queue in this table's turn, at most one at a time per seat and one per
        :attr:`Settings.hint_cooldown` on average; asked again at the same point of the game,
        the same hint comes back at once."""
        seat = connection.seat
        game = self._turn_of(seat)
        point = (self.game_number, game.num_actions)
        given = self.hints_given.get(seat)
        if given is None or given[0] != point:
            given = point, await self._work_out_hint(game, seat)
            self.hints_given[seat] = given
        decision = given[1]
        connection.send({"type": "hint", "action": str(decision.action),
                         "explanation": hint_reason(decision, connection.lang)})

    async def _work_out_hint(self, game: Game, seat: int) -> Decision:
        settings = self.lobby.settings
        if seat in self.hinting:
            raise ApiError(409, "hint_busy")
        limit = self.hint_limits.get(seat)
        if limit is None:
            limit = self.hint_limits[seat] = RateLimiter(1 / settings.hint_cooldown, settings.hint_burst)
        if not limit.allow():
            raise ApiError(429, "hint_cooldown", seconds=f"{max(limit.wait(), 0.1):.1f}")
        self.hinting.add(seat)
        try:
            legal = game.legal_actions()
            rng_seed = self.secret.move_seed("hint", self.game_number, seat, game.num_actions)
            parts = await self.lobby.work.run(self.table_id, settings.hint_seconds, suggest_move,
                                              game.view(seat), [str(a) for a in legal], rng_seed,
                                              settings.hint_seconds)
        finally:
            self.hinting.discard(seat)
        return decision_from_parts(parts)

    # ---------------------------------------------------------------- connections

    def connect(self, connection: Connection) -> None:
        """A seat's socket opened: the person is back (and takes the seat back from a bot).
        Only the new socket gets a state, unless what others see changed (the seat's first
        socket: it is connected again), so a connect costs the same however many there are."""
        seat = self.seats[connection.seat]
        came_back = not seat.connections or seat.stand_in
        seat.connections.add(connection)
        seat.away_since = None
        if seat.stand_in:
            seat.stand_in = False
            self.changed.set()
        if came_back:
            self.broadcast()
        else:
            self.last_active = time.monotonic()
            connection.send(self.state_for(connection))

    def disconnect(self, connection: Connection) -> None:
        """A seat's socket closed; after the absence timeout a bot plays for the person.
        Others hear of it only when it was the seat's last socket."""
        seat = self.seats[connection.seat]
        if connection not in seat.connections:
            return
        seat.connections.discard(connection)
        if not seat.connections:
            seat.away_since = time.monotonic()
            self.lobby.watch_absence(self, connection.seat)
            self.broadcast()

    def check_absence(self, index: int) -> None:
        """Let a bot stand in for a person who has been away long enough."""
        seat = self.seats[index]
        if seat.kind != "human" or seat.connections or seat.away_since is None or seat.stand_in:
            return
        if time.monotonic() - seat.away_since + 1e-3 >= self.lobby.settings.absence_timeout:
            seat.stand_in = True
            self.changed.set()
            self.broadcast()

    def idle_for(self, now: float) -> float | None:
        """Seconds since anything happened here, or ``None`` while someone is connected or
        a bot is still playing a game."""
        if any(seat.connections for seat in self.seats):
            return None
        if self.game is not None and not self.game.is_over and self.seats[self.game.to_move or 0].bot_plays:
            return None
        return now - self.last_active

    def broadcast(self) -> None:
        """Send every connection its seat's state."""
        self.last_active = time.monotonic()
        for seat in self.seats:
            for connection in list(seat.connections):
                connection.send(self.state_for(connection))

    def state_for(self, connection: Connection, view: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for one connection: its seat's view, the legal moves when it
        is to move, the new log lines and the table around the game.

        ``view["history"]`` holds only the events from ``history_start`` on (everything at
        the first message of a connection and of each game); ``log`` likewise holds the
        sentences from ``log_start`` on.
        """
        seat, lang, game = connection.seat, connection.lang, self.game
        message: dict[str, Any] = {"type": "state", "seat": seat, "view": None, "legal": [],
                                   "log": [], "log_kinds": [], "log_start": 0, "history_start": 0,
                                   "table": self._table_part(seat)}
        if game is None:
            return message
        if connection.game_number != self.game_number:
            connection.game_number, connection.history_sent, connection.log_sent = self.game_number, 0, 0
        if view is None:  # only the events this connection has not had yet
            view = game.view(seat, since=min(connection.history_sent, game.num_events))
        view = dict(view)
        skip = connection.history_sent - view["history_start"]
        message["history_start"] = connection.history_sent
        view["history"] = view["history"][max(skip, 0):]
        connection.history_sent = view["event_count"]
        message["view"] = view
        legal = game.legal_actions() if game.to_move == seat else []
        message["legal"] = [str(a) for a in sort_actions(legal, game.phase, game.trump)]
        seat_log = self._log_of(seat, lang)
        lines = seat_log.lines
        start = connection.log_sent or max(0, len(lines) - FIRST_LOG_LINES)
        message["log_start"] = start
        message["log"] = lines[start:]
        message["log_kinds"] = seat_log.kinds[start:]
        connection.log_sent = len(lines)
        people = self.participants(seat)
        if game.is_over:
            message["result"] = {"headline": result_headline(game, people, lang),
                                 "out_order": out_order_line(game, people, lang),
                                 "losers": game.losers}
        elif game.to_move is not None:
            message["advice"] = turn_advice(view, people, legal, lang) if legal else ""
        return message

    def _table_part(self, viewer: int) -> dict[str, Any]:
        return {"id": self.table_id, "status": self.status(), "game": self.game_number,
                "seeded": self.seeded,
                "scores": list(self.match.get("scores") or [0] * self.players),
                "seats": [self.seat_info(index, viewer) for index in range(self.players)],
                "invite": self.lobby.invite_path(self.table_id)}


def secret_of(match: dict[str, Any]) -> MatchSecret:
    """The match's secret, as stored; a table stored before tables had secrets gets one now
    (from its seed if it was created with one), kept with the match's next change."""
    stored = match.get("secret")
    if isinstance(stored, str) and len(stored) == 64:
        return MatchSecret(stored)
    seed = match.get("seed")
    secret = MatchSecret.from_seed(seed) if isinstance(seed, int) else MatchSecret.fresh()
    match["secret"] = secret.hex
    return secret


def first_line(error: BaseException) -> str:
    """An exception in one line, for a log line that needs no traceback."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class IllegalMove(ApiError):
    """An action the engine refused; the code is the engine's reason when it gives one."""

    def __init__(self, error: IllegalAction, text: str) -> None:
        super().__init__(409, error.reason.value)
        self.text = text

    def message(self, lang: Lang) -> str:
        """The reason, already in the player's language."""
        return self.text
