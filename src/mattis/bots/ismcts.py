"""The ``hard`` level: single-observer information-set Monte Carlo tree search.

Each iteration samples one full position consistent with the seat's view
(:mod:`mattis.bots.sampling`), walks one shared tree of actions with UCB and availability
counts (so actions that are legal only in some samples are judged fairly), plays the game
out with a cheap rollout policy and scores it: 1 for every player who is not Mattis, 0 for
the loser(s). The tree never sees the real game, only samples, so the bot cannot cheat.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..core.actions import CHANCE, PICKUP, Action
from ..core.cards import CARD_CODES, SUITS, rank_of
from ..core.game import Game
from ..core.phase import Phase
from .protocol import Decision, Limit
from .sampling import sample_position
from .view import PlayerView

DEFAULT_LIMIT = Limit(seconds=1.0)
ROLLOUT_ACTION_CAP = 3000
ROLLOUT_NOISE = 0.1
"""The chance of a random move in a rollout (:func:`rollout_action`)."""
CONFIDENT_AFTER = 1500
"""Iterations after which a search stops once its favourite has three times the visits of
the next move (:func:`settled`)."""
_RANK_OF_CODE: dict[str, int] = {code: rank_of(card) for card, code in enumerate(CARD_CODES)}
"""A card code's rank (0 = two … 12 = ace), for reading the phase-1 round in rollouts."""
PICKUP_MAX_RANK = 1
"""Informed rollouts pick up a single card this low (2 or 3) …"""
PICKUP_MIN_TRUMP = 6
"""… rather than spend a trump of 8 or higher (the ``normal`` bot's rule)."""


@dataclass(frozen=True, slots=True)
class RootVisits:
    """How often one search visited each legal move at its root."""

    actions: tuple[Action, ...]
    """The legal moves, in the order they were given."""
    visits: tuple[int, ...]
    """Each move's visits (0 for a move the search never tried)."""
    iterations: int
    """The simulations the search ran (1 for a forced move)."""


class SearchNode:
    """One node of the shared tree: the edge's action and the player who chose it, with its
    visits, how often it was available, and the summed reward of that player."""

    __slots__ = ("action", "available", "children", "parent", "player", "reward", "visits")

    def __init__(self, action: Action | None, player: int, parent: SearchNode | None) -> None:
        self.action = action
        self.player = player
        self.parent = parent
        self.children: dict[int, SearchNode] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


def rollout_action(game: Game, legal: Sequence[Action], rng: random.Random, noise: float) -> Action:
    """The rollout policy: in phase 2 the cheapest play (low, long, non-trump), picking up
    only when forced; in phase 1 a random card. ``noise`` is the chance of a random move."""
    if len(legal) == 1:
        return legal[0]
    if game.phase is Phase.COLLECT or rng.random() < noise:
        return legal[rng.randrange(len(legal))]
    trump = game.trump_suit_index
    best = legal[-1]
    best_cost = 1e9
    for action in legal:
        if action is PICKUP or action is CHANCE:
            continue
        cost = rank_of(action.low) + (20 if action.suit == trump else 0) - 2.0 * (len(action.cards) - 1)
        if cost < best_cost:
            best, best_cost = action, cost
    return best


def informed_rollout_action(game: Game, legal: Sequence[Action], rng: random.Random,
                            noise: float) -> Action:
    """The ``expert`` rollout policy: the ``normal`` bot's card sense applied to the sampled
    game, which is fully known inside a rollout. Phase 1: win a round cheaply when last to
    play or with a high card, otherwise give the lowest card, chance with a weak hand.
    Phase 2: the cheapest play (low, long, non-trump), and pick up a 2 or 3 rather than
    spend a high trump. ``noise`` is the chance of a random move."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < noise:
        return legal[rng.randrange(len(legal))]
    if game.phase is Phase.COLLECT:
        return _collect_choice(game, legal)
    return _shed_choice(game, legal)


def _collect_choice(game: Game, legal: Sequence[Action]) -> Action:
    """A phase-1 play for the seat to move (see :func:`informed_rollout_action`)."""
    me = game.to_move
    tie = game.tie
    others_best = -1
    mine_best = -1
    for seat, code in game.current_round:
        rank = _RANK_OF_CODE[code]
        if seat == me:
            mine_best = max(mine_best, rank)
        elif (not tie or seat in tie) and rank > others_best:
            others_best = rank
    lowest: Action | None = None
    lowest_rank = 99
    highest_rank = -1
    winner: Action | None = None
    winner_rank = 99
    may_chance = False
    for action in legal:
        if action is CHANCE:
            may_chance = True
            continue
        rank = rank_of(action.low)
        if rank < lowest_rank:
            lowest, lowest_rank = action, rank
        highest_rank = max(highest_rank, rank)
        if others_best < rank < winner_rank:
            winner, winner_rank = action, rank
    if lowest is None:
        return CHANCE
    if others_best < 0:  # leading
        return CHANCE if may_chance and highest_rank < 7 else lowest
    if mine_best > others_best:
        return lowest
    if winner is not None and (len(game.due) == 1 or winner_rank >= 10):
        return winner
    if winner is None and may_chance and highest_rank < 8 and others_best >= 9:
        return CHANCE
    return lowest


def _shed_choice(game: Game, legal: Sequence[Action]) -> Action:
    """A phase-2 play for the seat to move (see :func:`informed_rollout_action`)."""
    trump = game.trump_suit_index
    best: Action | None = None
    best_cost = 1e9
    all_trumps = True
    lowest_trump = 99
    for action in legal:
        if action is PICKUP:
            continue
        total = 0
        for card in action.cards:
            total += rank_of(card)
        size = len(action.cards)
        if action.suit == trump:
            total += 14 * size
            lowest_trump = min(lowest_trump, rank_of(action.low))
        else:
            all_trumps = False
        cost = total / size - 1.5 * (size - 1)
        if cost < best_cost:
            best, best_cost = action, cost
    if best is None:
        return PICKUP
    if all_trumps and lowest_trump >= PICKUP_MIN_TRUMP and PICKUP in legal:
        table = game.table
        if table:
            target = table[-1][1]
            oldest = table[0][1]
            if (target[0][1] != SUITS[trump] and len(oldest) == 1
                    and _RANK_OF_CODE[oldest[0]] <= PICKUP_MAX_RANK):
                return PICKUP
    return best


class Edge(Protocol):
    """What the budget and the final choice read of a root's child, in any search's tree."""

    @property
    def action(self) -> Action | None: ...
    @property
    def visits(self) -> int: ...
    @property
    def reward(self) -> float: ...


def run_search(children: Mapping[int, Edge], iterate: Callable[[], None], limit: Limit, *, early_stop: bool,
               confident_after: int) -> int:
    """Call ``iterate`` (one simulation into the tree whose root has ``children``) until
    ``limit`` ends, or sooner once the choice is settled (:func:`settled`); returns how many
    simulations ran."""
    deadline = time.perf_counter() + limit.seconds if limit.seconds is not None else math.inf
    max_iterations = limit.iterations if limit.iterations is not None else 1 << 62
    iterations = 0
    started = time.perf_counter()
    while iterations < max_iterations:
        if iterations & 15 == 0 and iterations:
            now = time.perf_counter()
            if now >= deadline:
                break
            time_left = (deadline - now) * iterations / (now - started)
            if early_stop and settled(children, iterations, max_iterations=max_iterations,
                                      time_left=time_left, confident_after=confident_after):
                break
        iterate()
        iterations += 1
    return iterations


def settled(children: Mapping[int, Edge], iterations: int, *, max_iterations: int, time_left: float,
            confident_after: int) -> bool:
    """True when more thinking will not change the choice: the most visited move cannot
    be overtaken in the budget left, or after ``confident_after`` iterations it has three
    times the visits of the next best. The budget is a maximum, not a quota."""
    remaining = min(max_iterations - iterations, time_left)
    visits = sorted((child.visits for child in children.values()), reverse=True)
    if len(visits) < 2:
        return False
    if visits[0] - visits[1] > remaining:
        return True
    return iterations >= confident_after and visits[0] >= 3 * visits[1]


def search_decision(children: Mapping[int, Edge], legal: Sequence[Action], iterations: int) -> Decision:
    """The most visited legal move among the root's ``children``, explained by how often the
    simulations chose it and how often it avoided Mattis (reason ``search``)."""
    legal_indices = {action.index for action in legal}
    candidates = [child for index, child in children.items() if index in legal_indices]
    best = max(candidates, key=lambda child: (child.visits, -child.action.index if child.action else 0))
    assert best.action is not None
    share = best.visits / iterations
    safe = best.reward / best.visits if best.visits else 0.0
    text = (f"search: {share:.0%} of {iterations} simulations chose {best.action}; "
            f"it avoided Mattis in {safe:.0%} of them")
    return Decision(best.action, text, "search",
                    (("share", f"{share:.0%}"), ("iterations", str(iterations)),
                     ("safe", f"{safe:.0%}")), iterations)


class IsmctsAgent:
    """Searches sampled positions for the move least likely to end as Mattis."""

    name: str
    """The level's name: ``hard``, or ``expert`` for the stronger settings."""

    def __init__(
        self,
        limit: Limit = DEFAULT_LIMIT,
        *,
        exploration: float = 0.7,
        rollout_noise: float = ROLLOUT_NOISE,
        early_stop: bool = True,
        confident_after: int = CONFIDENT_AFTER,
        informed_rollouts: bool = False,
        name: str = "hard",
    ) -> None:
        self.name = name
        self.informed_rollouts = informed_rollouts
        self.limit = limit
        self.early_stop = early_stop
        self.confident_after = confident_after
        self.exploration = exploration
        self.rollout_noise = rollout_noise

    def choose(
        self, view: PlayerView, legal: Sequence[Action], rng: random.Random, limit: Limit | None = None
    ) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], "the only legal move", "forced")
        root, iterations = self._grow(view, rng, limit or self.limit)
        return search_decision(root.children, legal, iterations)

    def root_visits(
        self, view: PlayerView, legal: Sequence[Action], rng: random.Random, limit: Limit | None = None
    ) -> RootVisits:
        """The search :meth:`choose` runs, but its root's visits of every legal move rather
        than one move: the policy target the ``master`` network is trained on. The same
        ``rng`` state gives the same tree as :meth:`choose`."""
        if len(legal) == 1:
            return RootVisits(tuple(legal), (1,), 1)
        root, iterations = self._grow(view, rng, limit or self.limit)
        visits = tuple(root.children[action.index].visits if action.index in root.children else 0
                       for action in legal)
        return RootVisits(tuple(legal), visits, iterations)

    def _grow(self, view: PlayerView, rng: random.Random, limit: Limit) -> tuple[SearchNode, int]:
        """The tree grown from ``view`` within ``limit``, and the iterations it took."""
        root = SearchNode(None, -1, None)
        iterations = run_search(root.children, lambda: self._iterate(root, view, rng), limit,
                                early_stop=self.early_stop, confident_after=self.confident_after)
        return root, iterations

    def _iterate(self, root: SearchNode, view: PlayerView, rng: random.Random) -> None:
        game = Game.from_position(sample_position(view, rng), check=False)
        node = root
        exploration = self.exploration
        # Selection and expansion over the shared tree.
        while not game.is_over:
            legal = game.legal_actions()
            player = game.to_move
            assert player is not None
            children = node.children
            untried = [action for action in legal if action.index not in children]
            for action in legal:
                child = children.get(action.index)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = SearchNode(action, player, node)
                child.available = 1
                children[action.index] = child
                game.apply_unchecked(action)
                node = child
                break
            best_child = None
            best_score = -1.0
            for action in legal:
                child = children[action.index]
                score = (child.reward / child.visits
                         + exploration * math.sqrt(math.log(child.available) / child.visits))
                if score > best_score:
                    best_child, best_score = child, score
            assert best_child is not None and best_child.action is not None
            game.apply_unchecked(best_child.action)
            node = best_child
        # Rollout.
        noise = self.rollout_noise
        steps = 0
        informed = self.informed_rollouts
        while not game.is_over and steps < ROLLOUT_ACTION_CAP:
            legal = game.legal_actions()
            if informed:
                game.apply_unchecked(informed_rollout_action(game, legal, rng, noise))
            else:
                game.apply_unchecked(rollout_action(game, legal, rng, noise))
            steps += 1
        losers = set(game.losers) if game.is_over else set()
        # Backpropagation: each node is scored for the player who chose it.
        scored: SearchNode | None = node
        while scored is not None:
            scored.visits += 1
            if scored.player >= 0 and scored.player not in losers:
                scored.reward += 1.0
            scored = scored.parent
