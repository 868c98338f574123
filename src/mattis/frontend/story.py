"""The move log as a table tells it: what happened, and the announcements a person at a real
table would hear ("War! Kari and Ola are in it", "Ola leads: he won the trick").

A :class:`TableStory` is fed each step's public events together with a seat's view after
that step, and returns typed :class:`LogLine` entries for one language. It reads only what
everyone at the table knows (the events, the sizes of hands, the trick, the tie, who is out),
never a hand, so a server can send the same lines to every seat. The sentences for single
events come from the :class:`~mattis.frontend.narrate.Narrator`; this class adds the lines
that need the table around the event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..core.actions import Action
from ..core.cards import cards_in, rank_of
from ..core.events import Event, EventKind
from ..core.observation import SeatView
from ..core.phase import Phase
from ..core.rules import NothingLeft, Phase1End, Rules, TrumpMode
from ..i18n import Lang, t
from .cards import card_label, play_label
from .narrate import Narrator
from .seats import Participant, join_names, seat_name
from .table import current_best


class Announcement(StrEnum):
    """Lines that explain the table rather than retell one event."""

    WAR = "war"
    """A war (*krig*) or tie replay starts or goes on, and who is in it."""
    AHEAD = "ahead"
    """Who is ahead in a war so far."""
    LEAD = "lead"
    """Who leads next, and why."""
    FORCED = "forced"
    """A pick-up that the rules forced."""
    PHASE_END = "phase_end"
    """Phase 1 is over, and why."""
    EMPTY = "empty"
    """A player with nothing left after phase 1 who stays in and must pick up."""
    STILL_IN = "still_in"
    """How many players are still in, after someone went out."""


LineKind = EventKind | Announcement
"""What a log line is about: one event, or an announcement."""


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the move log: its kind (for styling), the seat it concerns and the text."""

    kind: LineKind
    seat: int | None
    text: str


PHASE_END_KEYS: dict[Phase1End, str] = {
    Phase1End.NO_CARD: "play.story.phase_end.no_card",
    Phase1End.ONE_LEFT: "play.story.phase_end.one_left",
    Phase1End.STOCK_EMPTY: "play.story.phase_end.stock_empty",
}
"""Why phase 1 ended, by the rule that ends it (P1.7)."""


class TableStory:
    """The move log of one table in one language; feed it every step, in order, from the
    first event."""

    def __init__(self, participants: Sequence[Participant], rules: Rules, lang: Lang) -> None:
        self.participants = list(participants)
        self.rules = rules
        self.lang = lang
        self.narrator = Narrator(participants, rules, lang)
        self._tie: tuple[int, ...] = ()
        self._hand_sizes: tuple[int, ...] = ()
        self._plays: tuple[tuple[int, Action], ...] = ()
        self._reveal_seat: int | None = None
        self._told_winner_leads = False
        self._round: list[tuple[int, int]] = []
        """Phase 1: the cards of the round so far (the last view's, plus this step's plays)."""

    def _who(self, seat: int, initial: bool = True) -> str:
        return seat_name(self.participants[seat], self.lang, initial)

    def _line(self, kind: LineKind, seat: int | None, key: str, **params: object) -> LogLine:
        return LogLine(kind, seat, t(key, self.lang, **params))

    def tell(self, events: Sequence[Event], view: Mapping[str, Any] | SeatView,
             stand_in: int | None = None) -> list[LogLine]:
        """The log lines for ``events``, the public events of one step, given the table
        after it (any seat's view: only its public parts are read). ``stand_in`` is the seat
        whose move a bot made for its person while they were away: the line says so."""
        public = view if isinstance(view, SeatView) else SeatView.from_dict(view)
        lines: list[LogLine] = []
        for event in events:
            if event.kind in (EventKind.PLAY, EventKind.CHANCE) and event.seat is not None:
                self._round.extend((event.seat, card) for card in cards_in(event.mask))
            lines.extend(self._before(event, public))
            text = self.narrator.describe_one(event, stand_in=stand_in is not None and event.seat == stand_in)
            if text:
                lines.append(LogLine(event.kind, event.seat, text))
            lines.extend(self._after(event, public))
        lines.extend(self._table_changes(events, public))
        self._tie = public.tie if public.phase == Phase.COLLECT else ()
        self._round = list(public.current_round)
        self._hand_sizes = public.hand_sizes
        self._plays = public.plays
        return lines

    # ---------------------------------------------------------------- around one event

    def _before(self, event: Event, public: SeatView) -> list[LogLine]:
        if event.kind is EventKind.REVEAL:
            self._reveal_seat = event.seat
        if event.kind is EventKind.SHED:
            return [self._line(Announcement.PHASE_END, None, PHASE_END_KEYS[self.rules.phase1_end])]
        if event.kind is EventKind.DROP and not self._tie and self._round:
            # the war began and ended within this step: say it began before who leaves it
            top = max(rank_of(card) for _, card in self._round)
            tied = tuple(dict.fromkeys(s for s, card in self._round if rank_of(card) == top))
            self._tie = tied
            return [self._war_line("play.story.war.starts", tied)]
        return []

    def _war_line(self, key: str, seats: Sequence[int]) -> LogLine:
        names = join_names([self._who(s, initial=False) for s in seats], self.lang)
        return self._line(Announcement.WAR, None, key, names=names,
                          how=t(f"play.story.war.how.{self.rules.tie.value}", self.lang))

    def _after(self, event: Event, public: SeatView) -> list[LogLine]:
        kind, seat = event.kind, event.seat
        if kind is EventKind.SHED and seat is not None:
            return [self._shed_lead(seat, public)]
        if kind is EventKind.PICKUP and seat is not None:
            return self._pickup(seat, public)
        if kind is EventKind.CLEAR and seat is not None and public.to_move is not None:
            leader = public.to_move
            if seat in public.out and leader != seat:
                return [self._line(Announcement.LEAD, leader, "play.story.lead.after_out",
                                   who=self._who(leader, initial=False), out=self._who(seat))]
            return [self._line(Announcement.LEAD, leader, "play.story.lead.last_play",
                               who=self._who(leader, initial=False))]
        if kind is EventKind.OUT and seat is not None:
            still_in = public.players - len(public.out)
            if still_in > 1:
                return [self._line(Announcement.STILL_IN, None, "play.story.still_in", count=still_in)]
        return []

    def _shed_lead(self, seat: int, public: SeatView) -> LogLine:
        who = self._who(seat, initial=False)
        if self.rules.trump is TrumpMode.HIDDEN_LAST and self._reveal_seat == seat:
            return self._line(Announcement.LEAD, seat, "play.story.lead.trump_card", who=who)
        if self.rules.trump is TrumpMode.BOTTOM_UP and public.last_drawer == seat:
            return self._line(Announcement.LEAD, seat, "play.story.lead.last_card", who=who)
        return self._line(Announcement.LEAD, seat, "play.story.lead.next_in_turn", who=who)

    def _pickup(self, seat: int, public: SeatView) -> list[LogLine]:
        lines: list[LogLine] = []
        before = self._hand_sizes[seat] if seat < len(self._hand_sizes) else None
        if before == 0:
            lines.append(self._line(Announcement.FORCED, seat, "play.story.forced.empty",
                                    who=self._who(seat)))
        elif not self.rules.voluntary_pickup and self._plays:
            target = play_label(self._plays[-1][1])
            lines.append(self._line(Announcement.FORCED, seat, "play.story.forced.cannot_beat",
                                    who=self._who(seat), target=target))
        if not public.plays and public.to_move is not None and not public.losers:
            leader = public.to_move
            lines.append(self._line(Announcement.LEAD, leader, "play.story.lead.table_empty",
                                    who=self._who(leader, initial=False)))
        return lines

    # ---------------------------------------------------------------- the table after the step

    def _table_changes(self, events: Sequence[Event], public: SeatView) -> list[LogLine]:
        lines: list[LogLine] = []
        kinds = {event.kind for event in events}
        if public.phase == Phase.COLLECT:
            dropped_only = EventKind.DROP in kinds and set(public.tie) <= set(self._tie)
            if public.tie and public.tie != self._tie and not dropped_only:
                key = "play.story.war.starts" if not self._tie else "play.story.war.goes_on"
                lines.append(self._war_line(key, public.tie))
            elif public.tie and kinds & {EventKind.PLAY, EventKind.CHANCE}:
                best = current_best(public)
                if best is not None and EventKind.WON not in kinds:
                    card, seats = best
                    names = join_names([self._who(s, initial=False) for s in seats], self.lang)
                    key = "play.story.war.ahead" if len(seats) == 1 else "play.story.war.level"
                    lines.append(self._line(Announcement.AHEAD, seats[0], key,
                                            card=card_label(card), who=names))
            if EventKind.WON in kinds and public.to_move is not None:
                winner = next(e.seat for e in events if e.kind is EventKind.WON)
                leader = public.leader
                if winner is not None and leader == winner:
                    if not self._told_winner_leads:  # said once: after that the log shows it
                        self._told_winner_leads = True
                        lines.append(self._line(Announcement.LEAD, leader, "play.story.lead.won",
                                                who=self._who(leader, initial=False)))
                elif winner is not None and 0 <= leader < public.players:
                    lines.append(self._line(Announcement.LEAD, leader, "play.story.lead.passed",
                                            who=self._who(leader, initial=False),
                                            winner=self._who(winner)))
        if EventKind.SHED in kinds and self.rules.nothing_left is NothingLeft.MUST_PICK_UP:
            for seat, size in enumerate(public.hand_sizes):
                if size == 0 and seat not in public.out and seat not in public.losers:
                    lines.append(self._line(Announcement.EMPTY, seat, "play.story.empty_must_pick_up",
                                            who=self._who(seat)))
        return lines
