"""The ``mattis`` command line: rule tables, simulate, bench and how bad input is reported.

Most tests go through typer's CliRunner (fast, in-process); a few run the real program in
a subprocess, because only that shows what a user's shell sees (exit codes, stray
warnings or tracebacks on stderr).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from mattis import PRESET_NAMES, Rules
from mattis.cli.app import app
from mattis.extras import install_command
from mattis.i18n import (
    LANGS,
    Lang,
    detect_lang,
    message_keys,
    message_template,
    option_description,
    option_name,
    option_value,
    option_values,
)

from .cli_checks import assert_one_error_line

WIDE = {"COLUMNS": "250"}  # wide enough that rich never wraps a table cell
TIMING_KEYS = {"seconds", "games_per_second", "actions_per_second"}


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env={**WIDE, **(env or {})})


def simulate_json(*args: str) -> dict[str, Any]:
    result = run("simulate", "--json", *args)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, "--json prints exactly one line: one JSON object"
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


def without_timings(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in TIMING_KEYS}


# ---------------------------------------------------------------------------- rules


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_rules_table_shows_every_option_value_of_the_preset(preset: str, lang: Lang) -> None:
    result = run("rules", preset, "--lang", lang)
    assert result.exit_code == 0, result.stderr
    values = Rules.preset(preset).to_dict()
    for field in Rules.option_names():
        assert field in result.stdout
        assert option_name(field, lang) in result.stdout
        assert option_value(field, values[field], lang) in result.stdout


@pytest.mark.parametrize(
    ("preset", "lang", "expected", "absent"),
    [
        ("pagat", "nb", ["Regler: pagat", "Verdi", "alle spiller", "de like spiller ett kort til",
                         "alle kort (Blåmattis)", "minst 2 kort"], ["Value"]),
        ("pagat", "en", ["Rules: pagat", "Value", "everyone plays", "tied players play one more card"],
         ["Verdi"]),
        ("kortregler", "nb", ["utspiller mot nabo til venstre", "krig med to nye kort hver",
                              "når færre enn to kan spille", "må ta opp", "av (ingen serier)", "10 kort"],
         []),
        ("kortregler", "en", ["leader against left neighbour", "war with two new cards each",
                              "must pick up", "off (no sequences)", "10 cards"], []),
        ("app", "nb", ["krig på alle like valører", "nederste kort, snudd opp",
                       "bare stikkbunken (Blodmattis)", "alle trekker opp til 3 etter stikket"], []),
        ("app", "en", ["war on any matching rank", "bottom card, turned face up",
                       "won pile only (Blodmattis)"], []),
    ],
)
def test_rules_table_translates_values(
    preset: str, lang: str, expected: list[str], absent: list[str]
) -> None:
    result = run("rules", preset, "--lang", lang)
    assert result.exit_code == 0
    for text in expected:
        assert text in result.stdout
    for text in absent:
        assert text not in result.stdout


def test_rules_defaults_to_pagat_and_the_locale_language() -> None:
    norwegian = run("rules", env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "nb_NO.UTF-8"})
    assert norwegian.exit_code == 0
    assert "Regler: pagat" in norwegian.stdout
    english = run("rules", env={"LC_ALL": "C", "LANG": "nb_NO.UTF-8"})
    assert "Rules: pagat" in english.stdout


def test_rules_all_compares_the_presets_side_by_side() -> None:
    result = run("rules", "--all", "--lang", "en")
    assert result.exit_code == 0
    for name in PRESET_NAMES:
        assert name in result.stdout
    for text in ("everyone plays", "leader against left neighbour", "war on any matching rank"):
        assert text in result.stdout


def test_rules_with_set_shows_the_house_rule() -> None:
    result = run("rules", "pagat", "--set", "min_sequence=3", "--lang", "nb")
    assert result.exit_code == 0
    assert "med husregler" in result.stdout
    assert "minst 3 kort" in result.stdout


# ---------------------------------------------------------------------------- i18n


def test_detect_lang_follows_posix_precedence() -> None:
    assert detect_lang({"LANG": "nb_NO.UTF-8"}) == "nb"
    assert detect_lang({"LANG": "no_NO"}) == "nb"
    assert detect_lang({"LANG": "nn_NO.UTF-8"}) == "nn"
    assert detect_lang({"LANG": "de_DE.UTF-8"}) == "en"
    assert detect_lang({"LANG": "en_GB.UTF-8"}) == "en"
    assert detect_lang({}) == "en"
    assert detect_lang({"LC_ALL": "C", "LANG": "nb_NO.UTF-8"}) == "en"
    assert detect_lang({"LC_ALL": "", "LC_MESSAGES": "nb_NO", "LANG": "en_US"}) == "nb"


def test_every_option_and_value_has_both_languages() -> None:
    for field in Rules.option_names():
        for lang in LANGS:
            assert option_name(field, lang)
            assert option_description(field, lang)
            for value in Rules.option_choices(field):
                assert option_value(field, value, lang)
        assert option_name(field, "nb") != option_name(field, "en")
        choices = set(Rules.option_choices(field))
        if option_values(field):
            assert set(option_values(field)) == choices, f"{field}: translations out of step with Rules"
            for value in choices:
                assert option_value(field, value, "nb") != option_value(field, value, "en")


def test_every_message_reads_in_every_language() -> None:
    """Every key gives a text in every language (the catalogues' own check, naming each missing
    translation and placeholder, is tests/test_i18n.py)."""
    for key in message_keys():
        for lang in LANGS:
            assert message_template(key, lang), (key, lang)


# ---------------------------------------------------------------------------- simulate


def test_simulate_json_counts_add_up() -> None:
    data = simulate_json("--rules", "pagat", "--players", "4", "--games", "120", "--seed", "7")
    games, players = data["games"], data["players"]
    finished, capped = data["finished_games"], data["capped_games"]
    assert (games, players, data["seed"]) == (120, 4, 7)
    assert finished + capped == games
    loser_counts = data["losers"]["counts"]
    assert len(loser_counts) == players
    assert finished <= sum(loser_counts) <= finished + data["multi_loser_games"] * (players - 1)
    empty = data["lost_on_empty"]
    assert empty["name"] == "Blåmattis"
    assert empty["games"] <= finished
    assert empty["games"] <= sum(empty["counts"])
    assert all(e <= lost for e, lost in zip(empty["counts"], loser_counts, strict=True))
    assert data["multi_loser_games"] <= finished
    assert data["losers"]["rates"] == pytest.approx([count / finished for count in loser_counts])
    assert sum(data["mean_place"]) == pytest.approx(players * (players + 1) / 2)
    per_game = data["actions_per_game"]
    assert per_game["min"] <= per_game["median"] <= per_game["max"]
    phases = data["phase_actions_per_game"]
    assert phases["phase1_mean"] + phases["phase2_mean"] == pytest.approx(per_game["mean"])
    longest = data["longest_game"]
    assert longest["actions"] == per_game["max"]
    assert 0 <= longest["index"] < games


def test_simulate_same_seed_gives_the_same_figures() -> None:
    first = simulate_json("--games", "60", "--seed", "3")
    second = simulate_json("--games", "60", "--seed", "3")
    other = simulate_json("--games", "60", "--seed", "4")
    assert without_timings(first) == without_timings(second)
    assert without_timings(first) != without_timings(other)


def test_simulate_longest_game_can_be_replayed() -> None:
    from mattis.tools import play_random_game

    data = simulate_json("--games", "30", "--seed", "5", "--players", "3")
    longest = data["longest_game"]
    game = play_random_game(Rules.preset("pagat"), 3, seed=5, index=longest["index"])
    assert game.is_over
    assert game.num_actions == longest["actions"]


def test_simulate_set_changes_rules_and_results() -> None:
    plain = simulate_json("--rules", "kortregler", "--games", "80")
    with_sequences = simulate_json("--rules", "kortregler", "--games", "80", "--set", "min_sequence=2")
    assert plain["rules"]["min_sequence"] == 0
    assert plain["house_rules"] == {}
    assert plain["preset"] == "kortregler"
    assert with_sequences["rules"]["min_sequence"] == 2
    assert with_sequences["house_rules"] == {"min_sequence": 2}
    assert with_sequences["preset"] is None
    assert with_sequences["base_preset"] == "kortregler"
    assert without_timings(plain)["actions_per_game"] != without_timings(with_sequences)["actions_per_game"]


def test_simulate_set_is_repeatable_and_the_last_value_wins() -> None:
    data = simulate_json("--games", "5", "--set", "chance=false", "--set", "min_sequence=3",
                         "--set", "min_sequence=0")
    assert data["house_rules"] == {"chance": False, "min_sequence": 0}


def test_simulate_default_players_follow_the_rules_minimum() -> None:
    assert simulate_json("--games", "3")["players"] == 3
    assert simulate_json("--rules", "kortregler", "--games", "3")["players"] == 3
    assert simulate_json("--games", "3", "--set", "min_players=5")["players"] == 5


def test_simulate_reports_capped_games_instead_of_dropping_them() -> None:
    data = simulate_json("--games", "10", "--action-cap", "5")
    assert data["capped_games"] == 10
    assert data["finished_games"] == 0
    assert sum(data["losers"]["counts"]) == 0
    assert data["longest_game"] is None
    text = run("simulate", "--games", "10", "--action-cap", "5", "--lang", "en")
    assert text.exit_code == 0
    assert "Stopped at the cap" in text.stdout
    assert "10 games (cap: 5 actions)" in text.stdout


def test_simulate_some_capped_games_are_kept_apart_from_finished_ones() -> None:
    data = simulate_json("--games", "40", "--action-cap", "200", "--players", "3")
    assert data["capped_games"] > 0
    assert data["finished_games"] > 0
    assert data["finished_games"] + data["capped_games"] == 40
    assert data["actions_per_game"]["max"] < 200
    assert sum(data["losers"]["counts"]) >= data["finished_games"]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["Simulation: pagat, 4 players", "Games per second", "Who was Mattis?", "Blåmattis",
                "Longest game", "Stopped at the cap"]),
        ("nb", ["Simulering: pagat, 4 spillere", "Spill per sekund", "Hvem ble Mattis?", "Blåmattis",
                "Lengste spill", "Avbrutt ved taket", "Snittplassering"]),
    ],
)
def test_simulate_summary_in_both_languages(lang: str, expected: list[str]) -> None:
    result = run("simulate", "--players", "4", "--games", "30", "--lang", lang)
    assert result.exit_code == 0, result.stderr
    for text in expected:
        assert text in result.stdout


def test_simulate_summary_names_blodmattis_for_the_app_preset() -> None:
    result = run("simulate", "--rules", "app", "--players", "5", "--games", "30", "--lang", "nb")
    assert result.exit_code == 0
    assert "Blodmattis" in result.stdout


@pytest.mark.parametrize(
    ("preset", "players"),
    [(name, n) for name in PRESET_NAMES
     for n in range(Rules.preset(name).min_players, Rules.preset(name).max_players + 1)],
)
def test_simulate_runs_for_every_preset_and_player_count(preset: str, players: int) -> None:
    data = simulate_json("--rules", preset, "--players", str(players), "--games", "3")
    assert data["finished_games"] + data["capped_games"] == 3


# ---------------------------------------------------------------------------- bad input

BAD_INPUT = [
    (["rules", "nope"], "unknown preset 'nope'"),
    (["simulate", "--rules", "nope"], "unknown preset 'nope'"),
    (["simulate", "--players", "2"], "players: pagat allows 3-6 players, got 2"),
    (["simulate", "--players", "7"], "players: pagat allows 3-6 players, got 7"),
    (["simulate", "--rules", "app", "--players", "2"], "players: app allows 3-6 players, got 2"),
    (["simulate", "--set", "bogus=1"], "unknown option 'bogus'"),
    (["simulate", "--set", "min_sequence=5"], "min_sequence"),
    (["simulate", "--set", "chance=maybe"], "chance"),
    (["simulate", "--set", "tie=coin_flip"], "tie"),
    (["simulate", "--set", "min_sequence"], "expected field=value"),
    (["simulate", "--set", "=2"], "expected field=value"),
    (["simulate", "--set", "max_players=2"], "min_players"),
    (["simulate", "--games", "0"], "--games"),
    (["simulate", "--players", "three"], "--players"),
    (["simulate", "--action-cap", "0"], "--action-cap"),
    (["simulate", "--lang", "de"], "--lang"),
    (["simulate", "--no-such-option"], "--no-such-option"),
    (["rules", "pagat", "extra"], "extra"),
    (["rules", "--all", "--set", "chance=false"], "--set"),
    (["bench", "--runs", "0"], "--runs"),
    (["no-such-command"], "no-such-command"),
    (["simulate", "--seed", "9" * 4300], "--seed': seeds are whole numbers from 0 to 2**64-1"),
    (["simulate", "--seed", "9" * 4301, "--games", "2"], "(4,301 characters)"),
    (["simulate", "--seed", "-1"], "from 0 to 2**64-1 (18446744073709551615), got '-1'"),
    (["simulate", "--seed", str(2**64)], "got '18446744073709551616'"),
    (["simulate", "--games", "9" * 5000], "--games"),
    (["simulate", "--set", "min_sequence=²"], "min_sequence: expected a whole number (0, 2, 3), got '²'"),
    (["simulate", "--set", "min_players=٣"], "min_players: expected a whole number"),
    (["simulate", "--set", "min_players=\"3\""], "min_players: expected a whole number"),
    (["simulate", "--set", "bogus\x1b[2J=1"], "unknown option 'bogus[2J'"),
    (["rules", "\x1b[2J" + "x" * 5000], "unknown preset"),
]


@pytest.mark.parametrize(("args", "fragment"), BAD_INPUT, ids=[" ".join(a)[:60] for a, _ in BAD_INPUT])
def test_bad_input_exits_2_with_one_error_line(args: list[str], fragment: str) -> None:
    assert_one_error_line(run(*args), fragment)


def test_a_seed_can_be_as_large_as_64_bits() -> None:
    assert simulate_json("--games", "2", "--seed", str(2**64 - 1))["seed"] == 2**64 - 1


def test_help_on_every_command() -> None:
    for args in ([], ["--help"], ["rules", "--help"], ["simulate", "--help"], ["bench", "--help"],
                 ["play", "--help"], ["replay", "--help"], ["tournament", "--help"]):
        result = run(*args)
        assert result.exit_code == 0, args
        assert "Usage" in result.stdout
    assert "--set" in run("simulate", "--help").stdout
    assert "--lang" in run("rules", "--help").stdout
    # Help is plain text, not markup: an install line keeps its extra in brackets.
    assert install_command("rl").split()[-1] in run("tournament", "--help").stdout


# ---------------------------------------------------------------------------- bench


def test_bench_quick_json() -> None:
    result = run("bench", "--quick", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    cases = {(case["preset"], case["players"]) for case in data["cases"]}
    assert {("pagat", 3), ("pagat", 4), ("pagat", 6), ("kortregler", 3), ("app", 4)} <= cases
    assert data["python"] and data["platform"]
    for case in data["cases"]:
        for path in ("checked", "unchecked"):
            figures = case[path]
            assert figures["games_per_second_min"] <= figures["games_per_second"]
            assert figures["games_per_second"] <= figures["games_per_second_max"]
            assert figures["actions_per_second"] > 0
        assert case["micro"]["states"] > 0
        assert case["micro"]["copy_us"] > 0


def test_bench_table_in_norwegian() -> None:
    result = run("bench", "--quick", "--runs", "1", "--games", "2", "--lang", "nb")
    assert result.exit_code == 0, result.stderr
    assert "Ytelsesmåling" in result.stdout
    assert "kontrollert" in result.stdout


# ---------------------------------------------------------------------------- real process


def _program() -> list[str]:
    """The installed console script if it sits next to this Python, else ``-m``."""
    script = Path(sys.executable).parent / "mattis"
    return [str(script)] if script.exists() else [sys.executable, "-m", "mattis.cli.app"]


def test_installed_program_prints_one_json_object() -> None:
    done = subprocess.run([*_program(), "simulate", "--games", "20", "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    data = json.loads(done.stdout)
    assert data["finished_games"] + data["capped_games"] == 20


@pytest.mark.parametrize(
    "args",
    [["simulate", "--players", "2"], ["simulate", "--set", "nope"], ["simulate", "--games", "x"]],
)
def test_module_run_reports_bad_input_in_one_line(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "mattis.cli.app", *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("error: ")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "args",
    [["simulate", "--games", "60"], ["bench", "--quick", "--runs", "1", "--games", "2"],
     ["tournament", "--games", "3", "--bots", "normal,random,random", "--workers", "1"],
     ["lab", "--rules", "pagat", "--players", "3", "--games", "1", "--hard-iterations", "3", "--workers", "1",
      "--out", "{tmp}/report"]],
)
def test_progress_bars_at_a_terminal(args: list[str], tmp_path: Path) -> None:
    """Progress bars appear only when stderr is a terminal, so only a pseudo-terminal runs them
    (``--json`` too: the bar goes to stderr, the JSON to stdout)."""
    import pexpect

    args = [arg.replace("{tmp}", str(tmp_path)) for arg in args]

    child = pexpect.spawn(sys.executable, ["-m", "mattis.cli.app", *args], encoding="utf-8",
                          timeout=120, dimensions=(40, 150))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "Traceback" not in (child.before or "")


def test_progress_in_a_log_is_an_occasional_plain_line(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """With stderr in a file (a background run), progress is a line now and then, with the
    count, the share and the time left: no bar, no escape codes, nothing between lines."""
    from mattis.cli import common

    clock = iter([1000.0, 1010.0, 1070.0, 1075.0, 1200.0, 1300.0])
    monkeypatch.setattr("mattis.cli.common.monotonic", lambda: next(clock))
    with common.progress_bar("Tournament", total=300) as update:
        update(0, None)        # 1010: the start says nothing
        update(30, None)       # 1070: a minute in, 10% done
        update(31, None)       # 1075: too soon for another line
        update(100, 400)       # 1200: a new total
        update(400, None)      # 1300: finished, no time left to show
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["Tournament 30/300 (10%), ~10 min", "Tournament 100/400 (25%), ~10 min",
                     "Tournament 400/400 (100%)"]
