"""Rules sections 1 and 2: cards, seats and dealing (C1-C4) and phase 1 (P1.1-P1.9), per preset.

Positions come from stacked decks (:func:`stack`). Long stretches of phase 1 are skipped by
chancing (:func:`chance_until`) or, in the ``app`` preset, by playing the card just drawn
(:func:`play_drawn_until`): the filler cards of the stock are arranged so that chosen players win
those tricks without any tie, and the dealt hands stay untouched for the endgame being tested.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

import mattis
from mattis import Game, IllegalAction, Rules

from .variants import events

RANKS = "23456789TJQKA"
ALL_CARDS = [rank + suit for suit in "cdhs" for rank in RANKS]
"""Every card code in the engine's card order (clubs 2 … spades ace)."""
PRESETS = ("pagat", "kortregler", "app")


# ---------------------------------------------------------------------- helpers


def rank(code: str) -> int:
    return RANKS.index(code[0])


def cards(*codes: str) -> list[str]:
    """Card codes sorted the way the engine lists a hand or a won pile."""
    return sorted(codes, key=mattis.parse_card)


def mask(*codes: str) -> int:
    result = 0
    for code in codes:
        result |= 1 << mattis.parse_card(code)
    return result


def rules(preset: str, **changes: object) -> Rules:
    """A preset with some options changed (a house-rule mix)."""
    return dataclasses.replace(Rules.preset(preset), **changes)  # type: ignore[arg-type]


def winning_groups(pool: list[str], winners: Sequence[int], size: int, players: int,
                   leader: int) -> list[str]:
    """Order ``pool`` into one group of ``size`` cards per trick, in playing order from the
    trick's leader, so that trick ``t`` is won by ``winners[t]`` with no repeated rank."""
    count = len(winners)
    assert len(pool) == count * size, f"the stock filler holds {len(pool)} cards, not {count * size}"
    ordered = sorted(pool, key=rank)
    heads, lows = ordered[len(ordered) - count:], ordered[: len(ordered) - count]
    groups: list[str] = []
    for index, winner in enumerate(winners):
        others = [lows[index + j * count] for j in range(size - 1)]
        head = heads[index]
        others_ranks = [rank(card) for card in others]
        assert len(set(others_ranks)) == len(others_ranks)
        assert max(others_ranks, default=-1) < rank(head)
        position = (winner - leader) % players
        assert position < size, "the winner must play to the trick"
        groups += [*others[:position], head, *others[position:]]
        leader = winner
    return groups


def stack(
    hands: Sequence[Sequence[str]],
    stock: Sequence[str] = (),
    *,
    dealer: int | None = None,
    removed: Sequence[str] = (),
    tail: Sequence[str] = (),
    last: str | None = None,
    drain: tuple[Sequence[int], int, int] | None = None,
) -> list[str]:
    """A full 52-card deck, top first, that deals ``hands`` (seat by seat, up to 3 cards each;
    missing cards are filled in) with the dealer ``dealer`` (default: last seat, C2).

    The stock is ``stock`` (its top first), then the other cards, then ``tail``, then ``last``
    (the stock's last card). ``removed`` goes on top (the cards C4 puts away). With
    ``drain=(winners, size, leader)`` the other cards are arranged by :func:`winning_groups`.
    """
    players = len(hands)
    dealer = players - 1 if dealer is None else dealer
    named = [*removed, *(card for hand in hands for card in hand), *stock, *tail]
    named += [last] if last else []
    assert len(set(named)) == len(named), "a card is stacked twice"
    rest = [card for card in ALL_CARDS if card not in named]
    dealt = []
    for round_number in range(3):
        for offset in range(1, players + 1):
            hand = hands[(dealer + offset) % players]
            dealt.append(hand[round_number] if round_number < len(hand) else rest.pop(0))
    if drain is not None:
        winners, size, leader = drain
        rest = winning_groups(rest, winners, size, players, leader)
    return [*removed, *dealt, *stock, *rest, *tail, *([last] if last else [])]


def deal(game_rules: str | Rules, hands: Sequence[Sequence[str]], *, dealer: int | None = None,
         **stacking: object) -> Game:
    deck = stack(hands, dealer=dealer, **stacking)  # type: ignore[arg-type]
    return Game.new(game_rules, len(hands), deck=deck, dealer=dealer)


def play(game: Game, *actions: str) -> None:
    for action in actions:
        game.apply(action)


def texts(actions: Sequence[mattis.Action]) -> list[str]:
    return [str(action) for action in actions]


def chance_until(game: Game, stock_size: int) -> None:
    """Chance until the stock holds ``stock_size`` cards: hands stay as dealt."""
    while game.stock_size > stock_size:
        game.apply("chance")


def play_drawn_until(game: Game, keep: Sequence[Sequence[str]], stock_size: int) -> None:
    """``after_trick`` drawing: every player plays the one card not in ``keep`` (their dealt
    spare card first, then the card they drew), until the stock holds ``stock_size`` cards."""
    while game.phase == "collect" and game.stock_size > stock_size:
        seat = game.to_move
        assert seat is not None
        spare = [card for card in game.hand(seat) if card not in keep[seat]]
        assert len(spare) == 1, (seat, game.hand(seat))
        game.apply(spare[0])


def kinds(game: Game) -> list[str]:
    return [kind for kind, _, _ in events(game)]


def assert_52(game: Game) -> None:
    assert sum(game.card_locations().values()) == 52


def has_events(game: Game, *expected: tuple[str, int | None, int]) -> bool:
    """Whether ``expected`` happened one right after the other."""
    history = events(game)
    return any(history[i:i + len(expected)] == list(expected) for i in range(len(history)))


# ---------------------------------------------------------------------- C1 cards


@pytest.mark.parametrize("preset", PRESETS)
def test_c1_one_pack_of_52_distinct_cards(preset: str) -> None:
    """C1: one 52-card pack, no jokers; a deck must hold each card exactly once."""
    game = Game.new(preset, 3, seed=11)
    assert game.card_locations()["hands"] == 9
    assert game.card_locations()["stock"] == 43
    assert_52(game)
    with pytest.raises(ValueError, match="52"):
        Game.new(preset, 3, deck=ALL_CARDS[:51])
    with pytest.raises(ValueError, match="twice"):
        Game.new(preset, 3, deck=[*ALL_CARDS[:51], "2c"])
    with pytest.raises(ValueError, match="malformed"):
        Game.new(preset, 3, deck=[*ALL_CARDS[:51], "Jk"])


@pytest.mark.parametrize("low", range(12), ids=lambda i: f"{RANKS[i]}<{RANKS[i + 1]}")
def test_c1_ranks_two_low_to_ace_high(low: int) -> None:
    """C1: ranks 2 3 4 5 6 7 8 9 10 J Q K A from low to high (a pair trick of neighbours)."""
    lower, higher = RANKS[low] + "s", RANKS[low + 1] + "c"
    for first, second, winner in ((higher, lower, 0), (lower, higher, 1)):
        game = deal("kortregler", [[first], [second], []])
        play(game, first, second)
        assert game.won(winner) == cards(lower, higher)
        assert game.won(1 - winner) == []
        assert game.leader == winner


@pytest.mark.parametrize("preset", ["pagat", "app"])
def test_c1_ace_beats_king_and_ten_beats_nine(preset: str) -> None:
    """C1: the ace is the highest rank and the two the lowest; "10" is the rank above 9."""
    game = deal(preset, [["2h", "Th"], ["Ah", "9d"], ["Kh", "3d"]], last="Qs")
    play(game, "2h", "Ah", "Kh")
    assert game.won(1) == cards("2h", "Kh", "Ah")
    play(game, "9d", "3d", "10h")  # seat 1 leads now; "10h" is the ten of hearts
    assert game.won(0) == cards("3d", "9d", "Th")
    assert game.leader == 0


# ---------------------------------------------------------------------- C2 seats


@pytest.mark.parametrize(
    ("preset", "players"),
    [(name, n) for name in PRESETS for n in range(Rules.preset(name).min_players, 7)],
)
def test_c2_default_dealer_is_last_seat_so_seat_0_plays_first(preset: str, players: int) -> None:
    """C2: seats 0…n-1; the dealer defaults to the last seat, so seat 0 plays first."""
    game = Game.new(preset, players, seed=3)
    assert game.dealer == players - 1
    assert game.to_move == 0
    assert game.leader == 0


@pytest.mark.parametrize("preset", ["pagat", "app"])
def test_c2_play_goes_clockwise_round_the_seats(preset: str) -> None:
    """C2: seats are numbered clockwise; with dealer 1 of 4, play runs 2, 3, 0, 1."""
    game = deal(preset, [["2c"], ["5d"], ["9h"], ["Js"]], dealer=1)
    order = []
    for card in ("9h", "Js", "2c", "5d"):
        order.append(game.to_move)
        game.apply(card)
    assert order == [2, 3, 0, 1]
    assert game.won(3) == cards("2c", "5d", "9h", "Js")


@pytest.mark.parametrize("dealer", [-1, 3])
def test_c2_dealer_must_be_a_seat(dealer: int) -> None:
    """C2: the dealer is one of the seats."""
    with pytest.raises(ValueError, match="dealer"):
        Game.new("pagat", 3, deck=ALL_CARDS, dealer=dealer)


# ---------------------------------------------------------------------- C3 dealing


@pytest.mark.parametrize(
    ("preset", "players", "dealer"),
    [(name, n, d) for name in PRESETS for n in (3, 4, 6) for d in (0, 1, n - 1)],
)
def test_c3_deal_one_card_at_a_time_clockwise_left_of_dealer(preset: str, players: int,
                                                            dealer: int) -> None:
    """C3: one card at a time, clockwise, starting left of the dealer, three rounds."""
    game = Game.new(preset, players, deck=ALL_CARDS, dealer=dealer)
    for offset in range(players):
        seat = (dealer + 1 + offset) % players
        dealt = [ALL_CARDS[round_number * players + offset] for round_number in range(3)]
        assert game.hand(seat) == cards(*dealt)
    assert game.stock_size == 52 - 3 * players
    assert game.to_move == (dealer + 1) % players


def test_c3_worked_deal_four_players_dealer_1() -> None:
    """C3: with the sorted pack, dealer 1 of 4: seat 2 gets the 1st, 5th and 9th card."""
    game = Game.new("pagat", 4, deck=ALL_CARDS, dealer=1)
    assert game.hand(2) == ["2c", "6c", "Tc"]
    assert game.hand(3) == ["3c", "7c", "Jc"]
    assert game.hand(0) == ["4c", "8c", "Qc"]
    assert game.hand(1) == ["5c", "9c", "Kc"]
    assert game.stock_size == 40


@pytest.mark.parametrize("preset", ["pagat", "kortregler"])
def test_c3_stock_keeps_deck_order_top_drawn_first(preset: str) -> None:
    """C3: the rest of the pack is the stock in order; its top is the next card drawn."""
    game = Game.new(preset, 3, deck=ALL_CARDS)
    assert game.hand(0) == ["2c", "5c", "8c"]
    assert game.hand(1) == ["3c", "6c", "9c"]
    assert game.hand(2) == ["4c", "7c", "Tc"]
    game.apply("8c")  # seat 0 plays, then draws the stock's top card, the jack of clubs
    assert game.hand(0) == ["2c", "5c", "Jc"]
    game.apply("chance")  # seat 1 turns the next card, the queen of clubs
    assert events(game)[1] == ("chance", 1, mask("Qc"))
    if preset == "pagat":
        assert game.table == [(0, ["8c"]), (1, ["Qc"])]
    else:  # the pair trick is over: the queen beats the eight
        assert game.won(1) == ["8c", "Qc"]
    assert game.stock_size == 41


def test_c3_app_stock_bottom_card_is_the_deck_last_card() -> None:
    """C3 with P1.6 bottom_up: the stock's last card is the deck's last card (face up)."""
    game = Game.new("app", 3, deck=ALL_CARDS)
    assert game.trump_card == "As"
    assert game.trump == "s"
    play(game, "2c", "3c", "4c")  # seat 2 wins and draws first: Jc, then 0 and 1 (P1.4a)
    assert game.hand(2) == ["7c", "Tc", "Jc"]
    assert game.hand(0) == ["5c", "8c", "Qc"]
    assert game.hand(1) == ["6c", "9c", "Kc"]


# ---------------------------------------------------------------------- C4 two players


def test_c4_two_players_remove_ten_cards() -> None:
    """C4 (kortregler): with two players the top 10 cards are put away unseen before the deal."""
    game = Game.new("kortregler", 2, deck=ALL_CARDS)
    removed = ALL_CARDS[:10]
    assert game.dealer == 1
    assert game.hand(0) == ["Qc", "Ac", "3d"]  # deck[10], deck[12], deck[14]
    assert game.hand(1) == ["Kc", "2d", "4d"]
    assert game.stock_size == 52 - 10 - 6
    assert game.card_locations()["removed"] == 10
    assert game.view(0)["removed_count"] == 10
    assert_52(game)
    game.apply("3d")
    assert game.hand(0) == ["Qc", "Ac", "5d"]  # the first card drawn is deck[16]
    while game.phase == "collect":
        game.apply(game.legal_actions()[0])
    assert game.card_locations()["removed"] == 10
    assert all(seen & mask(*removed) == 0 for _, _, seen in events(game))
    for seat in range(2):
        assert not set(game.hand(seat)) & set(removed)
    assert_52(game)


def test_c4_no_cards_removed_with_three_players() -> None:
    """C4: only a two-player deal loses cards; three kortregler players use the whole pack."""
    game = Game.new("kortregler", 3, deck=ALL_CARDS)
    assert game.hand(0) == ["2c", "5c", "8c"]
    assert game.stock_size == 43
    assert game.card_locations()["removed"] == 0


@pytest.mark.parametrize("preset", ["pagat", "app"])
def test_c4_two_players_only_in_kortregler(preset: str) -> None:
    """C4 / section 4: pagat and app are for 3-6 players; a pagat mix for two removes nothing."""
    with pytest.raises(ValueError, match="players"):
        Game.new(preset, 2, deck=ALL_CARDS)
    game = Game.new(rules(preset, min_players=2), 2, deck=ALL_CARDS)
    assert game.hand(0) == ["2c", "4c", "6c"]
    assert game.card_locations()["removed"] == 0
    assert game.stock_size == 46


def test_c4_removed_count_is_the_option_value() -> None:
    """C4 / section 4: ``removed_two_player`` sets how many cards two players put away."""
    game = Game.new(rules("kortregler", removed_two_player=4), 2, deck=ALL_CARDS)
    assert game.hand(0) == ["6c", "8c", "Tc"]
    assert game.card_locations()["removed"] == 4
    assert game.stock_size == 52 - 4 - 6


# ---------------------------------------------------------------------- P1.1 leading


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_p1_1_player_left_of_dealer_leads_first_trick(preset: str, dealer: int) -> None:
    """P1.1: the player left of the dealer leads the first trick."""
    game = Game.new(preset, 3, seed=5, dealer=dealer)
    assert game.leader == (dealer + 1) % 3
    assert game.to_move == (dealer + 1) % 3


@pytest.mark.parametrize("preset", ["pagat", "app"])
def test_p1_1_winner_takes_trick_into_won_pile_and_leads_next(preset: str) -> None:
    """P1.1: the trick goes to the winner's face-down won pile; the winner leads the next trick."""
    game = deal(preset, [["5c", "2d", "3d"], ["Kd", "4h", "6h"], ["9h", "Ts", "Js"]],
                stock=["2s", "3s", "4s"], last="Qs")
    play(game, "5c", "Kd", "9h")
    assert game.won(1) == cards("5c", "Kd", "9h")
    assert game.won(0) == [] and game.won(2) == []
    assert game.leader == 1 and game.to_move == 1
    assert game.table == []
    assert events(game) == [("play", 0, mask("5c")), ("play", 1, mask("Kd")),
                            ("play", 2, mask("9h")), ("won", 1, mask("5c", "9h", "Kd"))]
    # The won cards are not played again in phase 1: nobody holds them.
    for seat in range(3):
        assert not set(game.hand(seat)) & {"5c", "Kd", "9h"}
    assert game.hand(1) == cards("4h", "6h", "3s" if preset == "pagat" else "2s")
    game.apply("4h")
    assert game.to_move == 2


def test_p1_1_kortregler_winner_leads_next_pair_trick() -> None:
    """P1.1 with P1.2 pair: the winner of a pair trick leads the next one."""
    game = deal("kortregler", [["5c", "2d", "3d"], ["Kd", "4h", "6h"], ["9h", "Ts", "Js"]])
    play(game, "5c", "Kd")
    assert game.won(1) == cards("5c", "Kd")
    assert game.leader == 1 and game.to_move == 1
    assert game.hand(2) == cards("9h", "Ts", "Js")
    game.apply("4h")
    assert game.to_move == 2


# ---------------------------------------------------------------------- P1.2 who plays


@pytest.mark.parametrize("preset", ["pagat", "app"])
def test_p1_2_all_every_player_plays_one_card_clockwise_from_leader(preset: str) -> None:
    """P1.2 all (pagat, app): every player plays one card, clockwise from the leader."""
    game = deal(preset, [["2c", "3c", "4c"], ["Ad", "5d", "6d"], ["7h", "8h", "9h"]], dealer=0,
                last="Qs")
    assert game.to_move == 1
    game.apply("Ad")
    assert game.to_move == 2
    game.apply("7h")
    assert game.to_move == 0
    assert game.table == [(1, ["Ad"]), (2, ["7h"])]
    expected = ["2c", "3c", "4c"] + (["chance"] if preset == "pagat" else [])
    assert texts(game.legal_actions()) == expected
    game.apply("4c")
    assert game.won(1) == cards("4c", "Ad", "7h")
    assert game.to_move == 1


def test_p1_2_pair_only_leader_and_left_neighbour_play() -> None:
    """P1.2 pair (kortregler): only the leader and the left neighbour play; the winner then
    plays to their own left neighbour, round the table."""
    game = deal("kortregler", [["9c", "2c", "8h"], ["3c", "Kc", "4d"], ["Ad", "5h", "7s"],
                               ["Qh", "2s", "3s"]])
    play(game, "9c")
    assert game.to_move == 1
    play(game, "3c")
    assert game.won(0) == cards("3c", "9c") and game.to_move == 0
    play(game, "2c", "Kc")
    assert game.won(1) == cards("Kc", "2c") and game.to_move == 1
    play(game, "4d")
    assert game.to_move == 2
    play(game, "Ad")
    assert game.won(2) == cards("4d", "Ad")
    play(game, "5h")
    assert game.to_move == 3
    play(game, "Qh")
    assert game.won(3) == cards("5h", "Qh")
    play(game, "2s")
    assert game.to_move == 0  # seat 3's left neighbour is seat 0
    assert game.table == [(3, ["2s"])]


def kortregler_four_player_endgame() -> Game:
    """Kortregler, 4 players: 19 pair tricks chanced away (seat 0 wins them all), then seat 0
    chances the king of hearts with one card left in the stock, hands still as dealt."""
    hands = [["Ac", "Kc", "5c"], ["2d", "3d", "4d"], ["Qs", "6s", "7s"], ["8s", "9s", "Ts"]]
    game = deal("kortregler", hands, tail=["Kh"], last="Jh", drain=([0] * 19, 2, 0))
    chance_until(game, 1)
    assert [game.hand(seat) for seat in range(4)] == [cards(*hand) for hand in hands]
    assert game.table == [(0, ["Kh"])] and game.to_move == 1
    return game


def test_p1_2_pair_leader_plays_to_next_player_with_something() -> None:
    """P1.2 pair / P1.7 one_left Decision: the leader plays to the next player on the left
    who has something to play, skipping an empty neighbour."""
    game = kortregler_four_player_endgame()
    play(game, "2d")  # seat 1 plays from hand and puts the reserved card aside (P1.6)
    assert game.trump_holder == 1 and game.stock_size == 0
    play(game, "Ac", "3d", "Kc", "4d")  # seat 0 wins both; seat 1 is now empty
    assert game.hand(1) == []
    assert game.leader == 0
    play(game, "5c")
    assert game.to_move == 2  # seat 1 has nothing: seat 0 plays to seat 2
    assert game.table == [(0, ["5c"])]
    play(game, "Qs")
    assert game.won(2) == cards("5c", "Qs")
    assert game.leader == 2 and game.to_move == 2
    play(game, "6s")
    assert game.to_move == 3


# ---------------------------------------------------------------------- P1.3 rank only


@pytest.mark.parametrize("preset", PRESETS)
def test_p1_3_only_rank_counts_no_trump_no_following_suit(preset: str) -> None:
    """P1.3: only rank counts; a spade (the app's known trump suit) loses to a higher club,
    and a player holding the led suit may still play any card."""
    game = deal(preset, [["8s", "2c", "3c"], ["9c", "2s", "3s"], ["4h", "5h", "6h"]], last="Qs")
    if preset == "app":
        assert game.trump == "s"
    game.apply("8s")
    hand = ["9c", "2s", "3s"]
    expected = hand + ([] if preset == "app" else ["chance"])
    assert texts(game.legal_actions()) == expected
    game.apply("9c")
    if preset != "kortregler":
        game.apply("4h")
    won = cards("8s", "9c", *([] if preset == "kortregler" else ["4h"]))
    assert game.won(1) == won
    assert game.leader == 1


# ---------------------------------------------------------------------- P1.4 chancing


@pytest.mark.parametrize("preset", ["pagat", "kortregler"])
def test_p1_4_chance_turns_top_of_stock_and_plays_it(preset: str) -> None:
    """P1.4: chancing plays the stock's top card directly; it is never kept in hand."""
    game = deal(preset, [["2c", "3c", "4c"], ["2d", "3d", "4d"], ["2h", "3h", "4h"]],
                stock=["Ah", "Kh"])
    assert "chance" in texts(game.legal_actions())
    game.apply("chance")
    assert game.table == [(0, ["Ah"])]
    assert game.hand(0) == ["2c", "3c", "4c"]  # no draw after a chance (P1.4a)
    assert game.stock_size == 42
    assert events(game) == [("chance", 0, mask("Ah"))]
    game.apply("2d")
    if preset == "pagat":
        game.apply("2h")
    assert "Ah" in game.won(0)
    assert "Ah" not in game.hand(0)
    assert game.hand(1) == ["3d", "4d", "Kh"]  # seat 1 played from hand and drew the next card


def test_p1_4_app_does_not_allow_chancing() -> None:
    """P1.4 / section 4: the app preset has no chancing; trying leaves the game unchanged."""
    game = deal("app", [["2c", "3c", "4c"], [], []])
    assert texts(game.legal_actions()) == ["2c", "3c", "4c"]
    with pytest.raises(IllegalAction, match="not allowed"):
        game.apply("chance")
    assert game.hand(0) == ["2c", "3c", "4c"]
    assert game.stock_size == 43 and events(game) == [] and game.to_move == 0


def test_p1_4_chance_allowed_in_a_replay_tie() -> None:
    """P1.4 with P1.5 replay: a tied player may chance the card they replay."""
    game = deal("pagat", [["Kc", "2c", "3c"], ["8d"], ["Kh", "4h", "5h"]],
                stock=["6s", "7s", "8s", "Ad"])
    play(game, "Kc", "8d", "Kh")
    assert game.tie == [0, 2]
    assert texts(game.legal_actions())[-1] == "chance"
    play(game, "chance", "5h")  # seat 0 turns the ace of diamonds
    assert game.won(0) == cards("Kc", "8d", "Kh", "Ad", "5h")
    assert game.hand(0) == cards("2c", "3c", "6s")


def test_p1_4_chance_allowed_in_a_two_card_war() -> None:
    """P1.4 with P1.5 two_cards: new war cards may be chanced."""
    game = deal("kortregler", [["Kc", "2c", "3c"], ["Kd", "4d", "5d"], []],
                stock=["6s", "7s", "Ah", "9s"])
    play(game, "Kc", "Kd")
    assert game.tie == [0, 1]
    assert "chance" in texts(game.legal_actions())
    play(game, "chance", "4d", "2c", "5d")  # seat 0 turns the ace of hearts
    assert game.won(0) == cards("Kc", "Kd", "Ah", "4d", "2c", "5d")


def test_p1_4_no_chancing_for_any_match_battle_cards() -> None:
    """P1.4: any_match battle cards come from the hand, even where chancing is on (app mix)."""
    game = deal(rules("app", chance=True), [["5c", "3c", "4c"], ["Ad"], ["5h", "9h", "2h"]])
    assert "chance" in texts(game.legal_actions())
    play(game, "5c", "Ad", "5h")
    assert game.tie == [0, 2]
    assert texts(game.legal_actions()) == ["3c", "4c"]
    with pytest.raises(IllegalAction, match="battle"):
        game.apply("chance")
    play(game, "3c", "9h")
    assert game.won(2) == cards("5c", "3c", "Ad", "5h", "9h")


@pytest.mark.parametrize(("game_rules", "size"), [
    ("pagat", 3), ("kortregler", 2), (rules("app", chance=True), 3),
], ids=["pagat", "kortregler", "app-chance"])
def test_p1_4_stock_last_card_is_never_chanced(game_rules: str | Rules, size: int) -> None:
    """P1.4 Decision: the stock's last card (reserved or face up) is never chanced, so chancing
    needs at least two cards in the stock."""
    tricks = 42 // size
    game = deal(game_rules, [[], [], []], last="Qs", drain=([0] * tricks, size, 0))
    chance_until(game, 2)
    assert "chance" in texts(game.legal_actions())
    game.apply("chance")
    assert game.stock_size == 1
    assert game.phase == "collect" and game.table == [] and game.leader == 0
    assert "chance" not in texts(game.legal_actions())
    before = (game.hand(0), game.stock_size, len(events(game)))
    with pytest.raises(IllegalAction, match="last card"):
        game.apply("chance")
    assert (game.hand(0), game.stock_size, len(events(game))) == before


# ---------------------------------------------------------------------- P1.4a drawing


@pytest.mark.parametrize("preset", ["pagat", "kortregler"])
def test_p1_4a_after_play_draw_at_once_hands_stay_at_three(preset: str) -> None:
    """P1.4a after_play: a player who played from hand draws at once; a chancer does not."""
    game = deal(preset, [["5c", "2c", "3c"], ["9d", "2d", "3d"], ["4h", "5h", "6h"]],
                stock=["Js", "Qs", "Ks"])
    game.apply("5c")
    assert game.hand(0) == cards("2c", "3c", "Js")  # drawn before the trick is over
    assert game.to_move == 1
    game.apply("chance")  # plays the queen of spades; seat 1 keeps its hand
    assert game.hand(1) == ["2d", "3d", "9d"]
    assert game.stock_size == 41
    if preset == "pagat":
        game.apply("6h")
        assert game.hand(2) == cards("4h", "5h", "Ks")
        assert game.won(1) == cards("5c", "6h", "Qs")
    else:
        assert game.won(1) == cards("5c", "Qs")


def test_p1_4a_after_trick_winner_draws_first_then_clockwise() -> None:
    """P1.4a after_trick (app): hands shrink during the trick; then the winner first and the
    others clockwise draw up to 3."""
    game = deal("app", [["5c", "2c", "3c"], ["Kd", "2d", "3d"], ["9h", "2h", "3h"]],
                stock=["4s", "5s", "6s", "7s"])
    play(game, "5c", "Kd")
    assert game.hand(0) == ["2c", "3c"] and game.hand(1) == ["2d", "3d"]
    game.apply("9h")
    assert game.hand(1) == cards("2d", "3d", "4s")
    assert game.hand(2) == cards("2h", "3h", "5s")
    assert game.hand(0) == cards("2c", "3c", "6s")
    assert game.stock_size == 40


def test_p1_4a_after_trick_refills_to_three_after_a_war() -> None:
    """P1.4a after_trick: after a war the winner draws back up to 3 first, then clockwise."""
    game = deal("app", [["5c", "3c", "4c"], ["Ad", "2d", "3d"], ["5h", "9h", "2h"]],
                stock=["4s", "5s", "6s", "7s", "8s"])
    play(game, "5c", "Ad", "5h", "3c", "9h")
    assert game.won(2) == cards("5c", "3c", "Ad", "5h", "9h")
    assert game.hand(2) == cards("2h", "4s", "5s")
    assert game.hand(0) == cards("4c", "6s", "7s")
    assert game.hand(1) == cards("2d", "3d", "8s")
    assert game.to_move == 2


# ---------------------------------------------------------------------- P1.5 replay (pagat)


def test_p1_5_replay_tied_players_replay_seed_example() -> None:
    """P1.5 replay, seed 001 example: Anne K, Bjørn 8, Cecilie K; Anne and Cecilie replay,
    Anne 4, Cecilie J: Cecilie takes all five cards and leads next."""
    anne, bjorn, cecilie = 0, 1, 2
    game = deal("pagat", [["Kc", "4c", "2s"], ["8d", "3s", "4s"], ["Kh", "Jh", "5s"]])
    play(game, "Kc", "8d", "Kh")
    assert game.tie == [anne, cecilie]
    assert game.to_move == anne
    game.apply("4c")
    assert game.to_move == cecilie  # Bjørn is not in the tie
    assert game.table == [(0, ["Kc"]), (1, ["8d"]), (2, ["Kh"]), (0, ["4c"])]
    game.apply("Jh")
    assert game.won(cecilie) == cards("Kc", "8d", "Kh", "4c", "Jh")
    assert game.won(anne) == [] and game.won(bjorn) == []
    assert game.tie == [] and game.table == []
    assert game.leader == cecilie and game.to_move == cecilie


def test_p1_5_replay_keeps_relative_order_from_the_leader() -> None:
    """P1.5 replay: the tied players replay in the same relative order (leader first)."""
    game = deal("pagat", [["Kc", "2c"], ["Kd", "Ad"], ["8h"]], dealer=0)
    play(game, "Kd", "8h", "Kc")  # seat 1 leads
    assert game.tie == [1, 0]
    assert game.to_move == 1
    game.apply("Ad")
    assert game.to_move == 0
    game.apply("2c")
    assert game.won(1) == cards("Kc", "2c", "Kd", "Ad", "8h")


def test_p1_5_replay_new_tie_repeats_among_only_those_players() -> None:
    """P1.5 replay: a new tie at the top repeats among only the players who share it."""
    game = deal("pagat", [["Qc", "9c", "Ac"], ["Qd", "2d"], ["Qh", "9h", "7h"], ["3s"]])
    play(game, "Qc", "Qd", "Qh", "3s")
    assert game.tie == [0, 1, 2]
    play(game, "9c", "2d", "9h")
    assert game.tie == [0, 2]
    assert game.to_move == 0
    game.apply("Ac")
    assert game.to_move == 2
    game.apply("7h")
    assert game.won(0) == cards("Qc", "9c", "Ac", "Qd", "2d", "Qh", "9h", "7h", "3s")
    assert game.leader == 0


def test_p1_5_replay_equal_lower_ranks_make_no_tie() -> None:
    """P1.5 replay: only a tie for the highest rank is replayed; equal lower ranks do not count."""
    game = deal("pagat", [["5c"], ["5d"], ["9h"]])
    play(game, "5c", "5d", "9h")
    assert game.tie == []
    assert game.won(2) == cards("5c", "5d", "9h")
    assert game.leader == 2


# ---------------------------------------------------------------------- P1.5 two_cards (kortregler)


def test_p1_5_two_cards_alternately_leader_first_higher_new_card_wins() -> None:
    """P1.5 two_cards Decision: both play two new cards, alternately, leader first; the one
    whose higher new card is higher takes every card of the trick."""
    game = deal("kortregler", [["Kc", "Ac", "2c"], ["Kd", "Jd", "Qd"], ["5h"]])
    play(game, "Kc", "Kd")
    assert game.tie == [0, 1]
    order = []
    for card in ("Ac", "Jd", "2c", "Qd"):
        order.append(game.to_move)
        game.apply(card)
    assert order == [0, 1, 0, 1]
    # Ace beats queen, though seat 1's second card (Q) beats seat 0's (2).
    assert game.won(0) == cards("Kc", "Ac", "2c", "Kd", "Jd", "Qd")
    assert game.won(1) == []
    assert "5h" in game.hand(2)
    assert all(seat != 2 for _, seat, _ in events(game))  # seat 2 took no part
    assert game.leader == 0


def test_p1_5_two_cards_equal_higher_new_cards_go_again() -> None:
    """P1.5 two_cards Decision: if the higher new cards are equal, two more each."""
    game = deal("kortregler", [["Kc", "9c", "3c"], ["Kd", "4d", "9d"], []],
                stock=["2h", "5h", "7h", "6h", "As", "3h"])
    play(game, "Kc", "Kd", "9c", "4d", "3c", "9d")
    assert game.tie == [0, 1]
    assert game.to_move == 0
    assert game.hand(0) == cards("2h", "7h", "As")
    assert game.hand(1) == cards("5h", "6h", "3h")
    play(game, "2h", "5h", "As", "6h")
    assert game.won(0) == cards("Kc", "9c", "3c", "Kd", "4d", "9d", "2h", "5h", "As", "6h")
    assert game.tie == []


# ---------------------------------------------------------------------- P1.5 any_match (app)


def test_p1_5_any_match_repeated_rank_goes_to_war_even_below_higher_single() -> None:
    """P1.5 any_match Decision: a repeated rank goes to war even if a higher single card lies
    there; the highest battle card takes the whole table."""
    game = deal("app", [["5c", "3c", "4c"], ["Ad", "2d", "3d"], ["5h", "9h", "2h"]])
    play(game, "5c", "Ad", "5h")
    assert game.tie == [0, 2]
    assert game.to_move == 0
    assert texts(game.legal_actions()) == ["3c", "4c"]
    game.apply("3c")
    assert game.to_move == 2
    game.apply("9h")
    assert game.won(2) == cards("5c", "3c", "Ad", "5h", "9h")
    assert game.won(1) == []
    assert game.leader == 2


def test_p1_5_any_match_highest_repeated_rank_goes_to_war() -> None:
    """P1.5 any_match: with two repeated ranks, the players of the highest one go to war."""
    game = deal("app", [["5c"], ["5d"], ["9h", "2h"], ["9s", "3s"]])
    play(game, "5c", "5d", "9h", "9s")
    assert game.tie == [2, 3]
    play(game, "2h", "3s")
    assert game.won(3) == cards("5c", "5d", "9h", "2h", "9s", "3s")


def test_p1_5_any_match_no_repeated_rank_highest_card_wins() -> None:
    """P1.5 any_match: with no repeated rank the highest card wins at once."""
    game = deal("app", [["5c"], ["Ad"], ["9h"]])
    play(game, "5c", "Ad", "9h")
    assert game.tie == []
    assert game.won(1) == cards("5c", "Ad", "9h")


def test_p1_5_any_match_battle_cards_in_seat_order_from_leader() -> None:
    """P1.5 any_match: battle cards are played in seat order from the leader."""
    game = deal("app", [["7c", "2c"], ["7d", "Ad"], ["Kh"]], dealer=0)
    play(game, "7d", "Kh", "7c")  # seat 1 leads
    assert game.tie == [1, 0]
    assert game.to_move == 1
    game.apply("Ad")
    assert game.to_move == 0
    game.apply("2c")
    assert game.won(1) == cards("7c", "2c", "7d", "Ad", "Kh")


def test_p1_5_any_match_equal_highest_battle_cards_start_nested_war() -> None:
    """P1.5 any_match: equal highest battle cards start a nested war among those players."""
    game = deal("app", [["5c", "9c", "3c"], ["5d", "9d", "4d"], ["5h", "2h"], ["As"]])
    play(game, "5c", "5d", "5h", "As")
    assert game.tie == [0, 1, 2]
    play(game, "9c", "9d", "2h")
    assert game.tie == [0, 1]
    assert game.to_move == 0
    play(game, "3c", "4d")
    assert game.won(1) == cards("5c", "9c", "3c", "5d", "9d", "4d", "5h", "2h", "As")
    assert game.leader == 1


def test_p1_5_any_match_equal_lower_battle_cards_make_no_war() -> None:
    """P1.5 any_match: in a battle only the highest battle card counts; lower pairs do not."""
    game = deal("app", [["5c", "9c"], ["5d", "4d"], ["5h", "4h"], ["As"]])
    play(game, "5c", "5d", "5h", "As", "9c", "4d", "4h")
    assert game.tie == []
    assert game.won(0) == cards("5c", "9c", "5d", "4d", "5h", "4h", "As")


# ---------------------------------------------------------------------- unusual combinations


def test_unusual_two_cards_more_than_two_tied_players_one_card_each_per_round() -> None:
    """Section 4 Decision: two_cards with more than two tied players: each plays two new
    cards, one card each per round, in playing order."""
    game = deal(rules("pagat", tie="two_cards"),
                [["Kc", "2c", "Ac"], ["Kd", "Qd", "3d"], ["Kh", "Jh", "4h"]])
    play(game, "Kc", "Kd", "Kh")
    assert game.tie == [0, 1, 2]
    order = []
    for card in ("2c", "Qd", "Jh", "Ac", "3d", "4h"):
        order.append(game.to_move)
        game.apply(card)
    assert order == [0, 1, 2, 0, 1, 2]
    assert game.won(0) == cards("Kc", "2c", "Ac", "Kd", "Qd", "3d", "Kh", "Jh", "4h")


def test_unusual_two_cards_equal_highest_go_again_among_those_only() -> None:
    """Section 4 Decision with P1.5 two_cards: equal higher new cards go again, among only
    the players who share them."""
    game = deal(rules("pagat", tie="two_cards"),
                [["Kc", "Ac", "2c"], ["Kd", "Ad", "3d"], ["Kh", "Qh", "Jh"]],
                stock=[*ALL_CARDS[39:48], "4h", "8h", "7h", "5h"])
    play(game, "Kc", "Kd", "Kh", "Ac", "Ad", "Qh", "2c", "3d", "Jh")
    assert game.tie == [0, 1]
    order = []
    for action in ("chance", "chance", "chance", "chance"):
        order.append(game.to_move)
        game.apply(action)
    assert order == [0, 1, 0, 1]
    # Seat 0 turned 4h and 7h, seat 1 8h and 5h: the eight of hearts is highest.
    assert game.won(1) == cards("Kc", "Ac", "2c", "Kd", "Ad", "3d", "Kh", "Qh", "Jh",
                                "4h", "8h", "7h", "5h")


def test_unusual_two_cards_two_tied_of_three_alternate() -> None:
    """Section 4 Decision: with all-player tricks and two_cards, only the tied players play,
    alternately in playing order."""
    game = deal(rules("pagat", tie="two_cards"), [["Kc", "2c", "3c"], ["5d"], ["Kh", "9h", "Th"]])
    play(game, "Kc", "5d", "Kh")
    assert game.tie == [0, 2]
    order = []
    for card in ("2c", "9h", "3c", "Th"):
        order.append(game.to_move)
        game.apply(card)
    assert order == [0, 2, 0, 2]
    assert game.won(2) == cards("Kc", "2c", "3c", "5d", "Kh", "9h", "Th")


def kortregler_three_player_endgame(game_rules: str | Rules, hands: list[list[str]],
                                    last: str = "Js") -> Game:
    """Kortregler, 3 players: 21 pair tricks chanced away (won by seats 1, 2, then 0), leaving
    the reserved card in the stock, seat 0 to lead and the dealt hands untouched."""
    game = deal(game_rules, hands, last=last, drain=([1, 2] + [0] * 19, 2, 0))
    chance_until(game, 1)
    assert [game.hand(seat) for seat in range(3)] == [cards(*hand) for hand in hands]
    assert [len(game.won(seat)) for seat in range(3)] == [38, 2, 2]
    assert game.to_move == 0 and game.table == []
    return game


@pytest.mark.parametrize("phase1_end", ["no_card", "one_left"])
def test_unusual_pair_trick_with_no_one_to_play_to_is_won_by_its_one_card(phase1_end: str) -> None:
    """Section 4 Decision: a pair trick with no one to play to is won by its one card
    (here with phase1_end=no_card); under one_left (kortregler) phase 1 ends first (P1.7)."""
    game_rules = rules("kortregler", phase1_end=phase1_end)
    game = kortregler_three_player_endgame(
        game_rules, [["Kc", "2c", "3c"], ["5d", "Ad", "4d"], ["Ah", "Kh", "Qh"]])
    play(game, "Kc", "5d", "2c", "Ad", "4d", "Ah", "Kh", "3c")  # seat 2 wins the last two
    if phase1_end == "one_left":
        assert game.phase == "shed"  # only seat 2 could play: no trick is started
        assert "Qh" in game.hand(2)
        assert game.to_move == 0  # the trump holder leads phase 2
        return
    assert game.hand(0) == [] and game.hand(1) == [] and game.hand(2) == ["Qh"]
    assert game.phase == "collect" and game.leader == 2 and game.to_move == 2
    game.apply("Qh")
    won = [event for event in events(game) if event[0] == "won"]
    assert won[-1] == ("won", 2, mask("Qh"))
    assert game.phase == "shed"  # seat 2 must lead again with nothing (P1.7 no_card)
    assert "back" not in kinds(game)


# ---------------------------------------------------------------------- P1.6 trump card


def pagat_endgame(hands: list[list[str]], last: str, *, game_rules: str | Rules = "pagat",
                  stock_size: int = 1, tail: Sequence[str] = ()) -> Game:
    """Pagat, 3 players: tricks chanced away (won by seats 1, 2, then 0) until ``stock_size``
    cards are left; seat 0 leads next, hands as dealt."""
    tricks = (43 - 1 - len(tail)) // 3
    game = deal(game_rules, hands, last=last, tail=tail,
                drain=([1, 2] + [0] * (tricks - 2), 3, 0))
    chance_until(game, stock_size)
    assert [game.hand(seat) for seat in range(3)] == [cards(*hand) for hand in hands]
    return game


@pytest.mark.parametrize("preset", ["pagat", "kortregler"])
def test_p1_6_hidden_last_reserved_card_put_aside_unseen(preset: str) -> None:
    """P1.6 hidden_last: the stock's last card is reserved; whoever would draw it puts it
    aside unseen and does not draw it; from then on nobody draws; the trump stays unknown."""
    hands = [["2c", "5c", "7c"], ["Ad", "Kd", "Qd"], ["3h", "4h", "6h"]]
    if preset == "pagat":
        game = pagat_endgame(hands, "Js")
    else:
        game = kortregler_three_player_endgame("kortregler", hands)
    assert game.stock_size == 1  # the reserved card still counts
    assert game.trump is None and game.trump_card is None and game.trump_holder is None
    assert game.card_locations()["stock"] == 1
    game.apply("2c")
    assert events(game)[-2:] == [("play", 0, mask("2c")), ("aside", 0, 0)]
    assert game.trump_holder == 0
    assert game.stock_size == 0
    assert game.hand(0) == ["5c", "7c"]
    assert game.card_locations()["aside"] == 1
    assert game.trump is None and game.trump_card is None
    for seat in range(3):
        view = game.view(seat)
        assert view["trump"] is None and view["trump_card"] is None
        assert view["trump_holder"] == 0
        assert "Js" not in view["hand"] and "Js" not in game.won(seat)
    game.apply("Ad")
    assert game.hand(1) == cards("Kd", "Qd")  # nobody draws any more
    assert_52(game)


def test_p1_6_hidden_trump_revealed_when_phase_2_begins_and_joins_holder() -> None:
    """P1.6 / P1.9 / P1.7 no_card (pagat): phase 1 ends when the leader has nothing; the
    reserved card is turned, sets the trump suit and joins its holder's hand."""
    hands = [["2c", "5c", "7c"], ["Ad", "Kd", "Qd"], ["3h", "4h", "6h"]]
    game = pagat_endgame(hands, "Js")
    won_before = [game.won(seat) for seat in range(3)]
    play(game, "2c", "Ad", "3h")  # seat 0 puts the reserved card aside
    play(game, "Kd", "4h", "5c", "Qd", "6h", "7c")  # seat 1 wins everything
    assert game.phase == "shed"  # seat 1 would lead, with nothing to play
    assert "back" not in kinds(game)
    assert ("reveal", 0, mask("Js")) in events(game)
    assert game.trump == "s" and game.trump_card == "Js"
    assert game.hand(0) == cards(*won_before[0], "Js")
    assert game.hand(1) == cards(*won_before[1], *hands[0], *hands[1], *hands[2])
    assert game.hand(2) == won_before[2]
    assert all(game.won(seat) == [] for seat in range(3))
    assert game.to_move == 0  # the trump holder leads phase 2 (P2.1), not seat 1
    assert_52(game)


def test_p1_6_bottom_up_trump_known_to_all_from_the_start() -> None:
    """P1.6 bottom_up (app): the stock's bottom card is face up at the deal: trump known."""
    game = deal("app", [[], [], []], last="7d")
    assert game.trump == "d" and game.trump_card == "7d"
    assert game.stock_size == 43
    assert game.trump_holder is None
    for seat in range(3):
        assert game.view(seat)["trump"] == "d"
        assert game.view(seat)["trump_card"] == "7d"


APP_HANDS = [["7c", "2c", "3c"], ["Qd", "4d", "5d"], ["8h", "Ah", "Kh"]]
APP_KEEP = [["2c", "3c"], ["4d", "5d"], ["Ah", "Kh"]]


def app_endgame(phase1_end: str = "no_card") -> Game:
    """App, 3 players: 15 tricks in which everyone plays their spare card, then the card they
    drew (seat 1 wins the first, seat 2 the second, seat 0 the rest), until seat 0 draws the
    stock's face-up last card, the two of spades."""
    game = deal(rules("app", phase1_end=phase1_end), APP_HANDS, last="2s",
                drain=([2] + [0] * 13, 3, 1))
    play_drawn_until(game, APP_KEEP, 0)
    return game


@pytest.mark.parametrize("phase1_end", ["no_card", "stock_empty"])
def test_p1_6_bottom_up_last_card_drawn_normally_by_the_trick_winner(phase1_end: str) -> None:
    """P1.6 bottom_up / P1.4a: the face-up last card is drawn normally, by the winner who
    draws first; the others get nothing more; everyone sees who took it."""
    game = app_endgame(phase1_end)
    draws = [event for event in events(game) if event[0] == "draw_trump"]
    assert draws == [("draw_trump", 0, mask("2s"))]
    public = {"event": "draw_trump", "seat": 0, "cards": ["2s"]}
    assert all(public in game.view(seat)["history"] for seat in range(3))
    assert game.stock_size == 0
    if phase1_end == "no_card":
        assert game.phase == "collect"
        assert game.hand(0) == cards("2c", "3c", "2s")
        assert game.hand(1) == ["4d", "5d"] and game.hand(2) == cards("Ah", "Kh")
        assert game.to_move == 0
    else:
        assert game.phase == "shed"
        assert "2s" in game.hand(0)
        assert game.to_move == 0  # the player who drew the last card leads phase 2 (P2.1)


# ---------------------------------------------------------------------- P1.7 end of phase 1


def test_p1_7_no_card_ends_phase_1_at_once_mid_trick_p1_8_taken_back() -> None:
    """P1.7 no_card (pagat) with P1.8: phase 1 ends the moment a player who must play has
    nothing, mid-trick; the unfinished trick goes back to whoever played it."""
    hands = [["3c", "Tc", "2c"], ["Qd", "4d", "6d"], ["Qh", "8h", "5h"]]
    game = pagat_endgame(hands, "As")
    won_before = [game.won(seat) for seat in range(3)]
    play(game, "3c", "Qd", "Qh")
    assert game.tie == [1, 2]
    play(game, "4d", "8h")
    assert game.won(2) == cards(*won_before[2], "3c", "Qd", "Qh", "4d", "8h")
    assert game.leader == 2
    play(game, "5h", "Tc", "6d")
    assert game.leader == 0
    game.apply("2c")  # seat 1 must play next and has nothing
    assert game.phase == "shed"
    assert has_events(game, ("back", None, mask("2c")), ("reveal", 0, mask("As")))
    assert game.hand(0) == cards(*won_before[0], "5h", "Tc", "6d", "2c", "As")
    assert game.hand(1) == won_before[1]
    assert game.hand(2) == cards(*won_before[2], "3c", "Qd", "Qh", "4d", "8h")
    assert game.to_move == 0
    assert_52(game)


def test_p1_8_unfinished_tie_taken_back_chanced_cards_included_p1_7_no_card() -> None:
    """P1.7 no_card (pagat) also in the middle of a tie; P1.8: every player takes back the
    cards they put into the unfinished trick, chanced cards included."""
    hands = [["9c", "7c", "3c"], ["9d", "7d", "3d"], ["2s", "3s", "4s"]]
    game = pagat_endgame(hands, "Jh", stock_size=4, tail=["Kc", "Kd", "5h"])
    assert game.to_move == 0 and game.leader == 0
    won_before = [game.won(seat) for seat in range(3)]
    play(game, "chance", "chance", "chance")
    assert game.table == [(0, ["Kc"]), (1, ["Kd"]), (2, ["5h"])]
    assert game.tie == [0, 1]
    assert texts(game.legal_actions()) == ["3c", "7c", "9c"]  # no chancing the last card
    play(game, "9c", "9d", "7c", "7d", "3c", "3d")
    assert game.trump_holder == 0
    assert game.phase == "shed"  # seat 0 must replay again and has nothing
    returned = mask("Kc", "Kd", "5h", "9c", "9d", "7c", "7d", "3c", "3d")
    assert ("back", None, returned) in events(game)
    assert game.hand(0) == cards(*won_before[0], "Kc", *hands[0], "Jh")
    assert game.hand(1) == cards(*won_before[1], "Kd", *hands[1])
    assert game.hand(2) == cards(*won_before[2], "5h", *hands[2])
    assert_52(game)


def test_p1_7_app_preset_plays_hands_out_after_the_stock_is_empty() -> None:
    """P1.7 app-preset Decision (no_card) with P1.9: the stock running out does not end
    phase 1; hands are played out until a player who must play has nothing. The player who
    drew the face-up last card leads phase 2 (P1.6, P2.1), not the last trick's winner."""
    game = app_endgame("no_card")
    assert Rules.preset("app").phase1_end == "no_card"
    won_before = [game.won(seat) for seat in range(3)]
    assert all(won_before)
    play(game, "2c", "4d", "Ah")  # seat 2 wins
    assert game.phase == "collect" and game.leader == 2
    assert game.hand(0) == cards("3c", "2s")  # nobody draws: the stock is empty
    play(game, "Kh", "3c", "5d")  # seat 2 wins again and must lead with nothing
    assert game.phase == "shed"
    assert "back" not in kinds(game)
    assert game.hand(0) == cards(*won_before[0], "2s")  # still in hand (P1.9)
    assert game.hand(1) == won_before[1]
    assert game.hand(2) == cards(*won_before[2], "2c", "4d", "Ah", "Kh", "3c", "5d")
    assert game.trump == "s"
    assert game.to_move == 0
    assert_52(game)


def test_p1_7_stock_empty_app_alternative_ends_after_the_emptying_draw() -> None:
    """P1.7 stock_empty (app's literal text): phase 1 ends as soon as the stock is empty,
    after the drawing that emptied it; hands join the won piles (P1.9)."""
    game = app_endgame("stock_empty")
    assert game.phase == "shed"
    # Nothing happens between the emptying draw and the turn of phase (P1.7 stock_empty).
    assert has_events(game, ("draw_trump", 0, mask("2s")), ("reveal", None, mask("2s")))
    for seat, keep in enumerate(APP_KEEP):
        assert set(keep) <= set(game.hand(seat))
    assert "2s" in game.hand(0)
    # Won piles: seat 1 won trick 0, seat 2 trick 1, seat 0 the other 13 tricks.
    assert [len(game.hand(seat)) for seat in range(3)] == [13 * 3 + 3, 3 + 2, 3 + 2]
    assert all(game.won(seat) == [] for seat in range(3))
    assert game.to_move == 0
    assert_52(game)


@pytest.mark.parametrize("tie", [False, True])
def test_p1_7_stock_empty_waits_for_the_trick_in_progress(tie: bool) -> None:
    """P1.7 stock_empty (pagat mix): the reserved card goes aside mid-trick; phase 1 ends when
    that trick (and any tie in it) is over, not before."""
    hands = [["2c", "3c", "4c"], ["Qd", "5d", "6d"], ["Qh" if tie else "Jh", "8h", "9h"]]
    game = pagat_endgame(hands, "As", game_rules=rules("pagat", phase1_end="stock_empty"))
    won_before = [game.won(seat) for seat in range(3)]
    play(game, "2c")
    assert game.stock_size == 0 and game.trump_holder == 0
    assert game.phase == "collect"
    play(game, "Qd", hands[2][0])
    if tie:
        assert game.phase == "collect" and game.tie == [1, 2]
        play(game, "5d", "8h")
        taken = cards("2c", "Qd", "Qh", "5d", "8h")
        winner = 2
    else:
        taken = cards("2c", "Qd", "Jh")
        winner = 1
    assert game.phase == "shed"
    assert "back" not in kinds(game)
    remaining = [
        [card for card in hand if card not in taken] for hand in hands
    ]
    for seat in range(3):
        extra = taken if seat == winner else []
        trump = ["As"] if seat == 0 else []
        assert game.hand(seat) == cards(*won_before[seat], *remaining[seat], *extra, *trump)
    assert game.to_move == 0


def test_p1_7_one_left_ends_before_a_trick_and_leader_with_nothing_passes_lead() -> None:
    """P1.7 one_left (kortregler): a leader with nothing passes the lead clockwise to the next
    player who has something; phase 1 ends when, before a trick, fewer than two can play."""
    hands = [["2c", "Kc", "5c"], ["Ad", "Kd", "Qd"], ["3h", "4h", "9h"]]
    game = kortregler_three_player_endgame("kortregler", hands)
    won_before = [game.won(seat) for seat in range(3)]
    play(game, "2c", "Ad", "Kd", "3h", "Qd", "4h")  # seat 1 wins three tricks, ends empty
    assert game.hand(1) == [] and game.phase == "collect"
    assert game.to_move == 2 and game.leader == 2  # seat 1 had the lead and nothing to play
    game.apply("9h")
    assert game.to_move == 0
    game.apply("Kc")
    assert game.phase == "shed"  # only seat 0 has a card left
    assert game.hand(0) == cards(*won_before[0], "9h", "Kc", "5c", "Js")
    assert game.hand(1) == cards(*won_before[1], "2c", "Ad", "Kd", "3h", "Qd", "4h")
    assert game.hand(2) == won_before[2]
    assert game.to_move == 0  # the trump holder leads
    assert "back" not in kinds(game)


def test_p1_7_one_left_all_trick_skips_a_player_with_nothing() -> None:
    """P1.7 one_left Decision (pagat mix, 4 players): in an all-player trick a player with
    nothing to play is skipped while two or more can play."""
    hands = [["Ac", "5c", "6c"], ["2d", "3d", "Kd"], ["7d", "Ad", "9s"], ["4s", "5s", "6s"]]
    game = deal(rules("pagat", phase1_end="one_left"), hands, tail=["Kh", "2h", "3h"], last="Jh",
                drain=([0] * 9, 4, 0))
    chance_until(game, 1)
    assert game.table == [(0, ["Kh"]), (1, ["2h"]), (2, ["3h"])] and game.to_move == 3
    play(game, "4s")  # seat 3 puts the reserved card aside
    assert game.trump_holder == 3 and game.leader == 0
    play(game, "Ac", "2d", "7d", "5s", "5c", "3d", "Ad", "6s")
    assert game.hand(3) == [] and game.leader == 2
    game.apply("9s")
    assert game.to_move == 0  # seat 3 is skipped
    game.apply("6c")
    assert game.to_move == 1
    game.apply("Kd")
    assert has_events(game, ("play", 2, mask("9s")), ("play", 0, mask("6c")),
                      ("play", 1, mask("Kd")), ("won", 1, mask("9s", "6c", "Kd")))
    assert game.phase != "collect"  # no one has anything left


# ---------------------------------------------------------------------- P1.7b dropping out


def test_p1_7b_one_left_tied_player_with_nothing_drops_and_other_wins() -> None:
    """P1.7b (kortregler): a tied player with nothing to play drops out; the one left wins the
    trick without playing again; then one_left ends phase 1."""
    hands = [["Kc", "9c", "3c"], ["Kd", "4d", "9d"], ["2h", "3h", "4h"]]
    game = kortregler_three_player_endgame("kortregler", hands)
    won_before = [game.won(seat) for seat in range(3)]
    play(game, "Kc", "Kd", "9c", "4d", "3c", "9d")  # nines tie: go again, seat 0 is empty
    assert has_events(game, ("play", 1, mask("9d")), ("drop", 0, 0),
                      ("won", 1, mask("Kc", "9c", "3c", "Kd", "4d", "9d")))
    assert game.phase == "shed"
    assert game.hand(1) == cards(*won_before[1], "Kc", "9c", "3c", "Kd", "4d", "9d")
    assert game.hand(2) == cards(*won_before[2], *hands[2])


@pytest.mark.parametrize("phase1_end", ["no_card", "stock_empty", "one_left"])
def test_p1_7b_war_empties_a_hand_while_stock_remains(phase1_end: str) -> None:
    """P1.7b: with after_trick drawing a long war can empty a hand while the stock lasts; that
    player drops out (cards stay on the table) and the other takes the trick."""
    game = deal(rules("app", phase1_end=phase1_end),
                [["5c", "7c", "9c"], ["5d", "7d", "9d"], ["Ah", "2h", "3h"]],
                stock=["2s", "3s", "4s", "5s", "6s", "7s", "8s"])
    play(game, "5c", "5d", "Ah", "7c", "7d", "9c", "9d")
    taken = mask("5c", "7c", "9c", "5d", "7d", "9d", "Ah")
    assert events(game)[-2:] == [("drop", 0, 0), ("won", 1, taken)]
    assert game.won(1) == cards("5c", "7c", "9c", "5d", "7d", "9d", "Ah")
    assert game.phase == "collect"
    assert game.hand(1) == cards("2s", "3s", "4s")
    assert game.hand(2) == cards("2h", "3h", "5s")
    assert game.hand(0) == cards("6s", "7s", "8s")
    assert game.to_move == 1


def test_p1_7b_players_drop_one_at_a_time_in_playing_order() -> None:
    """P1.7b: players drop out one at a time in playing order; as soon as one is left in the
    war, that player wins without playing again."""
    game = deal("app", [["5c", "7c", "9c"], ["5d", "7d", "9d"], ["5h", "7h", "9h"],
                        ["As", "2s", "3s"]])
    play(game, "5c", "5d", "5h", "As", "7c", "7d", "7h", "9c", "9d", "9h")
    taken = mask("5c", "7c", "9c", "5d", "7d", "9d", "5h", "7h", "9h", "As")
    assert events(game)[-3:] == [("drop", 0, 0), ("drop", 1, 0), ("won", 2, taken)]
    assert game.leader == 2 and game.to_move == 2


# ---------------------------------------------------------------------- P1.7c stock left over


@pytest.mark.parametrize("game_rules", ["app", rules("pagat", chance=False)],
                         ids=["app", "pagat-no-chance"])
def test_p1_7c_stock_left_when_phase_1_ends_leaves_the_game(game_rules: str | Rules) -> None:
    """P1.7c Decision: if phase 1 ends while the stock has cards, they leave the game unseen;
    the stock's last card still sets the trump suit and leaves too; whoever would lead the
    next phase-1 trick (here: the leader of the unfinished one) leads phase 2.

    Normal play cannot reach this, so the position is set up: seat 2's hand is moved into its
    won pile, and three stock cards become the won piles of seats 0, 1 and 2."""
    game = deal(game_rules, [["2c", "3c", "4c"], ["Ad", "5d", "6d"], ["Kh", "Qh", "Jh"]],
                stock=["7s", "8s", "9s"], dealer=0, last="Td")
    position = game.position()
    assert position.to_move == 1
    emptied = dataclasses.replace(
        position,
        hands=(position.hands[0], position.hands[1], 0),
        won=(mask("7s"), mask("8s"), mask("9s", "Kh", "Qh", "Jh")),
        stock=position.stock[3:],
    )
    game = Game.from_position(emptied)
    game.apply("Ad")  # seat 1 leads; seat 2 must play and has nothing
    assert game.phase == "shed"
    assert game.card_locations()["removed"] == 40 - (1 if game.rules.draw == "after_play" else 0)
    assert game.trump == "d" and game.trump_card == "Td"
    assert game.trump_holder is None
    assert all("Td" not in game.hand(seat) for seat in range(3))
    assert "Ad" in game.hand(1)
    assert game.to_move == 1
    assert_52(game)


def test_p1_7c_stock_left_at_a_trick_start_next_leader_leads_phase_2() -> None:
    """P1.7c Decision with P1.7 one_left and the single-card trick Decision (kortregler mix
    without chancing): phase 1 ends before a trick with the stock still full; the player who
    would lead that trick leads phase 2, and the stock (its last card too) leaves the game.

    Set-up position: seats 0 and 2 hold no hand (their cards moved to their won piles), so
    seat 1 leads a pair trick with no one to play to."""
    game = deal(rules("kortregler", chance=False),
                [["2c", "3c", "4c"], ["Ad", "5d", "6d"], ["Kh", "Qh", "Jh"]], stock=["2s"],
                dealer=0, last="Td")
    position = game.position()
    assert position.to_move == 1
    emptied = dataclasses.replace(
        position,
        hands=(0, position.hands[1], 0),
        won=(mask("2c", "3c", "4c"), 0, mask("Kh", "Qh", "Jh")),
        due=(1,),
    )
    game = Game.from_position(emptied)
    assert game.stock_size == 43
    game.apply("5d")  # wins alone; seat 1 draws, then is the only one who can play
    assert ("won", 1, mask("5d")) in events(game)
    assert game.phase == "shed"
    assert game.card_locations()["removed"] == 42
    assert game.trump == "d" and game.trump_card == "Td"
    assert all("Td" not in game.hand(seat) for seat in range(3))
    assert game.hand(1) == cards("Ad", "6d", "5d", "2s")  # 2s: the card seat 1 drew
    assert game.to_move == 1
    assert_52(game)


# ---------------------------------------------------------------------- P1.9 phase-2 hands


def test_p1_9_pagat_phase_2_hand_is_won_pile_plus_hand_plus_trump_card() -> None:
    """P1.9 (pagat): phase-2 hand = won pile + cards still in hand, and the trump card joins
    its holder's hand; the phase-1 won piles are then empty."""
    hands = [["Qc", "2c", "Ac"], ["Qd", "3d", "4d"], ["5h", "6h", "7h"]]
    game = pagat_endgame(hands, "Js")
    won_before = [game.won(seat) for seat in range(3)]
    play(game, "Qc", "Qd", "5h", "2c", "3d")  # queens tie; seat 1 wins with the three
    assert game.leader == 1
    play(game, "4d", "6h", "Ac")  # seat 0 wins and must lead with nothing (P1.7 no_card)
    assert game.phase == "shed"
    assert game.hand(0) == cards(*won_before[0], "4d", "6h", "Ac", "Js")
    assert game.hand(1) == cards(*won_before[1], "Qc", "Qd", "5h", "2c", "3d")
    assert game.hand(2) == cards(*won_before[2], "7h")  # still in hand
    assert all(game.won(seat) == [] for seat in range(3))
    assert game.to_move == 0
    assert_52(game)


def test_p1_9_kortregler_two_players_phase_2_hand_is_won_pile_plus_hand_plus_trump_card() -> None:
    """P1.9 with C4 (kortregler, 2 players): the card still in hand joins the won pile; the
    trump card joins its holder, who leads phase 2; the ten removed cards stay out."""
    removed = ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh"]
    hands = [["5c", "6c", "7c"], ["2d", "Ad", "Kd"]]
    game = deal("kortregler", hands, removed=removed, tail=["Kh"], last="Qs",
                drain=([1] + [0] * 16, 2, 0))
    chance_until(game, 1)  # 17 pair tricks, then seat 0 turns the king of hearts
    assert [game.hand(seat) for seat in range(2)] == [cards(*hand) for hand in hands]
    assert game.table == [(0, ["Kh"])] and game.to_move == 1
    won_before = [game.won(seat) for seat in range(2)]
    assert [len(pile) for pile in won_before] == [32, 2]
    game.apply("2d")  # seat 1 puts the reserved card aside; seat 0 wins
    assert game.trump_holder == 1
    play(game, "5c", "Ad", "Kd", "6c")  # seat 1 wins both and is empty
    assert game.phase == "shed"  # only seat 0 has a card: phase 1 ends (P1.7 one_left)
    assert game.hand(0) == cards(*won_before[0], "Kh", "2d", "7c")
    assert game.hand(1) == cards(*won_before[1], "5c", "Ad", "Kd", "6c", "Qs")
    assert all(game.won(seat) == [] for seat in range(2))
    assert game.trump == "s"
    assert game.to_move == 1  # the trump holder leads (P2.1)
    assert game.card_locations()["removed"] == 10
    assert_52(game)


def test_p1_9_app_phase_2_hand_is_won_pile_plus_hand() -> None:
    """P1.9 (app, phase1_end=stock_empty): the phase-2 hand is the won pile plus the cards
    still in hand; the face-up trump card is an ordinary card of its drawer's hand."""
    game = deal(rules("app", phase1_end="stock_empty"), APP_HANDS, last="2s",
                drain=([2] + [0] * 13, 3, 1))
    play_drawn_until(game, APP_KEEP, 1)
    won_before = [game.won(seat) for seat in range(3)]
    in_hand = [game.hand(seat) for seat in range(3)]
    assert [len(pile) for pile in won_before] == [36, 3, 3]
    play_drawn_until(game, APP_KEEP, 0)  # seat 0 wins the last trick and draws the 2s
    assert game.phase == "shed"
    kept = {card for keep in APP_KEEP for card in keep}
    last_trick = [card for hand in in_hand for card in hand if card not in kept]
    assert len(last_trick) == 3
    assert game.hand(0) == cards(*won_before[0], *last_trick, *APP_KEEP[0], "2s")
    assert game.hand(1) == cards(*won_before[1], *APP_KEEP[1])
    assert game.hand(2) == cards(*won_before[2], *APP_KEEP[2])
    assert all(game.won(seat) == [] for seat in range(3))
    assert_52(game)
