"""The terminal as the third host of the table layer: one person at the keyboard, bots in
the other seats.

The terminal plays its games on a :class:`~mattis.table.TableSession` run by a
:class:`~mattis.table.TableMaster`, as the web server and the offline app do: the session
deals, asks the bots, tells the story and keeps the score; the master plays the moves, the
bots' turns and the hints. :class:`TerminalHost` is the little the terminal supplies (as the
tests' ``ListHost`` does): nothing to store (the terminal writes its own saved game,
:mod:`mattis.frontend.record`), jobs run in line, no clocks (nobody stands in for the person
at the keyboard), and the one connection's messages kept to be read. :class:`TerminalTable`
is the table as the terminal's loop asks it: one bot move at a time (so each can be shown),
the log since last asked, a typed line, a hint. It never prints and never reads.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..bots import Decision
from ..core.actions import Action
from ..core.game import Game
from ..frontend.cards import action_label, sort_actions
from ..frontend.inputs import Command, CommandInput, InputError, MoveInput, parse_input
from ..frontend.match import Match, SeatStreams
from ..frontend.reasons import hint_reason
from ..frontend.record import play_record
from ..frontend.seats import Participant
from ..frontend.story import LogLine
from ..frontend.table import TableState, table_state, turn_advice
from ..i18n import Lang, t
from ..table import (
    Connection,
    DecisionParts,
    Job,
    Refusal,
    Row,
    Seat,
    TableConfig,
    TableMaster,
    TableSession,
    Timer,
    run_job,
    table_profile,
)

TABLE_ID = "terminal"
"""The id of the terminal's one table (it is never stored or shared)."""
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Moved:
    """The move was legal and has been played."""

    action: Action


@dataclass(frozen=True, slots=True)
class Rejected:
    """The line was not a legal move (or a hint could not be had); ``message`` says why, in
    one line."""

    message: str


@dataclass(frozen=True, slots=True)
class Asked:
    """The line was a command for the terminal to carry out."""

    command: Command


@dataclass(frozen=True, slots=True)
class Blank:
    """An empty line: nothing to do (show the prompt again)."""


Reply = Moved | Rejected | Asked | Blank


@dataclass(frozen=True, slots=True)
class Hint:
    """The strong bot's suggestion and why."""

    action: Action
    label: str
    """How the move is shown (``7♥``, ``sjanse``)."""
    number: int
    """Its number in the list of legal moves (1-based)."""
    reason: str
    safest: bool = False
    """Whether the reason is the search's measure of how often the move kept you safe."""

    def text(self, lang: Lang) -> str:
        """The hint in one line: "Safest move: 7♥ (number 3) – in simulated games …"."""
        key = "play.hint_safest" if self.safest else "play.hint"
        return t(key, lang, move=self.label, number=self.number, reason=self.reason)


def terminal_config(*, pace: float | None = None, hint_seconds: float | None = None) -> TableConfig:
    """The ``terminal`` profile, with ``mattis play``'s ``--pace`` and ``--hint-seconds``."""
    config = table_profile("terminal")
    if pace is not None:
        config = dataclasses.replace(config, bot_delay=pace)
    if hint_seconds is not None:
        config = dataclasses.replace(config, hint_seconds=hint_seconds)
    return config


class TerminalHost:
    """What the terminal gives its table (:class:`~mattis.table.TableHost`)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        """The messages the table sent the person (a hint, or why not), for the terminal to
        read after asking; not the states: the terminal draws the person's view itself."""
        self.failures: list[BaseException] = []
        """What went wrong outside a move (a search that failed, and a careful person's move
        was played instead): the table went on."""

    async def store(self, rows: Sequence[Row]) -> None:
        """Nothing to store: the terminal saves the game's record itself, in its own file."""

    def send(self, connection: Connection[None], message: dict[str, Any]) -> None:
        if message.get("type") != "state":
            self.sent.append(message)

    def hang_up(self, connection: Connection[None], code: int) -> None:
        """Nothing to close: the terminal ends when the person stops."""

    async def think(self, job: Job, asker: Connection[None] | None = None) -> DecisionParts:
        try:
            return run_job(job)
        except Exception as error:
            self.failures.append(error)
            raise

    def admit_searching_bots(self, table_id: str) -> None:
        """No limit: the person's own computer thinks for the person's own bots."""

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        raise RuntimeError("the terminal keeps no clocks: nobody stands in for the person at the keyboard")

    def report(self, table_id: str, error: BaseException) -> None:
        self.failures.append(error)


class TerminalTable:
    """A match of one person (the one ``human`` participant) against bots, on the table
    layer, as the terminal's loop asks for it (see the module docstring)."""

    def __init__(self, match: Match, participants: Sequence[Participant], lang: Lang, *,
                 config: TableConfig | None = None, runner: asyncio.Runner | None = None) -> None:
        humans = [p.seat for p in participants if p.human]
        if len(humans) != 1 or len(participants) != match.players:
            raise ValueError("participants: one person and one bot for each other seat")
        self.participants = list(participants)
        self.human = humans[0]
        self.lang = lang
        seats = [Seat("human") if p.human else Seat("bot", p.name, level=p.level or "normal")
                 for p in participants]
        self.session = TableSession(TABLE_ID, match.rules, seats=seats, match=match, secret=None,
                                    config=config or terminal_config(), host=self.human,
                                    move_seeds=SeatStreams(match.seeds))
        self.host = TerminalHost()
        self.master: TableMaster[None] = TableMaster(self.host, self.session)
        self.connection: Connection[None] = Connection(None, self.session.cursor(self.human, lang))
        self.master.connect(self.connection)
        self.runner = runner
        """The event loop the master's steps run on, one after the other (the terminal keeps
        one for a match); without it, each step gets its own (``asyncio.run``)."""
        self._told = 0

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        """Run one of the master's steps to its end, in line (as the tests' ``ListHost``)."""
        return asyncio.run(work) if self.runner is None else self.runner.run(work)

    # ---------------------------------------------------------------- the match

    @property
    def match(self) -> Match:
        """The score and the deal (the table counts each game as it ends)."""
        return self.session.match

    @property
    def config(self) -> TableConfig:
        """How the table behaves (the terminal's pace is its bot delay)."""
        return self.session.config

    def deal(self) -> Game:
        """Deal the next game of the match: the first, or the next once one is over."""
        if self.session.game is None:
            self._run(self.master.transact(self.session.begin))
        else:
            self._run(self.master.play_again(self.connection))
        self._told = 0
        return self.game

    @property
    def game(self) -> Game:
        """The game being played (or just finished)."""
        game = self.session.game
        if game is None:
            raise ValueError("no game has been dealt")
        return game

    @property
    def number(self) -> int:
        """The game's number in the match (1-based)."""
        return self.session.game_number

    # ---------------------------------------------------------------- turns

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_over

    @property
    def human_to_move(self) -> bool:
        """Whether the game waits for the person."""
        return not self.game.is_over and self.game.to_move == self.human

    @property
    def human_out(self) -> bool:
        """Whether the person has gone out (the bots then play on to find Mattis)."""
        return self.game.is_out(self.human)

    def step_bot(self) -> Decision:
        """Let the bot to move play one move (a forced move costs no thinking); returns its
        decision, whose reason :func:`~mattis.frontend.reasons.bot_reason` puts in words."""
        if not self.session.bot_to_move:
            raise ValueError("no bot is to move")
        decision = self._run(self.master.play_bot_turn())
        if decision is None:
            raise RuntimeError("the bot's move was not played")
        return decision

    def run_bots(self) -> None:
        """Let the bots move until the person must act or the game is over."""
        while self.session.bot_to_move:
            self.step_bot()

    def news(self) -> list[LogLine]:
        """The move log since the last call: the events' sentences and the announcements."""
        entries = self.session.log_of(self.human, self.lang).entries
        fresh, self._told = entries[self._told:], len(entries)
        return fresh

    @property
    def forced_move(self) -> Action | None:
        """The person's only legal move, when there is just one."""
        choices = self.choices()
        return choices[0] if len(choices) == 1 else None

    # ---------------------------------------------------------------- the person's turn

    def view(self) -> dict[str, Any]:
        """The person's view of the table now (its history is left to :meth:`news`)."""
        return self.game.view(self.human, since=self.game.num_events)

    def state(self) -> TableState:
        """The table from the person's seat, ready to draw."""
        return table_state(self.view(), self.participants, self.lang)

    def choices(self) -> list[Action]:
        """The person's legal moves in display order; their numbers are the list positions + 1."""
        if not self.human_to_move:
            return []
        return sort_actions(self.game.legal_actions(), self.game.phase, self.game.trump)

    def choice_labels(self) -> list[str]:
        """How each choice is shown, in :meth:`choices` order."""
        return [action_label(action, self.lang) for action in self.choices()]

    def advice(self) -> str:
        """One line on what the person can do now."""
        return turn_advice(self.view(), self.participants, self.game.legal_actions(), self.lang)

    def handle(self, text: str) -> Reply:
        """Act on one typed line: play a legal move, or say why not, or pass a command on.
        Nothing here raises for bad input, and a rejected move leaves the game unchanged."""
        choices = self.choices()
        parsed = parse_input(text, choices)
        if parsed is None:
            if len(choices) == 1:  # Enter plays the only move there is
                return self._play(choices[0])
            return Blank()
        if isinstance(parsed, InputError):
            return Rejected(parsed.text(self.lang))
        if isinstance(parsed, CommandInput):
            return Asked(parsed.command)
        assert isinstance(parsed, MoveInput)
        if not self.human_to_move:
            return Rejected(t("play.err.not_your_turn", self.lang))
        return self._play(parsed.action)

    def _play(self, action: Action) -> Reply:
        try:
            self._run(self.master.act(self.connection, str(action)))
        except Refusal as refusal:  # the engine's reason, in the person's words
            return Rejected(refusal.message(self.lang))
        return Moved(action)

    def hint(self) -> Hint | Rejected:
        """What the strong bot would play here, with its reason in the person's language
        (worked out by the table, as for every host; asked again at the same point, the
        same hint at once)."""
        self.host.sent.clear()

        async def ask() -> None:
            await self.master.hint(self.connection)
            await self.master.settled()

        self._run(ask())
        answer = self.host.sent[-1] if self.host.sent else {}
        given = self.session.hints_given.get(self.human)
        if answer.get("type") != "hint" or given is None:
            return Rejected(str(answer.get("message") or Refusal("server_error").message(self.lang)))
        decision = given[1]
        choices = self.choices()
        number = choices.index(decision.action) + 1 if decision.action in choices else 0
        return Hint(decision.action, action_label(decision.action, self.lang), number,
                    hint_reason(decision, self.lang), safest=decision.reason == "search")

    def record(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game record (replayable with ``Game.from_record``) plus who played."""
        return play_record(self.game, self.participants, self.lang, extra)
