"""Thinking that a host runs away from its table: a ``hard`` bot's move and a hint.

A search takes about a second; done in line it would freeze every table of a server, or the
page of the offline app. So the session hands out a job, a plain picklable value holding only
what the seat may know (its view as JSON and the legal moves as text), and the host runs
:func:`run_job` wherever it likes: a worker process, a thread, a Web Worker. The answer
comes back as plain values (:data:`DecisionParts`) that the session turns into a move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import EXPERT_LIMIT, MASTER, Agent, Decision, Limit, hint, make_agent
from ..bots.view import PlayerView
from ..core.actions import Action
from ..core.game import Game

DecisionParts = tuple[str, str, str, tuple[tuple[str, str], ...], int]
"""``(action text, explanation, reason, detail, iterations)`` — picklable and exact."""
RngSeed = str | random.Random
"""Where a job's generator comes from: a seed (text, which crosses to a worker: a fresh
generator is made from it), or the generator itself, which goes on from move to move (the
terminal, which runs its jobs in line: :class:`~mattis.frontend.match.SeatStreams`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BotJob:
    """Choose a move for the bot of ``level`` at ``seat`` from its view."""

    table_id: str
    seat: int
    view: dict[str, Any]
    legal: tuple[str, ...]
    level: str
    rng_seed: RngSeed
    seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class HintJob:
    """Suggest a move for the person at ``seat`` (the ``hard`` bot's choice, with reasons)."""

    table_id: str
    seat: int
    view: dict[str, Any]
    legal: tuple[str, ...]
    rng_seed: RngSeed
    seconds: float
    game_number: int = 0
    """The point of the match the hint is for: the game ..."""
    moves: int = 0
    """... and how many actions had been played in it."""


Job = BotJob | HintJob


def generator(seed: RngSeed) -> random.Random:
    """The generator a job or a bot's move draws from."""
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def decision_parts(decision: Decision) -> DecisionParts:
    """A decision as plain values, to cross a process boundary."""
    return (str(decision.action), decision.explanation, decision.reason, decision.detail,
            decision.iterations)


def decision_from_parts(parts: DecisionParts) -> Decision:
    """The worker's answer as a ``Decision`` (actions are interned, so parse the text)."""
    text, explanation, reason, detail, iterations = parts
    return Decision(Action.parse(text), explanation, reason, detail, iterations)


def choose_move(job: BotJob) -> DecisionParts:
    """What the bot of ``job.level`` plays from its view (in a worker process, or in line)."""
    limit = None
    if job.level in ("hard", MASTER):
        limit = Limit(seconds=job.seconds)
    elif job.level == "expert":  # the table's time, and never more than its iteration budget
        limit = Limit(seconds=job.seconds, iterations=EXPERT_LIMIT.iterations)
    return agent_move(job, make_agent(job.level, limit))


def agent_move(job: BotJob, agent: Agent) -> DecisionParts:
    """What ``agent`` plays from the job's view (a host that makes the agent itself: the
    offline app's ``master``, whose network runs in the worker's JavaScript)."""
    actions = [Action.parse(text) for text in job.legal]
    return decision_parts(agent.choose(PlayerView.from_dict(job.view), actions, generator(job.rng_seed)))


def suggest_move(job: HintJob) -> DecisionParts:
    """The ``hard`` bot's hint for the seat of ``job.view`` (in a worker process, or in line)."""
    actions = [Action.parse(text) for text in job.legal]
    return decision_parts(hint(job.view, actions, generator(job.rng_seed), Limit(seconds=job.seconds)))


def job_function(job: Job) -> Callable[[Any], DecisionParts]:
    """The function that does ``job``: a host submits ``job_function(job)(job)`` to its pool."""
    return suggest_move if isinstance(job, HintJob) else choose_move


def run_job(job: Job) -> DecisionParts:
    """Do a job in line (the offline app's worker and the tests)."""
    return job_function(job)(job)


def search_speed(seconds: float) -> dict[str, float]:
    """How fast ``hard`` searches here: its iterations in ``seconds`` from the first move of
    a fixed deal (the app's benchmark asks the offline app's worker and native Python)."""
    game = Game.new("pagat", players=3, seed=1)
    legal = tuple(str(action) for action in game.legal_actions())
    job = BotJob(table_id="speed", seat=0, view=game.view(0), legal=legal, level="hard", rng_seed="speed",
                 seconds=seconds)
    started = time.perf_counter()
    iterations = run_job(job)[4]
    elapsed = time.perf_counter() - started
    return {"iterations": iterations, "seconds": elapsed, "per_second": iterations / elapsed}
