"""The tutorial's lessons, walked step by step against the engine (``frontend/tutorial.py``).

Every move of a lesson, the robots' too, is applied by the rules engine, so a lesson that
breaks a rule fails here. Each step also says what it shows (``teaches``), and the checks
below make the engine prove it: a war really is a tie (P1.5), a pick-up really is legal
(P2.4), the learner really goes out and someone really is Mattis (P2.8, P2.9).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mattis import Game
from mattis.core.errors import Reason
from mattis.core.rules import PRESET_NAMES, PRESETS, Rules
from mattis.frontend.explain import explain_illegal
from mattis.frontend.tutorial import (
    LESSONS,
    YOU,
    Moment,
    Step,
    answer,
    lesson,
    offered_moves,
    start_game,
    walk,
)
from mattis.i18n import LANGS, Lang

REQUIRED = {"trick", "war", "draw", "phase1_end", "beat", "pickup", "out"}
"""What every lesson covers (issue 26); a sequence is ``sequence`` or, where the rules have
none, ``no_sequence``; the trump is ``trump_aside`` (hidden) or ``trump_drawn`` (face up)."""


def after(moment: Moment) -> Game:
    """The game right after the learner's expected move."""
    game = moment.game.copy()
    game.apply(moment.step.expect, YOU)
    return game


def until_next_step(preset: str, number: int) -> Game:
    """The game after step ``number`` and the robots' moves that follow it in its scene."""
    seen = 0
    for scene in LESSONS[preset]:
        game = start_game(scene, preset)
        done = False
        for move in scene.moves:
            if isinstance(move, Step):
                if done:
                    return game
                seen += 1
                done = seen == number
            game.apply(move.expect if isinstance(move, Step) else move, game.to_move)
        if done:
            return game
    raise AssertionError(f"no step {number}")


def check_trick(preset: str, moment: Moment) -> None:
    # P1.1, P1.3: the learner's highest card takes the trick onto their won pile
    before = moment.game.won_size(YOU)
    assert until_next_step(preset, moment.number).won_size(YOU) > before


def check_draw(preset: str, moment: Moment) -> None:
    # P1.4a: the learner holds three again, drawn from the stock
    game = moment.game
    assert game.hand_size(YOU) == 3
    assert game.stock_size < start_game(LESSONS[preset][0], preset).stock_size


def check_war(preset: str, moment: Moment) -> None:
    # P1.5: a tie that the learner is in
    assert YOU in moment.game.tie
    assert len(moment.game.tie) == 2


def check_war_second(preset: str, moment: Moment) -> None:
    # P1.5 two_cards: still in the war, for the second card
    assert moment.game.rules.tie == "two_cards"
    assert YOU in moment.game.tie


def check_chance(preset: str, moment: Moment) -> None:
    # P1.4: chancing plays the stock's top card; the hand keeps its cards
    game = after(moment)
    assert game.hand(YOU) == moment.game.hand(YOU)
    assert game.stock_size == moment.game.stock_size - 1


def check_trump_aside(preset: str, moment: Moment) -> None:
    # P1.6 hidden_last: the learner's draw would take the last card, so it is put aside unseen
    assert moment.game.stock_size == 1
    game = after(moment)
    assert game.trump_holder == YOU
    assert game.stock_size == 0
    assert game.view(YOU)["trump"] is None


def check_trump_drawn(preset: str, moment: Moment) -> None:
    # P1.6 bottom_up, P1.4a after_trick: the learner wins the trick and draws the face-up last card
    assert moment.game.view(YOU)["trump_card"] == "Th"
    assert until_next_step(preset, moment.number).last_drawer == YOU


def check_no_draw(preset: str, moment: Moment) -> None:
    # P1.4a: nobody draws once the stock is gone
    assert moment.game.stock_size == 0
    assert after(moment).hand_size(YOU) == moment.game.hand_size(YOU) - 1


def check_phase1_end(preset: str, moment: Moment) -> None:
    # P1.7, P1.9, P2.1: the scene ends in phase 2, trump known, the learner to lead
    game = until_next_step(preset, moment.number)
    assert game.phase == "shed"
    assert game.trump == "h"
    assert game.to_move == YOU
    assert not game.losers  # nobody was empty (P1.10)


def check_beat(preset: str, moment: Moment) -> None:
    # P2.4, P2.5: the expected card beats the newest play, which stays in the middle
    game = moment.game
    assert game.table
    assert moment.step.expect in [str(action) for action in game.legal_actions()]
    assert moment.step.expect != "pickup"
    if game.rules.follow_suit:  # P2.5 follow_suit: trumping it instead is refused
        refusal = game.check("5h", YOU)
        assert refusal is not None and refusal.reason is Reason.MUST_FOLLOW_SUIT


def check_beat_trump(preset: str, moment: Moment) -> None:
    # P2.5: a trump beats a play of another suit
    target = moment.game.table[-1][1][-1]
    assert target[1] != "h" and moment.step.expect.endswith("h")


def check_sequence(preset: str, moment: Moment) -> None:
    # P2.2, P2.3: the table is empty and a run of one suit goes out as one play
    assert not moment.game.table
    assert "-" in moment.step.expect
    assert len(after(moment).table) == 1


def check_no_sequence(preset: str, moment: Moment) -> None:
    # P2.2: these rules have no sequences
    assert moment.game.rules.min_sequence == 0
    refusal = Game.from_hands(moment.game.rules, [["5s", "6s"], ["2c"]], "h").check("5s-6s")
    assert refusal is not None and refusal.reason is Reason.SEQUENCES_OFF


def check_pickup(preset: str, moment: Moment) -> None:
    # P2.4: picking up the oldest play is legal; with voluntary_pickup off only because
    # nothing beats it
    game = moment.game
    assert game.table
    legal = [str(action) for action in game.legal_actions()]
    assert "pickup" in legal
    if not game.rules.voluntary_pickup:
        assert legal == ["pickup"]
    else:
        assert len(legal) > 1
    assert after(moment).hand_size(YOU) == game.hand_size(YOU) + 1


def check_out(preset: str, moment: Moment) -> None:
    # P2.8, P2.9: the learner's hand empties, and the last robot still in is Mattis
    game = after(moment)
    assert game.is_out(YOU)
    assert game.is_over
    assert game.losers == [1]
    assert game.out_order == [2, 0]


CHECKS: dict[str, Callable[[str, Moment], None]] = {
    "trick": check_trick, "draw": check_draw, "war": check_war, "war_second": check_war_second,
    "chance": check_chance, "trump_aside": check_trump_aside, "trump_drawn": check_trump_drawn,
    "no_draw": check_no_draw, "phase1_end": check_phase1_end, "beat": check_beat,
    "beat_trump": check_beat_trump, "sequence": check_sequence, "no_sequence": check_no_sequence,
    "pickup": check_pickup, "out": check_out,
}


def test_every_preset_has_a_lesson() -> None:
    assert set(PRESET_NAMES) == set(PRESETS) == set(LESSONS)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_step_shows_what_it_says(preset: str) -> None:
    moments = list(walk(preset))
    for moment in moments:
        assert moment.game.to_move == YOU
        assert moment.game.is_legal(moment.step.expect), (preset, moment.number)
        CHECKS[moment.step.teaches](preset, moment)
    assert [moment.number for moment in moments] == list(range(1, len(moments) + 1))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_lesson_covers_the_game_in_a_few_steps(preset: str) -> None:
    taught = {moment.step.teaches for moment in walk(preset)}
    assert taught >= REQUIRED
    assert taught & {"sequence", "no_sequence"}
    assert taught & {"trump_aside", "trump_drawn"}
    assert len(list(walk(preset))) <= 12  # at most five minutes: about twenty seconds a step


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_lesson_fits_in_five_minutes(preset: str) -> None:
    # a slow reader (120 words a minute) reading every sentence, and 12 seconds to look at the
    # cards and choose each move or press Continue, stays under five minutes
    for lang in LANGS:
        data = lesson(preset, lang)
        sentences = [step["say"] for step in data["steps"]] + [end["say"] for end in data["scenes"]]
        reading = sum(len(sentence.split()) for sentence in sentences) / 120 * 60
        choosing = 12 * (len(data["steps"]) + len(data["scenes"]))
        assert reading + choosing <= 300, (preset, lang, reading + choosing)


def test_each_preset_has_its_own_steps() -> None:
    says = {preset: {moment.step.say for moment in walk(preset)} for preset in PRESET_NAMES}
    assert "learn.step.chance" in says["pagat"]  # P1.4 chance (not in app)
    assert "learn.step.war.replay" in says["pagat"]  # P1.5 replay
    assert {"learn.step.play.pair", "learn.step.war.two_cards", "learn.step.pickup.must_beat",
            "learn.step.sequence.off", "learn.step.phase1_end.one_left"} <= says["kortregler"]
    assert {"learn.step.trump.bottom_up", "learn.step.draw.after_trick", "learn.step.war.any_match",
            "learn.step.beat.follow_suit"} <= says["app"]
    assert Rules.preset("app").chance is False
    assert Rules.preset("kortregler").trick == "pair"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_wrong_moves_get_the_engines_reason(preset: str) -> None:
    refused = 0
    for moment in walk(preset):
        for move in offered_moves(moment.game):
            ok, why = answer(moment.game, moment.step, move, "en")
            assert ok == (move == moment.step.expect)
            refusal = moment.game.check(move, YOU)
            if refusal is not None:
                refused += 1
                assert explain_illegal(refusal, "en") in why
            elif not ok:
                assert "is allowed" in why
    assert refused  # each lesson has moves the engine refuses, and says why


def test_a_too_low_card_is_explained_in_each_language() -> None:
    moment = next(m for m in walk("pagat") if m.step.teaches == "beat")
    for lang in LANGS:
        ok, why = answer(moment.game, moment.step, "5s", lang)
        assert not ok
        assert explain_illegal(moment.game.check("5s", YOU), lang) in why  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGS)
def test_the_lesson_data_for_a_page(lang: Lang) -> None:
    for preset in PRESET_NAMES:
        data = lesson(preset, lang)
        assert data["preset"] == preset and data["lang"] == lang
        assert len(data["scenes"]) == 2
        for step in data["steps"]:
            assert step["say"] and "{" not in step["say"]
            assert len(step["say"].split()) <= 32  # one short sentence
            offered = {move["action"]: move for move in step["moves"]}
            assert offered[step["expect"]]["ok"] is True
            assert sum(move["ok"] for move in step["moves"]) == 1
            assert set(step["view"]["hand"]) >= set(step["expect"].split("-")) - {"chance", "pickup"}
        assert data["names"][1] in data["scenes"][-1]["say"]  # the robot at seat 1 is Mattis


def test_the_view_is_the_seat_view() -> None:
    # the page never learns a robot's hand or the stock's order (rules section 5)
    for preset in PRESET_NAMES:
        for step in lesson(preset, "en")["steps"]:
            view = step["view"]
            assert set(view) == {"phase", "to_move", "hand", "hand_sizes", "won_sizes", "stock", "trump",
                                 "trump_card", "trump_holder", "tie", "table", "out_order", "losers"}
            assert all(isinstance(size, int) for size in view["hand_sizes"])
        war = next(step for step in lesson(preset, "en")["steps"] if step["teaches"] == "war")
        assert war["view"]["table"] and war["view"]["tie"]  # the tied cards are shown
