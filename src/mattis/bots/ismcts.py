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
from collections.abc import Sequence

from ..core.actions import CHANCE, PICKUP, Action
from ..core.cards import rank_of
from ..core.game import Game
from ..core.phase import Phase
from .protocol import Decision, Limit
from .sampling import sample_position
from .view import PlayerView

DEFAULT_LIMIT = Limit(seconds=1.0)
ROLLOUT_ACTION_CAP = 3000


class _Node:
    __slots__ = ("action", "available", "children", "parent", "player", "reward", "visits")

    def __init__(self, action: Action | None, player: int, parent: _Node | None) -> None:
        self.action = action
        self.player = player
        self.parent = parent
        self.children: dict[int, _Node] = {}
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


class IsmctsAgent:
    """Searches sampled positions for the move least likely to end as Mattis."""

    name = "hard"

    def __init__(
        self,
        limit: Limit = DEFAULT_LIMIT,
        exploration: float = 0.7,
        rollout_noise: float = 0.1,
        early_stop: bool = True,
        confident_after: int = 1500,
    ) -> None:
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
        limit = limit or self.limit
        deadline = time.perf_counter() + limit.seconds if limit.seconds is not None else math.inf
        max_iterations = limit.iterations if limit.iterations is not None else 1 << 62
        root = _Node(None, -1, None)
        iterations = 0
        started = time.perf_counter()
        while iterations < max_iterations:
            if iterations & 15 == 0 and iterations:
                now = time.perf_counter()
                if now >= deadline:
                    break
                time_left = (deadline - now) * iterations / (now - started)
                if self.early_stop and self._settled(root, iterations, max_iterations, time_left,
                                                     self.confident_after):
                    break
            self._iterate(root, view, rng)
            iterations += 1
        legal_indices = {action.index for action in legal}
        candidates = [child for index, child in root.children.items() if index in legal_indices]
        best = max(candidates, key=lambda child: (child.visits, -child.action.index if child.action else 0))
        assert best.action is not None
        share = best.visits / iterations
        safe = best.reward / best.visits if best.visits else 0.0
        text = (f"search: {share:.0%} of {iterations} simulations chose {best.action}; "
                f"it avoided Mattis in {safe:.0%} of them")
        return Decision(best.action, text, "search",
                        (("share", f"{share:.0%}"), ("iterations", str(iterations)),
                         ("safe", f"{safe:.0%}")), iterations)

    @staticmethod
    def _settled(root: _Node, iterations: int, max_iterations: int, time_left: float,
                 confident_after: int) -> bool:
        """True when more thinking will not change the choice: the most visited move cannot
        be overtaken in the budget left, or after ``confident_after`` iterations it has three
        times the visits of the next best. The budget is a maximum, not a quota."""
        remaining = min(max_iterations - iterations, time_left)
        visits = sorted((child.visits for child in root.children.values()), reverse=True)
        if len(visits) < 2:
            return False
        if visits[0] - visits[1] > remaining:
            return True
        return iterations >= confident_after and visits[0] >= 3 * visits[1]

    def _iterate(self, root: _Node, view: PlayerView, rng: random.Random) -> None:
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
                child = _Node(action, player, node)
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
        while not game.is_over and steps < ROLLOUT_ACTION_CAP:
            legal = game.legal_actions()
            game.apply_unchecked(rollout_action(game, legal, rng, noise))
            steps += 1
        losers = set(game.losers) if game.is_over else set()
        # Backpropagation: each node is scored for the player who chose it.
        scored: _Node | None = node
        while scored is not None:
            scored.visits += 1
            if scored.player >= 0 and scored.player not in losers:
                scored.reward += 1.0
            scored = scored.parent
