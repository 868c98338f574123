"""Taking back moves against robots: how a takeback is stored, and how a stored game with
takebacks becomes its record again.

A takeback changes nothing that was stored: the moves taken back stay in the game's stored
actions, and the takeback itself is one more stored action, the marker ``undo:N`` ("the game
goes back to its first N moves"), written by the seat that asked. So every store keeps
appending as it always has, and a game is rebuilt by replaying its record without the moves
taken back, never by a shortcut that could differ from the engine's own replay: the deck and
every chance come from the record, so the same moves give the same game.

The record (``docs/web.md``, *Records*) lists the moves of the game as it stands in
``actions`` (what :meth:`~mattis.core.game.Game.from_record` replays) and the moves taken
back in ``taken_back``: ``[{"at": N, "actions": [...]}]``, each the stretch that followed
the game's first N moves before it was taken back, in the order they were taken back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import IllegalAction
from ..core.game import Game

UNDO_PREFIX = "undo:"
"""The stored action of a takeback: ``undo:N``, back to the game's first N moves."""


def undo_marker(at: int) -> str:
    """The stored action that takes the game back to its first ``at`` moves."""
    return f"{UNDO_PREFIX}{at}"


def fold_actions(stored: Sequence[str]) -> tuple[list[str], list[dict[str, Any]]]:
    """The stored actions of a game (moves and takeback markers, in the order they came) as
    the moves of the game as it stands and the stretches taken back (``taken_back``). A
    marker that takes back nothing or more than there is raises ``ValueError`` (a damaged
    row: the host sets the table aside)."""
    actions: list[str] = []
    taken_back: list[dict[str, Any]] = []
    for number, text in enumerate(stored):
        if not text.startswith(UNDO_PREFIX):
            actions.append(text)
            continue
        at_text = text[len(UNDO_PREFIX):]
        if not at_text.isdigit() or not 0 <= int(at_text) < len(actions):
            raise ValueError(f"stored action {number}: a takeback must go back to an earlier move")
        at = int(at_text)
        taken_back.append({"at": at, "actions": actions[at:]})
        del actions[at:]
    return actions, taken_back


def move_places(stored: Sequence[str]) -> list[int]:
    """The place in ``stored`` of each move of the game as it stands (the moves taken back
    left out), for facts stored beside an action by its place."""
    places: list[int] = []
    for number, text in enumerate(stored):
        if text.startswith(UNDO_PREFIX):
            at_text = text[len(UNDO_PREFIX):]
            del places[int(at_text) if at_text.isdigit() else len(places):]
        else:
            places.append(number)
    return places


def replay_with_movers(record: Mapping[str, Any]) -> tuple[Game, list[int]]:
    """The game of ``record`` replayed move by move as :meth:`Game.from_record` does (every
    move checked), with the seat that made each move (a takeback goes back to before the
    asker's last one). An illegal move raises ``ValueError``."""
    game = Game.from_record({**record, "actions": [], "result": None})
    movers: list[int] = []
    for number, text in enumerate(record.get("actions") or []):
        mover = game.to_move
        if mover is None:
            raise ValueError(f"record: action {number} comes after the end of the game")
        try:
            game.apply(text)
        except IllegalAction as error:
            raise ValueError(f"record: action {number} is illegal: {error}") from None
        movers.append(mover)
    return game, movers
