"""``mattis rules``: a preset's rule options as a table (each with the field name and the
values ``--set`` accepts), the three presets side by side, or the full rules text that ships
with the package (``--full``)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..core import PRESET_NAMES, Rules
from ..core.rules import RULE_OPTIONS
from ..frontend.rules_text import full_rules
from ..i18n import (
    Lang,
    option_description,
    option_name,
    option_value,
    preset_summary,
    t,
)
from .common import LangOption, SetOption, console, fail, language, rules_or_exit


def _option_cell(field: str, lang: Lang, detailed: bool = True) -> Text:
    option = RULE_OPTIONS[field]
    cell = Text(option_name(option.text, lang), style="bold")
    if detailed:  # the side-by-side table has no room for the explanation
        cell.append(f" · {option.rule}", style="dim")
        cell.append("\n" + option_description(option.text, lang), style="dim")
    return cell


def allowed_values(field: str) -> str:
    """What ``--set field=…`` accepts, as typed: ``all, pair`` or ``0–10``."""
    choices = RULE_OPTIONS[field].choices
    if len(choices) > 4 and all(choice.isdigit() for choice in choices):
        return f"{choices[0]}–{choices[-1]}"
    return ", ".join(choices)


def house_caption(name: str, rules: Rules, lang: Lang) -> str:
    """The table's caption: the preset in one line, or, with house rules, what was changed
    (the preset's own summary would describe the options before the change)."""
    base = Rules.preset(name)
    changed = rules.differences(base)
    preset = base.preset_name or name
    if not changed:
        return preset_summary(preset, lang)
    values = rules.to_dict()
    texts = {field: RULE_OPTIONS[field].text for field in changed}
    changes = "; ".join(
        t("rules.changed_one", lang, option=option_name(texts[field], lang),
          value=option_value(texts[field], values[field], lang), was=option_value(texts[field], old, lang))
        for field, (_, old) in changed.items())
    return t("rules.caption_house", lang, preset=preset, changes=changes)


def _rules_table(name: str, rules: Rules, lang: Lang) -> Table:
    base = Rules.preset(name)
    changed = rules.differences(base)
    title_key = "rules.title_house" if changed else "rules.title"
    table = Table(title=t(title_key, lang, preset=base.preset_name or name),
                  caption=house_caption(name, rules, lang), show_lines=False)
    table.add_column(t("rules.field", lang), style="cyan", no_wrap=True)
    table.add_column(t("rules.option", lang))
    table.add_column(t("rules.value", lang))
    table.add_column(t("rules.allowed", lang), style="cyan")
    values = rules.to_dict()
    for field, option in RULE_OPTIONS.items():
        value = Text(option_value(option.text, values[field], lang),
                     style="bold yellow" if field in changed else "")
        table.add_row(field, _option_cell(field, lang), value, allowed_values(field))
    return table



def _compare_table(lang: Lang) -> Table:
    table = Table(title=t("rules.compare_title", lang), caption=t("rules.compare_footer", lang))
    table.add_column(t("rules.field", lang), style="cyan", no_wrap=True)
    table.add_column(t("rules.option", lang))
    dicts = {name: Rules.preset(name).to_dict() for name in PRESET_NAMES}
    for name in PRESET_NAMES:
        table.add_column(name)
    reference = dicts[PRESET_NAMES[0]]
    for field, option in RULE_OPTIONS.items():
        cells = [
            Text(option_value(option.text, dicts[name][field], lang),
                 style="bold yellow" if dicts[name][field] != reference[field] else "")
            for name in PRESET_NAMES
        ]
        table.add_row(field, _option_cell(field, lang, detailed=False), *cells)
    return table


def rules_command(
    *,
    preset: Annotated[str, typer.Argument(help="Preset to show: pagat, kortregler or app.")] = "pagat",
    compare: Annotated[bool, typer.Option("--all", "-a", help="Compare all presets side by side.")] = False,
    full: Annotated[bool, typer.Option(
        "--full", help="Print the full rules of the game (in the --lang language).")] = False,
    sets: SetOption = None,
    lang: LangOption = None,
) -> None:
    """Show a preset's rule options and the values --set accepts, or the full rules (--full)."""
    chosen = language(lang)
    out = console()
    if full:
        if compare or sets:
            fail("--full cannot be combined with --all or --set")
        from rich.markdown import Markdown  # only here: it costs a tenth of the start-up

        out.print(Markdown(full_rules(chosen)))
        return
    if compare:
        if sets:
            fail("--set cannot be combined with --all")
        out.print(_compare_table(chosen))
        return
    rules = rules_or_exit(preset, sets)
    out.print(_rules_table(preset.strip().lower(), rules, chosen))
    out.print(t("rules.footer", chosen), style="dim")
