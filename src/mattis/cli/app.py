"""The ``mattis`` command: rule tables, random-play statistics and engine benchmarks.

A thin layer: it parses arguments, calls the rules core and :mod:`mattis.tools`, and
presents their results with rich in Norwegian or English (:mod:`mattis.i18n`). Bad input
ends the program with exit code 2 and one ``error: ...`` line on stderr — never a
traceback — so the command is pleasant by hand and predictable in scripts.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

# typer vendors click; its exception classes are only importable from there.
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from ..core import PRESET_NAMES, Rules
from ..i18n import (
    OPTION_RULE_REFS,
    Lang,
    detect_lang,
    format_number,
    format_percent,
    lost_on_empty_name,
    option_description,
    option_name,
    option_value,
    preset_summary,
    t,
)
from ..tools.bench import run_benchmarks
from ..tools.simulate import DEFAULT_ACTION_CAP, SimulationStats, simulate

USAGE_ERROR = 2
"""Exit code for bad input, the same code click uses for usage errors."""


class UsageFailure(Exception):
    """Bad input found by a command; :func:`_fail` turns it into one stderr line."""


class _OneLineErrorsGroup(TyperGroup):
    """Reports every usage error, typer's own included, as one ``error:`` line.

    typer's default draws a multi-line rich panel; scripts and people both read a single
    line more easily, and the tests can hold every error path to the same shape.
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            result = super().main(args=args, prog_name=prog_name or "mattis", complete_var=complete_var,
                                  standalone_mode=False, windows_expand_args=windows_expand_args, **extra)
        except NoArgsIsHelpError as error:  # bare `mattis`: show the help, which is not an error
            message = error.format_message()
            if message:
                sys.stdout.write(message + "\n")
            result = 0
        except ClickException as error:
            hint = ""
            if isinstance(error, UsageError) and error.ctx is not None:
                hint = f" (see '{error.ctx.command_path} --help')"
            message = " ".join(error.format_message().split())
            sys.stderr.write(f"error: {message}{hint}\n")
            result = error.exit_code
        except typer.Abort:
            sys.stderr.write("error: aborted\n")
            result = 1
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)


app = typer.Typer(
    name="mattis",
    cls=_OneLineErrorsGroup,
    help="Mattis, the Norwegian card game: rules, random-play statistics and benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class LangChoice(StrEnum):
    """The ``--lang`` values."""

    NB = "nb"
    EN = "en"


LangOption = Annotated[
    LangChoice | None,
    typer.Option(
        "--lang",
        case_sensitive=False,
        help="Output language: nb (Norwegian bokmål) or en. Default: from LC_ALL, LC_MESSAGES or LANG.",
        show_default=False,
    ),
]
SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        metavar="FIELD=VALUE",
        help="Change one rule option (repeatable), e.g. --set min_sequence=3. See 'mattis rules'.",
        show_default=False,
    ),
]
ActionCapOption = Annotated[int, typer.Option(
    "--action-cap", min=1,
    help="Stop a game after this many actions; such games are counted as capped.")]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON object on stdout instead of tables.")
]


def _lang(choice: LangChoice | None) -> Lang:
    if choice is None:
        return detect_lang()
    return "nb" if choice is LangChoice.NB else "en"


def _fail(message: str) -> NoReturn:
    """End the command with one ``error:`` line on stderr and exit code 2."""
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(USAGE_ERROR)


def _parse_sets(items: Sequence[str] | None) -> dict[str, str]:
    """``["min_sequence=3", ...]`` as ``{"min_sequence": "3"}``; a later repeat wins."""
    changes: dict[str, str] = {}
    for item in items or ():
        field, sep, value = item.partition("=")
        if not sep or not field.strip():
            raise UsageFailure(f"--set: expected field=value, got {item!r}")
        changes[field.strip()] = value.strip()
    return changes


def _resolve_rules(preset: str, sets: Sequence[str] | None) -> Rules:
    """The preset with ``--set`` changes applied; ``ValueError`` names what is wrong."""
    rules = Rules.preset(preset)
    changes = _parse_sets(sets)
    if not changes:
        return rules
    known = set(Rules.option_names())
    for field in changes:
        if field not in known:
            options = ", ".join(Rules.option_names())
            raise UsageFailure(f"--set: unknown option {field!r}; options are: {options}")
    return rules.with_options(**changes)


def _rules_or_exit(preset: str, sets: Sequence[str] | None) -> Rules:
    """:func:`_resolve_rules`, ending the command with one error line on bad input."""
    try:
        return _resolve_rules(preset, sets)
    except (ValueError, UsageFailure) as error:
        _fail(str(error))


def _rules_label(preset: str, rules: Rules) -> str:
    """``pagat``, or ``pagat with --set`` when house rules changed it (for error messages)."""
    base = Rules.preset(preset)
    name = base.preset_name or preset
    return name if rules == base else f"{name} with --set"


def _console(stderr: bool = False) -> Console:
    # Created per command so test runners that swap sys.stdout see the output.
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


# ---------------------------------------------------------------------------- rules


def _option_cell(field: str, lang: Lang, detailed: bool = True) -> Text:
    cell = Text(option_name(field, lang), style="bold")
    if detailed:  # the side-by-side table has no room for the explanation
        cell.append(f" · {OPTION_RULE_REFS[field]}", style="dim")
        cell.append("\n" + option_description(field, lang), style="dim")
    return cell


def _rules_table(name: str, rules: Rules, lang: Lang) -> Table:
    base = Rules.preset(name)
    changed = rules.differences(base)
    title_key = "rules.title_house" if changed else "rules.title"
    table = Table(title=t(title_key, lang, preset=base.preset_name or name),
                  caption=preset_summary(base.preset_name or name, lang), show_lines=False)
    table.add_column(t("rules.field", lang), style="cyan", no_wrap=True)
    table.add_column(t("rules.option", lang))
    table.add_column(t("rules.value", lang))
    values = rules.to_dict()
    for field in Rules.option_names():
        value = Text(option_value(field, values[field], lang),
                     style="bold yellow" if field in changed else "")
        table.add_row(field, _option_cell(field, lang), value)
    return table


def _compare_table(lang: Lang) -> Table:
    table = Table(title=t("rules.compare_title", lang), caption=t("rules.compare_footer", lang))
    table.add_column(t("rules.field", lang), style="cyan", no_wrap=True)
    table.add_column(t("rules.option", lang))
    dicts = {name: Rules.preset(name).to_dict() for name in PRESET_NAMES}
    for name in PRESET_NAMES:
        table.add_column(name)
    reference = dicts[PRESET_NAMES[0]]
    for field in Rules.option_names():
        cells = [
            Text(option_value(field, dicts[name][field], lang),
                 style="bold yellow" if dicts[name][field] != reference[field] else "")
            for name in PRESET_NAMES
        ]
        table.add_row(field, _option_cell(field, lang, detailed=False), *cells)
    return table


@app.command("rules")
def rules_command(
    preset: Annotated[str, typer.Argument(help="Preset to show: pagat, kortregler or app.")] = "pagat",
    compare: Annotated[bool, typer.Option("--all", "-a", help="Compare all presets side by side.")] = False,
    sets: SetOption = None,
    lang: LangOption = None,
) -> None:
    """Show a preset's rule options (field, meaning, value)."""
    language = _lang(lang)
    console = _console()
    if compare:
        if sets:
            _fail("--set cannot be combined with --all")
        console.print(_compare_table(language))
        return
    rules = _rules_or_exit(preset, sets)
    console.print(_rules_table(preset.strip().lower(), rules, language))
    console.print(t("rules.footer", language), style="dim")


# ---------------------------------------------------------------------------- simulate


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


@app.command("simulate")
def simulate_command(
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help="Preset to start from: pagat, kortregler or app.")] = "pagat",
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Number of players. Default: 3, or the rules' minimum if higher.",
        show_default=False)] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed; the same seed gives the same games.")] = 1,
    sets: SetOption = None,
    json_output: JsonOption = False,
    action_cap: ActionCapOption = DEFAULT_ACTION_CAP,
    lang: LangOption = None,
) -> None:
    """Play random-legal-move games and report how they went."""
    language = _lang(lang)
    resolved = _rules_or_exit(rules, sets)
    base = Rules.preset(rules)
    seats = players if players is not None else min(max(3, resolved.min_players), resolved.max_players)
    if not resolved.allows_players(seats):
        _fail(f"players: {_rules_label(rules, resolved)} allows "
              f"{resolved.min_players}-{resolved.max_players} players, got {seats}")
    stats = _run_simulation(resolved, seats, games, seed, action_cap,
                            show_progress=not json_output and sys.stderr.isatty(), lang=language)
    if json_output:
        data = stats.to_dict()
        data["base_preset"] = base.preset_name
        data["house_rules"] = {field: ours for field, (ours, _) in resolved.differences(base).items()}
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    console = _console()
    for part in _simulation_summary(stats, base.preset_name or rules, language):
        console.print(part)


def _run_simulation(rules: Rules, players: int, games: int, seed: int, action_cap: int,
                    show_progress: bool, lang: Lang) -> SimulationStats:
    if not show_progress:
        return simulate(rules, players, games, seed, action_cap)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=_console(stderr=True), transient=True) as bar:
        task = bar.add_task(t("sim.progress", lang), total=games)

        def advance(done: int) -> None:
            if done % 25 == 0 or done == games:
                bar.update(task, completed=done)

        return simulate(rules, players, games, seed, action_cap, progress=advance)


# ---------------------------------------------------------------------------- bench


@app.command("bench")
def bench_command(
    json_output: JsonOption = False,
    runs: Annotated[int | None, typer.Option(
        "--runs", min=1, help="Runs per case; figures are the median. Default: 5 (2 with --quick).",
        show_default=False)] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", min=1, help="Games per run. Default: 100 (10 with --quick).",
        show_default=False)] = None,
    quick: Annotated[bool, typer.Option("--quick", help="A fast, rough run (for smoke tests).")] = False,
    lang: LangOption = None,
) -> None:
    """Time random playouts and copy/apply/legal-move calls on one core."""
    language = _lang(lang)
    run_count = runs if runs is not None else (2 if quick else 5)
    games_per_run = games if games is not None else (10 if quick else 100)
    micro_repeats, micro_games = (3, 5) if quick else (7, 20)
    show_progress = not json_output and sys.stderr.isatty()

    if show_progress:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      console=_console(stderr=True), transient=True) as bar:
            task = bar.add_task(t("bench.progress", language), total=None)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            report = run_benchmarks(runs=run_count, games_per_run=games_per_run, progress=advance,
                                    micro_repeats=micro_repeats, micro_games=micro_games)
    else:
        report = run_benchmarks(runs=run_count, games_per_run=games_per_run,
                                micro_repeats=micro_repeats, micro_games=micro_games)
    if json_output:
        sys.stdout.write(json.dumps(report.to_dict()) + "\n")
        return

    console = _console()
    heading = Text(t("bench.title", language), style="bold")
    heading.append("\n" + t("bench.system", language, python=f"{report.implementation} {report.python}",
                            platform=report.platform), style="dim")
    heading.append("\n" + t("bench.settings", language, runs=report.runs, games=report.games_per_run),
                   style="dim")
    console.print(heading)

    def thousands(value: float) -> str:
        return format_number(value / 1000, language) + "k"

    playouts = Table()
    playouts.add_column(t("bench.case", language))
    playouts.add_column(t("bench.path", language))
    playouts.add_column(t("bench.games_per_second", language), justify="right")
    playouts.add_column(t("bench.actions_per_second", language), justify="right")
    playouts.add_column(t("bench.range", language), justify="right", style="dim")
    for case in report.cases:
        label = f"{case.preset} {case.players}p"
        for path, figures in (("bench.checked", case.checked), ("bench.unchecked", case.unchecked)):
            playouts.add_row(
                label, t(path, language),
                format_number(figures.games_per_second, language),
                thousands(figures.actions_per_second),
                f"{thousands(figures.actions_per_second_min)}–{thousands(figures.actions_per_second_max)}",
            )
            label = ""
    console.print(playouts)
    console.print(t("bench.paths", language), style="dim")

    micro = Table(title=t("bench.micro_title", language), title_justify="left")
    micro.add_column(t("bench.case", language))
    micro.add_column(t("bench.states", language), justify="right")
    micro.add_column(t("bench.copy", language), justify="right")
    micro.add_column(t("bench.copy_apply", language), justify="right")
    micro.add_column(t("bench.legal", language), justify="right")
    for case in report.cases:
        micro.add_row(f"{case.preset} {case.players}p", str(case.states),
                      format_number(case.copy_us, language, 2),
                      format_number(case.copy_apply_us, language, 2),
                      format_number(case.legal_actions_us, language, 2))
    console.print(micro)
    console.print(t("bench.copy_apply_note", language), style="dim")


# ---------------------------------------------------------------------------- more commands
# Commands kept in their own modules register themselves on ``app`` when imported here,
# after everything they share from this module is defined. One import line per module.
# (registration block: start)
from . import play as _play  # noqa: E402, F401
from . import serve as _serve  # noqa: E402, F401
from . import tournament as _tournament  # noqa: E402, F401

# (registration block: end)


def main() -> None:
    """Run the ``mattis`` command (the console script's entry point)."""
    app()


if __name__ == "__main__":
    # Run as a script this file is ``__main__``, a second copy of the module: hand over to
    # the imported ``mattis.cli.app``, on whose ``app`` every command registered itself.
    from mattis.cli.app import main as _main

    _main()
