"""``mattis rules``: a preset's rule options as a table, or the three presets side by side."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..core import PRESET_NAMES, Rules
from ..i18n import (
    OPTION_RULE_REFS,
    Lang,
    option_description,
    option_name,
    option_value,
    preset_summary,
    t,
)
from .common import LangOption, SetOption, console, fail, language, rules_or_exit


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


def rules_command(
    preset: Annotated[str, typer.Argument(help="Preset to show: pagat, kortregler or app.")] = "pagat",
    compare: Annotated[bool, typer.Option("--all", "-a", help="Compare all presets side by side.")] = False,
    sets: SetOption = None,
    lang: LangOption = None,
) -> None:
    """Show a preset's rule options (field, meaning, value)."""
    chosen = language(lang)
    out = console()
    if compare:
        if sets:
            fail("--set cannot be combined with --all")
        out.print(_compare_table(chosen))
        return
    rules = rules_or_exit(preset, sets)
    out.print(_rules_table(preset.strip().lower(), rules, chosen))
    out.print(t("rules.footer", chosen), style="dim")
