"""The engine's guarantees: reason codes for refused actions, no forged action, typed events
read cheaply, every state field declared once and surviving every copy, and seeds checked
and derived one way (rule numbers refer to ``docs/rules.en.md``). Hostile records and
positions are in ``test_records.py``, views of constant size in ``test_views.py``."""

from __future__ import annotations

import ast
import dataclasses
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import mattis
from mattis import (
    ALL_ACTIONS,
    Action,
    ActionKind,
    Event,
    EventKind,
    Game,
    IllegalAction,
    InvalidAction,
    Phase,
    Position,
    Reason,
    Rules,
)
from mattis.bots import derived_rng, seat_rng
from mattis.build import build
from mattis.core import game as game_module
from mattis.core.cards import card_code, shuffled_deck
from mattis.core.errors import MESSAGES, english
from mattis.core.events import RawEvent
from mattis.core.state import STATE, Kind, with_generated

from .variants import random_states

STATES = random_states()


# ---------------------------------------------------------------- reason codes


def test_every_reason_has_one_english_template() -> None:
    assert set(MESSAGES) == set(Reason)


@pytest.mark.parametrize("text", ["zz", "7h7s", "", "6h-8s", "8h-6h", "x" * 5000, "7h-", "--"])
def test_malformed_text_is_an_invalid_action_with_a_reason(text: str) -> None:
    """Malformed text has its own subclass, so callers catching IllegalAction keep working."""
    game = Game.new("pagat", 3, seed=1)
    before = game.copy()
    refusal = game.check(text)
    assert isinstance(refusal, InvalidAction) and isinstance(refusal, IllegalAction)
    assert isinstance(refusal, ValueError)
    assert refusal.reason in (Reason.MALFORMED, Reason.NOT_A_SEQUENCE)
    assert len(str(refusal)) < 300
    with pytest.raises(InvalidAction):
        game.apply(text)
    assert game == before


@pytest.mark.parametrize("junk", [None, 5, 1.5, [], {}, object(), b"7h"])
def test_check_never_raises_for_junk(junk: Any) -> None:
    game = Game.new("pagat", 3, seed=1)
    refusal = game.check(junk)
    assert isinstance(refusal, InvalidAction) and refusal.reason is Reason.MALFORMED
    assert game.is_legal(junk) is False


def test_check_agrees_with_apply_and_the_message_comes_from_the_template() -> None:
    """For every action in many states: check() is None exactly for the legal ones; else it
    returns the error apply() raises, whose text is the reason's one English template."""
    reasons = set()
    for game in STATES[::5]:
        legal = set(game.legal_actions())
        for action in ALL_ACTIONS:
            refusal = game.check(action)
            assert (refusal is None) == (action in legal)
            if refusal is None:
                continue
            reasons.add(refusal.reason)
            assert str(refusal) == english(refusal.reason, refusal.params)
            with pytest.raises(IllegalAction) as raised:
                game.copy().apply(action)
            assert (raised.value.reason, raised.value.params) == (refusal.reason, refusal.params)
    assert {Reason.NOT_IN_HAND, Reason.TOO_LOW, Reason.WRONG_SUIT, Reason.MUST_FOLLOW_SUIT,
            Reason.SEQUENCE_TOO_SHORT, Reason.PICKUP_IN_PHASE1, Reason.GAME_OVER,
            Reason.CHANCE_IN_PHASE2, Reason.MUST_BEAT, Reason.SEQUENCES_OFF} <= reasons


def test_p2_5_a_refused_play_must_follow_suit_exactly_when_it_would_beat_without_the_rule() -> None:
    """follow_suit is decided once: the refusal says "must follow suit" for exactly the plays
    that the same position would allow under the same rules without follow_suit."""
    seen = 0
    for name, players in (("app", 3), ("app", 4), ("app", 5)):
        for seed in range(12):
            game = Game.new(name, players, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                if game.phase is Phase.SHED and game.table:
                    position = game.position()
                    free = Game.from_position(dataclasses.replace(
                        position, rules=position.rules.with_options(follow_suit=False)))
                    legal, free_legal = set(game.legal_actions()), set(free.legal_actions())
                    for action in ALL_ACTIONS:
                        if action in legal or not action.cards or action.mask & ~position.hands[
                                position.to_move]:
                            continue  # legal, or not a play of cards in the hand
                        refusal = game.check(action)
                        assert refusal is not None
                        bound = refusal.reason is Reason.MUST_FOLLOW_SUIT
                        assert bound == (action in free_legal), (str(action), refusal.reason)
                        seen += bound
                game.apply(rng.choice(game.legal_actions()))
    assert seen > 50


def test_not_your_turn_and_game_over_have_codes() -> None:
    game = Game.new("pagat", 3, seed=1)
    refusal = game.check(game.legal_actions()[0], seat=2)
    assert refusal is not None and refusal.reason is Reason.NOT_YOUR_TURN
    assert refusal.params == {"seat": 2, "to_move": 0}
    finished = next(state for state in STATES if state.is_over)
    refusal = finished.check("7h")
    assert refusal is not None and refusal.reason is Reason.GAME_OVER


def test_illegal_action_pickles_with_its_reason() -> None:
    import pickle

    game = Game.new("pagat", 3, seed=1)
    refusal = game.check("pickup")
    assert refusal is not None
    back = pickle.loads(pickle.dumps(refusal))
    assert (type(back), back.reason, back.params, str(back)) == (
        IllegalAction, refusal.reason, refusal.params, str(refusal))


# ---------------------------------------------------------------- forged actions


def test_a_hand_built_action_cannot_play_another_seats_card() -> None:
    """An Action built by hand with the index of a legal action but other cards is refused:
    what is checked is what runs (no 53-card game, no unreplayable record)."""
    game = Game.new("pagat", 3, seed=4)
    before = game.copy()
    legal = game.legal_actions()[0]
    other_card = mattis.parse_card(game.hand(1)[0])
    forged = Action(ActionKind.PLAY, (other_card,), legal.index)
    assert forged.index == legal.index and forged != legal  # the old check compared indexes
    refusal = game.check(forged)
    assert isinstance(refusal, InvalidAction)
    with pytest.raises(InvalidAction):
        game.apply(forged)
    assert game == before and not game.is_legal(forged)
    game.apply(legal)
    assert Game.from_record(game.record()) == game


# ---------------------------------------------------------------- typed events


def test_history_holds_typed_events_that_round_trip_through_json() -> None:
    for game in STATES[::11]:
        for event in game.history:
            assert isinstance(event, Event) and isinstance(event.kind, EventKind)
            assert event.seat is None or 0 <= event.seat < game.players
            assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event
            with pytest.raises(dataclasses.FrozenInstanceError):
                event.seat = 0  # type: ignore[misc]


def test_history_is_a_cheap_read_only_sequence_of_the_events() -> None:
    """len() is a stored count and an item becomes an Event only when read, so asking for
    the history after every move, or for its length or latest event, never rebuilds it."""
    for game in STATES[::7]:
        events = [Event.from_raw(raw) for raw in game.raw_events_since(0)]
        history = game.history
        assert isinstance(history, Sequence) and len(history) == len(events) == game.num_events
        assert history == events and list(history) == events and tuple(history) == tuple(events)
        assert list(reversed(history)) == events[::-1]
        assert history[1:4] == events[1:4] and history[::-1] == events[::-1]
        for index in (0, len(events) // 2, -1, -len(events)):
            if events:
                assert history[index] == events[index]
        with pytest.raises(IndexError):
            history[len(events)]
        with pytest.raises(TypeError):
            history[0] = Event(EventKind.OUT, 0)  # type: ignore[index]
        assert game.copy().history == history and Game.from_record(game.record()).history == history


@pytest.mark.skipif(build() == "compiled", reason="counts calls by patching Event, which a compiled "
                    "class refuses; the pure build runs this on the same source")
def test_history_length_and_latest_events_convert_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new("pagat", 3, seed=3)
    rng = random.Random(3)
    for _ in range(120):
        game.apply(rng.choice(game.legal_actions()))
    converted: list[RawEvent] = []
    from_raw = Event.from_raw

    def counted(raw: RawEvent) -> Event:
        converted.append(raw)
        return from_raw(raw)

    monkeypatch.setattr(Event, "from_raw", counted)
    for _ in range(50):
        assert len(game.history) == game.num_events > 100
    assert converted == [] and game.history._raw is None  # not even laid out
    assert game.history is game.history  # one history per state: nothing is made again
    for _ in range(50):
        game.history[-1]
        game.history[0]
    assert len(converted) == 100  # one conversion per item read, none for the rest
    before = game.history
    game.apply(rng.choice(game.legal_actions()))
    assert len(game.history) >= len(before) and before[-1] == game.history[len(before) - 1]


# ---------------------------------------------------------------- every field in one place


DECLARED = {field.slot: field for field in STATE}
POSITION_FIELDS = {field.slot for field in STATE if field.position is not None}
GAME_PY = Path(game_module.__file__).with_name("game.py")
"""The engine's source (read as text, so a compiled build is checked the same way)."""


def slot_values(game: Game) -> dict[str, Any]:
    return {name: getattr(game, name) for name in DECLARED}


def game_class_slots() -> list[str]:
    tree = ast.parse(GAME_PY.read_text(encoding="utf-8"))
    game_class = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Game")
    slots = next(node.value for node in game_class.body if isinstance(node, ast.Assign)
                 and any(isinstance(name, ast.Name) and name.id == "__slots__" for name in node.targets))
    assert isinstance(slots, ast.Tuple)
    return [str(item.value) for item in slots.elts if isinstance(item, ast.Constant)]


def test_every_game_field_is_declared_once_and_classified() -> None:
    """The one declaration (mattis.core.state.STATE) is the game's whole state: its slots
    are exactly the declared fields, and every field says how it copies and whether a
    position carries it."""
    assert len(DECLARED) == len(STATE)
    assert sorted(game_class_slots()) == sorted(DECLARED)
    assert all(isinstance(field.kind, Kind) for field in STATE)
    assert {"_hands", "_won", "_trick", "_tie", "_table", "_out", "_options", "players"} <= POSITION_FIELDS
    position_names = [field.position for field in STATE if field.position is not None]
    assert sorted(position_names) == sorted(f.name for f in dataclasses.fields(Position))
    for field in STATE:
        if field.kind in (Kind.LOG, Kind.DERIVED):
            assert field.position is None, f"{field.slot}: a {field.kind.value} field is not in a position"


def test_every_attribute_the_engine_sets_is_a_declared_field() -> None:
    """Also where slots do not guard (a compiled build): every ``x.name = ...`` in game.py
    names a declared field, so a field cannot be added without its classification."""
    tree = ast.parse(GAME_PY.read_text(encoding="utf-8"))
    assigned = {target.attr for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AugAssign))
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Attribute)}
    assert assigned == set(DECLARED)


def test_the_generated_game_code_is_up_to_date() -> None:
    """copy(), ==, position() and from_position() are written from the declaration into
    game.py; after changing it, run ``python dev/generate_state.py``."""
    source = GAME_PY.read_text(encoding="utf-8")
    assert with_generated(source) == source, "game.py is out of date: run python dev/generate_state.py"


def test_every_game_field_survives_copy() -> None:
    for game in STATES[::3]:
        twin = game.copy()
        mine, theirs = slot_values(game), slot_values(twin)
        assert mine.keys() == theirs.keys()
        for name in mine:
            assert mine[name] == theirs[name], name
            if DECLARED[name].kind is Kind.LIST:
                assert mine[name] is not theirs[name], f"{name} is shared with the copy"
            elif not isinstance(mine[name], int):  # tuples, logs and caches: only replaced, so shared
                assert mine[name] is theirs[name], name  # (ints: a compiled build stores them unboxed)
        assert twin == game
        if not game.is_over:
            twin.apply(twin.legal_actions()[0])
            assert slot_values(game) == mine  # the original does not move


def test_every_state_field_survives_position_and_from_position() -> None:
    """Each field a position carries comes back from it; the others start afresh."""
    for game in STATES[::3]:
        again = Game.from_position(game.position())
        mine, theirs = slot_values(game), slot_values(again)
        for name in POSITION_FIELDS - {"_stock"}:
            assert mine[name] == theirs[name], name
        assert game._stock[game._stock_pos:] == again._stock[again._stock_pos:]
        assert again._in_count == game._in_count
        assert again.legal_actions() == game.legal_actions()
        assert again.position() == game.position()
        assert (again.num_actions, again.num_events, len(again.history)) == (0, 0, 0)


# ---------------------------------------------------------------- seeds and validation


def test_seat_generators_are_derived_one_way() -> None:
    """A bot can read its generator's state; it must not lead back to the seed (and so to
    the deal). The state comes from SHA-256 of the seed, not from the seed itself."""
    import hashlib

    rng = seat_rng(654321, 1)
    digest = hashlib.sha256(b"mattis/seat1/" + (654321).to_bytes(3, "big").hex().encode()).digest()
    assert rng.getstate() == random.Random(int.from_bytes(digest, "big")).getstate()
    for candidate in range(654300, 654400):  # the old derivation, searchable in seconds
        assert random.Random(f"{candidate}/seat1").getstate() != rng.getstate()
    assert seat_rng(10**5000, 0).random() != seat_rng(10**5000 + 1, 0).random()
    assert derived_rng(1, "hint").random() != derived_rng(1, "seat0").random()


BAD_SEEDS = [(True, "true"), (False, "false"), (1.5, "1.5"), (3.0, "3.0"), (-1, "-1"),
             (2**64, "a number of 65 bits"), (10**5000, "a number of 16610 bits"), ("7", '"7"'),
             ([1], "a list")]


@pytest.mark.parametrize(("seed", "shown"), BAD_SEEDS, ids=[b[1][:20] for b in BAD_SEEDS])
def test_game_new_checks_its_seed_exactly_as_a_record_does(seed: Any, shown: str) -> None:
    """A seed is None or a whole number from 0 to 2**64-1 wherever it comes in (issue 13):
    the same check and words in Game.new, with a deck too, and in a record."""
    message = f"seed: must be a whole number from 0 to 2**64-1, got {shown}"
    with pytest.raises(ValueError) as raised:
        Game.new("pagat", 3, seed=seed)
    assert str(raised.value) == message
    with pytest.raises(ValueError, match=r"^seed: must be"):
        Game.new("pagat", 3, seed=seed, deck=Game.new("pagat", 3, seed=1).record()["deck"])
    record = Game.new("pagat", 3, seed=1).record()
    record["seed"] = seed
    with pytest.raises(ValueError) as raised:
        Game.from_record(record)
    assert str(raised.value) == f"record: {message}"


def test_the_extreme_seeds_deal_and_replay() -> None:
    for seed in (0, 2**64 - 1, None):
        game = Game.new("pagat", 3, seed=seed)
        assert game.record()["seed"] == seed
        assert Game.from_record(game.record()) == game


def test_c3_a_seed_deals_the_deck_random_shuffle_gives() -> None:
    """The deck a seed gives is fixed by saved records: the engine's own Fisher-Yates loop
    deals exactly what ``random.Random(seed).shuffle`` does, for small, large and extreme seeds."""
    seeds = [*range(500), *(random.Random(7).getrandbits(64) for _ in range(500)), 2**64 - 1]
    for seed in seeds:
        expected = list(range(52))
        random.Random(seed).shuffle(expected)
        assert shuffled_deck(seed) == expected, seed
    assert Game.new("pagat", 3, seed=11).record()["deck"] == [card_code(card) for card in shuffled_deck(11)]


def test_check_players_words_the_one_message() -> None:
    pagat = Rules.preset("pagat")
    pagat.check_players(3)
    for given, shown in ((7, "7"), ("3", '"3"'), (True, "True"), (10**5000, "a number of 16610 bits")):
        with pytest.raises(ValueError, match=r"^players: pagat allows 3-6 players, got ") as raised:
            pagat.check_players(given)
        assert str(raised.value).endswith(shown)
    with pytest.raises(ValueError, match="these house rules allow 3-6 players, got 2"):
        pagat.with_options(min_sequence=3).check_players(2)
    with pytest.raises(ValueError, match="players: pagat allows 3-6 players"):
        Game.new("pagat", 7)


@pytest.mark.parametrize("value", ["²", "①", "٣", "1" * 5000, "3.0"])
def test_rule_numbers_must_be_plain_digits(value: str) -> None:
    with pytest.raises(ValueError, match="min_sequence: expected a whole number, got \""):
        Rules.preset("pagat").with_options(min_sequence=value)


def test_parse_level_is_the_one_level_parser() -> None:
    from mattis.bots import parse_level

    assert parse_level(" Hard ") == "hard"
    for bad in ("grandmaster", "", 5):
        with pytest.raises(ValueError, match="bot: unknown level"):
            parse_level(bad)


