"""The lab's report: one self-contained HTML page with plots, and the same numbers as JSON.

The page needs nothing but a browser: styles are inline, plots are PNGs embedded as
base64 ``data:`` images, and nothing links outside (a report mailed or archived years
later still shows everything). Plots are drawn with matplotlib's Agg canvas directly,
never through ``pyplot``, so no window system or global figure state is involved
(``pip install "mattis[lab]"``).
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..extras import install_command, installed
from ..i18n import t
from .lab import LEVEL_RUNS, RUNS, ConfigurationStats, LabResult, PairedDifference, RunStats, SeatRate

REPORT_JSON = "lab.json"
REPORT_HTML = "lab.html"
MATPLOTLIB_MISSING = f"the lab's report needs matplotlib: {install_command('lab')}"
RUN_COLOURS = {"random": "#9aa5b1", "normal": "#3b82c4", "hard": "#c4493b", "skill": "#e0a030"}
RUN_TITLES = {
    "random": "random everywhere",
    "normal": "normal everywhere",
    "hard": "hard everywhere",
    "skill": "one hard among random",
}
DPI = 90
ERROR_STYLE = {"elinewidth": 0.8, "ecolor": "#333333"}
FIXED_MARK = "*"
"""Marks a rate fixed by construction, shown without an interval (explained under the table)."""


class ReportError(RuntimeError):
    """The report cannot be written (matplotlib missing, the folder unusable); one line."""


def matplotlib_available() -> bool:
    """Whether matplotlib (the ``lab`` extra) can be imported, without importing it."""
    return installed("matplotlib")


def report_paths(folder: Path) -> tuple[Path, Path]:
    """Where :func:`write_report` puts the JSON and the HTML."""
    return folder / REPORT_JSON, folder / REPORT_HTML


def check_folder(folder: Path, overwrite: bool) -> None:
    """Refuse, before any game is played, a folder that is a file or would lose an earlier
    report (unless ``overwrite``): :class:`ReportError` saying which."""
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"{folder} exists and is not a folder")
    if not overwrite:
        for path in report_paths(folder):
            if path.exists() or path.is_symlink():
                raise ReportError(f"{path} exists; choose another --out or give --overwrite")
    for path in report_paths(folder):
        if path.is_dir():
            raise ReportError(f"{path} is a folder")


def write_report(result: LabResult, folder: Path) -> tuple[Path, Path]:
    """Write ``lab.json`` and ``lab.html`` into ``folder`` (created if missing), each
    replaced atomically, so an interrupted run never leaves half a report."""
    if not matplotlib_available():
        raise ReportError(MATPLOTLIB_MISSING)
    page = render_html(result)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        json_path, html_path = report_paths(folder)
        _write_atomically(json_path, json.dumps(result.to_dict(), ensure_ascii=False, indent=1) + "\n")
        _write_atomically(html_path, page)
    except OSError as error:
        raise ReportError(f"cannot write the report in {folder}: {error.strerror or error}") from None
    return json_path, html_path


def _write_atomically(path: Path, text: str) -> None:
    """Write to a temporary file beside ``path``, then rename it over ``path``."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, 0o644)  # a report is for reading: not mkstemp's private 0600
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------------------- plots


def _png(figure: Any) -> str:
    """The figure as a ``data:`` URI (PNG, no metadata that names a web site)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _legend_outside(axes: Any) -> None:
    """The legend right of the axes, where it can hide no bar or interval."""
    axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)


def seat_figure(configuration: ConfigurationStats) -> Any:
    """Mattis rate per seat for each level, with 95% intervals, and the fair share."""
    figure = _figure(6.4, 3.0)
    axes = figure.add_subplot()
    players = configuration.players
    width = 0.8 / len(LEVEL_RUNS)
    for offset, run in enumerate(LEVEL_RUNS):
        seats = configuration.run(run).seats
        xs = [seat.seat + (offset - 1) * width for seat in seats]
        rates = [seat.rate for seat in seats]
        errors = [[seat.rate - seat.low for seat in seats], [seat.high - seat.rate for seat in seats]]
        axes.bar(xs, rates, width, yerr=errors, capsize=2, error_kw=ERROR_STYLE, color=RUN_COLOURS[run],
                 label=RUN_TITLES[run])
    axes.axhline(1 / players, color="black", linestyle="--", linewidth=0.8, label="fair share 1/players")
    axes.set_xticks(range(players), [f"seat {seat}" for seat in range(players)])
    axes.set_ylabel("Mattis rate")
    axes.set_title(f"{configuration.variant.label}, {players} players: Mattis by seat")
    _legend_outside(axes)
    return figure


def _labels(configurations: Sequence[ConfigurationStats]) -> list[str]:
    return [f"{c.variant.label} · {c.players}p" for c in configurations]


def skill_figure(configurations: Sequence[ConfigurationStats]) -> Any:
    """Per configuration: random's and hard's Mattis rate on the same deals; random's
    without an interval where it is fixed by construction."""
    figure = _figure(7.0, 0.45 * len(configurations) + 1.2)
    axes = figure.add_subplot()
    ys = range(len(configurations))
    pairs = (("random", "random_overall"), ("hard among random", "hard_overall"))
    for offset, (name, pick) in enumerate(pairs):
        rates: list[SeatRate] = [getattr(c.skill, pick) for c in configurations]
        bar_ys = [y + (offset - 0.5) * 0.38 for y in ys]
        axes.barh(bar_ys, [r.rate for r in rates], 0.38,
                  color=RUN_COLOURS["random" if offset == 0 else "hard"], label=name)
        sampled = [(y, r) for y, r, c in zip(bar_ys, rates, configurations, strict=True)
                   if offset == 1 or not c.skill.random_by_construction]
        if sampled:
            axes.errorbar([r.rate for _, r in sampled], [y for y, _ in sampled], fmt="none", capsize=2,
                          xerr=[[r.rate - r.low for _, r in sampled], [r.high - r.rate for _, r in sampled]],
                          **ERROR_STYLE)
    axes.set_yticks(list(ys), _labels(configurations))
    axes.invert_yaxis()
    axes.set_xlabel("Mattis rate (95% interval; none on random where fixed by construction)")
    axes.set_title("How much skill matters: hard vs random on the same deals")
    _legend_outside(axes)
    return figure


def length_figure(configurations: Sequence[ConfigurationStats]) -> Any:
    """Mean actions per game, phase 1 and phase 2 stacked, per level."""
    figure = _figure(7.0, 0.55 * len(configurations) + 1.2)
    axes = figure.add_subplot()
    height = 0.8 / len(LEVEL_RUNS)
    for offset, run in enumerate(LEVEL_RUNS):
        stats = [c.run(run) for c in configurations]
        ys = [y + (offset - 1) * height for y in range(len(configurations))]
        axes.barh(ys, [s.phase1_mean for s in stats], height, color=RUN_COLOURS[run], alpha=0.55)
        axes.barh(ys, [s.phase2_mean for s in stats], height, left=[s.phase1_mean for s in stats],
                  color=RUN_COLOURS[run], label=f"{run} (light: phase 1)")
    axes.set_yticks(range(len(configurations)), _labels(configurations))
    axes.invert_yaxis()
    axes.set_xlabel("actions per finished game (mean)")
    axes.set_title("Game length: phase 1 (light) and phase 2")
    _legend_outside(axes)
    return figure


def empty_figure(configurations: Sequence[ConfigurationStats]) -> Any:
    """How often the deal ends in Blåmattis/Blodmattis, per level."""
    figure = _figure(7.0, 0.45 * len(configurations) + 1.2)
    axes = figure.add_subplot()
    height = 0.8 / len(LEVEL_RUNS)
    for offset, run in enumerate(LEVEL_RUNS):
        rates = [c.run(run).lost_on_empty for c in configurations]
        axes.barh([y + (offset - 1) * height for y in range(len(configurations))], [r.rate for r in rates],
                  height, xerr=[[r.rate - r.low for r in rates], [r.high - r.rate for r in rates]],
                  capsize=2, error_kw=ERROR_STYLE, color=RUN_COLOURS[run], label=run)
    axes.set_yticks(range(len(configurations)), _labels(configurations))
    axes.invert_yaxis()
    axes.set_xlabel("share of finished games")
    axes.set_title("Games ended by Blåmattis / Blodmattis")
    _legend_outside(axes)
    return figure


# ---------------------------------------------------------------------------- page


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1, h2, h3 { font-weight: 600; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #e4e4e4; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: 0.9em; max-width: 60em; } .nb { color: #777; font-style: italic; }
img { max-width: 100%; }
"""


def _percent(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _interval(rate: SeatRate) -> str:
    return f"{_percent(rate.rate)} <small>({100 * rate.low:.1f}–{100 * rate.high:.1f})</small>"


def _random_rate(configuration: ConfigurationStats) -> str:
    """``random``'s rate over every seat: marked, without an interval, when fixed by construction."""
    skill = configuration.skill
    if skill.random_by_construction:
        return f"{_percent(skill.random_overall.rate)}{FIXED_MARK}"
    return _interval(skill.random_overall)


def _avoided(paired: PairedDifference) -> str:
    """Avoided points with the paired interval of the per-deal differences."""
    interval = f"{100 * paired.low:+.1f} to {100 * paired.high:+.1f}"
    return f"{100 * paired.difference:+.1f} <small>({interval})</small>"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{header}</th>" for header in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _overview(configurations: Sequence[ConfigurationStats]) -> str:
    rows = []
    for c in configurations:
        skill = c.skill
        rows.append([
            html.escape(c.variant.label), str(c.players),
            " / ".join(_percent(c.run(run).seat_spread) for run in LEVEL_RUNS),
            " / ".join(_percent(c.run(run).lost_on_empty.rate) for run in LEVEL_RUNS)
            if c.lost_on_empty_name else "–",
            " / ".join(f"{c.run(run).actions_mean:.0f}" for run in LEVEL_RUNS),
            " / ".join(_percent(c.run(run).looping_games / max(1, c.run(run).games)) for run in RUNS),
            _random_rate(c), _interval(skill.hard_overall), _avoided(skill.paired),
        ])
    return _table(["variant", "players", "seat spread r/n/h", "Blå-/Blodmattis r/n/h",
                   "actions r/n/h", "loops r/n/h/s", "random Mattis", "hard Mattis",
                   "avoided (points, paired 95%)"], rows)


def _run_rows(configuration: ConfigurationStats) -> str:
    headers = ["run", "games", "finished", "capped", "repeated position",
               *[f"seat {seat}" for seat in range(configuration.players)], "spread",
               configuration.lost_on_empty_name or "lost on empty", "actions mean / median / p90 / max",
               "phase 1 / phase 2"]
    rows = []
    for stats in configuration.runs:
        if stats.run == "skill":
            continue
        rows.append(_run_row(stats))
    return _table(headers, rows)


def _run_row(stats: RunStats) -> list[str]:
    return [
        RUN_TITLES[stats.run], str(stats.games), str(stats.finished_games), str(stats.capped_games),
        str(stats.repeated_games), *[_interval(seat) for seat in stats.seats], _percent(stats.seat_spread),
        _interval(stats.lost_on_empty),
        f"{stats.actions_mean:.1f} / {stats.actions_median:.0f} / {stats.actions_p90:.0f} "
        f"/ {stats.actions_max}",
        f"{stats.phase1_mean:.1f} / {stats.phase2_mean:.1f}",
    ]


def _skill_rows(configuration: ConfigurationStats) -> str:
    """Per seat, on the deals where ``hard`` sat there: the same seat in both runs."""
    skill = configuration.skill
    rows = [[f"seat {seat}", str(paired.pairs), _percent(paired.random), _interval(hard), _avoided(paired)]
            for seat, (paired, hard) in enumerate(zip(skill.paired_by_seat, skill.hard, strict=True))]
    rows.append(["all seats", str(skill.paired.pairs), _random_rate(configuration),
                 _interval(skill.hard_overall), _avoided(skill.paired)])
    return _table(["seat", "deals", "random is Mattis", "hard (among random) is Mattis",
                   "avoided (points, paired 95%)"], rows)


def render_html(result: LabResult) -> str:
    """The whole report as one HTML page."""
    configurations = result.configurations
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>Mattis variant lab</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>Mattis variant lab <span class='nb'>· variantlaboratoriet</span></h1>",
        f"<p class='note'>Seed {result.seed} · {result.games} games per run · hard thinks "
        f"{result.hard_iterations} iterations per move · games stopped after {result.action_cap} actions "
        f"· backend {html.escape(result.backend)} ({result.workers} workers) · {result.seconds:.0f} s. "
        f"The same numbers are in <code>lab.json</code>.</p>",
        *([] if result.skill_bot == "hard" else [
            f"<p class='note'>The skill run seats <code>{html.escape(result.skill_bot)}</code> where the "
            "text and the figures say hard among random.</p>"]),
        "<p class='note'>How to read it. Each configuration (a rule variant at one player count) is "
        "played four times on the same deals: random, normal and hard bots in every seat, and one "
        "hard bot among random players (its seat rotates). Rates are over finished games with 95% "
        "Wilson intervals in brackets. With every seat playing alike, a seat whose interval lies "
        "clear of the fair share 1/players has an advantage or a handicap; <em>spread</em> is the "
        "highest minus the lowest seat rate. <em>Loops</em> are games stopped at the action cap or in "
        "which a position came back at a decision. <em>Avoided</em> is how many points less often "
        "hard was Mattis than random on the same deals: how much skill matters. Its interval comes "
        "from the per-deal differences (the two runs share their deals), not from two independent "
        "intervals.</p>",
        f"<p class='note caution' data-caution>{html.escape(t('lab.caution', 'en'))}</p>",
        "<h2>Overview <span class='nb'>· oversikt</span></h2>",
        _overview(configurations),
        "<p class='note'>r/n/h/s: random, normal and hard everywhere, and one hard among random.</p>",
    ]
    if any(c.skill.random_by_construction for c in configurations):
        parts.append(f"<p class='note' data-fixed-rate>{FIXED_MARK} {html.escape(t('lab.fixed', 'en'))}</p>")
    parts += [
        f"<img alt='skill: hard against random' src='{_png(skill_figure(configurations))}'>",
        f"<img alt='game lengths' src='{_png(length_figure(configurations))}'>",
    ]
    if any(c.lost_on_empty_name for c in configurations):
        parts.append(f"<img alt='Blåmattis and Blodmattis' src='{_png(empty_figure(configurations))}'>")
    for configuration in configurations:
        variant = configuration.variant
        house = ", ".join(f"{name}={value}" for name, value in variant.house_rules.items())
        parts += [
            f"<h2>{html.escape(variant.label)}, {configuration.players} players</h2>",
            f"<p class='note'>Preset {html.escape(variant.base)}"
            + (f" with house rules {html.escape(house)}" if house else "") + ".</p>",
            f"<img alt='Mattis by seat' src='{_png(seat_figure(configuration))}'>",
            "<h3>Mattis by seat, lengths and loops <span class='nb'>· Mattis per sete</span></h3>",
            _run_rows(configuration),
            "<h3>Skill <span class='nb'>· ferdighet</span></h3>",
            _skill_rows(configuration),
        ]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
