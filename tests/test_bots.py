"""Tests of the bots (``mattis.bots``): the agent protocol, whole games, hand-built positions
and the ``hard`` and ``expert`` search bots.

1. The agent protocol (rules section 5): an agent gets only a :class:`PlayerView` and the
   legal actions. Nothing reachable from them is a game, a position or another seat's hidden
   cards; a view that went through JSON gives the same decision; and two games that look
   the same to the seat to move but differ in the hidden cards get the same decision.
2. Every level plays seeded games of every preset and documented house rule to the end,
   without an illegal action (``play_game`` applies with ``Game.apply``, which raises
   ``IllegalAction``) and without hitting the action cap.
3. ``easy`` and ``normal`` make the obvious move in hand-built positions (P1.3, P2.2-P2.5).
4. ``hard`` is reproducible for a seed with an iteration limit, explains itself, and
   answers forced moves at once; ``hint_for`` gives a legal hint.
5. ``expert``: the same search with informed rollouts, whose policy makes the obvious move
   in hand-built positions; it plays whole games legally from views only.

Failures name the rules, player count and seed to replay them with.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import json
import random
import re
import types
from collections.abc import Sequence
from enum import Enum
from typing import Any

import pytest

from mattis import CHANCE, PICKUP, Action, Event, Game, Rules, parse_card
from mattis.bots import (
    DEFAULT_LIMIT,
    EXPERT_LIMIT,
    LEVELS,
    Decision,
    ExpertAgent,
    IsmctsAgent,
    Limit,
    PlayerView,
    RandomAgent,
    RuleBasedAgent,
    available_levels,
    decide,
    hint,
    hint_for,
    make_agent,
    play_game,
    seat_rng,
)
from mattis.bots.ismcts import informed_rollout_action, rollout_action
from mattis.bots.view import CardMemory
from mattis.core.cards import CARD_CODES, FULL_DECK_MASK, NUM_CARDS, mask_of
from mattis.core.observation import SeatView
from mattis.core.position import Position

from .variants import CONFIGS, VARIANTS, events

HARD_ITERATIONS = 30
"""A small, fixed search budget: reproducible for a seed and quick enough for tests."""
HARD_LIMIT = Limit(iterations=HARD_ITERATIONS)
WHOLE_GAME_LIMIT = Limit(iterations=8)
"""Searching bots' budget in whole games, which test that a search ends in legal, finished
games, not how well it plays: many games, so the least budget that still searches."""
RULE_BASED = ("easy", "normal")
SEARCHING = ("hard", "expert", "master")
EXPLANATION = re.compile(r"^search: (\d+)% of (\d+) simulations chose (\S+); "
                         r"it avoided Mattis in (\d+)% of them$")


PLAYABLE = available_levels()
"""Every level that can play here: all of :data:`LEVELS` where numpy is (the test venv), all
but ``learned`` in the compiled build's venv, which installs no extra."""


def agent_for(level: str) -> Any:
    return make_agent(level, HARD_LIMIT if level in SEARCHING else None)


def view_of(game: Game, seat: int | None = None) -> PlayerView:
    seat = game.to_move if seat is None else seat
    assert seat is not None
    return PlayerView.from_dict(game.view(seat))


def mask_of_codes(codes: Sequence[str]) -> int:
    return mask_of(parse_card(code) for code in codes)


def acts(game: Game, *actions: str) -> Game:
    for action in actions:
        game.apply(action)
    return game


def random_states(rules: Rules, players: int, seed: int, every: int, limit: int = 400) -> list[Game]:
    """Copies of a seeded random game every ``every`` actions while it goes on."""
    game = Game.new(rules, players, seed=seed)
    rng = random.Random(f"states/{seed}")
    states = []
    while not game.is_over and game.num_actions < limit:
        if game.num_actions % every == 0:
            states.append(game.copy())
        game.apply(rng.choice(game.legal_actions()))
    return states


# ====================================================================== 1. the agent protocol


DATA_TYPES = (str, int, float, bool, type(None), list, tuple, dict, frozenset, Action, PlayerView, SeatView,
              CardMemory, Rules, Enum, Event)
"""What a view may be made of: plain data, interned actions, rules, their enum values, public events,
and the view's own two parts."""


def reachable(*roots: object) -> list[object]:
    """Every object reachable from ``roots`` through ``gc.get_referents``. Classes and modules
    are recorded but not entered (they lead to code, not to this game's data)."""
    seen: dict[int, object] = {}
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, (type, types.ModuleType)):
            continue
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def truly_hidden(game: Game, seat: int) -> int:
    """Cards ``seat`` cannot know, worked out from the full game (not from the bots' view
    code): cards that were never face up, are not in the seat's hand and are not the public
    trump card."""
    face_up = 0
    for _, _, mask in events(game):
        face_up |= mask
    if game.trump_card is not None:
        face_up |= 1 << parse_card(game.trump_card)
    own = mask_of_codes(game.hand(seat))
    return FULL_DECK_MASK & ~face_up & ~own


def assert_no_leak(game: Game, seat: int, view: PlayerView, legal: list[Action], where: str) -> None:
    hidden = truly_hidden(game, seat)
    hidden_codes = {CARD_CODES[card] for card in range(NUM_CARDS) if hidden >> card & 1}
    hidden_hands = {
        mask_of_codes(game.hand(s)) for s in range(game.players)
        if s != seat and mask_of_codes(game.hand(s)) & hidden
    } - set(range(1 << 13))  # small numbers are counts and indexes too
    hidden_hand_codes = [sorted(game.hand(s)) for s in range(game.players)
                         if s != seat and mask_of_codes(game.hand(s)) & hidden]
    stock = game.position().stock
    # ``excluded`` masks say which cards a seat CANNOT hold, inferred from its public play
    # (P2.4 forced pick-up, P2.5 follow suit), so they naturally name hidden cards; they
    # carry no hidden information, and must be exactly what the JSON view alone gives.
    inferred = {mask for mask in view.memory.excluded if mask}
    for obj in reachable(view, legal):
        assert not isinstance(obj, (Game, Position)), f"{where}: a {type(obj).__name__} is reachable"
        if isinstance(obj, type):
            continue
        assert isinstance(obj, DATA_TYPES), f"{where}: a {type(obj).__name__} is reachable: {obj!r}"
        if isinstance(obj, str):
            assert obj not in hidden_codes, f"{where}: hidden card {obj} is named in the view"
        elif isinstance(obj, int) and not isinstance(obj, bool):
            assert obj not in hidden_hands, f"{where}: another seat's hand mask {obj:#x} is reachable"
            if obj >= 1 << 13 and obj not in inferred:  # larger than any count or index: a card mask
                assert not obj & hidden, f"{where}: mask {obj:#x} holds hidden cards"
        elif isinstance(obj, (list, tuple)) and obj and all(isinstance(x, str) for x in obj):
            assert sorted(obj) not in hidden_hand_codes, f"{where}: another seat's hand is reachable"
        elif isinstance(obj, (list, tuple)) and len(obj) > 1 and all(isinstance(x, int) for x in obj):
            assert tuple(obj) != stock, f"{where}: the stock order is reachable"
    from_json = PlayerView.from_dict(json.loads(json.dumps(game.view(seat))))
    assert from_json.memory.excluded == view.memory.excluded, f"{where}: exclusions not derived from the view"


@functools.cache
def protocol_states() -> list[tuple[str, Game]]:
    """Copies of seeded random games of every configuration, every ninth action (built once;
    tests only read them)."""
    states = []
    for number, (name, players) in enumerate(CONFIGS):
        for game in random_states(VARIANTS[name], players, seed=1000 + number, every=9):
            states.append((f"{name}, {players} players, seed {1000 + number}, "
                           f"after {game.num_actions} actions", game))
    for number, name in enumerate(VARIANTS):  # set-up phase-2 positions (Decision 19)
        rng = random.Random(number)
        players = 3 + number % 3
        cards = rng.sample(CARD_CODES, 7 * players)  # the other cards are out of the game
        hands = [cards[7 * seat:7 * seat + 7] for seat in range(players)]
        game = Game.from_hands(VARIANTS[name], hands, trump="cdhs"[number % 4], leader=number % players)
        while not game.is_over and game.num_actions < 60:
            if game.num_actions % 4 == 0:
                states.append((f"{name}, from_hands {hands}, after {game.num_actions} actions",
                               game.copy()))
            game.apply(rng.choice(game.legal_actions()))
    return states




def test_leak_check_finds_a_game_or_hidden_cards() -> None:
    """The reachability check itself works: it notices a game or a hidden hand in a view."""
    game = Game.new("pagat", 3, seed=5)
    seat = game.to_move
    assert seat is not None
    view = view_of(game)
    legal = game.legal_actions()
    assert_no_leak(game, seat, view, legal, "clean view")
    with pytest.raises(AssertionError, match="Game"):
        assert_no_leak(game, seat, with_spy(view, {"x": game}), legal, "game inside")
    other = (seat + 1) % 3
    with pytest.raises(AssertionError, match=r"hidden card|another seat's hand"):
        assert_no_leak(game, seat, with_spy(view, {"spy": list(game.hand(other))}), legal, "hand inside")
    with pytest.raises(AssertionError, match="hidden card"):
        assert_no_leak(game, seat, with_spy(view, {"spy": ("peek", game.hand(other)[0])}), legal,
                       "card inside")
    # Bit 60 is no card: it only makes the mask large enough to be recognised as one.
    leaky_mask = dataclasses.replace(view, memory=dataclasses.replace(
        view.memory, known_hands=(0, mask_of_codes(game.hand(other)) | 1 << 60)))
    with pytest.raises(AssertionError, match="holds hidden cards"):
        assert_no_leak(game, seat, leaky_mask, legal, "mask inside")


def with_spy(view: PlayerView, spy: object) -> PlayerView:
    """``view`` with ``spy`` smuggled into its memory's event log (to test the leak check)."""
    return dataclasses.replace(view, memory=dataclasses.replace(view.memory, log=[spy]))  # type: ignore[list-item]


def test_agent_input_reaches_no_game_and_no_hidden_card() -> None:
    """Rules section 5: from what an agent receives (the PlayerView and the legal list)
    nothing leads to a Game, a Position, the stock order or another seat's hidden cards,
    for every seat, in every preset and house rule, in both phases."""
    phases = set()
    for number, (where, game) in enumerate(protocol_states()[::2]):
        # the mover (the only seat with a legal list) and one other seat in turn: each
        # check walks everything the input reaches, so every seat of every state was slow
        for seat in sorted({game.to_move if game.to_move is not None else 0, number % game.players}):
            view = view_of(game, seat)
            legal = game.legal_actions() if seat == game.to_move else []  # only the mover gets one
            assert_no_leak(game, seat, view, legal, f"{where}, seat {seat}")
        phases.add(game.phase)
    assert phases == {"collect", "shed"}


def test_agents_only_ever_receive_views() -> None:
    """The runner hands every agent a PlayerView of its own seat (never the game) and a
    legal list equal to the game's; what the agent receives is leak-free."""
    seen: list[tuple[Game, PlayerView, list[Action]]] = []

    class Spy:
        name = "spy"

        def __init__(self, game: Game) -> None:
            self.game = game

        def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random,
                   limit: Limit | None = None) -> Decision:
            assert isinstance(view, PlayerView)
            assert view.public.seat == view.public.to_move == self.game.to_move
            assert list(legal) == self.game.legal_actions()
            if len(seen) % 7 == 0:
                assert_no_leak(self.game, view.public.seat, view, list(legal), "spy")
            seen.append((self.game, view, list(legal)))
            return Decision(rng.choice(list(legal)), "spy")

    for players in (3, 5):
        game = Game.new("pagat", players, seed=players)
        spy = Spy(game)
        played = play_game(game, [spy] * players, seed=players)
        assert game.is_over and not played.capped
    assert len(seen) > 50


def _decisions_equal(a: Decision, b: Decision) -> None:
    assert (a.action, a.explanation, a.reason, a.detail, a.iterations) == (
        b.action, b.explanation, b.reason, b.detail, b.iterations)


@pytest.mark.parametrize("level", PLAYABLE)
def test_view_through_json_gives_the_same_decision(level: str) -> None:
    """A view that went through JSON text (as over a network) gives the same decision as
    ``game.view(seat)`` itself, for the same generator seed."""
    states = protocol_states()[::9] if level in SEARCHING else protocol_states()[::2]
    agent = agent_for(level)
    compared = 0
    for where, game in states:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        if len(legal) < 2:
            continue
        direct = PlayerView.from_dict(game.view(seat))
        through_json = PlayerView.from_dict(json.loads(json.dumps(game.view(seat))))
        a = agent.choose(direct, legal, seat_rng(where, seat))
        b = agent.choose(through_json, legal, seat_rng(where, seat))
        assert a.action in legal, where
        _decisions_equal(a, b)
        compared += 1
    assert compared >= (8 if level in SEARCHING else 40)


def same_view_other_hidden(game: Game, seat: int, rng: random.Random) -> Game | None:
    """A game that ``seat`` cannot tell from ``game``: the same record, but the cards the
    seat cannot know are shuffled among their places (other hands, stock, the reserved trump
    card, removed cards). Replayed from its record, so it is a genuinely different deal."""
    record = game.record()
    hidden = truly_hidden(game, seat)
    for _ in range(10):  # a deal the moves pin down fails every shuffle; a loose one passes soon
        other = json.loads(json.dumps(record))
        if "deck" in other:
            other["seed"] = None  # the seed no longer gives this deck (a record refuses that)
            deck = other["deck"]
            slots = [i for i, code in enumerate(deck) if hidden >> parse_card(code) & 1]
            cards = [deck[i] for i in slots]
            rng.shuffle(cards)
            for i, code in zip(slots, cards, strict=True):
                deck[i] = code
        else:  # a from_hands position: shuffle hidden cards between hands and removed cards
            hands = other["start"]["hands"]
            in_hands = {code for hand in hands for code in hand}
            pool = [code for hand in hands for code in hand if hidden >> parse_card(code) & 1]
            pool += [CARD_CODES[c] for c in range(NUM_CARDS)
                     if hidden >> c & 1 and CARD_CODES[c] not in in_hands]
            rng.shuffle(pool)
            for hand in hands:
                for i, code in enumerate(hand):
                    if hidden >> parse_card(code) & 1:
                        hand[i] = pool.pop()
        try:
            twin = Game.from_record(other)
        except ValueError:
            # A recorded move is no longer legal: a forced pick-up (P2.4 kortregler) or a
            # trump under follow_suit (P2.5 app) tells the table the player could not do
            # otherwise, so this deal would not look the same. Try another shuffle.
            continue
        if twin.position() != game.position():
            assert twin.view(seat) == game.view(seat)
            assert twin.legal_actions() == game.legal_actions()
            return twin
    return None  # the hidden cards all lie in one unordered place (say, all removed)


@functools.cache
def twin_states() -> list[tuple[str, Game, Game]]:
    rng = random.Random(77)
    result = []
    for where, game in protocol_states()[::5]:
        seat = game.to_move
        assert seat is not None
        if len(game.legal_actions()) < 2:
            continue
        twin = same_view_other_hidden(game, seat, rng)
        if twin is not None:
            result.append((where, game, twin))
    return result


def test_twin_games_really_differ_in_hidden_cards_only() -> None:
    """The construction used below: same view for the seat to move, different other hands
    or stock order, in both phases."""
    assert len(twin_states()) >= 30
    assert any("from_hands" in where for where, _, _ in twin_states())
    phases = set()
    for where, game, twin in twin_states():
        seat = game.to_move
        assert seat is not None
        assert twin.view(seat) == game.view(seat), where
        a, b = game.position(), twin.position()
        assert a.hands[seat] == b.hands[seat]
        assert (a.hands, a.stock, a.removed, a.trump_card) != (b.hands, b.stock, b.removed, b.trump_card)
        phases.add(game.phase)
    assert phases == {"collect", "shed"}


@pytest.mark.parametrize("level", PLAYABLE)
def test_decision_does_not_depend_on_hidden_cards(level: str) -> None:
    """Rules section 5: two games with the same view for the seat to move but different
    hidden cards get the same decision (same generator seed) from every level, the search
    bot included. A bot that peeked at the game would tell them apart."""
    agent = agent_for(level)
    states = twin_states()[::3] if level in SEARCHING else twin_states()
    for where, game, twin in states:
        seat = game.to_move
        assert seat is not None
        a = decide(agent, game, seat_rng(where, seat))
        b = decide(agent, twin, seat_rng(where, seat))
        assert a.action in game.legal_actions()
        _decisions_equal(a, b)


PUZZLE_SEAT0 = ["4h", "9h", "Kh", "5d", "6d", "3s"]
PUZZLE_A = [PUZZLE_SEAT0, ["2c", "7h", "Jd", "Qc"], ["5c", "8c", "Ad", "As", "Tc"]]
PUZZLE_B = [PUZZLE_SEAT0, ["2c", "7c", "Qd", "Js"], ["5c", "7s", "Ad", "Ts", "Kd"]]
"""The same six cards for seat 0; seats 1 and 2 hold the same number of other cards, the
same 2c and 5c (which they play face up), and otherwise different unseen cards."""


@pytest.mark.parametrize("level", PLAYABLE)
@pytest.mark.parametrize("variant", ["pagat", "kortregler", "app"])
def test_decision_in_set_up_positions_does_not_depend_on_other_hands(level: str, variant: str) -> None:
    """Two Game.from_hands puzzles that differ only in the other players' unseen cards (and
    so in the removed cards): seat 0 leads (P2.3), answers 5c (P2.4, P2.5), and answers 5c
    on top of 2c, the same way in both (hearts are trump, seat 0 holds no club)."""
    for leader, lead in ((0, ()), (2, ("5c",)), (1, ("2c", "5c"))):
        games = [acts(Game.from_hands(variant, hands, trump="h", leader=leader), *lead)
                 for hands in (PUZZLE_A, PUZZLE_B)]
        assert games[0].to_move == games[1].to_move == 0
        assert games[0].position() != games[1].position()
        assert games[0].view(0) == games[1].view(0)
        for seed in range(3):
            a, b = (decide(agent_for(level), game, seat_rng(seed, 0)) for game in games)
            assert a.action in games[0].legal_actions()
            _decisions_equal(a, b)


# ====================================================================== 2. whole games


class Checked:
    """Wraps an agent: checks every decision is one of the legal actions, explained."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name
        self.reasons: list[str] = []

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random,
               limit: Limit | None = None) -> Decision:
        decision: Decision = self.agent.choose(view, legal, rng, limit)
        assert decision.action in legal, (self.name, decision, legal)
        assert isinstance(decision.explanation, str) and decision.explanation
        self.reasons.append(decision.reason)
        return decision


def play(rules_name: str, players: int, seed: int, levels: Sequence[str]) -> list[Checked]:
    game = Game.new(VARIANTS[rules_name], players, seed=seed)
    agents = [Checked(make_agent(level, WHOLE_GAME_LIMIT if level in SEARCHING else None))
              for level in (levels[seat % len(levels)] for seat in range(players))]
    where = f"{rules_name}, {players} players, seed {seed}, levels {list(levels)}"
    played = play_game(game, agents, seed)
    assert not played.capped, f"{where}: capped after {game.num_actions} actions"
    assert game.is_over, where
    result = game.result
    assert result is not None and result.losers, where
    assert len(result.losers) + len(result.out_order) == players or result.lost_on_empty, where
    return agents


GAME_SEEDS = {"easy": 6, "normal": 6, "random": 1}
"""Seeds per player count: random games are long, and random also plays at mixed tables."""


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_rule_based_levels_finish_every_game_legally(variant: str, level: str) -> None:
    """P1.x/P2.x: every rule-based level plays seeded games of every player count to the
    end, each decision one of the legal actions (Game.apply would raise otherwise)."""
    rules = VARIANTS[variant]
    reasons: set[str] = set()
    games = 0
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(GAME_SEEDS[level]):
            for agent in play(variant, players, seed, [level]):
                reasons.update(agent.reasons)
            games += 1
    assert games == (rules.max_players - rules.min_players + 1) * GAME_SEEDS[level]
    if level != "random":  # the judgement is really used, not just forced moves
        assert {"cheapest_beat", "lead_low"} <= reasons, reasons


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_mixed_tables_finish_every_game_legally(variant: str) -> None:
    """All three rule-based levels at one table, seats rotating between games."""
    rules = VARIANTS[variant]
    mixes = (["random", "easy", "normal"], ["normal", "random", "easy"], ["easy", "normal"])
    for players in range(rules.min_players, rules.max_players + 1):
        for seed, mix in enumerate(mixes):
            play(variant, players, 100 + seed, mix)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_hard_finishes_games_legally(variant: str) -> None:
    """``hard`` with a fixed small budget plays legal, finished games: everyone searching at
    the smallest table, and one searcher among normal bots at the largest."""
    rules = VARIANTS[variant]
    searched = 0
    largest = rules.max_players
    for players, levels in ((rules.min_players, ["hard"]), (largest, ["hard"] + ["normal"] * (largest - 1))):
        agents = play(variant, players, 7, levels)
        searched += sum(agent.reasons.count("search") for agent in agents)
    assert searched > 10


# ====================================================================== 3. hand-built positions


def stacked(players: int, hands: dict[int, Sequence[str]], stock_top: Sequence[str] = (),
            stock_bottom: str | None = None) -> list[str]:
    """A 52-card deck, top first, that deals ``hands`` (C3: one card at a time clockwise from
    the dealer's left; the dealer is the last seat) and puts ``stock_top`` on the stock."""
    dealer = players - 1
    deck: list[str | None] = [None] * NUM_CARDS
    for seat, cards in hands.items():
        assert len(cards) == 3
        for round_number, code in enumerate(cards):
            offset = (seat - dealer - 1) % players + 1
            deck[round_number * players + offset - 1] = code
    for i, code in enumerate(stock_top):
        deck[3 * players + i] = code
    if stock_bottom is not None:
        deck[-1] = stock_bottom
    used = {code for code in deck if code is not None}
    rest = iter(code for code in CARD_CODES if code not in used)
    return [code if code is not None else next(rest) for code in deck]


def test_stacked_deck_deals_as_asked() -> None:
    deck = stacked(3, {0: ["9h", "2c", "3c"], 2: ["9c", "Td", "Ks"]}, stock_top=["4d"], stock_bottom="5s")
    game = Game.new("pagat", 3, deck=deck)
    assert sorted(game.hand(0)) == sorted(["9h", "2c", "3c"])
    assert sorted(game.hand(2)) == sorted(["9c", "Td", "Ks"])
    assert game.position().stock[0] == parse_card("4d")
    assert game.position().stock[-1] == parse_card("5s")


def easy_and_normal_choose(game: Game, expected: str, levels: Sequence[str] = RULE_BASED) -> None:
    """``normal`` plays ``expected``; ``easy`` does too unless it makes one of its
    deliberate careless moves (and it is careless only now and then)."""
    legal = game.legal_actions()
    assert Action.parse(expected) in legal
    assert len(legal) > 1
    for level in levels:
        agent = RuleBasedAgent(level)
        right = 0
        for seed in range(40):
            decision = decide(agent, game, random.Random(seed))
            if level == "normal" or decision.reason != "careless":
                assert str(decision.action) == expected, (level, seed, decision)
            right += str(decision.action) == expected
        assert right >= (40 if level == "normal" else 25), (level, right)


def phase2(hands: list[list[str]], leader: int, *actions: str, variant: str = "pagat",
           trump: str = "s") -> Game:
    game = acts(Game.from_hands(variant, hands, trump=trump, leader=leader), *actions)
    assert game.phase == "shed"
    return game


def test_p2_5_beats_with_the_cheapest_card_that_beats() -> None:
    """P2.5: 9h on the table, holding Th, Kh and 2s (spades trump): Th."""
    game = phase2([["Th", "Kh", "2s"], ["5c", "7d", "Jc"], ["9h", "4c", "8d"]], 2, "9h")
    assert game.to_move == 0
    easy_and_normal_choose(game, "Th")


@pytest.mark.parametrize("variant", ["pagat", "kortregler"])
def test_p2_5_does_not_waste_a_trump_when_the_suit_beats(variant: str) -> None:
    """P2.5: against 9h, the ace of hearts beats as well as the lowly 2 of spades would;
    keep the trump."""
    game = phase2([["Ah", "2s", "4c"], ["5c", "7d", "Jc"], ["9h", "6c", "8d"]], 2, "9h",
                  variant=variant)
    easy_and_normal_choose(game, "Ah")


def test_p2_5_trumps_with_the_lowest_trump_when_the_suit_cannot_beat() -> None:
    """P2.5: only a trump beats Kh here; use the lowest one."""
    game = phase2([["5h", "3s", "Js", "4c"], ["5c", "7d", "Jc"], ["Kh", "6c", "8d"]], 2, "Kh")
    easy_and_normal_choose(game, "3s")


def test_p2_4_normal_picks_up_a_two_rather_than_spend_a_high_trump() -> None:
    """P2.4 (pagat, voluntary pick-up): only a trump beats the single 2c and the trumps held
    are high (queen, king), so ``normal`` picks the 2 up instead."""
    game = phase2([["Qs", "Ks", "7h"], ["5h", "7d", "Jc"], ["2c", "6c", "8d"]], 2, "2c")
    assert {"Qs", "Ks", "pickup"} <= {str(a) for a in game.legal_actions()}
    easy_and_normal_choose(game, "pickup", levels=["normal"])


def test_p2_4_must_beat_when_pick_up_is_not_allowed() -> None:
    """P2.4 (kortregler: pick up only if you cannot beat): the same position must be beaten,
    with the lower trump."""
    game = phase2([["Qs", "Ks", "7h"], ["5h", "7d", "Jc"], ["2c", "6c", "8d"]], 2, "2c",
                  variant="kortregler")
    assert "pickup" not in {str(a) for a in game.legal_actions()}
    easy_and_normal_choose(game, "Qs")


def test_p2_4_a_low_trump_is_spent_rather_than_picking_up() -> None:
    """With a trump as low as the 3, beating the 2c costs little: ``normal`` trumps."""
    game = phase2([["3s", "Ks", "7h"], ["5h", "7d", "Jc"], ["2c", "6c", "8d"]], 2, "2c")
    easy_and_normal_choose(game, "3s")


def test_p2_2_p2_3_normal_leads_a_low_sequence_before_a_high_card() -> None:
    """P2.3 empty table, P2.2 sequences: ``normal`` sheds 4d-6d in one play rather than a
    single card, and keeps the ace."""
    game = phase2([["4d", "5d", "6d", "Ac"], ["5h", "7h", "Jc"], ["2c", "6c", "8h"]], 0)
    easy_and_normal_choose(game, "4d-6d", levels=["normal"])


def test_p2_3_leads_low_and_not_trump() -> None:
    """P2.3: on an empty table lead the low non-trump card, not the (lower) trumps or the
    high cards."""
    game = phase2([["2s", "3s", "6h", "9c", "Kd"], ["5h", "7h", "Jc"], ["2c", "6c", "8h"]], 0)
    easy_and_normal_choose(game, "6h")


def test_p2_4_forced_pick_up_when_nothing_beats() -> None:
    """P2.4: no heart above the 9 and no trump: picking up is the only legal move, and every
    level (hard too, without searching) plays it."""
    game = phase2([["5h", "3d", "Qc"], ["5c", "7d", "Jc"], ["9h", "6c", "8d"]], 2, "9h")
    assert [str(a) for a in game.legal_actions()] == ["pickup"]
    for level in PLAYABLE:
        decision = decide(make_agent(level, Limit(iterations=10_000)), game, random.Random(1))
        assert decision.action is PICKUP
        assert decision.iterations == 0


def test_forced_single_card_lead() -> None:
    """P2.3 with a one-card hand: the only legal move is played by every level."""
    game = phase2([["7h"], ["5c", "7d", "Jc"], ["9h", "6c", "8d"]], 0)
    assert [str(a) for a in game.legal_actions()] == ["7h"]
    for level in PLAYABLE:
        decision = decide(make_agent(level, Limit(iterations=10_000)), game, random.Random(2))
        assert str(decision.action) == "7h"
        assert decision.iterations == 0


def phase1_last_to_play(mine: list[str], first: str, second: str, variant: str = "pagat") -> Game:
    """A three-player phase-1 trick where seats 0 and 1 have played ``first`` and ``second``
    and seat 2 (the dealer) plays last."""
    deck = stacked(3, {0: [first, "2d", "3d"], 1: [second, "2h", "3h"], 2: mine})
    game = acts(Game.new(variant, 3, deck=deck), first, second)
    assert game.phase == "collect" and game.to_move == 2 and game.due == [2]
    assert sorted(game.hand(2)) == sorted(mine)
    return game


@pytest.mark.parametrize("variant", ["pagat", "kortregler", "app"])
def test_p1_3_last_to_play_wins_with_the_cheapest_winning_card(variant: str) -> None:
    """P1.3: only rank counts, so the 9c does not beat the 9h; the cheapest card that wins
    is the ten."""
    if variant == "kortregler":  # P1.2 pair: a duel, seat 0 against seat 1; seat 1 is last
        deck = stacked(3, {0: ["9h", "2d", "3d"], 1: ["9c", "Td", "Ks"], 2: ["2h", "3h", "4h"]})
        game = acts(Game.new(variant, 3, deck=deck), "9h")
        assert game.to_move == 1 and game.due == [1]
    else:
        game = phase1_last_to_play(["9c", "Td", "Ks"], "9h", "4c", variant)
    easy_and_normal_choose(game, "Td")


@pytest.mark.parametrize("variant", ["pagat", "app"])
def test_p1_3_cannot_win_so_sacrifices_the_lowest_card(variant: str) -> None:
    """P1.3: nothing in hand beats the ten, so give away the lowest card."""
    game = phase1_last_to_play(["8s", "3c", "5d"], "9h", "Tc", variant)
    easy_and_normal_choose(game, "3c")


def test_p1_4_no_chancing_against_a_king_sacrifices_the_lowest() -> None:
    """P1.4 (app: no sjansing): against a king with a weak hand, the lowest card goes."""
    game = phase1_last_to_play(["8s", "3c", "5d"], "9h", "Kc", "app")
    assert CHANCE not in game.legal_actions()
    easy_and_normal_choose(game, "3c")


def test_rule_based_names() -> None:
    assert RuleBasedAgent("easy").name == "easy"
    assert RuleBasedAgent("normal").name == "normal"
    assert RandomAgent().name == "random"
    with pytest.raises(ValueError):
        RuleBasedAgent("hard")
    with pytest.raises(ValueError, match="unknown level"):
        make_agent("grandmaster")
    assert [make_agent(level).name for level in PLAYABLE] == list(PLAYABLE)
    assert set(LEVELS) - set(PLAYABLE) <= {"learned"}


# ====================================================================== 4. the hard bot


def test_hard_is_reproducible_for_a_seed() -> None:
    """With an iteration limit, the same view and seed give the same action and the same
    explanation, and the explanation reports the search."""
    checked = 0
    for where, game in protocol_states()[5::23]:
        legal = game.legal_actions()
        if len(legal) < 2:
            continue
        view = view_of(game)
        first = IsmctsAgent(Limit(iterations=40)).choose(view, legal, random.Random(where))
        again = IsmctsAgent(Limit(iterations=40)).choose(view_of(game), legal, random.Random(where))
        _decisions_equal(first, again)
        assert first.action in legal
        match = EXPLANATION.match(first.explanation)
        assert match, first.explanation
        share, simulations, action, safe = match.groups()
        assert int(simulations) == first.iterations
        assert 1 <= first.iterations <= 40
        assert Action.parse(action) == first.action
        assert 0 < int(share) <= 100 and 0 <= int(safe) <= 100
        assert first.reason == "search"
        assert dict(first.detail)["iterations"] == simulations
        checked += 1
    assert checked >= 5


def test_hard_a_larger_budget_runs_more_simulations() -> None:
    """An iteration limit is a maximum (the search may stop once its choice is settled): at
    the start of a game with several plausible leads, a larger budget runs more
    simulations, and neither runs more than allowed."""
    game = Game.new("pagat", 3, seed=11)
    small = decide(IsmctsAgent(Limit(iterations=20)), game, random.Random(1))
    large = decide(IsmctsAgent(Limit(iterations=200)), game, random.Random(1))
    assert small.iterations <= 20 < large.iterations <= 200


def test_hard_limit_is_passed_through_choose() -> None:
    """A limit given to ``choose`` overrides the agent's own."""
    game = Game.new("app", 4, seed=3)
    agent = IsmctsAgent(Limit(iterations=500))
    decision = agent.choose(view_of(game), game.legal_actions(), random.Random(0), Limit(iterations=12))
    assert 1 <= decision.iterations <= 12


def test_hint_for_gives_a_legal_explained_action() -> None:
    for variant, players in (("pagat", 3), ("kortregler", 2), ("app", 5)):
        for where, game in protocol_states():
            if where.startswith(f"{variant}, {players} players") and len(game.legal_actions()) > 1:
                decision = hint_for(game, random.Random(3), Limit(iterations=50))
                assert decision.action in game.legal_actions()
                assert decision.explanation
                assert EXPLANATION.match(decision.explanation)
                seat = game.to_move
                assert seat is not None
                same = hint(game.view(seat), game.legal_actions(), random.Random(3), Limit(iterations=50))
                _decisions_equal(decision, same)
                break
        else:
            raise AssertionError(f"no state for {variant} {players}")


def test_hint_for_a_finished_game_is_refused() -> None:
    game = Game.new("pagat", 3, seed=2)
    play_game(game, [make_agent("normal")] * 3, 2)
    assert game.is_over
    with pytest.raises(ValueError, match="over"):
        hint_for(game, random.Random(0), Limit(iterations=5))


def test_hard_forced_move_returns_at_once() -> None:
    """One legal action: returned at once, with no search (0 iterations)."""
    game = phase2([["5h", "3d", "Qc"], ["5c", "7d", "Jc"], ["9h", "6c", "8d"]], 2, "9h")
    decision = hint_for(game, random.Random(0), Limit(iterations=1_000_000))
    assert decision.action is PICKUP
    assert decision.iterations == 0
    assert decision.reason == "forced"
    assert decision.explanation


def test_limit_needs_a_budget() -> None:
    with pytest.raises(ValueError):
        Limit()
    with pytest.raises(ValueError):
        Limit(iterations=0)
    with pytest.raises(ValueError):
        Limit(seconds=-1.0)


# ====================================================================== 5. the expert bot


def rollout_choice(game: Game) -> str:
    """What the expert's informed rollout policy plays in ``game`` with no random moves."""
    return str(informed_rollout_action(game, game.legal_actions(), random.Random(0), 0.0))


def test_expert_rollout_p1_3_last_to_play_wins_with_the_cheapest_winning_card() -> None:
    """P1.3 in a rollout: last to play against 9h, the ten is the cheapest card that wins."""
    assert rollout_choice(phase1_last_to_play(["9c", "Td", "Ks"], "9h", "4c")) == "Td"


def test_expert_rollout_p1_3_cannot_win_so_gives_the_lowest_card() -> None:
    """P1.3 in a rollout: nothing beats the ten, so the lowest card goes."""
    assert rollout_choice(phase1_last_to_play(["8s", "3c", "5d"], "9h", "Tc")) == "3c"


def test_expert_rollout_p1_3_beats_a_king_only_with_an_ace() -> None:
    """P1.3: seat 0 led the king; seat 2, last of the round, takes it with the ace, and
    with no card above the king gives the lowest."""
    game = phase1_last_to_play(["Ac", "4s", "6d"], "Kh", "2c")
    assert rollout_choice(game) == "Ac"  # last to play: the ace is the one winner
    game = phase1_last_to_play(["Qc", "4s", "6d"], "Kh", "2c")
    assert rollout_choice(game) == "4s"


def test_expert_rollout_p2_3_leads_low_and_long() -> None:
    """P2.2/P2.3 in a rollout: on an empty table, the low heart sequence, not the trump
    two (spades are trump) and not the king."""
    game = phase2([["4h", "5h", "Kh", "2s"], ["5c", "7d", "Jc"], ["9h", "4c", "8d"]], 0)
    assert rollout_choice(game) == "4h-5h"


def test_expert_rollout_p2_4_picks_up_a_two_rather_than_spend_a_high_trump() -> None:
    """P2.4/P2.5 in a rollout: 2h then 5h on the table, seat 0 holds no heart and only the
    nine and jack of trumps beat: picking up the 2h is cheaper (the ``normal`` rule)."""
    game = phase2([["9s", "Js", "4c"], ["2h", "7d", "Jc"], ["5h", "4d", "8d"]], 1, "2h", "5h")
    assert game.to_move == 0
    assert {str(a) for a in game.legal_actions()} == {"9s", "Js", "pickup"}
    assert rollout_choice(game) == "pickup"
    # With a low trump it beats instead: the four of spades is cheap to spend.
    game = phase2([["4s", "Js", "4c"], ["2h", "7d", "Jc"], ["5h", "4d", "8d"]], 1, "2h", "5h")
    assert rollout_choice(game) == "4s"


def test_expert_rollouts_differ_from_hard_rollouts() -> None:
    """The informed policy really is another policy: in phase 1, where ``hard``'s rollout
    plays a random card, it wins the round with the cheapest winner every time."""
    game = phase1_last_to_play(["9c", "Td", "Ks"], "9h", "4c")
    legal = game.legal_actions()
    hard_choices = {str(rollout_action(game, legal, random.Random(seed), 0.0)) for seed in range(30)}
    assert len(hard_choices) > 1
    assert {str(informed_rollout_action(game, legal, random.Random(seed), 0.0))
            for seed in range(30)} == {"Td"}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_expert_finishes_games_legally(variant: str) -> None:
    """``expert`` with a fixed small budget plays legal, finished games from its views:
    everyone searching at the smallest table, and one expert among normal bots at the
    largest."""
    rules = VARIANTS[variant]
    searched = 0
    largest = rules.max_players
    for players, levels in ((rules.min_players, ["expert"]),
                            (largest, ["expert"] + ["normal"] * (largest - 1))):
        agents = play(variant, players, 8, levels)
        searched += sum(agent.reasons.count("search") for agent in agents)
    assert searched > 10


def test_expert_is_reproducible_and_respects_its_budget() -> None:
    """With an iteration limit the expert gives the same decision for the same view and
    seed, explains its search like ``hard``, and never runs more than allowed."""
    checked = 0
    for where, game in protocol_states()[7::23]:
        legal = game.legal_actions()
        if len(legal) < 2:
            continue
        first = ExpertAgent(Limit(iterations=40)).choose(view_of(game), legal, random.Random(where))
        again = ExpertAgent(Limit(iterations=40)).choose(view_of(game), legal, random.Random(where))
        _decisions_equal(first, again)
        assert first.action in legal and 1 <= first.iterations <= 40
        assert EXPLANATION.match(first.explanation), first.explanation
        checked += 1
    assert checked >= 5
    game = Game.new("pagat", 3, seed=11)
    decision = ExpertAgent(Limit(iterations=500)).choose(
        view_of(game), game.legal_actions(), random.Random(0), Limit(iterations=15))
    assert 1 <= decision.iterations <= 15


def test_expert_is_a_level_above_hard() -> None:
    """``expert`` follows ``hard`` (then ``master``, the search guided by a network, and the
    trained ``learned`` network), with a larger default budget than ``hard``."""
    assert LEVELS[-4:] == ("hard", "expert", "master", "learned")
    agent = make_agent("expert")
    assert isinstance(agent, ExpertAgent) and agent.limit == EXPERT_LIMIT
    assert EXPERT_LIMIT.iterations is not None and EXPERT_LIMIT.seconds is not None
    assert EXPERT_LIMIT.seconds > (DEFAULT_LIMIT.seconds or 0)
