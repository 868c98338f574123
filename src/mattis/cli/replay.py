"""``mattis replay``: a saved game shown again, move by move, replayed by the rules engine;
without a file, the list of recent games in the data folder, numbered so ``mattis replay 1``
shows the newest.

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
from rich import box
from rich.table import Table
from rich.text import Text

from ..frontend.narrate import result_headline
from ..frontend.record import RecordError, load_record, recent_games, saves_folder
from ..frontend.text import printable
from ..i18n import Lang, t
from ..terminal import EXIT_OK, TerminalReplay
from .common import LangOption, console, fail, language, quote

RECENT_LIMIT = 10
"""How many saved games ``mattis replay`` lists."""


def replay_command(
    *,
    file: Annotated[str | None, typer.Argument(
        metavar="[FILE|NUMBER]",
        help="A game saved by 'mattis play', or its number in the list of recent games. "
        "Without it: list the recent games.", show_default=False)] = None,
    lang: LangOption = None,
    step: Annotated[bool, typer.Option(
        "--step/--no-step", help="Wait for Enter before each move, or print the whole game. "
        "Default: step when reading from a terminal.", show_default=False)] = True,
    seat: Annotated[int | None, typer.Option(
        "--seat", help="Show the game from this seat (its hand only). Default: the player's seat.",
        show_default=False)] = None,
    show_all: Annotated[bool, typer.Option("--all", "-a", help="Show every hand.")] = False,
) -> None:
    """Show a saved game again, move by move (b steps back), or list the recent games."""
    chosen = language(lang)
    if seat is not None and show_all:
        fail("--seat and --all cannot be combined")
    folder = saves_folder()
    if file is None:
        _list_recent(folder, chosen)
        return
    try:
        loaded = load_record(saved_game_path(file))
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


def saved_game_path(file: str) -> Path:
    """The file ``FILE|NUMBER`` names: a path, or a number from the list of recent games
    (``mattis replay`` without a file), which ``mattis review`` accepts too. An unknown
    number ends the command with one error line."""
    path = Path(file)
    if file.strip().isascii() and file.strip().isdigit() and not path.exists():
        folder = saves_folder()
        recent = recent_games(folder, RECENT_LIMIT)
        number = int(file.strip()) if len(file.strip()) < 4 else 0
        if not 1 <= number <= len(recent):
            fail(f"no recent game number {quote(file)}: 'mattis replay' lists {len(recent)} "
                 f"game(s) in {printable(str(folder))}")
        path = recent[number - 1].path
    return path


def _list_recent(folder: Path, lang: Lang) -> None:
    """The newest saved games, numbered for ``mattis replay NUMBER``."""
    out = console()
    recent = recent_games(folder, RECENT_LIMIT)
    where = printable(str(folder))
    if not recent:
        out.print(Text(t("play.recent_none", lang, folder=where)))
        return
    table = Table(title=t("play.recent_title", lang, folder=where), title_justify="left",
                  box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column("#", justify="right", style="cyan")
    for key in ("when", "rules", "result"):
        table.add_column(t(f"play.recent_col.{key}", lang))
    table.add_column(t("play.recent_col.file", lang), overflow="fold")  # typed back: keep it whole
    for number, info in enumerate(recent, start=1):
        when = info.saved.strftime("%Y-%m-%d %H:%M")
        name = Text(printable(info.path.name), style="dim")
        if info.loaded is None:
            table.add_row(str(number), when, "", Text(t("play.recent_unreadable", lang), style="red"), name)
            continue
        game = info.loaded.game
        rules = game.rules.preset_name or t("play.house_rules", lang)
        table.add_row(str(number), when, f"{rules}, {game.players} {t('players', lang)}",
                      Text(result_headline(game, info.loaded.participants, lang)), name)
    out.print(table)
    out.print(Text(t("play.recent_how", lang), style="dim"))
