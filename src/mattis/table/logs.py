"""Each seat's move log at a shared table: the table's story, told step by step.

A :class:`SeatLog` is one seat's :class:`~mattis.frontend.story.TableStory` in one language,
fed each step's events as it is played, so a step costs only its own events however long the
game. A log begun in the middle of a game (a new connection or language, a restored table)
catches up by replaying the game once from its deal.
"""

from __future__ import annotations

from collections.abc import Collection

from ..core.game import Game
from ..core.observation import SeatView
from ..frontend.story import LogLine, TableStory


class SeatLog:
    """The move log of one game for one seat in one language."""

    def __init__(self, story: TableStory, seat: int) -> None:
        self.story = story
        self.seat = seat
        self.events_told = 0
        self.entries: list[LogLine] = []
        """The lines so far, each with its kind (``"war"``, ``"out"``, ``"lead"`` …, for the
        page to style) and the seat it is about (the terminal marks the person's own)."""

    def feed(self, game: Game, view: SeatView | None = None, stand_in: int | None = None) -> None:
        """Tell the events since the last feed; they must be one step's (the seat's view
        after them explains them). ``view`` is that view, if the caller already has it;
        ``stand_in`` the seat whose move a bot made for its person while they were away."""
        if game.num_events == self.events_told and self.events_told:
            return
        events = game.events_since(self.events_told)
        view_now = view or SeatView.from_dict(game.view(self.seat, since=game.num_events))
        self.entries.extend(self.story.tell(events, view_now, stand_in))
        self.events_told = game.num_events

    @classmethod
    def caught_up(cls, story: TableStory, seat: int, game: Game,
                  stand_in_moves: Collection[int] = ()) -> SeatLog:
        """A log that starts in the middle of a game: the game is replayed once, step by
        step, from its deal (``stand_in_moves``: the numbers of the moves a bot made for a
        person who was away)."""
        seat_log = cls(story, seat)
        replay = Game.from_record({**game.record(), "actions": [], "result": None})
        seat_log.feed(replay)
        for number, action in enumerate(game.actions):
            mover = replay.to_move
            replay.apply_unchecked(action)
            seat_log.feed(replay, stand_in=mover if number in stand_in_moves else None)
        return seat_log
