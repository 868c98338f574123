"""``mattis play``: a game or a match against bots in the terminal.

Only argument checking lives here; the games are played on the table layer
(:mod:`mattis.table`, with the terminal as its host: :mod:`mattis.terminal.host`) and drawn
by :mod:`mattis.terminal`. As everywhere in the command line, a bad option ends the
command with one ``error:`` line and exit code 2, before any game starts. Saved games are
never clobbered: an existing file is replaced only when it holds a saved game and
``--overwrite`` is given (or, at a terminal, the person answers yes when asked).
"""

from __future__ import annotations

import dataclasses
import secrets
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from ..bots import LEVELS, NUMPY_LEVELS
from ..frontend.match import ConsecutiveSeeds, Match
from ..frontend.record import (
    SavedGameExists,
    check_save_folder,
    check_save_path,
    default_save_path,
    match_save_path,
    os_error_text,
    saves_folder,
)
from ..frontend.seats import make_participants
from ..frontend.text import printable
from ..i18n import Lang, t
from ..table import table_profile
from ..terminal import EXIT_OK, TerminalPlay
from ..terminal.host import terminal_config
from .common import (
    LangOption,
    SetOption,
    UsageFailure,
    check_players,
    console,
    fail,
    for_option,
    language,
    parse_seed,
    parse_table_bots,
    resolve_rules,
)

DEFAULT_PLAYERS = 3
TERMINAL = table_profile("terminal")
"""The terminal's table: the defaults of ``--pace`` (its bot delay) and ``--hint-seconds``."""
MAX_HINT_SECONDS = 30.0
MAX_GAMES = 1000
MAX_PACE = 10.0
"""Longest pause between bot moves: longer is surely a typo (milliseconds meant)."""
DEFAULT_SEED_BITS = 63
"""Random bits in the seed drawn when none is given: far too many to search for, so a bot
cannot find the deal from its seed (the seed is saved with the game, to replay it)."""


def play_command(
    *,
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help="Preset to play: pagat, kortregler or app.")] = "pagat",
    sets: SetOption = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Number of players, you included. Default: 3, or one more than "
        "the --bots given.", show_default=False)] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", "-b", metavar="LEVEL,LEVEL",
        help=f"Bot levels for the other seats, clockwise from yours ({', '.join(LEVELS)}; "
        f"{' and '.join(NUMPY_LEVELS)} need numpy), or learned:FILE.npz for a checkpoint of your "
        "own (made by 'mattis train'). Default: normal for every other seat.", show_default=False)] = None,
    seat: Annotated[int, typer.Option(
        "--seat", help="Your seat (0 leads the first game; the last seat deals).")] = 0,
    seed: Annotated[int | None, typer.Option(
        "--seed", parser=parse_seed, metavar="<int>",
        help="Seed for the deal and the bots; the same seed gives the same game. "
        "Default: a random one (saved with the game).", show_default=False)] = None,
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games in the match; the loser deals the next.")] = 1,
    lang: LangOption = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="PATH", help="Where to save the game (a match adds -1, -2 …). "
        "Default: mattis-YYYYMMDD-HHMMSS.json in the games folder of your data folder "
        "(or of $MATTIS_DATA_DIR); 'mattis replay' lists them.", show_default=False)] = None,
    hint_seconds: Annotated[float, typer.Option(
        "--hint-seconds", help="How long the strong bot thinks for a hint.")] = TERMINAL.hint_seconds,
    overwrite: Annotated[bool, typer.Option(
        "--overwrite", help="Let --save replace a game saved earlier in the same file(s).")] = False,
    pace: Annotated[float | None, typer.Option(
        "--pace", metavar="SECONDS", envvar="MATTIS_PACE",
        help="Pause between bot moves (a finished trick waits twice as long); 0 for none. Press "
        f"Enter to skip ahead to your turn. Default: {TERMINAL.bot_delay:g} at a terminal, 0 when "
        "input is not a terminal. Also read from MATTIS_PACE.", show_default=False)] = None,
    auto_forced: Annotated[bool, typer.Option(
        "--auto-forced", help="Play your move without asking when it is the only legal one.")] = False,
    explain: Annotated[bool, typer.Option(
        "--explain", help="Show why each bot made its move.")] = False,
) -> None:
    """Play Mattis against bots in the terminal (type 'help' during the game)."""
    chosen = language(lang)
    try:
        resolved = resolve_rules(rules, sets)
        levels, checkpoints = parse_table_bots(bots, chosen) if bots is not None else (None, ())
    except (ValueError, UsageFailure) as error:
        fail(str(error))
    preset = rules.strip().lower()
    name = preset if resolved.preset_name else f"{preset} with --set"
    low, high = resolved.min_players, resolved.max_players
    if players is None and levels is not None:
        players = len(levels) + 1
        if not resolved.allows_players(players):
            fail(f"--bots: {name} is for {low}-{high} players, so give {low - 1}-{high - 1} "
                 f"bot levels, got {len(levels)}")
    if players is None:
        players = max(DEFAULT_PLAYERS, low)
    try:
        check_players(resolved, players)
    except ValueError as error:
        fail(for_option("--players", error))
    if levels is None:
        levels = ["normal"] * (players - 1)
    if len(levels) != players - 1:
        fail(f"--bots: give {players - 1} level(s) for {players} players (one per other seat), "
             f"got {len(levels)}")
    if not 0 <= seat < players:
        fail(f"--seat: must be from 0 to {players - 1}, got {seat}")
    if not 1 <= games <= MAX_GAMES:
        fail(f"--games: must be from 1 to {MAX_GAMES}, got {games}")
    if not 0 < hint_seconds <= MAX_HINT_SECONDS:
        fail(f"--hint-seconds: must be more than 0 and at most {MAX_HINT_SECONDS:g}, got {hint_seconds:g}")
    if pace is None:
        pace = TERMINAL.bot_delay if sys.stdin.isatty() else 0.0
    if not 0 <= pace <= MAX_PACE:
        fail(f"--pace: must be from 0 to {MAX_PACE:g} seconds, got {pace:g}")
    if overwrite and save is None:
        fail("--overwrite needs --save: the default file name is always a new file")
    try:
        if save is None:
            save_path = default_save_path(directory=_games_folder())
            check_save_folder(save_path)
        else:
            save_path = save
            overwrite = _check_save_paths(save_path, games, overwrite, chosen)
    except ValueError as error:
        fail(str(error))
    first_seed = seed if seed is not None else secrets.randbits(DEFAULT_SEED_BITS)
    match = Match(resolved, players, ConsecutiveSeeds(first_seed), games)
    people = make_participants(players, seat, levels)
    config = dataclasses.replace(terminal_config(pace=pace, hint_seconds=hint_seconds),
                                 checkpoints=checkpoints)  # the checkpoints named in --bots
    terminal = TerminalPlay(match, people, preset, chosen, console(), save_path, config,
                            overwrite=overwrite, auto_forced=auto_forced, explain=explain)
    code = terminal.run()
    if code != EXIT_OK:
        raise typer.Exit(code)


def _games_folder() -> Path:
    """The default folder for saved games, created on first use."""
    folder = saves_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot create the folder for saved games {printable(str(folder))}: "
                         f"{os_error_text(error)} (choose a file with --save)") from None
    return folder


REPLACE_WORDS = ("y", "yes", "j", "ja")
"""Answers that allow replacing a saved game; anything else (Enter included) keeps it."""


def _check_save_paths(base: Path, games: int, overwrite: bool, lang: Lang) -> bool:
    """Check every file the match will save to; returns whether saved games may be replaced.

    At a terminal, a saved game in the way is a question rather than an error; in a script
    it is an error naming ``--overwrite``, so nothing is ever replaced without being asked.
    """
    for number in range(1, games + 1):
        try:
            check_save_path(match_save_path(base, number, games), overwrite)
        except SavedGameExists as exists:
            if not (sys.stdin.isatty() and _confirm_replace(exists.path, lang)):
                raise
            overwrite = True
    return overwrite


def _confirm_replace(path: Path, lang: Lang) -> bool:
    try:
        # a Text, not a str: rich would read "[y/N]" as markup and drop it
        answer = console().input(Text(t("play.replace_prompt", lang, path=printable(str(path)))))
    except (EOFError, KeyboardInterrupt):
        return False
    return answer.strip().lower() in REPLACE_WORDS

