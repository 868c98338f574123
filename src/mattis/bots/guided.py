"""The ``master`` level: information-set search guided by a policy-and-value network.

Like ``hard`` (:mod:`mattis.bots.ismcts`), each iteration samples one full position
consistent with the seat's view (:mod:`mattis.bots.sampling`) and walks one shared tree of
actions with availability counts, so the tree only ever sees samples, never the real game.
Two things differ, as in AlphaZero:

- **Selection** is PUCT: a child scores ``Q + c · P · √available / (1 + visits)``, where
  ``P`` is the *prior* of its move, given once when its parent was first reached, by a
  :class:`LeafEvaluator` asked from the view of the player to move there (in the first
  sampled world that reached it); a move first met in a later world gets an even share.
  A child not yet visited counts with its parent's value for the player to move there.
- **Leaves** are scored half by the evaluator's estimate of each seat's chance of ending as
  Mattis (reward ``1 - risk`` for each player) and half by ``hard``'s rollout of the sampled
  world from there, as AlphaGo did: ``(1 - w) · value + w · result`` with
  :data:`ROLLOUT_WEIGHT` ``w = 0.5``; a finished game counts its result (1, or 0 for the
  loser). Measured against two ``hard:1000`` at 1,000 iterations a move, the value alone
  made ``master`` weaker than ``hard`` (``benchmarks/master/README.md``); with rollouts mixed
  in it is stronger.

The evaluator sees a :class:`~mattis.bots.view.PlayerView` built honestly for the player to
move in the sampled world: the public memory of the root view (its events followed again
without the root's own hand) plus the events from the root to the node in that world, and
that player's hand *in the sampled world*. So no view holds more than its seat could know
if the sampled world were the real one.

This module needs no numpy (the offline app's Pyodide has none): the network's evaluator
(:class:`mattis.bots.network.NetworkEvaluator`) is imported only when an agent is made
without an evaluator of its own.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Protocol

from ..core.actions import Action
from ..core.game import Game
from ..core.rules import MAX_SEATS as MAX_SEATS  # re-exported: the length of the evaluator's risks
from .ismcts import (
    CONFIDENT_AFTER,
    ROLLOUT_ACTION_CAP,
    ROLLOUT_NOISE,
    SearchNode,
    rollout_action,
    run_search,
    search_decision,
)
from .protocol import Decision, Limit
from .sampling import sample_position
from .view import CardTracker, PlayerView

MASTER_SECONDS = 1.0
"""The default longest thinking time a move, as ``hard``'s."""
MASTER_LIMIT = Limit(seconds=MASTER_SECONDS)
"""The default budget of a ``master`` move (it may stop sooner once settled)."""
EXPLORATION = 1.0
"""PUCT's ``c``: how far a move's prior outweighs what the simulations measured of it
(AlphaZero's order of size for rewards in [0, 1]; to be tuned with the trained network)."""
ROLLOUT_WEIGHT = 0.5
"""How much a leaf's rollout counts beside the network's value: 0.5 was Mattis in 20% of 90
games against two ``hard:1000`` at 1,000 iterations, 1 (rollout alone) in 23%, 0 (value
alone, 500 iterations) in 58% (``benchmarks/master/README.md``)."""


class LeafEvaluator(Protocol):
    """Scores one position from one seat's view: how to search on and how it will end."""

    def __call__(self, view: PlayerView,
                 legal_indices: Sequence[int]) -> tuple[Sequence[float], Sequence[float]]:
        """Priors over ``legal_indices`` (in that order, summing to 1) and each relative seat's
        chance of ending as Mattis (length :data:`MAX_SEATS`, slot 0 = the view's own seat,
        slot 1 the player on its left …)."""
        ...


class GuidedNode(SearchNode):
    """A node of the guided tree: besides ``hard``'s counts, its move's prior and, once the
    position after it has been evaluated, the priors of the moves from there."""

    __slots__ = ("prior", "priors", "value")

    def __init__(self, action: Action | None, player: int, parent: GuidedNode | None, prior: float) -> None:
        super().__init__(action, player, parent)
        self.prior = prior
        self.priors: dict[int, float] | None = None
        """The children's priors by action index; ``None`` until the node was evaluated."""
        self.value = 0.5
        """The evaluator's reward for the player to move here: what an unvisited child counts."""


class GuidedAgent:
    """PUCT information-set search with a network's priors and values (module docstring)."""

    name = "master"

    def __init__(
        self,
        limit: Limit = MASTER_LIMIT,
        *,
        evaluator: LeafEvaluator | None = None,
        exploration: float = EXPLORATION,
        early_stop: bool = True,
        confident_after: int = CONFIDENT_AFTER,
        rollout_weight: float = ROLLOUT_WEIGHT,
    ) -> None:
        self.limit = limit
        self.evaluator = evaluator
        """``None``: the shipped network, read when the first move is searched."""
        self.exploration = exploration
        self.early_stop = early_stop
        self.confident_after = confident_after
        if not 0.0 <= rollout_weight <= 1.0:
            raise ValueError(f"rollout_weight: must be from 0 to 1, got {rollout_weight}")
        self.rollout_weight = rollout_weight
        """How much a rollout's result counts beside the evaluator's value (0: not played)."""

    def _leaf_evaluator(self) -> LeafEvaluator:
        if self.evaluator is None:
            from .network import NetworkEvaluator, shipped_network  # numpy: only this default needs it

            self.evaluator = NetworkEvaluator(shipped_network())
        return self.evaluator

    def choose(
        self, view: PlayerView, legal: Sequence[Action], rng: random.Random, limit: Limit | None = None
    ) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], "the only legal move", "forced")
        search = _Search(view, legal, self._leaf_evaluator(), exploration=self.exploration,
                         rollout_weight=self.rollout_weight)
        root = search.root
        iterations = run_search(root.children, lambda: search.iterate(rng), limit or self.limit,
                                early_stop=self.early_stop, confident_after=self.confident_after)
        return search_decision(root.children, legal, iterations)


class _Search:
    """One move's search: the root view, its public memory and the tree."""

    def __init__(self, view: PlayerView, legal: Sequence[Action], evaluate: LeafEvaluator, *,
                 exploration: float, rollout_weight: float) -> None:
        public = view.public
        self.view = view
        self.evaluate = evaluate
        self.exploration = exploration
        self.rollout_weight = rollout_weight
        self.players = public.players
        self.public = CardTracker.public(view.memory, public.players, public.rules, public.trump_suit)
        """What every seat knows at the root: the base of each leaf's memory."""
        self.root = GuidedNode(None, -1, None, 1.0)
        indices = [action.index for action in legal]
        priors, risks = evaluate(view, indices)  # the root from the real view itself
        self.root.priors = dict(zip(indices, priors, strict=True))
        self.root.value = 1.0 - risks[0]

    def iterate(self, rng: random.Random) -> None:
        """One simulation: sample a world, walk the tree by PUCT to a node not evaluated
        yet (or the game's end), score it and back the rewards up."""
        game = Game.from_position(sample_position(self.view, rng), check=False)
        node = self.root
        exploration = self.exploration
        sqrt = math.sqrt
        while True:
            if game.is_over:
                losers = game.losers
                rewards = [0.0 if seat in losers else 1.0 for seat in range(self.players)]
                break
            legal = game.legal_actions()
            player = game.to_move
            assert player is not None
            priors = node.priors
            if priors is None:  # first reached: the evaluator scores it, and this walk ends
                rewards = self._expand(node, game, player, legal)
                if self.rollout_weight:
                    rewards = self._mix_rollout(game, rewards, rng)
                break
            children = node.children
            fallback = 1.0 / len(legal)
            first_play = node.value
            best: GuidedNode | None = None
            best_score = -math.inf
            for action in legal:
                child = children.get(action.index)
                if child is None:
                    child = GuidedNode(action, player, node, priors.get(action.index, fallback))
                    children[action.index] = child
                assert isinstance(child, GuidedNode)
                child.available += 1
                visits = child.visits
                mean = child.reward / visits if visits else first_play
                score = mean + exploration * child.prior * sqrt(child.available) / (1 + visits)
                if score > best_score:
                    best, best_score = child, score
            assert best is not None and best.action is not None
            game.apply_unchecked(best.action)
            node = best
        scored: SearchNode | None = node
        while scored is not None:  # each node is scored for the player who chose it
            scored.visits += 1
            if scored.player >= 0:
                scored.reward += rewards[scored.player]
            scored = scored.parent

    def _expand(self, node: GuidedNode, game: Game, player: int, legal: Sequence[Action]) -> list[float]:
        """Evaluate ``game`` (a sampled world, reached through ``node``) from ``player``'s
        view; keep the priors of its moves at ``node`` and answer every seat's reward."""
        view = self.leaf_view(game, player)
        indices = [action.index for action in legal]
        priors, risks = self.evaluate(view, indices)
        node.priors = dict(zip(indices, priors, strict=True))
        players = self.players
        rewards = [1.0 - risks[(seat - player) % players] for seat in range(players)]
        node.value = rewards[player]
        return rewards

    def _mix_rollout(self, game: Game, rewards: list[float], rng: random.Random) -> list[float]:
        """``rewards`` mixed with the result of ``hard``'s rollout of the sampled ``game``."""
        steps = 0
        while not game.is_over and steps < ROLLOUT_ACTION_CAP:
            game.apply_unchecked(rollout_action(game, game.legal_actions(), rng, ROLLOUT_NOISE))
            steps += 1
        losers = game.losers if game.is_over else ()
        weight = self.rollout_weight
        return [(1.0 - weight) * reward + weight * (0.0 if seat in losers else 1.0)
                for seat, reward in enumerate(rewards)]

    def leaf_view(self, game: Game, seat: int) -> PlayerView:
        """What ``seat`` knows in the sampled ``game``: the root's public memory, the events
        since the root in this world, and its hand here."""
        seen = self.view.public.event_count
        public = game.seat_view(seat)
        public = public._replace(history_start=seen, event_count=seen + public.event_count)
        tracker = self.public.fork()
        tracker.feed(public.events)
        return PlayerView(public, tracker.snapshot(seat, public.hand))


__all__ = [
    "EXPLORATION",
    "MASTER_LIMIT",
    "MASTER_SECONDS",
    "MAX_SEATS",
    "ROLLOUT_WEIGHT",
    "GuidedAgent",
    "GuidedNode",
    "LeafEvaluator",
]
