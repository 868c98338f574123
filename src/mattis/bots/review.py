"""A look back at one seat's game, judged only from what that seat knew at each moment.

For every decision of the seat (a move with more than one legal action), the seat's view
then (:class:`~mattis.bots.view.PlayerView`: its hand, the public history and what that
history shows about the other hands) is all the estimator reads. It deals the cards the
seat could not see at random, consistently with that view (:mod:`mattis.bots.sampling`,
the same sampler the ``hard`` search uses), ``iterations`` times; in each sampled deal
(a *world*) it plays every legal move and then plays the game out with the ``expert``
bot's rollout policy (:func:`~mattis.bots.ismcts.informed_rollout_action`: the ``normal``
bot's card sense, which reads only the mover's own hand and the public table, with a few
random moves) for every seat. A move's *risk* is the share of worlds in which the seat
ended as Mattis, a loss at the end of phase 1 (Blåmattis, Blodmattis, P1.10) included.
A move after which the seat would be out (P2.8) has no risk; a playout stopped at the
action cap counts as an even share among the players still in.

Forced moves (one legal action) are not decisions: the review lists their action numbers
(:attr:`Review.forced`) and judges nothing there.

Every move of one decision is played in the same worlds with the same rollout dice
(common random numbers), so the difference between two moves is not the noise of two
different samples; the standard errors are reported with the risks. The real hidden
hands are never read: the review is a function of the seat's views, the moves played,
the budget and the seed (``tests/test_review.py`` checks this on pairs of games that
differ only in cards the seat never saw). Each decision draws its dice from the seed and
the action's number alone, so decisions could be shared out between workers and give
the same values.

:func:`review_record` is the whole review: a pure function of plain, picklable values
(the record as JSON, the seat, the budget, the seed) that returns a frozen
:class:`Review`, for a worker process of the web server as for the offline app on the
device (with a smaller budget) and the ``mattis review`` command.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.actions import Action
from ..core.cards import codes_of, parse_card
from ..core.game import Game
from ..core.phase import Phase
from ..core.record import is_int
from ..core.rules import NothingLeft
from ..i18n import lost_on_empty_name
from .ismcts import ROLLOUT_ACTION_CAP, informed_rollout_action
from .runner import derived_rng, seat_view
from .sampling import sample_position
from .view import CardTracker, PlayerView

REVIEW_ITERATIONS = 400
"""The default budget: sampled worlds per decision. Each world plays every legal move out
once, so a decision costs ``iterations`` × (its number of legal moves) playouts. At 400 a
whole game took a median 27 CPU seconds in pure Python (9 to 39 over 8 games); a typical
choice's cost has a standard error under one percentage point, a turning point's a few
points (each is reported: ``benchmarks/review/README.md``)."""

DEVICE_ITERATIONS = 50
"""A smaller budget for the offline app on a phone, where Python runs in WebAssembly: an
eighth of the work. Pyodide took a median 8.6 s a game at this budget on a desktop CPU (2-4
times CPython's time), so a phone needs some tens of seconds; a typical choice's cost then
has a standard error of about two percentage points (``benchmarks/review/README.md``)."""

MAX_ITERATIONS = 100_000
"""The largest budget accepted: beyond it a review takes days, and a typo is likelier."""

REVIEW_SEED = 0
"""The default seed: the same review every time for the same game, and never a value taken
from the game (its deck seed would tell the hidden cards)."""

ROLLOUT_NOISE = 0.03
"""The chance of a random move in a playout. Without any, a deterministic policy can repeat
itself until the action cap (0.3% of its playouts did, none at 3%); with the ``expert``
search's 10%, the estimates were noisier and predicted real outcomes somewhat worse
(``benchmarks/review/README.md``)."""

TURNING_POINTS = 3
"""How many of the costliest decisions the review names."""

CLEAR_STANDARD_ERRORS = 2.0
"""A cost is *clear* when it is more than this many standard errors: then chance alone would
rarely show a cost that large (about 2% of the time for one choice; a review picks its largest
costs among many choices, so an unclear one among them is said to be possibly chance)."""

REVIEW_FORMAT = 1
"""The version of the review's JSON form (``"format"``): a page or a cache that keeps reviews
can tell an older shape from the current one."""

PLAYOUT_LEVEL = "normal"
"""The bot level whose card sense plays the playouts out (named in the JSON as ``"playouts"``)."""

MIN_TURNING_COST = 0.01
"""A decision is a turning point only if the best move was at least this much safer (one
percentage point): a review that rounds to whole percents never says "from 31 % to 31 %"."""

PLAYOUTS_PER_SECOND = 1800
"""About how many playouts one core plays a second in pure Python (1,860 measured:
``benchmarks/review/README.md``): what a host that queues a review's choices as separate jobs
gives as each one's cost in seconds (:meth:`ReviewPlan.seconds`)."""

ProgressCallback = Callable[[int, int], None]
"""``progress(done, total)``, in playouts (one world, one move played out)."""

RolloutPolicy = Callable[[Game, Sequence[Action], random.Random, float], Action]
"""How a playout chooses each move: ``policy(game, legal, rng, noise)`` (the search bots'
rollout functions have this shape)."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the seat knew at a decision, in short: its hand, the cards the play had shown in
    other hands, and how many it could not place. (The estimate read the seat's whole view,
    which also holds the public history and the cards it ruled out for a hand, such as a
    suit a player has shown it lacks.) Made from the view alone, so it never names a card
    the seat had not seen."""

    hand: tuple[str, ...]
    """The seat's own cards (card codes such as ``"7h"``, sorted)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat held (public)."""
    known: tuple[tuple[str, ...], ...]
    """For each seat, the cards the public history showed it to hold (a picked-up table, a
    card drawn face up); the seat's own entry is empty (its hand is :attr:`hand`)."""
    unseen: int
    """How many cards the seat could not place: the others' hidden cards, the stock and any
    cards out of play. These are what the review dealt at random in each sampled world."""

    @staticmethod
    def of(view: PlayerView) -> Knowledge:
        """What ``view`` shows."""
        seat = view.public.seat
        return Knowledge(
            hand=tuple(codes_of(view.public.hand)),
            hand_sizes=tuple(view.public.hand_sizes),
            known=tuple(() if other == seat else tuple(codes_of(mask))
                        for other, mask in enumerate(view.known_hands)),
            unseen=view.unseen.bit_count(),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"hand": list(self.hand), "hand_sizes": list(self.hand_sizes),
                "known": [list(cards) for cards in self.known], "unseen": self.unseen}

    @staticmethod
    def from_dict(data: object) -> Knowledge:
        """The value of :meth:`to_dict`'s JSON; ``ValueError`` naming what is wrong."""
        item = _mapping(data, "knew")
        return Knowledge(
            hand=_cards(item.get("hand"), "knew.hand"),
            hand_sizes=tuple(_count(size, "knew.hand_sizes") for size in _list(item.get("hand_sizes"),
                                                                                   "knew.hand_sizes")),
            known=tuple(_cards(cards, "knew.known") for cards in _list(item.get("known"), "knew.known")),
            unseen=_count(item.get("unseen"), "knew.unseen"),
        )


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision of the seat: the risk of each legal move and of the one played."""

    action: int
    """The action's number in the game (its index in the record's ``actions``)."""
    phase: Phase
    played: str
    """The move played, as action text (``"7h"``, ``"6h-8h"``, ``"chance"``, ``"pickup"``)."""
    options: tuple[tuple[str, float], ...]
    """Every legal move and its estimated risk, in the engine's order of legal moves."""
    best: str
    """The move with the lowest risk (the move played when it ties for lowest)."""
    risk_se: float
    """The standard error of the played move's risk."""
    cost_se: float
    """The standard error of :attr:`cost` (paired over the same worlds, so usually smaller
    than the risks' own)."""
    knew: Knowledge
    """What the seat knew when it chose (in short: :class:`Knowledge`)."""

    @property
    def risk(self) -> float:
        """The played move's estimated risk of ending as Mattis."""
        return dict(self.options)[self.played]

    @property
    def best_risk(self) -> float:
        """The lowest risk of any legal move."""
        return dict(self.options)[self.best]

    @property
    def cost(self) -> float:
        """How much risk the move played added over the best one (0 if it was the best)."""
        return self.risk - self.best_risk

    @property
    def clear(self) -> bool:
        """Whether the cost stands out from the estimate's noise: more than
        :data:`CLEAR_STANDARD_ERRORS` standard errors. A turning point that is not clear may
        be chance, and a review should say so."""
        return self.cost > CLEAR_STANDARD_ERRORS * self.cost_se

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the issue's keys, then the extras."""
        return {
            "action": self.action,
            "played": self.played,
            "risk": _rounded(self.risk),
            "best": self.best,
            "best_risk": _rounded(self.best_risk),
            "options": {text: _rounded(risk) for text, risk in self.options},
            "cost": _rounded(self.cost),
            "risk_se": _rounded(self.risk_se),
            "cost_se": _rounded(self.cost_se),
            "clear": self.clear,
            "phase": str(self.phase),
            "knew": self.knew.to_dict(),
        }

    @staticmethod
    def from_dict(data: object) -> DecisionReview:
        """The value of :meth:`to_dict`'s JSON, its figures rounded as there (so what is read
        writes back as read); ``ValueError``
        naming what is wrong. The derived keys (``risk``, ``best_risk``, ``cost``) are
        recomputed, not read."""
        item = _mapping(data, "decision")
        options = {_move(text): _rounded(_share(risk, "options")) for text, risk in
                   _mapping(item.get("options"), "options").items()}
        played, best = item.get("played"), item.get("best")
        if not options:
            raise ValueError("options: must name the legal moves")
        if not (isinstance(played, str) and played in options and isinstance(best, str) and best in options):
            raise ValueError("played and best: must be among the options")
        phase = item.get("phase")
        if not isinstance(phase, str) or phase not in {str(value) for value in Phase}:
            raise ValueError(f"phase: unknown phase {str(phase)[:20]!r}")
        return DecisionReview(
            action=_count(item.get("action"), "action"),
            phase=Phase(phase),
            played=str(played),
            options=tuple(options.items()),
            best=str(best),
            risk_se=_rounded(_share(item.get("risk_se"), "risk_se")),
            cost_se=_rounded(_share(item.get("cost_se"), "cost_se")),
            knew=Knowledge.from_dict(item.get("knew")),
        )


@dataclass(frozen=True, slots=True)
class Review:
    """A seat's game looked back on: what was judged (:attr:`decisions`, with what the seat
    knew at each), how (:attr:`iterations`, :attr:`seed`, :attr:`random_moves`), how sure
    each figure is (the standard errors of each decision), and the costliest moves.

    A plain frozen value: :meth:`to_dict` is its JSON form (``mattis review --json``, and
    what a page renders), :meth:`from_dict` reads it back; ``docs/review.md`` gives the shape.
    """

    seat: int
    decisions: tuple[DecisionReview, ...]
    turning_points: tuple[int, ...]
    """The action numbers of the (at most :data:`TURNING_POINTS`) decisions that cost most,
    in the order they were played; a decision that cost less than
    :data:`MIN_TURNING_COST` is never one."""
    forced: tuple[int, ...]
    """The action numbers of the seat's forced moves (one legal action): nothing to judge."""
    players: int
    actions: int
    """How many actions the record holds (the length of the game, for a line drawn over it)."""
    iterations: int
    seed: int
    random_moves: float
    """The share of random moves in the playouts (:data:`ROLLOUT_NOISE`)."""
    also_mattis: str | None
    """*Blåmattis* or *Blodmattis* when these rules make an empty hand after phase 1 a loss
    (P1.10), counted in every risk; ``None`` when they do not."""
    finished: bool
    """Whether the game was over (an unfinished game is reviewed up to its last move)."""
    mattis: bool | None
    """Whether the seat ended as Mattis; ``None`` for an unfinished game."""

    def decision(self, action: int) -> DecisionReview:
        """The decision made at action number ``action``."""
        for decision in self.decisions:
            if decision.action == action:
                return decision
        raise KeyError(action)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``mattis review --json``): the issue's keys first."""
        return {
            "seat": self.seat,
            "decisions": [decision.to_dict() for decision in self.decisions],
            "turning_points": list(self.turning_points),
            "forced": list(self.forced),
            "format": REVIEW_FORMAT,
            "players": self.players,
            "actions": self.actions,
            "iterations": self.iterations,
            "seed": self.seed,
            "playouts": PLAYOUT_LEVEL,
            "random_moves": self.random_moves,
            "also_mattis": self.also_mattis,
            "finished": self.finished,
            "mattis": self.mattis,
        }

    @staticmethod
    def from_dict(data: object) -> Review:
        """The review of a :meth:`to_dict` JSON (a stored or sent review), its risks as
        rounded there; ``ValueError`` naming what is wrong, such as another ``format``."""
        item = _mapping(data, "review")
        if item.get("format") != REVIEW_FORMAT:
            raise ValueError(f"format: this version reads review format {REVIEW_FORMAT}, "
                             f"got {item.get('format')!r}")
        also, mattis = item.get("also_mattis"), item.get("mattis")
        if also is not None and also not in ("Blåmattis", "Blodmattis"):
            raise ValueError(f"also_mattis: must be Blåmattis, Blodmattis or null, got {str(also)[:20]!r}")
        finished = item.get("finished")
        if not isinstance(finished, bool) or not (isinstance(mattis, bool) if finished else mattis is None):
            raise ValueError("finished and mattis: must be true or false (mattis null if unfinished)")
        players, seat = _count(item.get("players"), "players"), _count(item.get("seat"), "seat")
        if seat >= players:
            raise ValueError(f"seat: must be below players ({players}), got {seat}")
        decisions = tuple(DecisionReview.from_dict(entry)
                          for entry in _list(item.get("decisions"), "decisions"))
        judged = {decision.action for decision in decisions}
        turning = tuple(_count(number, "turning_points")
                        for number in _list(item.get("turning_points"), "turning_points"))
        if not set(turning) <= judged:
            raise ValueError("turning_points: each must be the action of one of the decisions")
        return Review(
            seat=seat,
            decisions=decisions,
            turning_points=turning,
            forced=tuple(_count(number, "forced") for number in _list(item.get("forced"), "forced")),
            players=players,
            actions=_count(item.get("actions"), "actions"),
            iterations=check_iterations(item.get("iterations")),
            seed=_count(item.get("seed"), "seed"),
            random_moves=_share(item.get("random_moves"), "random_moves"),
            also_mattis=also,
            finished=finished,
            mattis=mattis,
        )


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A decision to judge: what the seat knew, what it could do and what it did."""

    action: int
    view: PlayerView
    legal: tuple[Action, ...]
    played: Action


@dataclass(frozen=True, slots=True)
class ReviewPlan:
    """What a review of one seat will judge, from one replay of the record: its choices (each
    with how many legal moves it had), its forced moves, and the game's facts a
    :class:`Review` carries. A host that shares a review out (a job per choice,
    :func:`review_decision`) plans it first and puts it together with
    :func:`assemble_review`."""

    seat: int
    choices: tuple[tuple[int, int], ...]
    """Each choice's action number and its number of legal moves, in the order played."""
    forced: tuple[int, ...]
    players: int
    actions: int
    also_mattis: str | None
    finished: bool
    mattis: bool | None

    def playouts(self, iterations: int) -> int:
        """How many playouts the whole review plays at ``iterations``."""
        return iterations * sum(moves for _, moves in self.choices)

    def seconds(self, action: int, iterations: int) -> float:
        """About how many CPU seconds the choice at ``action`` takes at ``iterations``
        (:data:`PLAYOUTS_PER_SECOND`)."""
        moves = dict(self.choices)[action]
        return iterations * moves / PLAYOUTS_PER_SECOND


def _rounded(value: float) -> float:
    return round(value, 4)


def _mapping(value: object, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{name}: must be a JSON object")
    return value


def _list(value: object, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{name}: must be a list")
    return value


def _count(value: object, name: str) -> int:
    if not is_int(value) or value < 0:
        raise ValueError(f"{name}: must be a whole number of at least 0, got {value!r}")
    return value


def _share(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"{name}: must be a number from 0 to 1, got {value!r}")
    return float(value)


def _move(text: object) -> str:
    if not isinstance(text, str):
        raise ValueError(f"options: {text!r} is not a move")
    try:
        Action.parse(text)
    except ValueError:
        raise ValueError(f"options: {text[:20]!r} is not a move") from None
    return text


def _cards(value: object, name: str) -> tuple[str, ...]:
    cards = _list(value, name)
    for card in cards:
        try:
            parse_card(card)
        except (AttributeError, ValueError):  # not text, or not a card's code
            raise ValueError(f"{name}: {str(card)[:10]!r} is not a card") from None
    return tuple(cards)


def check_iterations(iterations: object) -> int:
    """``iterations`` if it is a budget a review accepts, else ``ValueError`` naming it."""
    if not is_int(iterations) or not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"iterations: must be a whole number from 1 to {MAX_ITERATIONS:,}, "
                         f"got {iterations!r}")
    return iterations


def decision_points(record: Mapping[str, Any], seat: int) -> tuple[Game, list[DecisionPoint], list[int]]:
    """Replay ``record`` and collect the decisions of ``seat`` (each with the seat's view at
    that moment) and the action numbers of its forced moves. Returns the replayed game too.
    ``ValueError`` for a record that does not replay or a seat not in the game."""
    start = dict(record)
    actions = start.get("actions")
    if not isinstance(actions, list):
        raise ValueError("record: actions must be a list of action texts")
    start["actions"] = []
    start.pop("result", None)  # checked below, once the actions are replayed
    game = Game.from_record(start)
    if not is_int(seat) or not 0 <= seat < game.players:
        raise ValueError(f"seat: must be from 0 to {game.players - 1} in this game, got {seat!r}")
    tracker = CardTracker(game.players, game.rules)
    points: list[DecisionPoint] = []
    forced: list[int] = []
    for number, text in enumerate(actions):
        if game.is_over:
            raise ValueError(f"record: action {number} comes after the end of the game")
        mover = game.to_move
        if mover == seat:
            legal = tuple(game.legal_actions())
            if len(legal) > 1:
                view = seat_view(game, seat, tracker)
                played = _apply(game, text, number)
                points.append(DecisionPoint(number, view, legal, played))
                continue
            forced.append(number)
        _apply(game, text, number)
    stored = record.get("result")
    if isinstance(stored, dict) and game.is_over and (
            stored.get("losers") != game.losers or stored.get("out_order") != game.out_order):
        raise ValueError("record: the stored result does not match the replayed game")
    return game, points, forced


def _apply(game: Game, text: object, number: int) -> Action:
    if not isinstance(text, str):
        raise ValueError(f"record: action {number} must be text such as '7h'")
    try:
        return game.apply(text)
    except ValueError as error:  # IllegalAction and InvalidAction are ValueErrors
        raise ValueError(f"record: action {number} ({text[:30]}) is illegal: {error}") from None


def decision_rng(seed: int, action: int) -> random.Random:
    """The dice of the decision at action number ``action``: from the seed and that number
    only, never from the game (whose deck seed would tell the hidden cards)."""
    return derived_rng(seed, f"review/{action}")


def evaluate_decision(
    view: PlayerView,
    legal: Sequence[Action],
    *,
    iterations: int,
    rng: random.Random,
    progress: Callable[[int], None] | None = None,
    policy: RolloutPolicy = informed_rollout_action,
    noise: float = ROLLOUT_NOISE,
) -> list[list[float]]:
    """Each legal move's outcome for the seat of ``view`` in ``iterations`` sampled worlds:
    ``outcomes[move][world]`` is 1 if the seat ended as Mattis, 0 if not (a share for a
    playout stopped at the action cap). Reads nothing but ``view``, ``legal`` and ``rng``.
    ``progress(playouts)`` is told after each world."""
    seat = view.public.seat
    outcomes: list[list[float]] = [[] for _ in legal]
    for world in range(iterations):
        base = Game.from_position(sample_position(view, rng), check=False)
        if world == 0 and base.legal_actions() != list(legal):
            raise ValueError("view: the legal moves do not match the seat's view")
        dice = rng.getrandbits(64)
        for option, action in enumerate(legal):
            game = base.copy()
            game.apply_unchecked(action)
            outcomes[option].append(_play_out(game, seat, random.Random(dice), policy=policy, noise=noise))
        if progress is not None:
            progress(len(legal))
    return outcomes


def _play_out(game: Game, seat: int, rng: random.Random, *, policy: RolloutPolicy, noise: float) -> float:
    """Play ``game`` to the end with ``policy``; 1.0 if ``seat`` lost."""
    steps = 0
    while not game.is_over and steps < ROLLOUT_ACTION_CAP:
        legal = game.legal_actions()
        game.apply_unchecked(policy(game, legal, rng, noise))
        steps += 1
    if game.is_over:
        return 1.0 if seat in game.losers else 0.0
    still_in = [other for other in range(game.players) if not game.is_out(other)]
    return 1.0 / len(still_in) if seat in still_in else 0.0  # undecided: an even share


def judge(point: DecisionPoint, outcomes: Sequence[Sequence[float]]) -> DecisionReview:
    """The risks of one decision from its outcomes (:func:`evaluate_decision`)."""
    count = len(outcomes[0])
    risks = [sum(row) / count for row in outcomes]
    played = point.legal.index(point.played)
    lowest = min(risks)
    best = played if risks[played] == lowest else risks.index(lowest)
    return DecisionReview(
        action=point.action,
        phase=point.view.public.phase,
        played=str(point.played),
        options=tuple((str(action), risk) for action, risk in zip(point.legal, risks, strict=True)),
        best=str(point.legal[best]),
        risk_se=_standard_error(outcomes[played]),
        cost_se=_standard_error([a - b for a, b in zip(outcomes[played], outcomes[best], strict=True)]),
        knew=Knowledge.of(point.view),
    )


def _standard_error(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values`` (0 for fewer than two)."""
    count = len(values)
    if count < 2:
        return 0.0
    mean = sum(values) / count
    variance = sum((value - mean) ** 2 for value in values) / (count - 1)
    return math.sqrt(variance / count)


def turning_points(decisions: Sequence[DecisionReview], count: int = TURNING_POINTS) -> tuple[int, ...]:
    """The action numbers of the ``count`` decisions that cost most (at least
    :data:`MIN_TURNING_COST`; the earlier on a tie), in the order they were played."""
    costly = [decision for decision in decisions if decision.cost >= MIN_TURNING_COST]
    costly.sort(key=lambda decision: (-decision.cost, decision.action))
    return tuple(sorted(decision.action for decision in costly[:count]))


def plan_review(record: Mapping[str, Any], seat: int) -> ReviewPlan:
    """What a review of ``seat`` in ``record`` will judge (``ValueError`` as
    :func:`review_record`)."""
    game, points, forced = decision_points(record, seat)
    return _plan(game, seat, points, forced)


def _plan(game: Game, seat: int, points: Sequence[DecisionPoint], forced: Sequence[int]) -> ReviewPlan:
    rules = game.rules
    return ReviewPlan(
        seat=seat,
        choices=tuple((point.action, len(point.legal)) for point in points),
        forced=tuple(forced),
        players=game.players,
        actions=game.num_actions,
        also_mattis=(lost_on_empty_name(rules.nothing_left_counts)
                     if rules.nothing_left is NothingLeft.LOSE else None),
        finished=game.is_over,
        mattis=(seat in game.losers) if game.is_over else None,
    )


def review_decision(record: Mapping[str, Any], seat: int, action: int, *, iterations: int = REVIEW_ITERATIONS,
                    seed: int = REVIEW_SEED) -> DecisionReview:
    """The one choice of ``seat`` at action number ``action``, judged exactly as
    :func:`review_record` judges it (its dice come from the seed and ``action`` alone), so a
    host may send each choice to a worker of its own. Replays the record up to that action
    only. ``ValueError`` if it is not a choice of the seat."""
    check_iterations(iterations)
    _check_seed(seed)
    point = decision_point(record, seat, action)
    return judge(point, evaluate_decision(point.view, point.legal, iterations=iterations,
                                          rng=decision_rng(seed, point.action)))


def decision_point(record: Mapping[str, Any], seat: int, action: int) -> DecisionPoint:
    """The choice of ``seat`` at action number ``action`` of ``record``: the seat's view then
    (from the public history, as a bot's), its legal moves and the move played."""
    actions = record.get("actions")
    if not isinstance(actions, list) or not is_int(action) or not 0 <= action < len(actions):
        raise ValueError(f"action: must be a move of the record, got {action!r}")
    start = dict(record)
    start["actions"] = []
    start.pop("result", None)
    game = Game.from_record(start)
    if not is_int(seat) or not 0 <= seat < game.players:
        raise ValueError(f"seat: must be from 0 to {game.players - 1} in this game, got {seat!r}")
    for number in range(action):
        _apply(game, actions[number], number)
    legal = tuple(game.legal_actions()) if not game.is_over else ()
    if game.to_move != seat or len(legal) < 2:
        raise ValueError(f"action: {action} is not a choice of seat {seat}")
    view = seat_view(game, seat)
    played = _apply(game, actions[action], action)
    return DecisionPoint(action, view, legal, played)


def assemble_review(plan: ReviewPlan, decisions: Sequence[DecisionReview], *, iterations: int,
                    seed: int) -> Review:
    """The :class:`Review` of ``plan`` from its choices judged (in any order; one for each
    of :attr:`ReviewPlan.choices`)."""
    by_action = {decision.action: decision for decision in decisions}
    if sorted(by_action) != [action for action, _ in plan.choices]:
        raise ValueError("decisions: must judge each choice of the plan once")
    ordered = tuple(by_action[action] for action, _ in plan.choices)
    return Review(
        seat=plan.seat,
        decisions=ordered,
        turning_points=turning_points(ordered),
        forced=plan.forced,
        players=plan.players,
        actions=plan.actions,
        iterations=iterations,
        seed=seed,
        random_moves=ROLLOUT_NOISE,
        also_mattis=plan.also_mattis,
        finished=plan.finished,
        mattis=plan.mattis,
    )


def _check_seed(seed: object) -> None:
    if not is_int(seed) or seed < 0:
        raise ValueError(f"seed: must be a whole number of at least 0, got {seed!r}")


def review_record(
    record: Mapping[str, Any],
    seat: int,
    *,
    iterations: int = REVIEW_ITERATIONS,
    seed: int = REVIEW_SEED,
    progress: ProgressCallback | None = None,
) -> Review:
    """Review the game of ``record`` (``Game.record()``, or a saved game) for ``seat``.

    A pure function of its arguments: the same record, seat, budget and seed give the same
    review, and so do two records that differ only in cards the seat never saw.
    ``progress(done, total)`` counts playouts. ``ValueError`` names what is wrong with
    the record, the seat or the budget.
    """
    check_iterations(iterations)
    _check_seed(seed)
    game, points, forced = decision_points(record, seat)
    plan = _plan(game, seat, points, forced)
    total = plan.playouts(iterations)
    done = 0

    def advance(playouts: int) -> None:
        nonlocal done
        done += playouts
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    decisions = tuple(
        judge(point, evaluate_decision(point.view, point.legal, iterations=iterations,
                                       rng=decision_rng(seed, point.action), progress=advance))
        for point in points)
    return assemble_review(plan, decisions, iterations=iterations, seed=seed)
