"""Phase 2 (*utspilling*) and the step into it: rules P1.10, P2.1-P2.9 (``docs/rules.en.md``).

Positions are built with :meth:`mattis.Game.from_hands` (spades trump unless said otherwise)
and checked for every preset a rule applies to, plus the documented alternatives: pagat with
``nothing_left=must_pick_up``, pagat with ``min_sequence=3`` and kortregler with sequences
(``min_sequence=2``). Phase-1 play-outs (P1.10, P2.1) use stacked decks, dealt by C3.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

import mattis
from mattis import Game, IllegalAction, Rules

from .variants import events

PAGAT = Rules.preset("pagat")
KORTREGLER = Rules.preset("kortregler")
APP = Rules.preset("app")
PAGAT_MUST_PICK_UP = PAGAT.with_options(nothing_left="must_pick_up")
PAGAT_MIN_SEQUENCE_3 = dataclasses.replace(PAGAT, min_sequence=3)
KORTREGLER_MIN_SEQUENCE_2 = dataclasses.replace(KORTREGLER, min_sequence=2)

RULESETS = {
    "pagat": PAGAT,
    "kortregler": KORTREGLER,
    "app": APP,
    "pagat+must_pick_up": PAGAT_MUST_PICK_UP,
    "pagat+min_sequence=3": PAGAT_MIN_SEQUENCE_3,
    "kortregler+min_sequence=2": KORTREGLER_MIN_SEQUENCE_2,
}
ALL_RULES = pytest.mark.parametrize("rules", list(RULESETS.values()), ids=list(RULESETS))
VOLUNTARY = {k: v for k, v in RULESETS.items() if v.voluntary_pickup}
FORCED = {k: v for k, v in RULESETS.items() if not v.voluntary_pickup}
TWO_CARD_SEQUENCES = {k: v for k, v in RULESETS.items() if v.min_sequence == 2}
LOSE_ALL_CARDS = {"pagat": PAGAT, "pagat+min_sequence=3": PAGAT_MIN_SEQUENCE_3}
MUST_PICK_UP = {k: v for k, v in RULESETS.items() if v.nothing_left == "must_pick_up"}


def by_name(rulesets: dict[str, Rules]) -> pytest.MarkDecorator:
    """Parametrize a test's ``rules`` over ``rulesets``, with their names as test ids."""
    return pytest.mark.parametrize("rules", list(rulesets.values()), ids=list(rulesets))


def legal(game: Game) -> list[str]:
    return [str(action) for action in game.legal_actions()]


def play(game: Game, *actions: str) -> None:
    """Apply ``actions`` one after another, each by the seat to move."""
    for action in actions:
        game.apply(action)


def events_of(game: Game, kind: str) -> list[tuple[str, int | None, int]]:
    return [event for event in events(game) if event[0] == kind]


def deck_of(seed: int) -> list[str]:
    """A stacked deck: the 52 codes in an order fixed by ``seed`` (top card first)."""
    order = list(range(52))
    random.Random(seed).shuffle(order)
    return [mattis.card_code(card) for card in order]


def play_out_phase1(game: Game) -> list[tuple[int, str, int, int]]:
    """Play phase 1 with the first legal action each time.

    Returns one ``(seat, action, stock before, stock after)`` row per action.
    """
    log = []
    while game.phase == "collect":
        seat, before = game.to_move, game.stock_size
        assert seat is not None
        action = game.legal_actions()[0]
        game.apply(action)
        log.append((seat, str(action), before, game.stock_size))
    return log


# ---------------------------------------------------------------- P1.10 nothing left


@by_name(LOSE_ALL_CARDS)
def test_p1_10_blamattis_player_without_cards_loses_at_once(rules: Rules) -> None:
    """P1.10 lose/all_cards (Blåmattis): a player with no cards loses and phase 2 is not played."""
    game = Game.from_hands(rules, hands=[["5c", "7d"], [], ["6c"]], trump="s", leader=0)
    assert game.phase == "over"
    assert game.is_over and game.to_move is None
    assert game.legal_actions() == []
    assert game.result == mattis.GameResult(losers=(1,), out_order=(), lost_on_empty=True)
    assert ("lose", 1, 0) in events(game)
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply("5c")


@by_name(LOSE_ALL_CARDS)
def test_p1_10_blamattis_several_empty_players_all_lose(rules: Rules) -> None:
    """P1.10 Decision: if several players have no cards, all of them lose at once."""
    game = Game.from_hands(rules, hands=[[], ["5c"], [], ["6c"]], trump="s", leader=1)
    assert game.is_over
    assert game.losers == [0, 2]
    assert game.result is not None
    assert game.result.losers == (0, 2)
    assert game.result.lost_on_empty
    assert [seat for kind, seat, _ in events(game) if kind == "lose"] == [0, 2]


@ALL_RULES
def test_p1_10_nobody_empty_phase_2_begins(rules: Rules) -> None:
    """P1.10: with every player holding cards the game goes on into phase 2."""
    game = Game.from_hands(rules, hands=[["5c"], ["6c"], ["7c"]], trump="s", leader=2)
    assert game.phase == "shed"
    assert game.to_move == 2
    assert game.result is None


def test_p1_10_blamattis_end_to_end_two_players_lose_after_phase_1() -> None:
    """P1.10 lose/all_cards (pagat): after a played-out phase 1, every seat left with no cards at
    all (hand, won pile and trump card together) loses at once; here two of five do."""
    game = Game.new(PAGAT, players=5, deck=deck_of(69))
    play_out_phase1(game)
    assert game.is_over
    empty = [seat for seat in range(5) if game.hand_size(seat) == 0]
    assert len(empty) == 2
    assert game.losers == empty
    assert game.result is not None and game.result.lost_on_empty
    assert game.result.out_order == ()
    assert sum(game.card_locations().values()) == 52


def test_p1_10_must_pick_up_end_to_end_empty_players_stay_in() -> None:
    """P1.10 must_pick_up (pagat's alternative): the same phase 1 as the Blåmattis deal above,
    but the empty players stay in, must pick up on their turns and are not out meanwhile."""
    game = Game.new(PAGAT_MUST_PICK_UP, players=5, deck=deck_of(69))
    play_out_phase1(game)
    assert game.phase == "shed"
    empty = [seat for seat in range(5) if game.hand_size(seat) == 0]
    assert len(empty) == 2
    assert not any(game.is_out(seat) for seat in empty)
    assert game.trick_size == 5  # the empty players are still in
    forced_turns = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        if game.hand_size(seat) == 0:
            assert game.table, "an empty player's turn on an empty table must pass (P1.10)"
            assert legal(game) == ["pickup"]
            assert not game.is_out(seat)
            forced_turns += 1
        game.apply(game.legal_actions()[0])
    assert forced_turns >= 2
    assert game.result is not None and not game.result.lost_on_empty
    assert sorted(game.result.out_order + game.result.losers) == [0, 1, 2, 3, 4]


def test_p1_10_blodmattis_empty_won_pile_loses_even_with_hand_cards() -> None:
    """P1.10 lose/won_pile (app, Blodmattis): a player who won no trick loses at once although
    they still hold hand cards; counting all cards instead, the same deal goes on to phase 2."""
    deck = deck_of(29)
    game = Game.new(APP, players=3, deck=deck)
    while game.phase == "collect":
        assert game.won_size(2) == 0  # seat 2 never wins a trick in this deal
        game.apply(game.legal_actions()[0])
    assert game.is_over
    assert game.losers == [2]
    assert game.result is not None and game.result.lost_on_empty
    assert game.hand(2) == ["6c", "Js", "Ks"]  # hand cards, yet Blodmattis

    all_cards = Game.new(APP.with_options(nothing_left_counts="all_cards"), players=3, deck=deck)
    play_out_phase1(all_cards)
    assert all_cards.phase == "shed"
    assert all_cards.hand(2) == ["6c", "Js", "Ks"]


def test_p1_10_blodmattis_from_hands_counts_the_given_hands_as_won_piles() -> None:
    """P1.10 lose/won_pile (app): a seat given no cards loses at once; the others do not."""
    game = Game.from_hands(APP, hands=[["5c"], ["6c"], []], trump="s", leader=0)
    assert game.is_over
    assert game.losers == [2]
    assert game.result is not None and game.result.lost_on_empty


@by_name(MUST_PICK_UP)
def test_p1_10_must_pick_up_empty_player_turn_passes_on_empty_table(rules: Rules) -> None:
    """P1.10 must_pick_up Decision: an empty player whose turn comes on an empty table is passed,
    stays in (not out, P2.8) and counts for the trick size."""
    game = Game.from_hands(rules, hands=[[], ["5c", "9d"], ["7c", "8d"]], trump="s", leader=0)
    assert game.phase == "shed"
    assert game.to_move == 1
    assert not game.is_out(0)
    assert game.trick_size == 3
    assert game.out_order == []


@by_name(MUST_PICK_UP)
def test_p1_10_must_pick_up_empty_player_must_pick_up_then_plays_out(rules: Rules) -> None:
    """P1.10 must_pick_up: with a play on the table the empty player may only pick up; they are
    not out until they have picked up and then played their hand empty (P2.8)."""
    game = Game.from_hands(rules, hands=[[], ["5c", "2d"], ["7c", "3d"]], trump="s", leader=0)
    assert game.to_move == 1
    play(game, "5c", "7c")
    assert game.to_move == 0
    assert legal(game) == ["pickup"]
    before = game.copy()
    with pytest.raises(IllegalAction):
        game.apply("5c")
    assert game == before
    game.apply("pickup")  # the oldest play, 5c
    assert game.hand(0) == ["5c"]
    assert game.table == [(2, ["7c"])]
    assert not game.is_out(0)
    assert legal(game) == ["pickup"]  # seat 1: 2d cannot beat 7c
    play(game, "pickup")  # the last play: seat 2, after the picker, leads (P2.7)
    assert game.to_move == 2
    play(game, "3d")  # seat 2 goes out
    assert game.is_out(2)
    assert game.to_move == 0
    assert legal(game) == ["pickup"]  # 5c does not beat 3d
    play(game, "pickup")
    assert game.to_move == 1 and game.hand(0) == ["5c", "3d"]
    play(game, "2d", "3d")  # seat 0 beats and completes the two-play trick, so leads
    assert not game.is_out(0)
    assert game.to_move == 0
    play(game, "5c")
    assert game.is_out(0)
    assert game.result == mattis.GameResult(losers=(1,), out_order=(2, 0), lost_on_empty=False)


@by_name(MUST_PICK_UP)
def test_p1_10_must_pick_up_empty_player_can_still_be_mattis(rules: Rules) -> None:
    """P1.10 must_pick_up with P2.9: an empty player who never gets to pick up is the last one
    in and loses in phase 2 (not on empty)."""
    game = Game.from_hands(rules, hands=[[], ["5c"]], trump="s", leader=0)
    assert game.phase == "shed" and game.to_move == 1
    game.apply("5c")
    assert game.is_over
    assert game.result == mattis.GameResult(losers=(0,), out_order=(1,), lost_on_empty=False)


def test_p1_10_nothing_left_counts_only_matters_with_lose() -> None:
    """P1.10: ``nothing_left_counts`` is ignored under must_pick_up (kortregler with won_pile)."""
    rules = KORTREGLER.with_options(nothing_left_counts="won_pile")
    game = Game.from_hands(rules, hands=[[], ["5c"], ["6c"]], trump="s", leader=0)
    assert game.phase == "shed"
    assert game.to_move == 1


# ---------------------------------------------------------------- P2.1 who leads phase 2


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [(PAGAT, 3, 0), (PAGAT, 4, 1), (KORTREGLER, 2, 0), (KORTREGLER, 3, 1), (KORTREGLER, 4, 0)],
    ids=["pagat-3", "pagat-4", "kortregler-2", "kortregler-3", "kortregler-4"],
)
def test_p2_1_trump_holder_leads_phase_2_hidden_last(rules: Rules, players: int, seed: int) -> None:
    """P2.1 with P1.6 hidden_last: the player whose draw would have taken the stock's last card
    put it aside, and leads the first phase-2 trick (not the last phase-1 trick winner)."""
    deck = deck_of(seed)
    game = Game.new(rules, players=players, deck=deck)
    log = play_out_phase1(game)
    takers = [seat for seat, action, before, after in log
              if before == 1 and after == 0 and action != "chance"]
    assert len(takers) == 1
    holder = takers[0]
    last_winner = [seat for kind, seat, _ in events(game) if kind == "won"][-1]
    assert holder != last_winner  # the position tells the two rules apart
    assert game.trump_holder == holder
    assert ("aside", holder, 0) in events(game)
    assert game.phase == "shed"
    assert game.trump == deck[-1][1]
    assert deck[-1] in game.hand(holder)  # the trump card joins its holder's hand (P1.9)
    assert game.to_move == holder
    assert game.leader == holder
    assert game.table == []


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 0), (5, 9)])
def test_p2_1_drawer_of_last_card_leads_phase_2_bottom_up(players: int, seed: int) -> None:
    """P2.1 with P1.6 bottom_up (app): the player who drew the stock's face-up last card leads
    phase 2, even when someone else won the last phase-1 trick."""
    deck = deck_of(seed)
    game = Game.new(APP, players=players, deck=deck)
    assert game.trump == deck[-1][1]  # known from the deal
    drawer = None
    while game.phase == "collect":
        game.apply(game.legal_actions()[0])
        if drawer is None and game.stock_size == 0:
            holders = [seat for seat in range(players) if deck[-1] in game.hand(seat)]
            assert len(holders) == 1
            drawer = holders[0]
    assert drawer is not None
    last_winner = [seat for kind, seat, _ in events(game) if kind == "won"][-1]
    assert drawer != last_winner
    assert game.phase == "shed"
    assert game.to_move == drawer


@ALL_RULES
def test_p2_1_from_hands_leader_and_clockwise_play(rules: Rules) -> None:
    """P2.1: play goes clockwise from the leader (here given to from_hands)."""
    game = Game.from_hands(rules, hands=[["2c", "Ad"], ["3c", "Kd"], ["4c", "Qd"], ["5c", "Jd"]],
                           trump="s", leader=2)
    assert game.to_move == 2
    seats = []
    for card in ["4c", "5c"]:
        seats.append(game.to_move)
        game.apply(card)
    seats.append(game.to_move)
    assert seats == [2, 3, 0]


# ---------------------------------------------------------------- P2.2 / P2.3 plays and leading


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (PAGAT, ["4c", "4c-5c", "4c-6c", "5c", "5c-6c", "6c", "2h", "9h", "Kh", "Kh-Ah", "Ah"]),
        (APP, ["4c", "4c-5c", "4c-6c", "5c", "5c-6c", "6c", "2h", "9h", "Kh", "Kh-Ah", "Ah"]),
        (PAGAT_MUST_PICK_UP, ["4c", "4c-5c", "4c-6c", "5c", "5c-6c", "6c", "2h", "9h", "Kh", "Kh-Ah", "Ah"]),
        (KORTREGLER_MIN_SEQUENCE_2,
         ["4c", "4c-5c", "4c-6c", "5c", "5c-6c", "6c", "2h", "9h", "Kh", "Kh-Ah", "Ah"]),
        (PAGAT_MIN_SEQUENCE_3, ["4c", "4c-6c", "5c", "6c", "2h", "9h", "Kh", "Ah"]),
        (KORTREGLER, ["4c", "5c", "6c", "2h", "9h", "Kh", "Ah"]),
    ],
    ids=["pagat", "app", "pagat+must_pick_up", "kortregler+min_sequence=2", "pagat+min_sequence=3",
         "kortregler"],
)
def test_p2_2_p2_3_lead_any_card_or_sequence_of_min_length(rules: Rules, expected: list[str]) -> None:
    """P2.2/P2.3: on an empty table any single card or any run of at least ``min_sequence``
    consecutive cards of one suit may be led (none in kortregler); no pick-up, no chance.
    Ranks do not wrap round (A-2 is no sequence)."""
    game = Game.from_hands(rules, hands=[["2h", "4c", "5c", "6c", "9h", "Kh", "Ah"], ["7d"]],
                           trump="s", leader=0)
    assert game.table == [] and game.to_move == 0
    assert legal(game) == expected
    assert "pickup" not in legal(game) and "chance" not in legal(game)


@ALL_RULES
def test_p2_2_plays_lie_separately_in_order(rules: Rules) -> None:
    """P2.2: each play lies separately on the table, oldest first; a sequence counts as one."""
    seq = rules.min_sequence in (2, 3)
    second = ("8c-Tc" if rules.min_sequence == 3 else "8c-9c") if seq else "8c"
    game = Game.from_hands(rules, hands=[["4c", "Ad"], ["8c", "9c", "Tc", "Kd"], ["Qc", "Qd"], ["Ah"]],
                           trump="s", leader=0)
    play(game, "4c", second, "Qc")
    second_cards = [mattis.card_code(card) for card in mattis.Action.parse(second).cards]
    assert game.table == [(0, ["4c"]), (1, second_cards), (2, ["Qc"])]
    assert len(game.table) == 3 and game.trick_size == 4


@by_name({k: v for k, v in RULESETS.items() if v.min_sequence == 0})
def test_p2_2_sequences_off_in_kortregler(rules: Rules) -> None:
    """P2.2: kortregler has no sequences; playing one is illegal and says so."""
    game = Game.from_hands(rules, hands=[["4c", "5c"], ["8c"]], trump="s", leader=0)
    before = game.copy()
    with pytest.raises(IllegalAction, match="sequences are not allowed"):
        game.apply("4c-5c")
    assert game == before


def test_p2_2_min_sequence_3_rejects_two_card_sequences() -> None:
    """P2.2 pagat with min_sequence=3: two-card runs are no plays, three-card runs are."""
    game = Game.from_hands(PAGAT_MIN_SEQUENCE_3, hands=[["6h", "7h", "8h", "2c"], ["9h", "Th", "Jh", "Kd"]],
                           trump="s", leader=0)
    before = game.copy()
    with pytest.raises(IllegalAction, match="at least 3"):
        game.apply("6h-7h")
    assert game == before
    game.apply("6h-8h")
    assert legal(game) == ["9h", "9h-Jh", "Th", "Jh", "pickup"]
    with pytest.raises(IllegalAction, match="at least 3"):
        game.apply("9h-Th")


# ---------------------------------------------------------------- P2.4 beat or pick up


@by_name(TWO_CARD_SEQUENCES)
def test_p2_4_seed_example_pick_up_oldest_play_sequence_stays(rules: Rules) -> None:
    """P2.4/P2.5 seed 001 example: Anne leads clubs 4, Bjørn beats with clubs 8-9; Cecilie picks
    up clubs 4 (the oldest); Bjørn's 8-9 stays and is what the next player must beat."""
    anne, bjorn, cecilie = 0, 1, 2
    game = Game.from_hands(rules, hands=[["4c", "5c", "Tc", "3d"], ["8c", "9c", "Kd"], ["2d", "6h"]],
                           trump="s", leader=anne)
    play(game, "4c", "8c-9c")
    assert game.table == [(anne, ["4c"]), (bjorn, ["8c", "9c"])]
    assert game.to_move == cecilie
    assert legal(game) == ["pickup"]  # no clubs, no trump
    game.apply("pickup")
    assert game.hand(cecilie) == ["4c", "2d", "6h"]
    assert game.table == [(bjorn, ["8c", "9c"])]
    assert ("pickup", cecilie, 1 << mattis.parse_card("4c")) in events(game)
    assert game.to_move == anne
    assert legal(game) == ["Tc"] + (["pickup"] if rules.voluntary_pickup else [])
    before = game.copy()
    with pytest.raises(IllegalAction, match="does not beat 8c-9c"):
        game.apply("5c")
    assert game == before


@by_name(VOLUNTARY)
def test_p2_4_voluntary_pickup_allowed_even_when_able_to_beat(rules: Rules) -> None:
    """P2.4 voluntary_pickup (pagat, app): a player who could beat may pick up the oldest play."""
    game = Game.from_hands(rules, hands=[["4c", "Ad"], ["8c", "Kd"], ["Jc", "2d"]], trump="s", leader=0)
    play(game, "4c", "8c")
    assert legal(game) == ["Jc", "pickup"]
    game.apply("pickup")
    assert game.hand(2) == ["4c", "Jc", "2d"]
    assert game.table == [(1, ["8c"])]  # the newest play stays
    assert game.to_move == 0


@by_name(FORCED)
def test_p2_4_forced_pickup_only_when_unable_to_beat(rules: Rules) -> None:
    """P2.4 forced (kortregler): "pickup" is legal only when no play beats; trying it while a
    beating play exists is illegal, says why and leaves the game unchanged."""
    game = Game.from_hands(rules, hands=[["4c", "Ad"], ["8c", "Kd"], ["Jc", "2d"]], trump="s", leader=0)
    play(game, "4c", "8c")
    assert legal(game) == ["Jc"]
    before = game.copy()
    with pytest.raises(IllegalAction, match="picking up is not allowed while you can beat 8c"):
        game.apply("pickup")
    assert game == before
    assert not game.is_legal("pickup")
    # A trump is a beating play too: with only 2s against clubs, picking up is not allowed.
    trumping = Game.from_hands(rules, hands=[["4c", "Ad"], ["2s", "Kd"]], trump="s", leader=0)
    trumping.apply("4c")
    assert legal(trumping) == ["2s"]
    with pytest.raises(IllegalAction, match="you can beat"):
        trumping.apply("pickup")
    # Unable to beat: picking up is the only action.
    stuck = Game.from_hands(rules, hands=[["4c", "Ad"], ["3c", "Kd"]], trump="s", leader=0)
    stuck.apply("4c")
    assert legal(stuck) == ["pickup"]
    stuck.apply("pickup")
    assert stuck.hand(1) == ["3c", "4c", "Kd"]


@ALL_RULES
def test_p2_4_nothing_to_pick_up_on_empty_table(rules: Rules) -> None:
    """P2.3/P2.4: on an empty table there is nothing to pick up."""
    game = Game.from_hands(rules, hands=[["4c", "Ad"], ["8c", "Kd"]], trump="s", leader=0)
    before = game.copy()
    with pytest.raises(IllegalAction, match="nothing to pick up"):
        game.apply("pickup")
    assert game == before


# ---------------------------------------------------------------- P2.5 what beats a play


@by_name(TWO_CARD_SEQUENCES)
def test_p2_5_sequence_beaten_by_higher_sequence_or_trump(rules: Rules) -> None:
    """P2.5 seed example: spades trump, hearts 6-7 is beaten by a hearts card or run whose lowest
    card is above 7 (8h, 9h, 9h-Th, 8h-Th: lengths need not match) and by any trump (2s, 2s-3s);
    not by 5h or 4h-5h (not above 7h) nor by another suit. Under follow_suit (app) a player
    holding hearts may not trump."""
    hands = [["6h", "7h", "2c"], ["4h", "5h", "8h", "9h", "Th", "2s", "3s", "Kd"], ["Ac", "Ad"]]
    game = Game.from_hands(rules, hands=hands, trump="s", leader=0)
    game.apply("6h-7h")
    expected = ["8h", "8h-9h", "8h-Th", "9h", "9h-Th", "Th"]
    if not rules.follow_suit:
        expected += ["2s", "2s-3s", "3s"]
    if rules.voluntary_pickup:
        expected.append("pickup")
    assert legal(game) == expected
    for beater in ["8h", "9h", "9h-Th", "8h-Th"] + ([] if rules.follow_suit else ["2s", "2s-3s"]):
        branch = game.copy()
        branch.apply(beater)
        assert branch.table[-1] == (1, [mattis.card_code(c) for c in mattis.Action.parse(beater).cards])
    too_low = "does not beat 6h-7h: its lowest card must be higher than 7h"
    for loser in ["5h", "4h-5h"]:
        with pytest.raises(IllegalAction, match=too_low):
            game.apply(loser)
    with pytest.raises(IllegalAction, match="does not beat 6h-7h"):
        game.apply("Kd")


def test_p2_5_seed_example_spades_2_beats_hearts_sequence_without_hearts_app() -> None:
    """P2.5 (app, follow_suit): a player with no hearts may beat hearts 6-7 with spades 2."""
    game = Game.from_hands(APP, hands=[["6h", "7h", "2c"], ["2s", "Kd"], ["Ac"]], trump="s", leader=0)
    game.apply("6h-7h")
    assert legal(game) == ["2s", "pickup"]
    game.apply("2s")
    assert game.table == [(0, ["6h", "7h"]), (1, ["2s"])]


@ALL_RULES
def test_p2_5_single_beaten_by_higher_same_suit_or_any_trump(rules: Rules) -> None:
    """P2.5: 7h is beaten by a higher heart or (unless follow_suit binds) any trump, not by a
    lower heart nor a higher card of another suit."""
    game = Game.from_hands(rules, hands=[["7h", "2c"], ["6h", "8h", "2s", "Ad"], ["Ac"]], trump="s", leader=0)
    game.apply("7h")
    expected = ["8h"] + ([] if rules.follow_suit else ["2s"])
    if rules.voluntary_pickup:
        expected.append("pickup")
    assert legal(game) == expected
    before = game.copy()
    with pytest.raises(IllegalAction, match="6h does not beat 7h: its lowest card must be higher than 7h"):
        game.apply("6h")
    with pytest.raises(IllegalAction, match="Ad does not beat 7h: play higher hearts or trump"):
        game.apply("Ad")
    assert game == before


@ALL_RULES
def test_p2_5_trump_beaten_only_by_higher_trump(rules: Rules) -> None:
    """P2.5: a trump play is beaten only by a higher trump play."""
    game = Game.from_hands(rules, hands=[["9s", "2c"], ["8s", "Ts", "Ah", "Ac"], ["Ad"]], trump="s", leader=0)
    game.apply("9s")
    assert legal(game) == ["Ts"] + (["pickup"] if rules.voluntary_pickup else [])
    with pytest.raises(IllegalAction, match="8s does not beat 9s"):
        game.apply("8s")
    with pytest.raises(IllegalAction, match="Ah does not beat 9s: play higher spades, or pick up"):
        game.apply("Ah")


@by_name(TWO_CARD_SEQUENCES)
def test_p2_5_trump_sequence_beaten_by_trump_above_its_highest_card(rules: Rules) -> None:
    """P2.5: trump 5-6 is beaten by trump whose lowest card is above 6 (7s, 7s-8s, 8s), not 4s."""
    game = Game.from_hands(rules, hands=[["5s", "6s", "2c"], ["4s", "7s", "8s", "Ah"], ["Ad"]],
                           trump="s", leader=0)
    game.apply("5s-6s")
    assert legal(game) == ["7s", "7s-8s", "8s"] + (["pickup"] if rules.voluntary_pickup else [])


@ALL_RULES
def test_p2_5_trump_suit_is_the_given_one(rules: Rules) -> None:
    """P2.5: trumping works with the game's trump suit (hearts here), not with spades."""
    hands = [["7c", "2d"], ["2h", "Ks"], ["Ad"]]
    hearts = Game.from_hands(rules, hands=hands, trump="h", leader=0)
    hearts.apply("7c")
    assert legal(hearts) == ["2h"] + (["pickup"] if rules.voluntary_pickup else [])
    spades = Game.from_hands(rules, hands=hands, trump="s", leader=0)
    spades.apply("7c")
    assert legal(spades) == ["Ks"] + (["pickup"] if rules.voluntary_pickup else [])


def test_p2_5_follow_suit_holding_led_suit_forbids_trumping() -> None:
    """P2.5 follow_suit (app): holding any card of the led (non-trump) suit forbids trumping it:
    beat in suit or pick up. Without follow_suit (pagat) the same trump is legal."""
    hands = [["5h", "Kc"], ["3h", "2s", "9d"], ["Ac"]]
    app = Game.from_hands(APP, hands=hands, trump="s", leader=0)
    app.apply("5h")
    assert legal(app) == ["pickup"]
    before = app.copy()
    with pytest.raises(IllegalAction, match="must follow suit"):
        app.apply("2s")
    assert app == before

    pagat = Game.from_hands(PAGAT, hands=hands, trump="s", leader=0)
    pagat.apply("5h")
    assert legal(pagat) == ["2s", "pickup"]

    in_suit = Game.from_hands(APP, hands=[["5h", "Kc"], ["9h", "2s"], ["Ac"]], trump="s", leader=0)
    in_suit.apply("5h")
    assert legal(in_suit) == ["9h", "pickup"]

    no_hearts = Game.from_hands(APP, hands=[["5h", "Kc"], ["2s", "9d"], ["Ac"]], trump="s", leader=0)
    no_hearts.apply("5h")
    assert legal(no_hearts) == ["2s", "pickup"]


def test_p2_5_follow_suit_does_not_stop_beating_trump_with_trump() -> None:
    """P2.5 follow_suit only concerns non-trump plays: a trump lead is beaten by higher trump."""
    game = Game.from_hands(APP, hands=[["5s", "Kc"], ["3h", "6s"], ["Ac"]], trump="s", leader=0)
    game.apply("5s")
    assert legal(game) == ["6s", "pickup"]


# ---------------------------------------------------------------- P2.6 trick completion


@ALL_RULES
def test_p2_6_trick_complete_when_plays_equal_players_in_and_completer_leads(rules: Rules) -> None:
    """P2.6: a trick of three players is complete at the third play on the table; the table
    leaves the game and the completer leads."""
    game = Game.from_hands(rules, hands=[["4c", "Ad"], ["5c", "Kd"], ["6c", "Qd"]], trump="s", leader=0)
    assert game.trick_size == 3
    play(game, "4c", "5c")
    assert len(game.table) == 2 and game.to_move == 2
    game.apply("6c")
    assert game.table == []
    cleared = mattis.parse_card("4c"), mattis.parse_card("5c"), mattis.parse_card("6c")
    assert events_of(game, "clear") == [("clear", 2, sum(1 << c for c in cleared))]
    assert game.card_locations()["discard"] == 3
    assert game.to_move == 2 and game.leader == 2
    assert game.trick_size == 3


@ALL_RULES
def test_p2_6_trick_size_fixed_at_trick_start_when_players_go_out(rules: Rules) -> None:
    """P2.6: the trick size is fixed when the trick begins; a player going out mid-trick does not
    shrink it (the trick still needs three plays), the next trick is smaller."""
    game = Game.from_hands(rules, hands=[["4c"], ["5c", "Qd"], ["6c", "Jd"]], trump="s", leader=0)
    game.apply("4c")
    assert game.is_out(0)
    assert game.trick_size == 3
    game.apply("5c")
    assert game.table == [(0, ["4c"]), (1, ["5c"])]  # two plays = players now in, not complete
    assert game.to_move == 2
    game.apply("6c")
    assert game.table == []
    assert game.to_move == 2
    assert game.trick_size == 2


@ALL_RULES
def test_p2_6_completer_out_next_player_still_in_leads(rules: Rules) -> None:
    """P2.6: if the player who completed the trick is out, the next player still in leads."""
    game = Game.from_hands(rules, hands=[["4c"], ["5c", "Qd"], ["6c", "Jd"], ["7c"]], trump="s", leader=0)
    play(game, "4c", "5c", "6c")
    assert game.trick_size == 4 and len(game.table) == 3
    game.apply("7c")
    assert game.is_out(0) and game.is_out(3)
    assert game.table == []
    assert game.to_move == 1 and game.leader == 1  # seat 0, next after seat 3, is out too
    assert game.trick_size == 2


@ALL_RULES
def test_p2_6_picked_up_plays_do_not_count_towards_completion(rules: Rules) -> None:
    """P2.6: it is the number of plays *on the table* that completes a trick."""
    game = Game.from_hands(rules, hands=[["4c", "Jc"], ["8c", "Qc", "Kd"], ["2d", "3d"]], trump="s", leader=0)
    play(game, "4c", "8c", "pickup", "Jc")
    assert game.table == [(1, ["8c"]), (0, ["Jc"])]
    assert game.to_move == 1
    game.apply("Qc")
    assert game.table == []
    assert game.to_move == 1
    assert game.hand(2) == ["4c", "2d", "3d"]


# ---------------------------------------------------------------- P2.7 last play picked up


@ALL_RULES
def test_p2_7_last_play_picked_up_next_player_after_picker_leads(rules: Rules) -> None:
    """P2.7: picking up the only play empties the table; the player after the picker leads."""
    game = Game.from_hands(rules, hands=[["4c", "Ad"], ["Kh", "2d"], ["Qh", "3d"]], trump="s", leader=0)
    game.apply("4c")
    game.apply("pickup")
    assert game.table == []
    assert game.to_move == 2 and game.leader == 2
    assert game.hand(1) == ["4c", "2d", "Kh"]
    assert game.trick_size == 3


@ALL_RULES
def test_p2_7_next_player_still_in_after_picker_leads(rules: Rules) -> None:
    """P2.7: the new leader is the next player *still in* after the picker (out seats skipped),
    and the new trick's size counts only players still in."""
    hands = [["2c"], ["4c", "9h"], ["Ah", "3d"], ["Kd"]]
    game = Game.from_hands(rules, hands=hands, trump="s", leader=0)
    play(game, "2c", "4c", "pickup")
    assert game.table == [(1, ["4c"])]
    assert game.to_move == 3
    game.apply("pickup")
    assert game.table == []
    assert game.hand(3) == ["4c", "Kd"]
    assert game.to_move == 1  # seat 0 is out
    assert game.trick_size == 3


# ---------------------------------------------------------------- P2.8 going out


@ALL_RULES
def test_p2_8_player_whose_hand_empties_by_playing_is_out_and_skipped(rules: Rules) -> None:
    """P2.8: a player who plays their last card is out and takes no more turns."""
    game = Game.from_hands(rules, hands=[["4c"], ["5c", "Qd"], ["6c", "Jd"], ["Kh", "2h"]],
                           trump="s", leader=0)
    game.apply("4c")
    assert game.is_out(0)
    assert game.out_order == [0]
    assert ("out", 0, 0) in events(game)
    assert game.hand(0) == []
    play(game, "5c", "6c", "pickup")  # seat 3 cannot beat; takes 4c
    assert game.hand(3) == ["4c", "2h", "Kh"]
    assert game.to_move == 1  # seat 0 is skipped
    assert not game.is_out(3)
    assert game.view(1)["out"] == [0]


# ---------------------------------------------------------------- P2.9 the end


@ALL_RULES
def test_p2_9_game_ends_when_second_to_last_goes_out_cards_stay_on_table(rules: Rules) -> None:
    """P2.9 Decision: checked after every action; when the second-to-last player goes out the
    last one loses at once, here with an unfinished trick still on the table."""
    game = Game.from_hands(rules, hands=[["4c"], ["5c"], ["9h", "Kd"]], trump="s", leader=0)
    play(game, "4c", "5c")
    assert game.is_over and game.phase == "over"
    assert game.to_move is None
    assert game.legal_actions() == []
    assert game.result == mattis.GameResult(losers=(2,), out_order=(0, 1), lost_on_empty=False)
    assert game.table == [(0, ["4c"]), (1, ["5c"])]
    assert game.trick_size == 3
    assert events(game)[-1] == ("lose", 2, 0)
    assert game.hand(2) == ["Kd", "9h"]
    assert sum(game.card_locations().values()) == 52
    before = game.copy()
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply("9h")
    assert game == before


@ALL_RULES
def test_p2_9_leading_last_card_with_two_in_ends_at_once(rules: Rules) -> None:
    """P2.9: with two players in, leading one's last card ends the game before anyone answers."""
    game = Game.from_hands(rules, hands=[["5c", "9h"], ["4c"]], trump="s", leader=1)
    game.apply("4c")
    assert game.is_over
    assert game.losers == [0]
    assert game.out_order == [1]
    assert game.table == [(1, ["4c"])]


@pytest.mark.parametrize("name", list(RULESETS))
def test_p2_random_playouts_keep_phase_2_invariants(name: str) -> None:
    """P2.3-P2.9 together: random phase-2 games keep 52 cards, never let an out player move, keep
    the trick size fixed within a trick and the table below it, and end with one loser."""
    rules = RULESETS[name]
    rng = random.Random(name)
    for _ in range(15):
        cards = [mattis.card_code(card) for card in range(52)]
        rng.shuffle(cards)
        players = rng.randint(2, 6)
        hands = [cards[seat * 6:(seat + 1) * 6] for seat in range(players)]
        if rules.nothing_left == "must_pick_up" and rng.random() < 0.5:
            hands[rng.randrange(players)] = []  # P1.10: an empty player who must pick up
        game = Game.from_hands(rules, hands=hands, trump=rng.choice("cdhs"), leader=rng.randrange(players))
        while not game.is_over:
            seat = game.to_move
            assert seat is not None and not game.is_out(seat)
            if game.hand_size(seat) == 0:
                assert game.table and legal(game) == ["pickup"]
            size = game.trick_size
            in_now = sum(not game.is_out(s) for s in range(players))
            assert len(game.table) < size <= players
            assert size >= in_now
            game.apply(rng.choice(game.legal_actions()))
            assert sum(game.card_locations().values()) == 52
            if game.table and not game.is_over:
                assert game.trick_size == size  # same trick: size unchanged
        result = game.result
        assert result is not None
        assert len(result.losers) == 1
        assert sorted(result.out_order + result.losers) == list(range(players))
