"""A finished game told again step by step, every hand showing (``/replay/{table}/{game}``).

The game is over, so nothing in it is secret any more: each step shows every seat's hand,
the trump, who moved and what, and the story lines the table told for that step, in the
reader's language, as a spectator reads them (nobody is "you"). Pure: the host gives the
record (only once the game is over: :func:`~.records.finished_record`) and the seats' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.game import Game
from ..core.observation import SeatView
from ..frontend.narrate import out_order_line, result_headline
from ..frontend.story import TableStory
from ..i18n import Lang
from .seats import Seat, participants


def replay_steps(record: dict[str, Any], seats: Sequence[Seat], lang: Lang) -> dict[str, Any]:
    """Every step of a finished game: ``{"players", "steps", "result"}``; step 0 is the deal,
    step ``i`` follows action ``i - 1``."""
    finished = Game.from_record(record)
    people = participants(list(seats), None)
    story = TableStory(people, finished.rules, lang)
    game = Game.from_record({**record, "actions": [], "result": None})
    told = 0

    def step(action: str | None, seat: int | None) -> dict[str, Any]:
        nonlocal told
        events = game.events_since(told)
        view = SeatView.from_dict(game.view(0, since=game.num_events))
        lines = [line.text for line in story.tell(events, view)] if events else []
        told = game.num_events
        return {"action": action, "seat": seat, "phase": str(game.phase), "trump": game.trump,
                "to_move": game.to_move, "hands": [game.hand(index) for index in range(len(seats))],
                "lines": lines}

    steps = [step(None, None)]
    for action in finished.actions:
        mover = game.to_move
        game.apply_unchecked(action)
        steps.append(step(str(action), mover))
    result = finished.result
    assert result is not None
    return {"players": [{"seat": index, "name": seat.name, "kind": seat.kind, "level": seat.level}
                        for index, seat in enumerate(seats)],
            "steps": steps,
            "result": {"losers": list(result.losers), "order": list(result.out_order),
                       "lost_on_empty": result.lost_on_empty,
                       "headline": result_headline(finished, people, lang),
                       "out_order": out_order_line(finished, people, lang)}}
