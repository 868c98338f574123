"""Bot tournaments: which entrant loses least, measured so that luck and seating cancel out.

A tournament seats one entrant per seat (``bots`` names each entrant: a level, a checkpoint
``learned:PATH.npz``, a researcher's ``module:callable``, or ``openspiel-ismcts``; a name may
appear more than once, each copy its own entrant, ``normal#1``, ``normal#2``). Games are played
in *deals*: each deal is one shuffled deck, played once with every seating of a fixed design
(:func:`seating_design`), so a lucky deal favours a seat, never an entrant, and who sits next
to whom (the left neighbour is the phase-1 opponent in some variants) cancels out too:

- up to 4 players, every ordering of the entrants round the table (2, 6 or 24 games a deal);
- with 5 or 6, a balanced design: a few orders round the table (Hamiltonian cycles of the
  entrants) that together put every pair of entrants side by side equally often, each read
  both ways round and in every rotation, so every entrant sits in every seat equally often
  and has every other entrant on its left as often as on its right (20 games a deal at 5
  players, 60 at 6).

Asked-for game counts are rounded *up* to whole deals (:attr:`TournamentResult.games_requested`
keeps the number asked for). Because every entrant plays every game of a deal, results pair
by deal: the difference between two entrants' Mattis rates is measured deal by deal, and its
interval is a t interval on those per-deal differences (:func:`paired_difference`). The games
of a deal are not independent (one deck; and one player's loss is the others' escape), so
the deals, not the games, are the units the interval counts.

Game ``index`` is fully determined by ``(rules, players, bots, seed, index, limits)``: its
deck seed comes from ``(seed, deal)`` and its agents' generators from ``(seed, index)``, so a
run gives the same games whatever the number of worker processes — for rule-based bots,
checkpoints and iteration-limited ``hard`` bots. A time-limited ``hard`` bot searches as far
as the machine gets in its time, so its games depend on machine speed and load.
:func:`play_tournament_game` replays any one game for study.

Finishing places: seats that went out get 1, 2, … in the order they went out; the loser
(Mattis) comes last. Several losers (a Blåmattis/Blodmattis deal) share the last places,
each getting their mean, so the places of every game sum to the same total and an
average place compares fairly across games (the convention of :mod:`.simulate`).
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from ..bots import (
    DEFAULT_ACTION_CAP,  # one cap for every tool
    EXPERT_LIMIT,
    LEARNED,
    LEVELS,
    MASTER,
    MASTER_LIMIT,
    Agent,
    Limit,
    PlayedGame,
    play_game,
)
from ..bots.entrants import (
    EntrantError,
    EntrantSpec,
    check_entrant,
    checkpoint_policy,
    make_entrant_agent,
)
from ..bots.entrants import entrant_spec as bots_entrant_spec
from ..bots.entrants import parse_entrant as bots_parse_entrant
from ..core import Game, Rules
from ..extras import install_command, missing_modules
from .backends import Backend, LocalBackend, batches, run_in_order
from .simulate import finishing_places  # one place convention

TOURNAMENT_FORMAT = "mattis-tournament/2"
"""Version 2: every deal in every seating of a design (``"seating"``), paired ``"differences"``."""
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
    """Games played from each seat (equal for every seat: the seating design's promise)."""
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
    design: SeatingDesign
    """The seatings every deal was played in."""
    differences: tuple[PairedDifference, ...]
    """Every pair of entrants' Mattis rates compared deal by deal, in entrant order."""
    outcomes: tuple[GameOutcome, ...]
    """Every game, in index order."""

    @property
    def reproducible(self) -> bool:
        """Whether the games depend only on the seed: false with a time-limited ``hard`` bot
        (its own budget in seconds, or the tournament's, or the interactive default), or an
        ``expert`` or ``master`` whose own budget is in seconds."""
        for level in self.bots:
            spec = entrant_spec(level)
            if spec.kind == "hard":
                limit = spec.limit or self.hard_limit
                if limit is None or limit.seconds is not None:
                    return False
            if spec.kind == "expert" and (spec.limit or EXPERT_LIMIT).seconds is not None:
                return False
            if spec.kind == MASTER and (spec.limit or MASTER_LIMIT).seconds is not None:
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
            "seating": self.design.to_dict(self.deals),
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
            "differences": [difference.to_dict() for difference in self.differences],
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


def t_quantile(p: float, df: int) -> float:
    """The ``p``-quantile of Student's t with ``df`` degrees of freedom: exact for 1 and 2,
    else the Cornish–Fisher expansion round the normal quantile (Abramowitz & Stegun
    26.7.5), within 0.004 of the table at 3 degrees of freedom and 0.001 from 4 up."""
    if df < 1:
        raise ValueError(f"df: must be at least 1, got {df}")
    if not 0 < p < 1:
        raise ValueError(f"p: must be between 0 and 1, got {p}")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) * math.sqrt(2 / (4 * p * (1 - p)))
    z = statistics.NormalDist().inv_cdf(p)
    z2 = z * z
    terms = (
        (z2 + 1) * z / 4,
        ((5 * z2 + 16) * z2 + 3) * z / 96,
        (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384,
        ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160,
    )
    return z + math.fsum(term / df ** (power + 1) for power, term in enumerate(terms))


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """How much more often entrant ``first`` was Mattis than entrant ``second``, paired by
    deal: the mean of the per-deal differences of their Mattis rates, with a 95 % t interval
    on that mean. Both played every game of every deal, so the deals are the independent
    units: the interval takes in what the games of a deal share (the deck) and how their
    results hang together (when one entrant is Mattis, the other is not)."""

    first: str
    second: str
    difference: float
    low: float
    high: float
    deals: int
    """Deals with at least one finished game (the ones the mean is over)."""

    @property
    def significant(self) -> bool:
        """Whether the interval leaves out 0: the two differ at the 5 % level."""
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {"first": self.first, "second": self.second, "mattis_rate_difference": self.difference,
                "ci95": [self.low, self.high], "deals": self.deals}


def paired_difference(first: Sequence[float], second: Sequence[float], *, names: tuple[str, str] = ("", ""),
                      confidence: float = 0.95) -> PairedDifference:
    """The mean of ``first[d] - second[d]`` over deals ``d``, with a t interval (``n - 1``
    degrees of freedom) on it: mean ± t · sd / √n. One deal gives no spread to measure, so
    its interval is the whole range of a rate difference, [-1, 1]."""
    if len(first) != len(second):
        raise ValueError(f"paired_difference: {len(first)} deals against {len(second)}")
    differences = [a - b for a, b in zip(first, second, strict=True)]
    deals = len(differences)
    if deals == 0:
        return PairedDifference(*names, 0.0, -1.0, 1.0, 0)
    mean = math.fsum(differences) / deals
    if deals == 1:
        return PairedDifference(*names, mean, -1.0, 1.0, 1)
    half = t_quantile(0.5 + confidence / 2, deals - 1) * statistics.stdev(differences) / math.sqrt(deals)
    return PairedDifference(*names, mean, max(-1.0, mean - half), min(1.0, mean + half), deals)


def per_deal_mattis_rates(outcomes: Sequence[GameOutcome], entrants: int) -> list[list[float]]:
    """Each entrant's Mattis rate in each deal with a finished game (rows: entrants, columns:
    those deals in order). Every entrant plays every game of a deal, so the columns pair up."""
    mattis: dict[int, list[int]] = {}
    finished: Counter[int] = Counter()
    for outcome in outcomes:
        if outcome.capped:
            continue
        counts = mattis.setdefault(outcome.deal, [0] * entrants)
        finished[outcome.deal] += 1
        for seat in outcome.losers:
            counts[outcome.seating[seat]] += 1
    deals = sorted(mattis)
    return [[mattis[deal][entrant] / finished[deal] for deal in deals] for entrant in range(entrants)]


def paired_differences(outcomes: Sequence[GameOutcome], names: Sequence[str]) -> tuple[PairedDifference, ...]:
    """:func:`paired_difference` for every pair of entrants, in entrant order."""
    rates = per_deal_mattis_rates(outcomes, len(names))
    return tuple(paired_difference(rates[a], rates[b], names=(names[a], names[b]))
                 for a, b in itertools.combinations(range(len(names)), 2))


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


ALL_PERMUTATIONS = "all_permutations"
"""The design of up to :data:`MAX_PERMUTED_PLAYERS` players: every ordering round the table."""
BALANCED_CYCLES = "balanced_cycles"
"""The design beyond: orders round the table that put every pair side by side equally often."""
MAX_PERMUTED_PLAYERS = 4
"""Most players for which a deal is played in every ordering (4! = 24 games; 5! would be 120)."""


@dataclass(frozen=True, slots=True)
class SeatingDesign:
    """The seatings every deal is played in: ``orderings[k]`` is the entrant at each seat in
    the ``k``-th game of a deal. Every entrant sits in every seat equally often, and has each
    other entrant on its left equally often (:func:`seating_design` says how)."""

    design: str
    """:data:`ALL_PERMUTATIONS` or :data:`BALANCED_CYCLES`."""
    orderings: tuple[tuple[int, ...], ...]

    @property
    def games_per_deal(self) -> int:
        return len(self.orderings)

    def to_dict(self, deals: int) -> dict[str, Any]:
        """The JSON form (``"seating"`` in a tournament's JSON)."""
        return {"design": self.design, "orderings": [list(order) for order in self.orderings],
                "games_per_deal": self.games_per_deal, "deals": deals}


def _hamiltonian_cycles(players: int) -> Iterator[tuple[int, ...]]:
    """Every order of ``players`` entrants round a table, once each: starting with entrant 0,
    and read one way only (the second entrant lower than the last)."""
    for rest in itertools.permutations(range(1, players)):
        if rest[0] < rest[-1]:
            yield (0, *rest)


def _side_by_side(cycle: tuple[int, ...]) -> list[frozenset[int]]:
    return [frozenset((cycle[seat], cycle[(seat + 1) % len(cycle)])) for seat in range(len(cycle))]


def balanced_cycles(players: int) -> tuple[tuple[int, ...], ...]:
    """The first set (in lexicographic order) of orders round the table that puts every pair
    of entrants side by side exactly once (odd ``players``: (n-1)/2 orders, Walecki's
    decomposition of the complete graph) or exactly twice (even ``players``, where once is
    impossible: n-1 orders). A small deterministic search, the same on every machine."""
    times = 1 if players % 2 else 2
    needed = times * (players - 1) // 2
    cycles = list(_hamiltonian_cycles(players))
    pairs = [_side_by_side(cycle) for cycle in cycles]
    count: Counter[frozenset[int]] = Counter()
    chosen: list[int] = []

    def search(start: int) -> bool:
        if len(chosen) == needed:
            return True
        for candidate in range(start, len(cycles)):
            if all(count[pair] < times for pair in pairs[candidate]):
                count.update(pairs[candidate])
                chosen.append(candidate)
                if search(candidate + 1):
                    return True
                chosen.pop()
                count.subtract(pairs[candidate])
        return False

    if not search(0):  # pragma: no cover - the decomposition exists for every size
        raise ValueError(f"no balanced seating for {players} players")
    return tuple(cycles[index] for index in chosen)


@cache
def seating_design(players: int) -> SeatingDesign:
    """The seatings of a deal at ``players`` seats: every permutation up to
    :data:`MAX_PERMUTED_PLAYERS` players; beyond, each of :func:`balanced_cycles` read both
    ways round, in every rotation (seat ``s`` of rotation ``r`` holds the order's entrant
    ``(s + r) mod n``)."""
    if players <= MAX_PERMUTED_PLAYERS:
        return SeatingDesign(ALL_PERMUTATIONS, tuple(itertools.permutations(range(players))))
    orderings: list[tuple[int, ...]] = []
    for cycle in balanced_cycles(players):
        for order in (cycle, (cycle[0], *reversed(cycle[1:]))):
            orderings.extend(tuple(order[(seat + turn) % players] for seat in range(players))
                             for turn in range(players))
    return SeatingDesign(BALANCED_CYCLES, tuple(orderings))


def games_per_deal(players: int) -> int:
    """How many games one deal is played in: 2, 6, 24, 20 or 60 for 2–6 players."""
    return seating_design(players).games_per_deal


def seating(players: int, index: int) -> tuple[int, ...]:
    """The entrant at each seat in game ``index``: its place in the deal's design."""
    design = seating_design(players)
    return design.orderings[index % design.games_per_deal]


def deal_of(players: int, index: int) -> int:
    """The deal game ``index`` belongs to."""
    return index // games_per_deal(players)


def deck_seed(seed: int, deal: int) -> int:
    """The deck seed of ``deal``; every seating of the deal shuffles the same deck."""
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
SEARCHING: tuple[str, ...] = ("hard", "expert", "master", OPENSPIEL_ISMCTS)
"""The entrants that search, and so take a budget of their own."""
OPENSPIEL_MISSING = f"{OPENSPIEL_ISMCTS} needs OpenSpiel: {install_command('rl')}"


NAMED: tuple[str, ...] = (OPENSPIEL_ISMCTS,)
"""The entrants a tournament adds to :func:`mattis.bots.entrants.parse_entrant`'s."""


def entrant_spec(name: str) -> EntrantSpec:
    """The kind and own budget (or checkpoint, or module) of a name :func:`parse_entrant` gave."""
    return bots_entrant_spec(name, NAMED)


def parse_entrant(text: str) -> str:
    """An entrant name from text: any name :func:`mattis.bots.entrants.parse_entrant`
    takes (a level with an optional budget, ``learned:PATH.npz``, ``module:callable``) or
    ``openspiel-ismcts`` with an optional number of simulations (``openspiel-ismcts:400``).
    Otherwise :class:`~mattis.bots.entrants.EntrantError` saying what is wrong."""
    name = bots_parse_entrant(text, named=NAMED, searching=NAMED)
    budget = name.partition(":")[2]
    if name.startswith(f"{OPENSPIEL_ISMCTS}:") and budget.endswith("s"):
        raise EntrantError(f"{OPENSPIEL_ISMCTS} counts simulations, not seconds "
                           f"(e.g. {OPENSPIEL_ISMCTS}:400), got {budget!r}", "cli.entrant.budget",
                           name=OPENSPIEL_ISMCTS, budget=repr(budget))
    return name


def openspiel_available() -> bool:
    """Whether the ``rl`` extra that OpenSpiel's ISMCTS runs on (OpenSpiel, numpy) is
    installed, found without importing it."""
    return not missing_modules("rl")


def make_entrant(name: str, hard_limit: Limit | None = None,
                 openspiel_simulations: int = DEFAULT_OPENSPIEL_SIMULATIONS,
                 learned_checkpoint: str | None = None) -> Agent:
    """A fresh agent for entrant ``name``: OpenSpiel's ISMCTS at ``openspiel_simulations``
    per decision (imported only when seated), or anything
    :func:`mattis.bots.entrants.make_entrant_agent` makes. A budget in the name
    (``hard:4000``) overrides ``hard_limit`` or ``openspiel_simulations``;
    ``learned_checkpoint`` is the file plain ``learned`` plays (``None``: the shipped one;
    ``learned:PATH`` plays its own)."""
    spec = entrant_spec(name)
    if spec.kind == OPENSPIEL_ISMCTS:
        if not openspiel_available():
            raise ValueError(f"bots: {OPENSPIEL_MISSING}")
        from ..envs.openspiel import OpenSpielIsmctsAgent

        return OpenSpielIsmctsAgent(simulations=spec.iterations or openspiel_simulations)
    return make_entrant_agent(name, hard_limit, learned_checkpoint=learned_checkpoint)


def check_checkpoint(path: str) -> None:
    """``ValueError`` ``"learned checkpoint: …"`` if the file at ``path`` cannot be played."""
    try:
        checkpoint_policy(path)
    except EntrantError as error:
        raise ValueError(f"learned checkpoint: {str(error).removeprefix('bots: ')}") from None


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
    for level in dict.fromkeys(levels):
        check_entrant(level, NAMED)
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
    per_deal = games_per_deal(players)
    return -(-games // per_deal) * per_deal


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
    seats = seating(players, index)
    game = Game.new(rules, players, seed=deck_seed(seed, deal_of(players, index)))
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
    deal = deal_of(batch.players, index)
    return GameOutcome(
        index=index,
        deal=deal,
        deck_seed=deck_seed(batch.seed, deal),
        seating=seating(batch.players, index),
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
    """Play ``games`` (rounded up to whole deals, :func:`games_per_deal`), each deal in every
    seating of :func:`seating_design`, and gather the standings and the paired differences.

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
    deals = total // games_per_deal(players)
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
        design=seating_design(players),
        differences=paired_differences(tally.outcomes, names),
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
