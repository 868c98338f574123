"""Property-based conformance tests of the rules engine over many random games.

Every preset (pagat 3-6 players, kortregler 2-6, app 3-6) and the documented house-rule
alternatives (pagat with ``must_pick_up``, pagat with sequences of 3, kortregler with
sequences of 2, app with ``phase1_end=stock_empty``) are played with seeded random choices.
Properties checked (numbers as in the test names):

1. all 52 cards are accounted for after every action, as concrete, disjoint, complete sets
   (C1, C3, C4, P1.6, P1.7c, P1.9, P2.6);
2. the legal actions are exactly those the rules allow (an independent reading of P1.4,
   P2.2-P2.5), each applies, and every other action raises ``IllegalAction`` and leaves the
   game unchanged;
3. every game ends with a consistent result (P1.10, P2.8, P2.9), well below an action cap;
4. a game's record replays to an equal game, also through JSON;
5. a seat's view never names a card the seat may not know (rules section 5);
6. the same seed and choices give the same game; different seeds give different decks;
7. legal-action lists are sorted, deterministic and never empty while the game goes on.

Random choices always come from a seeded ``random.Random``; failures print the variant,
player count, dealer, seeds and action number needed to replay them: replay with
``play_checked(variant, players, seed, policy_seed, dealer=dealer)``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import mattis
from mattis import ALL_ACTIONS, CHANCE, PICKUP, Action, ActionKind, Game, IllegalAction
from mattis.core.cards import codes_of

from .variants import CONFIGS, VARIANTS, events

ACTION_CAP = 5000
"""No random game may need this many actions (property 3)."""

ALL_CODES: frozenset[str] = frozenset(mattis.card_code(card) for card in range(52))
CARD_IN_JSON = re.compile(r'"([2-9TJQKA][cdhs])"')
"""A card code as a JSON string, e.g. ``"7h"`` (property 5)."""

VARIANT_NAMES = list(VARIANTS)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def players_for(variant: str) -> st.SearchStrategy[int]:
    rules = VARIANTS[variant]
    return st.sampled_from(range(rules.min_players, rules.max_players + 1))


def new_game(variant: str, players: int, seed: int, dealer: int | None = None) -> Game:
    return Game.new(VARIANTS[variant], players, seed=seed, dealer=dealer)


def where(variant: str, players: int, seed: int, policy_seed: int, game: Game) -> str:
    """How to replay a failure: rules, players, deal seed, choice seed, action number."""
    return (f"[{variant}, {players} players, dealer={game.dealer}, seed={seed}, "
            f"policy_seed={policy_seed}, after {game.num_actions} actions, phase {game.phase}]")


# ---------------------------------------------------------------------------- card sets

def public_regions(game: Game, deck: tuple[str, ...], discard: set[str] | None = None) -> dict[str, set[str]]:
    """Where each card is, from the public API and the deck order (``record()["deck"]``).

    The stock is drawn from the top, so the cards left in it are the deck's last
    ``stock_size`` cards (C3); the hidden trump card put aside is the deck's last card (P1.6);
    the discard is every card of the cleared phase-2 tricks (P2.6), read from the history
    unless the caller tracked it; whatever is in none of these places has left the game
    (C4, P1.7c) and is counted as removed.
    """
    regions: dict[str, set[str]] = {}
    for seat in range(game.players):
        regions[f"hand {seat}"] = set(game.hand(seat))
        regions[f"won {seat}"] = set(game.won(seat))
    size = game.stock_size
    regions["stock"] = set(deck[len(deck) - size:]) if size else set()
    collecting = game.phase == "collect"
    aside = game.trump_holder is not None and collecting
    regions["aside"] = {deck[-1]} if aside else set()
    on_table = [card for _, cards in game.table for card in cards]
    assert len(on_table) == len(set(on_table)), f"a card lies twice on the table: {game.table}"
    regions["trick" if collecting else "table"] = set(on_table)
    if discard is None:
        discard = discard_from_history(game)
    regions["discard"] = set(discard)
    return regions


def discard_from_history(game: Game) -> set[str]:
    """The cards of every cleared phase-2 trick (P2.6), from the public history."""
    discard: set[str] = set()
    for kind, _, mask in events(game):
        if kind == "clear":
            discard.update(codes_of(mask))
    return discard


def check_cards(game: Game, deck: tuple[str, ...], context: str,
                discard: set[str] | None = None) -> dict[str, set[str]]:
    """Property 1: 52 cards, each in exactly one place, agreeing with ``card_locations``."""
    locations = game.card_locations()
    assert sum(locations.values()) == 52, f"{context} card_locations {locations}"
    regions = public_regions(game, deck, discard)
    seen: dict[str, str] = {}
    for name, cards in regions.items():
        assert cards <= ALL_CODES, f"{context} {name} holds non-cards {cards - ALL_CODES}"
        for card in cards:
            assert card not in seen, f"{context} {card} is both in {seen[card]} and in {name}"
            seen[card] = name
    regions["removed"] = set(ALL_CODES) - set(seen)
    for seat in range(game.players):
        assert len(regions[f"hand {seat}"]) == game.hand_size(seat), context
        assert len(regions[f"won {seat}"]) == game.won_size(seat), context
    totals = {
        "hands": sum(len(regions[f"hand {seat}"]) for seat in range(game.players)),
        "won": sum(len(regions[f"won {seat}"]) for seat in range(game.players)),
        "stock": len(regions["stock"]),
        "aside": len(regions["aside"]),
        "trick": len(regions.get("trick", ())),
        "table": len(regions.get("table", ())),
        "discard": len(regions["discard"]),
        "removed": len(regions["removed"]),
    }
    assert totals == locations, f"{context} concrete card sets {totals} != card_locations {locations}"
    # C4: put away before the deal; P1.7c: the stock left when phase 1 ended (a deck suffix).
    put_away = set(deck[: game.rules.removed_two_player]) if game.players == 2 else set()
    assert put_away <= regions["removed"], f"{context} cards put away (C4) are back in play"
    left_in_stock = regions["removed"] - put_away
    assert game.phase != "collect" or not left_in_stock, f"{context} {left_in_stock} left the game"
    assert left_in_stock == set(deck[len(deck) - len(left_in_stock):]), (
        f"{context} removed cards {sorted(left_in_stock)} are not the rest of the stock (P1.7c)")
    return regions


def check_deal(game: Game, deck: tuple[str, ...]) -> None:
    """C3/C4: a fresh game holds the dealt hands and the rest of the deck as its stock."""
    players = game.players
    order = list(deck)
    if players == 2 and game.rules.removed_two_player:
        order = order[game.rules.removed_two_player:]
    for seat in range(players):
        offset = (seat - game.dealer - 1) % players
        dealt = {order[round_number * players + offset] for round_number in range(3)}
        assert set(game.hand(seat)) == dealt, f"seat {seat} was not dealt {sorted(dealt)}"
    assert game.stock_size == len(order) - 3 * players


# ---------------------------------------------------------------------------- views

class Knowledge:
    """The cards every player has seen face up so far, tracked from the actions alone:
    every card played from a hand or in a sequence, and every chanced card (the top of the
    stock, the deck's card at ``52 - stock_size``). Cards taken back, won, cleared or picked
    up were all played face up first, so they are in this set already. Also tracks the
    discard (P2.6) from the table without reading the history."""

    def __init__(self, deck: tuple[str, ...]) -> None:
        self.deck = deck
        self.seen: set[str] = set()
        self.discard: set[str] = set()
        self._table_before: set[str] = set()
        self._discard_count = 0

    def before(self, game: Game, action: Action) -> None:
        """Call just before ``action`` is applied to ``game``."""
        if action is CHANCE:
            self.seen.add(self.deck[len(self.deck) - game.stock_size])
        elif action.kind is ActionKind.PLAY:
            self.seen.update(codes_of(action.mask))
        self._table_before = {card for _, cards in game.table for card in cards} | set(codes_of(action.mask))

    def after(self, game: Game, context: str) -> None:
        """Call just after the action: a cleared trick is the table plus the last play (P2.6)."""
        count = game.card_locations()["discard"]
        if count != self._discard_count:
            cleared = self._table_before - {card for _, cards in game.table for card in cards}
            assert len(cleared) == count - self._discard_count, (
                f"{context} {count - self._discard_count} cards discarded, but the table lost {cleared}")
            self.discard |= cleared
            self._discard_count = count


def check_views(game: Game, knowledge: Knowledge, regions: dict[str, set[str]], context: str,
                seats: range | list[int] | None = None, round_trip: bool = False) -> None:
    """Property 5 (rules section 5): a seat's view names only cards that seat may know:
    its own hand, cards played face up so far, and the trump card once it is public."""
    trump_card = game.trump_card
    hidden_trump = game.rules.trump is mattis.TrumpMode.HIDDEN_LAST and game.phase == "collect"
    if hidden_trump:  # P1.6: nobody knows the trump suit during phase 1
        assert trump_card is None and game.trump is None, f"{context} trump known in phase 1"
    else:  # P1.6 bottom_up at once, P1.9 hidden_last from phase 2
        assert trump_card == knowledge.deck[-1], f"{context} trump card {trump_card}"
        assert game.trump == knowledge.deck[-1][-1], f"{context} trump suit {game.trump}"
    public = set(knowledge.seen)
    if trump_card is not None:
        public.add(trump_card)
    # Cards played face up can only be where played cards go ...
    for name in ("stock", "aside", "removed"):
        assert not (knowledge.seen & regions[name]), (
            f"{context} played cards {sorted(knowledge.seen & regions[name])} are in the {name}")
    # ... and the trick, the table, won piles and the discard hold only such cards.
    for name in ("trick", "table", "discard", *(f"won {s}" for s in range(game.players))):
        assert regions.get(name, set()) <= public, (
            f"{context} {name} holds cards never played face up: {regions.get(name, set()) - public}")
    locate = {card: name for name, cards in regions.items() for card in cards}
    for seat in range(game.players) if seats is None else seats:
        view = game.view(seat)
        text = json.dumps(view)  # JSON-serialisable
        if round_trip:
            assert json.loads(text) == view, f"{context} view of seat {seat} does not survive JSON"
        assert view["hand"] == game.hand(seat), f"{context} view hand of seat {seat}"
        allowed = public | set(view["hand"])
        mentioned = set(CARD_IN_JSON.findall(text))
        leaked = sorted(mentioned - allowed)
        assert not leaked, (
            f"{context} view of seat {seat} shows cards it may not know: "
            + ", ".join(f"{card} (in {locate.get(card, '?')})" for card in leaked))


# ---------------------------------------------------------------------------- actions

def check_legal_list(game: Game, context: str) -> list[Action]:
    """Property 7: sorted, deterministic, non-empty exactly while the game goes on."""
    legal = game.legal_actions()
    assert legal == game.legal_actions(), f"{context} legal_actions() is not deterministic"
    keys = [action.sort_key for action in legal]
    assert keys == sorted(keys) and len(set(keys)) == len(keys), f"{context} unsorted {legal}"
    expected = expected_legal(game)
    assert legal == expected, (
        f"{context} seat {game.to_move} may play {[str(a) for a in expected]} by the rules, "
        f"the engine lists {[str(a) for a in legal]}")
    if game.is_over:
        assert game.to_move is None and legal == [], f"{context} over but {game.to_move} {legal}"
        assert game.result is not None
    else:
        assert game.to_move is not None and 0 <= game.to_move < game.players, context
        assert legal, f"{context} no legal action while the game is not over"
        assert game.result is None, context
        if game.phase == "shed":
            assert not game.is_out(game.to_move), f"{context} seat {game.to_move} is out but to move"
    return legal


RANK_ORDER = "23456789TJQKA"


def expected_legal(game: Game) -> list[Action]:
    """The legal actions as the rules describe them, from the public state of the player to
    move: phase 1 any hand card, or chancing with two or more stock cards except for
    ``any_match`` battle cards (P1.4); phase 2 any play on an empty table (P2.3), else a play
    that beats the newest play (P2.5, with ``follow_suit``) and picking up the oldest play when
    allowed (P2.4, P1.10 ``must_pick_up``)."""
    if game.is_over or game.to_move is None:
        return []
    rules = game.rules
    hand = [mattis.parse_card(code) for code in game.hand(game.to_move)]
    if game.phase == "collect":
        actions = [Action.single(card) for card in hand]
        battle = bool(game.tie) and rules.tie is mattis.TieMode.ANY_MATCH
        if rules.chance and game.stock_size >= 2 and not battle:
            actions.append(CHANCE)
        return actions
    held = set(hand)
    plays = [Action.single(card) for card in hand]
    if rules.min_sequence:
        for low in hand:
            high = low
            while high % 13 != 12 and high + 1 in held:
                high += 1
                if high - low + 1 >= rules.min_sequence:
                    plays.append(Action.sequence(low, high))
    if not game.table:
        return sorted(plays, key=lambda action: action.sort_key)
    target_cards = [mattis.parse_card(code) for code in game.table[-1][1]]
    target_suit, target_high = target_cards[0] // 13, max(card % 13 for card in target_cards)
    trump = "cdhs".index(game.trump) if game.trump is not None else -1
    holds_suit = any(card // 13 == target_suit for card in hand)
    beats = []
    for play in plays:
        if play.suit == target_suit:
            if play.low % 13 > target_high:
                beats.append(play)
        elif play.suit == trump and not (rules.follow_suit and holds_suit):
            beats.append(play)
    if not beats or rules.voluntary_pickup:
        beats.append(PICKUP)
    return sorted(beats, key=lambda action: action.sort_key)


def fingerprint(game: Game) -> tuple[Any, ...]:
    """The public API's picture of the full state, without the (long) history."""
    return (
        game.phase, game.to_move, game.num_actions, game.leader, game.stock_size,
        tuple(tuple(game.hand(s)) for s in range(game.players)),
        tuple(tuple(game.won(s)) for s in range(game.players)),
        tuple((s, tuple(cards)) for s, cards in game.table), tuple(game.tie), game.trump,
        game.trump_holder, game.trick_size, game.out_order, game.losers, game.result,
        tuple(sorted(game.card_locations().items())), tuple(game.legal_actions()),
    )


def check_actions(game: Game, legal: list[Action], thorough: bool, context: str) -> None:
    """Property 2: each legal action applies on a copy, the original untouched; when
    ``thorough``, checked and unchecked application give ``==`` games and every other action
    must raise ``IllegalAction`` and leave the game ``==`` to before."""
    before = game.copy()
    print_before = fingerprint(game)
    assert print_before == fingerprint(before), f"{context} copy() differs from the original"
    if thorough:
        assert before == game, f"{context} copy() != original"
    for action in legal:
        assert game.is_legal(action), f"{context} {action} listed but not is_legal"
        checked = game.copy()
        assert checked.apply(str(action), seat=game.to_move) is action
        assert checked.num_actions == game.num_actions + 1
        assert sum(checked.card_locations().values()) == 52, f"{context} after {action}"
        if thorough:
            unchecked = game.copy()
            unchecked.apply_unchecked(action)
            assert checked == unchecked, f"{context} apply({action}) != apply_unchecked({action})"
    assert fingerprint(game) == print_before, f"{context} applying to copies changed the original"
    if not thorough:
        return
    assert game == before, f"{context} applying to copies changed the original"
    legal_set = set(legal)
    for action in ALL_ACTIONS:
        if action in legal_set:
            continue
        assert not game.is_legal(action), f"{context} is_legal({action}) but not listed"
        with pytest.raises(IllegalAction) as raised:
            game.apply(action)
        assert str(raised.value), f"{context} {action}: IllegalAction without a reason"
        assert game == before, f"{context} illegal {action} changed the game"
    if game.to_move is not None:
        for seat in range(game.players):
            if seat != game.to_move:
                with pytest.raises(IllegalAction):
                    game.apply(legal[0], seat=seat)
        assert game == before, f"{context} a wrong-seat action changed the game"
    assert game.legal_actions() == legal, f"{context} legal actions changed after illegal tries"


def check_result(game: Game, context: str) -> None:
    """Property 3: a finished game has a consistent result (P1.10, P2.8, P2.9)."""
    assert game.is_over and game.phase == "over", f"{context} not over"
    result = game.result
    assert result is not None, context
    losers, out_order = set(result.losers), list(result.out_order)
    assert result.losers, f"{context} no loser"
    assert len(losers) == len(result.losers) and len(set(out_order)) == len(out_order), context
    assert losers.isdisjoint(out_order), f"{context} {result}"
    assert losers | set(out_order) <= set(range(game.players)), context
    assert list(result.losers) == game.losers and out_order == game.out_order, context
    for action in (PICKUP, CHANCE, ALL_ACTIONS[0]):
        with pytest.raises(IllegalAction):
            game.apply(action)
    if result.lost_on_empty:  # P1.10: lost at the end of phase 1, phase 2 never played
        assert game.rules.nothing_left is mattis.NothingLeft.LOSE, f"{context} {result}"
        assert out_order == [], f"{context} {result}"
        assert game.card_locations()["discard"] == 0, context
        if game.rules.nothing_left_counts is mattis.NothingLeftCounts.ALL_CARDS:
            empty = {seat for seat in range(game.players) if game.hand_size(seat) == 0}
        else:
            winners = {seat for kind, seat, mask in events(game) if kind == "won" and mask}
            empty = set(range(game.players)) - winners
        assert losers == empty, f"{context} losers {sorted(losers)} but empty seats {sorted(empty)}"
    else:
        assert losers | set(out_order) == set(range(game.players)), f"{context} {result}"
        for seat in out_order:
            assert game.is_out(seat) and game.hand_size(seat) == 0, f"{context} seat {seat}"


def check_record(game: Game, context: str) -> None:
    """Property 4: the record replays to an equal game, also after a JSON round trip."""
    record = game.record()
    replayed = Game.from_record(record)
    assert replayed == game, f"{context} from_record(record()) differs"
    assert replayed.record() == record, context
    through_json = json.loads(json.dumps(record))
    assert Game.from_record(through_json) == game, f"{context} record does not survive JSON"


# ---------------------------------------------------------------------------- a full game

ALL_VIEWS_IN_PHASE_2 = 20
"""Every seat's view is checked after every action of phase 1 and of the first actions of
phase 2; after that (long endgames, where each view repeats the whole history, while the only
cards still secret are those never played since the deal) after every tenth action (every
fiftieth from action 400 on) and at the end. A leak into the history would stay there, so
it is caught later all the same."""
THOROUGH_EXTRA = 1
"""Random states per game, besides the first state of each phase, that get the costly
``==`` comparisons and the every-other-action check (early states: short histories)."""


def play_checked(variant: str, players: int, seed: int, policy_seed: int, *,
                 dealer: int | None = None, record_points: int = 3) -> Game:
    """Play one random game checking properties 1-5 and 7 after every action."""
    game = new_game(variant, players, seed, dealer)
    deck = tuple(game.record()["deck"])
    assert sorted(deck) == sorted(ALL_CODES)
    check_deal(game, deck)
    rng = random.Random(policy_seed)
    knowledge = Knowledge(deck)
    sample_rng = random.Random(policy_seed ^ 0x5EED)
    thorough_at = {sample_rng.randrange(1, 150) for _ in range(THOROUGH_EXTRA)}
    record_at = {sample_rng.randrange(1, 300) for _ in range(record_points)}
    phase, phase_start = "", 0
    while True:
        context = where(variant, players, seed, policy_seed, game)
        if game.phase != phase:
            phase, phase_start = game.phase, game.num_actions
        first_of_phase = game.num_actions == phase_start and not game.is_over
        thorough = first_of_phase or game.num_actions in thorough_at
        discard = None if thorough or game.is_over else knowledge.discard  # else from the history
        regions = check_cards(game, deck, context, discard)
        assert regions["discard"] == knowledge.discard, context
        since = game.num_actions - phase_start
        interval = 10 if game.num_actions < 400 else 50
        if game.phase == "collect" or game.is_over or since < ALL_VIEWS_IN_PHASE_2 or since % interval == 0:
            seats: range | list[int] = range(players)
        else:
            seats = []
        check_views(game, knowledge, regions, context, seats, round_trip=thorough or game.is_over)
        legal = check_legal_list(game, context)
        check_actions(game, legal, thorough, context)
        if game.num_actions in record_at:
            check_record(game, context)
        if game.is_over:
            break
        assert game.num_actions < ACTION_CAP, f"{context} hit the action cap"
        action = rng.choice(legal)
        knowledge.before(game, action)
        game.apply(action)
        knowledge.after(game, context)
    context = where(variant, players, seed, policy_seed, game)
    check_result(game, context)
    check_record(game, context)
    return game


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@settings(max_examples=6, deadline=None)
@given(data=st.data(), seed=SEEDS, policy_seed=SEEDS)
def test_p1_to_p7_every_action_checked(
    variant: str, data: st.DataObject, seed: int, policy_seed: int
) -> None:
    """Properties 1, 2, 3, 4, 5 and 7 after every action of random games of every variant."""
    players = data.draw(players_for(variant), label="players")
    dealer = data.draw(st.integers(min_value=0, max_value=players - 1), label="dealer")
    note(f"variant={variant} players={players} dealer={dealer} seed={seed} policy_seed={policy_seed}")
    play_checked(variant, players, seed, policy_seed, dealer=dealer)


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{name}-{players}p" for name, players in CONFIGS])
def test_p1_to_p7_fixed_seeds(config: tuple[str, int]) -> None:
    """The same full checks on a fixed seed, so every variant and player count is always covered."""
    variant, players = config
    play_checked(variant, players, seed=1000 + players, policy_seed=players)


# ---------------------------------------------------------------------------- cheap loop

GAMES_PER_CONFIG = 60
CONCRETE_EVERY = 10
"""Every game checks the card count after every action and the concrete card sets at each
change of phase; every tenth game checks the concrete card sets after every action."""


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{name}-{players}p" for name, players in CONFIGS])
def test_p1_p3_p7_many_games(config: tuple[str, int]) -> None:
    """Properties 1, 3 and 7 over 60 games of each variant and player count."""
    variant, players = config
    rules = VARIANTS[variant]
    hit_cap = []
    for seed in range(GAMES_PER_CONFIG):
        game = Game.new(rules, players, seed=seed)
        deck = tuple(game.record()["deck"])
        rng = random.Random(seed)
        knowledge = Knowledge(deck) if seed % CONCRETE_EVERY == 0 else None
        phase = game.phase
        while not game.is_over:
            if game.num_actions >= ACTION_CAP:
                hit_cap.append(seed)
                break
            legal = game.legal_actions()
            keys = [action.sort_key for action in legal]
            if not legal or keys != sorted(keys) or legal != game.legal_actions() or game.to_move is None:
                raise AssertionError(
                    f"{where(variant, players, seed, seed, game)} bad legal actions {legal} "
                    f"(to move {game.to_move})")
            action = rng.choice(legal)
            if knowledge is None:
                game.apply_unchecked(action)
                if sum(game.card_locations().values()) != 52:
                    context = where(variant, players, seed, seed, game)
                    raise AssertionError(f"{context} {game.card_locations()}")
                if game.phase != phase:
                    phase = game.phase
                    check_cards(game, deck, where(variant, players, seed, seed, game))
            else:
                knowledge.before(game, action)
                game.apply_unchecked(action)
                context = where(variant, players, seed, seed, game)
                knowledge.after(game, context)
                check_cards(game, deck, context, knowledge.discard)
        if game.is_over:
            context = where(variant, players, seed, seed, game)
            check_legal_list(game, context)
            check_result(game, context)
            regions = check_cards(game, deck, context)
            if knowledge is not None:
                assert regions["discard"] == knowledge.discard, context
    assert not hit_cap, f"{variant}, {players} players: seeds {hit_cap} reached {ACTION_CAP} actions"


# ---------------------------------------------------------------------------- records

@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=SEEDS, policy_seed=SEEDS,
       cut=st.integers(min_value=0, max_value=600))
def test_p4_record_round_trip_mid_game(
    config: tuple[str, int], seed: int, policy_seed: int, cut: int
) -> None:
    """Property 4 at a random point: the replayed game equals the original and, played on
    with the same choices, stays equal to the end."""
    variant, players = config
    game = new_game(variant, players, seed)
    rng = random.Random(policy_seed)
    while not game.is_over and game.num_actions < cut:
        game.apply_unchecked(rng.choice(game.legal_actions()))
    context = where(variant, players, seed, policy_seed, game)
    record = json.loads(json.dumps(game.record()))
    replayed = Game.from_record(record)
    assert replayed == game, context
    assert replayed.record()["seed"] == seed == record["seed"], context
    for seat in range(players):
        assert replayed.view(seat) == game.view(seat), context
    state = rng.getstate()
    for other in (game, replayed):
        rng.setstate(state)
        while not other.is_over and other.num_actions < ACTION_CAP:
            other.apply(rng.choice(other.legal_actions()))
    assert replayed == game and game.is_over, context
    check_record(game, context)


# ---------------------------------------------------------------------------- determinism

@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=SEEDS, policy_seed=SEEDS)
def test_p6_same_seed_same_game(config: tuple[str, int], seed: int, policy_seed: int) -> None:
    """Property 6: the same seed and the same choices give equal games at every step."""
    variant, players = config
    first, second = new_game(variant, players, seed), new_game(variant, players, seed)
    assert first == second and first.record() == second.record()
    rng_first, rng_second = random.Random(policy_seed), random.Random(policy_seed)
    while not first.is_over and first.num_actions < ACTION_CAP:
        legal = first.legal_actions()
        assert legal == second.legal_actions(), where(variant, players, seed, policy_seed, first)
        first.apply_unchecked(rng_first.choice(legal))
        second.apply_unchecked(rng_second.choice(second.legal_actions()))
    assert first.is_over, where(variant, players, seed, policy_seed, first)
    assert first == second and first.record() == second.record()
    assert first.result == second.result
    assert [first.view(s) for s in range(players)] == [second.view(s) for s in range(players)]


@settings(max_examples=200, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed_a=SEEDS, seed_b=SEEDS)
def test_p6_different_seeds_different_decks(config: tuple[str, int], seed_a: int, seed_b: int) -> None:
    """Property 6: a seed fixes the deck; two different seeds (almost surely) shuffle differently."""
    variant, players = config
    deck_a = new_game(variant, players, seed_a).record()["deck"]
    assert new_game(variant, players, seed_a).record()["deck"] == deck_a
    assert sorted(deck_a) == sorted(ALL_CODES)
    if seed_a != seed_b:
        assert new_game(variant, players, seed_b).record()["deck"] != deck_a


def test_p6_consecutive_seeds_all_differ() -> None:
    """Property 6: 500 consecutive seeds give 500 different decks and deals."""
    decks = {tuple(Game.new("pagat", 3, seed=seed).record()["deck"]) for seed in range(500)}
    assert len(decks) == 500
    deals = {tuple(tuple(Game.new("app", 4, seed=seed).hand(s)) for s in range(4)) for seed in range(500)}
    assert len(deals) == 500


# ---------------------------------------------------------------------------- self-checks

def test_leak_detector_catches_a_leak() -> None:
    """The view check must fail on a view that shows a hidden card: another seat's hand."""
    game = new_game("pagat", 3, 7)
    deck = tuple(game.record()["deck"])
    regions = check_cards(game, deck, "start")
    knowledge = Knowledge(deck)
    check_views(game, knowledge, regions, "start")  # the real view passes
    secret = game.hand(1)[0]

    class Leaky:
        """The game, but seat 0's view also shows one of seat 1's cards."""

        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

        def view(self, seat: int) -> dict[str, Any]:
            view = game.view(seat)
            if seat == 0:
                view["history"] = [*view["history"], {"event": "play", "seat": 1, "cards": [secret]}]
            return view

    with pytest.raises(AssertionError, match=re.escape(secret)):
        check_views(Leaky(), knowledge, regions, "leaky")  # type: ignore[arg-type]


def test_card_check_catches_a_missing_card() -> None:
    """The card check must fail when the deck order does not match the game."""
    game = new_game("kortregler", 2, 3)
    deck = tuple(game.record()["deck"])
    check_cards(game, deck, "real deck")
    wrong = (deck[-1], *deck[:-1])
    with pytest.raises(AssertionError):
        check_cards(game, wrong, "rotated deck")
