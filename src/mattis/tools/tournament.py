"""Bot tournaments: which level loses least, measured so that luck and seating cancel out.

A tournament seats one entrant per seat (``bots`` lists a level per entrant; a level may
appear more than once, each copy its own entrant, ``normal#1``, ``normal#2``). Games are
played in *deals*: each deal is one shuffled deck, played once per rotation of the
entrants round the table, so every entrant holds every seat's hand of every deal
(duplicate style: a lucky deal favours a seat, not a bot). Who sits next to whom matters
too (the left neighbour is the phase-1 opponent in some variants), so each pair of deals
takes a seeded order round the table and reads it one way on the even deal and the other
way on the odd one: every entrant has each of its neighbours on its left as often as on
its right, with three players every seating order comes up equally, and with more players
the neighbours vary from pair to pair. Asked-for game counts are rounded *up* to whole
deals (:attr:`TournamentResult.games_requested` keeps the number asked for).

Game ``index`` is fully determined by ``(rules, players, bots, seed, index, limits)``: its
deck seed comes from ``(seed, index // players)`` and its agents' generators from
``(seed, index)``, so a run gives the same games whatever the number of worker processes
— for rule-based bots and iteration-limited ``hard`` bots. A time-limited ``hard`` bot
searches as far as the machine gets in its time, so its games depend on machine speed
and load. :func:`play_tournament_game` replays any one game for study.

Finishing places: seats that went out get 1, 2, … in the order they went out; the loser
(Mattis) comes last. Several losers (a Blåmattis/Blodmattis deal) share the last places,
each getting their mean, so the places of every game sum to the same total and an
average place compares fairly across games (the convention of :mod:`.simulate`).
"""

from __future__ import annotations

import math
import random
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from ..bots import (
    DEFAULT_ACTION_CAP,  # one cap for every tool
    EXPERT_LIMIT,
    LEARNED,
    LEVELS,
    Agent,
    Limit,
    PlayedGame,
    available_levels,
    make_agent,
    play_game,
)
from ..core import Game, Rules
from ..extras import install_command, missing_modules, needs_extra
from .backends import Backend, LocalBackend, batches, run_in_order
from .simulate import finishing_places  # one place convention

TOURNAMENT_FORMAT = "mattis-tournament/1"
DEFAULT_HARD_LIMIT = Limit(iterations=1000)
"""The ``hard`` budget the command line uses unless told otherwise: an iteration count,
so results are the same on every machine (about 0.2 s a move on a laptop core, where the
interactive default of 1 s reaches roughly 5000 iterations)."""
WILSON_Z = 1.959963984540054
"""The normal quantile for a two-sided 95 % interval."""


# ---------------------------------------------------------------------------- value types


@dataclass(frozen=True, slots=True)
class Rating:
    """An OpenSkill (Plackett–Luce) rating; ``ordinal = mu - 3 sigma`` is the cautious
    estimate to rank by, because a bot with few games has a wide ``sigma``."""

    mu: float
    sigma: float
    ordinal: float

    def to_dict(self) -> dict[str, float]:
        """JSON-ready figures."""
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


@dataclass(frozen=True, slots=True)
class DecisionFigures:
    """How long an entrant thought per non-forced decision (forced moves cost nothing and
    are not counted). Wall-clock figures: they vary from run to run."""

    decisions: int
    seconds_total: float
    seconds_median: float
    seconds_p95: float
    iterations: int
    """Search iterations over all decisions (0 for rule-based bots)."""
    iterations_per_second: float | None
    """``iterations / seconds_total`` for a searching bot, else ``None``."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "decisions": self.decisions,
            "seconds_total": self.seconds_total,
            "seconds_median": self.seconds_median,
            "seconds_p95": self.seconds_p95,
            "iterations": self.iterations,
            "iterations_per_second": self.iterations_per_second,
        }


@dataclass(frozen=True, slots=True)
class Standing:
    """The figures of one entrant, or of every entrant of one level together.

    For a level with several entrants the counts are over entrant-games (two ``normal``
    entrants in 300 games make 600), and the rating is the mean of its entrants' ratings.
    Rates and places are over finished games only; capped games are counted apart.
    """

    name: str
    """``"normal"``, or ``"normal#2"`` for a repeated level's second entrant."""
    level: str
    games: int
    finished_games: int
    capped_games: int
    """Games stopped at the action cap; left out of every rate, place and rating."""
    mattis: int
    """Finished games this entrant lost."""
    mattis_rate: float
    mattis_low: float
    """Lower end of the 95 % Wilson interval of :attr:`mattis_rate`."""
    mattis_high: float
    mean_place: float
    seat_games: tuple[int, ...]
    """Games played from each seat (equal for every seat: the rotation's promise)."""
    rating: Rating
    decisions: DecisionFigures

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "name": self.name,
            "level": self.level,
            "games": self.games,
            "finished_games": self.finished_games,
            "capped_games": self.capped_games,
            "mattis": self.mattis,
            "mattis_rate": self.mattis_rate,
            "mattis_ci95": [self.mattis_low, self.mattis_high],
            "mean_place": self.mean_place,
            "seat_games": list(self.seat_games),
            "rating": self.rating.to_dict(),
            "decisions": self.decisions.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One tournament game as the worker played it: small and picklable."""

    index: int
    deal: int
    deck_seed: int
    seating: tuple[int, ...]
    """The entrant (index into :attr:`TournamentResult.entrants`) at each seat."""
    capped: bool
    losers: tuple[int, ...]
    """Losing seats; empty when capped."""
    places: tuple[float, ...]
    """Finishing place of each seat; empty when capped."""
    actions: int
    decisions: tuple[tuple[int, float, int], ...]
    """``(seat, seconds, iterations)`` per non-forced decision."""


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A finished tournament: per-entrant and per-level standings plus every game's outcome."""

    rules: Rules
    players: int
    bots: tuple[str, ...]
    """The level of each entrant, in the order given."""
    entrants: tuple[str, ...]
    """Each entrant's name (``normal#2`` when a level repeats)."""
    seed: int
    games_requested: int
    games: int
    """Games played: :attr:`games_requested` rounded up to whole deals."""
    deals: int
    workers: int
    hard_limit: Limit | None
    action_cap: int
    openspiel_simulations: int | None
    """The ``openspiel-ismcts`` budget per decision; ``None`` when it was not seated (or
    only with budgets of its own, ``openspiel-ismcts:400``)."""
    learned_checkpoint: str | None
    backend: str
    """``"local"`` or ``"ray"``: where the games ran (it never changes what they are)."""
    finished_games: int
    capped_games: int
    seconds: float
    games_per_second: float
    standings: tuple[Standing, ...]
    """One per entrant, in :attr:`entrants` order."""
    levels: tuple[Standing, ...]
    """One per distinct level, in order of first appearance."""
    outcomes: tuple[GameOutcome, ...]
    """Every game, in index order."""

    @property
    def reproducible(self) -> bool:
        """Whether the games depend only on the seed: false with a time-limited ``hard`` bot
        (its own budget in seconds, or the tournament's, or the interactive default)."""
        for level in self.bots:
            spec = entrant_spec(level)
            if spec.kind == "hard":
                limit = spec.limit or self.hard_limit
                if limit is None or limit.seconds is not None:
                    return False
            if spec.kind == "expert" and (spec.limit or EXPERT_LIMIT).seconds is not None:
                return False
        return True

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (the shape ``mattis tournament --json`` prints), without the
        per-game outcomes."""
        limit = self.hard_limit
        return {
            "format": TOURNAMENT_FORMAT,
            "preset": self.rules.preset_name,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "bots": list(self.bots),
            "entrants": list(self.entrants),
            "seed": self.seed,
            "games_requested": self.games_requested,
            "games": self.games,
            "deals": self.deals,
            "workers": self.workers,
            "backend": self.backend,
            "hard_limit": None if limit is None else {"seconds": limit.seconds,
                                                      "iterations": limit.iterations},
            "openspiel_simulations": self.openspiel_simulations,
            "learned_checkpoint": self.learned_checkpoint,
            "reproducible": self.reproducible,
            "action_cap": self.action_cap,
            "finished_games": self.finished_games,
            "capped_games": self.capped_games,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "standings": [standing.to_dict() for standing in self.standings],
            "levels": [standing.to_dict() for standing in self.levels],
        }


# ---------------------------------------------------------------------------- statistics


def wilson_interval(successes: int, trials: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The Wilson score interval of a proportion: unlike ``p ± z·se`` it stays inside
    [0, 1] and is honest for rates near 0 or 1 and for small samples. ``(0, 1)`` for no trials."""
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"wilson_interval: need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no rounding dust
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0-1) by linear interpolation between order statistics (NumPy's
    default); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


# ---------------------------------------------------------------------------- playing


def entrant_names(bots: Sequence[str]) -> tuple[str, ...]:
    """``("hard", "normal#1", "normal#2")`` for ``hard,normal,normal``: a repeated level is
    numbered so every entrant has its own row."""
    counts = Counter(bots)
    seen: Counter[str] = Counter()
    names = []
    for level in bots:
        seen[level] += 1
        names.append(f"{level}#{seen[level]}" if counts[level] > 1 else level)
    return tuple(names)


def seating(players: int, index: int, seed: int) -> tuple[int, ...]:
    """The entrant at each seat in game ``index``: rotation ``index % players`` of deal
    ``index // players``. Each pair of deals shares a seeded order round the table, read one
    way on the even deal and the other way on the odd one."""
    deal, turn = divmod(index, players)
    order = list(range(players))
    random.Random(f"{seed}:order{deal // 2}").shuffle(order)
    step = 1 if deal % 2 == 0 else -1
    return tuple(order[(turn + step * seat) % players] for seat in range(players))


def deck_seed(seed: int, deal: int) -> int:
    """The deck seed of ``deal``; every rotation of the deal shuffles the same deck."""
    return random.Random(f"{seed}:deal{deal}").getrandbits(32)


OPENSPIEL_ISMCTS = "openspiel-ismcts"
"""The tournament name of OpenSpiel's Python ISMCTS (:class:`mattis.envs.openspiel.OpenSpielIsmctsAgent`)."""
ENTRANTS: tuple[str, ...] = (*LEVELS, OPENSPIEL_ISMCTS)
"""What a tournament can seat: our bot levels and OpenSpiel's ISMCTS, an outside yardstick
for ``hard``. The extra name lives here, not in :data:`mattis.bots.LEVELS`: it needs the
``rl`` extra and is meant for measuring, not for playing against."""
DEFAULT_OPENSPIEL_SIMULATIONS = 200
"""The ``openspiel-ismcts`` budget unless told otherwise: simulations per decision (the
agent's own default; about 0.3 s a decision on a laptop core)."""
SEARCHING: tuple[str, ...] = ("hard", "expert", OPENSPIEL_ISMCTS)
"""The entrants that search, and so take a budget of their own."""
OPENSPIEL_MISSING = f"{OPENSPIEL_ISMCTS} needs OpenSpiel: {install_command('rl')}"
LEARNED_MISSING = needs_extra("the learned bot", "rl")
"""Without numpy the ``learned`` level cannot play: the one line that says so."""


_BUDGET = re.compile(r"(?:(?P<iterations>[0-9]{1,9})|(?P<seconds>[0-9]{1,5}(?:\.[0-9]{1,6})?)s)", re.ASCII)
"""A budget after the colon: an iteration (simulation) count, or seconds ending in ``s``."""
MAX_BUDGET_SECONDS = 3600.0
"""No move needs more thought than an hour; a larger figure is a typo."""


@dataclass(frozen=True, slots=True)
class EntrantSpec:
    """What an entrant name asks for: a kind (a bot level or ``openspiel-ismcts``) and,
    for a searching kind, its own budget (``hard:4000``, ``hard:0.5s``,
    ``openspiel-ismcts:400``), which overrides the tournament-wide one."""

    kind: str
    iterations: int | None = None
    seconds: float | None = None

    @property
    def limit(self) -> Limit | None:
        """The entrant's own ``hard`` budget, if it has one."""
        if self.iterations is None and self.seconds is None:
            return None
        return Limit(seconds=self.seconds, iterations=self.iterations)


def entrant_spec(name: str) -> EntrantSpec:
    """The kind and own budget of a name that :func:`parse_entrant` accepted."""
    kind, _, budget = name.partition(":")
    if not budget:
        return EntrantSpec(kind)
    if budget.endswith("s"):
        return EntrantSpec(kind, seconds=float(budget[:-1]))
    return EntrantSpec(kind, iterations=int(budget))


def parse_entrant(text: str) -> str:
    """An entrant name from text (any case): a bot level or ``openspiel-ismcts``, with an
    optional budget of its own after a colon: ``hard:4000`` (iterations), ``hard:0.5s``
    (seconds a move) or ``openspiel-ismcts:400`` (simulations). Otherwise ``ValueError``
    ``"bots: unknown level 'x'; choose one of …"`` or one saying what a budget looks like."""
    name = text.strip().lower()
    kind, colon, budget = name.partition(":")
    kind = kind.strip()
    budget = budget.strip()
    if kind not in ENTRANTS:
        printable = "".join(char for char in kind if char.isprintable())[:40]
        shown = repr(printable) if printable else "(empty)"
        raise ValueError(f"bots: unknown level {shown}; choose one of {', '.join(ENTRANTS)}")
    if not colon:
        return kind
    shown_budget = repr("".join(char for char in budget if char.isprintable())[:40])
    if kind not in SEARCHING:
        raise ValueError(f"bots: {kind} takes no budget (only {' and '.join(SEARCHING)} search), "
                         f"got {shown_budget}")
    match = _BUDGET.fullmatch(budget)
    if match is None:
        example = f"{kind}:4000 or {kind}:0.5s" if kind != OPENSPIEL_ISMCTS else f"{kind}:400"
        raise ValueError(f"bots: the budget after '{kind}:' must be a whole number of iterations or "
                         f"seconds ending in s (e.g. {example}), got {shown_budget}")
    if match["iterations"] is not None:
        iterations = int(match["iterations"])
        if iterations < 1:
            raise ValueError(f"bots: {kind} needs at least 1 iteration, got {iterations}")
        return f"{kind}:{iterations}"
    if kind == OPENSPIEL_ISMCTS:
        raise ValueError(f"bots: {kind} counts simulations, not seconds (e.g. {kind}:400), "
                         f"got {shown_budget}")
    seconds = float(match["seconds"])
    if not 0 < seconds <= MAX_BUDGET_SECONDS:
        raise ValueError(f"bots: {kind} needs more than 0 and at most {MAX_BUDGET_SECONDS:g} seconds "
                         f"a move, got {shown_budget}")
    return f"{kind}:{seconds:g}s"


def openspiel_available() -> bool:
    """Whether the ``rl`` extra that OpenSpiel's ISMCTS runs on (OpenSpiel, numpy) is
    installed, found without importing it."""
    return not missing_modules("rl")


def make_entrant(name: str, hard_limit: Limit | None = None,
                 openspiel_simulations: int = DEFAULT_OPENSPIEL_SIMULATIONS,
                 learned_checkpoint: str | None = None) -> Agent:
    """A fresh agent for entrant ``name``: one of our levels, or OpenSpiel's ISMCTS at
    ``openspiel_simulations`` per decision (imported only when seated). A budget in the
    name (``hard:4000``) overrides ``hard_limit`` or ``openspiel_simulations``;
    ``learned_checkpoint`` is the file the ``learned`` level plays (``None``: the shipped one)."""
    spec = entrant_spec(name)
    if spec.kind == LEARNED:
        if LEARNED not in available_levels():
            raise ValueError(f"bots: {LEARNED_MISSING}")
        if learned_checkpoint is not None:
            from ..bots.learned import LearnedAgent

            return LearnedAgent(_checkpoint(learned_checkpoint))
    if spec.kind == OPENSPIEL_ISMCTS:
        if not openspiel_available():
            raise ValueError(f"bots: {OPENSPIEL_MISSING}")
        from ..envs.openspiel import OpenSpielIsmctsAgent

        return OpenSpielIsmctsAgent(simulations=spec.iterations or openspiel_simulations)
    if spec.kind == "expert":  # the tournament-wide budget is hard's; expert keeps its own
        return make_agent(spec.kind, spec.limit)
    return make_agent(spec.kind, spec.limit or hard_limit)


@lru_cache(maxsize=4)
def _checkpoint(path: str) -> Any:
    """The policy of a checkpoint file, read once per process (every game seats a fresh agent)."""
    from ..bots.learned import load_checkpoint

    return load_checkpoint(path)


def check_checkpoint(path: str) -> None:
    """``ValueError`` ``"learned checkpoint: …"`` if the file at ``path`` cannot be played."""
    if LEARNED not in available_levels():
        raise ValueError(f"bots: {LEARNED_MISSING}")
    from ..bots.learned import CheckpointError

    try:
        _checkpoint(path)
    except CheckpointError as error:
        raise ValueError(f"learned checkpoint: {error}") from None


def uses_openspiel(levels: Sequence[str]) -> bool:
    """Whether any entrant is OpenSpiel's ISMCTS (with or without a budget of its own)."""
    return any(entrant_spec(level).kind == OPENSPIEL_ISMCTS for level in levels)


def _check(rules: Rules, players: int, bots: Sequence[str], games: int, *, workers: int,
           action_cap: int, openspiel_simulations: int = DEFAULT_OPENSPIEL_SIMULATIONS) -> tuple[str, ...]:
    """Normalised entrant names, or ``ValueError`` naming the bad argument."""
    rules.check_players(players)
    levels = tuple(parse_entrant(level) for level in bots)
    if uses_openspiel(levels) and not openspiel_available():
        raise ValueError(f"bots: {OPENSPIEL_MISSING}")
    if LEARNED in levels and LEARNED not in available_levels():
        raise ValueError(f"bots: {LEARNED_MISSING}")
    if len(levels) != players:
        raise ValueError(f"bots: need one per seat ({players}), got {len(levels)}")
    if games < 1:
        raise ValueError(f"games: must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"workers: must be at least 1, got {workers}")
    if action_cap < 1:
        raise ValueError(f"action_cap: must be at least 1, got {action_cap}")
    if openspiel_simulations < 1:
        raise ValueError(f"openspiel_simulations: must be at least 1, got {openspiel_simulations}")
    return levels


def planned_games(games: int, players: int) -> int:
    """The games a tournament of ``games`` plays: rounded up to whole deals. Known before
    the first game, so a progress bar can show its total from the start."""
    return -(-games // players) * players


def play_tournament_game(
    rules: Rules,
    players: int,
    bots: Sequence[str],
    seed: int,
    *,
    index: int,
    hard_limit: Limit | None = None,
    action_cap: int = DEFAULT_ACTION_CAP,
    openspiel_simulations: int = DEFAULT_OPENSPIEL_SIMULATIONS,
    learned_checkpoint: str | None = None,
) -> PlayedGame:
    """Play (or replay) game ``index`` of a tournament exactly: fresh agents, the deal's
    deck and the game's own generators, so nothing else in the run can influence it."""
    levels = _check(rules, players, bots, 1, workers=1, action_cap=action_cap,
                    openspiel_simulations=openspiel_simulations)
    seats = seating(players, index, seed)
    game = Game.new(rules, players, seed=deck_seed(seed, index // players))
    agents = [make_entrant(levels[entrant], hard_limit, openspiel_simulations, learned_checkpoint)
              for entrant in seats]
    return play_game(game, agents, seed=f"{seed}:{index}", action_cap=action_cap)


@dataclass(frozen=True, slots=True)
class _Batch:
    """Everything a worker needs to play a run of consecutive games (picklable)."""

    rules: Rules
    players: int
    bots: tuple[str, ...]
    seed: int
    indices: range
    hard_limit: Limit | None
    action_cap: int
    openspiel_simulations: int
    learned_checkpoint: str | None = None


def _play_one(batch: _Batch, index: int) -> GameOutcome:
    """Play game ``index`` and boil it down to an outcome."""
    played = play_tournament_game(batch.rules, batch.players, batch.bots, batch.seed, index=index,
                                  hard_limit=batch.hard_limit, action_cap=batch.action_cap,
                                  openspiel_simulations=batch.openspiel_simulations,
                                  learned_checkpoint=batch.learned_checkpoint)
    game = played.game
    result = game.result
    capped = played.capped or result is None
    places: tuple[float, ...] = ()
    losers: tuple[int, ...] = ()
    if not capped and result is not None:
        losers = result.losers
        places = tuple(finishing_places(batch.players, result.losers, result.out_order))
    deal = index // batch.players
    return GameOutcome(
        index=index,
        deal=deal,
        deck_seed=deck_seed(batch.seed, deal),
        seating=seating(batch.players, index, batch.seed),
        capped=capped,
        losers=losers,
        places=places,
        actions=game.num_actions,
        decisions=tuple((d.seat, d.seconds, d.iterations) for d in played.decisions),
    )


def _play_batch(batch: _Batch) -> tuple[GameOutcome, ...]:
    """Play a batch of games (runs wherever the backend puts it)."""
    return tuple(_play_one(batch, index) for index in batch.indices)


SEARCH_BATCH = 4
"""Games per task when a searching entrant plays (seconds a game): small batches keep the
progress bar moving and the workers evenly loaded."""
RULE_BATCH = 50
"""Games per task between rule-based bots (milliseconds a game): large enough that the
cost of sending a task is small beside the games."""


def run_tournament(
    rules: Rules,
    players: int,
    bots: Sequence[str],
    games: int,
    *,
    seed: int,
    workers: int = 1,
    hard_limit: Limit | None = None,
    action_cap: int = DEFAULT_ACTION_CAP,
    progress: Callable[[int, int], None] | None = None,
    backend: Backend | None = None,
    openspiel_simulations: int = DEFAULT_OPENSPIEL_SIMULATIONS,
    learned_checkpoint: str | None = None,
) -> TournamentResult:
    """Play ``games`` (rounded up to a multiple of ``players``) with rotated seats and
    gather the standings.

    ``hard_limit`` is the ``hard`` bot's budget (``None``: its interactive default, 1 s);
    ``openspiel_simulations`` that of ``openspiel-ismcts``; ``learned_checkpoint`` the file
    the ``learned`` level plays (``None``: the shipped one). Games run on ``backend``
    (default: :class:`LocalBackend` with ``workers`` processes); the games are the same on
    any backend and worker count, and they are counted as they finish.
    ``progress(done, total)`` is called once before the first game (``done`` 0, the total
    already known) and after each finished batch. Raises ``ValueError`` for an unknown
    entrant, a bot count other than ``players``, a player count the rules do not allow, or
    a non-positive ``games``, ``workers``, ``action_cap`` or ``openspiel_simulations``.
    """
    levels = _check(rules, players, bots, games, workers=workers, action_cap=action_cap,
                    openspiel_simulations=openspiel_simulations)
    total = planned_games(games, players)
    deals = total // players
    runner: Backend = backend if backend is not None else LocalBackend(min(workers, total))
    searching = any(entrant_spec(level).kind in SEARCHING for level in levels)
    if learned_checkpoint is not None and LEARNED in levels:
        check_checkpoint(learned_checkpoint)
    tasks = [_Batch(rules, players, levels, seed, indices, hard_limit, action_cap, openspiel_simulations,
                    learned_checkpoint)
             for indices in batches(total, runner.workers, SEARCH_BATCH if searching else RULE_BATCH)]
    tally = _Tally(levels, players)
    done = 0

    def finished(outcomes: tuple[GameOutcome, ...]) -> None:
        nonlocal done
        done += len(outcomes)
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    started = time.perf_counter()
    for outcomes in run_in_order(runner, _play_batch, tasks, finished):
        for outcome in outcomes:
            tally.add(outcome)
    seconds = time.perf_counter() - started

    names = entrant_names(levels)
    standings = tuple(tally.standing(names[entrant], levels[entrant], {entrant})
                      for entrant in range(len(levels)))
    level_rows = tuple(tally.standing(level, level, {e for e, name in enumerate(levels) if name == level})
                       for level in dict.fromkeys(levels))
    return TournamentResult(
        rules=rules,
        players=players,
        bots=levels,
        entrants=names,
        seed=seed,
        games_requested=games,
        games=total,
        deals=deals,
        workers=runner.workers,
        hard_limit=hard_limit,
        action_cap=action_cap,
        openspiel_simulations=openspiel_simulations if OPENSPIEL_ISMCTS in levels else None,
        learned_checkpoint=learned_checkpoint if LEARNED in levels else None,
        backend=runner.name,
        finished_games=total - tally.capped,
        capped_games=tally.capped,
        seconds=seconds,
        games_per_second=total / max(seconds, 1e-9),
        standings=standings,
        levels=level_rows,
        outcomes=tuple(tally.outcomes),
    )


# ---------------------------------------------------------------------------- aggregation


@dataclass(slots=True)
class _EntrantCounts:
    """One entrant's running figures (mutable: fed one game at a time)."""

    players: int
    games: int = 0
    finished: int = 0
    capped: int = 0
    mattis: int = 0
    place_sum: float = 0.0
    iterations: int = 0
    seat_games: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seat_games = [0] * self.players


class _Tally:
    """The standings so far, fed finished games in index order: counts, thinking time and
    OpenSkill ratings (rated game by game in index order, so the ratings are as
    reproducible as the games). Shared by every backend."""

    def __init__(self, levels: Sequence[str], players: int) -> None:
        self.players = players
        self.model = PlackettLuce()
        self.ratings = [self.model.rating(name=str(entrant)) for entrant in range(len(levels))]
        self.counts = [_EntrantCounts(players) for _ in levels]
        self.capped = 0
        self.outcomes: list[GameOutcome] = []

    def add(self, outcome: GameOutcome) -> None:
        """Count one game (the next in index order)."""
        self.outcomes.append(outcome)
        self.capped += outcome.capped
        for seat, entrant in enumerate(outcome.seating):
            counts = self.counts[entrant]
            counts.games += 1
            counts.seat_games[seat] += 1
            if outcome.capped:
                counts.capped += 1
            else:
                counts.finished += 1
                counts.mattis += seat in outcome.losers
                counts.place_sum += outcome.places[seat]
        for seat, spent, searched in outcome.decisions:
            counts = self.counts[outcome.seating[seat]]
            counts.seconds.append(spent)
            counts.iterations += searched
        if not outcome.capped:
            teams = [[self.ratings[entrant]] for entrant in outcome.seating]
            rated = self.model.rate(teams, ranks=list(outcome.places))
            for seat, entrant in enumerate(outcome.seating):
                self.ratings[entrant] = rated[seat][0]

    def standing(self, name: str, level: str, members: set[int]) -> Standing:
        """Figures for the entrants in ``members`` together."""
        chosen = [self.counts[entrant] for entrant in sorted(members)]
        ratings: list[PlackettLuceRating] = [self.ratings[entrant] for entrant in sorted(members)]
        finished = sum(counts.finished for counts in chosen)
        mattis = sum(counts.mattis for counts in chosen)
        place_sum = math.fsum(counts.place_sum for counts in chosen)
        seconds = [spent for counts in chosen for spent in counts.seconds]
        iterations = sum(counts.iterations for counts in chosen)
        low, high = wilson_interval(mattis, finished)
        total_seconds = math.fsum(seconds)
        per_second = iterations / total_seconds if iterations and total_seconds > 0 else None
        return Standing(
            name=name,
            level=level,
            games=sum(counts.games for counts in chosen),
            finished_games=finished,
            capped_games=sum(counts.capped for counts in chosen),
            mattis=mattis,
            mattis_rate=mattis / finished if finished else 0.0,
            mattis_low=low,
            mattis_high=high,
            mean_place=place_sum / finished if finished else 0.0,
            seat_games=tuple(sum(counts.seat_games[seat] for counts in chosen)
                             for seat in range(self.players)),
            rating=Rating(
                mu=statistics.fmean(rating.mu for rating in ratings),
                sigma=statistics.fmean(rating.sigma for rating in ratings),
                ordinal=statistics.fmean(rating.ordinal() for rating in ratings),
            ),
            decisions=DecisionFigures(
                decisions=len(seconds),
                seconds_total=total_seconds,
                seconds_median=float(statistics.median(seconds)) if seconds else 0.0,
                seconds_p95=percentile(seconds, 0.95),
                iterations=iterations,
                iterations_per_second=per_second,
            ),
        )
