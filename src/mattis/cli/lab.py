"""``mattis lab``: compare rule variants and house rules at every player count, and write
an HTML report with plots plus the same numbers as JSON.

Presentation only: :mod:`mattis.tools.lab` plays and counts, :mod:`mattis.tools.lab_report`
draws and writes. Every check that can fail (presets, house rules, player counts, the
output folder, matplotlib, Ray) runs before the first game, so a mistake costs a second,
not an hour of play.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from ..bots import DEFAULT_ACTION_CAP
from ..bots.entrants import check_entrant, parse_entrant
from ..core import PRESET_NAMES, Rules
from ..i18n import Lang, format_number, format_percent, t
from ..tools.backends import Backend
from ..tools.lab import (
    DEFAULT_HARD_ITERATIONS,
    ConfigurationStats,
    LabResult,
    Variant,
    lab_configurations,
    planned_lab_games,
    run_lab,
)
from ..tools.lab_report import (
    FIXED_MARK,
    MATPLOTLIB_MISSING,
    ReportError,
    check_folder,
    matplotlib_available,
    write_report,
)
from .common import (
    JsonOption,
    LangOption,
    UsageFailure,
    console,
    entrant_failure,
    fail,
    for_option,
    language,
    parse_seed,
    progress_bar,
    quote,
    resolve_rules,
)
from .tournament import (
    DEFAULT_WORKERS,
    MAX_WORKERS,
    AddressOption,
    BackendChoice,
    BackendOption,
    open_backend,
)


def parse_variants(presets: list[str] | None, sets: list[str] | None) -> list[Variant]:
    """Each preset as given, and each preset with each ``--set`` (one ``--set`` may change
    several options: ``min_sequence=3,follow_suit=true``). Duplicates are dropped."""
    names = [name.strip().lower() for text in (presets or list(PRESET_NAMES)) for name in text.split(",")]
    variants: list[Variant] = []
    seen: set[Rules] = set()
    for name in names:
        if name not in PRESET_NAMES:
            raise UsageFailure(f"--rules: unknown preset {quote(name or '(empty)')}; "
                               f"choose from {', '.join(PRESET_NAMES)}")
        candidates = [Variant(name, Rules.preset(name), name)]
        for change in sets or ():
            items = [item for item in change.split(",") if item.strip()]
            try:
                rules = resolve_rules(name, items)
            except ValueError as error:
                raise UsageFailure(for_option("--set", error)) from None
            changed = rules.differences(Rules.preset(name))
            listed = ", ".join(f"{field}={ours}" for field, (ours, _) in changed.items())
            candidates.append(Variant(f"{name} + {listed}" if listed else name, rules, name))
        for variant in candidates:
            if variant.rules not in seen:
                seen.add(variant.rules)
                variants.append(variant)
    return variants


def parse_player_counts(text: str | None) -> list[int] | None:
    """``"3,4"`` as ``[3, 4]``; ``None`` for every allowed count."""
    if text is None:
        return None
    counts = []
    for item in text.split(","):
        value = item.strip()
        if not (value.isascii() and value.isdigit() and len(value) <= 2):
            raise UsageFailure(f"--players: expected player counts such as 3,4, got {quote(text)}")
        counts.append(int(value))
    return counts


def lab_command(
    *,
    rules: Annotated[list[str] | None, typer.Option(
        "--rules", "-r", metavar="PRESET[,PRESET]",
        help="Presets to compare (repeatable or comma-separated). Default: pagat, kortregler and app.",
        show_default=False)] = None,
    sets: Annotated[list[str] | None, typer.Option(
        "--set", "-s", metavar="FIELD=VALUE[,FIELD=VALUE]",
        help="A house-rule variant of every preset (repeatable: each --set is one more variant; "
             "commas change several options in one variant). See 'mattis rules'.",
        show_default=False)] = None,
    players: Annotated[str | None, typer.Option(
        "--players", "-p", metavar="N[,N]",
        help="Player counts, comma-separated. Default: every count each variant allows.",
        show_default=False)] = None,
    games: Annotated[int, typer.Option(
        "--games", "-n", min=1, help="Games per run: each configuration plays four runs.")] = 100,
    hard_iterations: Annotated[int, typer.Option(
        "--hard-iterations", min=1,
        help="Search iterations per hard move; small, because the hard run puts hard in every seat."),
    ] = DEFAULT_HARD_ITERATIONS,
    seed: Annotated[int, typer.Option(
        "--seed", parser=parse_seed, metavar="<int>", help="Seed; the same seed gives the same games.")] = 1,
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="Folder for lab.html and lab.json (created if missing).")] = Path("mattis-lab"),
    overwrite: Annotated[bool, typer.Option(
        "--overwrite", help="Replace a report already in --out.")] = False,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=1, max=MAX_WORKERS,
        help="Worker processes (or CPUs of a local Ray instance). The games are the same for any number. "
             "Default: every CPU core.", show_default=False)] = DEFAULT_WORKERS,
    backend: BackendOption = BackendChoice.LOCAL,
    address: AddressOption = None,
    action_cap: Annotated[int, typer.Option(
        "--action-cap", min=1, help="Stop a game after this many actions; it counts as a loop.")
    ] = DEFAULT_ACTION_CAP,
    skill_bot: Annotated[str, typer.Option(
        "--skill-bot", metavar="ENTRANT",
        help="The bot of the skill run, among random players: a level (hard:200), learned:FILE.npz or "
             "module:callable, as in 'mattis tournament --bots'. Default: hard at --hard-iterations.")
    ] = "hard",
    json_output: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """Compare rule variants at every player count by random, normal and hard play; write an HTML report."""
    chosen = language(lang)
    try:
        variants = parse_variants(rules, sets)
        counts = parse_player_counts(players)
        configurations = lab_configurations(variants, counts)
    except UsageFailure as error:
        fail(str(error))
    except ValueError as error:
        fail(for_option("--players", error))
    try:
        skill_entrant = parse_entrant(skill_bot)
        check_entrant(skill_entrant)
    except ValueError as error:
        fail(entrant_failure("--skill-bot", error, chosen))
    if not matplotlib_available():
        fail(f"--out: {MATPLOTLIB_MISSING}")
    try:
        check_folder(out, overwrite)
    except ReportError as error:
        fail(f"--out: {error}")
    total = planned_lab_games(len(configurations), games)
    with open_backend(backend, workers, address) as runner:
        if not json_output:
            console(stderr=True).print(Text(t("lab.plan", chosen, configurations=len(configurations),
                                              games=format_number(games, chosen),
                                              total=format_number(total, chosen),
                                              iterations=format_number(hard_iterations, chosen)),
                                            style="dim"))
        result = _run(variants, games, seed=seed, counts=counts, hard_iterations=hard_iterations,
                      action_cap=action_cap, backend=runner, total=total, lang=chosen,
                      skill_bot=skill_entrant)
    try:
        json_path, html_path = write_report(result, out)
    except ReportError as error:
        fail(f"--out: {error}")
    if json_output:
        sys.stdout.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
        return
    output = console()
    output.print(_summary(result, chosen, output.width))
    output.print(Text(t("lab.legend", chosen), style="dim"))
    if any(configuration.skill.random_by_construction for configuration in result.configurations):
        output.print(Text(f"{FIXED_MARK} {t('lab.fixed', chosen)}", style="dim"))
    output.print(Text(t("lab.caution", chosen), style="dim"))
    output.print(t("lab.written", chosen, html=str(html_path), json=str(json_path)), markup=False)


def _run(variants: list[Variant], games: int, *, seed: int, counts: list[int] | None, hard_iterations: int,
         action_cap: int, backend: Backend, total: int, lang: Lang, skill_bot: str = "hard") -> LabResult:
    """Run the lab, with progress on stderr (its total known from the start)."""
    with progress_bar(t("lab.progress", lang), total=total) as update:
        return run_lab(variants, games, seed=seed, players=counts, hard_iterations=hard_iterations,
                       action_cap=action_cap, backend=backend, progress=update, skill_bot=skill_bot)


VARIANT_WIDTH = 16
"""Room for a house rule such as ``min_sequence=3,`` on one line; longer labels wrap."""
SUMMARY_FIGURES = ("lab.random", "lab.hard", "lab.avoided", "lab.spread", "lab.empty", "lab.loops")
"""The overview's figure columns, after the label."""


def _summary(result: LabResult, lang: Lang, width: int) -> Table:
    """One row per configuration: the headline figures of the report, the player count and
    the intervals on a second line. Each figure column is as wide as its widest figure and
    its header, or, when that does not fit ``width`` (80 columns, say), its longest header
    word, so headers wrap; the label takes the rest and wraps: nothing is cut."""
    rows = [_summary_row(configuration, lang) for configuration in result.configurations]
    headers = [t(key, lang) for key in SUMMARY_FIGURES]
    figures = [max(len(line) for row in rows for line in row[position].splitlines())
               for position in range(1, len(headers) + 1)]
    roomy = [max(figure, len(header)) for figure, header in zip(figures, headers, strict=True)]
    tight = [max([figure] + [len(word) for word in header.split()])
             for figure, header in zip(figures, headers, strict=True)]
    separators = len(headers) + 2  # one space between columns and at each edge
    widths = roomy if VARIANT_WIDTH + sum(roomy) + separators <= width else tight
    table = Table(title=t("lab.title", lang, seed=result.seed), title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, padding=0)
    table.add_column(t("lab.variant", lang), overflow="fold", min_width=VARIANT_WIDTH)
    for header, column_width in zip(headers, widths, strict=True):
        table.add_column(header, justify="right", width=column_width)
    for row in rows:
        table.add_row(*row)
    return table


def _summary_row(configuration: ConfigurationStats, lang: Lang) -> list[str]:
    """The overview's cells for one configuration."""
    skill = configuration.skill
    random_run = configuration.run("random")
    random_rate = format_percent(skill.random_overall.rate, lang)
    return [
        f"{configuration.variant.label}\n{t('lab.players', lang, players=configuration.players)}",
        f"{random_rate}{FIXED_MARK}" if skill.random_by_construction
        else f"{random_rate}\n{_span(skill.random_overall.low, skill.random_overall.high, lang)}",
        f"{format_percent(skill.hard_overall.rate, lang)}\n"
        f"{_span(skill.hard_overall.low, skill.hard_overall.high, lang)}",
        f"{_points(skill.avoided, lang)}\n"
        f"{_points(skill.paired.low, lang)}–{_points(skill.paired.high, lang)}",
        format_percent(random_run.seat_spread, lang),
        format_percent(random_run.lost_on_empty.rate, lang) if configuration.lost_on_empty_name else "–",
        format_percent(random_run.looping_games / max(1, random_run.games), lang),
    ]


def _span(low: float, high: float, lang: Lang) -> str:
    """A rate's interval in percent, ``6.1–21.9``."""
    return f"{format_number(100 * low, lang, 1)}–{format_number(100 * high, lang, 1)}"


def _points(rate: float, lang: Lang) -> str:
    """A difference of rates in signed points, ``+21.3``: signed, so a range of them reads
    without a word between (``−4.0–+9.5``)."""
    return ("+" if rate >= 0 else "−") + format_number(abs(100 * rate), lang, 1)
