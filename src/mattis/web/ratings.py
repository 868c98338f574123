"""Players' OpenSkill ratings in the server's database, updated with every finished game of
theirs in that game's transaction (the update itself: :mod:`mattis.table.rating`, shared
with the offline app)."""

from __future__ import annotations

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Connection

from ..table.rating import Rating, finishing_ranks, prior, rate
from ..table.rows import LedgerRow


def rate_game(connection: Connection, ratings: Table, row: LedgerRow, players: set[str]) -> None:
    """Update the ratings of ``players`` (bound, not forgotten) with the game of ``row``."""
    if not players:
        return
    stored = {str(found.player_id): found for found in connection.execute(
        select(ratings).where(ratings.c.player_id.in_(sorted(players))))}
    before: list[Rating] = []
    for seat in row.seats:
        player = seat.get("player")
        if player in players and player in stored:
            before.append(Rating(stored[player].mu, stored[player].sigma))
        elif player in players:
            before.append(Rating())
        else:
            before.append(prior(seat["kind"], seat.get("level")))
    after = rate(before, finishing_ranks(len(row.seats), row.out_order, row.losers))
    done: set[str] = set()
    for seat, rating in zip(row.seats, after, strict=True):
        player = seat.get("player")
        if player not in players or player in done:
            continue  # a player in two seats of one game is rated by the first
        done.add(player)
        values = {"mu": rating.mu, "sigma": rating.sigma}
        if player in stored:
            connection.execute(update(ratings).where(ratings.c.player_id == player)
                               .values(**values, games=ratings.c.games + 1))
        else:
            connection.execute(insert(ratings).values(player_id=player, games=1, **values))
