"""The move log's announcements (:mod:`mattis.frontend.story`), checked over random games of
every preset: each war, forced pick-up, change of lead and end of phase 1 is announced, in
both languages, from public information only."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field

import pytest

from mattis import Game, Rules
from mattis.core.actions import PICKUP
from mattis.core.events import EventKind
from mattis.core.observation import SeatView
from mattis.frontend import make_participants, turn_advice
from mattis.frontend.story import Announcement, LogLine, TableStory
from mattis.i18n import Lang

SEEDS = range(12)


@dataclass
class Told:
    """A random game told by one :class:`TableStory`, step by step."""

    game: Game
    steps: list[tuple[list[EventKind], SeatView, SeatView, list[LogLine]]] = field(default_factory=list)
    """Per step: the event kinds, the view before and after, and the lines told."""


@functools.cache
def told_game(preset: str, players: int, seed: int, lang: Lang = "en", seat: int = 0,
              rules: Rules | None = None) -> Told:
    """Cached: several tests read the same games (none changes them)."""
    game = Game.new(rules or Rules.preset(preset), players, seed=seed)
    story = TableStory(make_participants(players, 0, ["normal"] * (players - 1)), game.rules, lang)
    rng = random.Random(seed)
    told = Told(game)
    before = SeatView.from_dict(game.view(seat, since=game.num_events))
    story.tell(game.history, before)
    while not game.is_over and game.num_actions < 2000:
        count = game.num_events
        game.apply(rng.choice(game.legal_actions()))
        events = game.events_since(count)
        after = SeatView.from_dict(game.view(seat, since=game.num_events))
        told.steps.append(([e.kind for e in events], before, after, story.tell(events, after)))
        before = after
    return told


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("kortregler", 4), ("app", 3)])
def test_every_seat_hears_the_same_story(preset: str, players: int) -> None:
    """Only public facts go into the log, so a server may send it to every seat."""
    for seed in SEEDS[:2]:
        lines = [told_game(preset, players, seed, seat=seat).steps for seat in range(players)]
        texts = [[[line.text for line in step[3]] for step in steps] for steps in lines]
        assert all(other == texts[0] for other in texts[1:])


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("kortregler", 4), ("app", 3)])
def test_a_war_is_announced_with_who_is_in_it_p1_5(preset: str, players: int) -> None:
    wars = 0
    names = ["You", "Kari", "Ola", "Siri"]
    for seed in SEEDS:
        for kinds, before, after, lines in told_game(preset, players, seed).steps:
            told = [line.kind for line in lines]
            if EventKind.DROP in kinds and not before.tie:  # a war begun and left in one step
                assert Announcement.WAR in told and told.index(Announcement.WAR) < told.index(EventKind.DROP)
            if after.phase == "collect" and after.tie and after.tie != before.tie:
                wars += 1
                war = [line for line in lines if line.kind is Announcement.WAR]
                assert len(war) == 1
                assert war[0].text.startswith(("War!", "Tied again"))
                for seat in after.tie:
                    assert names[seat].lower() in war[0].text.lower()
    assert wars > 0


def test_who_is_ahead_in_a_war_is_told_after_each_war_card() -> None:
    ahead = 0
    for seed in SEEDS:
        for kinds, before, after, lines in told_game("kortregler", 4, seed).steps:
            if (after.phase == "collect" and before.tie and after.tie == before.tie
                    and EventKind.PLAY in kinds and EventKind.WON not in kinds):
                ahead += 1
                assert [line for line in lines if line.kind is Announcement.AHEAD]
    assert ahead > 0


@pytest.mark.parametrize(("preset", "players", "why"), [
    ("pagat", 3, "holds the trump card"), ("kortregler", 4, "holds the trump card"),
    ("app", 3, "drew the stock's last card")])
def test_the_end_of_phase_1_says_why_and_who_leads_p1_7_p2_1(preset: str, players: int, why: str) -> None:
    for seed in SEEDS[:6]:
        for kinds, _, _, lines in told_game(preset, players, seed).steps:
            if EventKind.SHED not in kinds:
                continue
            kinds_told = [line.kind for line in lines]
            shed = kinds_told.index(EventKind.SHED)
            assert kinds_told[shed - 1] is Announcement.PHASE_END
            assert kinds_told[shed + 1] is Announcement.LEAD
            assert why in lines[shed + 1].text or "was next to lead" in lines[shed + 1].text


def test_a_pick_up_without_voluntary_pick_ups_is_announced_as_forced_p2_4() -> None:
    forced = 0
    for seed in SEEDS[:6]:
        for kinds, _, _, lines in told_game("kortregler", 3, seed).steps:
            if EventKind.PICKUP in kinds:
                forced += 1
                notes = [line.text for line in lines if line.kind is Announcement.FORCED]
                assert notes and ("could not beat" in notes[0] or "had no cards" in notes[0])
    assert forced > 0


def test_each_new_phase_2_trick_says_who_leads_and_why_p2_6() -> None:
    for seed in SEEDS[:6]:
        for kinds, _, after, lines in told_game("pagat", 4, seed).steps:
            if EventKind.CLEAR in kinds and not after.losers:
                leads = [line for line in lines if line.kind is Announcement.LEAD]
                assert leads and leads[-1].seat == after.to_move
                assert "made the last play" in leads[-1].text


def test_the_first_trick_won_explains_that_the_winner_leads_p1_1() -> None:
    steps = told_game("pagat", 3, 1).steps
    leads = [line.text for step in steps for line in step[3] if line.text.startswith("Next to lead")
             and "won the last trick" in line.text]
    assert len(leads) == 1


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_story_is_told_in_both_languages(lang: Lang) -> None:
    text = " ".join(line.text for step in told_game("kortregler", 4, 3, lang).steps for line in step[3])
    if lang == "nb":
        assert "Innsamlingen er over" in text and "Krig!" in text
    else:
        assert "Collecting is over" in text and "War!" in text


def test_an_empty_player_who_stays_in_must_pick_up_p1_10() -> None:
    rules = Rules.preset("pagat").with_options(nothing_left="must_pick_up")
    empties = 0
    for seed in range(8):  # seeds 0 and 7 leave a player empty
        for kinds, _, after, lines in told_game("pagat", 5, seed, rules=rules).steps:
            if EventKind.SHED in kinds:
                empty = [s for s, size in enumerate(after.hand_sizes) if size == 0]
                notes = [line.seat for line in lines if line.kind is Announcement.EMPTY]
                assert notes == empty
                empties += len(empty)
    assert empties > 0


def test_follow_suit_advice_does_not_offer_a_trump_p2_5() -> None:
    """Under follow_suit, a player holding the newest play's suit is not told to trump."""
    checked = 0
    people = make_participants(3, 0, ["normal", "normal"])
    for seed in SEEDS:
        game = Game.new(Rules.preset("app"), 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            view = SeatView.from_dict(game.view(game.to_move or 0, since=game.num_events))
            if view.phase == "shed" and view.plays and view.to_move is not None:
                newest = view.plays[-1][1]
                holds = any(card // 13 == newest.suit for card in view.hand_cards)
                if holds and newest.suit != view.trump_suit:
                    advice = turn_advice(view, people, game.legal_actions(), "en")
                    assert "trump" not in advice.replace("may not trump", "").replace("no trumping", "")
                    assert "may not trump" in advice or "no trumping" in advice or "Beat" not in advice
                    checked += 1
            legal = game.legal_actions()
            game.apply(rng.choice([a for a in legal if a is not PICKUP] or legal))
    assert checked > 0


# ---------------------------------------------------------------- smaller things at the table


def test_input_errors_say_what_was_expected() -> None:
    from mattis.core.actions import Action
    from mattis.frontend import InputError, parse_input

    choices = [Action.parse("7h"), Action.parse("9c")]
    word = parse_input("blah", choices)
    assert isinstance(word, InputError) and word.key == "play.err.unknown"
    negative = parse_input("-1", choices)
    assert isinstance(negative, InputError)
    assert negative.text("en") == ("'-1' is not a move: type a card like 7h, a number from the list "
                                   "(1-2), or 'help'.")
    assert "«-1» er ikke et trekk" in negative.text("nb")


@pytest.mark.parametrize(("lang", "one", "many"), [("en", "stock: 1 card", "stock: 2 cards"),
                                                  ("nb", "trekkbunken: 1 kort", "trekkbunken: 2 kort")])
def test_the_stock_count_is_singular_or_plural(lang: Lang, one: str, many: str) -> None:
    from dataclasses import replace

    from mattis.frontend import table_state
    from mattis.frontend.table import status_line

    game = Game.new(Rules.preset("pagat"), 3, seed=1)
    state = table_state(game.view(0), make_participants(3, 0, ["normal", "normal"]), lang)
    assert one in status_line(replace(state, stock_size=1), lang)
    assert many in status_line(replace(state, stock_size=2), lang)


def test_cards_in_the_move_list_have_the_colours_of_the_hand() -> None:
    from mattis.core.actions import Action
    from mattis.terminal.render import card_text, choices_text

    moves = [Action.parse("7s"), Action.parse("9h")]
    text = choices_text(moves, ["7♠", "9♥"], None, lang="en", width=80)
    assert "cyan" not in str(text.style)
    for card, label in ((Action.parse("7s").low, "7♠"), (Action.parse("9h").low, "9♥")):
        start = text.plain.index(label)
        styles = {str(span.style) for span in text.spans if span.start <= start < span.end}
        assert styles == {str(card_text(card).style)}  # in the hand: the same card_text


def test_without_suit_symbols_cards_are_letters() -> None:
    import io

    from mattis.frontend.cards import card_label, cards_label, console_takes_symbols, use_symbols

    ascii_stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert not console_takes_symbols(ascii_stream)
    assert console_takes_symbols(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    try:
        use_symbols(False)
        assert card_label("Th") == "10h"
        assert cards_label(["6h", "7h", "8h"]) == "6h-8h"
        use_symbols(True)
        assert card_label("Th") == "10♥"
    finally:
        use_symbols(None)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "the cheapest card that beats 9"), ("nb", "billigste kort som slår 9")])
def test_bot_reasons_in_plain_words(lang: Lang, expected: str) -> None:
    from mattis.bots import Decision
    from mattis.core.actions import Action
    from mattis.frontend.reasons import bot_reason, hint_reason

    assert bot_reason(Decision(Action.parse("Jh"), "x", "win_cheap", (("rank", "9"),)), lang) == expected
    pickup = Decision(PICKUP, "x", "must_pick_up", (("target", "9♥"),))
    assert "9♥" in bot_reason(pickup, lang)
    search = Decision(Action.parse("7h"), "x", "search", (("share", "41%"), ("iterations", "336"),
                                                          ("safe", "66%")))
    text = hint_reason(search, lang)
    assert "336" not in text and "66" in text
    assert ("kept you out of Mattis 66% of the time" in text) if lang == "en" else ("66\u00a0%" in text)


def test_a_war_begun_and_left_in_one_move_is_still_announced_p1_7b() -> None:
    """Kortregler, 4 players, seed 7: your ace ties Siri's, who has nothing left and leaves
    the war at once; the log says there was a war before saying who left it."""
    from mattis.frontend import ConsecutiveSeeds, Match
    from mattis.terminal import TerminalTable

    match = Match(Rules.preset("kortregler"), 4, ConsecutiveSeeds(7))
    session = TerminalTable(match, make_participants(4, 0, ["normal"] * 3), "en")
    game = session.deal()
    assert game == Game.new(Rules.preset("kortregler"), 4, seed=7)
    told: list[LogLine] = []
    while not session.over and game.phase == "collect":
        if session.human_to_move:
            session.handle("1")
        else:
            session.step_bot()
        told.extend(session.news())
    texts = [line.text for line in told]
    left = next(i for i, text in enumerate(texts) if text == "Siri had nothing to play and left the war")
    assert texts[left - 1].startswith("War! In the war: Siri and you.")


def test_story_sentences_agree_with_you() -> None:
    """Announcements name the person at the keyboard as "you"; no "you has" or "you leads"."""
    import re

    from mattis.i18n import message_keys, t

    params = {"who": "you", "winner": "You", "out": "You", "names": "Kari and you", "how": "",
              "card": "K♠", "target": "9♥", "count": 2}
    for key in (key for key in message_keys() if key.startswith("play.story.")):
        text = t(key, "en", **params)
        assert not re.search(r"\b[Yy]ou (has|is|leads|was|holds|draws)\b", text), (key, text)
