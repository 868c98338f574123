"""Random-playout statistics: what happens when everyone plays a random legal move.

Random play is the cheapest way to see a variant's shape — how long games run, how often
a seat ends up Mattis, how often Blåmattis/Blodmattis ends a game before phase 2 — and to
shake out engine bugs over thousands of deals.

Every game is reproducible on its own: game ``i`` of a run with ``seed`` draws its deck seed
and its move choices from ``random.Random(f"{seed}:{i}")``, so its outcome depends on
nothing but ``(rules, players, seed, i)``; :func:`play_random_game` replays any one of them.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots.runner import DEFAULT_ACTION_CAP
from ..core import Game, NothingLeft, NothingLeftCounts, Phase, Rules
from .backends import Backend, LocalBackend, batches, run_in_order

SIMULATION_FORMAT = "mattis-simulation/1"


@dataclass(frozen=True, slots=True)
class LongestGame:
    """Where to find the longest finished game, so it can be replayed and studied."""

    index: int
    """The game's number in the run (0-based): ``play_random_game(..., index=index)``."""
    deck_seed: int
    """The seed its deck was shuffled with: ``Game.new(rules, players, seed=deck_seed)``."""
    actions: int
    """How many actions it took."""


@dataclass(frozen=True, slots=True)
class SimulationStats:
    """Figures from a run of random-legal-move games.

    Capped games (those that reached the action cap before ending) are counted in
    :attr:`capped_games` and left out of every per-game figure, so ``finished_games +
    capped_games == games`` always holds and no game disappears silently. Timings cover
    all games.
    """

    games: int
    players: int
    rules: Rules
    seed: int
    action_cap: int
    finished_games: int
    """Games that ended with a loser within the action cap."""
    capped_games: int
    """Games stopped at the action cap (excluded from the figures below)."""
    seconds: float
    games_per_second: float
    actions_per_second: float
    """All actions applied, capped games included, per second."""
    actions_mean: float
    actions_median: float
    actions_min: int
    actions_max: int
    phase1_actions_mean: float
    """Mean actions taken in phase 1 (collecting) per finished game."""
    phase2_actions_mean: float
    """Mean actions taken in phase 2 (shedding) per finished game."""
    loser_counts: tuple[int, ...]
    """Per seat: how many games that seat was Mattis (a game may have several losers)."""
    loser_rates: tuple[float, ...]
    """Per seat: ``loser_counts / finished_games``."""
    lost_on_empty_counts: tuple[int, ...]
    """Per seat: losses with nothing left after phase 1 (Blåmattis/Blodmattis, P1.10)."""
    lost_on_empty_games: int
    """Games that ended on P1.10 rather than in phase 2."""
    lost_on_empty_rate: float
    multi_loser_games: int
    """Games with more than one loser (several empty players at once)."""
    mean_place: tuple[float, ...]
    """Per seat: average finishing place, 1 = first out; tied seats share the mean place."""
    longest_game: LongestGame | None
    """The longest finished game (first one on ties); ``None`` if none finished."""

    @property
    def lost_on_empty_name(self) -> str:
        """*Blodmattis* when only won piles count, else *Blåmattis*."""
        return "Blodmattis" if self.rules.nothing_left_counts is NothingLeftCounts.WON_PILE else "Blåmattis"

    @property
    def lost_on_empty_possible(self) -> bool:
        """Whether these rules can end a game on an empty player at all (P1.10 ``lose``)."""
        return self.rules.nothing_left is NothingLeft.LOSE

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (the shape ``mattis simulate --json`` prints)."""
        longest = self.longest_game
        return {
            "format": SIMULATION_FORMAT,
            "preset": self.rules.preset_name,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "action_cap": self.action_cap,
            "finished_games": self.finished_games,
            "capped_games": self.capped_games,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "actions_per_second": self.actions_per_second,
            "actions_per_game": {
                "mean": self.actions_mean,
                "median": self.actions_median,
                "min": self.actions_min,
                "max": self.actions_max,
            },
            "phase_actions_per_game": {
                "phase1_mean": self.phase1_actions_mean,
                "phase2_mean": self.phase2_actions_mean,
            },
            "losers": {
                "counts": list(self.loser_counts),
                "rates": list(self.loser_rates),
            },
            "lost_on_empty": {
                "name": self.lost_on_empty_name,
                "possible": self.lost_on_empty_possible,
                "games": self.lost_on_empty_games,
                "rate": self.lost_on_empty_rate,
                "counts": list(self.lost_on_empty_counts),
            },
            "multi_loser_games": self.multi_loser_games,
            "mean_place": list(self.mean_place),
            "longest_game": None if longest is None else {
                "index": longest.index,
                "deck_seed": longest.deck_seed,
                "actions": longest.actions,
            },
        }


def _game_rng(seed: int, index: int) -> tuple[int, random.Random]:
    """Deck seed and move generator of game ``index``; depends only on ``(seed, index)``."""
    rng = random.Random(f"{seed}:{index}")
    return rng.getrandbits(32), rng


def _playout(game: Game, rng: random.Random, action_cap: int) -> int:
    """Play uniform random legal moves until the game ends or ``action_cap`` actions have been
    applied in total; return how many were applied in phase 1."""
    choice = rng.choice
    done = game.num_actions
    while done < action_cap and game.phase is Phase.COLLECT:
        game.apply_unchecked(choice(game.legal_actions()))
        done += 1
    phase1 = done
    while done < action_cap and not game.is_over:
        game.apply_unchecked(choice(game.legal_actions()))
        done += 1
    return phase1


def play_random_game(rules: Rules, players: int, seed: int, *, index: int,
                     action_cap: int = DEFAULT_ACTION_CAP) -> Game:
    """Replay game ``index`` of ``simulate(rules, players, ..., seed=seed)`` exactly.

    The returned game is over unless it hit ``action_cap``; its record and history show
    every move, which is how an odd game from a statistics run gets studied.
    """
    deck_seed, rng = _game_rng(seed, index)
    game = Game.new(rules, players, seed=deck_seed)
    _playout(game, rng, action_cap)
    return game


def finishing_places(players: int, losers: tuple[int, ...], out_order: tuple[int, ...]) -> list[float]:
    """Finishing places: seats that went out get 1, 2, …; losers share the last places and
    seats that neither went out nor lost (a game ended by P1.10) share the places between,
    each group taking the mean of its places so every game's places sum the same."""
    places = [0.0] * players
    for position, seat in enumerate(out_order, start=1):
        places[seat] = float(position)
    loser_set = set(losers)
    out_set = set(out_order)
    middle = [s for s in range(players) if s not in out_set and s not in loser_set]
    start = len(out_order) + 1
    if middle:
        shared = start + (len(middle) - 1) / 2
        for seat in middle:
            places[seat] = shared
    if losers:
        first_loser_place = start + len(middle)
        shared = first_loser_place + (len(losers) - 1) / 2
        for seat in losers:
            places[seat] = shared
    return places


@dataclass(frozen=True, slots=True)
class _SimulatedGame:
    """One random game boiled down to what the statistics need (small and picklable)."""

    index: int
    deck_seed: int
    actions: int
    phase1_actions: int
    capped: bool
    losers: tuple[int, ...]
    lost_on_empty: bool
    places: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class _SimulationBatch:
    """Consecutive games of one run (picklable: a backend may send it to another machine)."""

    rules: Rules
    players: int
    seed: int
    indices: range
    action_cap: int


def _simulate_batch(batch: _SimulationBatch) -> tuple[_SimulatedGame, ...]:
    """Play a batch of random games (runs wherever the backend puts it)."""
    outcomes = []
    for index in batch.indices:
        deck_seed, rng = _game_rng(batch.seed, index)
        game = Game.new(batch.rules, batch.players, seed=deck_seed)
        phase1 = _playout(game, rng, batch.action_cap)
        result = game.result
        outcomes.append(_SimulatedGame(
            index=index,
            deck_seed=deck_seed,
            actions=game.num_actions,
            phase1_actions=phase1,
            capped=result is None,
            losers=() if result is None else tuple(result.losers),
            lost_on_empty=result is not None and result.lost_on_empty,
            places=(() if result is None
                    else tuple(finishing_places(batch.players, result.losers, result.out_order))),
        ))
    return tuple(outcomes)


SIMULATION_BATCH = 200
"""Most games per task: random games take about a millisecond, so a task needs many of
them to be worth sending to another process or machine."""


class _SimulationTally:
    """The figures so far, fed games in index order (the same on every backend)."""

    def __init__(self, players: int) -> None:
        self.lengths: list[int] = []
        self.phase1_lengths: list[int] = []
        self.loser_counts = [0] * players
        self.empty_counts = [0] * players
        self.place_sums = [0.0] * players
        self.empty_games = self.multi_loser_games = self.capped = self.total_actions = 0
        self.longest: LongestGame | None = None

    def add(self, game: _SimulatedGame) -> None:
        """Count one game (the next in index order)."""
        self.total_actions += game.actions
        if game.capped:
            self.capped += 1
            return
        self.lengths.append(game.actions)
        self.phase1_lengths.append(game.phase1_actions)
        if self.longest is None or game.actions > self.longest.actions:
            self.longest = LongestGame(index=game.index, deck_seed=game.deck_seed, actions=game.actions)
        for seat in game.losers:
            self.loser_counts[seat] += 1
            if game.lost_on_empty:
                self.empty_counts[seat] += 1
        self.empty_games += game.lost_on_empty
        self.multi_loser_games += len(game.losers) > 1
        for seat, place in enumerate(game.places):
            self.place_sums[seat] += place


def simulate(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    *,
    action_cap: int = DEFAULT_ACTION_CAP,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
) -> SimulationStats:
    """Play ``games`` random-legal-move games and gather their figures.

    Games run on ``backend`` (default: this process) and are counted as they finish; the
    figures are the same on every backend. ``progress`` is called with the number of games
    done: 0 before the first, then after each finished batch (for a progress bar). Raises
    ``ValueError`` for a player count the rules do not allow, a non-positive game count or
    action cap.
    """
    if games < 1:
        raise ValueError(f"games: must be at least 1, got {games}")
    if action_cap < 1:
        raise ValueError(f"action_cap: must be at least 1, got {action_cap}")
    rules.check_players(players)
    runner: Backend = backend if backend is not None else LocalBackend()
    tasks = [_SimulationBatch(rules, players, seed, indices, action_cap)
             for indices in batches(games, runner.workers, SIMULATION_BATCH)]
    tally = _SimulationTally(players)
    done = 0

    def finished(outcomes: tuple[_SimulatedGame, ...]) -> None:
        nonlocal done
        done += len(outcomes)
        if progress is not None:
            progress(done)

    if progress is not None:
        progress(0)
    started = time.perf_counter()
    for outcomes in run_in_order(runner, _simulate_batch, tasks, finished):
        for outcome in outcomes:
            tally.add(outcome)
    seconds = time.perf_counter() - started

    lengths, phase1_lengths = tally.lengths, tally.phase1_lengths
    finished_games = len(lengths)
    per_game = 1 / finished_games if finished_games else 0.0
    rate_base = max(seconds, 1e-9)
    return SimulationStats(
        games=games,
        players=players,
        rules=rules,
        seed=seed,
        action_cap=action_cap,
        finished_games=finished_games,
        capped_games=tally.capped,
        seconds=seconds,
        games_per_second=games / rate_base,
        actions_per_second=tally.total_actions / rate_base,
        actions_mean=statistics.fmean(lengths) if lengths else 0.0,
        actions_median=float(statistics.median(lengths)) if lengths else 0.0,
        actions_min=min(lengths, default=0),
        actions_max=max(lengths, default=0),
        phase1_actions_mean=statistics.fmean(phase1_lengths) if lengths else 0.0,
        phase2_actions_mean=(
            statistics.fmean(a - p for a, p in zip(lengths, phase1_lengths, strict=True))
            if lengths else 0.0
        ),
        loser_counts=tuple(tally.loser_counts),
        loser_rates=tuple(count * per_game for count in tally.loser_counts),
        lost_on_empty_counts=tuple(tally.empty_counts),
        lost_on_empty_games=tally.empty_games,
        lost_on_empty_rate=tally.empty_games * per_game,
        multi_loser_games=tally.multi_loser_games,
        mean_place=tuple(total * per_game for total in tally.place_sums),
        longest_game=tally.longest,
    )
