"""A core that speaks in types and cannot be fooled: reason codes for refused actions,
typed events, views of constant size, hostile records and positions, and state that
survives every copy (the core-quality issue; rule numbers refer to docs/rules.en.md)."""

from __future__ import annotations

import ast
import copy
import dataclasses
import gc
import io
import json
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

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
    SeatView,
)
from mattis.bots import PlayerView, derived_rng, seat_rng
from mattis.build import build
from mattis.core import game as game_module
from mattis.core.cards import card_code, shuffled_deck
from mattis.core.errors import MESSAGES, english
from mattis.core.events import RawEvent
from mattis.core.state import STATE, Kind, with_generated
from mattis.frontend.narrate import Narrator
from mattis.frontend.record import LoadedGame
from mattis.frontend.seats import seat_numbers
from mattis.terminal.replay import TerminalReplay

from .variants import CONFIGS, VARIANTS


def random_states(every: int = 7, seeds: int = 2) -> list[Game]:
    """Copies of random games of every rule variant and player count."""
    states = []
    for name, players in CONFIGS:
        for seed in range(seeds):
            game = Game.new(VARIANTS[name], players, seed=seed)
            rng = random.Random(seed)
            while not game.is_over and game.num_actions < 400:
                if game.num_actions % every == 0:
                    states.append(game.copy())
                game.apply(rng.choice(game.legal_actions()))
            states.append(game.copy())
    return states


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


# ---------------------------------------------------------------- events and views


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


def test_unknown_is_none_in_views_and_events() -> None:
    """A trick taken back (P1.8) names no seat: None, not -1; so does a puzzle's dealer."""
    seen_back = False
    for game in STATES:
        view = game.view(0)
        for item in view["history"]:
            assert item["seat"] is None or item["seat"] >= 0
            seen_back |= item["event"] == "back" and item["seat"] is None
        for key in ("trump_holder", "last_drawer", "dealer", "to_move", "trump", "trump_card"):
            assert view[key] is None or view[key] != -1, key
    assert seen_back
    puzzle = Game.from_hands("pagat", [["4c"], ["8c"]], trump="s", leader=0)
    assert puzzle.view(0)["dealer"] is None


def test_events_since_and_views_since_give_the_tail_of_the_history() -> None:
    for game in STATES[::3]:
        full = game.history
        assert game.num_events == len(full)
        for start in {0, len(full) // 2, len(full)}:
            assert game.events_since(start) == full[start:]
            view = game.view(1 % game.players, since=start)
            assert view["history"] == [event.to_dict() for event in full[start:]]
            assert (view["history_start"], view["event_count"]) == (start, len(full))
    game = STATES[5]
    for bad in (-1, game.num_events + 1, "3", 1.0, True):
        with pytest.raises(ValueError, match="since"):
            game.view(0, since=bad)


def test_the_view_splits_the_phase_1_trick_from_the_phase_2_plays() -> None:
    for game in STATES:
        view = game.view(0)
        if game.phase == "collect":
            assert view["plays"] == [] and view["trick"] == [[s, cards[0]] for s, cards in view["table"]]
        else:
            assert view["trick"] == [] and view["plays"] == view["table"]
        assert set(view) == set(mattis.VIEW_SCHEMA)


def test_seat_view_reads_a_view_once_with_types() -> None:
    for game in STATES[::4]:
        seat = game.players - 1
        public = SeatView.from_dict(json.loads(json.dumps(game.view(seat))))
        assert public.hand_cards == [mattis.parse_card(c) for c in game.hand(seat)]
        assert public.trump == game.trump and public.to_move == game.to_move
        assert [str(play) for _, play in public.plays] == (
            [] if game.phase == "collect"
            else ["-".join(dict.fromkeys([cards[0], cards[-1]])) for _, cards in game.table])
        assert public.history == tuple(game.history)


@pytest.mark.parametrize("damage", [
    lambda v: v.pop("hand"), lambda v: v.update(format="other"), lambda v: v.update(players="x"),
    lambda v: v.update(hand=[5]), lambda v: v.update(history=[{"event": "nope"}]),
    lambda v: v.update(trump="z"),
])
def test_seat_view_refuses_a_malformed_view(damage: Callable[[dict[str, Any]], object]) -> None:
    view = Game.new("pagat", 3, seed=2).view(0)
    damage(view)
    with pytest.raises(ValueError, match=r"^view: "):
        SeatView.from_dict(view)


def test_bots_following_a_game_incrementally_know_what_a_full_view_tells() -> None:
    """A CardTracker fed only new events ends where one fed the whole history does."""
    from mattis.bots import CardTracker

    for name, players in CONFIGS[::3]:
        game = Game.new(VARIANTS[name], players, seed=3)
        tracker = CardTracker(players, game.rules)
        rng = random.Random(3)
        while not game.is_over and game.num_actions < 600:
            step = PlayerView.from_dict(game.view(0, since=tracker.count), tracker)
            whole = PlayerView.from_dict(game.view(0))
            for field in ("known_hands", "known_won", "gone", "played_by", "excluded", "recent"):
                assert getattr(step.memory, field) == getattr(whole.memory, field), field
            assert step.public_events() == tuple(game.history)
            game.apply(rng.choice(game.legal_actions()))


# ---------------------------------------------------------------- long games stay linear


def cyclic_record(actions: int) -> dict[str, Any]:
    """A legal record of ``actions`` actions that never ends: three players pass two cards
    round the table by leading and picking up (P2.4 voluntary pick-up, P2.7)."""
    game = Game.from_hands("pagat", [["2c", "Ad"], ["Kd"], ["2h", "Qd"]], trump="s", leader=0)
    cycle = ["2c", "pickup", "2h", "pickup"] * 3
    record = game.record()
    record["actions"] = [cycle[number % len(cycle)] for number in range(actions)]
    return record


def best_time(work: Callable[[], object], runs: int = 2) -> float:
    """The least CPU time of this process that ``work`` took: other processes on a busy machine
    take wall time, not this process's CPU time, so the ratios below compare the work done.
    The cyclic garbage collector is paused meanwhile: its passes over a growing heap add a
    cost that depends on the heap, not on the engine (CI saw 27.5 for the tenfold record)."""
    times = []
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            started = time.process_time()
            work()
            times.append(time.process_time() - started)
        finally:
            gc.enable()
    return min(times)


def test_replaying_a_100000_action_record_takes_time_in_proportion_to_its_length() -> None:
    """Endless pick-up loops are legal, so records can be very long: replaying (the engine),
    narrating step by step with views of constant size (what front ends do) and showing it
    in the terminal (``mattis replay``) cost time linear in the length (ten times the
    actions: under 40 times the time, with room for a loaded machine's caches; linear growth
    is 10 and square growth would be 100)."""
    short, long = cyclic_record(10_000), cyclic_record(100_000)
    game = Game.from_record(long)
    assert game.num_actions == 100_000 and not game.is_over

    ratio = best_time(lambda: Game.from_record(long)) / best_time(lambda: Game.from_record(short))
    assert ratio < 40, ratio

    def narrate(record: dict[str, Any]) -> None:
        game = Game.from_record({**record, "actions": []})
        narrator = Narrator(seat_numbers(3), game.rules, "en")
        told = 0
        for text in record["actions"]:
            game.apply(text)
            narrator.describe(game.events_since(told))
            told = game.num_events
            assert game.view(0, since=told)["history"] == []

    ratio = best_time(lambda: narrate(cyclic_record(20_000)), 1) / best_time(
        lambda: narrate(cyclic_record(2_000)), 1)
    assert ratio < 40, ratio

    def show(record: dict[str, Any]) -> None:
        loaded = LoadedGame(record, Game.from_record(record), seat_numbers(3), None)
        TerminalReplay(loaded, "en", Console(file=io.StringIO(), width=100), False, None).run()

    ratio = best_time(lambda: show(cyclic_record(10_000)), 1) / best_time(
        lambda: show(cyclic_record(1_000)), 1)
    assert ratio < 40, ratio


# ---------------------------------------------------------------- hostile records


def good_record() -> dict[str, Any]:
    game = Game.new("pagat", 3, seed=77)
    rng = random.Random(1)
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions()))
    return game.record()


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


BAD_RECORDS: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("deck item None", lambda r: r["deck"].__setitem__(3, None), "deck"),
    ("deck item float", lambda r: r["deck"].__setitem__(3, 1.5), "deck"),
    ("deck item list", lambda r: r["deck"].__setitem__(3, ["7h"]), "deck"),
    ("deck of 99s", lambda r: r.update(deck=[99] * 52), "deck"),
    ("deck null", lambda r: r.update(deck=None), "deck"),
    ("deck text", lambda r: r.update(deck="7h" * 52), "deck"),
    ("deck short", lambda r: r["deck"].pop(), "deck"),
    ("rules null", lambda r: r.update(rules=None), "rules"),
    ("rules list", lambda r: r.update(rules=[1, 2]), "rules"),
    ("rules text", lambda r: r.update(rules="pagat"), "rules"),
    ("rule value list", lambda r: r["rules"].update(min_sequence=[3]), "min_sequence"),
    ("rule value nested", lambda r: r["rules"].update(trick=_nested(5000)), "trick"),
    ("unknown rule", lambda r: r["rules"].update(jokers=True), "jokers"),
    ("actions null", lambda r: r.update(actions=None), "actions"),
    ("actions int", lambda r: r.update(actions=5), "actions"),
    ("action int", lambda r: r["actions"].__setitem__(0, 7), "action 0"),
    ("action illegal", lambda r: r["actions"].__setitem__(1, "pickup"), "action 1"),
    ("action huge", lambda r: r["actions"].__setitem__(1, "7" * 100_000), "action 1"),
    ("players text", lambda r: r.update(players="3"), "players"),
    ("players huge", lambda r: r.update(players=10**5000), "players"),
    ("players bool", lambda r: r.update(players=True), "players"),
    ("dealer text", lambda r: r.update(dealer="0"), "dealer"),
    ("dealer float", lambda r: r.update(dealer=1.5), "dealer"),
    ("dealer out of range", lambda r: r.update(dealer=7), "dealer"),
    ("seed huge", lambda r: r.update(seed=10**5000), "seed"),
    ("seed text", lambda r: r.update(seed="77"), "seed"),
    ("seed not the deck's", lambda r: r.update(seed=78), "seed"),
    ("no rules", lambda r: r.pop("rules"), "rules"),
]


@pytest.mark.parametrize(("name", "damage", "field"), BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_a_hostile_record_raises_value_error_naming_the_field(
        name: str, damage: Callable[[dict[str, Any]], object], field: str) -> None:
    record = good_record()
    damage(record)
    with pytest.raises(ValueError, match=field) as raised:
        Game.from_record(record)
    assert type(raised.value) in (ValueError, IllegalAction), name
    assert len(str(raised.value)) < 400


PUZZLE: dict[str, Any] = {"hands": [["4c", "9h"], ["8c", "9c", "2s"]], "trump": "s", "leader": 0}
BAD_STARTS: list[tuple[str, Any, str]] = [
    ("start list", [1], "start"),
    ("leader text", {**PUZZLE, "leader": "0"}, "leader"),
    ("leader float", {**PUZZLE, "leader": 1.5}, "leader"),
    ("leader huge", {**PUZZLE, "leader": 10**5000}, "leader"),
    ("trump number", {**PUZZLE, "trump": 5}, "trump"),
    ("hands null", {**PUZZLE, "hands": None}, "hands"),
    ("hand of ints", {**PUZZLE, "hands": [[99], [1]]}, "hands"),
    ("too many hands", {**PUZZLE, "hands": [["2c"]] * 9}, "hands"),
]


@pytest.mark.parametrize(("name", "start", "field"), BAD_STARTS, ids=[b[0] for b in BAD_STARTS])
def test_a_hostile_puzzle_record_raises_value_error(name: str, start: Any, field: str) -> None:
    record = Game.from_hands("pagat", **PUZZLE).record()
    record["start"] = start
    with pytest.raises(ValueError, match=field):
        Game.from_record(record)


def test_the_record_is_a_copy_and_the_deck_is_required() -> None:
    game = Game.from_hands("pagat", **PUZZLE)
    record = game.record()
    record["start"]["hands"][0].append("Ah")
    record["start"]["leader"] = 1
    assert game.record()["start"] == PUZZLE
    dealt = Game.new("pagat", 3, seed=5)
    assert dealt.record()["seed"] == 5
    assert Game.new("pagat", 3, seed=5, deck=dealt.record()["deck"]).record()["seed"] is None
    no_deck = dealt.record()
    no_deck["deck"] = None
    with pytest.raises(ValueError, match="deck"):  # never a fresh random deal on each load
        Game.from_record(no_deck)


# ---------------------------------------------------------------- positions


def test_position_text_round_trips_every_state() -> None:
    puzzle = Game.from_hands("app", [["4c", "9h", "Th"], ["8c", "9c", "2s"], ["Kh"]], trump="h", leader=2)
    for game in [*STATES[::2], puzzle]:
        position = game.position()
        text = position.to_text()
        assert "\n" not in text and text.startswith("mattis-position/1 ")
        back = Position.from_text(text)
        assert back == position
        assert Game.from_position(back).legal_actions() == game.legal_actions()


def test_position_text_for_a_bug_report_reads_like_the_table() -> None:
    game = Game.from_hands("pagat", [["4c", "9h"], ["8c", "9c", "2s"]], trump="s", leader=0)
    game.apply("4c")
    text = game.position().to_text()
    assert "rules=pagat " in text and "phase=shed" in text and "table=0:4c" in text
    assert "hands=9h/8c.9c.2s" in text
    house = Game.new(Rules.preset("kortregler").with_options(min_sequence=2), 4, seed=1)
    assert "rules=kortregler,min_sequence:2 " in house.position().to_text()


@pytest.mark.parametrize("text", [
    "", "nonsense", "mattis-position/1", "mattis-position/1 rules=pagat",
    "x" * 10_000, "mattis-position/1 " + "a=1 " * 30,
])
def test_position_text_refuses_garbage(text: str) -> None:
    with pytest.raises(ValueError, match="position text"):
        Position.from_text(text)


def corruptions(position: Position) -> list[tuple[str, Position]]:
    """Inconsistent positions that would make apply() fail or never end."""
    n = position.players
    still_in = next(seat for seat in range(n) if not position.out[seat])
    bad = [
        ("trump suit", dataclasses.replace(position, trump_suit=7)),
        ("trump card", dataclasses.replace(position, trump_card=99)),
        ("to_move", dataclasses.replace(position, to_move=n)),
        ("leader", dataclasses.replace(position, leader=-2)),
        ("due", dataclasses.replace(position, due=(n + 3,))),
        ("tie", dataclasses.replace(position, tie=(9,))),
        ("trick", dataclasses.replace(position, trick=((8, 0),))),
        ("losers", dataclasses.replace(position, losers=(0,))),
        ("out_order", dataclasses.replace(position, out_order=(still_in,))),
        ("everyone out", dataclasses.replace(position, out=(True,) * n)),
        ("over without loser", dataclasses.replace(position, phase=Phase.OVER, to_move=-1)),
        ("players", dataclasses.replace(position, players=9)),
        ("hand mask", dataclasses.replace(position, hands=(-1, *position.hands[1:]))),
    ]
    if position.phase == "shed":
        bad.append(("trick_size", dataclasses.replace(position, trick_size=0)))
        bad.append(("table", dataclasses.replace(position, table=((0, 364),))))
    return bad


def test_position_check_catches_every_inconsistency() -> None:
    phases = set()
    for game in STATES[::9]:
        if game.is_over:
            continue
        position = game.position()
        position.check()
        phases.add(position.phase)
        for name, broken in corruptions(position):
            with pytest.raises(ValueError):
                broken.check()
                pytest.fail(f"{name} not caught in {position.to_text()}")
            with pytest.raises(ValueError):
                Game.from_position(broken)
    assert phases == {"collect", "shed"}


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


def test_copying_a_record_is_deep_enough_for_json() -> None:
    record = good_record()
    assert json.loads(json.dumps(record)) == copy.deepcopy(record)
