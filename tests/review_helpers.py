"""Pairs of games a seat cannot tell apart, for the review's guarantee (issue 26, item 3).

:func:`hidden_twin` takes a finished game's record and a seat and builds a second record
with the same public history and the same cards for the seat, but other hidden cards
elsewhere: two cards that went from the deck to the same other player are exchanged in
the deck, so that player drew them in the other order and held a different card in
between (or, where a player never played them, two such cards change hands). Nothing is
assumed: every candidate is replayed, and kept only if :func:`seat_cannot_tell` finds the
seat's ``Game.view`` equal after every action (in full at each of the seat's decisions)
while some other hand differs.
"""

from __future__ import annotations

import itertools
from typing import Any

from mattis import Game


def replay_start(record: dict[str, Any]) -> tuple[Game, list[str]]:
    """The game of ``record`` before its first action, and its actions."""
    start = dict(record)
    actions = list(start.pop("actions"))
    start.pop("result", None)
    start["actions"] = []
    return Game.from_record(start), actions


def holdings(record: dict[str, Any]) -> tuple[dict[str, tuple[int, int]], dict[str, int], int]:
    """For each card that reached a hand: who got it first and after which action (-1: the
    deal); for each card, the action after which it first left a hand; how many actions."""
    game, actions = replay_start(record)
    before = [set(game.hand(seat)) for seat in range(game.players)]
    got = {card: (seat, -1) for seat, hand in enumerate(before) for card in hand}
    left: dict[str, int] = {}
    for number, action in enumerate(actions):
        game.apply(action)
        after = [set(game.hand(seat)) for seat in range(game.players)]
        for seat in range(game.players):
            for card in after[seat] - before[seat]:
                got.setdefault(card, (seat, number))
            for card in before[seat] - after[seat]:
                left.setdefault(card, number)
        before = after
    return got, left, len(actions)


def seat_cannot_tell(record: dict[str, Any], other: dict[str, Any], seat: int) -> tuple[bool, bool]:
    """Whether ``seat`` sees the same in both games after every action (``Game.view``), and
    whether some other hand differs at one of the seat's decisions (then the pair tests
    something)."""
    first, actions = replay_start(record)
    second, other_actions = replay_start(other)
    if actions != other_actions or first.view(seat) != second.view(seat):
        return False, False
    differs_at_decision = False
    for action in actions:
        if first.to_move == seat and len(first.legal_actions()) > 1:
            if first.view(seat) != second.view(seat):
                return False, False
            if first.legal_actions() != second.legal_actions():
                return False, False
            if any(first.hand(s) != second.hand(s) for s in range(first.players) if s != seat):
                differs_at_decision = True
        count = first.num_events
        first.apply(action)
        try:
            second.apply(action)
        except ValueError:
            return False, False
        if first.view(seat, since=count) != second.view(seat, since=count):
            return False, False
    return first.view(seat) == second.view(seat), differs_at_decision


def swapped(record: dict[str, Any], pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """``record`` with each pair of cards exchanged in its deck (and no seed, which would no
    longer give that deck)."""
    deck = list(record["deck"])
    for first, second in pairs:
        i, j = deck.index(first), deck.index(second)
        deck[i], deck[j] = deck[j], deck[i]
    changed = {key: value for key, value in record.items() if key != "seed"}
    changed["deck"] = deck
    return changed


def hidden_twin(record: dict[str, Any], seat: int, swaps: int = 4,
                attempts: int = 60) -> dict[str, Any] | None:
    """A record ``seat`` cannot tell from ``record`` (see the module docstring), with up to
    ``swaps`` exchanges of cards, at least one of them changing a hand at one of the seat's
    decisions; ``None`` if none is found in ``attempts`` replays."""
    got, left, count = holdings(record)
    candidates = []
    others = [card for card, (owner, _) in got.items() if owner != seat]
    for first, second in itertools.combinations(sorted(others), 2):
        (owner1, when1), (owner2, when2) = got[first], got[second]
        if owner1 == owner2:  # drawn by one player, both kept until both were drawn
            if when1 != when2 and min(left.get(first, count), left.get(second, count)) > max(when1, when2):
                candidates.append((first, second))
        elif first not in left and second not in left:  # never played: they may change hands
            candidates.append((first, second))
    chosen: list[tuple[str, str]] = []
    useful = False
    for pair in candidates[:attempts]:
        if len(chosen) >= swaps or any(card in pair for done in chosen for card in done):
            continue
        same, differs = seat_cannot_tell(record, swapped(record, [*chosen, pair]), seat)
        if same:
            chosen.append(pair)
            useful = useful or differs
    if not useful:
        return None
    twin = swapped(record, chosen)
    return twin if seat_cannot_tell(record, twin, seat) == (True, True) else None
