"""``mattis replay``: a saved game shown again, move by move, replayed by the rules engine.

The file is outside input: :func:`mattis.frontend.record.load_record` turns anything it
holds into a game or one line saying why not, and names read back from it are made safe
to print. As everywhere in the command line, a bad option or file ends the command with one
``error:`` line and exit code 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..frontend.record import RecordError, load_record
from ..terminal import EXIT_OK, TerminalReplay
from .common import LangOption, console, fail, language


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
    chosen = language(lang)
    if seat is not None and show_all:
        fail("--seat and --all cannot be combined")
    try:
        loaded = load_record(file)
    except RecordError as error:
        fail(str(error))
    players = loaded.game.players
    if seat is not None and not 0 <= seat < players:
        fail(f"--seat: must be from 0 to {players - 1} in this game, got {seat}")
    viewpoint = None if show_all else (seat if seat is not None else loaded.human_seat)
    stepping = step and sys.stdin.isatty()
    code = TerminalReplay(loaded, chosen, console(), stepping, viewpoint).run()
    if code != EXIT_OK:
        raise typer.Exit(code)
