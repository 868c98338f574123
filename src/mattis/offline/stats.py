"""The device owner's own statistics ("Min statistikk"): what each finished game on the device
counts, and the figures read back from those results.

The engine record has no seats, so :class:`~mattis.offline.DeviceHost` saves
:func:`seat_result` beside each finished game's record; the page's ``myStats`` call answers
:func:`device_stats` over them, with the ledger's arithmetic and the owner's OpenSkill rating,
as the server's ``GET /api/players/me`` does for a player with a key.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from typing import Any

from ..table.ledger import level_stats
from ..table.rating import Rating, finishing_ranks, prior, rate, rating_summary
from ..table.session import TableSession


def seat_result(session: TableSession, finished: float) -> dict[str, Any]:
    """What a finished game on the device counts in its owner's statistics: the levels of the
    bots at the table, whether the owner (the creator's seat) was Mattis, and whether on an
    empty hand (P1.10); for the owner's rating, their seat, each seat's bot level (``None``: a
    person), the order the others went out, the Mattis, and when it ended (``finished``,
    seconds since the epoch: games are rated in the order they ended). The engine record
    has no seats, so this is kept beside it."""
    result = session.game.result if session.game is not None else None
    if result is None:
        raise ValueError("the game is not over")
    return {"levels": [seat.level for seat in session.seats if seat.kind == "bot" and seat.level],
            "mattis": session.host in result.losers,
            "empty_loss": session.host in result.losers and result.lost_on_empty,
            "seat": session.host,
            "seat_levels": [seat.level or "" if seat.kind == "bot" else None for seat in session.seats],
            "out_order": list(result.out_order), "losers": list(result.losers), "finished": finished}


def _rated_game(item: dict[str, Any]) -> tuple[float, int, list[str | None], list[int]] | None:
    """A saved result's rating facts: when it ended, the owner's seat, each seat's bot level
    and the places (``None`` for a result saved before ratings, or one that does not read)."""
    levels, seat, finished = item.get("seat_levels"), item.get("seat"), item.get("finished")
    out_order, losers = item.get("out_order"), item.get("losers")
    if not (isinstance(levels, list) and isinstance(out_order, list) and isinstance(losers, list)
            and isinstance(seat, int) and isinstance(finished, int | float)):
        return None
    seats = len(levels)
    numbers = [*out_order, *losers, seat]
    if seats < 2 or not all(isinstance(number, int) and 0 <= number < seats for number in numbers):
        return None
    places = finishing_ranks(seats, out_order, losers)
    return float(finished), seat, [None if level is None else str(level) for level in levels], places


def device_rating(items: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The owner's OpenSkill rating over the saved games (:mod:`mattis.table.rating`, as
    ``GET /api/players/me``): the bots at their level's fixed rating, friends at a guest's,
    rated in the order the games ended (``None`` before the first)."""
    games = sorted((rated for item in items if (rated := _rated_game(item)) is not None),
                   key=lambda game: game[0])
    rating: Rating | None = None
    for _, seat, levels, places in games:
        before = [(rating or Rating()) if index == seat else prior("human" if level is None else "bot", level)
                  for index, level in enumerate(levels)]
        rating = rate(before, places)[seat]
    return rating_summary(rating, len(games))


def device_stats(results: object) -> dict[str, Any]:
    """The device owner's statistics from the saved :func:`seat_result` texts: the ledger's
    arithmetic (:func:`~mattis.table.ledger.level_stats`, as ``GET /api/players/me`` and
    ``mattis stats``), plus the empty losses and the rating (:func:`device_rating`); a text
    that does not read is left out."""
    read: list[dict[str, Any]] = []
    for text in [str(item) for item in results] if isinstance(results, Iterable) else []:
        with contextlib.suppress(ValueError):
            item = json.loads(text)
            if isinstance(item, dict) and isinstance(item.get("levels"), list):
                read.append(item)
    figures = level_stats(([str(level) for level in item["levels"]], bool(item.get("mattis")))
                          for item in read)
    return {**figures, "empty_losses": sum(bool(item.get("empty_loss")) for item in read),
            "rating": device_rating(read)}
