"""Tests of the one typed view (rules section 5): ``Game.seat_view`` gives a ``SeatView``,
``Game.view`` its JSON form.

1. The JSON form is exactly the ``mattis-view/1`` dict as the game's public accessors
   describe it (every key of ``VIEW_SCHEMA``, in that order, the same values), at every
   step of games of every preset and house rule, with and without ``since``.
2. Reading the dict back (``SeatView.from_dict``) gives the same ``SeatView``, directly and
   through JSON text.
3. ``seat_view`` refuses a bad seat or ``since`` as ``view`` does.
4. A view shows a seat its own hand and never a hidden card (the other hands, the stock, a
   reserved trump card, removed cards; C4), through whole games, and is JSON.
5. Views of constant size: ``since`` gives the tail of the history, unknown is ``None``, the
   phase-1 trick and the phase-2 plays are apart, a malformed view is refused, and a bot fed
   only new events knows what a full view tells.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import mattis
from mattis import VIEW_SCHEMA, Game, SeatView
from mattis.bots import PlayerView

from .variants import CONFIGS, DECK, VARIANTS, quoted, random_states

STATES = random_states()


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
        # one seat in turn at each action (each seat's whole view costs the whole history,
        # so all of them at every action made the test quadratic in seats too); all at the end
        seats = range(players) if game.is_over or game.num_actions > 600 else [game.num_actions % players]
        for seat in seats:
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


# ---------------------------------------------------------------- what a view shows and hides (section 5)


def _hidden_from(game: Game, seat: int, deck: list[str]) -> set[str]:
    """Cards ``seat`` may not see during phase 1: other hands, the stock and (hidden_last) the
    reserved card; the face-up bottom card of bottom_up is public."""
    hidden = {code for other in range(game.players) if other != seat for code in game.hand(other)}
    stock = deck[len(deck) - game.stock_size:] if game.stock_size else []
    hidden |= set(stock)
    if game.rules.trump == "hidden_last":
        hidden.add(deck[-1])
    else:
        hidden.discard(deck[-1])
    return hidden


def test_view_at_the_deal_shows_own_hand_only() -> None:
    game = Game.new("pagat", players=3, deck=DECK)
    view = game.view(0)
    text = json.dumps(view)
    assert view["hand"] == game.hand(0)
    for code in game.hand(0):
        assert quoted(code) in text
    for code in game.hand(1) + game.hand(2) + DECK[9:]:
        assert quoted(code) not in text, code
    assert view["hand_sizes"] == [3, 3, 3]
    assert view["stock_size"] == 43
    assert view["trump"] is None and view["trump_card"] is None


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("kortregler", 2), ("app", 4)])
def test_view_never_leaks_hidden_cards_during_phase_1(preset: str, players: int) -> None:
    """Section 5: through the whole of phase 1, no seat's view mentions another seat's hand
    cards, the stock's cards or (hidden_last) the reserved card, nor removed cards (C4)."""
    game = Game.new(preset, players=players, deck=DECK)
    removed = set(DECK[:10]) if preset == "kortregler" else set()
    deck = DECK[10:] if preset == "kortregler" else DECK
    rng = random.Random(preset)
    while game.phase == "collect":
        for seat in range(players):
            view = game.view(seat)
            text = json.dumps(view)
            assert view["hand"] == game.hand(seat)
            for code in game.hand(seat):
                assert quoted(code) in text
            for code in _hidden_from(game, seat, deck) | removed:
                assert quoted(code) not in text, (seat, code)
            if preset == "app":
                assert view["trump_card"] == DECK[-1] and view["trump"] == DECK[-1][1]
            else:
                assert view["trump"] is None and view["trump_card"] is None
        mover = game.to_move
        stock_top = deck[len(deck) - game.stock_size] if game.stock_size else None
        action = game.apply(rng.choice(game.legal_actions()))
        played = stock_top if action is mattis.CHANCE else str(action)
        assert played is not None
        for seat in range(players):  # a played (or chanced) card is public from then on
            assert quoted(played) in json.dumps(game.view(seat)), (mover, played)
    # Phase 2 (or a Blåmattis end): the trump card is turned for everyone.
    assert game.phase in ("shed", "over")
    for seat in range(players):
        view = game.view(seat)
        assert view["trump_card"] == deck[-1]
        assert quoted(deck[-1]) in json.dumps(view)


def test_view_in_phase_2_hides_other_hands() -> None:
    hands = [["4c", "9d", "Ah"], ["8c", "9c", "Kd"], ["2d", "6h", "Qs"]]
    game = Game.from_hands("pagat", hands=hands, trump="s", leader=0)
    for seat in range(3):
        view = game.view(seat)
        text = json.dumps(view)
        assert view["hand"] == game.hand(seat)
        assert view["hand_sizes"] == [3, 3, 3]
        assert view["trick_size"] == 3
        for other in range(3):
            for code in hands[other]:
                assert (quoted(code) in text) == (other == seat)
    game.apply("4c")
    view = game.view(1)
    assert view["table"] == [[0, ["4c"]]]
    assert quoted("4c") in json.dumps(view)
    assert quoted("Ah") not in json.dumps(view)


def test_view_is_json_serialisable_through_whole_games() -> None:
    for preset, players, seed in [("pagat", 4, 1), ("kortregler", 3, 2), ("app", 3, 3)]:
        game = Game.new(preset, players=players, seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in range(players):
                view = game.view(seat)
                assert json.loads(json.dumps(view)) == view
                assert view["seat"] == seat
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        assert game.view(0)["losers"] == game.losers


def test_view_of_bad_seat_raises() -> None:
    game = Game.new("pagat", players=3, deck=DECK)
    with pytest.raises(ValueError, match="seat"):
        game.view(3)


# ---------------------------------------------------------------- views of constant size, read back typed


def test_unknown_is_none_in_views_and_events() -> None:
    """A trick taken back (P1.8) names no seat: None, not -1; so does a puzzle's dealer."""
    seen_back = False
    for game in STATES:
        view = game.view(0)
        for item in view["history"]:
            assert item["seat"] is None or item["seat"] >= 0
            seen_back |= item["event"] == "back" and item["seat"] is None
        for key in ("trump_holder", "last_drawer", "dealer", "to_move", "trump", "trump_card"):
            assert view[key] is None or view[key] != -1, key
    assert seen_back
    puzzle = Game.from_hands("pagat", [["4c"], ["8c"]], trump="s", leader=0)
    assert puzzle.view(0)["dealer"] is None


def test_events_since_and_views_since_give_the_tail_of_the_history() -> None:
    for game in STATES[::3]:
        full = game.history
        assert game.num_events == len(full)
        for start in {0, len(full) // 2, len(full)}:
            assert game.events_since(start) == full[start:]
            view = game.view(1 % game.players, since=start)
            assert view["history"] == [event.to_dict() for event in full[start:]]
            assert (view["history_start"], view["event_count"]) == (start, len(full))
    game = STATES[5]
    for bad in (-1, game.num_events + 1, "3", 1.0, True):
        with pytest.raises(ValueError, match="since"):
            game.view(0, since=bad)


def test_the_view_splits_the_phase_1_trick_from_the_phase_2_plays() -> None:
    for game in STATES:
        view = game.view(0)
        if game.phase == "collect":
            assert view["plays"] == [] and view["trick"] == [[s, cards[0]] for s, cards in view["table"]]
        else:
            assert view["trick"] == [] and view["plays"] == view["table"]
        assert set(view) == set(mattis.VIEW_SCHEMA)


def test_seat_view_reads_a_view_once_with_types() -> None:
    for game in STATES[::4]:
        seat = game.players - 1
        public = SeatView.from_dict(json.loads(json.dumps(game.view(seat))))
        assert public.hand_cards == [mattis.parse_card(c) for c in game.hand(seat)]
        assert public.trump == game.trump and public.to_move == game.to_move
        assert [str(play) for _, play in public.plays] == (
            [] if game.phase == "collect"
            else ["-".join(dict.fromkeys([cards[0], cards[-1]])) for _, cards in game.table])
        assert public.history == tuple(game.history)


@pytest.mark.parametrize("damage", [
    lambda v: v.pop("hand"), lambda v: v.update(format="other"), lambda v: v.update(players="x"),
    lambda v: v.update(hand=[5]), lambda v: v.update(history=[{"event": "nope"}]),
    lambda v: v.update(trump="z"),
])
def test_seat_view_refuses_a_malformed_view(damage: Callable[[dict[str, Any]], object]) -> None:
    view = Game.new("pagat", 3, seed=2).view(0)
    damage(view)
    with pytest.raises(ValueError, match=r"^view: "):
        SeatView.from_dict(view)


def test_bots_following_a_game_incrementally_know_what_a_full_view_tells() -> None:
    """A CardTracker fed only new events ends where one fed the whole history does."""
    from mattis.bots import CardTracker

    for name, players in CONFIGS[::3]:
        game = Game.new(VARIANTS[name], players, seed=3)
        tracker = CardTracker(players, game.rules)
        rng = random.Random(3)
        while True:
            step = PlayerView.from_dict(game.view(0, since=tracker.count), tracker)
            finished = game.is_over or game.num_actions >= 600
            # every action early on, then every 4th: the whole view costs the whole history
            if game.num_actions < 100 or game.num_actions % 4 == 0 or finished:
                whole = PlayerView.from_dict(game.view(0))
                for field in ("known_hands", "known_won", "gone", "played_by", "excluded", "recent"):
                    assert getattr(step.memory, field) == getattr(whole.memory, field), field
                assert step.public_events() == tuple(game.history)
            if finished:
                break
            game.apply(rng.choice(game.legal_actions()))


def test_the_public_view_is_every_seats_view_without_seat_or_hand() -> None:
    """A spectator's view (``Game.public_view``): everything every seat's view shows alike,
    ``"seat": null`` and no hand; nothing in it tells one hand's cards."""
    for game in STATES[::5]:
        since = game.num_events // 2
        public = game.public_view(since)
        assert public["seat"] is None and public["hand"] == []
        assert list(public) == list(VIEW_SCHEMA)
        for seat in range(game.players):
            assert {**game.view(seat, since), "seat": None, "hand": []} == public
    with pytest.raises(ValueError, match="since"):
        STATES[0].public_view(-1)
