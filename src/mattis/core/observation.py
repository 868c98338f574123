"""The one place where a player's view is cut from the full game (rules section 5).

A seat may know: its own hand; everything played face up (the current trick, war cards, the
phase-2 table, and — as at a real table, for whoever remembers — every card played, chanced,
picked up or taken back so far); how many cards each player holds, each won pile and the
stock hold; the trump suit once known; who holds the reserved trump card; who is out.

Never: other hands, which cards lie in a won pile as such, the stock's order, the reserved
card's face before phase 2, removed cards. Events in the history carry card faces only when
those cards were face up at that moment (a won trick's cards had just been played face up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import codes_of

if TYPE_CHECKING:
    from .game import Game

VIEW_FORMAT = "mattis-view/1"


def build_view(game: Game, seat: int) -> dict[str, Any]:
    """A JSON-ready dict of exactly what ``seat`` may know about ``game``."""
    players = range(game.players)
    return {
        "format": VIEW_FORMAT,
        "seat": seat,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "preset": game.rules.preset_name,
        "dealer": game.dealer,
        "phase": game.phase,
        "to_move": game.to_move,
        "leader": game.leader,
        "hand": game.hand(seat),
        "hand_sizes": [game.hand_size(s) for s in players],
        "won_sizes": [game.won_size(s) for s in players],
        "stock_size": game.stock_size,
        "removed_count": _removed_count(game),
        "trump": game.trump,
        "trump_card": game.trump_card,
        "trump_holder": game.trump_holder,
        "table": [[s, cards] for s, cards in game.table],
        "tie": game.tie,
        "due": game.due,
        "current_round": [[s, card] for s, card in game.current_round],
        "last_drawer": game.last_drawer,
        "trick_size": game.trick_size if game.phase == "shed" else None,
        "out": [s for s in players if game.is_out(s)],
        "out_order": game.out_order,
        "losers": game.losers,
        "history": [
            {"event": kind, "seat": who, "cards": codes_of(mask)}
            for kind, who, mask in game.history
        ],
    }


def _removed_count(game: Game) -> int:
    """How many cards left the game unseen (C4, P1.7c, cards outside a from_hands puzzle)."""
    return game.card_locations()["removed"]
