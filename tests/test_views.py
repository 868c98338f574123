"""Tests of the one typed view (rules section 5): ``Game.seat_view`` gives a ``SeatView``,
``Game.view`` its JSON form.

1. The JSON form is exactly the ``mattis-view/1`` dict as the game's public accessors
   describe it (every key of ``VIEW_SCHEMA``, in that order, the same values), at every
   step of games of every preset and house rule, with and without ``since``.
2. Reading the dict back (``SeatView.from_dict``) gives the same ``SeatView``, directly and
   through JSON text.
3. ``seat_view`` refuses a bad seat or ``since`` as ``view`` does.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mattis import VIEW_SCHEMA, Game, SeatView

from .variants import CONFIGS, VARIANTS


def view_from_accessors(game: Game, seat: int, since: int) -> dict[str, Any]:
    """The view as the game's public accessors describe it (how ``build_view`` made the
    dict before the view was typed): the reference the JSON form must equal."""
    players = range(game.players)
    in_phase1 = game.phase == "collect"
    table = game.table
    return {
        "format": "mattis-view/1",
        "seat": seat,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "preset": game.rules.preset_name,
        "dealer": game.dealer if game.dealer >= 0 else None,
        "phase": game.phase,
        "to_move": game.to_move,
        "leader": game.leader,
        "hand": game.hand(seat),
        "hand_sizes": [game.hand_size(s) for s in players],
        "won_sizes": [game.won_size(s) for s in players],
        "stock_size": game.stock_size,
        "removed_count": game.card_locations()["removed"],
        "trump": game.trump,
        "trump_card": game.trump_card,
        "trump_holder": game.trump_holder,
        "trick": [[s, cards[0]] for s, cards in table] if in_phase1 else [],
        "plays": [] if in_phase1 else [[s, cards] for s, cards in table],
        "table": [[s, cards] for s, cards in table],
        "tie": game.tie,
        "due": game.due,
        "current_round": [[s, card] for s, card in game.current_round],
        "last_drawer": game.last_drawer,
        "trick_size": game.trick_size if game.phase == "shed" else None,
        "out": [s for s in players if game.is_out(s)],
        "out_order": game.out_order,
        "losers": game.losers,
        "history": [event.to_dict() for event in game.events_since(since)],
        "history_start": since,
        "event_count": game.num_events,
    }


@pytest.mark.parametrize(("name", "players"), CONFIGS[::2])
def test_the_json_view_is_the_dict_the_public_accessors_describe(name: str, players: int) -> None:
    game = Game.new(VARIANTS[name], players, seed=11)
    rng = random.Random(11)
    while True:
        for seat in range(players):
            since = rng.randrange(game.num_events + 1)
            for start in (0, since):
                view = game.view(seat, since=start)
                expected = view_from_accessors(game, seat, start)
                assert view == expected, f"{name}, seat {seat}, after {game.num_actions} actions"
                assert list(view) == list(expected) == list(VIEW_SCHEMA)
        if game.is_over or game.num_actions > 600:
            break
        game.apply(rng.choice(game.legal_actions()))


def test_a_view_set_up_from_hands_is_the_dict_the_public_accessors_describe() -> None:
    game = Game.from_hands("kortregler", [["2c", "Ad", "Kh"], ["Kd", "3s"], ["2h", "Qd", "9c"]],
                           trump="s", leader=1)
    rng = random.Random(2)
    while not game.is_over:
        for seat in range(3):
            assert game.view(seat) == view_from_accessors(game, seat, 0)
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize(("name", "players"), CONFIGS[1::3])
def test_reading_the_json_view_back_gives_the_same_seat_view(name: str, players: int) -> None:
    game = Game.new(VARIANTS[name], players, seed=4)
    rng = random.Random(4)
    while not game.is_over and game.num_actions < 400:
        seat = rng.randrange(players)
        since = rng.randrange(game.num_events + 1)
        typed = game.seat_view(seat, since=since)
        assert isinstance(typed, SeatView)
        assert SeatView.from_dict(typed.to_dict()) == typed
        assert SeatView.from_dict(json.loads(json.dumps(game.view(seat, since=since)))) == typed
        assert typed.history == tuple(game.events_since(since))
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("bad", [-1, 99, 1.5, True, "0"])
def test_seat_view_refuses_a_bad_since_as_view_does(bad: object) -> None:
    game = Game.new("pagat", 3, seed=1)
    with pytest.raises(ValueError, match="since: must be from 0 to"):
        game.seat_view(0, since=bad)
    with pytest.raises(ValueError, match="since: must be from 0 to"):
        game.view(0, since=bad)


def test_seat_view_refuses_a_bad_seat_as_view_does() -> None:
    game = Game.new("pagat", 3, seed=1)
    for bad in (-1, 3):
        with pytest.raises(ValueError) as typed:
            game.seat_view(bad)
        with pytest.raises(ValueError) as as_dict:
            game.view(bad)
        assert str(typed.value) == str(as_dict.value)
