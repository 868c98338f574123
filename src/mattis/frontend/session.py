"""The game loop without the screen: whose turn, bot moves, the human's input, matches.

A :class:`GameSession` owns one game between one person and bots. A front end asks it to
let the bots move (:meth:`GameSession.step_bot` one at a time, so it can show each move, or
:meth:`GameSession.run_bots`), collects the sentences for what happened
(:meth:`GameSession.news`), and hands it each line the person types
(:meth:`GameSession.handle`), drawing whatever comes back. It never prints and never reads,
so the terminal and a future web front end share it. Matches (several games, the
loser dealing the next, C2) are :class:`~mattis.frontend.match.Match`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import (
    Agent,
    CardTracker,
    Decision,
    Limit,
    decide,
    derived_rng,
    hint_for,
    make_agent,
    seat_rng,
)
from ..core.actions import Action
from ..core.game import Game
from ..i18n import Lang, percent_text, t
from .cards import action_label, play_label, sort_actions
from .explain import explain_illegal
from .inputs import Command, CommandInput, InputError, MoveInput, parse_input
from .record import play_record
from .seats import Participant
from .story import LogLine, TableStory
from .table import TableState, table_state, turn_advice

DEFAULT_HINT_LIMIT = Limit(seconds=0.5)


@dataclass(frozen=True, slots=True)
class Moved:
    """The move was legal and has been played."""

    action: Action


@dataclass(frozen=True, slots=True)
class Rejected:
    """The line was not a legal move; ``message`` says why, in one line."""

    message: str


@dataclass(frozen=True, slots=True)
class Asked:
    """The line was a command for the front end to carry out."""

    command: Command


@dataclass(frozen=True, slots=True)
class Blank:
    """An empty line: nothing to do (show the prompt again)."""


Reply = Moved | Rejected | Asked | Blank


News = LogLine
"""One line of the move log (the name the terminal has used since before :mod:`.story`)."""


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


class GameSession:
    """One game between one person (``human`` seat) and bots."""

    def __init__(
        self,
        game: Game,
        participants: Sequence[Participant],
        lang: Lang,
        *,
        seed: int | str,
        hint_limit: Limit = DEFAULT_HINT_LIMIT,
    ) -> None:
        humans = [p.seat for p in participants if p.human]
        if len(humans) != 1 or len(participants) != game.players:
            raise ValueError("participants: one person and one bot for each other seat")
        self.game = game
        self.participants = list(participants)
        self.human = humans[0]
        self.lang = lang
        self.hint_limit = hint_limit
        self.agents: dict[int, Agent] = {
            p.seat: make_agent(p.level or "normal") for p in participants if not p.human
        }
        self.rngs = {seat: seat_rng(seed, seat) for seat in range(game.players)}
        self.trackers = {seat: CardTracker(game.players, game.rules) for seat in self.agents}
        self.hint_rng = derived_rng(seed, "hint")
        self.story = TableStory(participants, game.rules, lang)
        self._told = 0
        self._pending: list[LogLine] = []
        self._catch_up()

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
        """Let the bot to move play one move (a forced move costs no thinking); returns the
        bot's decision, whose reason :func:`bot_reason` puts in words."""
        seat = self.game.to_move
        if seat is None or seat == self.human:
            raise ValueError("no bot is to move")
        legal = self.game.legal_actions()
        if len(legal) == 1:
            decision = Decision(legal[0], "the only legal move", "forced")
        else:
            decision = decide(self.agents[seat], self.game, self.rngs[seat], tracker=self.trackers[seat])
        self.game.apply(decision.action, seat=seat)
        self._catch_up()
        return decision

    def run_bots(self) -> None:
        """Let the bots move until the person must act or the game is over."""
        while not self.game.is_over and self.game.to_move != self.human:
            self.step_bot()

    def _catch_up(self) -> None:
        """Tell the story of the step just played (the table after it explains the events)."""
        fresh = self.game.events_since(self._told)
        self._told = self.game.num_events
        if fresh:
            self._pending.extend(self.story.tell(fresh, self.view()))

    def news(self) -> list[LogLine]:
        """The move log since the last call: the events' sentences and the announcements."""
        items, self._pending = self._pending, []
        return items

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
        refusal = self.game.check(action, seat=self.human)
        if refusal is not None:
            return Rejected(t("play.err.illegal", self.lang, reason=explain_illegal(refusal, self.lang)))
        self.game.apply(action, seat=self.human)
        self._catch_up()
        return Moved(action)

    def hint(self) -> Hint:
        """What the strong bot would play here, with its reason in the person's language."""
        decision = hint_for(self.game, self.hint_rng, self.hint_limit)
        choices = self.choices()
        number = choices.index(decision.action) + 1 if decision.action in choices else 0
        return Hint(decision.action, action_label(decision.action, self.lang), number,
                    hint_reason(decision, self.lang), safest=decision.reason == "search")

    def record(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game record (replayable with ``Game.from_record``) plus who played."""
        return play_record(self.game, self.participants, self.lang, extra)


def hint_reason(decision: Decision, lang: Lang) -> str:
    """Why the strong bot suggests a move, in plain words in ``lang``: how often the move kept
    you out of Mattis in its simulated games, or the rule-based reason."""
    details = dict(decision.detail)
    if decision.reason == "search" and "safe" in details:
        safe = percent_text(details["safe"].removesuffix("%"), lang)  # a whole percentage
        return t("play.hint.search", lang, safe=safe)
    return bot_reason(decision, lang)


BOT_REASONS = ("forced", "random", "careless", "break_loop", "chance_forced", "chance_weak",
               "lead_low", "win_cheap", "sacrifice_low", "must_pick_up", "cheapest_beat",
               "pickup_cheaper", "network")
"""The reason keys of the rule-based bots (:mod:`mattis.bots.rule_based`) and of the
``learned`` one (``network``) with a text."""


def _target_text(detail: str) -> str:
    """A play named in a bot's detail (``9♥``, ``6♥-8♥``) as cards are shown here."""
    parsed = parse_input(detail)
    return play_label(parsed.action) if isinstance(parsed, MoveInput) else detail


def bot_reason(decision: Decision, lang: Lang) -> str:
    """A bot's reason for its move in ``lang`` ("cheapest card that beats 9♥"), from its
    reason key and details; a key without a text gives the bot's own English words."""
    details = dict(decision.detail)
    if decision.reason == "search" and "safe" in details:
        return hint_reason(decision, lang)
    if decision.reason not in BOT_REASONS:
        return decision.explanation
    params: dict[str, object] = {"move": action_label(decision.action, lang)}
    for name in ("target", "oldest"):
        params[name] = _target_text(details.get(name, "?"))
    params["rank"] = details.get("rank", "?")
    key = f"play.bot.{decision.reason}"
    if decision.reason == "win_cheap" and "rank" not in details:
        key += "_plain"
    return t(key, lang, **params)
