"""Saved games are never lost, never clobber anything, and any file reads back as a game or
one line saying why not.

The game loop is driven in-process (:class:`TerminalPlay` with a scripted ``read_line``) so a
save can be made to fail mid-game for real: the tests run as root, where permissions stop no
write, so the save folder is swapped for a file, or the writer reports a full disk.
"""

from __future__ import annotations

import errno
import io
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from mattis import Game, Rules
from mattis.bots import Limit
from mattis.cli.app import app
from mattis.frontend import make_participants, play_record, save_record
from mattis.frontend import record as record_module
from mattis.frontend.match import ConsecutiveSeeds, Match
from mattis.frontend.record import (
    MAX_RECORD_BYTES,
    RecordError,
    SaveFile,
    create_record,
    load_record,
)
from mattis.terminal import EXIT_OK, EXIT_SAVE_FAILED, TerminalPlay

from .cli_checks import assert_one_error_line


def finished_game(seed: int = 6) -> Game:
    game = Game.new("pagat", 3, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def saved_game(path: Path, names: tuple[str, str] = ("Kari", "Ola")) -> Path:
    record = play_record(finished_game(), make_participants(3, 0, ["normal", "hard"]), "en")
    for participant, name in zip(record["play"]["participants"][1:], names, strict=True):
        participant["name"] = name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def terminal(save: Path, read_line: Callable[[str], str], games: int = 1,
             overwrite: bool = False) -> tuple[TerminalPlay, io.StringIO]:
    screen = io.StringIO()
    match = Match(Rules.preset("pagat"), 3, ConsecutiveSeeds(4), games)
    people = make_participants(3, 0, ["random", "random"])
    play = TerminalPlay(match, people, "pagat", "en", Console(file=screen, width=300), save,
                        Limit(iterations=10), read_line=read_line, overwrite=overwrite)
    return play, screen


def always(answer: str) -> Callable[[str], str]:
    def read_line(prompt: str) -> str:
        return answer

    return read_line


def cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})


# ---------------------------------------------------------------------------- claiming a file


def test_games_started_in_the_same_second_get_files_of_their_own(tmp_path: Path) -> None:
    path = tmp_path / "mattis-20261201-070000.json"
    first = create_record({"n": 1}, path)
    second = create_record({"n": 2}, path)
    third = create_record({"n": 3}, path)
    assert (first, second, third) == (path, tmp_path / "mattis-20261201-070000-b.json",
                                      tmp_path / "mattis-20261201-070000-c.json")
    assert [json.loads(p.read_text())["n"] for p in (first, second, third)] == [1, 2, 3]


def test_two_terminal_games_with_the_same_default_name_keep_both(tmp_path: Path) -> None:
    base = tmp_path / "mattis-20261201-070000.json"
    for _ in range(2):
        play, screen = terminal(base, always("quit"))
        assert play.run() == EXIT_OK
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == ["mattis-20261201-070000-b.json", "mattis-20261201-070000.json"]
    assert "mattis-20261201-070000-b.json" in screen.getvalue()  # it says where it really saved
    for file in files:
        assert Game.from_record(json.loads(file.read_text())).num_actions >= 0


def test_saves_replace_the_claimed_file_and_leave_no_temporary_files(tmp_path: Path) -> None:
    slot = SaveFile(tmp_path / "game.json")
    slot.write({"n": 1})
    slot.write({"n": 2})
    assert slot.path == tmp_path / "game.json"
    assert json.loads((tmp_path / "game.json").read_text()) == {"n": 2}
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_long_file_name_still_saves_through_a_short_temporary_name(tmp_path: Path) -> None:
    path = tmp_path / ("g" * 250 + ".json")
    save_record({"n": 1}, path)
    save_record({"n": 2}, path)
    assert json.loads(path.read_text()) == {"n": 2}


def test_saving_never_replaces_a_device() -> None:
    with pytest.raises(OSError, match="not a regular file"):
        save_record({"n": 1}, Path("/dev/null"))
    assert Path("/dev/null").is_char_device()


# ---------------------------------------------------------------------------- --save and --overwrite


def test_save_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert_one_error_line(cli("play", "--save", "/dev/null"), "/dev/null exists and is not a regular file")
    assert_one_error_line(cli("play", "--save", str(fifo)), "is not a regular file")
    assert_one_error_line(cli("play", "--save", str(tmp_path)), "is a directory")


def test_save_refuses_an_existing_game_without_overwrite(tmp_path: Path) -> None:
    existing = saved_game(tmp_path / "game.json")
    before = existing.read_bytes()
    assert_one_error_line(cli("play", "--save", str(existing)), "add --overwrite to replace it")
    assert existing.read_bytes() == before
    match_game = saved_game(tmp_path / "match-2.json")
    assert_one_error_line(cli("play", "--save", str(tmp_path / "match.json"), "--games", "2"),
                          f"{match_game} holds a saved game")


def test_save_never_replaces_a_file_that_is_not_a_game(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text('{"shopping": ["milk"]}')
    for extra in ([], ["--overwrite"]):
        assert_one_error_line(cli("play", "--save", str(notes), *extra), "is not a saved Mattis game")
    assert notes.read_text() == '{"shopping": ["milk"]}'


def test_overwrite_replaces_a_saved_game(tmp_path: Path) -> None:
    existing = saved_game(tmp_path / "game.json")
    result = cli("play", "--save", str(existing), "--overwrite", "--seed", "11", "--bots", "random,random",
                 "--lang", "en")
    assert result.exit_code == 0, result.output  # stdin is empty: the game stops at once and is saved
    assert "The game is saved in" in result.stdout
    replaced = json.loads(existing.read_text())
    assert replaced["seed"] == 11 and replaced["play"]["finished"] is False


def test_overwrite_needs_an_explicit_save_path() -> None:
    assert_one_error_line(cli("play", "--overwrite"), "--overwrite needs --save")


def test_a_save_name_too_long_for_the_file_system_is_one_error_line(tmp_path: Path) -> None:
    assert_one_error_line(cli("play", "--save", str(tmp_path / ("a" * 300))), "File name too long")


# ---------------------------------------------------------------------------- failing mid-game


def test_a_save_folder_lost_mid_game_ends_with_the_truth_and_exit_1(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    turns = 0

    def read_line(prompt: str) -> str:
        nonlocal turns
        turns += 1
        if turns == 2:  # the folder becomes a file: every later save fails (root or not)
            folder.rename(tmp_path / "moved")
            folder.write_text("not a folder")
        return "1"

    play, screen = terminal(folder / "game.json", read_line)
    assert play.run() == EXIT_SAVE_FAILED
    lines = [line for line in screen.getvalue().splitlines() if line.strip()]
    assert "The game is saved in" not in screen.getvalue()
    assert screen.getvalue().count("Could not save the game in") == 1  # told once, not every move
    assert lines[-1].startswith(f"The game was NOT saved in {folder / 'game.json'}: Not a directory")
    kept = json.loads((tmp_path / "moved" / "game.json").read_text())
    assert Game.from_record(kept).num_actions > 0  # the last good save is still there


def test_a_full_disk_at_the_end_of_a_match_stops_it_with_exit_1(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    real_save = record_module.save_record

    def full_disk_after_first_game(record: dict[str, Any], path: Path) -> None:
        if record.get("play", {}).get("match", {}).get("game") == 1 and record["play"]["finished"]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real_save(record, path)

    monkeypatch.setattr(record_module, "save_record", full_disk_after_first_game)
    play, screen = terminal(tmp_path / "match.json", always("1"), games=2)
    assert play.run() == EXIT_SAVE_FAILED
    text = screen.getvalue()
    assert text.rstrip().splitlines()[-1].startswith("The game was NOT saved in")
    assert "No space left on device" in text
    assert "Game 2 of 2" not in text  # the match stops rather than lose more games
    assert not (tmp_path / "match-2.json").exists()


def test_saving_that_works_again_says_so_and_ends_saved(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    real_save = record_module.save_record
    calls = 0

    def flaky(record: dict[str, Any], path: Path) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real_save(record, path)

    monkeypatch.setattr(record_module, "save_record", flaky)
    play, screen = terminal(tmp_path / "game.json", always("1"))
    assert play.run() == EXIT_OK
    text = screen.getvalue()
    assert "Could not save the game in" in text and "Saving works again" in text
    assert text.rstrip().splitlines()[-1].startswith("The game is saved in")
    assert Game.from_record(json.loads((tmp_path / "game.json").read_text())).is_over


# ---------------------------------------------------------------------------- reading files


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[" * 100_000, "not a Mattis game record (nested too deeply)"),
        ("{\n" + '"key": 1,\n' * 13 + '"unterminated', "not JSON (Unterminated string at line 15)"),
        ('{"format": "mattis-game/1", "seed": ' + "9" * 5000 + "}", "not a Mattis game record"),
        (b"\xff\xfe{}", "not text"),
        ("[1, 2]", "not a Mattis game record (expected format"),
    ],
    ids=["nested", "unterminated", "huge-number", "not-utf8", "a-list"],
)
def test_any_file_reads_as_a_game_or_one_line(tmp_path: Path, content: str | bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with pytest.raises(RecordError) as caught:
        load_record(path)
    assert str(caught.value).startswith(f"{path}: {message}")
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300


def test_a_file_over_the_cap_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as stream:
        stream.truncate(MAX_RECORD_BYTES + 1)  # sparse: no disk space used
    with pytest.raises(RecordError, match=r"too large for a saved game \(over 32 MiB\)"):
        load_record(path)


def test_replay_of_a_pipe_is_refused_instead_of_waiting_forever(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert_one_error_line(cli("replay", str(fifo), "--no-step"), "not a regular file")


def test_replay_strips_terminal_escapes_from_names_in_the_file(tmp_path: Path) -> None:
    path = saved_game(tmp_path / "evil.json", names=("Kari\x1b[2J\x07", "\u202eOla\x9b31m"))
    loaded = load_record(path)
    assert [p.name for p in loaded.participants[1:]] == ["Kari[2J", "Ola31m"]
    result = cli("replay", str(path), "--no-step", "--lang", "en")
    assert result.exit_code == 0, result.output
    for control in ("\x1b", "\x07", "\u202e", "\x9b"):
        assert control not in result.stdout
    assert "1: Kari[2J (normal), 2: Ola31m (hard)" in result.stdout


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("players", "3", 'players: expected a whole number, got "3"'),
        ("players", True, "players: expected a whole number, got true"),
        ("dealer", 1.0, "dealer: expected a whole number, got 1.0"),
        ("actions", "7h", 'actions: expected a list of moves, got "7h"'),
        ("rules", "pagat", 'rules: expected an object of rule options, got "pagat"'),
        ("rules", {"min_sequence": "²"}, 'rules: min_sequence: expected a whole number, got "²"'),
    ],
)
def test_record_fields_of_the_wrong_type_are_quoted_as_the_file_has_them(
        tmp_path: Path, field: str, value: object, message: str) -> None:
    record = Game.new("pagat", 3, seed=1).record()
    record[field] = value
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        load_record(path)
    assert str(caught.value) == f"{path}: {message}"
