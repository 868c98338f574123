"""Tests of the PettingZoo environment and the shared observation encoding (``mattis.envs``).

1. PettingZoo's own ``api_test`` and ``seed_test`` pass for every preset and every allowed
   player count (pagat 3-6, kortregler 2-6, app 3-6).
2. Rewards come at the end and sum to 0: −1 for Mattis, the others share +1; a capped game
   is truncated with 0 for everyone; illegal moves raise (raw) or end the game with −1
   (wrapped).
3. No leak (rules section 5): the observation is a function of the seat's view, so two games
   that look the same to a seat give it the same observation, and swapping hidden cards
   between other hands or the stock changes nothing.
4. The encoding matches its documented layout (``docs/research.md`` lists every slot).
"""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mattis import NUM_ACTIONS, Game, IllegalAction, Rules, parse_card
from mattis.envs import DEFAULT_MAX_ACTIONS
from mattis.envs.encoding import LAYOUT, OBSERVATION_SIZE, SLICES, encode_view, terminal_rewards
from mattis.envs.pettingzoo import env, raw_env

PRESET_PLAYERS = [
    (name, players)
    for name in ("pagat", "kortregler", "app")
    for players in range(Rules.preset(name).min_players, Rules.preset(name).max_players + 1)
]
DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize(("preset", "players"), PRESET_PLAYERS)
def test_pettingzoo_api_and_seed_tests_pass(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's advice (e.g. all-zero masks after the end)
        api_test(env(rules=preset, players=players), num_cycles=60)
        seed_test(lambda: env(rules=preset, players=players), num_cycles=60)


def play_random(environment: raw_env, seed: int) -> list[tuple[str, float]]:
    """Play one game with random legal moves; return the final (agent, reward) pairs."""
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    finals = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            finals.append((agent, reward))
            environment.step(None)
            continue
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return finals


@pytest.mark.parametrize("preset", ["pagat", "kortregler", "app"])
def test_rewards_at_the_end_sum_to_zero_with_minus_one_for_mattis(preset: str) -> None:
    environment = raw_env(rules=preset, players=4)
    for seed in range(3):
        finals = dict(play_random(environment, seed))
        game = environment.game
        assert game is not None and game.result is not None
        assert sorted(finals) == environment.possible_agents
        assert sum(finals.values()) == pytest.approx(0.0)
        losers = game.result.losers
        if len(losers) == 1:
            assert finals[f"player_{losers[0]}"] == -1.0
            assert all(reward == pytest.approx(1 / 3) for agent, reward in finals.items()
                       if agent != f"player_{losers[0]}")


def test_terminal_rewards_share_the_loss_between_several_losers() -> None:
    assert terminal_rewards([1], 3) == (0.5, -1.0, 0.5)
    assert terminal_rewards([0, 2], 4) == (-0.5, 0.5, -0.5, 0.5)
    assert terminal_rewards([], 3) == (0.0, 0.0, 0.0)
    assert terminal_rewards([0, 1], 2) == (0.0, 0.0)


def test_a_game_past_max_actions_is_truncated_with_zero_rewards() -> None:
    environment = raw_env(players=3, max_actions=5)
    finals = play_random(environment, seed=1)
    game = environment.game
    assert game is not None and not game.is_over and game.num_actions == 5
    assert [reward for _, reward in finals] == [0.0, 0.0, 0.0]
    assert DEFAULT_MAX_ACTIONS >= 1000


def test_a_seed_gives_the_deal_of_game_new_with_that_seed_and_numpy_seeds_work() -> None:
    environment = raw_env(rules="app", players=4)
    environment.reset(seed=np.int64(12))  # type: ignore[arg-type]  # numpy seeds work too
    assert environment.game == Game.new("app", 4, seed=12)
    assert type(environment.game.record()["seed"]) is int
    environment.reset()  # continues a sequence drawn from seed 12
    follow_up = environment.game
    environment.reset(seed=12)
    environment.reset()
    assert environment.game == follow_up


def test_the_seat_to_move_is_the_agent_selected_and_only_it_gets_a_mask() -> None:
    environment = raw_env(players=4)
    environment.reset(seed=3)
    game = environment.game
    assert game is not None
    assert environment.agent_selection == f"player_{game.to_move}"
    for seat, agent in enumerate(environment.possible_agents):
        mask = environment.observe(agent)["action_mask"]
        expected = sorted(a.index for a in game.legal_actions()) if seat == game.to_move else []
        assert list(np.flatnonzero(mask)) == expected
        assert mask.shape == (NUM_ACTIONS,)


def test_raw_env_raises_on_an_illegal_move_and_keeps_the_game() -> None:
    environment = raw_env(players=3)
    environment.reset(seed=2)
    game = environment.game
    assert game is not None
    before = game.record()
    illegal = next(index for index in range(NUM_ACTIONS)
                   if index not in {a.index for a in game.legal_actions()})
    with pytest.raises(IllegalAction):
        environment.step(illegal)
    with pytest.raises(ValueError, match="index from 0 to 365"):
        environment.step(NUM_ACTIONS)
    assert game.record() == before


def test_wrapped_env_ends_the_game_with_minus_one_for_an_illegal_move() -> None:
    environment = env(players=3)
    environment.reset(seed=2)
    mover = environment.agent_selection
    mask = environment.observe(mover)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert environment.rewards[mover] == -1.0
    assert all(environment.terminations.values())


def test_bad_arguments_fail_with_one_clear_error() -> None:
    with pytest.raises(ValueError, match="players: pagat allows 3-6 players, got 2"):
        raw_env(players=2)
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        raw_env(colour="red")
    with pytest.raises(ValueError, match="min_sequence"):
        raw_env(min_sequence=4)
    with pytest.raises(ValueError, match="max_actions"):
        raw_env(max_actions=0)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_house_rules_reach_the_game() -> None:
    environment = raw_env(rules="pagat", players=3, min_sequence=3, follow_suit="true")
    environment.reset(seed=0)
    assert environment.game is not None
    assert environment.game.rules == Rules.preset("pagat").with_options(min_sequence=3, follow_suit=True)


@pytest.mark.parametrize(("lang", "words"), [("en", ["players", "seat 0", "table"]),
                                             ("nb", ["spillere", "plass 0", "bordet"])])
def test_render_shows_the_table_as_text_in_both_languages(lang: str, words: list[str]) -> None:
    environment = raw_env(players=3, render_mode="ansi", lang=lang)
    environment.reset(seed=4)
    text = environment.render()
    assert isinstance(text, str)
    for word in words:
        assert word in text
    game = environment.game
    assert game is not None
    assert " ".join(game.hand(1)) in text


# ---------------------------------------------------------------------------- no leak


def swap_hidden(deck: list[int], players: int, seat: int, rng: random.Random, dealer: int) -> list[int]:
    """The deck with two cards swapped that ``seat`` has not seen at the deal: one from
    another seat's hand, one from another hand or the stock (never the face-up bottom)."""
    dealt: dict[int, list[int]] = {(dealer + 1 + position) % players: [] for position in range(players)}
    for round_number in range(3):
        for offset in range(players):
            position = round_number * players + offset
            dealt[(dealer + 1 + offset) % players].append(position)
    mine = set(dealt[seat])
    hidden = [position for position in range(len(deck) - 1) if position not in mine]
    first, second = rng.sample(hidden, 2)
    swapped = deck[:]
    swapped[first], swapped[second] = swapped[second], swapped[first]
    return swapped


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("kortregler", 4), ("app", 5)])
def test_hidden_cards_swapped_leave_the_observation_unchanged(preset: str, players: int) -> None:
    rng = random.Random(7)
    changed_elsewhere = 0
    for _ in range(20):
        deck = list(range(52))
        rng.shuffle(deck)
        other = swap_hidden(deck, players, seat=0, rng=rng, dealer=players - 1)
        first, second = Game.new(preset, players, deck=deck), Game.new(preset, players, deck=other)
        assert first.view(0) == second.view(0)
        assert np.array_equal(encode_view(first.view(0)), encode_view(second.view(0)))
        changed_elsewhere += any(not np.array_equal(encode_view(first.view(s)), encode_view(second.view(s)))
                                 for s in range(1, players))
    assert changed_elsewhere > 0  # the swaps did move cards someone else can see


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("kortregler", 4), ("app", 4)])
def test_mid_game_swapping_a_hidden_hand_card_with_a_stock_card_changes_nothing_for_seat_0(
    preset: str, players: int
) -> None:
    """Replay the same actions from a deck where a card still hidden in seat 1's hand (never
    shown) and a card still in the stock trade places: seat 0's observation is the same."""
    rng = random.Random(11)
    compared = 0
    for seed in range(40):
        game = Game.new(preset, players, seed=seed)
        for _ in range(rng.randrange(5, 60)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        stock = list(game.position().stock)[:-1]  # never the bottom card
        shown = 0
        for event in game.history:
            shown |= event.mask
        hidden_in_hand = [parse_card(c) for c in game.hand(1) if not shown >> parse_card(c) & 1]
        if game.is_over or game.phase != "collect" or not stock or not hidden_in_hand:
            continue
        deck = [parse_card(c) for c in game.record()["deck"]]
        first, second = deck.index(rng.choice(hidden_in_hand)), deck.index(rng.choice(stock))
        deck[first], deck[second] = deck[second], deck[first]
        other = Game.new(preset, players, deck=deck)
        try:
            for action in game.actions:
                other.apply(action)
        except IllegalAction:
            continue  # the swap changed what was legal for seat 1: not the same game to seat 0
        assert other.view(0) == game.view(0)
        assert np.array_equal(encode_view(other.view(0)), encode_view(game.view(0)))
        assert other.hand(1) != game.hand(1)
        compared += 1
    assert compared >= 10


def test_the_observation_is_a_function_of_the_view_alone() -> None:
    """Games played the same way whose views agree for a seat give it the same vector; the
    vector changes with the view (it is not constant)."""
    rng = random.Random(3)
    seen: dict[str, bytes] = {}
    for seed in range(6):
        game = Game.new("pagat", 3, seed=seed)
        while not game.is_over and game.num_actions < 150:
            for seat in range(3):
                view = game.view(seat)
                key = repr(sorted(view.items()))
                vector = encode_view(view).tobytes()
                assert seen.setdefault(key, vector) == vector
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert len(set(seen.values())) > 100


# ---------------------------------------------------------------------------- layout


def test_the_encoding_follows_its_layout() -> None:
    game = Game.new("app", 4, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    view = game.view(2)
    vector = encode_view(view)
    assert vector.shape == (OBSERVATION_SIZE,) and vector.dtype == np.float32
    assert vector.min() >= 0.0 and vector.max() <= 1.0
    assert list(np.flatnonzero(vector[SLICES["hand"]])) == sorted(parse_card(c) for c in view["hand"])
    assert vector[SLICES["present"]].tolist() == [1, 1, 1, 1, 0, 0]
    phases = ["collect", "shed", "over"]
    assert vector[SLICES["phase"]].tolist() == [float(view["phase"] == p) for p in phases]
    to_move = view["to_move"]
    assert vector[SLICES["to_move"]][(to_move - 2) % 4] == 1.0
    assert vector[SLICES["hand_sizes"]][0] == pytest.approx(len(view["hand"]) / 52)
    assert sum(slot.size for slot in LAYOUT) == OBSERVATION_SIZE


@pytest.mark.parametrize("doc", ["research.md", "research.nb.md"])
def test_research_doc_lists_every_slot_with_its_size(doc: str) -> None:
    text = (DOCS / doc).read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+)(?:–(\d+))? \|", text, flags=re.MULTILINE)
    listed = {name: (int(size), int(first), int(last or first)) for name, size, first, last in rows}
    expected = {slot.name: (slot.size, SLICES[slot.name].start, SLICES[slot.name].stop - 1)
                for slot in LAYOUT}
    assert listed == expected
    assert str(OBSERVATION_SIZE) in text
