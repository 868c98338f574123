"""The table tells its story in a real terminal (pexpect): paced bot moves and skipping,
forced moves, bot reasons, commands between games, an ASCII console, the rules command,
saved games in the data folder, the list of recent games and stepping back in a replay."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from mattis import Game, Rules
from mattis.cli.app import app
from mattis.frontend import make_participants, play_record, save_record
from mattis.i18n import LANGS

from .test_terminal_play import ENV, PROGRAM, PROMPTS, SAVED, Terminal, child_env, play_to_the_end

FORCED_PROMPT = r"Your move \(Enter plays ([^)]*), the only legal move\): "


def test_bot_moves_wait_for_the_pace_and_enter_skips_ahead(tmp_path: Path) -> None:
    term = Terminal("play", "--seed", "5", "--lang", "en", "--pace", "3", "--save",
                    str(tmp_path / "g.json"), timeout=20)
    term.child.setecho(False)
    term.expect(PROMPTS["en"])
    term.send("1")
    started = time.monotonic()
    term.expect(r"played")  # your own move at once; the bots' follow at the pace
    term.send("")  # Enter: skip the pauses until your turn
    term.expect([PROMPTS["en"], SAVED["en"]])
    assert time.monotonic() - started < 2.5  # two bot moves would have taken 6 s and more
    term.send("quit")
    assert term.finish() == 0
    assert "press Enter to skip ahead to your turn" in term.screen


def test_without_a_terminal_bots_do_not_wait(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MATTIS_PACE")
    started = time.monotonic()
    result = CliRunner().invoke(app, ["play", "--seed", "5", "--lang", "en", "--bots", "random,random",
                                      "--auto-forced", "--save", str(tmp_path / "g.json")],
                                input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "The game is saved in" in result.output
    assert "skip ahead" not in result.output
    assert time.monotonic() - started < 20  # a whole game at 0.5 s a move would take minutes


def test_pace_must_be_a_sensible_number_of_seconds() -> None:
    result = CliRunner().invoke(app, ["play", "--pace", "-1"])
    assert result.exit_code == 2
    assert "--pace: must be from 0 to 10 seconds, got -1" in result.output


def test_enter_plays_the_only_legal_move_and_the_prompt_says_so(tmp_path: Path) -> None:
    term = Terminal("play", "--rules", "kortregler", "--seed", "3", "--lang", "en", "--save",
                    str(tmp_path / "g.json"))
    for _ in range(400):
        index = term.expect([FORCED_PROMPT, PROMPTS["en"], SAVED["en"]])
        if index == 0:
            move = term.child.match.group(1)
            term.send("")
            term.expect(rf"You (played|picked up) {move}")
            break
        assert index == 1, "the game ended without a forced move"
        term.send("1")
    else:
        raise AssertionError("no forced move")
    term.send("quit")
    term.finish()


def test_auto_forced_plays_the_only_move_without_asking(tmp_path: Path) -> None:
    term = Terminal("play", "--rules", "kortregler", "--seed", "3", "--lang", "en", "--auto-forced",
                    "--save", str(tmp_path / "g.json"))
    play_to_the_end(term, "en")
    assert term.finish() == 0
    assert "so it is played for you" in term.screen
    assert "(Enter plays" not in term.screen


def test_explain_shows_each_bots_reason_and_a_legend_explains_trumps(tmp_path: Path) -> None:
    term = Terminal("play", "--rules", "app", "--seed", "1", "--lang", "nb", "--bots", "easy,normal",
                    "--explain", "--save", str(tmp_path / "g.json"))
    term.expect(PROMPTS["nb"])
    assert "(understreket = trumf, som først teller i utspillingen)" in term.turn_screen()
    term.send("1")  # seat 0 leads: the bots answer after this move
    term.expect(PROMPTS["nb"])
    term.send("quit")
    term.finish()
    assert "(Kari: " in term.screen and "(Ola: " in term.screen


def test_help_and_rules_between_games_answer_and_ask_again(tmp_path: Path) -> None:
    term = Terminal("play", "--seed", "2", "--games", "2", "--lang", "en", "--bots", "random,random",
                    "--auto-forced", "--save", str(tmp_path / "m.json"))
    for _ in range(400):
        if term.expect([PROMPTS["en"], "Press Enter for the next game"]) == 1:
            break
        term.send("1")
    term.send("help")
    term.expect("How to play")
    term.expect("Press Enter for the next game")
    term.send("rules")
    term.expect("Rules: pagat")
    term.expect("mattis rules --full --lang en")
    term.expect("Press Enter for the next game")
    term.send("quit")
    assert term.finish() == 0
    assert "Game 2 of 2" not in term.screen


def test_an_ascii_console_gets_letters_not_a_traceback(tmp_path: Path) -> None:
    env = {**child_env(), "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([*PROGRAM, "play", "--seed", "1", "--lang", "nb", "--rules", "app",
                           "--save", str(tmp_path / "a.json")],
                          input="1\n" * 12 + "quit\n", capture_output=True, text=True, timeout=60, env=env,
                          encoding="ascii", errors="strict", check=False)
    assert done.returncode == 0, done.stderr[-500:]
    assert "Traceback" not in done.stderr
    assert "UnicodeEncodeError" not in done.stderr
    assert any(f"{rank}{suit}" in done.stdout for rank in "23456789" for suit in "cdhs")


def test_games_are_saved_in_the_data_folder_and_listed_newest_first(tmp_path: Path) -> None:
    folder = Path(os.environ["MATTIS_DATA_DIR"]) / "games"
    term = Terminal("play", "--seed", "8", "--lang", "en", "--auto-forced")
    term.expect(r"The game is saved as you go in\s+(\S+)")
    assert term.child.match.group(1).startswith(str(folder))
    term.send("quit")
    term.finish()
    older = folder / "older.json"
    game = Game.new(Rules.preset("app"), 3, seed=1)
    save_record(play_record(game, make_participants(3, 0, ["easy", "easy"]), "en"), older)
    os.utime(older, (1_000_000_000, 1_000_000_000))
    listing = CliRunner().invoke(app, ["replay", "--lang", "en"], env={"COLUMNS": "160"})
    assert listing.exit_code == 0, listing.output
    assert "Recent games in" in listing.output
    lines = [line for line in listing.output.splitlines() if line.strip()[:1].isdigit()]
    assert "pagat, 3 players" in lines[0] and "app, 3 players" in lines[1]
    assert "2001-09-09" in lines[1]
    replay = CliRunner().invoke(app, ["replay", "2", "--no-step", "--lang", "en"])
    assert replay.exit_code == 0 and "Replay · app · 3 players" in replay.output
    missing = CliRunner().invoke(app, ["replay", "7"])
    assert missing.exit_code == 2 and "no recent game number '7'" in missing.output


def test_no_saved_games_yet_says_how_to_make_one() -> None:
    result = CliRunner().invoke(app, ["replay", "--lang", "nb"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Ingen lagrede spill" in result.output and "mattis play" in result.output


def test_a_replay_steps_back_with_b(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    game = Game.new(Rules.preset("pagat"), 3, seed=4)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    save_record(play_record(game, make_participants(3, 0, ["easy", "easy"]), "en"), path)
    child = pexpect.spawn(PROGRAM[0], [*PROGRAM[1:], "replay", str(path), "--lang", "en"],
                          env=child_env(), encoding="utf-8", timeout=20, dimensions=(50, 120))
    child.expect("b: back")
    child.sendline("b")
    child.expect("This is the start of the game.")
    child.sendline("")
    child.expect(r"   1\. ")
    child.sendline("")
    child.expect(r"   2\. ")
    child.expect("b: back")
    child.sendline("b")
    child.expect(r"Back to before move 2\.")
    child.sendline("")
    child.expect(r"   2\. ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")


def test_a_record_with_an_unknown_bot_level_says_so_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    game = Game.new(Rules.preset("pagat"), 3, seed=4)
    record = play_record(game, make_participants(3, 0, ["easy", "easy"]), "en")
    record["play"]["participants"][1]["level"] = "godlike"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--no-step", "--lang", "en"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0
    notes = [line for line in result.output.splitlines() if "unknown bot level" in line]
    assert notes == ['The names in the file cannot be read (unknown bot level "godlike" at seat 1), '
                     'so seats are shown by number.']


# ---------------------------------------------------------------- discoverable rules


def test_rules_show_field_names_and_the_values_set_accepts() -> None:
    result = CliRunner().invoke(app, ["rules", "kortregler", "--lang", "en"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Allowed values" in result.output
    row = next(line for line in result.output.splitlines() if line.startswith("│ trick "))
    assert "all, pair" in row
    tie = next(line for line in result.output.splitlines() if line.startswith("│ tie "))
    assert "replay, two_cards, any_match" in tie


def test_a_changed_option_changes_the_caption() -> None:
    result = CliRunner().invoke(app, ["rules", "kortregler", "--set", "voluntary_pickup=true",
                                      "--lang", "en"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "forced beating" not in result.output  # the preset's summary no longer holds
    assert "kortregler with changes: " in result.output and "(was: no)" in result.output


def test_the_full_rules_ship_with_the_package_in_every_language() -> None:
    root = Path(__file__).resolve().parent.parent
    titles = {"en": "Mattis: the rules", "nb": "Mattis: spilleregler", "nn": "Mattis: spelereglar"}
    assert set(titles) == set(LANGS)
    for lang, title in titles.items():
        shipped = root / "src" / "mattis" / "data" / f"rules.{lang}.md"
        assert shipped.read_bytes() == (root / "docs" / f"rules.{lang}.md").read_bytes()
        result = CliRunner().invoke(app, ["rules", "--full", "--lang", lang], env={"COLUMNS": "100"})
        assert result.exit_code == 0 and title in result.output
        assert "P2.5" in result.output


def test_help_lists_play_first_and_version_works() -> None:
    runner = CliRunner()
    help_text = runner.invoke(app, ["--help"], env={"COLUMNS": "120"}).output
    commands = [name for name in ("play", "replay", "rules", "simulate", "bench", "tournament")
                if f"│ {name} " in help_text]
    assert commands == ["play", "replay", "rules", "simulate", "bench", "tournament"]
    assert help_text.index("│ play ") < help_text.index("│ rules ")
    from mattis import __version__
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.output == f"mattis {__version__}\n"


def test_the_story_env_keeps_tests_unpaced() -> None:
    assert ENV["MATTIS_PACE"] == "0"
