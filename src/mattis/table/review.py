"""A finished game's review for one of its seats, as every host serves it to a page.

The review itself is :mod:`mattis.bots.review` (each choice judged from the seat's view
only) and its words :mod:`mattis.frontend.review`. What a host adds is where it runs and
how often: a review is about as much work as forty hints, so it is shared out as one job per
choice (:func:`judge_choice`, about a second each at the server's budget), run by the host's
``run(cost, function, *args)``: the web server's fair queue of worker processes, in the
asking client's turn, exactly as hints are, so a review never holds a worker for long; the
offline app's worker in line, a choice at a time. A :class:`ReviewDesk` keeps each review
asked for (running, with its progress, or done) so asking again, to follow its progress or
after reloading the page, never starts the work again, and a seat has one review running at
a time (``review_busy``).

The page's answer (:func:`review_answer`) is the review with its words in the reader's
language and, for each choice, the position the seat saw (:func:`review_positions`: its own
hand and the public table, from its view), so the page can step through the game.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.review import (
    DecisionReview,
    Review,
    ReviewPlan,
    assemble_review,
    plan_review,
    review_decision,
)
from ..core.game import Game
from ..frontend.cards import sort_hand
from ..frontend.review import choice_words, review_report
from ..i18n import Lang
from .errors import Refusal
from .page import codes

PLAN_COST = 0.05
"""Seconds a plan job (one replay of the record) is counted for in a fair queue."""

Runner = Callable[..., Awaitable[Any]]
"""How a host runs one piece of a review: ``await run(cost, function, *args)`` gives
``function(*args)``, worked out where the host likes (``cost``: about how many seconds)."""


@dataclass(frozen=True, slots=True)
class ReviewKey:
    """One review: a table's game, the seat looked back on, the budget and the seed."""

    table_id: str
    game: int
    seat: int
    iterations: int
    seed: int


@dataclass(frozen=True, slots=True)
class Prepared:
    """A review's plan and the position the seat saw at each of its choices."""

    plan: ReviewPlan
    positions: tuple[dict[str, Any], ...]


@dataclass(eq=False)
class ReviewRun:
    """A review asked for: how far it has come, and its result or failure once it ends."""

    key: ReviewKey
    done: int = 0
    """Playouts played so far ..."""
    total: int = 0
    """... of this many (0 until the plan is made)."""
    review: Review | None = None
    positions: tuple[dict[str, Any], ...] = ()
    failed: Refusal | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def running(self) -> bool:
        """Whether it is still being worked out."""
        return self.review is None and self.failed is None


def prepare_review(record: Mapping[str, Any], seat: int) -> Prepared:
    """The plan of a review and its positions (a job: plain values in and out)."""
    plan = plan_review(record, seat)
    return Prepared(plan, tuple(review_positions(record, seat, [action for action, _ in plan.choices])))


@dataclass(frozen=True, slots=True, kw_only=True)
class ChoiceJob:
    """One choice of a review to judge: plain values, to cross to a worker process."""

    record: Mapping[str, Any]
    seat: int
    action: int
    iterations: int
    seed: int


def judge_choice(job: ChoiceJob) -> DecisionReview:
    """One choice of a review (a job: :func:`~mattis.bots.review.review_decision`)."""
    return review_decision(job.record, job.seat, job.action, iterations=job.iterations, seed=job.seed)


def review_positions(record: Mapping[str, Any], seat: int, actions: Sequence[int]) -> list[dict[str, Any]]:
    """What ``seat`` saw at each of ``actions`` (its choices), from its own view only: the
    phase, its hand in the order the table page holds it, every seat's number of cards (and
    of cards won in phase 1), the stock, the trump once known, the plays on the table and who
    is in a war."""
    start = dict(record)
    moves = list(start.pop("actions"))
    start.pop("result", None)
    start["actions"] = []
    game = Game.from_record(start)
    wanted = set(actions)
    positions = []
    for number, text in enumerate(moves):
        if number in wanted:
            view = game.view(seat)
            positions.append({
                "action": number,
                "phase": view["phase"],
                "hand": codes(sort_hand(view["hand"], view["phase"], view["trump"])),
                "hand_sizes": view["hand_sizes"],
                "won_sizes": view["won_sizes"],
                "stock_size": view["stock_size"],
                "trump": view["trump"],
                "table": view["table"],
                "tie": view["tie"],
            })
        game.apply(text)
    return positions


class ReviewDesk:
    """The reviews of one host's tables: each asked for once, kept while it runs and after
    (the :attr:`keep` most recent), at most one running per seat of a table."""

    def __init__(self, keep: int = 64) -> None:
        self.keep = keep
        self.runs: OrderedDict[ReviewKey, ReviewRun] = OrderedDict()

    async def ask(self, key: ReviewKey, record: Callable[[], Awaitable[Mapping[str, Any]]], run: Runner, *,
                  admit: Callable[[], None] = lambda: None,
                  report: Callable[[BaseException], None] = lambda error: None) -> ReviewRun:
        """The review of ``key``: as far as it has come, or started now. A new one is
        refused ``review_busy`` while the seat has another running, then ``admit`` may refuse
        it, then ``record()`` gives the finished game's record (or refuses: no such game, not
        over). ``run`` does each job; a job that fails is given to ``report`` and the review
        answered ``server_error`` once, then started afresh if asked again."""
        kept = self.runs.get(key)
        if kept is not None:
            self.runs.move_to_end(key)
            if kept.failed is not None:
                del self.runs[key]
                raise kept.failed
            return kept
        if any(other.running and (other.key.table_id, other.key.seat) == (key.table_id, key.seat)
               for other in self.runs.values()):
            raise Refusal("review_busy")
        admit()
        started = self.runs[key] = ReviewRun(key)  # held while the record is read: asked twice, run once
        try:
            game = dict(await record())
        except BaseException:
            del self.runs[key]
            raise
        started.task = asyncio.get_running_loop().create_task(self._work(started, game, run, report))
        self._forget_old()
        return started

    @staticmethod
    async def _work(started: ReviewRun, game: dict[str, Any], run: Runner,
                    report: Callable[[BaseException], None]) -> None:
        key = started.key
        try:
            prepared: Prepared = await run(PLAN_COST, prepare_review, game, key.seat)
            plan = prepared.plan
            started.total = plan.playouts(key.iterations)

            async def judged(action: int, moves: int) -> DecisionReview:
                job = ChoiceJob(record=game, seat=key.seat, action=action, iterations=key.iterations,
                                seed=key.seed)
                decision: DecisionReview = await run(plan.seconds(action, key.iterations), judge_choice, job)
                started.done += key.iterations * moves
                return decision

            decisions = await asyncio.gather(*(judged(action, moves) for action, moves in plan.choices))
            started.positions = prepared.positions
            started.review = assemble_review(plan, decisions, iterations=key.iterations, seed=key.seed)
        except asyncio.CancelledError:
            started.failed = Refusal("server_error")
            raise
        except Exception as error:
            started.failed = Refusal("server_error")
            report(error)

    def _forget_old(self) -> None:
        for key in list(self.runs):
            if len(self.runs) <= self.keep:
                return
            if not self.runs[key].running:
                del self.runs[key]

    async def close(self) -> None:
        """Stop every review still running."""
        tasks = [run.task for run in self.runs.values() if run.task is not None and not run.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task


def review_answer(run: ReviewRun, lang: Lang, *, device: bool) -> dict[str, Any]:
    """What the page is answered: ``{"status": "running", "done", "total", "device"}`` while the review
    is worked out, then ``{"status": "done", "game", "seat", "device", "report", "positions"}``:
    the review with its words in ``lang`` (:meth:`~mattis.frontend.review.ReviewReport.to_dict`)
    and the position at each choice. ``device``: worked out on the device, with its smaller
    budget (the page says so)."""
    if run.review is None:
        return {"status": "running", "done": run.done, "total": run.total, "device": device}
    return {"status": "done", "game": run.key.game, "seat": run.key.seat, "device": device,
            "report": review_report(run.review, lang).to_dict(),
            "choices": [choice_words(decision, lang) for decision in run.review.decisions],
            "positions": list(run.positions)}
