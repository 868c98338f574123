"""What a player types at the prompt: numbers only as the list shows them, and hostile text
answered with one clear line, never an exception."""

from __future__ import annotations

import pytest

from mattis.core.actions import Action
from mattis.frontend.inputs import MAX_NUMBER_DIGITS, InputError, MoveInput, parse_input
from mattis.frontend.text import printable, shown

CHOICES = [Action.single(card) for card in range(5)]


@pytest.mark.parametrize("typed", ["²", "①", "٣", "3²", "½", "9" * 5000, "1" * (MAX_NUMBER_DIGITS + 1)])
def test_only_ascii_numbers_of_sane_length_choose_a_move(typed: str) -> None:
    parsed = parse_input(typed, CHOICES)
    assert isinstance(parsed, InputError)
    assert parsed.key == "play.err.not_a_move"
    english, norwegian = parsed.text("en"), parsed.text("nb")
    assert english.startswith(f"'{shown(typed)}' is not a move: type a card like 7h, a number from the "
                              "list (1-5)")
    assert norwegian.startswith(f"«{shown(typed)}» er ikke et trekk: skriv et kort som 7h, et nummer fra "
                                "lista (1–5)")
    assert len(english) < 200


def test_a_number_without_a_list_says_what_a_move_is() -> None:
    parsed = parse_input("①")
    assert isinstance(parsed, InputError)
    assert parsed.text("en") == "'①' is not a move: type a card like 7h, or 'help'."


def test_plain_numbers_still_choose_from_the_list() -> None:
    assert parse_input("3", CHOICES) == MoveInput(CHOICES[2])
    assert parse_input(" 05 ", CHOICES) == MoveInput(CHOICES[4])
    out_of_range = parse_input("999999", CHOICES)
    assert isinstance(out_of_range, InputError) and out_of_range.key == "play.err.number_range"


def test_long_or_hostile_text_is_quoted_short_and_without_control_characters() -> None:
    parsed = parse_input("x\x1b[2J" + "y" * 500, CHOICES)
    assert isinstance(parsed, InputError)
    text = parsed.text("en")
    assert "\x1b" not in text and len(text) < 200
    card = parse_input("7\x07", CHOICES)
    assert isinstance(card, InputError) and "\x07" not in card.text("nb")


def test_printable_strips_control_bidi_and_line_separators_only() -> None:
    assert printable("Kari\x1b[2J\x07\x00\x7f\x9b\u202eevil\u2066\u2028ok") == "Kari[2Jevilok"
    assert printable("Åse Ærlig-Øye 🂡") == "Åse Ærlig-Øye 🂡"
