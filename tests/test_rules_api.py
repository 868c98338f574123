"""The public API contract of the rules core: card and action text, legal actions, apply()
errors, rule options and presets (rules section 4), dealing (C2, C3), seeds, copies and random
playouts. Rule numbers refer to ``docs/rules.en.md``; records are tested in
``test_records.py``, views in ``test_views.py``."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from typing import Any

import pytest

import mattis
from mattis import Action, Game, IllegalAction, Rules

from .variants import DECK, play_randomly, some_games


def legal(game: Game) -> list[str]:
    return [str(action) for action in game.legal_actions()]


def assert_unchanged(game: Game, before: Game) -> None:
    """A rejected action left the game exactly as it was (rules core contract)."""
    assert game == before
    assert game.num_actions == before.num_actions
    assert game.record() == before.record()
    assert game.legal_actions() == before.legal_actions()
    assert game.to_move == before.to_move
    for seat in range(game.players):
        assert game.view(seat) == before.view(seat)


# ---------------------------------------------------------------- cards


def test_deck_fixture_is_a_full_pack() -> None:
    assert sorted(mattis.parse_card(code) for code in DECK) == list(range(52))


@pytest.mark.parametrize("text", ["Th", "10h", "10H", "th", "T♥", "tH", " Th "])
def test_card_parsing_accepts_the_documented_spellings(text: str) -> None:
    """C1 codes: rank 2-9/T/10/J/Q/K/A and suit c d h s (any case) or its symbol."""
    card = mattis.parse_card(text)
    assert mattis.card_code(card) == "Th"


def test_card_codes_round_trip_for_the_whole_pack() -> None:
    codes = [mattis.card_code(card) for card in range(52)]
    assert len(set(codes)) == 52
    assert codes[:13] == ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc", "Ac"]
    for card, code in enumerate(codes):
        assert mattis.parse_card(code) == card
        assert mattis.parse_card(code.lower()) == card
    assert mattis.parse_card("A♠") == mattis.parse_card("As")
    assert mattis.parse_card("2♣") == mattis.parse_card("2c")
    assert mattis.parse_card("Q♦") == mattis.parse_card("Qd")


@pytest.mark.parametrize("text", ["", "h", "T", "1h", "11h", "0h", "Tx", "Xh", "hT", "10", "T♥♥", "Th7"])
def test_bad_card_text_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="malformed card"):
        mattis.parse_card(text)


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize(
    ("text", "cards", "kind"),
    [
        ("7h", ("7h",), mattis.ActionKind.PLAY),
        ("6h-8h", ("6h", "7h", "8h"), mattis.ActionKind.PLAY),
        ("Ts-As", ("Ts", "Js", "Qs", "Ks", "As"), mattis.ActionKind.PLAY),
        ("chance", (), mattis.ActionKind.CHANCE),
        ("pickup", (), mattis.ActionKind.PICKUP),
    ],
)
def test_action_text_parses_and_round_trips(
    text: str, cards: tuple[str, ...], kind: mattis.ActionKind
) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert action.kind is kind
    assert tuple(mattis.card_code(card) for card in action.cards) == cards
    assert action.is_sequence == (len(cards) > 1)
    assert Action.parse(str(action)) is action


def test_action_parse_is_interned() -> None:
    """Every action exists once: parsing, aliases and legal-action lists give the same object."""
    assert Action.parse("7h") is Action.parse("7h")
    assert Action.parse("7H") is Action.parse("7h")
    assert Action.parse("7♥") is Action.parse("7h")
    assert Action.parse("10h-Qh") is Action.parse("Th-Qh")
    assert Action.parse("chance") is mattis.CHANCE
    assert Action.parse("pickup") is mattis.PICKUP
    assert Action.parse(mattis.PICKUP) is mattis.PICKUP
    game = Game.new("pagat", players=3, deck=DECK)
    for action in game.legal_actions():
        assert Action.parse(str(action)) is action
    assert pickle.loads(pickle.dumps(Action.parse("6h-8h"))) is Action.parse("6h-8h")


def test_every_action_round_trips_through_its_text() -> None:
    assert len(mattis.ALL_ACTIONS) == mattis.NUM_ACTIONS
    assert [action.index for action in mattis.ALL_ACTIONS] == list(range(mattis.NUM_ACTIONS))
    texts = [str(action) for action in mattis.ALL_ACTIONS]
    assert len(set(texts)) == len(texts)
    for action in mattis.ALL_ACTIONS:
        assert Action.parse(str(action)) is action


@pytest.mark.parametrize("text", ["7x", "8h-6h", "6h-8d", "", "hello", "6h-7h-8h", "7h-7h", "chance please"])
def test_malformed_action_text_raises(text: str) -> None:
    with pytest.raises(ValueError, match="malformed"):
        Action.parse(text)


@pytest.mark.parametrize("text", ["7x", "8h-6h", "6h-8d", "", "hello", "6h-7h-8h", "pickupp"])
def test_apply_malformed_text_is_illegal_action_saying_malformed(text: str) -> None:
    game = Game.from_hands("pagat", hands=[["6h", "7h", "8h"], ["Ac"]], trump="s", leader=0)
    before = game.copy()
    with pytest.raises(IllegalAction, match="malformed"):
        game.apply(text)
    assert_unchanged(game, before)


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)


# ---------------------------------------------------------------- legal actions


def test_legal_actions_sorted_plays_then_chance_then_pickup() -> None:
    """Plays by lowest then highest card, then chance, then pick-up."""
    game = Game.new("pagat", players=3, deck=DECK)
    assert game.to_move == 0
    assert legal(game) == ["Jc", "Kh", "Qs", "chance"]  # seat 0 holds DECK[0], DECK[3], DECK[6]
    shed = Game.from_hands("pagat", hands=[["4c", "Ad"], ["5c", "6c", "8c", "9c", "2s", "3s", "Kd"]],
                           trump="s", leader=0)
    shed.apply("4c")
    assert legal(shed) == ["5c", "5c-6c", "6c", "8c", "8c-9c", "9c", "2s", "2s-3s", "3s", "pickup"]


@pytest.mark.parametrize("preset", ["pagat", "kortregler", "app"])
def test_legal_actions_sorted_and_deterministic_through_a_game(preset: str) -> None:
    first = Game.new(preset, players=4, seed=11)
    second = Game.new(preset, players=4, seed=11)
    rng = random.Random(3)
    while not first.is_over:
        actions = first.legal_actions()
        assert actions == sorted(actions, key=lambda action: action.sort_key)
        assert len(set(actions)) == len(actions)
        assert [str(a) for a in actions] == [str(a) for a in second.legal_actions()]
        assert all(first.is_legal(a) for a in actions)
        choice = rng.choice(actions)
        first.apply(choice)
        second.apply(str(choice))
        assert first == second
    assert first.legal_actions() == []


def test_legal_actions_returns_a_fresh_list() -> None:
    game = Game.new("pagat", players=3, deck=DECK)
    listed = game.legal_actions()
    listed.clear()
    assert legal(game) == ["Jc", "Kh", "Qs", "chance"]


# ---------------------------------------------------------------- apply() errors


def test_apply_returns_the_parsed_action_and_accepts_seat() -> None:
    game = Game.new("pagat", players=3, deck=DECK)
    assert game.apply("jC", seat=0) is Action.parse("Jc")
    assert game.to_move == 1
    assert game.apply(game.legal_actions()[0]) is not None


@pytest.mark.parametrize("seat", [1, 2])
def test_apply_for_another_seat_is_not_your_turn(seat: int) -> None:
    game = Game.new("pagat", players=3, deck=DECK)
    before = game.copy()
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(game.hand(seat)[0], seat=seat)
    assert_unchanged(game, before)


def test_apply_card_not_in_hand_phase_1_and_phase_2() -> None:
    game = Game.new("pagat", players=3, deck=DECK)
    before = game.copy()
    with pytest.raises(IllegalAction, match="3d is not in your hand"):
        game.apply("3d")  # seat 1's card
    assert_unchanged(game, before)
    shed = Game.from_hands("pagat", hands=[["4c", "Ad"], ["8c", "Kd"]], trump="s", leader=0)
    before = shed.copy()
    with pytest.raises(IllegalAction, match="not in your hand"):
        shed.apply("8c")
    with pytest.raises(IllegalAction, match="not in your hand"):
        shed.apply("4c-5c")
    assert_unchanged(shed, before)


def test_apply_does_not_beat_names_the_play_to_beat() -> None:
    game = Game.from_hands("pagat", hands=[["8c", "Ad"], ["4c", "Kd"], ["Ah"]], trump="s", leader=0)
    game.apply("8c")
    before = game.copy()
    with pytest.raises(IllegalAction, match="4c does not beat 8c"):
        game.apply("4c")
    with pytest.raises(IllegalAction, match="Kd does not beat 8c"):
        game.apply("Kd")
    assert_unchanged(game, before)


def test_apply_must_follow_suit_app() -> None:
    game = Game.from_hands("app", hands=[["8c", "Ad"], ["4c", "2s"], ["Ah"]], trump="s", leader=0)
    game.apply("8c")
    before = game.copy()
    with pytest.raises(IllegalAction, match="must follow suit"):
        game.apply("2s")
    assert_unchanged(game, before)


def test_apply_pickup_while_able_to_beat_kortregler() -> None:
    game = Game.from_hands("kortregler", hands=[["8c", "Ad"], ["9c", "Kd"]], trump="s", leader=0)
    game.apply("8c")
    before = game.copy()
    with pytest.raises(IllegalAction, match="picking up is not allowed while you can beat 8c"):
        game.apply("pickup")
    assert_unchanged(game, before)


def test_apply_wrong_phase_actions_name_the_phase() -> None:
    collect = Game.new("pagat", players=3, deck=DECK)
    before = collect.copy()
    with pytest.raises(IllegalAction, match="phase 2"):
        collect.apply("pickup")
    with pytest.raises(IllegalAction, match="phase 2"):
        collect.apply("Qs-Ks")
    assert_unchanged(collect, before)
    app = Game.new("app", players=3, deck=DECK)
    with pytest.raises(IllegalAction, match="not allowed"):
        app.apply("chance")
    shed = Game.from_hands("pagat", hands=[["4c", "Ad"], ["8c", "Kd"]], trump="s", leader=0)
    with pytest.raises(IllegalAction, match="phase 1"):
        shed.apply("chance")


def test_apply_after_game_over() -> None:
    game = Game.from_hands("pagat", hands=[["4c"], ["5c", "Ad"]], trump="s", leader=0)
    game.apply("4c")
    assert game.is_over and game.to_move is None
    before = game.copy()
    for action in ["5c", "pickup", "hello"]:
        with pytest.raises(IllegalAction, match="game is over"):
            game.apply(action)
    assert_unchanged(game, before)


def test_failed_apply_keeps_random_games_unchanged() -> None:
    """Whatever is rejected, the game is equal to a copy taken before the attempt."""
    rng = random.Random(5)
    for preset in ["pagat", "kortregler", "app"]:
        game = Game.new(preset, players=3, seed=rng.randrange(1000))
        while not game.is_over:
            legal_now = set(game.legal_actions())
            before = game.copy()
            for action in rng.sample(mattis.ALL_ACTIONS, 8):
                if action not in legal_now:
                    with pytest.raises(IllegalAction):
                        game.apply(action)
            assert_unchanged(game, before)
            game.apply(rng.choice(sorted(legal_now, key=lambda a: a.sort_key)))


# ---------------------------------------------------------------- rules and presets

PRESET_TABLE = {
    "pagat": dict(min_players=3, max_players=6, removed_two_player=0, trick="all", chance=True,
                  draw="after_play", tie="replay", trump="hidden_last", phase1_end="no_card",
                  nothing_left="lose", nothing_left_counts="all_cards", min_sequence=2,
                  voluntary_pickup=True, follow_suit=False),
    "kortregler": dict(min_players=2, max_players=6, removed_two_player=10, trick="pair", chance=True,
                       draw="after_play", tie="two_cards", trump="hidden_last", phase1_end="one_left",
                       nothing_left="must_pick_up", nothing_left_counts="all_cards", min_sequence=0,
                       voluntary_pickup=False, follow_suit=False),
    "app": dict(min_players=3, max_players=6, removed_two_player=0, trick="all", chance=False,
                draw="after_trick", tie="any_match", trump="bottom_up", phase1_end="no_card",
                nothing_left="lose", nothing_left_counts="won_pile", min_sequence=2,
                voluntary_pickup=True, follow_suit=True),
}


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_presets_have_the_values_of_rules_section_4(name: str) -> None:
    rules = Rules.preset(name)
    assert rules.to_dict() == PRESET_TABLE[name]
    assert json.loads(json.dumps(rules.to_dict())) == PRESET_TABLE[name]
    assert rules.preset_name == name
    assert Rules.preset(name.upper()) is rules
    assert Rules.from_dict(rules.to_dict()) == rules


def test_preset_names_and_default() -> None:
    assert mattis.PRESET_NAMES == ("pagat", "kortregler", "app")
    assert Rules() == Rules.preset("pagat")
    assert Game.new(players=3, seed=1).rules == Rules.preset("pagat")
    with pytest.raises(ValueError, match="unknown preset"):
        Rules.preset("bridge")


def test_rules_are_frozen() -> None:
    rules = Rules.preset("pagat")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.min_sequence = 3  # type: ignore[misc]


def test_replace_with_string_values_is_converted() -> None:
    """Section 4: house rules are one replaced field; string values are accepted at run time
    (the typed entry point for text is ``with_options``, so mypy is told here)."""
    text: dict[str, Any] = {"nothing_left": "must_pick_up", "min_sequence": "3", "chance": "false",
                            "follow_suit": "true", "tie": "TWO_CARDS"}
    rules = dataclasses.replace(Rules.preset("pagat"), **text)
    assert rules == Rules.preset("pagat").with_options(nothing_left="must_pick_up", min_sequence="3",
                                                       chance="false", follow_suit="true", tie="TWO_CARDS")
    assert rules.nothing_left is mattis.NothingLeft.MUST_PICK_UP
    assert rules.min_sequence == 3
    assert rules.chance is False
    assert rules.follow_suit is True
    assert rules.tie is mattis.TieMode.TWO_CARDS
    assert rules.preset_name is None
    assert dataclasses.replace(rules, nothing_left=mattis.NothingLeft.LOSE, min_sequence=2, chance=True,
                               follow_suit=False, tie=mattis.TieMode.REPLAY) == Rules.preset("pagat")
    # The documented alternatives are reachable.
    assert dataclasses.replace(Rules.preset("kortregler"), min_sequence=2).min_sequence == 2
    assert Rules.preset("app").with_options(phase1_end="stock_empty").phase1_end == "stock_empty"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"min_players": 5, "max_players": 4}, "min_players"),
        ({"min_sequence": 4}, "min_sequence"),
        ({"min_sequence": 1}, "min_sequence"),
        ({"tie": "bogus"}, "tie"),
        ({"chance": "maybe"}, "chance"),
        ({"min_players": 1}, "min_players"),
        ({"max_players": 7}, "max_players"),
        ({"removed_two_player": 11}, "removed_two_player"),
        ({"trick": "three"}, "trick"),
        ({"trump": "none"}, "trump"),
        ({"nothing_left": "keep"}, "nothing_left"),
        ({"voluntary_pickup": "perhaps"}, "voluntary_pickup"),
        ({"min_sequence": "two"}, "min_sequence"),
        ({"min_sequence": True}, "min_sequence"),
    ],
)
def test_invalid_option_raises_value_error_naming_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError) as error:
        dataclasses.replace(Rules.preset("pagat"), **changes)  # type: ignore[arg-type]  # text at run time
    assert field in str(error.value)
    with pytest.raises(ValueError) as error:
        Rules(**changes)  # type: ignore[arg-type]
    assert field in str(error.value)


def test_unknown_option_name_raises() -> None:
    with pytest.raises(ValueError, match="bogus_option"):
        Rules.preset("pagat").with_options(bogus_option=1)


@pytest.mark.parametrize(("preset", "players"), [("pagat", 2), ("pagat", 7), ("app", 2), ("kortregler", 1),
                                                 ("kortregler", 7), ("pagat", 0)])
def test_game_new_players_outside_preset_range(preset: str, players: int) -> None:
    with pytest.raises(ValueError, match="players"):
        Game.new(preset, players=players, seed=1)


def test_game_new_allowed_player_counts() -> None:
    for players in range(3, 7):
        assert Game.new("pagat", players=players, seed=1).players == players
        assert Game.new("app", players=players, seed=1).players == players
    for players in range(2, 7):
        assert Game.new("kortregler", players=players, seed=1).players == players


def test_game_new_player_range_follows_house_rules() -> None:
    rules = dataclasses.replace(Rules.preset("pagat"), min_players=4, max_players=5)
    with pytest.raises(ValueError, match="players"):
        Game.new(rules, players=3, seed=1)
    assert Game.new(rules, players=4, seed=1).players == 4


def test_deck_validation() -> None:
    with pytest.raises(ValueError, match="deck"):
        Game.new("pagat", players=3, deck=DECK[:51])
    with pytest.raises(ValueError, match="deck"):
        Game.new("pagat", players=3, deck=[*DECK, "2c"])
    duplicated = [*DECK[:51], DECK[0]]
    with pytest.raises(ValueError, match=f"{DECK[0]} appears twice"):
        Game.new("pagat", players=3, deck=duplicated)
    with pytest.raises(ValueError):
        Game.new("pagat", players=3, deck=[*DECK[:51], "1x"])
    with pytest.raises(ValueError, match="dealer"):
        Game.new("pagat", players=3, deck=DECK, dealer=3)


def test_game_cannot_be_constructed_directly() -> None:
    with pytest.raises(TypeError):
        Game()


def test_from_hands_validation() -> None:
    with pytest.raises(ValueError, match="hands"):
        Game.from_hands("pagat", hands=[["2c"]])
    with pytest.raises(ValueError, match="hands"):
        Game.from_hands("pagat", hands=[["2c"], ["3c"], ["4c"], ["5c"], ["6c"], ["7c"], ["8c"]])
    with pytest.raises(ValueError, match="2c appears twice"):
        Game.from_hands("pagat", hands=[["2c"], ["2C"]])
    with pytest.raises(ValueError, match="leader"):
        Game.from_hands("pagat", hands=[["2c"], ["3c"]], leader=2)
    game = Game.from_hands("pagat", hands=[["2c"], ["3c"]], trump="h", leader=1)
    assert game.phase == "shed" and game.trump == "h" and game.to_move == 1
    assert game.card_locations()["removed"] == 50


# ---------------------------------------------------------------- dealing


def test_dealer_defaults_to_last_seat_so_seat_0_plays_first() -> None:
    """C2/C3/P1.1: one card at a time clockwise from the dealer's left; the rest is the stock."""
    game = Game.new("pagat", players=4, deck=DECK)
    assert game.dealer == 3
    assert game.to_move == 0 and game.leader == 0
    for seat in range(4):
        expected = {DECK[seat], DECK[4 + seat], DECK[8 + seat]}
        assert set(game.hand(seat)) == expected
    assert game.stock_size == 40
    assert game.phase == "collect" and game.trump is None


def test_explicit_dealer_deals_from_their_left() -> None:
    game = Game.new("pagat", players=3, deck=DECK, dealer=1)
    assert game.to_move == 2
    assert set(game.hand(2)) == {DECK[0], DECK[3], DECK[6]}
    assert set(game.hand(0)) == {DECK[1], DECK[4], DECK[7]}
    assert set(game.hand(1)) == {DECK[2], DECK[5], DECK[8]}


# ---------------------------------------------------------------- seeds and copies


def test_same_seed_same_game() -> None:
    assert Game.new("pagat", players=4, seed=42) == Game.new("pagat", players=4, seed=42)
    decks = [Game.new("pagat", players=4, seed=42).record()["deck"] for _ in range(2)]
    assert decks[0] == decks[1]
    assert Game.new("pagat", players=4, seed=42) != Game.new("pagat", players=4, seed=43)
    first, second = Game.new("app", players=3, seed=7), Game.new("app", players=3, seed=7)
    play_randomly(first, random.Random(0))
    play_randomly(second, random.Random(0))
    assert first == second
    assert first.result == second.result


def test_copy_is_equal_and_independent() -> None:
    for game in some_games():
        if game.is_over:
            continue
        snapshot = Game.from_record(game.record())
        branch = game.copy()
        assert branch == game and branch is not game
        play_randomly(branch, random.Random(2))
        assert branch.is_over
        assert game == snapshot
        assert not game.is_over
        # And the other way round: playing on the original leaves an earlier copy alone.
        earlier = game.copy()
        earlier_record = earlier.record()
        play_randomly(game, random.Random(3))
        assert earlier.record() == earlier_record
        assert earlier == Game.from_record(earlier_record)


def test_copy_in_the_middle_of_a_phase_2_trick() -> None:
    game = Game.from_hands("pagat", hands=[["4c", "Ad"], ["8c", "9c", "Kd"], ["2d", "6h", "Jc"]],
                           trump="s", leader=0)
    game.apply("4c")
    game.apply("8c-9c")
    branch = game.copy()
    branch.apply("pickup")
    assert game.table == [(0, ["4c"]), (1, ["8c", "9c"])]
    assert game.hand(2) == ["Jc", "2d", "6h"]
    assert branch.table == [(1, ["8c", "9c"])]
    assert game != branch


def test_game_is_unhashable_but_comparable() -> None:
    game = Game.new("pagat", players=3, deck=DECK)
    assert game == game.copy()
    assert game != "game"
    with pytest.raises(TypeError):
        hash(game)


# ---------------------------------------------------------------- random playouts


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("kortregler", 2), ("app", 5)])
def test_play_randomly_is_a_seeded_random_playout_that_stops_at_the_cap(preset: str, players: int) -> None:
    """``Game.play_randomly`` plays exactly the moves of the loop it stands for, stops at the end
    of the game or at ``max_actions`` actions, and says how many it played."""
    for seed in range(6):
        game, by_hand = Game.new(preset, players, seed=seed), Game.new(preset, players, seed=seed)
        played = game.play_randomly(random.Random(seed), 2_000)
        rng = random.Random(seed)
        while not by_hand.is_over and by_hand.num_actions < 2_000:
            options = by_hand.legal_actions()
            by_hand.apply(options[int(rng.random() * len(options))])
        assert game.actions == by_hand.actions and played == game.num_actions
        assert Game.from_record(game.record()) == game

    capped = Game.new(preset, players, seed=1)
    assert capped.play_randomly(random.Random(1), 5) == 5
    assert capped.play_randomly(random.Random(2), 12) == 7 and capped.num_actions == 12
    assert capped.play_randomly(random.Random(3), 3) == 0 and capped.num_actions == 12
    finished = Game.new(preset, players, seed=2)
    finished.play_randomly(random.Random(4), 10_000)
    assert finished.is_over and finished.play_randomly(random.Random(5), 10_000) == 0


@pytest.mark.parametrize("cap", [-1, 2.5, "10", True, None])
def test_play_randomly_refuses_a_cap_that_is_not_a_whole_number(cap: object) -> None:
    game = Game.new("pagat", 3, seed=1)
    with pytest.raises(ValueError, match="max_actions"):
        game.play_randomly(random.Random(1), cap)
    assert game.num_actions == 0
