"""``mattis bench``: how fast the rules engine plays (playouts, copy, apply, legal moves)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..i18n import format_number, t
from ..tools.bench import run_benchmarks
from .common import JsonOption, LangOption, console, language, progress_bar


def bench_command(
    *,
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
    chosen = language(lang)
    run_count = runs if runs is not None else (2 if quick else 5)
    games_per_run = games if games is not None else (10 if quick else 100)
    micro_repeats, micro_games = (3, 5) if quick else (7, 20)
    with progress_bar(t("bench.progress", chosen), time_remaining=False) as update:
        report = run_benchmarks(runs=run_count, games_per_run=games_per_run, progress=update,
                                micro_repeats=micro_repeats, micro_games=micro_games)
    if json_output:
        sys.stdout.write(json.dumps(report.to_dict()) + "\n")
        return

    out = console()
    heading = Text(t("bench.title", chosen), style="bold")
    python = f"{report.implementation} {report.python} ({report.build})"
    heading.append("\n" + t("bench.system", chosen, python=python, platform=report.platform), style="dim")
    heading.append("\n" + t("bench.settings", chosen, runs=report.runs, games=report.games_per_run),
                   style="dim")
    out.print(heading)

    def thousands(value: float) -> str:
        return format_number(value / 1000, chosen) + "k"

    playouts = Table()
    playouts.add_column(t("bench.case", chosen))
    playouts.add_column(t("bench.path", chosen))
    playouts.add_column(t("bench.games_per_second", chosen), justify="right")
    playouts.add_column(t("bench.actions_per_second", chosen), justify="right")
    playouts.add_column(t("bench.range", chosen), justify="right", style="dim")
    for case in report.cases:
        label = f"{case.preset} {case.players}p"
        for path, figures in (("bench.checked", case.checked), ("bench.unchecked", case.unchecked)):
            playouts.add_row(
                label, t(path, chosen),
                format_number(figures.games_per_second, chosen),
                thousands(figures.actions_per_second),
                f"{thousands(figures.actions_per_second_min)}–{thousands(figures.actions_per_second_max)}",
            )
            label = ""
    out.print(playouts)
    out.print(t("bench.paths", chosen), style="dim")

    micro = Table(title=t("bench.micro_title", chosen), title_justify="left")
    micro.add_column(t("bench.case", chosen))
    micro.add_column(t("bench.states", chosen), justify="right")
    micro.add_column(t("bench.copy", chosen), justify="right")
    micro.add_column(t("bench.copy_apply", chosen), justify="right")
    micro.add_column(t("bench.legal", chosen), justify="right")
    for case in report.cases:
        micro.add_row(f"{case.preset} {case.players}p", str(case.states),
                      format_number(case.copy_us, chosen, 2),
                      format_number(case.copy_apply_us, chosen, 2),
                      format_number(case.legal_actions_us, chosen, 2))
    out.print(micro)
    out.print(t("bench.copy_apply_note", chosen), style="dim")
