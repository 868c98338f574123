"""Playing whole games between agents: the one loop tournaments, benchmarks and tests share.

Each agent sees only ``PlayerView.from_dict(game.view(seat))``; the runner owns the game.
Forced moves (a single legal action) are applied without asking the agent, so they cost
nothing. Every seat gets its own generator derived from the game seed, so a game is
reproducible from its seed whatever else runs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core.game import Game
from .protocol import Agent, Decision, Limit
from .view import PlayerView


@dataclass(slots=True)
class DecisionStat:
    """Timing of one non-forced decision."""

    seat: int
    seconds: float
    iterations: int


@dataclass(slots=True)
class PlayedGame:
    """A finished (or capped) game and what it cost."""

    game: Game
    capped: bool
    decisions: list[DecisionStat] = field(default_factory=list)


def seat_rng(seed: int | str, seat: int) -> random.Random:
    """The generator of ``seat`` in the game of ``seed``."""
    return random.Random(f"{seed}/seat{seat}")


def decide(agent: Agent, game: Game, rng: random.Random, limit: Limit | None = None) -> Decision:
    """Ask ``agent`` for the move of the player to move, showing it only that seat's view."""
    seat = game.to_move
    if seat is None:
        raise ValueError("the game is over")
    legal = game.legal_actions()
    view = PlayerView.from_dict(game.view(seat))
    return agent.choose(view, legal, rng, limit)


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int | str,
    limits: Sequence[Limit | None] | None = None,
    action_cap: int = 20_000,
    on_decision: Callable[[int, Decision], None] | None = None,
) -> PlayedGame:
    """Play ``game`` to the end with ``agents[seat]`` at each seat."""
    if len(agents) != game.players:
        raise ValueError(f"agents: need one per seat ({game.players}), got {len(agents)}")
    rngs = [seat_rng(seed, seat) for seat in range(game.players)]
    played = PlayedGame(game, capped=False)
    while not game.is_over:
        if game.num_actions >= action_cap:
            played.capped = True
            break
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        if len(legal) == 1:
            game.apply_unchecked(legal[0])
            continue
        view = PlayerView.from_dict(game.view(seat))
        started = time.perf_counter()
        decision = agents[seat].choose(view, legal, rngs[seat], limits[seat] if limits else None)
        played.decisions.append(DecisionStat(seat, time.perf_counter() - started, decision.iterations))
        if on_decision is not None:
            on_decision(seat, decision)
        game.apply(decision.action)
    return played
