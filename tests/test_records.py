"""Records: every way a game is written down and read back.

1. Saved games (``frontend/record.py``) are never lost, never clobber anything, and any file
   reads back as a game or one line saying why not.
2. The record (``Game.record``, ``Game.from_record``, ``core/record.py``) round-trips through
   JSON; a tampered or hostile one raises ``ValueError`` naming the field, however deep or large
   the damage; the seed must give the deck (C3); a long one replays in time linear in its length.
3. Positions (``Game.position``, ``Position``): a game's state in one line of text, refused when
   garbled or inconsistent.

For the saved games, the game loop is driven in-process (:class:`TerminalPlay` with a scripted
``read_line``) so a save can be made to fail mid-game for real: the tests run as root, where
permissions stop no write, so the save folder is swapped for a file, or the writer reports a
full disk.
"""

from __future__ import annotations

import copy
import dataclasses
import errno
import importlib.util
import io
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import mattis
from mattis import Game, IllegalAction, Phase, Position, Rules
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
from mattis.table.takeback import fold_actions, undo_marker
from mattis.terminal import EXIT_OK, EXIT_SAVE_FAILED, TerminalPlay, terminal_config

from .cli_checks import assert_one_error_line
from .variants import DECK, play_randomly, random_states, some_games

STATES = random_states()


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
                        terminal_config(pace=0.0, hint_seconds=0.01), read_line=read_line,
                        overwrite=overwrite)
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


# ---------------------------------------------------------------- the record of a game


def test_record_round_trip_via_json() -> None:
    for game in some_games():
        record = game.record()
        text = json.dumps(record)
        replayed = Game.from_record(json.loads(text))
        assert replayed == game
        assert replayed.record() == record
        assert replayed.history == game.history
        assert [str(a) for a in replayed.actions] == record["actions"]


def test_record_of_finished_game_has_result() -> None:
    game = Game.new("pagat", players=3, seed=9)
    play_randomly(game, random.Random(9))
    record = game.record()
    assert record["result"]["losers"] == game.losers
    assert record["seed"] == 9
    assert len(record["deck"]) == 52
    assert Game.from_record(record) == game


def test_from_record_with_tampered_action_raises() -> None:
    game = Game.new("pagat", players=3, deck=DECK)
    play_randomly(game, random.Random(1), 12)
    record = game.record()
    number = 5
    seat_cards = set(mattis.card_code(card) for card in range(52))
    replay = Game.new("pagat", players=3, deck=DECK)
    for text in record["actions"][:number]:
        replay.apply(text)
    assert replay.to_move is not None
    not_held = sorted(seat_cards - set(replay.hand(replay.to_move)))[0]
    tampered = json.loads(json.dumps(record))
    tampered["actions"][number] = not_held
    with pytest.raises(ValueError, match=f"action {number}"):
        Game.from_record(tampered)
    garbled = json.loads(json.dumps(record))
    garbled["actions"][2] = "7x"
    with pytest.raises(ValueError, match="action 2"):
        Game.from_record(garbled)
    missing = json.loads(json.dumps(record))
    del missing["deck"]
    with pytest.raises(ValueError, match="deck"):
        Game.from_record(missing)
    with pytest.raises(ValueError):
        Game.from_record("not a record")


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


def test_copying_a_record_is_deep_enough_for_json() -> None:
    record = good_record()
    assert json.loads(json.dumps(record)) == copy.deepcopy(record)


# ---------------------------------------------------------------- long records replay in linear time


def long_records() -> ModuleType:
    """``benchmarks/long_records.py``, which measures the time of long records; here its
    records and workloads are played for what they must show."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "long_records.py"
    spec = importlib.util.spec_from_file_location("long_records", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_long_endless_record_replays_narrates_with_constant_views_and_shows() -> None:
    """Endless pick-up loops are legal (P2.4, P2.7), so records can be very long. A
    100,000-action record replays; narrating step by step asks only for views since the last
    one, which stay empty of history however long the game; the terminal replay shows it to
    its end. That each costs time in proportion to the length is measured, not tested:
    ``python benchmarks/long_records.py`` (10 times the actions, about 10 times the time)."""
    bench = long_records()
    replayed = bench.replay(bench.cyclic_record(100_000))
    assert replayed.num_actions == 100_000 and not replayed.is_over
    assert bench.narrate(bench.cyclic_record(600)) == 0
    shown = bench.show(bench.cyclic_record(120))
    assert shown.count("picked up") == 60 and "120. " in shown and "not finished" in shown


# ---------------------------------------------------------------- positions: a game's state in a line


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


def test_a_record_keeps_moves_taken_back_and_replays_without_them() -> None:
    """A table's record against robots lists the moves taken back in ``taken_back`` (each the
    stretch that followed the first ``at`` moves); ``actions`` is the game as it stands, so
    ``Game.from_record`` replays it, and a malformed ``taken_back`` is refused, naming it."""
    game = Game.new("pagat", players=3, seed=44)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    kept = [str(action) for action in game.actions[:4]]
    record = {**game.record(), "actions": kept,
              "taken_back": [{"at": 4, "actions": [str(a) for a in game.actions[4:]]}]}
    record.pop("result", None)
    replayed = Game.from_record(record)
    assert [str(action) for action in replayed.actions] == kept
    assert replayed == Game.from_record({**record, "taken_back": None})
    for bad in ("no", [{"at": -1, "actions": ["7h"]}], [{"at": 2, "actions": []}],
                [{"at": 2, "actions": [7]}], [["7h"]], [{"at": True, "actions": ["7h"]}]):
        with pytest.raises(ValueError, match="taken_back"):
            Game.from_record({**record, "taken_back": bad})


def test_stored_takebacks_fold_into_the_record_and_a_damaged_one_is_refused() -> None:
    stored = ["7h", "8h", "9h", undo_marker(1), "Th", "Jh", undo_marker(2), "Qh"]
    assert fold_actions(stored) == (["7h", "Th", "Qh"], [{"at": 1, "actions": ["8h", "9h"]},
                                                         {"at": 2, "actions": ["Jh"]}])
    for damaged in (["7h", undo_marker(1)], [undo_marker(0)], ["7h", "undo:x"], ["7h", "undo:-1"]):
        with pytest.raises(ValueError, match="takeback"):
            fold_actions(damaged)
