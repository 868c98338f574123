"""Playing whole games between agents: the one loop tournaments, benchmarks and tests share.

Each agent sees only its seat's :class:`PlayerView` (``Game.seat_view(seat)`` and the seat's
memory of the public events); the runner owns the game.
Forced moves (a single legal action) are applied without asking the agent, so they cost
nothing. Every seat gets its own generator derived from the game seed, so a game is
reproducible from its seed whatever else runs; the derivation is one-way (SHA-256), so a
bot that reads its generator's state learns nothing about the seed, and so nothing about
the deal. Each seat's memory of the public events (:class:`CardTracker`) is fed only the
events since its last turn, so a long game costs time in proportion to its length.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core.game import Game
from .protocol import Agent, Decision, Limit
from .view import CardTracker, PlayerView

DEFAULT_ACTION_CAP = 2_000
"""Player actions after which every tool stops a game as capped: simulations, tournaments,
the lab and the learning environments (``max_actions``). Games of our bots and of random
play end well within it (the longest of 600 random 4-player games took 661 actions); a
policy that keeps picking up can make phase 2 endless, and the cap ends such a game."""


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


def derived_rng(seed: int | str, purpose: str) -> random.Random:
    """A generator for ``purpose`` (``"seat2"``, ``"hint"`` …) derived one-way from the game
    seed: its state reveals nothing that leads back to the seed."""
    digest = hashlib.sha256(f"mattis/{purpose}/{_seed_text(seed)}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _seed_text(seed: int | str) -> str:
    """The seed as text, also for integers too long for ``str()`` (Python's digit limit)."""
    if isinstance(seed, int):
        return seed.to_bytes((seed.bit_length() + 8) // 8, "big", signed=True).hex()
    return seed


def seat_rng(seed: int | str, seat: int) -> random.Random:
    """The generator of ``seat`` in the game of ``seed``."""
    return derived_rng(seed, f"seat{seat}")


def seat_view(game: Game, seat: int, tracker: CardTracker | None = None) -> PlayerView:
    """The :class:`PlayerView` of ``seat``; with a ``tracker`` that followed the game so far,
    only the events since its last call are read."""
    if tracker is None:
        return PlayerView.of(game.seat_view(seat))
    return PlayerView.of(game.seat_view(seat, since=tracker.count), tracker)


def decide(agent: Agent, game: Game, rng: random.Random, *, limit: Limit | None = None,
           tracker: CardTracker | None = None) -> Decision:
    """Ask ``agent`` for the move of the player to move, showing it only that seat's view
    (read incrementally when the caller keeps the seat's ``tracker``)."""
    seat = game.to_move
    if seat is None:
        raise ValueError("the game is over")
    legal = game.legal_actions()
    return agent.choose(seat_view(game, seat, tracker), legal, rng, limit)


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int | str,
    *,
    limits: Sequence[Limit | None] | None = None,
    action_cap: int = DEFAULT_ACTION_CAP,
    on_decision: Callable[[int, Decision], None] | None = None,
) -> PlayedGame:
    """Play ``game`` to the end with ``agents[seat]`` at each seat."""
    if len(agents) != game.players:
        raise ValueError(f"agents: need one per seat ({game.players}), got {len(agents)}")
    rngs = [seat_rng(seed, seat) for seat in range(game.players)]
    trackers = [CardTracker(game.players, game.rules) for _ in range(game.players)]
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
        view = seat_view(game, seat, trackers[seat])
        started = time.perf_counter()
        decision = agents[seat].choose(view, legal, rngs[seat], limits[seat] if limits else None)
        played.decisions.append(DecisionStat(seat, time.perf_counter() - started, decision.iterations))
        if on_decision is not None:
            on_decision(seat, decision)
        game.apply(decision.action)
    return played
