"""Benchmarks of the rules engine: random playouts and micro-timings, on one core.

Bots that search (MCTS, determinization) live on ``copy()`` + ``apply_unchecked`` +
``legal_actions()``; front ends and records go through the checked ``apply``. Both paths
are timed on the same games so their difference is the price of validation. Each figure
is the median of several runs (min and max kept too), because single timings on a shared
machine are noise.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..build import Build, build
from ..core import Action, Game, Rules

BENCH_FORMAT = "mattis-bench/1"
DEFAULT_CASES: tuple[tuple[str, int], ...] = (
    ("pagat", 3),
    ("pagat", 4),
    ("pagat", 6),
    ("kortregler", 2),
    ("kortregler", 3),
    ("app", 4),
)
"""Preset and player count of every benchmarked case."""
_ACTION_CAP = 20000
_MID_GAME_FRACTIONS = (0.25, 0.5, 0.75)
_TARGET_SAMPLE_NS = 10_000_000  # aim for ~10 ms per micro-benchmark sample


@dataclass(frozen=True, slots=True)
class Throughput:
    """Playout speed over several runs: median, min and max of games/s and actions/s."""

    games_per_second: float
    games_per_second_min: float
    games_per_second_max: float
    actions_per_second: float
    actions_per_second_min: float
    actions_per_second_max: float

    def to_dict(self) -> dict[str, float]:
        """JSON-ready figures."""
        return {
            "games_per_second": self.games_per_second,
            "games_per_second_min": self.games_per_second_min,
            "games_per_second_max": self.games_per_second_max,
            "actions_per_second": self.actions_per_second,
            "actions_per_second_min": self.actions_per_second_min,
            "actions_per_second_max": self.actions_per_second_max,
        }


@dataclass(frozen=True, slots=True)
class BenchCase:
    """Figures for one preset and player count."""

    preset: str
    players: int
    games_per_run: int
    actions_per_game: float
    """Mean actions per benchmarked game (the same games on both paths)."""
    checked: Throughput
    """``legal_actions()`` + ``apply(action)`` (validated)."""
    unchecked: Throughput
    """``legal_actions()`` + ``apply_unchecked(action)`` (the search fast path)."""
    states: int
    """Mid-game states the micro-benchmarks ran on."""
    copy_us: float
    """µs per ``copy()``."""
    copy_apply_us: float
    """µs per ``copy()`` then ``apply_unchecked()`` of a legal action."""
    legal_actions_us: float
    """µs per ``legal_actions()`` computed afresh (``copy()`` + ``legal_actions()`` minus ``copy()``)."""
    copy_legal_us: float
    """µs per ``copy()`` then ``legal_actions()``, as measured."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "preset": self.preset,
            "players": self.players,
            "games_per_run": self.games_per_run,
            "actions_per_game": self.actions_per_game,
            "checked": self.checked.to_dict(),
            "unchecked": self.unchecked.to_dict(),
            "micro": {
                "states": self.states,
                "copy_us": self.copy_us,
                "copy_apply_unchecked_us": self.copy_apply_us,
                "legal_actions_us": self.legal_actions_us,
                "copy_legal_actions_us": self.copy_legal_us,
            },
        }


@dataclass(frozen=True, slots=True)
class BenchReport:
    """A whole benchmark run and the machine it ran on."""

    python: str
    implementation: str
    build: Build
    """``"compiled"`` (mypyc) or ``"pure"`` Python: which engine ran (:mod:`mattis.build`)."""
    platform: str
    machine: str
    cpu_count: int | None
    runs: int
    games_per_run: int
    micro_repeats: int
    seconds: float
    cases: tuple[BenchCase, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report (the shape ``mattis bench --json`` prints)."""
        return {
            "format": BENCH_FORMAT,
            "python": self.python,
            "implementation": self.implementation,
            "build": self.build,
            "platform": self.platform,
            "machine": self.machine,
            "cpu_count": self.cpu_count,
            "runs": self.runs,
            "games_per_run": self.games_per_run,
            "micro_repeats": self.micro_repeats,
            "seconds": self.seconds,
            "cases": [case.to_dict() for case in self.cases],
        }


def _game_seeds(seed: int, games: int) -> list[int]:
    """Deck and move seeds for the benchmark games; fixed so every run does the same work."""
    rng = random.Random(f"bench:{seed}")
    return [rng.getrandbits(32) for _ in range(games)]


def _playouts(rules: Rules, players: int, seeds: Sequence[int], checked: bool) -> tuple[int, int]:
    """Play one random game per seed; return (nanoseconds, actions)."""
    actions = 0
    started = time.perf_counter_ns()
    for seed in seeds:
        game = Game.new(rules, players, seed=seed)
        choice = random.Random(f"{seed}:moves").choice
        done = 0
        if checked:
            while not game.is_over and done < _ACTION_CAP:
                game.apply(choice(game.legal_actions()))
                done += 1
        else:
            while not game.is_over and done < _ACTION_CAP:
                game.apply_unchecked(choice(game.legal_actions()))
                done += 1
        actions += done
    return time.perf_counter_ns() - started, actions


def _throughput(samples: Sequence[tuple[int, int]], games: int) -> Throughput:
    games_rates = [games / (ns / 1e9) for ns, _ in samples]
    action_rates = [actions / (ns / 1e9) for ns, actions in samples]
    return Throughput(
        games_per_second=statistics.median(games_rates),
        games_per_second_min=min(games_rates),
        games_per_second_max=max(games_rates),
        actions_per_second=statistics.median(action_rates),
        actions_per_second_min=min(action_rates),
        actions_per_second_max=max(action_rates),
    )


def _mid_game_states(rules: Rules, players: int, seeds: Sequence[int]) -> list[tuple[Game, Action]]:
    """States a quarter, half and three quarters through random games, each with a legal
    action. The states have never had ``legal_actions()`` called, so a copy of one computes
    its legal actions afresh (the engine caches them per state)."""
    pairs: list[tuple[Game, Action]] = []
    pick = random.Random("bench:states")
    for seed in seeds:
        full = Game.new(rules, players, seed=seed)
        choice = random.Random(f"{seed}:moves").choice
        while not full.is_over and full.num_actions < _ACTION_CAP:
            full.apply_unchecked(choice(full.legal_actions()))
        played = full.actions
        for fraction in _MID_GAME_FRACTIONS:
            stop = int(len(played) * fraction)
            state = Game.new(rules, players, seed=seed)
            for action in played[:stop]:
                state.apply_unchecked(action)
            if state.is_over:
                continue
            pairs.append((state, pick.choice(state.copy().legal_actions())))
    return pairs


def _per_call_us(body: Callable[[], None], calls: int, repeats: int, baseline_ns: float = 0.0) -> float:
    """Median µs per call of ``body`` (which makes ``calls`` calls), looping it enough
    times per sample for the clock to be accurate, minus ``baseline_ns`` per call."""
    started = time.perf_counter_ns()
    body()
    once = max(time.perf_counter_ns() - started, 1)
    loops = max(1, _TARGET_SAMPLE_NS // once)
    samples: list[float] = []
    for _ in range(repeats):
        started = time.perf_counter_ns()
        for _ in range(loops):
            body()
        samples.append((time.perf_counter_ns() - started) / (loops * calls))
    return max(0.0, statistics.median(samples) - baseline_ns) / 1000


def _micro(pairs: Sequence[tuple[Game, Action]], repeats: int) -> tuple[float, float, float, float]:
    """(copy, copy+apply_unchecked, legal_actions, copy+legal_actions) µs per call."""
    states = [state for state, _ in pairs]
    calls = len(pairs)

    def loop_only() -> None:
        for _state in states:
            pass

    def copy_only() -> None:
        for state in states:
            state.copy()

    def copy_apply() -> None:
        for state, action in pairs:
            state.copy().apply_unchecked(action)

    def copy_legal() -> None:
        for state in states:
            state.copy().legal_actions()

    baseline_ns = _per_call_us(loop_only, calls, repeats) * 1000
    copy_us = _per_call_us(copy_only, calls, repeats, baseline_ns)
    copy_apply_us = _per_call_us(copy_apply, calls, repeats, baseline_ns)
    copy_legal_us = _per_call_us(copy_legal, calls, repeats, baseline_ns)
    return copy_us, copy_apply_us, max(0.0, copy_legal_us - copy_us), copy_legal_us


def run_benchmarks(
    presets: Sequence[tuple[str, int]] = DEFAULT_CASES,
    *,
    runs: int = 5,
    games_per_run: int = 100,
    progress: Callable[[int, int], None] | None = None,
    micro_repeats: int = 7,
    micro_games: int = 20,
    seed: int = 1,
) -> BenchReport:
    """Benchmark each ``(preset, players)`` case; single-threaded, deterministic workload.

    Every run plays the same ``games_per_run`` seeded random games, once through the
    checked ``apply`` and once through ``apply_unchecked`` (interleaved, so machine load
    drifts hit both paths alike). ``progress`` gets ``(steps done, total steps)``.
    Raises ``ValueError`` for an unknown preset, a player count it does not allow, or
    non-positive counts.
    """
    if runs < 1:
        raise ValueError(f"runs: must be at least 1, got {runs}")
    if games_per_run < 1:
        raise ValueError(f"games_per_run: must be at least 1, got {games_per_run}")
    if micro_repeats < 1 or micro_games < 1:
        raise ValueError("micro_repeats and micro_games: must be at least 1")
    resolved = []
    for name, players in presets:
        rules = Rules.preset(name)
        rules.check_players(players)
        resolved.append((name, rules, players))

    total_steps = len(resolved) * (runs + 1)
    done_steps = 0
    started = time.perf_counter()
    seeds = _game_seeds(seed, games_per_run)
    cases: list[BenchCase] = []
    for name, rules, players in resolved:
        checked_samples: list[tuple[int, int]] = []
        unchecked_samples: list[tuple[int, int]] = []
        for _ in range(runs):
            checked_samples.append(_playouts(rules, players, seeds, checked=True))
            unchecked_samples.append(_playouts(rules, players, seeds, checked=False))
            done_steps += 1
            if progress is not None:
                progress(done_steps, total_steps)
        pairs = _mid_game_states(rules, players, seeds[:micro_games])
        copy_us, copy_apply_us, legal_us, copy_legal_us = (
            _micro(pairs, micro_repeats) if pairs else (0.0, 0.0, 0.0, 0.0)
        )
        done_steps += 1
        if progress is not None:
            progress(done_steps, total_steps)
        cases.append(BenchCase(
            preset=name,
            players=players,
            games_per_run=games_per_run,
            actions_per_game=unchecked_samples[0][1] / games_per_run,
            checked=_throughput(checked_samples, games_per_run),
            unchecked=_throughput(unchecked_samples, games_per_run),
            states=len(pairs),
            copy_us=copy_us,
            copy_apply_us=copy_apply_us,
            legal_actions_us=legal_us,
            copy_legal_us=copy_legal_us,
        ))
    return BenchReport(
        python=platform.python_version(),
        implementation=platform.python_implementation(),
        build=build(),
        platform=platform.platform(),
        machine=platform.machine(),
        cpu_count=os.cpu_count(),
        runs=runs,
        games_per_run=games_per_run,
        micro_repeats=micro_repeats,
        seconds=time.perf_counter() - started,
        cases=tuple(cases),
    )
