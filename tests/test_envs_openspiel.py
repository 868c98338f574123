"""Tests of the OpenSpiel game ``python_mattis`` and the OpenSpiel ISMCTS agent.

1. The game loads by name with the house rules as parameters and passes OpenSpiel's
   ``random_sim_test`` (``serialize=False``, as OpenSpiel tests its own Python games).
2. Chance is explicit: 52 chance nodes choose the deck, each remaining card equally likely.
3. Games and states round-trip through ``pickle`` and ``pyspiel.serialize_game_and_state``.
4. ``resample_from_infostate`` gives states the seat cannot tell apart: the same
   information-state string and tensor, with the hidden cards placed anew.
5. OpenSpiel's Python ``ISMCTSBot`` plays the game, and :class:`OpenSpielIsmctsAgent` plays
   whole games through our agent protocol, seeing only its seat's view.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from mattis import Game, Rules
from mattis.bots import Agent, PlayerView, make_agent, play_game
from mattis.envs.encoding import OBSERVATION_SIZE
from mattis.envs.openspiel import GAME_NAME, MattisState, OpenSpielIsmctsAgent, load_game


def random_state(game: pyspiel.Game, seed: int, player_actions: int) -> MattisState:
    """Deal by chance, then play ``player_actions`` random legal actions (or to the end)."""
    rng = random.Random(seed)
    state: MattisState = game.new_initial_state()
    done = 0
    while state.is_chance_node() or (not state.is_terminal() and done < player_actions):
        if state.is_chance_node():
            outcomes = [card for card, _ in state.chance_outcomes()]
            state.apply_action(outcomes[rng.randrange(len(outcomes))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return state


@pytest.mark.parametrize("spec", ["python_mattis(players=3,rules=pagat)",
                                  "python_mattis(players=2,rules=kortregler)",
                                  "python_mattis(players=4,rules=app)"])
def test_random_sim_test_passes(spec: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("spec", ["python_mattis(players=3,rules=pagat)",
                                  "python_mattis(players=2,rules=kortregler)",
                                  "python_mattis(players=4,rules=app)"])
def test_legal_actions_answered_in_python_equal_openspiels_own(spec: str) -> None:
    """``MattisState.legal_actions`` skips OpenSpiel's round trip through C++ for the player
    to move; for every seat, with and without a player, at chance nodes, mid-game and at the
    end, it gives what ``pyspiel.State.legal_actions`` gives (or the same error)."""
    game = pyspiel.load_game(spec)

    def answer(method: object, state: MattisState, player: int | None) -> list[int] | str:
        try:
            return method(state) if player is None else method(state, player)  # type: ignore[operator, no-any-return]
        except pyspiel.SpielError as error:
            return str(error)

    rng = random.Random(3)
    for _ in range(3):
        state: MattisState = game.new_initial_state()
        player_nodes = 0
        while True:
            for player in (None, *range(game.num_players()), game.num_players(), -1):
                ours = answer(MattisState.legal_actions, state, player)
                assert ours == answer(pyspiel.State.legal_actions, state, player), (player, str(state))
            if state.is_terminal():
                break
            player_nodes += not state.is_chance_node()
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            state.apply_action(legal[rng.randrange(len(legal))])
        assert player_nodes > 10


def test_house_rules_are_parameters() -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(players=4,rules=app,min_sequence=3,follow_suit=0,tie=replay)")
    state = random_state(game, seed=0, player_actions=0)
    assert state.mattis_game is not None
    assert state.mattis_game.rules == Rules.preset("app").with_options(
        min_sequence=3, follow_suit=False, tie="replay")
    assert state.mattis_game.players == game.num_players() == 4
    house = Rules.preset("kortregler").with_options(min_sequence=2)
    assert load_game(house, 5).get_parameters()["min_sequence"] == 2
    assert load_game(house, 5).config.rules == house


@pytest.mark.parametrize(("spec", "message"), [
    ("python_mattis(players=2)", "players: pagat allows 3-6 players, got 2"),
    ("python_mattis(rules=bridge)", "unknown preset 'bridge'"),
    ("python_mattis(follow_suit=2)", "follow_suit: give 0 or 1"),
    ("python_mattis(trump=sideways)", "trump: expected one of"),
])
def test_bad_parameters_fail_with_one_clear_error(spec: str, message: str) -> None:
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(spec)


def test_the_shuffle_is_52_explicit_chance_nodes() -> None:
    game = pyspiel.load_game("python_mattis(players=3)")
    assert game.max_chance_outcomes() == 52 and game.num_distinct_actions() == 366
    state = game.new_initial_state()
    deck = []
    for step in range(52):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - step
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        card = outcomes[(step * 7) % len(outcomes)][0]
        deck.append(card)
        state.apply_action(card)
    assert not state.is_chance_node()
    assert state.mattis_game == Game.new("pagat", 3, deck=deck)


def test_games_and_states_round_trip_through_pickle_and_serialization() -> None:
    game = pyspiel.load_game("python_mattis(players=4,rules=kortregler,min_sequence=2)")
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    for seed, actions in [(1, 0), (2, 40), (3, 10_000)]:
        state = random_state(game, seed, actions)
        copy = pickle.loads(pickle.dumps(state))
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.mattis_game == state.mattis_game
        text = pyspiel.serialize_game_and_state(game, state)
        new_game, new_state = pyspiel.deserialize_game_and_state(text)
        assert str(new_game) == str(game)
        assert str(new_state) == str(state) and new_state.history() == state.history()
        assert new_state.returns() == state.returns()


@pytest.mark.parametrize("spec", ["python_mattis(players=3)", "python_mattis(players=5,rules=kortregler)",
                                  "python_mattis(players=4,rules=app)"])
def test_resampled_states_look_the_same_to_the_seat(spec: str) -> None:
    game = pyspiel.load_game(spec)
    moved = 0
    for seed in range(12):
        state = random_state(game, seed, player_actions=seed * 15)
        if state.is_terminal():
            continue
        player = state.current_player()
        rng = random.Random(seed)
        resampled = state.resampled(player, rng)
        again = resampled.resampled(player, rng)  # resampling a resampled state works too
        for other in (resampled, again):
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert np.array_equal(other.information_state_tensor(player),
                                  state.information_state_tensor(player))
            assert other.legal_actions() == state.legal_actions()
        real, sampled = state.mattis_game, resampled.mattis_game
        assert real is not None and sampled is not None
        others = [seat for seat in range(game.num_players()) if seat != player]
        moved += any(real.hand(seat) != sampled.hand(seat) for seat in others)
    assert moved > 0
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE]


def test_openspiel_python_ismcts_bot_plays_the_game() -> None:
    game = pyspiel.load_game("python_mattis(players=3)")
    state = random_state(game, seed=4, player_actions=0)
    numpy_rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, numpy_rng), 2.0, max_simulations=8,
                           random_state=numpy_rng)
    for _ in range(6):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_openspiel_ismcts_agent_plays_whole_games_from_views_only() -> None:
    agents: list[Agent] = [OpenSpielIsmctsAgent(simulations=4), make_agent("normal"), make_agent("random")]
    for rules in ("pagat", "app"):
        game = Game.new(rules, 3, seed=8)
        played = play_game(game, agents, seed=8)  # play_game applies with Game.apply: legal moves only
        assert game.is_over and not played.capped
        assert any(decision.seat == 0 and decision.iterations == 4 for decision in played.decisions)


def test_openspiel_ismcts_agent_with_random_rollouts_plays_too() -> None:
    game = Game.new("app", 4, seed=2)
    agents: list[Agent] = [OpenSpielIsmctsAgent(simulations=3, rollouts="random")] + [
        make_agent("easy") for _ in range(3)]
    played = play_game(game, agents, seed=2)
    assert game.is_over and any(decision.seat == 0 for decision in played.decisions)
    with pytest.raises(ValueError, match="rollouts: expected one of heuristic, random"):
        OpenSpielIsmctsAgent(rollouts="greedy")
    with pytest.raises(ValueError, match="simulations: must be at least 1"):
        OpenSpielIsmctsAgent(simulations=0)


def test_openspiel_ismcts_agent_is_reproducible_for_a_seed() -> None:
    game = Game.new("kortregler", 4, seed=3)
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    view = PlayerView.from_dict(game.view(game.to_move or 0))
    agent = OpenSpielIsmctsAgent(simulations=6)
    first = agent.choose(view, game.legal_actions(), random.Random(1))
    assert agent.choose(view, game.legal_actions(), random.Random(1)) == first
    assert first.action in game.legal_actions() and "6 simulations" in first.explanation


def test_openspiel_ismcts_agent_decides_the_same_when_only_hidden_cards_differ() -> None:
    """Two deals that look the same to seat 0 (two cards it cannot see trade places) get
    the same decision: the agent has nothing but the view to go on."""
    deck = list(range(52))
    random.Random(9).shuffle(deck)
    other = deck[:]
    other[1], other[20] = other[20], other[1]  # seat 1's first card and a stock card
    first, second = Game.new("pagat", 3, deck=deck), Game.new("pagat", 3, deck=other)
    assert first.view(0) == second.view(0) and first.hand(1) != second.hand(1)
    agent = OpenSpielIsmctsAgent(simulations=12)
    decisions = [agent.choose(PlayerView.from_dict(game.view(0)), game.legal_actions(), random.Random(4))
                 for game in (first, second)]
    assert decisions[0] == decisions[1]
