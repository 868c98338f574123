"""The three phases of a game, as one enum shared by the engine, positions and views."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Phase(StrEnum):
    """Where a game stands. A ``Phase`` equals its value, so views, records and position
    texts keep the plain strings ``"collect"``, ``"shed"`` and ``"over"``."""

    COLLECT = "collect"
    """Phase 1, *innsamling*: winning tricks to collect cards."""
    SHED = "shed"
    """Phase 2, *utspilling*: beating plays to get rid of cards."""
    OVER = "over"
    """The game has ended."""


PHASE_NAMED: Final[dict[str, Phase]] = {phase: phase for phase in Phase}
"""Each phase by its string: the cheap way to turn a string, or a Phase, into a Phase
(``Phase(text)`` costs some twenty times more, too much for a searching bot's hot path)."""
