"""The presentation layer every front end shares (:mod:`mattis.frontend`): what a player
types (both languages), how cards and hands are shown, the sentences for what just happened,
why a move is not allowed (the English text is the rules core's own, rules section 7), the
play texts in both languages, and the terminal's table without a screen (its games and
matches, C2).
"""

from __future__ import annotations

import datetime
import json
import random
from pathlib import Path

import pytest

import mattis
from mattis import ALL_ACTIONS, CHANCE, PICKUP, Action, Event, EventKind, Game, IllegalAction, Reason, Rules
from mattis.core.cards import CARD_CODES, parse_card
from mattis.frontend import (
    Command,
    CommandInput,
    ConsecutiveSeeds,
    InputError,
    Match,
    MoveInput,
    Narrator,
    RecordError,
    card_label,
    card_name,
    cards_label,
    explain_illegal,
    load_record,
    make_participants,
    parse_input,
    play_record,
    save_record,
    sort_actions,
    sort_hand,
    turn_advice,
)
from mattis.frontend.cards import play_label
from mattis.frontend.record import default_save_path
from mattis.i18n import LANGS, Lang, message_template, t
from mattis.i18n.play import PLAY_MESSAGES
from mattis.terminal.host import Asked, Blank, Hint, Moved, Rejected, TerminalTable, terminal_config

CHOICES = [Action.parse(text) for text in ("4c", "7h", "Ks", "chance")]
PEOPLE = make_participants(3, 0, ["normal", "easy"])  # Du, Kari, Ola


def move(text: str) -> Action:
    parsed = parse_input(text, CHOICES)
    assert isinstance(parsed, MoveInput), (text, parsed)
    return parsed.action


def error_key(text: str) -> str:
    parsed = parse_input(text, CHOICES)
    assert isinstance(parsed, InputError), (text, parsed)
    for lang in LANGS:
        assert parsed.text(lang)  # every error reads in both languages
    return parsed.key


# ---------------------------------------------------------------------------- input


@pytest.mark.parametrize(
    ("text", "code"),
    [("7h", "7h"), ("7H", "7h"), ("10h", "Th"), ("Th", "Th"), ("7♥", "7h"), ("10♠", "Ts"),
     ("Qd", "Qd"), ("Dr", "Qd"), ("kk", "Kc"), ("Es", "As"), ("Kns", "Js"), ("h7", "7h"),
     ("♥7", "7h"), (" 7 h ", "7h"), ("As", "As")],
)
def test_input_reads_cards_in_english_and_norwegian_letters(text: str, code: str) -> None:
    assert move(text) == Action.parse(code)


@pytest.mark.parametrize(
    ("text", "code"),
    [("6h-8h", "6h-8h"), ("6-8h", "6h-8h"), ("8h-6h", "6h-8h"), ("6h–8h", "6h-8h"),
     ("10s-Qs", "Ts-Qs"), ("6h-6h", "6h")],
)
def test_input_reads_sequences_p2_2(text: str, code: str) -> None:
    assert move(text) == Action.parse(code)


@pytest.mark.parametrize("text", ["chance", "sjanse", "sjans", "SJANSE", "sjanse!"])
def test_input_reads_chance_in_both_languages_p1_4(text: str) -> None:
    assert move(text) is CHANCE


@pytest.mark.parametrize("text", ["pickup", "pick up", "ta opp", "Ta  Opp", "opp", "ta inn"])
def test_input_reads_pick_up_in_both_languages_p2_4(text: str) -> None:
    assert move(text) is PICKUP


def test_input_numbers_choose_from_the_displayed_list() -> None:
    assert [move(str(number)) for number in (1, 2, 3, 4)] == CHOICES
    assert error_key("0") == "play.err.number_range"
    assert error_key("5") == "play.err.number_range"
    assert "1" in t("play.err.number_range", "en", number=5, max=4)
    assert isinstance(parse_input("1", []), InputError)


@pytest.mark.parametrize(
    ("text", "command"),
    [("hint", Command.HINT), ("tips", Command.HINT), ("help", Command.HELP), ("hjelp", Command.HELP),
     ("?", Command.HELP), ("rules", Command.RULES), ("regler", Command.RULES),
     ("quit", Command.QUIT), ("avslutt", Command.QUIT), ("vis", Command.SHOW)],
)
def test_input_reads_commands_in_both_languages(text: str, command: Command) -> None:
    assert parse_input(text, CHOICES) == CommandInput(command)


@pytest.mark.parametrize(
    ("text", "key"),
    [("7x", "play.err.bad_suit"), ("Kx", "play.err.bad_suit"), ("1h", "play.err.bad_rank"),
     ("Zh", "play.err.bad_rank"), ("h1", "play.err.bad_rank"),
     ("6h-8s", "play.err.sequence_suits"), ("6h-", "play.err.bad_sequence"),
     ("frobnicate", "play.err.unknown"), ("ta", "play.err.unknown")],
)
def test_input_errors_say_what_is_wrong(text: str, key: str) -> None:
    assert error_key(text) == key


def test_input_blank_line_is_nothing() -> None:
    assert parse_input("   ", CHOICES) is None


# ---------------------------------------------------------------------------- cards


def test_cards_read_as_on_the_card_face() -> None:
    assert card_label("Th") == "10♥"
    assert card_label("As") == "A♠"
    assert cards_label(["6h", "7h", "8h"]) == "6♥–8♥"
    assert cards_label(["4c", "7h"]) == "4♣ 7♥"
    assert card_name("Ah", "nb") == "hjerter ess"
    assert card_name("Qs", "en") == "queen of spades"


def test_hand_sorts_by_rank_in_phase_1_p1_3_and_by_suit_with_trump_last_in_phase_2() -> None:
    hand = ["Ks", "2h", "9c", "3s", "Ah"]
    assert [CARD_CODES[c] for c in sort_hand(hand, "collect")] == ["2h", "3s", "9c", "Ks", "Ah"]
    shed = [CARD_CODES[c] for c in sort_hand(hand, "shed", trump="h")]
    assert shed == ["9c", "3s", "Ks", "2h", "Ah"]  # clubs, spades, then trump hearts
    actions = sort_actions([PICKUP, Action.parse("Ah"), Action.parse("2h"), Action.parse("9c")],
                           "shed", "h")
    assert actions[-1] is PICKUP and actions[0] == Action.parse("9c")


# ---------------------------------------------------------------------------- narration


def bits(*codes: str) -> int:
    return sum(1 << parse_card(code) for code in codes)


def typed(events: list[tuple[str, int, int]]) -> list[Event]:
    """Events written compactly as ``(kind, seat, card mask)``."""
    return [Event(EventKind(kind), seat, tuple(mattis.card_code(c) for c in range(52) if mask >> c & 1))
            for kind, seat, mask in events]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("nb", ["Kari la 7♥", "Ola sjanset og fikk K♠", "Du la 9♣", "Ola vant stikket med K♠ (3 kort)"]),
     ("en", ["Kari played 7♥", "Ola chanced and turned up K♠", "You played 9♣",
             "Ola won the trick with K♠ (3 cards)"])],
)
def test_narrator_tells_phase_1_moves(lang: Lang, expected: list[str]) -> None:
    narrator = Narrator(PEOPLE, Rules.preset("pagat"), lang)
    events = [("play", 1, bits("7h")), ("chance", 2, bits("Ks")), ("play", 0, bits("9c")),
              ("won", 2, bits("7h", "Ks", "9c"))]
    assert narrator.describe(typed(events)) == expected


def test_narrator_tells_phase_2_and_the_end() -> None:
    narrator = Narrator(PEOPLE, Rules.preset("pagat"), "nb")
    events = [("reveal", 1, bits("9d")), ("shed", 1, 0), ("play", 1, bits("6h", "7h", "8h")),
              ("pickup", 2, bits("6h", "7h", "8h")), ("out", 0, 0), ("out", 1, 0), ("lose", 2, 0)]
    assert narrator.describe(typed(events)) == [
        "Kari snudde trumfkortet: 9♦, så ruter er trumf!",
        "Utspillingen (fase 2) begynner.",
        "Kari la 6♥–8♥",
        "Ola tok opp 6♥–8♥",
        "Du gikk ut som nummer 1!",
        "Kari gikk ut som nummer 2!",
        "Ola er Mattis!",
    ]


def test_narrator_names_blaamattis_before_phase_2_p1_10() -> None:
    en = Narrator(PEOPLE, Rules.preset("pagat"), "en")
    assert en.describe(typed([("lose", 0, 0)])) == ["You have no cards after collecting and are Blåmattis!"]
    app = Narrator(PEOPLE, Rules.preset("app"), "nb")
    assert app.describe(typed([("lose", 1, 0)])) == [
        "Kari har tom stikkbunke etter innsamlingen og er Blodmattis!"]


def test_narrator_describes_every_event_of_real_games() -> None:
    for preset in ("pagat", "kortregler", "app"):
        for seed in range(4):
            game = Game.new(preset, 3, seed=seed)
            rng = random.Random(seed)
            while not game.is_over and game.num_actions < 3000:
                game.apply(rng.choice(game.legal_actions()))
            for lang in LANGS:
                lines = Narrator(PEOPLE, game.rules, lang).describe(game.history)
                assert len(lines) == len(game.history)
                assert all("{" not in line for line in lines)


# ---------------------------------------------------------------------------- explanations


def test_every_refusal_reason_is_translated_in_both_languages() -> None:
    """Each reason code of the core has a ``play.why.<reason>`` text in both languages."""
    for reason in Reason:
        for lang in LANGS:
            assert message_template(f"play.why.{reason.value}", lang), (reason, lang)


def test_refusals_are_explained_from_the_cores_reason_codes_section_7() -> None:
    """Every refused move, over random games of several rule sets, comes with a reason code
    whose bokmål and English texts name the cards the core named (as players read them)."""
    checked: set[Reason] = set()
    for preset, extra in (("pagat", {}), ("kortregler", {}), ("app", {}),
                          ("kortregler", {"min_sequence": 3}), ("pagat", {"chance": False})):
        rules = Rules.preset(preset).with_options(**extra)
        for seed in range(3):
            game = Game.new(rules, 3, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                legal = set(game.legal_actions())
                for action in [*rng.sample(ALL_ACTIONS, 12), CHANCE, PICKUP]:
                    if action in legal:
                        continue
                    refusal = game.check(action)
                    assert refusal is not None
                    with pytest.raises(IllegalAction) as raised:
                        game.apply(action)
                    assert (raised.value.reason, raised.value.params) == (refusal.reason, refusal.params)
                    for lang in LANGS:
                        text = explain_illegal(refusal, lang)
                        assert text and "{" not in text, (refusal.reason, lang)
                        for name in ("play", "target"):  # the cards each message names
                            if "{" + name + "}" in message_template(f"play.why.{refusal.reason}", lang):
                                shown = play_label(Action.parse(str(refusal.params[name])))
                                assert shown in text, (refusal.reason, lang, text)
                    checked.add(refusal.reason)
                game.apply(rng.choice(sorted(legal)))
    assert {Reason.NOT_IN_HAND, Reason.TOO_LOW, Reason.WRONG_SUIT, Reason.PICKUP_IN_PHASE1,
            Reason.CHANCE_IN_PHASE2, Reason.MUST_BEAT, Reason.SEQUENCE_IN_PHASE1} <= checked


# ---------------------------------------------------------------------------- texts


def test_play_texts_are_play_keys_in_every_language() -> None:
    """The play catalogue keeps play's keys; tests/test_i18n.py checks the translations."""
    for key in PLAY_MESSAGES:
        assert key.startswith("play.")
        for lang in LANGS:
            assert message_template(key, lang), (key, lang)


# ---------------------------------------------------------------------------- sessions


def session(seed: int = 1, levels: tuple[str, str] = ("random", "random"), lang: Lang = "en",
            hint_seconds: float = 0.5) -> TerminalTable:
    """One game of the terminal's table (its loop without a screen), dealt."""
    people = make_participants(3, 0, list(levels))
    match = Match(Rules.preset("pagat"), 3, ConsecutiveSeeds(seed))
    table = TerminalTable(match, people, lang, config=terminal_config(pace=0.0, hint_seconds=hint_seconds))
    assert table.deal() == Game.new("pagat", 3, seed=seed)
    return table


def test_session_rejects_bad_input_without_changing_the_game() -> None:
    play = session()
    play.run_bots()
    assert play.human_to_move
    before = play.game.copy()
    hand = set(play.game.hand(0))
    missing = next(code for code in CARD_CODES if code not in hand)
    for text in ("7x", missing, "pickup", "42", "frobnicate"):
        reply = play.handle(text)
        assert isinstance(reply, Rejected), text
        assert "\n" not in reply.message
    assert play.handle(missing) == Rejected(
        f"Not allowed: {card_label(missing)} is not in your hand.")
    assert isinstance(play.handle(""), Blank)
    assert play.handle("hint") == Asked(Command.HINT)
    assert play.game == before
    assert isinstance(play.handle("1"), Moved)
    assert play.game.num_actions == before.num_actions + 1


def test_session_plays_a_whole_game_and_the_record_replays(tmp_path: Path) -> None:
    play = session(seed=4, lang="nb")
    news: list[str] = []
    while True:
        play.run_bots()
        news += [item.text for item in play.news()]
        if play.over:
            break
        assert isinstance(play.handle("1"), Moved)
    assert any("Mattis!" in line for line in news)
    path = tmp_path / "game.json"
    save_record(play.record(), path)
    loaded = load_record(path)
    assert loaded.game.losers == play.game.losers
    assert loaded.human_seat == 0
    assert [p.name for p in loaded.participants] == ["", "Kari", "Ola"]


def test_session_hint_names_a_legal_move_with_a_reason() -> None:
    play = session(seed=2, lang="nb", hint_seconds=0.05)
    play.run_bots()
    hint = play.hint()
    assert isinstance(hint, Hint)
    assert play.hint() == hint  # asked again at the same point: the same hint at once
    assert hint.action in play.game.legal_actions()
    assert 1 <= hint.number <= len(play.choices())
    assert hint.reason


def test_match_scores_and_the_loser_deals_next_c2() -> None:
    people = make_participants(3, 1, ["random", "random"])
    match = Match(Rules.preset("pagat"), len(people), ConsecutiveSeeds(10), games=3)
    assert match.dealer == 2  # the last seat deals the first game
    for _ in range(3):
        game = match.new_game()
        assert game.dealer == match.dealer
        rng = random.Random(game.dealer)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        match.finish(game)
        assert match.dealer in game.losers
    assert sum(match.scores) == sum(len(losers) for losers in match.results)
    assert match.finished


def test_load_record_refuses_what_is_not_a_game(tmp_path: Path) -> None:
    game = Game.new("pagat", 3, seed=1)
    game.apply(game.legal_actions()[0])
    good = play_record(game, PEOPLE, "en")
    cases = {
        "missing.json": None,
        "text.json": "not json at all",
        "list.json": "[1, 2]",
        "other.json": '{"format": "something-else"}',
        "illegal.json": {**good, "actions": ["pickup"]},
        "norules.json": {key: value for key, value in good.items() if key != "rules"},
    }
    for name, content in cases.items():
        path = tmp_path / name
        if isinstance(content, str):
            path.write_text(content)
        elif isinstance(content, dict):
            path.write_text(json.dumps(content))
        with pytest.raises(RecordError) as error:
            load_record(path)
        assert "\n" not in str(error.value)
    path = tmp_path / "good.json"
    save_record(good, path)
    assert load_record(path).game == game


def test_advice_names_the_opponent_of_a_pair_trick_p1_2() -> None:
    game = Game.new("kortregler", 3, seed=4)
    assert game.to_move == 0
    advice = turn_advice(game.view(0), PEOPLE, game.legal_actions(), "en")
    assert advice.startswith("You lead against Kari.")


def test_default_save_path_never_overwrites_a_saved_game(tmp_path: Path) -> None:
    now = datetime.datetime(2025, 1, 2, 3, 4, 5)
    first = default_save_path(now, tmp_path)
    assert first.name == "mattis-20250102-030405.json"
    first.write_text("{}")
    assert default_save_path(now, tmp_path).name == "mattis-20250102-030405-b.json"
