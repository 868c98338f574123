"""The last completed trick of a game, followed from the public events one step at a time.

A state message shows the table as it is *after* a move, so the card that completes a trick
is never on it: the trick has already gone to a won pile (P1.1) or out of the game (P2.6).
To let a page show every trick complete, each state message carries ``last_trick``, and this
module keeps it, with the card that took it, so the page only marks it. It reads only public
events — the same for every seat — and each event costs constant time, so following a whole
game costs no more than the game itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.cards import CARD_CODES, cards_in, rank_of
from ..core.events import EventKind, RawEvent
from ..core.rules import Rules, TieMode

TRICK_REASONS = ("won", "cleared", "taken_back")
"""Why a trick left the table: won into a pile (P1.1), cleared in phase 2 (P2.6), or taken
back by those who played it when phase 1 ended (P1.8)."""


def _codes(mask: int) -> list[str]:
    return [CARD_CODES[card] for card in cards_in(mask)]


class TrickWatcher:
    """Follows one game's public events and remembers the last trick that left the table.

    Feed it the events it has not seen (:meth:`feed` with ``Game.raw_events_since(seen)``);
    :attr:`last` is then the ``last_trick`` of the state message (``docs/web.md``).
    """

    __slots__ = ("_plays", "_two_cards", "last", "seen")

    def __init__(self, rules: Rules) -> None:
        self.seen = 0
        """How many events have been read."""
        self.last: dict[str, Any] | None = None
        """``{"cards": [[seat, [codes]], ...], "winner", "reason", "number", "winning"}`` or
        ``None``."""
        self._plays: list[tuple[int, int]] = []
        """The trick or table being built: ``(seat, card mask)`` per play, in play order."""
        self._two_cards = rules.tie is TieMode.TWO_CARDS
        """Whether each round of a war is two cards a player (P1.5 ``two_cards``)."""

    def feed(self, events: Iterable[RawEvent]) -> None:
        """Read the next events of the game, in order."""
        for kind, seat, mask in events:
            number = self.seen
            self.seen += 1
            if kind is EventKind.PLAY or kind is EventKind.CHANCE:
                self._plays.append((seat, mask))
            elif kind is EventKind.PICKUP:  # P2.4: the oldest play goes back to a hand
                if self._plays:
                    del self._plays[0]
            elif kind is EventKind.WON:
                self._complete(seat, "won", number)
            elif kind is EventKind.CLEAR:
                self._complete(seat, "cleared", number)
            elif kind is EventKind.BACK:
                self._complete(-1, "taken_back", number)
            elif kind is EventKind.SHED:  # phase 2 begins on an empty table
                self._plays = []

    def _complete(self, winner: int, reason: str, number: int) -> None:
        self.last = {"cards": [[seat, _codes(mask)] for seat, mask in self._plays],
                     "winner": None if winner < 0 else winner, "reason": reason, "number": number,
                     "winning": self._winning(winner, reason)}
        self._plays = []

    def _winning(self, winner: int, reason: str) -> list[str]:
        """The card that took the trick. Phase 1 (P1.1, P1.5): the winner's best card of the
        last round it played, which is its latest card, or under ``two_cards`` after a war
        round the better of its latest two (a first round is one card each, a war round two).
        Phase 2 (P2.6): the play that completed the table. A trick taken back has none."""
        if reason == "cleared":
            return _codes(self._plays[-1][1]) if self._plays else []
        if reason != "won":
            return []
        mine = [mask.bit_length() - 1 for seat, mask in self._plays if seat == winner]
        if not mine:
            return []
        whole_rounds = len(mine) >= 3 and len(mine) % 2 == 1
        recent = mine[-2:] if self._two_cards and whole_rounds else mine[-1:]
        return [CARD_CODES[max(recent, key=rank_of)]]
