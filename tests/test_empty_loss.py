"""The warning before a deal likely to end early in Blåmattis or Blodmattis (issue 24, item 6):
one table of measured figures (``mattis.frontend.empty_loss``), checked against the lab's
report it comes from, shown by the terminal and given to the start page by ``/api/options``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mattis.core.rules import PRESET_NAMES, Rules
from mattis.frontend.empty_loss import MEASURED, MEASURED_GAMES, NOTABLE_RATE, empty_loss_risk
from mattis.i18n import LANGS, Lang
from mattis.web.app import options_payload

LAB = Path(__file__).resolve().parent.parent / "benchmarks" / "lab" / "lab.json"


def test_the_figures_are_the_labs_normal_run_for_each_preset_and_player_count() -> None:
    report = json.loads(LAB.read_text(encoding="utf-8"))
    measured = {}
    for configuration in report["configurations"]:
        if configuration["house_rules"] or configuration["lost_on_empty_name"] is None:
            continue
        run = configuration["runs"]["normal"]
        assert run["finished_games"] == MEASURED_GAMES
        measured[(configuration["preset"], configuration["players"])] = run["lost_on_empty"]["rate"]
    assert measured == dict(MEASURED)


def test_only_a_notable_rate_of_a_measured_preset_warns_p1_10() -> None:
    warned = {(name, players) for name in PRESET_NAMES for players in range(2, 7)
              if players >= Rules.preset(name).min_players
              and empty_loss_risk(Rules.preset(name), players) is not None}
    assert warned == {key for key, rate in MEASURED.items() if rate >= NOTABLE_RATE}
    assert warned == {("app", 5), ("app", 6), ("pagat", 6)}
    risk = empty_loss_risk(Rules.preset("app"), 6)
    assert risk is not None and risk.name == "Blodmattis" and risk.rate == 0.93
    assert empty_loss_risk(Rules.preset("pagat"), 6).name == "Blåmattis"  # type: ignore[union-attr]
    house_rules = Rules.preset("app").with_options(follow_suit=False)
    assert empty_loss_risk(house_rules, 6) is None  # not measured: not guessed


@pytest.mark.parametrize("lang", LANGS)
def test_the_start_page_gets_each_presets_warnings_in_its_language(lang: Lang) -> None:
    presets = {preset["name"]: preset["empty_loss"] for preset in options_payload(lang)["presets"]}
    assert [item["players"] for item in presets["app"]] == [5, 6]
    assert presets["kortregler"] == []
    six = presets["app"][1]
    assert six["rate"] == 0.93 and six["name"] == "Blodmattis"
    assert six["warning"] == empty_loss_risk(Rules.preset("app"), 6).warning(lang)  # type: ignore[union-attr]
    assert "93" in six["warning"] and "Blodmattis" in six["warning"] and "100" in six["warning"]
