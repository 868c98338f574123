"""``mattis tournament``: bots against bots, every deal in every seating, in one table.

Presentation only: :mod:`mattis.tools.tournament` plays and counts; this module parses
the options, shows a progress bar on stderr and prints the standings in the chosen language
(its texts are :mod:`mattis.i18n.cli`, keys ``tournament.…``), or one JSON object with
``--json``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..bots import DEFAULT_ACTION_CAP, LEARNED, Limit, missing_extra
from ..bots.entrants import check_entrant
from ..core import Rules
from ..extras import install_command
from ..i18n import Lang, format_number, format_percent, percent_text, t
from ..tools.backends import Backend, BackendError, RayBackend, close_backend, make_backend
from ..tools.tournament import (
    ALL_PERMUTATIONS,
    DEFAULT_HARD_LIMIT,
    DEFAULT_OPENSPIEL_SIMULATIONS,
    ENTRANTS,
    NAMED,
    OPENSPIEL_MISSING,
    Standing,
    TournamentResult,
    check_checkpoint,
    entrant_spec,
    openspiel_available,
    parse_entrant,
    planned_games,
    run_tournament,
    uses_openspiel,
)
from .common import (
    ActionCapOption,
    JsonOption,
    LangOption,
    SetOption,
    UsageFailure,
    check_players,
    console,
    entrant_failure,
    fail,
    for_option,
    language,
    parse_seed,
    progress_bar,
    quote,
    rules_or_exit,
)

DEFAULT_BOTS = "hard,normal,easy"
MAX_WORKERS = 64
"""More worker processes than this only cost memory: every process holds the engine and
its bots, and no machine this runs on has more cores to give them."""
DEFAULT_WORKERS = min(os.cpu_count() or 1, MAX_WORKERS)
"""Every core: the games do not depend on the worker count, so there is no reason to wait."""


BOTS_HELP = (f"One entrant per seat, comma-separated: {', '.join(ENTRANTS)} (OpenSpiel's Python "
             f"ISMCTS, needs {escape(install_command('rl'))}), learned:FILE.npz (a checkpoint of its own) or "
             "module:callable (your agent: an object with choose(), a policy(view, legal) -> action, or a "
             "factory without arguments making either). An entrant may repeat (normal#1, normal#2). "
             "A searching entrant may have a budget of its own, overriding --hard-iterations, "
             "--hard-seconds and --openspiel-simulations: hard:4000 (iterations), hard:0.5s "
             "(seconds a move), openspiel-ismcts:400 (simulations).")


class BackendChoice(StrEnum):
    """The ``--backend`` values."""

    LOCAL = "local"
    RAY = "ray"


BackendOption = Annotated[BackendChoice, typer.Option(
    "--backend", case_sensitive=False,
    help="Where the games run: local (this machine's processes) or ray (a Ray cluster; needs "
         "pip install \"mattis\\[ray]\"). The results are the same.")]
AddressOption = Annotated[str | None, typer.Option(
    "--address", metavar="HOST:PORT",
    help="With --backend ray: the cluster to join ('auto' for the one 'ray start' started here). "
         "Default: start a local Ray instance with --workers CPUs.", show_default=False)]


@contextmanager
def open_backend(choice: BackendChoice, workers: int, address: str | None) -> Iterator[Backend]:
    """The chosen backend, connected (a Ray cluster joined or started) before any game, so
    a missing Ray or a wrong address ends the command with one line; a Ray instance
    started here is shut down afterwards."""
    try:
        backend = make_backend(choice.value, workers, address)
        if isinstance(backend, RayBackend):
            backend.connect()
    except ValueError as error:
        fail(for_option("--address", error))
    except BackendError as error:
        fail(f"--backend: {error}")
    try:
        yield backend
    finally:
        close_backend(backend)


def parse_entrants(text: str, lang: Lang = "en") -> list[str]:
    """``"hard, OpenSpiel-ISMCTS, learned:mine.npz"`` as entrant names, each checked once
    (a checkpoint read, a module imported); a bad one raises :class:`UsageFailure` naming
    ``--bots``, in ``lang``."""
    try:
        names = [parse_entrant(item) for item in text.split(",")]
    except ValueError as error:
        raise UsageFailure(entrant_failure("--bots", error, lang)) from None
    if uses_openspiel(names) and not openspiel_available():
        raise UsageFailure(f"--bots: {OPENSPIEL_MISSING}")
    missing = missing_extra(entrant_spec(name).kind for name in names)
    if missing is not None:
        raise UsageFailure(f"--bots: {missing}")
    for name in dict.fromkeys(names):
        try:
            check_entrant(name, NAMED)
        except ValueError as error:
            raise UsageFailure(entrant_failure("--bots", error, lang)) from None
    return names


def tournament_command(
    *,
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help="Preset to start from: pagat, kortregler or app.")] = "pagat",
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Number of players. Default: the number of bots.",
        show_default=False)] = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b",
        help=BOTS_HELP)] = DEFAULT_BOTS,
    games: Annotated[int, typer.Option(
        "--games", "-n", min=1,
        help="Games to play, rounded up to whole deals: each deal is played in every order of the "
             "bots round the table (2, 6 or 24 games for 2-4 players), or with 5 or 6 players in a "
             "balanced design (20 or 60 games) where every bot holds every seat and sits next to "
             "every other equally often.")] = 300,
    seed: Annotated[int, typer.Option(
        "--seed", parser=parse_seed, metavar="<int>",
        help="Seed; the same seed gives the same games.")] = 1,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=1, max=MAX_WORKERS,
        help="Worker processes. The games are the same for any number (unless hard thinks for a "
             "time). Default: every CPU core.", show_default=False)] = DEFAULT_WORKERS,
    sets: SetOption = None,
    json_output: JsonOption = False,
    hard_seconds: Annotated[float | None, typer.Option(
        "--hard-seconds",
        help="Time budget per hard move, in seconds. Results then depend on machine speed and "
             "load, and differ from run to run.", show_default=False)] = None,
    hard_iterations: Annotated[int | None, typer.Option(
        "--hard-iterations", min=1,
        help=f"Search iterations per hard move (reproducible on any machine). Default: "
             f"{DEFAULT_HARD_LIMIT.iterations}, unless --hard-seconds is given.",
        show_default=False)] = None,
    openspiel_simulations: Annotated[int, typer.Option(
        "--openspiel-simulations", min=1,
        help="Simulations per openspiel-ismcts move (reproducible on any machine).")
    ] = DEFAULT_OPENSPIEL_SIMULATIONS,
    learned_checkpoint: Annotated[Path | None, typer.Option(
        "--learned-checkpoint", metavar="FILE",
        help="The checkpoint plain learned entrants play (made by 'mattis train'). Default: the one "
             "shipped with mattis. learned:FILE.npz in --bots gives one entrant a checkpoint of its own.",
        show_default=False)] = None,
    backend: BackendOption = BackendChoice.LOCAL,
    address: AddressOption = None,
    action_cap: ActionCapOption = DEFAULT_ACTION_CAP,
    lang: LangOption = None,
) -> None:
    """Play bots against each other, every deal in every seating, and compare how often each is Mattis."""
    chosen = language(lang)
    resolved = rules_or_exit(rules, sets)
    try:
        levels = parse_entrants(bots, chosen)
    except UsageFailure as error:
        fail(str(error))
    seats = players if players is not None else len(levels)
    try:
        check_players(resolved, seats)
    except ValueError as error:
        fail(for_option("--players", error) if players is not None else str(error))
    if len(levels) != seats:
        fail(f"--bots: need one level per seat ({seats}), got {len(levels)} in {quote(bots)}")
    checkpoint = None if learned_checkpoint is None else str(learned_checkpoint)
    if checkpoint is not None:
        if LEARNED not in levels:
            fail("--learned-checkpoint: no learned entrant to play it; add learned to --bots")
        try:
            check_checkpoint(checkpoint)
        except ValueError as error:
            fail(for_option("--learned-checkpoint", error))
    if hard_seconds is not None and not hard_seconds > 0:  # `not >` also catches nan
        fail(f"--hard-seconds: must be positive, got {hard_seconds}")
    if hard_seconds is None and hard_iterations is None:
        limit = DEFAULT_HARD_LIMIT
    else:
        limit = Limit(seconds=hard_seconds, iterations=hard_iterations)

    with open_backend(backend, workers, address) as runner:
        result = _run(resolved, seats, levels, games=games, seed=seed, limit=limit, action_cap=action_cap,
                      openspiel_simulations=openspiel_simulations, backend=runner, lang=chosen,
                      learned_checkpoint=checkpoint)
    base = Rules.preset(rules)
    if json_output:
        data = result.to_dict()
        data["base_preset"] = base.preset_name
        data["house_rules"] = {field: ours for field, (ours, _) in resolved.differences(base).items()}
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    out = console()
    for part in _summary(result, base, chosen):
        out.print(part)


def _run(rules: Rules, players: int, levels: list[str], *, games: int, seed: int, limit: Limit,
         action_cap: int, openspiel_simulations: int, backend: Backend, lang: Lang,
         learned_checkpoint: str | None = None) -> TournamentResult:
    """Play the tournament, with progress on stderr (its total known from the start)."""
    with progress_bar(t("tournament.progress", lang), total=planned_games(games, players)) as update:
        return run_tournament(rules, players, levels, games, seed=seed, hard_limit=limit,
                              action_cap=action_cap, progress=update, backend=backend,
                              openspiel_simulations=openspiel_simulations,
                              learned_checkpoint=learned_checkpoint)


def _milliseconds(seconds: float, lang: Lang) -> str:
    """Thinking time with as many decimals as its size needs: ``0.03 ms``, ``212 ms``."""
    value = seconds * 1000
    decimals = 2 if value < 10 else 1 if value < 100 else 0
    return f"{format_number(value, lang, decimals)} ms"


def _interval(low: float, high: float, lang: Lang) -> str:
    """``45.5–78.8%``: the percent sign once, so the column stays narrow."""
    return percent_text(f"{format_number(low * 100, lang, 1)}–{format_number(high * 100, lang, 1)}", lang)


def _standings_table(title: str, first_column: str, rows: tuple[Standing, ...], lang: Lang) -> Table:
    """One row per entrant (or level). Headers may wrap but figures never do, so the table
    stays readable in an 80-column terminal. Capped games are not a column: every entrant
    plays every game, so the heading's one count is each entrant's."""
    searching = any(row.decisions.iterations_per_second is not None for row in rows)
    columns = [(first_column, "cyan"), (t("tournament.games", lang), ""), (t("tournament.mattis", lang), ""),
               (t("tournament.mattis_rate", lang), "bold"), (t("tournament.ci", lang), "dim"),
               (t("tournament.mean_place", lang), ""), (t("tournament.rating", lang), "bold"),
               (t("tournament.p95", lang), "")]
    if searching:
        columns.append((t("tournament.iterations_per_second", lang), "dim"))
    body: list[list[str]] = []
    for row in rows:
        cells = [
            row.name,
            format_number(row.games, lang),
            format_number(row.mattis, lang),
            format_percent(row.mattis_rate, lang),
            _interval(row.mattis_low, row.mattis_high, lang),
            format_number(row.mean_place, lang, 2),
            format_number(row.rating.ordinal, lang, 1),
            _milliseconds(row.decisions.seconds_p95, lang),
        ]
        if searching:
            per_second = row.decisions.iterations_per_second
            cells.append("–" if per_second is None else format_number(per_second, lang))
        body.append(cells)
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=True)
    for position, (header, style) in enumerate(columns):
        widest = max(len(cells[position]) for cells in body)
        table.add_column(header, style=style, justify="left" if position == 0 else "right",
                         min_width=widest)
    for cells in body:
        table.add_row(*cells)
    return table


def _points(value: float, lang: Lang) -> str:
    """A difference of rates in percentage points, signed: ``+2.1``, ``−0.4``."""
    text = format_number(abs(value) * 100, lang, 1)
    return ("−" if value < 0 and text.strip("0,.") else "+") + text


def _differences_table(result: TournamentResult, lang: Lang) -> Table:
    """One row per pair of entrants: their Mattis rates' difference, paired by deal."""
    table = Table(title=t("tournament.pairs_table", lang), title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, collapse_padding=True)
    table.add_column(t("tournament.pair", lang), style="cyan")
    table.add_column(t("tournament.difference", lang), style="bold", justify="right")
    table.add_column(t("tournament.ci", lang), style="dim", justify="right")
    for pair in result.differences:
        interval = f"{_points(pair.low, lang)} … {_points(pair.high, lang)}"
        table.add_row(f"{pair.first} − {pair.second}", _points(pair.difference, lang), interval)
    return table


def _summary(result: TournamentResult, base: Rules, lang: Lang) -> list[Table | Text]:
    """The heading, the standings and their legend, as rich renderables."""
    preset = base.preset_name or "?"
    heading = Text(t("tournament.title", lang, preset=preset, players=result.players,
                     games=format_number(result.games, lang), seed=result.seed), style="bold")
    setup = "tournament.setup" if result.design.design == ALL_PERMUTATIONS else "tournament.setup_balanced"
    per_deal = format_number(result.design.games_per_deal, lang)
    heading.append("\n" + t(setup, lang, deals=format_number(result.deals, lang), per_deal=per_deal,
                            workers=result.workers), style="dim")
    if result.games != result.games_requested:
        heading.append("\n" + t("tournament.rounded", lang, per_deal=per_deal,
                                requested=format_number(result.games_requested, lang),
                                games=format_number(result.games, lang)), style="yellow")
    changes = result.rules.differences(base)
    if changes:
        listed = ", ".join(f"{field}={ours}" for field, (ours, _) in changes.items())
        heading.append("\n" + t("tournament.changed", lang, changes=listed), style="yellow")
    limit = result.hard_limit
    if "hard" in result.bots and limit is not None:
        if limit.seconds is None:
            iterations = format_number(limit.iterations or 0, lang)
            line = t("tournament.hard_iterations", lang, iterations=iterations)
        elif limit.iterations is None:
            line = t("tournament.hard_seconds", lang, seconds=format_number(limit.seconds, lang, 2))
        else:
            line = t("tournament.hard_both", lang, iterations=format_number(limit.iterations, lang),
                     seconds=format_number(limit.seconds, lang, 2))
        heading.append("\n" + line, style="dim" if limit.seconds is None else "yellow")
    if result.openspiel_simulations is not None:
        heading.append("\n" + t("tournament.openspiel", lang,
                                simulations=format_number(result.openspiel_simulations, lang)), style="dim")
    if result.backend == "ray":
        heading.append("\n" + t("tournament.ray", lang, workers=result.workers), style="dim")
    heading.append("\n" + t("tournament.time", lang, seconds=format_number(result.seconds, lang, 1),
                            rate=format_number(result.games_per_second, lang, 1)), style="dim")
    if result.capped_games:
        heading.append("\n" + t("tournament.capped", lang, count=format_number(result.capped_games, lang),
                                cap=format_number(result.action_cap, lang)), style="bold red")
    else:
        heading.append("\n" + t("tournament.capped_none", lang), style="dim")

    parts: list[Table | Text] = [heading, Text()]
    parts.append(_standings_table(t("tournament.table", lang), t("tournament.bot", lang),
                                  result.standings, lang))
    if len(result.levels) < len(result.standings):
        parts.append(_standings_table(t("tournament.levels_table", lang), t("tournament.level", lang),
                                      result.levels, lang))
        parts.append(Text(t("tournament.levels_note", lang), style="dim"))
    parts.append(Text(t("tournament.legend", lang), style="dim"))
    if result.differences:
        parts.append(Text())
        parts.append(_differences_table(result, lang))
        parts.append(Text(t("tournament.pairs_note", lang), style="dim"))
    return parts
