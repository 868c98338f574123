"""How ``hard`` grows with thinking: its Mattis rate at several iteration budgets against a
fixed pair of opponents, played until every rate is known to a chosen precision.

The experiment is a set of *series* (the opponents, e.g. two ``normal`` bots or two
``hard:1000``) times *budgets* (``hard:125`` … ``hard:8000``). Each cell is played in
*chunks*: chunk ``k`` is a small tournament (whole deals, each in every seating) whose seed depends
only on the experiment's seed and ``k``, so every budget meets the same deals in the same
seatings (common random numbers: the differences between budgets are not blurred by
luck of the deal), and chunk ``k`` is the same games on any machine or backend.

Runs are long (hours on a laptop, minutes on a cluster), so the state is a checkpoint
file rewritten atomically after every chunk: stop the run at any moment, start it again
with the same settings, and it goes on where it stopped, nothing lost or repeated. A cell
is done when the 95 % Wilson interval of its Mattis rate reaches no further than the
target (3 points) from the rate on either side, or when it reaches the game cap. The
next chunk always goes to the unfinished cell with the fewest games (the cheapest budget
first among equals), so a run stopped early still covers the whole curve evenly.

``python -m mattis.cli.strength --help`` runs it; :func:`write_outputs` draws the table
(Markdown and JSON) and the plot (PNG, ``pip install "mattis[lab]"``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core import Rules
from .backends import Backend
from .tournament import games_per_deal, parse_entrant, run_tournament, wilson_interval

STRENGTH_FORMAT = "mattis-strength/2"
"""Version 2: chunks of tournaments that play every deal in every seating (version 1 rotated
the seats only, so its chunks are other games and cannot be continued)."""
CHECKPOINT = "checkpoint.json"
TABLE_MD = "strength.md"
TABLE_JSON = "strength.json"
PLOT_PNG = "strength.png"
DEFAULT_BUDGETS = (125, 250, 500, 1000, 2000, 4000, 8000)
DEFAULT_SERIES = ("normal,normal", "hard:1000,hard:1000")
DEFAULT_TARGET = 0.03
"""Half-width of the 95 % interval at which a cell is done: ±3 points."""
DEFAULT_MAX_GAMES = 3000
"""A cell stops here even if its interval is still wider (a rate near 50 % needs about
1,070 games for ±3 points, so this cap only stops runaway settings)."""


class StrengthError(RuntimeError):
    """The experiment cannot go on (a checkpoint of other settings, an unusable folder); one line."""


# ---------------------------------------------------------------------------- value types


@dataclass(frozen=True, slots=True)
class Settings:
    """What a run plays and when each cell stops. The rules, players, seed and chunk size
    decide the games: a checkpoint is only continued with the same ones (others would be
    other games). The budgets, opponents, target and game cap may change between runs, so a
    finished run can be extended (:meth:`extended_by`)."""

    rules: str = "pagat"
    players: int = 3
    budgets: tuple[int, ...] = DEFAULT_BUDGETS
    series: tuple[str, ...] = DEFAULT_SERIES
    seed: int = 1
    chunk_deals: int = 10
    target: float = DEFAULT_TARGET
    max_games: int = DEFAULT_MAX_GAMES

    def __post_init__(self) -> None:
        Rules.preset(self.rules).check_players(self.players)
        if not self.budgets or any(budget < 1 for budget in self.budgets):
            raise ValueError(f"budgets: give iteration counts of at least 1, got {list(self.budgets)}")
        if not self.series:
            raise ValueError("series: give at least one set of opponents")
        for opponents in self.series:
            names = [parse_entrant(name) for name in opponents.split(",")]
            if len(names) != self.players - 1:
                raise ValueError(f"series: {opponents!r} must name {self.players - 1} opponents "
                                 f"for {self.players} players")
        if self.chunk_deals < 1:
            raise ValueError(f"chunk_deals: must be at least 1, got {self.chunk_deals}")
        if not 0 < self.target < 0.5:
            raise ValueError(f"target: a half-width between 0 and 0.5, got {self.target}")
        if self.max_games < 1:
            raise ValueError(f"max_games: must be at least 1, got {self.max_games}")

    def same_games(self, other: Settings) -> bool:
        """Whether ``other`` plays the same games in each cell (so their chunks can mix)."""
        return (self.rules, self.players, self.seed, self.chunk_deals) == (
            other.rules, other.players, other.seed, other.chunk_deals)

    def extended_by(self, other: Settings) -> Settings:
        """These settings grown by ``other`` (which plays the same games): every budget and
        set of opponents of either, so no cell played so far is dropped, and ``other``'s
        target and game cap."""
        budgets = tuple(sorted({*self.budgets, *other.budgets}))
        series = (*self.series, *(opponents for opponents in other.series if opponents not in self.series))
        return replace(self, budgets=budgets, series=series, target=other.target, max_games=other.max_games)

    @property
    def chunk_games(self) -> int:
        return self.chunk_deals * games_per_deal(self.players)

    def cells(self) -> list[tuple[str, int]]:
        """Every ``(series, budget)`` pair, in table order."""
        return [(opponents, budget) for opponents in self.series for budget in self.budgets]

    def bots(self, opponents: str, budget: int) -> list[str]:
        """The table of one cell: ``hard:<budget>`` in the first entrant's chair."""
        return [f"hard:{budget}", *(parse_entrant(name) for name in opponents.split(","))]

    def chunk_seed(self, chunk: int) -> int:
        """The tournament seed of chunk ``chunk``: the same for every cell."""
        digest = hashlib.sha256(f"mattis-strength:{self.seed}:{chunk}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "players": self.players, "budgets": list(self.budgets),
                "series": list(self.series), "seed": self.seed, "chunk_deals": self.chunk_deals,
                "target": self.target, "max_games": self.max_games}

    @staticmethod
    def from_dict(data: Any) -> Settings:
        if not isinstance(data, dict):
            raise ValueError("settings: expected an object")
        try:
            return Settings(rules=str(data["rules"]), players=int(data["players"]),
                            budgets=tuple(int(budget) for budget in data["budgets"]),
                            series=tuple(str(opponents) for opponents in data["series"]),
                            seed=int(data["seed"]), chunk_deals=int(data["chunk_deals"]),
                            target=float(data["target"]), max_games=int(data["max_games"]))
        except (KeyError, TypeError) as error:
            raise ValueError(f"settings: missing or malformed field ({error})") from None


@dataclass(frozen=True, slots=True)
class Chunk:
    """The focal ``hard`` bot's figures in one chunk of one cell."""

    chunk: int
    games: int
    finished: int
    mattis: int
    decisions: int
    iterations: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"chunk": self.chunk, "games": self.games, "finished": self.finished, "mattis": self.mattis,
                "decisions": self.decisions, "iterations": self.iterations, "seconds": self.seconds}

    @staticmethod
    def from_dict(data: Any) -> Chunk:
        if not isinstance(data, dict):
            raise ValueError("chunk: expected an object")
        return Chunk(chunk=int(data["chunk"]), games=int(data["games"]), finished=int(data["finished"]),
                     mattis=int(data["mattis"]), decisions=int(data["decisions"]),
                     iterations=int(data["iterations"]), seconds=float(data["seconds"]))


@dataclass(frozen=True, slots=True)
class Cell:
    """One point of the curve: everything played so far for one series and budget."""

    series: str
    budget: int
    games: int
    finished: int
    mattis: int
    low: float
    high: float
    decisions: int
    iterations: int
    seconds: float
    done: bool

    @property
    def rate(self) -> float:
        return self.mattis / self.finished if self.finished else 0.0

    @property
    def half_width(self) -> float:
        """How far the 95 % interval reaches from the rate, on its wider side."""
        return max(self.rate - self.low, self.high - self.rate)

    def to_dict(self) -> dict[str, Any]:
        return {"series": self.series, "budget": self.budget, "games": self.games,
                "finished_games": self.finished, "mattis": self.mattis, "mattis_rate": self.rate,
                "mattis_ci95": [self.low, self.high], "half_width": self.half_width,
                "decisions": self.decisions, "iterations_per_decision":
                    self.iterations / self.decisions if self.decisions else 0.0,
                "seconds_per_decision": self.seconds / self.decisions if self.decisions else 0.0,
                "done": self.done}


@dataclass(slots=True)
class Experiment:
    """The settings and every chunk played so far (the checkpoint's content)."""

    settings: Settings
    chunks: dict[tuple[str, int], list[Chunk]] = field(default_factory=dict)

    def cell(self, opponents: str, budget: int) -> Cell:
        played = self.chunks.get((opponents, budget), [])
        finished = sum(chunk.finished for chunk in played)
        mattis = sum(chunk.mattis for chunk in played)
        games = sum(chunk.games for chunk in played)
        low, high = wilson_interval(mattis, finished)
        cell = Cell(opponents, budget, games, finished, mattis, low, high,
                    sum(chunk.decisions for chunk in played), sum(chunk.iterations for chunk in played),
                    math.fsum(chunk.seconds for chunk in played), done=False)
        return replace(cell, done=cell.half_width <= self.settings.target or games >= self.settings.max_games)

    def table(self) -> list[Cell]:
        return [self.cell(opponents, budget) for opponents, budget in self.settings.cells()]

    def next_cell(self) -> tuple[str, int] | None:
        """The unfinished cell with the fewest games, the cheapest budget first among equals."""
        open_cells = [cell for cell in self.table() if not cell.done]
        if not open_cells:
            return None
        chosen = min(open_cells, key=lambda cell: (cell.games, cell.budget))
        return chosen.series, chosen.budget

    def to_dict(self) -> dict[str, Any]:
        return {"format": STRENGTH_FORMAT, "settings": self.settings.to_dict(),
                "cells": [{"series": opponents, "budget": budget,
                           "chunks": [chunk.to_dict() for chunk in self.chunks.get((opponents, budget), [])]}
                          for opponents, budget in self.settings.cells()]}

    @staticmethod
    def from_dict(data: Any) -> Experiment:
        if isinstance(data, dict) and data.get("format") == "mattis-strength/1":
            raise ValueError("made when tournaments only rotated the seats (mattis-strength/1), so its "
                             "chunks are other games; start again in another --out folder")
        if not isinstance(data, dict) or data.get("format") != STRENGTH_FORMAT:
            raise ValueError(f"not a {STRENGTH_FORMAT} checkpoint")
        experiment = Experiment(Settings.from_dict(data.get("settings")))
        cells = data.get("cells")
        if not isinstance(cells, list):
            raise ValueError("cells: expected a list")
        known = set(experiment.settings.cells())
        for item in cells:
            if not isinstance(item, dict):
                raise ValueError("cells: expected objects")
            key = (str(item.get("series")), int(item.get("budget", -1)))
            if key not in known:
                raise ValueError(f"cells: {key} is not part of the settings")
            chunks = [Chunk.from_dict(chunk) for chunk in item.get("chunks", [])]
            if [chunk.chunk for chunk in chunks] != list(range(len(chunks))):
                raise ValueError(f"cells: the chunks of {key} are not 0, 1, 2, …")
            experiment.chunks[key] = chunks
        return experiment


# ---------------------------------------------------------------------------- running


def load_or_start(folder: Path, settings: Settings) -> Experiment:
    """The experiment in ``folder``'s checkpoint, or a new one. A checkpoint of the same
    games goes on with ``settings`` added (:meth:`Settings.extended_by`: a larger game cap,
    a tighter target, more budgets or opponents); one of other games is refused rather than
    mixed with these."""
    path = folder / CHECKPOINT
    if not path.exists():
        return Experiment(settings)
    try:
        if path.stat().st_size > 64 * 1024 * 1024:
            raise ValueError("larger than 64 MiB")
        experiment = Experiment.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, RecursionError) as error:
        raise StrengthError(f"{path}: cannot continue from this checkpoint: {error}") from None
    if not experiment.settings.same_games(settings):
        raise StrengthError(f"{path} holds a run with other settings ({experiment.settings.to_dict()}); "
                            "give the same rules, players, seed and chunk size to continue it, "
                            "or another --out folder")
    return Experiment(experiment.settings.extended_by(settings), experiment.chunks)


def save(folder: Path, experiment: Experiment) -> None:
    """Rewrite the checkpoint atomically: a crash leaves the old one or the new one."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / CHECKPOINT
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(experiment.to_dict(), indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def play_chunk(experiment: Experiment, opponents: str, budget: int, backend: Backend) -> Chunk:
    """Play the next chunk of one cell and add it to the experiment."""
    settings = experiment.settings
    played = experiment.chunks.setdefault((opponents, budget), [])
    number = len(played)
    result = run_tournament(Rules.preset(settings.rules), settings.players, settings.bots(opponents, budget),
                            settings.chunk_games, seed=settings.chunk_seed(number), backend=backend)
    focal = result.standings[0]
    chunk = Chunk(number, focal.games, focal.finished_games, focal.mattis, focal.decisions.decisions,
                  focal.decisions.iterations, focal.decisions.seconds_total)
    played.append(chunk)
    return chunk


def run(folder: Path, settings: Settings, backend: Backend, *, hours: float | None = None,
        report: Callable[[Experiment, Cell], None] | None = None) -> Experiment:
    """Play chunks until every cell is done or ``hours`` have passed (a chunk once started
    is finished), saving the checkpoint and the outputs after each."""
    experiment = load_or_start(folder, settings)
    deadline = time.monotonic() + hours * 3600 if hours is not None else math.inf
    while time.monotonic() < deadline:
        chosen = experiment.next_cell()
        if chosen is None:
            break
        play_chunk(experiment, *chosen, backend)
        save(folder, experiment)
        write_outputs(folder, experiment)
        if report is not None:
            report(experiment, experiment.cell(*chosen))
    return experiment


# ---------------------------------------------------------------------------- outputs


def series_title(opponents: str) -> str:
    """``"against 2 × normal"`` for ``normal,normal``."""
    names = opponents.split(",")
    if len(set(names)) == 1:
        return f"against {len(names)} × {names[0]}"
    return "against " + ", ".join(names)


def markdown_table(experiment: Experiment) -> str:
    """The table: one row per cell, with its interval and how far the search went."""
    settings = experiment.settings
    lines = [f"# `hard` by iteration budget ({settings.rules}, {settings.players} players)", "",
             f"Target: 95% interval within ±{settings.target * 100:g} points of the rate "
             f"(Wilson), or {settings.max_games:,} games. Chunks of {settings.chunk_deals} deals "
             f"({settings.chunk_games} games), seed {settings.seed}; every budget meets the same deals.",
             "", "| opponents | hard budget | games | Mattis | rate | 95% interval | ± | "
             "iterations/move | s/move | done |", "|---|---:|---:|---:|---:|---|---:|---:|---:|---|"]
    for cell in experiment.table():
        row = cell.to_dict()
        interval = (f"{cell.low * 100:.1f}–{cell.high * 100:.1f}%" if cell.finished else "–")
        if not cell.finished:
            dashes = " – |" * 6
            lines.append(f"| {series_title(cell.series)} | {cell.budget:,} | {cell.games:,} |{dashes} "
                         f"{'yes' if cell.done else 'no'} |")
            continue
        lines.append(f"| {series_title(cell.series)} | {cell.budget:,} | {cell.games:,} | {cell.mattis:,} | "
                     f"{cell.rate * 100:.1f}% | {interval} | {cell.half_width * 100:.1f} | "
                     f"{row['iterations_per_decision']:,.0f} | {row['seconds_per_decision']:.2f} | "
                     f"{'yes' if cell.done else 'no'} |")
    return "\n".join(lines) + "\n"


def draw_plot(experiment: Experiment, path: Path) -> bool:
    """The curve as a PNG: Mattis rate against the budget (log scale), one line per series,
    95 % intervals as error bars. Returns ``False`` (and draws nothing) without matplotlib."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return False
    figure = Figure(figsize=(7.5, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    colours = ("#3b82c4", "#c4493b", "#e0a030", "#4a9a5a")
    for number, opponents in enumerate(experiment.settings.series):
        cells = [cell for cell in experiment.table() if cell.series == opponents and cell.finished]
        if not cells:
            continue
        rates = [cell.rate * 100 for cell in cells]
        below = [(cell.rate - cell.low) * 100 for cell in cells]
        above = [(cell.high - cell.rate) * 100 for cell in cells]
        axes.errorbar([cell.budget for cell in cells], rates, yerr=[below, above], marker="o", capsize=3,
                      color=colours[number % len(colours)], label=series_title(opponents))
    share = 100 / experiment.settings.players
    axes.axhline(share, color="#777777", linestyle=":", linewidth=1,
                 label=f"equal play: 1 in {experiment.settings.players}")
    axes.set_xscale("log", base=2)
    budgets = experiment.settings.budgets
    axes.set_xticks(list(budgets), [f"{budget:,}" for budget in budgets])
    axes.set_xlabel("hard: search iterations per move")
    axes.set_ylabel("hard was Mattis (%, 95% interval)")
    settings = experiment.settings
    axes.set_title(f"How hard grows with thinking ({settings.rules}, {settings.players} players)")
    axes.grid(True, alpha=0.3)
    axes.set_ylim(bottom=0)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    return True


def write_outputs(folder: Path, experiment: Experiment) -> None:
    """The Markdown table, the same figures as JSON, and the plot."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / TABLE_MD).write_text(markdown_table(experiment), encoding="utf-8")
    table = {"format": STRENGTH_FORMAT, "settings": experiment.settings.to_dict(),
             "cells": [cell.to_dict() for cell in experiment.table()]}
    (folder / TABLE_JSON).write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    draw_plot(experiment, folder / PLOT_PNG)
