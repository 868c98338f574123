"""``mattis play`` and ``mattis replay`` end to end, through a real terminal (pexpect).

Each test starts the real program in a pseudo-terminal, reads the screen as a person
would and types answers: card codes, numbers from the list of legal moves, commands and
bad input. Opponents are fast bot levels with fixed seeds, so games are short and the
same every run. Saved games are then replayed with the rules core (``Game.from_record``)
and with ``mattis replay``. Option errors go through typer's CliRunner like test_cli.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from typer.testing import CliRunner

from mattis import Game, next_dealer
from mattis.cli.app import app
from mattis.core.cards import CARD_CODES
from mattis.frontend import card_label, make_participants, play_record, save_record

from .cli_checks import assert_one_error_line

PROGRAM = [sys.executable, "-c", "from mattis.cli.app import main; main()"]
"""The real command line, started the way the ``mattis`` console script starts it."""
ENV = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "120", "LINES": "50",
       "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "MATTIS_PACE": "0"}
"""No pause between bot moves (``MATTIS_PACE``), so tests run as fast as before pacing."""


def child_env() -> dict[str, str]:
    """:data:`ENV` with this test's data folder (set by ``conftest.private_data_folder``)."""
    return {**ENV, "MATTIS_DATA_DIR": os.environ["MATTIS_DATA_DIR"]}


PROMPTS = {"en": r"Your move(?: \(Enter plays [^)]*\))?: ",
           "nb": r"Ditt trekk(?: \(Enter spiller [^)]*\))?: "}
"""The prompt, also when it offers the only legal move on Enter."""
SAVED = {"en": r"The game is saved in (\S+)", "nb": r"Spillet er lagret i (\S+)"}
MAX_TURNS = 600


def _ctrl_c_as_in_a_shell() -> None:
    """Give the child the SIGINT a shell gives a program. An ignored SIGINT survives exec, and
    Python then installs no KeyboardInterrupt; a suite started in the background by a
    non-interactive shell (``bash .ci/run &``) runs with SIGINT ignored, so Ctrl-C went unheard
    there and the interrupt test hung."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """The program running in a pseudo-terminal, and what it has shown so far."""

    def __init__(self, *args: str, timeout: float = 20) -> None:
        self.child = pexpect.spawn(PROGRAM[0], [*PROGRAM[1:], *args], env=child_env(), encoding="utf-8",
                                   timeout=timeout, dimensions=(50, 120), preexec_fn=_ctrl_c_as_in_a_shell)
        self.child.delaybeforesend = None  # pexpect waits 50 ms before each line by default
        self.screen = ""

    def expect(self, pattern: str | list[str]) -> int:
        index = self.child.expect(pattern)
        self.screen += (self.child.before or "") + str(self.child.after or "")
        return int(index)

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def turn_screen(self) -> str:
        """What was shown since the last prompt (the board of this turn)."""
        return self.child.before or ""

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.screen += self.child.before or ""
        self.child.close()
        assert "Traceback" not in self.screen, self.screen[-3000:]
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)


def hand_on(screen: str, lang: str) -> list[str]:
    """The card codes of the last "Your hand:" line on the screen."""
    title = "Your hand:" if lang == "en" else "Din hånd:"
    line = screen[screen.rindex(title) + len(title):].splitlines()[0]
    labels = set(line.split())
    return [code for code in CARD_CODES if card_label(code) in labels]


def play_to_the_end(term: Terminal, lang: str) -> None:
    """Answer "1" (the first legal move) at every turn until the game is saved."""
    saved = SAVED[lang]
    for _ in range(MAX_TURNS):
        if term.expect([PROMPTS[lang], saved]) == 1:
            return
        term.send("1")
    raise AssertionError("the game did not end")


def load(path: str) -> dict[str, Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def saved_path(term: Terminal, lang: str) -> str:
    found = re.findall(SAVED[lang], term.screen)
    assert found, term.screen[-2000:]
    return str(found[-1])


# ---------------------------------------------------------------------------- play


def test_a_whole_game_in_english_with_bad_input_hint_help_and_rules(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    term = Terminal("play", "--lang", "en", "--bots", "random,easy", "--seed", "5",
                    "--save", str(save), "--hint-seconds", "0.2")
    term.expect(PROMPTS["en"])
    board = term.turn_screen()
    assert "Collecting (phase 1)" in board and "Your hand:" in board and "1) " in board
    assert "Kari (random)" in board and "Ola (easy)" in board
    hand = hand_on(board, "en")
    assert len(hand) == 3

    term.send("7x")  # a malformed card
    term.expect(r"'7x' is not a card: there is no suit 'x'.*\n")
    term.expect(PROMPTS["en"])
    missing = next(code for code in CARD_CODES if code not in hand)
    term.send(missing)  # a card that is not in the hand
    term.expect(re.escape(f"Not allowed: {card_label(missing)} is not in your hand."))
    term.expect(PROMPTS["en"])
    term.send("pickup")  # illegal in phase 1
    term.expect(re.escape("Not allowed: picking up is only possible in phase 2 (utspilling)."))
    term.expect(PROMPTS["en"])
    term.send("frobnicate")
    term.expect("Unknown command or card: 'frobnicate'")
    term.expect(PROMPTS["en"])
    term.send("9")
    term.expect("There is no move number 9. Choose a number from 1 to 4.")
    term.expect(PROMPTS["en"])
    for typed in ("²", "٣", "9" * 4000):  # a terminal line holds at most 4,095 characters
        term.send(typed)
        term.expect(re.escape("' is not a move: type a card like 7h, a number from the list (1-4)"))
        term.expect(PROMPTS["en"])
    term.send("hint")
    term.expect(r"(?:Safest move|Hint): (\S+) \(number (\d)\) – ")
    term.expect(PROMPTS["en"])
    term.send("help")
    term.expect("How to play")
    term.expect(PROMPTS["en"])
    term.send("rules")
    term.expect("Rules: pagat")
    term.expect(PROMPTS["en"])
    assert term.screen.count("Traceback") == 0
    term.send(hand[0])  # a card code from the hand
    term.expect(re.escape(f"You played {card_label(hand[0])}"))
    play_to_the_end(term, "en")
    assert term.finish() == 0
    assert re.search(r"(\w+) (is|are) Mattis!", term.screen)
    assert saved_path(term, "en") == str(save)

    record = load(str(save))
    replayed = Game.from_record(record)
    assert replayed.is_over
    assert record["result"] == {"losers": replayed.losers, "out_order": replayed.out_order}
    assert record["play"]["human_seat"] == 0
    names = ["You", "Kari", "Ola"]
    loser = names[replayed.losers[0]]
    assert f"{loser} {'are' if loser == 'You' else 'is'} Mattis!" in term.screen


def test_a_whole_game_in_norwegian(tmp_path: Path) -> None:
    save = tmp_path / "spill.json"
    term = Terminal("play", "--lang", "nb", "--bots", "easy,random", "--seed", "8",
                    "--save", str(save), "--hint-seconds", "0.2")
    term.expect(PROMPTS["nb"])
    board = term.turn_screen()
    assert "Innsamling (fase 1)" in board and "Din hånd:" in board
    assert "Kari (lett)" in board and "Ola (tilfeldig)" in board
    term.send("1x")
    term.expect("«1x» er ikke et kort")
    term.expect(PROMPTS["nb"])
    term.send("ta opp")
    term.expect(re.escape("Ikke lov: du kan bare ta opp i andre fase (utspilling)."))
    term.expect(PROMPTS["nb"])
    term.send("tull")
    term.expect("Ukjent kommando eller kort: «tull»")
    term.expect(PROMPTS["nb"])
    term.send("0")
    term.expect("Det er ikke noe trekk nummer 0")
    term.expect(PROMPTS["nb"])
    term.send("hjelp")
    term.expect("Slik spiller du")
    term.expect(PROMPTS["nb"])
    term.send("regler")
    term.expect("Regler: pagat")
    term.expect(PROMPTS["nb"])
    term.send("tips")
    term.expect(r"(?:Tryggeste trekk|Tips): \S+ \(nr\. \d\) – ")
    term.expect(PROMPTS["nb"])
    term.send("sjanse")
    term.expect("Du sjanset og fikk")
    play_to_the_end(term, "nb")
    assert term.finish() == 0
    assert re.search(r"er (Blå)?[Mm]attis", term.screen)
    assert "Utspilling (fase 2)" in term.screen or "Blåmattis" in term.screen
    record = load(saved_path(term, "nb"))
    assert Game.from_record(record).losers == record["result"]["losers"]
    assert record["play"]["lang"] == "nb"


@pytest.mark.parametrize("how", ["quit", "eof", "interrupt"])
def test_stopping_saves_the_game_so_far(tmp_path: Path, how: str) -> None:
    save = tmp_path / "stopped.json"
    term = Terminal("play", "--lang", "en", "--bots", "random,random", "--seed", "3",
                    "--save", str(save))
    term.expect(PROMPTS["en"])
    term.send("1")
    term.expect(PROMPTS["en"])
    if how == "quit":
        term.send("quit")
    elif how == "eof":
        term.child.sendeof()
    else:
        term.child.sendintr()
    term.expect("The game was stopped.")
    code = term.finish()
    assert code == (130 if how == "interrupt" else 0)
    assert saved_path(term, "en") == str(save)
    record = load(str(save))
    game = Game.from_record(record)
    assert not game.is_over and game.num_actions >= 2
    assert record["play"]["finished"] is False


def test_a_match_keeps_score_and_the_loser_deals_the_next_game_c2(tmp_path: Path) -> None:
    base = tmp_path / "match.json"
    term = Terminal("play", "--lang", "en", "--games", "2", "--bots", "random,random",
                    "--seed", "21", "--save", str(base))
    term.expect(r"Game 1 of 2 · dealer: (\w+)")
    assert term.child.match.group(1) == "Ola"  # the last seat deals first
    play_to_the_end(term, "en")
    term.expect("The score after 1 of 2 games")
    term.expect(r"The loser deals the next game: (\w+)\.")
    next_dealer_name = term.child.match.group(1)
    term.expect("Press Enter for the next game")
    term.send("")
    term.expect(r"Game 2 of 2 · dealer: (\w+)")
    assert term.child.match.group(1) == next_dealer_name
    play_to_the_end(term, "en")
    term.expect("Final score after 2 games")
    assert term.finish() == 0

    first, second = load(str(tmp_path / "match-1.json")), load(str(tmp_path / "match-2.json"))
    game1, game2 = Game.from_record(first), Game.from_record(second)
    assert game1.dealer == 2
    assert game2.dealer == next_dealer(game1.dealer, game1.losers, 3)
    names = {"you": 0, "Kari": 1, "Ola": 2}
    assert names[next_dealer_name] == game2.dealer
    scores = [0, 0, 0]
    for game in (game1, game2):
        for loser in game.losers:
            scores[loser] += 1
    assert second["play"]["match"] == {"game": 2, "games": 2, "seed": 21, "scores": scores}


# ---------------------------------------------------------------------------- replay


def finished_record(tmp_path: Path, seed: int = 6) -> Path:
    """A finished game saved the way ``mattis play`` saves it."""
    game = Game.new("pagat", 3, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path / "finished.json"
    save_record(play_record(game, make_participants(3, 0, ["normal", "hard"]), "en"), path)
    return path


def test_replay_prints_the_whole_game_and_its_result(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    game = Game.from_record(load(str(path)))
    done = subprocess.run([*PROGRAM, "replay", str(path), "--no-step", "--lang", "en"],
                          capture_output=True, text=True, timeout=60, env=child_env(), check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Replay · pagat · 3 players" in out
    assert "0: You, 1: Kari (normal), 2: Ola (hard)" in out
    assert f"{game.num_actions:>4}. " in out  # every move is numbered
    assert "Shedding (phase 2) begins." in out or "Blåmattis" in out
    loser = ["You", "Kari", "Ola"][game.losers[0]]
    assert re.search(rf"{loser} (is|are) (Blå)?Mattis", out)
    assert "[" in out  # the player's hand is shown at each of their moves

    everyone = subprocess.run([*PROGRAM, "replay", str(path), "--no-step", "--all", "--lang", "nb"],
                              capture_output=True, text=True, timeout=60, env=child_env(), check=False)
    assert everyone.returncode == 0, everyone.stderr
    assert "Alle hender vises." in everyone.stdout
    assert "Reprise · pagat · 3 spillere" in everyone.stdout


def test_replay_steps_on_enter_and_stops_on_q(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    term = Terminal("replay", str(path), "--step", "--lang", "en")
    term.expect("Enter: next move")
    assert "Your hand:" in term.turn_screen()
    term.send("")
    term.expect(r"   1\. ")
    term.expect("Enter: next move")
    term.send("q")
    assert term.finish() == 0


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})


@pytest.mark.parametrize(
    ("content", "fragment"),
    [(None, "no such file"), ("{not json", "not JSON"), ('{"format": "x"}', "not a Mattis game record"),
     ("ILLEGAL", "is illegal")],
)
def test_replay_refuses_bad_files_in_one_line(tmp_path: Path, content: str | None, fragment: str) -> None:
    path = tmp_path / "bad.json"
    if content == "ILLEGAL":
        record = load(str(finished_record(tmp_path)))
        record["actions"][0] = "pickup"
        path.write_text(json.dumps(record))
    elif content is not None:
        path.write_text(content)
    result = run("replay", str(path), "--no-step")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("error: ") and fragment in result.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [(["--bots", "normal"], "--bots: pagat is for 3-6 players, so give 2-5 bot levels, got 1"),
     (["--players", "4", "--bots", "normal"], "--bots: give 3 level(s) for 4 players"),
     (["--bots", "normal,genius"], "unknown bot 'genius'"),
     (["--players", "7"], "allows 3-6 players"),
     (["--players", "2"], "allows 3-6 players"),
     (["--seat", "3"], "--seat: must be from 0 to 2"),
     (["--games", "0"], "--games: must be from 1"),
     (["--hint-seconds", "0"], "--hint-seconds"),
     (["--rules", "nope"], "unknown preset"),
     (["--set", "nope=1"], "unknown option 'nope'"),
     (["--save", "/nonexistent-folder/x.json"], "does not exist"),
     (["--save", "a" * 300], "--save: cannot use"),
     (["--save", "a" * 300], "File name too long"),
     (["--seed", "9" * 4300, "--games", "2"], "--seed': seeds are whole numbers from 0 to 2**64-1"),
     (["--seed", "-4"], "got '-4'"),
     (["--set", "min_sequence=²"], "min_sequence: expected a whole number (0, 2, 3), got '²'"),
     (["--bots", "normal,\x1b[2J"], "--bots: unknown bot '[2J'"),
     (["--lang", "de"], "--lang")],
    ids=lambda value: str(value)[:40] if isinstance(value, list) else None,
)
def test_play_refuses_bad_options_in_one_line(args: list[str], fragment: str) -> None:
    assert_one_error_line(run("play", *args), fragment)


def test_replay_refuses_seat_and_all_together(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    assert run("replay", str(path), "--seat", "1", "--all").exit_code == 2
    result = run("replay", str(path), "--seat", "5", "--no-step")
    assert result.exit_code == 2 and "--seat" in result.stderr


@pytest.mark.parametrize(("answer", "replaced"), [("n", False), ("", False), ("y", True)])
def test_at_a_terminal_an_existing_save_is_a_question(tmp_path: Path, answer: str, replaced: bool) -> None:
    existing = finished_record(tmp_path)
    before = existing.read_bytes()
    term = Terminal("play", "--lang", "en", "--bots", "random,random", "--seed", "3",
                    "--save", str(existing))
    term.expect(r"holds a saved game\. Replace it\?\s+\[y/N\] ")  # a long path wraps the line
    term.send(answer)
    if replaced:
        term.expect(PROMPTS["en"])
        term.send("quit")
        assert term.finish() == 0
        assert load(str(existing))["seed"] == 3
    else:
        term.expect("error: --save: .* holds a saved game; add --overwrite to replace it")
        assert term.finish() == 2
        assert existing.read_bytes() == before


def test_the_terminal_warns_before_a_deal_likely_to_end_in_blodmattis_p1_10() -> None:
    """The same measured figure the start page shows (``mattis.frontend.empty_loss``)."""
    term = Terminal("play", "--lang", "en", "--rules", "app", "--bots", "random,random,random,random,random",
                    "--seed", "3")
    term.expect(PROMPTS["en"])
    assert "93% of 100 test games ended early in Blodmattis" in term.screen
    term.send("quit")
    term.expect("The game was stopped.")
    term.finish()
    quiet = Terminal("play", "--lang", "en", "--bots", "random,random", "--seed", "3")
    quiet.expect(PROMPTS["en"])
    assert "test games" not in quiet.screen
    quiet.send("quit")
    quiet.expect("The game was stopped.")
    quiet.finish()
