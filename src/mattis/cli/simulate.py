"""``mattis simulate``: random-legal-move games and how they went (speed, losers, lengths)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..bots import DEFAULT_ACTION_CAP
from ..core import Rules
from ..i18n import Lang, format_number, format_percent, lost_on_empty_name, t
from ..tools.backends import Backend
from ..tools.simulate import SimulationStats, simulate
from .common import (
    ActionCapOption,
    JsonOption,
    LangOption,
    SetOption,
    check_players,
    console,
    fail,
    for_option,
    language,
    parse_seed,
    progress_bar,
    rules_or_exit,
)
from .tournament import MAX_WORKERS, AddressOption, BackendChoice, BackendOption, open_backend


def _simulation_summary(stats: SimulationStats, preset: str, lang: Lang) -> list[Table | Text]:
    """The figures a curious player asks about, as rich renderables."""
    base = Rules.preset(preset)
    changes = stats.rules.differences(base)
    parts: list[Table | Text] = []
    heading = Text(t("sim.title", lang, preset=preset, players=stats.players,
                     games=format_number(stats.games, lang), seed=stats.seed), style="bold")
    heading.append("\n" + t("sim.random_play", lang), style="dim")
    if changes:
        listed = ", ".join(f"{field}={ours}" for field, (ours, _) in changes.items())
        heading.append("\n" + t("sim.changed", lang, changes=listed), style="yellow")
    parts.append(heading)

    parts.append(Text())
    figures = Table.grid(padding=(0, 3))
    figures.add_column(style="bold")
    figures.add_column()
    seconds = format_number(stats.seconds, lang, 2)
    figures.add_row(t("sim.time", lang), t("sim.seconds", lang, seconds=seconds))
    figures.add_row(t("sim.games_per_second", lang), format_number(stats.games_per_second, lang))
    figures.add_row(t("sim.actions_per_second", lang), format_number(stats.actions_per_second, lang))
    if stats.finished_games:
        figures.add_row(t("sim.actions_per_game", lang), t(
            "sim.actions_per_game_value", lang,
            mean=format_number(stats.actions_mean, lang, 1),
            median=format_number(stats.actions_median, lang, 1 if stats.actions_median % 1 else 0),
            min=format_number(stats.actions_min, lang), max=format_number(stats.actions_max, lang)))
        figures.add_row(t("sim.phase1_actions", lang), format_number(stats.phase1_actions_mean, lang, 1))
        figures.add_row(t("sim.phase2_actions", lang), format_number(stats.phase2_actions_mean, lang, 1))
    empty_name = lost_on_empty_name(stats.rules.nothing_left_counts)
    if stats.finished_games:
        if stats.lost_on_empty_possible:
            empty_value = t("sim.lost_on_empty_value", lang,
                            count=format_number(stats.lost_on_empty_games, lang),
                            rate=format_percent(stats.lost_on_empty_rate, lang))
        else:
            empty_value = t("sim.lost_on_empty_off", lang)
        figures.add_row(t("sim.lost_on_empty", lang, name=empty_name), empty_value)
        figures.add_row(t("sim.multi_losers", lang), format_number(stats.multi_loser_games, lang))
    if stats.longest_game is not None:
        longest = stats.longest_game
        figures.add_row(t("sim.longest", lang), t(
            "sim.longest_value", lang, actions=format_number(longest.actions, lang),
            index=longest.index, deck_seed=longest.deck_seed))
    capped_value = (t("sim.capped_value", lang, count=format_number(stats.capped_games, lang),
                      cap=format_number(stats.action_cap, lang))
                    if stats.capped_games else t("sim.none", lang))
    figures.add_row(Text(t("sim.capped", lang), style="bold red" if stats.capped_games else ""),
                    Text(capped_value, style="bold red" if stats.capped_games else ""))
    parts.append(figures)
    if stats.capped_games:
        parts.append(Text(t("sim.finished_note", lang, finished=stats.finished_games, games=stats.games),
                          style="dim"))

    if not stats.finished_games:
        parts.append(Text(t("sim.no_finished", lang), style="bold red"))
        return parts
    parts.append(Text())
    seats = Table(title=t("sim.seats_title", lang), title_justify="left")
    seats.add_column(t("sim.seat", lang), justify="right")
    seats.add_column(t("sim.mattis_count", lang), justify="right")
    seats.add_column(t("sim.mattis_rate", lang), justify="right")
    if stats.lost_on_empty_possible:
        seats.add_column(t("sim.empty_count", lang, name=empty_name), justify="right")
    seats.add_column(t("sim.mean_place", lang), justify="right")
    for seat in range(stats.players):
        row = [str(seat), format_number(stats.loser_counts[seat], lang),
               format_percent(stats.loser_rates[seat], lang)]
        if stats.lost_on_empty_possible:
            row.append(format_number(stats.lost_on_empty_counts[seat], lang))
        row.append(format_number(stats.mean_place[seat], lang, 2))
        seats.add_row(*row)
    parts.append(seats)
    parts.append(Text(t("sim.seat_note", lang), style="dim"))
    return parts


def simulate_command(
    *,
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help="Preset to start from: pagat, kortregler or app.")] = "pagat",
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Number of players. Default: 3, or the rules' minimum if higher.",
        show_default=False)] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games to play.")] = 1000,
    seed: Annotated[int, typer.Option(
        "--seed", parser=parse_seed, metavar="<int>",
        help="Seed; the same seed gives the same games.")] = 1,
    sets: SetOption = None,
    json_output: JsonOption = False,
    action_cap: ActionCapOption = DEFAULT_ACTION_CAP,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=1, max=MAX_WORKERS,
        help="Worker processes (or Ray CPUs for a local Ray instance). The games are the same for "
             "any number; games/s is then for all of them together.")] = 1,
    backend: BackendOption = BackendChoice.LOCAL,
    address: AddressOption = None,
    lang: LangOption = None,
) -> None:
    """Play random-legal-move games and report how they went."""
    chosen = language(lang)
    resolved = rules_or_exit(rules, sets)
    base = Rules.preset(rules)
    seats = players if players is not None else min(max(3, resolved.min_players), resolved.max_players)
    try:
        check_players(resolved, seats)
    except ValueError as error:
        fail(for_option("--players", error) if players is not None else str(error))
    with open_backend(backend, workers, address) as runner:
        stats = _run_simulation(resolved, seats, games=games, seed=seed, action_cap=action_cap,
                                backend=runner, lang=chosen)
    if json_output:
        data = stats.to_dict()
        data["base_preset"] = base.preset_name
        data["house_rules"] = {field: ours for field, (ours, _) in resolved.differences(base).items()}
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    out = console()
    for part in _simulation_summary(stats, base.preset_name or rules, chosen):
        out.print(part)


def _run_simulation(rules: Rules, players: int, *, games: int, seed: int, action_cap: int, backend: Backend,
                    lang: Lang) -> SimulationStats:
    """Play the games, with progress on stderr (its total known from the start)."""
    with progress_bar(t("sim.progress", lang), total=games) as update:
        return simulate(rules, players, games, seed, action_cap=action_cap,
                        progress=lambda done: update(done, None), backend=backend)
