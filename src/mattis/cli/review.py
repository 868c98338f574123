"""``mattis review``: a finished game looked back on from one seat, judged only from what
that seat knew at each choice (:mod:`mattis.bots.review`), with the three moves that cost
most explained in words (:mod:`mattis.frontend.review`).

FILE is a saved game (``mattis play --save``, or the record ``GET /api/tables/{ID}/record``
gives), or the number of a recent saved game as ``mattis replay`` lists them. Progress goes
to stderr, so ``--json`` leaves stdout one JSON object.
"""

from __future__ import annotations

import json
import sys
import textwrap
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..bots.review import MAX_ITERATIONS, REVIEW_ITERATIONS, REVIEW_SEED, Review, review_record
from ..frontend.cards import symbols_shown
from ..frontend.narrate import result_headline
from ..frontend.record import LoadedGame, RecordError, load_record
from ..frontend.review import move_number, move_text, phase_number, points_text, review_report, risk_texts
from ..frontend.seats import seat_name
from ..i18n import Lang, t
from .common import JsonOption, LangOption, console, fail, help_text, language, parse_seed, progress_bar
from .replay import saved_game_path


def review_command(
    *,
    file: Annotated[str, typer.Argument(
        metavar="FILE|NUMBER", help=help_text("review.help.file", "en"), show_default=False)],
    seat: Annotated[int | None, typer.Option(
        "--seat", help=help_text("review.help.seat", "en"), show_default=False)] = None,
    iterations: Annotated[int, typer.Option(
        "--iterations", "-k", min=1, max=MAX_ITERATIONS,
        help=help_text("review.help.iterations", "en"))] = REVIEW_ITERATIONS,
    seed: Annotated[int, typer.Option(
        "--seed", parser=parse_seed, metavar="<int>",
        help=help_text("review.help.seed", "en"))] = REVIEW_SEED,
    json_output: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """Review a finished game from one seat: the risk of becoming Mattis after each choice,
    judged only from what that seat knew, and the three moves that cost most."""
    # (typer shows this docstring in 'mattis --help'; 'mattis review --help' shows review.help.*
    # in the user's language: common.TranslatedHelp)
    chosen = language(lang)
    try:
        loaded = load_record(saved_game_path(file))
    except RecordError as error:
        fail(str(error))
    players = loaded.game.players
    if seat is None:
        if loaded.human_seat is None:
            fail(f"--seat: this game names no player's seat; give --seat from 0 to {players - 1}")
        seat = loaded.human_seat
    if not 0 <= seat < players:
        fail(f"--seat: must be from 0 to {players - 1} in this game, got {seat}")
    with progress_bar(t("review.progress", chosen), percent=True) as update:
        try:
            review = review_record(loaded.record, seat, iterations=iterations, seed=seed,
                                   progress=update)
        except ValueError as error:  # a record load_record accepted always replays; to be safe
            fail(str(error))
    if json_output:
        sys.stdout.write(json.dumps(review.to_dict(), ensure_ascii=False) + "\n")
        return
    _show(review, loaded, chosen)


def _show(review: Review, loaded: LoadedGame, lang: Lang) -> None:
    """The review for people: what it measures, each choice, and the turning points with
    what the seat knew at each (the words of :func:`~mattis.frontend.review.review_report`,
    which a page shows too)."""
    out = console()
    report = review_report(review, lang)
    game = loaded.game
    person = loaded.participants[review.seat]
    preset = game.rules.preset_name or t("play.house_rules", lang)
    out.print(Rule(Text(t("review.title", lang, rules=preset, players=game.players,
                          actions=game.num_actions), style="bold")))
    viewpoint = (t("play.replay_yours", lang) if person.human
                 else t("play.replay_seat", lang, who=seat_name(person, lang)))
    out.print(Text(f"{viewpoint} {result_headline(game, loaded.participants, lang)}"))
    out.print(Text(report.method, style="dim"))
    for note in report.notes:
        out.print(Text(note, style="yellow"))
    out.print()
    if review.decisions:
        _choices_table(review, lang, out)
        out.print()
        out.print(Text(t("play.review.turning_title", lang), style="bold"))
    if report.verdict is not None:
        out.print(Text(report.verdict))
    for point in report.turning_points:
        out.print(_hanging(f"{point.sentence} ({point.uncertainty})", _mark(), out.width))
        out.print(_hanging(point.knew, " " * len(_mark()), out.width, dim=True))
    if report.forced is not None:
        out.print()
        out.print(Text(report.forced, style="dim"))


def _hanging(sentence: str, mark: str, width: int, dim: bool = False) -> Text:
    """``sentence`` after ``mark``, wrapped with a hanging indent and its last bracket dim
    (or all of it, with ``dim``). Wrapped here rather than by rich, which would break
    "31 %" at its no-break space."""
    wrapped = textwrap.fill(sentence, width=max(20, width - 1), initial_indent=f"{mark} ",
                            subsequent_indent=" " * (len(mark) + 1), break_on_hyphens=False)
    text = Text(wrapped, no_wrap=True)
    text.stylize("bold yellow", 0, len(mark))
    text.stylize("dim", 0 if dim else max(0, wrapped.rfind("(")))
    return text


def _mark() -> str:
    """The sign of a turning point: a diamond, or ``*`` where suit symbols cannot be shown."""
    return "◆" if symbols_shown() else "*"


def _choices_table(review: Review, lang: Lang, out: Console) -> None:
    """One row per choice: what was played and at what risk, and the safest move."""
    table = Table(title=t("review.table_title", lang), title_justify="left", box=box.SIMPLE_HEAD,
                  show_edge=False)
    table.add_column("", width=1)
    table.add_column(t("review.col.move", lang), justify="right", style="cyan")
    table.add_column(t("review.col.phase", lang), justify="right")
    table.add_column(t("review.col.options", lang), justify="right")
    table.add_column(t("review.col.played", lang))
    table.add_column(t("review.col.risk", lang), justify="right", no_wrap=True)
    table.add_column(t("review.col.best", lang))
    table.add_column(t("review.col.best_risk", lang), justify="right", no_wrap=True)
    table.add_column(t("review.col.cost", lang), justify="right", no_wrap=True)
    marked = set(review.turning_points)
    for decision in review.decisions:
        turning = decision.action in marked
        same = decision.best == decision.played
        risk, best_risk = risk_texts(decision.risk, decision.best_risk, lang)
        table.add_row(
            Text(_mark(), style="bold yellow") if turning else "",
            str(move_number(decision)),
            str(phase_number(decision)),
            str(len(decision.options)),
            move_text(decision.played, lang),
            risk,
            "" if same else move_text(decision.best, lang),
            "" if same else best_risk,
            Text(points_text(decision.cost), style="bold yellow" if turning else ""),
            style="bold" if turning else None,
        )
    out.print(table)
    out.print(Text(t("review.table_note", lang, mark=_mark()), style="dim"))
