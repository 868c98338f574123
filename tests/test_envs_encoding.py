"""Tests of the incremental observation (``mattis.envs.encoding.SeatEncoder``) and of the
environments that use it.

1. Same observation as before (rules section 5: still a function of the seat's view only):
   a seat's encoder, fed only the events since its last update, gives exactly the vector
   :func:`encode_view` works out from the whole view, at every step of whole games of every
   preset and house rule and every allowed player count (2-6), and of long phase-2 games
   in which players keep picking up (P2.4).
   Packed (``SeatEncoder.pack``) and unpacked for a whole batch at once (``unpack_into``), the
   vector is the same, bit for bit.
2. Each environment (PettingZoo, Gymnasium, OpenSpiel) hands out that same vector at every
   step, including OpenSpiel states that were cloned or resampled; what it hands out is a
   copy, not its encoder's own vector.

(That a step costs the same at action 5 and at action 3,000 is measured, not tested:
``benchmarks/env_speed.py``.)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pyspiel
import pytest

import mattis.envs.openspiel  # noqa: F401 - registers python_mattis
from mattis import PICKUP, Game, Rules
from mattis.core.cards import CARD_CODES
from mattis.envs.encoding import (
    OBSERVATION_SIZE,
    PACKED_WORDS,
    SLICES,
    SeatEncoder,
    encode_view,
    rules_vector,
    unpack_into,
)
from mattis.envs.gymnasium import MattisEnv
from mattis.envs.openspiel import MattisState
from mattis.envs.pettingzoo import env, raw_env

from .variants import CONFIGS, VARIANTS


def pickup_happy(game: Game, rng: random.Random) -> None:
    """One random legal move that picks up (P2.4) whenever it may, more often than not: such
    play keeps phase 2 going for hundreds or thousands of actions."""
    legal = game.legal_actions()
    if PICKUP in legal and rng.random() < 0.6:
        game.apply(PICKUP)
    else:
        game.apply(rng.choice(legal))


def assert_encoders_follow(game: Game, move: object, cap: int, every: int = 1) -> int:
    """Play ``game`` with ``move`` up to ``cap`` actions; after every action update each
    seat's encoder (every ``every`` actions, so several events arrive at once) and compare
    it with the reference worked out from the whole view: one seat in turn after each
    action, since the reference reads the whole history (every seat at every action made
    long games quadratic in seats as well), and every seat at the end. Returns the
    comparisons made."""
    encoders = [SeatEncoder(seat, game.players, game.rules) for seat in range(game.players)]
    compared = 0
    while True:
        for seat, encoder in enumerate(encoders):
            if game.num_actions % every == seat % every or game.is_over:
                vector = encoder.update(game.seat_view(seat, since=encoder.count))
                assert encoder.values == vector.tolist()
                if not game.is_over and game.num_actions < cap and \
                        (game.num_actions // every) % game.players != seat:
                    continue
                # seat 0 reads the JSON view (a dict, slow to read back in long games) early on and at the end
                whole = game.view(seat) if seat == 0 and (game.num_actions < 300 or game.is_over) \
                    else game.seat_view(seat)
                reference = encode_view(whole)
                where = f"{game.rules.preset_name or game.rules}, seat {seat}, action {game.num_actions}"
                assert np.array_equal(vector, reference), (
                    f"{where}: slots {np.flatnonzero(vector != reference).tolist()} differ")
                compared += 1
        if game.is_over or game.num_actions >= cap:
            return compared
        move(game)  # type: ignore[operator]


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_the_encoder_gives_the_reference_vector_at_every_step(name: str, players: int) -> None:
    """Rules section 5: the same observation as ``encode_view`` of the whole view, for every
    seat after every action of a random game, in every preset and house rule."""
    rng = random.Random(f"encoder/{name}/{players}")
    game = Game.new(VARIANTS[name], players, seed=players)
    compared = assert_encoders_follow(game, lambda g: g.apply(rng.choice(g.legal_actions())), cap=2000)
    assert game.is_over and compared == game.num_actions + players  # one seat per action, all at the end


@pytest.mark.parametrize(("preset", "players", "seed"), [("pagat", 5, 1), ("app", 3, 2), ("pagat", 3, 1)])
def test_the_encoder_follows_long_phase_2_games_of_pickups(preset: str, players: int, seed: int) -> None:
    """P2.4: players who keep picking up make phase 2 last hundreds of actions (the first
    of these games still runs after 1,500); the encoder stays equal to the reference, also
    when it is updated only every third action."""
    game = Game.new(preset, players, seed=seed)
    rng = random.Random(seed)
    assert_encoders_follow(game, lambda g: pickup_happy(g, rng), cap=1500, every=3)
    assert game.num_actions >= 440
    if (preset, players) == ("pagat", 5):
        assert not game.is_over and game.phase == "shed"


def test_the_encoder_follows_a_game_set_up_from_hands() -> None:
    """A puzzle position (the trump known without a reveal, cards outside the game) is
    followed as well as a dealt game."""
    rng = random.Random(5)
    cards = rng.sample(range(52), 20)
    hands = [[CARD_CODES[card] for card in cards[5 * seat:5 * seat + 5]] for seat in range(4)]
    game = Game.from_hands(Rules.preset("kortregler"), hands, trump="h", leader=2)
    assert_encoders_follow(game, lambda g: g.apply(rng.choice(g.legal_actions())), cap=400)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_a_batch_of_packed_views_unpacks_to_the_encoders_vectors(name: str, players: int) -> None:
    """Issue 30 item 5: :meth:`SeatEncoder.pack` and :func:`unpack_into` (the vector
    environment's one encoding per batch) give every seat's vector bit for bit, after every
    action of a random game, written into all rows or into chosen ones."""
    rng = random.Random(f"packed/{name}/{players}")
    game = Game.new(VARIANTS[name], players, seed=players + 1)
    updating = [SeatEncoder(seat, players, game.rules) for seat in range(players)]
    packing = [SeatEncoder(seat, players, game.rules) for seat in range(players)]
    batch = np.full((players + 1, OBSERVATION_SIZE), 7.0, dtype=np.float32)  # a row unwritten
    batch[:players, SLICES["rules"]] = rules_vector(game.rules)
    backwards = np.arange(players)[::-1]
    while True:
        packs = [encoder.pack(game.seat_view(seat, since=encoder.count))
                 for seat, encoder in enumerate(packing)]
        assert all(len(pack) == PACKED_WORDS for pack in packs)
        if game.num_actions % 2:
            unpack_into(packs[::-1], batch, backwards)
        else:
            unpack_into(packs, batch[:players])
        for seat, encoder in enumerate(updating):
            vector = encoder.update(game.seat_view(seat, since=encoder.count))
            if batch[seat].tobytes() != vector.tobytes():
                differ = np.flatnonzero(batch[seat] != vector).tolist()
                pytest.fail(f"action {game.num_actions}, seat {seat}: slots {differ} differ")
        assert (batch[players] == 7.0).all()
        if game.is_over or game.num_actions >= 2000:
            return
        game.apply(rng.choice(game.legal_actions()))


def test_an_update_refuses_a_view_that_does_not_start_where_it_stopped() -> None:
    game = Game.new("pagat", 3, seed=1)
    encoder = SeatEncoder(0, 3, game.rules)
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    encoder.update(game.seat_view(0))
    with pytest.raises(ValueError, match="history starts at event 0"):
        encoder.update(game.seat_view(0))


# ---------------------------------------------------------------- the environments


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("kortregler", 2), ("app", 6)])
def test_pettingzoo_observes_the_reference_vector_at_every_step(preset: str, players: int) -> None:
    environment = env(rules=preset, players=players)
    rng = np.random.default_rng(players)
    for seed in range(2):
        environment.reset(seed=seed)
        game = environment.unwrapped.game
        observed = 0
        for agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            seat = environment.possible_agents.index(agent)
            assert np.array_equal(observation["observation"], encode_view(game.view(seat)))
            observation["observation"][:] = 1.0  # a copy: the next observation is unaffected
            observed += 1
            if terminated or truncated:
                environment.step(None)
            else:
                environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert game.is_over and observed > game.num_actions


def test_pettingzoo_observes_every_agent_at_any_moment() -> None:
    """Observing seats out of turn, or twice in a row, gives the reference vector too."""
    environment = raw_env(rules="app", players=4)
    environment.reset(seed=8)
    game = environment.game
    assert game is not None
    rng = random.Random(8)
    while not game.is_over and game.num_actions < 300:
        for agent in rng.sample(environment.possible_agents, 2):
            seat = environment.possible_agents.index(agent)
            assert np.array_equal(environment.observe(agent)["observation"], encode_view(game.view(seat)))
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask).tolist())))


def test_gymnasium_observes_the_reference_vector_at_every_step() -> None:
    environment = MattisEnv(rules="kortregler", players=4, opponents=["random", "easy", "normal"], seat=1)
    rng = np.random.default_rng(3)
    for seed in range(3):
        observation, info = environment.reset(seed=seed)
        game = environment.game
        assert game is not None
        done = False
        while not done:
            assert np.array_equal(observation, encode_view(game.view(1)))
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, _, terminated, truncated, info = environment.step(action)
            done = terminated or truncated
        assert np.array_equal(observation, encode_view(game.view(1)))


def spiel_tensors_match(state: MattisState, players: Sequence[int] | None = None) -> None:
    """Both ways to a tensor give the reference: the state's own methods (Python callers)
    and OpenSpiel's C++ path through the observer (``pyspiel.State``'s methods, which C++
    algorithms use); for ``players`` (every player when ``None``)."""
    for player in range(state.num_players()) if players is None else players:
        reference = encode_view(state.seat_view(player))
        for tensor in (state.observation_tensor(player), state.information_state_tensor(player),
                       pyspiel.State.observation_tensor(state, player),
                       pyspiel.State.information_state_tensor(state, player)):
            assert np.array_equal(np.array(tensor, np.float32), reference)


@pytest.mark.parametrize("spec", ["python_mattis(players=3)", "python_mattis(players=5,rules=kortregler)"])
def test_openspiel_tensors_are_the_reference_vector_at_every_step(spec: str) -> None:
    game = pyspiel.load_game(spec)
    rng = random.Random(4)
    state: MattisState = game.new_initial_state()
    while state.is_chance_node():
        outcomes = [card for card, _ in state.chance_outcomes()]
        state.apply_action(rng.choice(outcomes))
    while not state.is_terminal():
        # one player in turn (a player's encoder then catches up several events at once)
        spiel_tensors_match(state, [state.move_number() % state.num_players()])
        if state.move_number() % 25 == 0:  # a clone starts without encoders and catches up
            clone = state.clone()
            spiel_tensors_match(clone)
        state.apply_action(rng.choice(state.legal_actions()))
    spiel_tensors_match(state)


def test_openspiel_tensors_of_the_player_to_move_and_of_the_shuffle() -> None:
    """Without a player the tensor is the mover's; while the deck is chosen it is all 0,
    and a seat that does not exist is refused, as OpenSpiel refuses it."""
    game = pyspiel.load_game("python_mattis(players=3)")
    state: MattisState = game.new_initial_state()
    assert state.observation_tensor(1) == pyspiel.State.observation_tensor(state, 1) == [0.0] * 1349
    for player in (-1, 3):
        with pytest.raises(pyspiel.SpielError):
            state.observation_tensor(player)
        with pytest.raises(pyspiel.SpielError):
            pyspiel.State.observation_tensor(state, player)
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
    assert state.observation_tensor() == state.observation_tensor(state.current_player())
    assert state.information_state_tensor() == pyspiel.State.information_state_tensor(state)


def test_openspiel_resampled_states_keep_giving_the_reference_vector() -> None:
    """A resampled state carries the public history from before the resample: its encoders
    start from that history, and stay equal to the reference as the game goes on."""
    game = pyspiel.load_game("python_mattis(players=4,rules=app)")
    rng = random.Random(6)
    state: MattisState = game.new_initial_state()
    while state.is_chance_node() or state.move_number() < 52 + 30:
        if state.is_chance_node():
            state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    resampled = state.resampled(state.current_player(), rng)
    steps = 0
    while not resampled.is_terminal() and steps < 80:
        spiel_tensors_match(resampled)
        resampled.apply_action(rng.choice(resampled.legal_actions()))
        steps += 1
    assert steps > 10
