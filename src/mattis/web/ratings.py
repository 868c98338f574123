"""Players' OpenSkill ratings (Plackett-Luce), updated with every finished game of theirs.

A game ranks its seats: the first out first, then the others in the order they went out,
the Mattis last (several Mattis share the last place). Bots and people without a player
take part with a fixed rating by level (:data:`BOT_PRIORS`: what they are expected to be,
never updated), so beating a ``hard`` bot counts for more than beating a ``random`` one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Connection

from ..table.rows import LedgerRow

BOT_PRIORS: dict[str, tuple[float, float]] = {
    "random": (15.0, 2.0), "easy": (20.0, 2.0), "normal": (25.0, 2.0), "learned": (26.0, 2.0),
    "hard": (28.0, 2.0), "expert": (30.0, 2.0),
}
"""The fixed rating (mu, sigma) a bot of each level plays with."""
GUEST = (25.0, 8.333)
"""A person without a player: the model's starting rating, never updated."""


def finishing_ranks(players: int, out_order: Sequence[int], losers: Sequence[int]) -> list[int]:
    """Each seat's place (1 is best): out first is first, the Mattis last, anyone else
    (neither out nor Mattis) just before the Mattis."""
    ranks = [0] * players
    for place, seat in enumerate(out_order, start=1):
        ranks[seat] = place
    middle = [seat for seat in range(players) if ranks[seat] == 0 and seat not in losers]
    for seat in middle:
        ranks[seat] = len(out_order) + 1
    for seat in losers:
        ranks[seat] = len(out_order) + (2 if middle else 1)
    return ranks


def rate_game(connection: Connection, ratings: Table, row: LedgerRow, players: set[str]) -> None:
    """Update the ratings of ``players`` (bound, not forgotten) with the game of ``row``."""
    if not players:
        return
    from openskill.models import PlackettLuce  # the web extra; imported when a game ends

    model = PlackettLuce()
    stored = {str(found.player_id): found for found in connection.execute(
        select(ratings).where(ratings.c.player_id.in_(sorted(players))))}
    teams: list[list[Any]] = []
    for seat in row.seats:
        player = seat.get("player")
        if player in players and player in stored:
            teams.append([model.rating(mu=stored[player].mu, sigma=stored[player].sigma)])
        elif player in players:
            teams.append([model.rating()])
        else:
            mu, sigma = BOT_PRIORS.get(seat.get("level") or "", GUEST) if seat["kind"] == "bot" else GUEST
            teams.append([model.rating(mu=mu, sigma=sigma)])
    ranks = [float(rank) for rank in finishing_ranks(len(row.seats), row.out_order, row.losers)]
    rated = model.rate(teams, ranks=ranks)
    done: set[str] = set()
    for seat, team in zip(row.seats, rated, strict=True):
        player = seat.get("player")
        if player not in players or player in done:
            continue  # a player in two seats of one game is rated by the first
        done.add(player)
        values = {"mu": team[0].mu, "sigma": team[0].sigma}
        if player in stored:
            connection.execute(update(ratings).where(ratings.c.player_id == player)
                               .values(**values, games=ratings.c.games + 1))
        else:
            connection.execute(insert(ratings).values(player_id=player, games=1, **values))
