"""``mattis play`` and ``mattis replay``: a game against bots, and a saved game shown again.

Only argument checking lives here; the game loop is :mod:`mattis.frontend.session` and the
drawing :mod:`mattis.terminal`. As everywhere in the command line, a bad option ends the
command with one ``error:`` line and exit code 2, before any game starts.
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..bots import LEVELS, Limit
from ..frontend.record import RecordError, check_save_path, default_save_path, load_record
from ..frontend.seats import make_participants
from ..frontend.session import Match
from ..terminal import EXIT_OK, TerminalPlay, TerminalReplay
from .app import LangOption, SetOption, UsageFailure, _console, _fail, _lang, _resolve_rules, app

DEFAULT_PLAYERS = 3
MAX_HINT_SECONDS = 30.0
MAX_GAMES = 1000


def _parse_bots(text: str | None) -> list[str] | None:
    """``"normal,hard"`` as ``["normal", "hard"]``; ``None`` when the option was not given."""
    if text is None:
        return None
    levels = [item.strip().lower() for item in text.split(",")]
    for level in levels:
        if level not in LEVELS:
            shown = level or "(empty)"
            raise UsageFailure(f"--bots: unknown level {shown!r}; choose from {', '.join(LEVELS)}")
    return levels


@app.command("play")
def play_command(
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help="Preset to play: pagat, kortregler or app.")] = "pagat",
    sets: SetOption = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Number of players, you included. Default: 3, or one more than "
        "the --bots given.", show_default=False)] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", "-b", metavar="LEVEL,LEVEL",
        help="Bot levels for the other seats, clockwise from yours (random, easy, normal, hard). "
        "Default: normal for every other seat.", show_default=False)] = None,
    seat: Annotated[int, typer.Option(
        "--seat", help="Your seat (0 leads the first game; the last seat deals).")] = 0,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed for the deal and the bots; the same seed gives the same game. "
        "Default: a random one (saved with the game).", show_default=False)] = None,
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games in the match; the loser deals the next.")] = 1,
    lang: LangOption = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="PATH", help="Where to save the game (a match adds -1, -2 …). "
        "Default: ./mattis-YYYYMMDD-HHMMSS.json.", show_default=False)] = None,
    hint_seconds: Annotated[float, typer.Option(
        "--hint-seconds", help="How long the strong bot thinks for a hint.")] = 0.5,
) -> None:
    """Play Mattis against bots in the terminal (type 'help' during the game)."""
    language = _lang(lang)
    try:
        resolved = _resolve_rules(rules, sets)
        levels = _parse_bots(bots)
    except (ValueError, UsageFailure) as error:
        _fail(str(error))
    preset = rules.strip().lower()
    name = preset if resolved.preset_name else f"{preset} with --set"
    low, high = resolved.min_players, resolved.max_players
    if players is None and levels is not None:
        players = len(levels) + 1
        if not resolved.allows_players(players):
            _fail(f"--bots: {name} is for {low}-{high} players, so give {low - 1}-{high - 1} "
                  f"bot levels, got {len(levels)}")
    if players is None:
        players = max(DEFAULT_PLAYERS, low)
    if not resolved.allows_players(players):
        _fail(f"--players: {name} allows {low}-{high} players, got {players}")
    if levels is None:
        levels = ["normal"] * (players - 1)
    if len(levels) != players - 1:
        _fail(f"--bots: give {players - 1} level(s) for {players} players (one per other seat), "
              f"got {len(levels)}")
    if not 0 <= seat < players:
        _fail(f"--seat: must be from 0 to {players - 1}, got {seat}")
    if not 1 <= games <= MAX_GAMES:
        _fail(f"--games: must be from 1 to {MAX_GAMES}, got {games}")
    if not 0 < hint_seconds <= MAX_HINT_SECONDS:
        _fail(f"--hint-seconds: must be more than 0 and at most {MAX_HINT_SECONDS:g}, got {hint_seconds:g}")
    save_path = save if save is not None else default_save_path()
    try:
        check_save_path(save_path)
    except ValueError as error:
        _fail(str(error))
    match = Match(resolved, make_participants(players, seat, levels), games,
                  seed if seed is not None else secrets.randbelow(1_000_000))
    terminal = TerminalPlay(match, preset, language, _console(), save_path, Limit(seconds=hint_seconds))
    code = terminal.run()
    if code != EXIT_OK:
        raise typer.Exit(code)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A game saved by 'mattis play'.", show_default=False)],
    lang: LangOption = None,
    step: Annotated[bool, typer.Option(
        "--step/--no-step", help="Wait for Enter before each move, or print the whole game. "
        "Default: step when reading from a terminal.", show_default=False)] = True,
    seat: Annotated[int | None, typer.Option(
        "--seat", help="Show the game from this seat (its hand only). Default: the player's seat.",
        show_default=False)] = None,
    show_all: Annotated[bool, typer.Option("--all", "-a", help="Show every hand.")] = False,
) -> None:
    """Show a saved game again, move by move, replayed by the rules engine."""
    language = _lang(lang)
    if seat is not None and show_all:
        _fail("--seat and --all cannot be combined")
    try:
        loaded = load_record(file)
    except RecordError as error:
        _fail(str(error))
    players = loaded.game.players
    if seat is not None and not 0 <= seat < players:
        _fail(f"--seat: must be from 0 to {players - 1} in this game, got {seat}")
    viewpoint = None if show_all else (seat if seat is not None else loaded.human_seat)
    stepping = step and sys.stdin.isatty()
    code = TerminalReplay(loaded, language, _console(), stepping, viewpoint).run()
    if code != EXIT_OK:
        raise typer.Exit(code)
