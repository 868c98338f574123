"""A house rule in one place: every field of :class:`mattis.Rules` carries its
:class:`~mattis.core.rules.RuleOption`, and every consumer of the options follows it.

Each test walks ``dataclasses.fields(Rules)``, so a new field that some consumer misses
fails here by name: the web's start page (``/api/options``), the command line (``--set`` and
``mattis rules``), the words in both languages, the learning environments' rules vector,
the web's rules page, the terminal's summary, and the rule numbers of the rules text
(section 4 of ``docs/rules.en.md``).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from mattis import PRESET_NAMES, Rules
from mattis.cli.app import app
from mattis.cli.common import resolve_rules
from mattis.core.rules import RULE_OPTIONS, RuleOption
from mattis.envs.encoding import LAYOUT, RULES_SIZE, rules_vector
from mattis.i18n import LANGS, Lang, option_description, option_name, option_value, option_values
from mattis.terminal.render import rules_summary
from mattis.web.app import options_payload
from mattis.web.rules_page import overview_html

FIELDS = [item.name for item in dataclasses.fields(Rules)]
DOCS = Path(__file__).resolve().parent.parent / "docs"


def _option(field: str) -> RuleOption:
    option = dataclasses.fields(Rules)[FIELDS.index(field)].metadata.get("option")
    assert isinstance(option, RuleOption), f"{field}: no RuleOption in its field metadata"
    return option


def _with(field: str, value: object) -> Rules:
    """Rules that allow ``value`` for ``field`` (the player bounds checked against each other)."""
    if field == "min_players":
        return Rules(min_players=value, max_players=6)  # type: ignore[arg-type]
    if field == "max_players":
        return Rules(min_players=2, max_players=value)  # type: ignore[arg-type]
    return Rules.preset("pagat").with_options(**{field: value})


@pytest.mark.parametrize("field", FIELDS)
def test_every_field_declares_its_option(field: str) -> None:
    option = _option(field)
    assert RULE_OPTIONS[field] is option and Rules.option(field) is option
    assert re.fullmatch(r"C\d+|P[12]\.\d+a?", option.rule), f"{field}: rule number {option.rule!r}"
    assert option.values and len(set(option.values)) == len(option.values)
    assert len({type(value) for value in option.values}) == 1, f"{field}: values of one type"
    assert getattr(Rules(), field) in option.values
    for preset in PRESET_NAMES:
        assert getattr(Rules.preset(preset), field) in option.values, f"{preset}.{field}"
    for value, text in zip(option.values, option.choices, strict=True):
        assert getattr(_with(field, value), field) == value
        assert getattr(_with(field, text), field) == value, f"{field}={text} does not read back"
    assert Rules.option_choices(field) == option.choices


def test_number_options_refuse_values_outside_their_metadata() -> None:
    for field, option in RULE_OPTIONS.items():
        numbers = [value for value in option.values if type(value) is int]
        if not numbers:
            continue
        outside = next(n for n in itertools.count(max(numbers) + 1) if n not in numbers)
        with pytest.raises(ValueError, match=rf"^{field}: must be "):
            _with(field, outside)
    with pytest.raises(ValueError, match=r"^min_sequence: must be 0 \(off\), 2 or 3, got 1$"):
        Rules(min_sequence=1)
    with pytest.raises(ValueError, match=r"^removed_two_player: must be from 0 to 10, got 11$"):
        Rules(removed_two_player=11)


@pytest.mark.parametrize("lang", LANGS)
def test_the_start_page_offers_every_option_with_its_values(lang: Lang) -> None:
    """``/api/options``: every option a game is played with, its rule number and every value
    it accepts (as JSON: enums as text), each value in words; the player bounds are asked
    for as the player count."""
    offered = {item["field"]: item for item in options_payload(lang)["options"]}
    assert list(offered) == [field for field in FIELDS if _option(field).in_play]
    assert {field for field in FIELDS if not _option(field).in_play} == {"min_players", "max_players"}
    for field, item in offered.items():
        option = _option(field)
        assert item["rule"] == option.rule
        assert item["name"] == option_name(option.text, lang)
        values = [value["value"] for value in item["values"]]
        assert [Rules.preset("pagat").with_options(**{field: value}).to_dict()[field]
                for value in values] == values
        assert [getattr(_with(field, value), field) for value in values] == list(option.values)
        assert all(value["label"] for value in item["values"])


@pytest.mark.parametrize("lang", LANGS)
def test_mattis_rules_lists_every_option_with_its_rule_and_values(lang: Lang) -> None:
    result = CliRunner().invoke(app, ["rules", "pagat", "--lang", lang], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for field in FIELDS:
        option = _option(field)
        row = next((line for line in lines if re.search(rf"\b{field}\b", line)), None)
        assert row is not None, f"mattis rules does not list {field}"
        assert f"· {option.rule}" in row
        shown = option.choices if len(option.choices) <= 4 else (option.choices[0], option.choices[-1])
        assert all(choice in row for choice in shown), f"{field}: allowed values missing in {row!r}"


def test_set_takes_every_value_of_every_option() -> None:
    for field, option in RULE_OPTIONS.items():
        for value, text in zip(option.values, option.choices, strict=True):
            base = "kortregler" if field == "min_players" else "pagat"  # kortregler allows 2
            if field == "max_players" and value == 2:
                continue  # below pagat's min_players; the bound itself is read above
            assert getattr(resolve_rules(base, [f"{field}={text}"]), field) == value


@pytest.mark.parametrize("field", FIELDS)
def test_every_option_has_words_in_both_languages(field: str) -> None:
    option = _option(field)
    for lang in LANGS:
        assert option_name(option.text, lang) and option_description(option.text, lang)
        for value in option.values:
            assert option_value(option.text, value, lang), f"{field}={value} has no words in {lang}"
    assert option_name(option.text, "nb") != option_name(option.text, "en")
    assert option_description(option.text, "nb") != option_description(option.text, "en")
    words = option_values(option.text)
    if words:  # text options: the words are for exactly the values it accepts
        assert words == option.choices


def test_the_rules_vector_keeps_its_slots() -> None:
    """The learned options tile the 18 slots without gaps, in the order trained networks read."""
    taken: list[int] = []
    for option in RULE_OPTIONS.values():
        if option.learned is not None:
            taken += range(option.learned.slot, option.learned.slot + option.learned.width)
    assert sorted(taken) == list(range(RULES_SIZE)) and RULES_SIZE == 18
    rules_slot = next(slot for slot in LAYOUT if slot.name == "rules")
    assert rules_slot.size == 18
    assert rules_slot.meaning == (
        "the rule options: trick=pair, chance, draw=after_trick, tie=replay, tie=two_cards, "
        "tie=any_match, trump=bottom_up, phase1_end=no_card, phase1_end=one_left, "
        "phase1_end=stock_empty, nothing_left=must_pick_up, nothing_left_counts=won_pile, "
        "min_sequence=0, min_sequence=2, min_sequence=3, voluntary_pickup, follow_suit, "
        "removed_two_player / 10")
    assert rules_vector(Rules.preset("kortregler")).tolist() == [
        1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1]


@pytest.mark.parametrize("field", FIELDS)
def test_the_rules_vector_tells_every_value_apart(field: str) -> None:
    """Each option a game is played with is learned: two of its values never give the same
    numbers. Only the player bounds stay out (the observation holds the seats present)."""
    option = _option(field)
    if option.learned is None:
        assert not option.in_play
        return
    vectors = {tuple(rules_vector(_with(field, value)).tolist()) for value in option.values}
    assert len(vectors) == len(option.values)


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_page_and_the_terminal_show_every_option(lang: Lang) -> None:
    page = overview_html(lang)
    console = Console(width=200, record=True, color_system=None)
    console.print(rules_summary(Rules(removed_two_player=10), "pagat", lang))
    summary = console.export_text()
    for field, option in RULE_OPTIONS.items():
        name = option_name(option.text, lang)
        assert name.replace("'", "&#x27;") in page, f"the rules page misses {field}"
        assert (name in summary) == option.in_play, f"the terminal's rules summary and {field}"


@pytest.mark.parametrize("doc", ["rules.en.md", "rules.nb.md", "rules.nn.md"])
def test_the_rules_text_defines_each_options_rule(doc: str) -> None:
    text = (DOCS / doc).read_text(encoding="utf-8")
    for field, option in RULE_OPTIONS.items():
        assert f"**{option.rule} " in text, f"{doc} does not define rule {option.rule} ({field})"
        row = re.search(rf"^\|[^\n]*`{field}`", text, re.MULTILINE)
        assert row, f"{doc}: {field} is not in the options table"
