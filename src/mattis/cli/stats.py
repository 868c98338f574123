"""``mattis stats``: your own record from the games ``mattis play`` saved in the data folder:
games, Mattis, the Mattis rate and its 95% interval, over all and against each bot level.

Only finished games with a person at the table count; a file that is not a readable record
is left out and counted as such. The arithmetic is the ledger's
(:func:`mattis.table.ledger.level_stats`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from ..frontend.record import recent_games, saves_folder
from ..frontend.seats import level_label
from ..frontend.text import printable
from ..i18n import Lang, format_decimal, t
from ..table.ledger import level_stats
from .common import LangOption, console, language

ALL_GAMES = 1_000_000
"""More saved games than anyone has: read them all."""


def stats_command(
    *,
    lang: LangOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Your own statistics from the saved games: Mattis rate over all and against each bot level."""
    chosen = language(lang)
    folder = saves_folder()
    results: list[tuple[list[str], bool]] = []
    unreadable = 0
    for info in recent_games(folder, ALL_GAMES):
        loaded = info.loaded
        if loaded is None:
            unreadable += 1
            continue
        if not loaded.game.is_over or loaded.human_seat is None:
            continue
        levels = [person.level for person in loaded.participants if person.level]
        results.append((levels, loaded.human_seat in loaded.game.losers))
    figures = {**level_stats(results), "unreadable": unreadable, "folder": str(folder)}
    if as_json:
        console().print_json(json.dumps(figures))
        return
    _print(figures, chosen)


def _percent(rate: float | None, lang: Lang) -> str:
    return "" if rate is None else f"{format_decimal(round(rate * 100, 1), lang)} %"


def _interval(row: dict[str, Any], lang: Lang) -> str:
    bounds = row["rate_interval"]
    return "" if bounds is None else f"{_percent(bounds[0], lang)}–{_percent(bounds[1], lang)}"


def _print(figures: dict[str, Any], lang: Lang) -> None:
    out = console()
    where = printable(str(figures["folder"]))
    if not figures["games"]:
        out.print(Text(t("cli.stats.none", lang, folder=where)))
        return
    table = Table(title=t("cli.stats.title", lang, folder=where), title_justify="left",
                  box=box.SIMPLE_HEAD, show_edge=False)
    for key in ("against", "games", "mattis", "rate", "interval"):
        table.add_column(t(f"cli.stats.col.{key}", lang), justify="left" if key == "against" else "right")
    rows = [(t("cli.stats.all", lang), figures),
            *((level_label(row["level"], lang), row) for row in figures["levels"])]
    for name, row in rows:
        table.add_row(name, str(row["games"]), str(row["mattis"]), _percent(row["rate"], lang),
                      _interval(row, lang))
    out.print(table)
    if figures["unreadable"]:
        out.print(Text(t("cli.stats.unreadable", lang, count=figures["unreadable"]), style="dim"))
