"""``mattis solve``: CFR+ on Mini Mattis, NashConv over its iterations, and the
exploitability of each of our levels there (the ``rl`` extra; :mod:`mattis.envs.solve`).

Progress goes to stderr, so ``--json`` leaves stdout one JSON object.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.table import Table

from ..extras import missing_modules, needs_extra
from ..i18n import format_number, t
from .common import JsonOption, LangOption, console, fail, help_text, language, progress_bar

MINI_ONLY = "mini"


def solve_command(
    *,
    rules: Annotated[str, typer.Option(
        "--rules", "-r", help=help_text("solve.help.rules", "en"))] = MINI_ONLY,
    iterations: Annotated[int, typer.Option(
        "--iterations", "-n", min=1, max=100_000, help=help_text("solve.help.iterations", "en"))] = 20,
    levels: Annotated[str, typer.Option(
        "--levels", help=help_text("solve.help.levels", "en"))] = "random,easy,normal,hard:20",
    max_actions: Annotated[int | None, typer.Option(
        "--max-actions", min=1, max=40, help=help_text("solve.help.max_actions", "en"),
        show_default=False)] = None,
    deals: Annotated[int | None, typer.Option(
        "--deals", min=1, help=help_text("solve.help.deals", "en"), show_default=False)] = None,
    json_output: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """Solve Mini Mattis with CFR+: NashConv over the iterations, then each level's."""
    chosen = language(lang)
    if rules.strip().lower() != MINI_ONLY:
        fail(t("solve.only_mini", chosen, rules=rules))
    if missing_modules("rl"):
        fail(needs_extra("mattis solve", "rl"))
    from ..envs.openspiel import MINI_MAX_ACTIONS
    from ..envs.solve import parse_levels, solve_mini

    try:
        chosen_levels = parse_levels(levels)
    except ValueError as error:
        fail(str(error))
    if "learned" in chosen_levels:
        fail(t("solve.no_learned", chosen))
    with progress_bar(t("solve.progress", chosen)) as update:
        report = solve_mini(iterations, levels=chosen_levels, max_actions=max_actions or MINI_MAX_ACTIONS,
                            progress=update, deals=deals)
    if json_output:
        sys.stdout.write(json.dumps(report.to_dict()) + "\n")
        return
    out = console()
    out.print(t("solve.title", chosen, states=report.info_states, cap=report.max_actions))
    curve = Table(title=t("solve.curve", chosen))
    curve.add_column(t("solve.iteration", chosen), justify="right")
    curve.add_column("NashConv", justify="right")
    for iteration, value in report.curve:
        curve.add_row(str(iteration), format_number(round(value, 4), chosen))
    out.print(curve)
    table = Table(title=t("solve.levels", chosen))
    table.add_column(t("solve.level", chosen))
    table.add_column("NashConv", justify="right")
    for level, value in report.levels:
        table.add_row(level, format_number(round(value, 4), chosen))
    out.print(table)
    out.print(t("solve.learned_note", chosen))
    out.print(t("solve.time", chosen, seconds=format_number(round(report.cpu_seconds, 1), chosen)))
