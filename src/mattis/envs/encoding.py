"""The observation encoding of the learning environments, under its public name: the code is
:mod:`mattis.bots.encoding`, one layer down, because the ``learned`` bot reads the same numbers.
Every name here is that module's; ``docs/research.md`` lists every slot of the vector."""

from __future__ import annotations

from ..extras import MissingExtra

try:
    from ..bots.encoding import (
        LAYOUT,
        MAX_SEATS,
        OBSERVATION_SIZE,
        PACKED_WORDS,
        PHASES,
        RULES_SIZE,
        SLICES,
        Observation,
        SeatEncoder,
        SeatPacker,
        Slot,
        action_mask,
        encode_view,
        rules_vector,
        terminal_rewards,
        unpack_into,
    )
except MissingExtra as error:  # name this module, the one imported
    raise MissingExtra(__name__, error.extra, error.name) from error

__all__ = [
    "LAYOUT", "MAX_SEATS", "OBSERVATION_SIZE", "PACKED_WORDS", "PHASES", "RULES_SIZE", "SLICES",
    "Observation", "SeatEncoder", "SeatPacker", "Slot", "action_mask", "encode_view", "rules_vector",
    "terminal_rewards", "unpack_into",
]
