"""The ``master`` level (:mod:`mattis.bots.guided`, issue 27 item 2): information-set search
guided by a policy-and-value network.

1. It plays only legal moves, whole games of every preset, and answers a forced move without
   searching.
2. It is reproducible: the same view and seed with an iteration budget give the same move.
3. It cannot cheat (rules section 5): two games that look the same to the seat to move but
   differ in hidden cards ask the evaluator exactly the same questions, and every view the
   evaluator gets holds only what its seat may know: the public memory of the events, and its
   own hand in the sampled world.
4. It is offered everywhere the levels are: the level lists, budgets (``master:50``,
   ``master:0.2s``), tables and their thinking time, the start page's labels and help in nb,
   nn and en; without numpy it is not offered.

The unit tests give the search a tiny random network (``random_network``), which is quick;
the agent made by level name plays the shipped one. Other tests of every level
(``tests/test_bots.py``) run ``master`` too.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from functools import cache

import pytest

from mattis import Game, Rules
from mattis.bots import (
    LEVELS,
    MASTER_LIMIT,
    NUMPY_LEVELS,
    SEARCHING_LEVELS,
    GuidedAgent,
    Limit,
    PlayerView,
    available_levels,
    decide,
    make_agent,
    missing_extra,
    play_game,
    seat_rng,
    seat_view,
)
from mattis.bots.encoding import OBSERVATION_SIZE
from mattis.bots.entrants import make_entrant_agent, parse_entrant
from mattis.bots.guided import MAX_SEATS, LeafEvaluator
from mattis.bots.network import NetworkEvaluator, random_network, shipped_network
from mattis.bots.view import CardTracker
from mattis.extras import install_command
from mattis.table.config import table_profile
from mattis.table.rating import BOT_PRIORS
from mattis.tools.tournament import SEARCHING, entrant_spec

from .test_bots import EXPLANATION, twin_states

Answer = tuple[Sequence[float], Sequence[float]]
"""What an evaluator answers: priors and risks."""
BUDGET = Limit(iterations=40)
"""A small fixed budget: reproducible for a seed and quick."""


@cache
def tiny_network() -> NetworkEvaluator:
    return NetworkEvaluator(random_network(7, hidden=(16,)))


class Recording:
    """An evaluator that keeps every view and legal list it was asked about."""

    def __init__(self, inner: LeafEvaluator) -> None:
        self.inner = inner
        self.asked: list[tuple[PlayerView, tuple[int, ...]]] = []

    def __call__(self, view: PlayerView, legal_indices: Sequence[int]) -> Answer:
        self.asked.append((view, tuple(legal_indices)))
        return self.inner(view, legal_indices)


def guided(evaluator: LeafEvaluator | None = None, limit: Limit = BUDGET) -> GuidedAgent:
    return GuidedAgent(limit, evaluator=evaluator or tiny_network())


def states(preset: str, players: int, seed: int, every: int) -> list[Game]:
    """Copies of a seeded random game every ``every`` actions, where the mover has a choice."""
    game = Game.new(Rules.preset(preset), players, seed=seed)
    rng = random.Random(seed)
    found = []
    while not game.is_over:
        if game.num_actions % every == 0 and len(game.legal_actions()) > 1:
            found.append(game.copy())
        game.apply(rng.choice(game.legal_actions()))
    return found


# ====================================================================== 1. legal moves


@pytest.mark.parametrize("preset", ["pagat", "kortregler", "app"])
def test_master_finishes_whole_games_legally(preset: str) -> None:
    """Every move ``play_game`` gets is applied with ``Game.apply``, which refuses an illegal
    one; the games end (not capped) with a loser."""
    for players in (3, 5):
        game = Game.new(Rules.preset(preset), players, seed=players)
        agents = [guided(limit=Limit(iterations=8)) if seat % 2 == 0 else make_agent("normal")
                  for seat in range(players)]
        played = play_game(game, agents, seed=players)
        assert not played.capped and game.is_over, (preset, players)
        assert game.result is not None and game.result.losers


def test_a_forced_move_is_played_without_searching() -> None:
    def never(view: PlayerView, legal_indices: Sequence[int]) -> Answer:
        raise AssertionError("a forced move needs no evaluation")

    game = Game.new("pagat", 3, seed=1)
    legal = game.legal_actions()[:1]
    decision = GuidedAgent(BUDGET, evaluator=never).choose(seat_view(game, 0), legal, random.Random(0))
    assert (decision.action, decision.reason, decision.iterations) == (legal[0], "forced", 0)


def test_a_rollout_may_be_mixed_into_the_leaf_value() -> None:
    """``rollout_weight`` 1 scores a leaf by ``hard``'s rollout alone: a search with an
    evaluator that knows nothing (even priors, every risk 1/2) still searches and chooses.
    Weights outside 0-1 are refused."""
    def flat(view: PlayerView, legal_indices: Sequence[int]) -> Answer:
        return [1 / len(legal_indices)] * len(legal_indices), [0.5] * MAX_SEATS

    game = states("pagat", 3, 4, 11)[2]
    seat = game.to_move
    assert seat is not None
    agent = GuidedAgent(Limit(iterations=50), evaluator=flat, rollout_weight=1.0)
    decision = agent.choose(seat_view(game, seat), game.legal_actions(), random.Random(3))
    assert decision.action in game.legal_actions() and 1 <= decision.iterations <= 50
    assert decision.reason == "search"
    for weight in (-0.1, 1.5):
        with pytest.raises(ValueError, match="rollout_weight"):
            GuidedAgent(rollout_weight=weight)


# ====================================================================== 2. reproducible


def test_same_view_and_seed_give_the_same_move_and_a_search_explanation() -> None:
    checked = 0
    for game in states("pagat", 4, 3, 17)[:6]:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        first = guided().choose(seat_view(game, seat), legal, random.Random(seat))
        again = guided().choose(PlayerView.from_dict(json.loads(json.dumps(game.view(seat)))), legal,
                                random.Random(seat))
        assert first == again and first.action in legal
        match = EXPLANATION.match(first.explanation)
        assert match and first.reason == "search" and int(match[2]) == first.iterations <= 40
        checked += 1
    assert checked >= 4


# ====================================================================== 3. no cheating


def test_twin_games_ask_the_evaluator_the_same_questions() -> None:
    """Rules section 5: the search of a game and of its twin (same view for the seat to move,
    other hidden cards) gives every leaf the same view, so the decision is the same too. A
    search that built a leaf from the real game would tell them apart."""
    compared = 0
    for where, game, twin in twin_states()[::4]:
        seat = game.to_move
        assert seat is not None
        records = [Recording(tiny_network()), Recording(tiny_network())]
        decisions = [decide(guided(record, Limit(iterations=25)), played, seat_rng(where, seat))
                     for record, played in zip(records, (game, twin), strict=True)]
        assert decisions[0] == decisions[1], where
        assert len(records[0].asked) == len(records[1].asked) > 1
        for (view_a, legal_a), (view_b, legal_b) in zip(records[0].asked, records[1].asked, strict=True):
            assert legal_a == legal_b and view_a.public == view_b.public and view_a.memory == view_b.memory
        compared += 1
    assert compared >= 6


def public_memory(root: PlayerView, leaf: PlayerView) -> CardTracker:
    """What everyone knows at ``leaf``: the root's public events and the leaf's, followed
    from the start by a fresh tracker."""
    tracker = CardTracker(root.public.players, root.public.rules)
    tracker.trump_suit = root.public.trump_suit
    tracker.feed(root.memory.log[:root.memory.count])
    tracker.feed(leaf.public.events)
    return tracker


@pytest.mark.parametrize("every", [7, 29])
def test_leaf_views_hold_only_what_their_seat_may_know(every: int) -> None:
    """A leaf's view is the seat to move there: its own hand (in the sampled world) and, of
    every other seat, only what the public events showed: what a fresh tracker fed the root's
    events and the leaf's knows. Its history goes on from the root's."""
    checked = 0
    for game in states("kortregler", 4, every, every)[:8]:
        seat = game.to_move
        assert seat is not None
        root = seat_view(game, seat)
        record = Recording(tiny_network())
        guided(record, Limit(iterations=30)).choose(root, game.legal_actions(), random.Random(every))
        assert record.asked[0][0] is root  # the root itself: the real view
        for leaf, legal in record.asked[1:]:
            public, memory = leaf.public, leaf.memory
            assert public.to_move == public.seat and legal
            assert public.history_start == root.public.event_count
            assert memory.count == public.event_count == root.public.event_count + len(public.events)
            assert memory.known_hands[public.seat] == public.hand
            known = public_memory(root, leaf)
            for other in range(public.players):
                if other != public.seat:
                    assert memory.known_hands[other] == known.known_hands[other]
            assert (memory.known_won, memory.gone, memory.excluded, memory.played_by) == (
                tuple(known.known_won), known.gone, tuple(known.excluded), tuple(known.played_by))
            checked += 1
    assert checked > 100


def test_risks_are_read_per_relative_seat() -> None:
    """The evaluator's risks count seats from the leaf's player (slot 0 itself, slot 1 the
    player on its left …). An evaluator that always says, in each view's own terms, that one
    given seat will be Mattis makes that seat's every simulation end badly and no other's."""
    game = Game.new("pagat", 4, seed=5)
    seat = game.to_move
    assert seat is not None

    def doomed(target: int) -> LeafEvaluator:
        def evaluate(view: PlayerView, legal_indices: Sequence[int]) -> Answer:
            risks = [0.0] * MAX_SEATS
            risks[(target - view.public.seat) % view.public.players] = 1.0
            return [1 / len(legal_indices)] * len(legal_indices), risks
        return evaluate

    for target, safe in ((seat, "0%"), ((seat + 1) % 4, "100%"), ((seat + 2) % 4, "100%")):
        decision = GuidedAgent(Limit(iterations=60), evaluator=doomed(target),
                                   rollout_weight=0.0).choose(
            seat_view(game, seat), game.legal_actions(), random.Random(1))
        assert dict(decision.detail)["safe"] == safe, target


# ====================================================================== 4. offered everywhere


def test_the_shipped_network_loads_and_guides_the_level() -> None:
    """``mattis/data/master.npz`` is a policy-and-value network of the encoding's size, and
    the agent made by level name plays it."""
    network = shipped_network()
    assert network.trunk_weights[0].shape[0] == OBSERVATION_SIZE and network.parameters > 0
    game = Game.new("pagat", 3, seed=9)
    agent = make_agent("master", Limit(iterations=10))
    assert isinstance(agent, GuidedAgent) and agent.evaluator is None  # read at the first move
    decision = decide(agent, game, random.Random(0))
    assert decision.action in game.legal_actions() and isinstance(agent.evaluator, NetworkEvaluator)
    assert agent.evaluator.network is network


def test_master_is_a_searching_level_that_needs_numpy() -> None:
    assert LEVELS.index("master") == LEVELS.index("expert") + 1
    assert "master" in SEARCHING_LEVELS and "master" in SEARCHING and "master" in NUMPY_LEVELS
    assert "master" in available_levels()
    agent = make_agent("master")
    assert isinstance(agent, GuidedAgent) and agent.name == "master" and agent.limit == MASTER_LIMIT
    assert BOT_PRIORS["master"].mu > BOT_PRIORS["expert"].mu


def test_without_numpy_master_is_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    import mattis.bots

    monkeypatch.setattr(mattis.bots, "installed", lambda name: False)
    assert "master" not in available_levels() and "learned" not in available_levels()
    message = missing_extra(["normal", "master"])
    assert message is not None and "master" in message and install_command("rl") in message
    assert missing_extra(["normal", "hard"]) is None


def test_master_budgets_are_parsed() -> None:
    assert parse_entrant("master:50") == "master:50"
    assert parse_entrant(" Master:0.2s ") == "master:0.2s"
    assert entrant_spec("master:50").limit == Limit(iterations=50)
    agent = make_entrant_agent("master:0.2s", Limit(iterations=5))  # its own budget wins
    assert isinstance(agent, GuidedAgent) and agent.limit == Limit(seconds=0.2)
    plain = make_entrant_agent("master", Limit(iterations=5))  # a tournament's budget is hard's
    assert isinstance(plain, GuidedAgent) and plain.limit == MASTER_LIMIT


def test_tables_seat_master_with_their_thinking_time() -> None:
    server, device = table_profile("server"), table_profile("device")
    assert "master" in server.levels()
    assert server.thinking_seconds("master") == server.master_seconds == MASTER_LIMIT.seconds
    assert device.thinking_seconds("master") > server.thinking_seconds("hard")
    assert isinstance(server.make_agent("master"), GuidedAgent)


@pytest.mark.parametrize(("lang", "label", "words"), [
    ("nb", "mester", "nevralt nett"), ("nn", "meister", "nevralt nett"), ("en", "master", "neural network")])
def test_the_start_page_offers_master_in_every_language(lang: str, label: str, words: str) -> None:
    from mattis.web.app import options_payload

    levels = {level["level"]: level for level in options_payload(lang)["levels"]}  # type: ignore[arg-type]
    assert levels["master"]["label"] == label
    assert words in levels["master"]["description"] and "1" in levels["master"]["description"]


def test_guided_search_runs_without_numpy() -> None:
    """The offline app's Pyodide has no numpy: the module imports, and searches with an
    evaluator of its own."""
    code = """
import random, sys
sys.modules["numpy"] = None
from mattis import Game
from mattis.bots.guided import MAX_SEATS, GuidedAgent
from mattis.bots import Limit, seat_view
def flat(view, legal):
    return [1 / len(legal)] * len(legal), [0.25] * MAX_SEATS
game = Game.new("pagat", 3, seed=2)
decision = GuidedAgent(Limit(iterations=20), evaluator=flat, early_stop=False).choose(
    seat_view(game, game.to_move), game.legal_actions(), random.Random(0))
print(decision.reason, decision.iterations, "numpy" in sys.modules and sys.modules["numpy"] is not None)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["search", "20", "False"]
