"""The variant lab: how rule systems and house rules change the game, measured.

For every *variant* (a preset, or a preset with house rules) and every player count, the
lab plays four *runs* of the same deals:

* ``random``, ``normal``, ``hard``: every seat plays at that level. Symmetric play, so any
  difference between the seats' Mattis rates is the seat's doing (who leads, who deals):
  a seat advantage shows as a rate outside the others' intervals.
* ``skill``: one ``hard`` bot (or any entrant given as ``skill_bot``: a level,
  ``learned:PATH.npz``, ``module:callable``) among ``random`` players, in seat
  ``index % players``. Set
  against the ``random`` run's same seat on the same deals, it shows how much skill
  matters in the variant: how often search avoids Mattis where chance would not. The
  comparison is paired deal by deal, so its interval comes from the per-deal differences
  (:class:`PairedDifference`), not from two independent intervals.

Per run it counts Mattis per seat (95% Wilson intervals), how often the deal ends in
Blåmattis/Blodmattis, game and phase lengths, and how often play *loops*: games stopped
at the action cap, and games in which a position came back at a decision (the same cards
in the same places with the same player to move — possible only through pick-ups).

Game ``index`` of a configuration is fully determined by ``(variant, players, seed,
index)`` — its deck — and the run, which seeds the agents; ``hard`` thinks a fixed number
of iterations. So the figures are the same on every backend and worker count.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import DEFAULT_ACTION_CAP, Decision, Limit, play_game
from ..bots.entrants import check_entrant, make_entrant_agent, parse_entrant
from ..core import Game, NothingLeft, NothingLeftCounts, Phase, Rules
from .backends import Backend, LocalBackend, batches, run_in_order
from .tournament import WILSON_Z, percentile, wilson_interval

LAB_FORMAT = "mattis-lab/1"
LEVEL_RUNS = ("random", "normal", "hard")
"""Runs where every seat plays the same level."""
SKILL_RUN = "skill"
"""The run with one ``hard`` bot among ``random`` players."""
RUNS = (*LEVEL_RUNS, SKILL_RUN)
DEFAULT_HARD_ITERATIONS = 50
"""``hard``'s budget in the lab: small, because the ``hard`` run puts it in every seat
(about 1.5 s a 3-player game on one core). Stronger settings only sharpen the skill gap."""
LAB_BATCH = 10
"""Most games per task: enough to amortise sending a task, few enough that ``hard``
batches keep the progress bar moving."""


# ---------------------------------------------------------------------------- value types


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule system to compare: a preset, or a preset with house rules."""

    label: str
    """``"pagat"`` or ``"pagat + min_sequence=3"``."""
    rules: Rules
    base: str
    """The preset it starts from."""

    @property
    def house_rules(self) -> dict[str, Any]:
        """The options that differ from the preset."""
        return {name: ours for name, (ours, _) in self.rules.differences(Rules.preset(self.base)).items()}


@dataclass(frozen=True, slots=True)
class SeatRate:
    """How often one seat was Mattis, with its 95% Wilson interval."""

    seat: int
    games: int
    """Finished games counted for this seat."""
    mattis: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, seat: int, mattis: int, games: int) -> SeatRate:
        """The rate of ``mattis`` losses in ``games``."""
        low, high = wilson_interval(mattis, games)
        return cls(seat, games, mattis, mattis / games if games else 0.0, low, high)

    @classmethod
    def exact(cls, seat: int, mattis: int, games: int) -> SeatRate:
        """A rate fixed by construction, not sampled: its interval is the rate itself."""
        rate = mattis / games if games else 0.0
        return cls(seat, games, mattis, rate, rate, rate)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {"seat": self.seat, "games": self.games, "mattis": self.mattis, "rate": self.rate,
                "ci95": [self.low, self.high]}


def paired_difference_interval(differences: Sequence[float], z: float = WILSON_Z) -> tuple[float, float]:
    """The 95% interval of the mean of per-pair differences in [-1, 1].

    Pairing removes what both members of a pair share (the deal), so the interval is never
    wider than two independent ones would make it when the pairs agree. Agresti and Min's
    pseudo-pairs (half a pair at +1, half at -1, one at 0) keep it honest for small samples
    and for differences that never vary, where a plain ``mean ± z·se`` would shrink to a point.
    ``(-1, 1)`` for no pairs.
    """
    if not differences:
        return -1.0, 1.0
    weight = len(differences) + 2
    mean = math.fsum(differences) / weight
    squares = (math.fsum(value * value for value in differences) + 1.0) / weight
    half = z * math.sqrt(max(0.0, squares - mean * mean) / weight)
    return max(-1.0, mean - half), min(1.0, mean + half)


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """``random``'s Mattis rate minus ``hard``'s over the same deals, with the interval of
    the per-deal differences (:func:`paired_difference_interval`)."""

    pairs: int
    """Deals finished in both runs."""
    random: float
    """``random``'s mean Mattis share on those deals."""
    hard: float
    """``hard``'s Mattis rate on those deals."""
    low: float
    high: float

    @classmethod
    def of(cls, pairs: Sequence[tuple[float, float]]) -> PairedDifference:
        """From ``(random's Mattis share, hard is Mattis)`` per deal."""
        count = len(pairs)
        low, high = paired_difference_interval([first - second for first, second in pairs])
        return cls(count, math.fsum(first for first, _ in pairs) / count if count else 0.0,
                   math.fsum(second for _, second in pairs) / count if count else 0.0, low, high)

    @property
    def difference(self) -> float:
        """In rate points (0.25 = 25 points): how much less often ``hard`` was Mattis."""
        return self.random - self.hard

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {"pairs": self.pairs, "random": self.random, "hard": self.hard,
                "difference": self.difference, "ci95": [self.low, self.high]}


@dataclass(frozen=True, slots=True)
class RunStats:
    """The figures of one run of one configuration."""

    run: str
    games: int
    finished_games: int
    capped_games: int
    """Games stopped at the action cap (a loop that did not end); left out of every rate."""
    repeated_games: int
    """Games in which a position came back at a decision (finished or not)."""
    looping_games: int
    """Games capped or with a repeated position (each game once)."""
    shared_loss_games: int
    """Finished games with more than one Mattis (several left with nothing at once, P1.10)."""
    seats: tuple[SeatRate, ...]
    """Mattis per seat over finished games (several losers each count)."""
    lost_on_empty_games: int
    """Finished games ended by Blåmattis/Blodmattis (P1.10)."""
    lost_on_empty: SeatRate
    """The same as a rate with an interval (``seat`` is -1: all seats)."""
    actions_mean: float
    actions_median: float
    actions_p90: float
    actions_max: int
    phase1_mean: float
    phase2_mean: float

    @property
    def seat_spread(self) -> float:
        """Highest minus lowest seat rate: near 0 when no seat is favoured."""
        rates = [seat.rate for seat in self.seats]
        return max(rates) - min(rates) if rates else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "run": self.run,
            "games": self.games,
            "finished_games": self.finished_games,
            "capped_games": self.capped_games,
            "repeated_position_games": self.repeated_games,
            "looping_games": self.looping_games,
            "shared_loss_games": self.shared_loss_games,
            "loop_rate": self.looping_games / self.games if self.games else 0.0,
            "mattis_by_seat": [seat.to_dict() for seat in self.seats],
            "seat_spread": self.seat_spread,
            "lost_on_empty": {"games": self.lost_on_empty_games, "rate": self.lost_on_empty.rate,
                              "ci95": [self.lost_on_empty.low, self.lost_on_empty.high]},
            "actions": {"mean": self.actions_mean, "median": self.actions_median, "p90": self.actions_p90,
                        "max": self.actions_max},
            "phase_actions": {"phase1_mean": self.phase1_mean, "phase2_mean": self.phase2_mean},
        }


@dataclass(frozen=True, slots=True)
class SkillStats:
    """``hard`` among ``random`` players against ``random`` on the same deals."""

    hard: tuple[SeatRate, ...]
    """Per seat: how often the ``hard`` bot sitting there was Mattis (skill run)."""
    random: tuple[SeatRate, ...]
    """Per seat: how often the ``random`` player there was Mattis (random run, every deal)."""
    hard_overall: SeatRate
    random_overall: SeatRate
    """``random`` over every seat of every finished deal: see :attr:`random_by_construction`."""
    random_by_construction: bool
    """No finished random deal had several Mattis, so :attr:`random_overall` is exactly
    1/players: every deal makes one Mattis among its players. A count of the scoring, not
    a measurement, so it has no interval."""
    paired: PairedDifference
    """Per deal finished in both runs: ``random``'s Mattis share over its seats (1/players
    but for shared losses) minus whether ``hard`` was Mattis. The hard seat rotates, so
    every seat weighs alike; the whole deal's share, not the hard seat's alone, is the
    sharper comparison (their outcomes hardly correlate, and one seat is a coin flip)."""
    paired_by_seat: tuple[PairedDifference, ...]
    """Per seat: ``random`` in that seat against ``hard`` in that seat, on the deals where
    ``hard`` sat there."""

    @property
    def avoided(self) -> float:
        """How much less often ``hard`` was Mattis than ``random`` on the same deals, in rate
        points (0.25 = 25 points); its interval is :attr:`paired`'s."""
        return self.paired.difference

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "hard_by_seat": [seat.to_dict() for seat in self.hard],
            "random_by_seat": [seat.to_dict() for seat in self.random],
            "hard": self.hard_overall.to_dict(),
            "random": self.random_overall.to_dict(),
            "random_by_construction": self.random_by_construction,
            "avoided": self.avoided,
            "avoided_ci95": [self.paired.low, self.paired.high],
            "avoided_paired": self.paired.to_dict(),
            "avoided_by_seat": [paired.to_dict() for paired in self.paired_by_seat],
        }


@dataclass(frozen=True, slots=True)
class ConfigurationStats:
    """One variant at one player count: its runs and the skill comparison."""

    variant: Variant
    players: int
    runs: tuple[RunStats, ...]
    """In :data:`RUNS` order."""
    skill: SkillStats

    @property
    def lost_on_empty_name(self) -> str | None:
        """*Blodmattis* or *Blåmattis*, or ``None`` when these rules cannot end that way."""
        rules = self.variant.rules
        if rules.nothing_left is not NothingLeft.LOSE:
            return None
        return "Blodmattis" if rules.nothing_left_counts is NothingLeftCounts.WON_PILE else "Blåmattis"

    def run(self, name: str) -> RunStats:
        """The run called ``name``."""
        return next(stats for stats in self.runs if stats.run == name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "label": self.variant.label,
            "preset": self.variant.base,
            "house_rules": self.variant.house_rules,
            "rules": self.variant.rules.to_dict(),
            "players": self.players,
            "lost_on_empty_name": self.lost_on_empty_name,
            "runs": {stats.run: stats.to_dict() for stats in self.runs},
            "skill": self.skill.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class LabResult:
    """A whole lab run: every configuration, and how it was made."""

    seed: int
    games: int
    """Games per run of each configuration."""
    hard_iterations: int
    action_cap: int
    backend: str
    workers: int
    seconds: float
    configurations: tuple[ConfigurationStats, ...]
    skill_bot: str = "hard"
    """The entrant of the skill run (``hard`` unless told otherwise)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures: what ``lab.json`` holds."""
        return {
            "format": LAB_FORMAT,
            "seed": self.seed,
            "games_per_run": self.games,
            "runs": list(RUNS),
            "hard_iterations": self.hard_iterations,
            "skill_bot": self.skill_bot,
            "action_cap": self.action_cap,
            "backend": self.backend,
            "workers": self.workers,
            "seconds": self.seconds,
            "configurations": [configuration.to_dict() for configuration in self.configurations],
        }


# ---------------------------------------------------------------------------- playing


@dataclass(frozen=True, slots=True)
class LabGame:
    """One lab game boiled down (small and picklable)."""

    index: int
    capped: bool
    repeated: bool
    losers: tuple[int, ...]
    lost_on_empty: bool
    actions: int
    phase1_actions: int
    hard_seat: int
    """The ``hard`` bot's seat in the skill run, else -1."""


@dataclass(frozen=True, slots=True)
class _LabBatch:
    """Consecutive games of one run of one configuration (picklable)."""

    configuration: int
    variant: Variant
    players: int
    run: str
    seed: int
    indices: range
    hard_iterations: int
    action_cap: int
    skill_bot: str = "hard"


def lab_deck_seed(seed: int, variant: Variant, players: int, index: int) -> int:
    """The deck of game ``index`` of a configuration: the same in all four runs, so they
    compare play on the same deals."""
    return random.Random(f"{seed}:{variant.label}:{players}:deal{index}").getrandbits(32)


def play_lab_game(variant: Variant, players: int, run: str, *, seed: int, index: int,
                  hard_iterations: int = DEFAULT_HARD_ITERATIONS,
                  action_cap: int = DEFAULT_ACTION_CAP, skill_bot: str = "hard") -> LabGame:
    """Play (or replay) game ``index`` of ``run`` exactly, watching for repeated positions;
    the skill run seats ``skill_bot`` (an entrant name) among the ``random`` players."""
    if run not in RUNS:
        raise ValueError(f"run: expected one of {', '.join(RUNS)}, got {run!r}")
    limit = Limit(iterations=hard_iterations)
    hard_seat = index % players if run == SKILL_RUN else -1
    levels = [(skill_bot if seat == hard_seat else "random") if run == SKILL_RUN else run
              for seat in range(players)]
    deck = lab_deck_seed(seed, variant, players, index)
    game = Game.new(variant.rules, players, seed=deck)
    seen: set[object] = set()
    repeated = False

    def watch(_seat: int, _decision: Decision) -> None:
        nonlocal repeated
        if not repeated:
            position = game.position()
            repeated = position in seen
            seen.add(position)

    played = play_game(game, [make_entrant_agent(level, limit) for level in levels],
                       seed=f"{seed}:{variant.label}:{players}:{run}:{index}", action_cap=action_cap,
                       on_decision=watch)
    result = game.result
    capped = played.capped or result is None
    return LabGame(
        index=index,
        capped=capped,
        repeated=repeated,
        losers=() if result is None else tuple(result.losers),
        lost_on_empty=result is not None and result.lost_on_empty,
        actions=game.num_actions,
        phase1_actions=_phase1_actions(game, deck),
        hard_seat=hard_seat,
    )


def _phase1_actions(game: Game, deck_seed: int) -> int:
    """How many of ``game``'s actions were taken in phase 1: its actions replayed on a
    fresh deal until phase 2 begins (the runner does not report phase changes, and a
    replay of phase 1 costs little beside the bots' thinking)."""
    fresh = Game.new(game.rules, game.players, seed=deck_seed)
    count = 0
    for action in game.record()["actions"]:
        if fresh.phase is not Phase.COLLECT:
            break
        fresh.apply(action)
        count += 1
    return count


def _play_batch(batch: _LabBatch) -> tuple[int, str, tuple[LabGame, ...]]:
    """Play a batch (runs wherever the backend puts it)."""
    games = tuple(play_lab_game(batch.variant, batch.players, batch.run, seed=batch.seed, index=index,
                                hard_iterations=batch.hard_iterations, action_cap=batch.action_cap,
                                skill_bot=batch.skill_bot)
                  for index in batch.indices)
    return batch.configuration, batch.run, games


# ---------------------------------------------------------------------------- aggregation


@dataclass(slots=True)
class _RunCounts:
    """A run's figures so far, fed games in index order (mutable, private)."""

    players: int
    games: int = 0
    capped: int = 0
    repeated: int = 0
    looping: int = 0
    shared: int = 0
    empty: int = 0
    mattis: list[int] = field(default_factory=list)
    hard_games: list[int] = field(default_factory=list)
    hard_mattis: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    phase1: list[int] = field(default_factory=list)
    finished: dict[int, LabGame] = field(default_factory=dict)
    """Finished games by index, for pairing the runs deal by deal."""

    def __post_init__(self) -> None:
        self.mattis = [0] * self.players
        self.hard_games = [0] * self.players
        self.hard_mattis = [0] * self.players

    def add(self, game: LabGame) -> None:
        """Count one game."""
        self.games += 1
        self.repeated += game.repeated
        self.looping += game.repeated or game.capped
        if game.capped:
            self.capped += 1
            return
        self.lengths.append(game.actions)
        self.phase1.append(game.phase1_actions)
        self.finished[game.index] = game
        self.empty += game.lost_on_empty
        self.shared += len(game.losers) > 1
        for seat in game.losers:
            self.mattis[seat] += 1
        if game.hard_seat >= 0:
            self.hard_games[game.hard_seat] += 1
            self.hard_mattis[game.hard_seat] += game.hard_seat in game.losers

    def stats(self, run: str) -> RunStats:
        """The finished figures."""
        finished = len(self.lengths)
        return RunStats(
            run=run,
            games=self.games,
            finished_games=finished,
            capped_games=self.capped,
            repeated_games=self.repeated,
            looping_games=self.looping,
            shared_loss_games=self.shared,
            seats=tuple(SeatRate.of(seat, self.mattis[seat], finished) for seat in range(self.players)),
            lost_on_empty_games=self.empty,
            lost_on_empty=SeatRate.of(-1, self.empty, finished),
            actions_mean=statistics.fmean(self.lengths) if self.lengths else 0.0,
            actions_median=float(statistics.median(self.lengths)) if self.lengths else 0.0,
            actions_p90=percentile([float(length) for length in self.lengths], 0.9),
            actions_max=max(self.lengths, default=0),
            phase1_mean=statistics.fmean(self.phase1) if self.phase1 else 0.0,
            phase2_mean=(statistics.fmean(a - p for a, p in zip(self.lengths, self.phase1, strict=True))
                         if self.lengths else 0.0),
        )


def _skill(players: int, skill: _RunCounts, baseline_counts: _RunCounts, baseline: RunStats) -> SkillStats:
    """The skill run's hard seats against the random run, deal by deal."""
    hard = tuple(SeatRate.of(seat, skill.hard_mattis[seat], skill.hard_games[seat])
                 for seat in range(players))
    by_construction = baseline.shared_loss_games == 0
    random_mattis = sum(seat.mattis for seat in baseline.seats)
    random_games = players * baseline.finished_games
    paired_deals = [(baseline_counts.finished[index], game) for index, game in sorted(skill.finished.items())
                    if index in baseline_counts.finished]
    paired = PairedDifference.of([(len(chance.losers) / players, float(game.hard_seat in game.losers))
                                  for chance, game in paired_deals])
    by_seat = tuple(PairedDifference.of([(float(seat in chance.losers), float(seat in game.losers))
                                         for chance, game in paired_deals if game.hard_seat == seat])
                    for seat in range(players))
    return SkillStats(
        hard=hard,
        random=baseline.seats,
        hard_overall=SeatRate.of(-1, sum(skill.hard_mattis), sum(skill.hard_games)),
        random_overall=(SeatRate.exact if by_construction else SeatRate.of)(-1, random_mattis, random_games),
        random_by_construction=by_construction,
        paired=paired,
        paired_by_seat=by_seat,
    )


# ---------------------------------------------------------------------------- the lab


def lab_configurations(variants: Sequence[Variant],
                       players: Sequence[int] | None = None) -> list[tuple[Variant, int]]:
    """Every (variant, player count) to measure: each count in ``players`` that the variant
    allows (default: every count it allows). ``ValueError`` when a variant allows none."""
    chosen: list[tuple[Variant, int]] = []
    for variant in variants:
        allowed = range(variant.rules.min_players, variant.rules.max_players + 1)
        counts = [count for count in (players or allowed) if count in allowed]
        if not counts:
            raise ValueError(f"players: {variant.label} allows {allowed.start}-{allowed.stop - 1} players, "
                             f"got {', '.join(map(str, players or ()))}")
        chosen.extend((variant, count) for count in sorted(set(counts)))
    return chosen


def planned_lab_games(configurations: int, games: int) -> int:
    """The games a lab plays (four runs per configuration); known before the first game."""
    return configurations * len(RUNS) * games


def run_lab(
    variants: Sequence[Variant],
    games: int,
    *,
    seed: int,
    players: Sequence[int] | None = None,
    hard_iterations: int = DEFAULT_HARD_ITERATIONS,
    action_cap: int = DEFAULT_ACTION_CAP,
    backend: Backend | None = None,
    progress: Callable[[int, int], None] | None = None,
    skill_bot: str = "hard",
) -> LabResult:
    """Measure every variant at every allowed player count (or those in ``players``).
    ``skill_bot`` is the entrant of the skill run (:mod:`mattis.bots.entrants`: a level,
    ``learned:PATH.npz`` or ``module:callable``), checked once before any game.

    ``progress(done, total)`` is called before the first game (``done`` 0) and as batches
    finish; results are counted as they come, in a fixed order, on any ``backend``.
    """
    if games < 1:
        raise ValueError(f"games: must be at least 1, got {games}")
    if hard_iterations < 1:
        raise ValueError(f"hard_iterations: must be at least 1, got {hard_iterations}")
    if action_cap < 1:
        raise ValueError(f"action_cap: must be at least 1, got {action_cap}")
    if not variants:
        raise ValueError("rules: give at least one preset")
    skill_bot = parse_entrant(skill_bot)
    check_entrant(skill_bot)
    configurations = lab_configurations(variants, players)
    runner: Backend = backend if backend is not None else LocalBackend()
    tasks = [
        _LabBatch(number, variant, count, run, seed, indices, hard_iterations, action_cap, skill_bot)
        for number, (variant, count) in enumerate(configurations)
        for run in RUNS
        for indices in batches(games, runner.workers, LAB_BATCH)
    ]
    total = planned_lab_games(len(configurations), games)
    counts = {(number, run): _RunCounts(count) for number, (_, count) in enumerate(configurations)
              for run in RUNS}
    done = 0

    def finished(result: tuple[int, str, tuple[LabGame, ...]]) -> None:
        nonlocal done
        done += len(result[2])
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    started = time.perf_counter()
    for number, run, played in run_in_order(runner, _play_batch, tasks, finished):
        for game in played:
            counts[number, run].add(game)
    seconds = time.perf_counter() - started

    results = []
    for number, (variant, count) in enumerate(configurations):
        runs = tuple(counts[number, run].stats(run) for run in RUNS)
        baseline = next(stats for stats in runs if stats.run == "random")
        skill = _skill(count, counts[number, SKILL_RUN], counts[number, "random"], baseline)
        results.append(ConfigurationStats(variant, count, runs, skill))
    return LabResult(
        seed=seed,
        games=games,
        hard_iterations=hard_iterations,
        action_cap=action_cap,
        backend=runner.name,
        workers=runner.workers,
        seconds=seconds,
        configurations=tuple(results),
        skill_bot=skill_bot,
    )
