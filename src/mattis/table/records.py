"""A finished game's record, as every host hands it out.

A game's record holds its deck, so a host gives it out only once the game is over. Whether
it is over is decided here by replaying the stored game, never by a flag stored beside it:
a damaged or tampered row that says "over" while its actions stop mid-game would otherwise
hand out the deck of a game in play.
"""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from .errors import Refusal
from .rows import StoredGame


def finished_record(stored: StoredGame | None) -> dict[str, Any]:
    """The engine record of ``stored`` (which ``Game.from_record`` and ``mattis replay``
    accept), replayed from its actions: refused with ``not_found`` for no game and
    ``game_not_over`` while the replayed game is still on. A record the engine refuses
    raises the engine's error (the host sets the table aside as damaged)."""
    if stored is None:
        raise Refusal("not_found")
    played = stored.record()
    game = Game.from_record(played)
    if not game.is_over:
        raise Refusal("game_not_over")
    record = game.record()
    if "taken_back" in played:  # moves taken back against robots, kept and marked
        record["taken_back"] = played["taken_back"]
    if "coached" in played:  # seats a coach watched, with their consent
        record["coached"] = played["coached"]
    return record
