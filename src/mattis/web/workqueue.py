"""The worker jobs of all tables (``hard`` bots' searches and hints), shared fairly.

The workers are few (one per spare core) and a job holds one for about a second, so a
single queue would let one busy table (many hints, several ``hard`` bots) make every other
table wait behind it. Here each table has its own queue, and the workers are handed out
one table at a time, in turn by worker time: start-time fair queuing. Each job gets a
start tag, the later of the queue's virtual time (the tag of the job last handed out) and
the end tag of the table's previous job; its end tag is the start plus its cost (its time
budget). The free worker takes the job with the smallest start tag. A table that asks
again and again thus waits for its own earlier jobs, while a table that comes back after
a quiet spell is next in line; and a table never holds more than one worker at a time. When
the workers fall idle, the virtual time moves up to the last end tag: past use is forgiven,
and every table starts even.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

MAX_DEFAULT_WORKERS = 8


def default_workers() -> int:
    """Worker processes for ``hard`` bots and hints: one per core the server may use,
    leaving one for the server itself (at least one, at most :data:`MAX_DEFAULT_WORKERS`)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(MAX_DEFAULT_WORKERS, cores - 1))


@dataclass(order=True)
class _Job:
    start: float
    order: int
    owner: str = field(compare=False)
    function: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    done: asyncio.Future[Any] = field(compare=False)


class FairQueue:
    """Runs jobs in ``executor`` (a thread when ``None``), at most ``workers`` at once and
    one per owner, in fair turns between owners (see the module docstring)."""

    def __init__(self, executor: Executor | None, workers: int) -> None:
        self.executor = executor
        self.workers = max(1, workers)
        self.waiting: dict[str, deque[_Job]] = {}
        """Each owner's jobs not yet handed out, oldest first."""
        self.end_tags: dict[str, float] = {}
        self.running: set[str] = set()
        self.virtual = 0.0
        self._order = itertools.count()

    async def run(self, owner: str, cost: float, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a worker, in ``owner``'s turn; ``cost`` is its time budget
        in seconds. Cancelling the caller withdraws a job that has not started."""
        start = max(self.virtual, self.end_tags.get(owner, 0.0))
        self.end_tags[owner] = start + max(cost, 1e-3)
        job = _Job(start, next(self._order), owner, function, args,
                   asyncio.get_running_loop().create_future())
        self.waiting.setdefault(owner, deque()).append(job)
        self._hand_out()
        return await job.done

    @property
    def pending(self) -> int:
        """Jobs waiting for a worker."""
        return sum(len(jobs) for jobs in self.waiting.values())

    def _next_job(self) -> _Job | None:
        """The waiting job with the smallest start tag among owners without a running job."""
        best: _Job | None = None
        for owner, jobs in list(self.waiting.items()):
            while jobs and jobs[0].done.done():  # withdrawn while waiting
                jobs.popleft()
            if not jobs:
                del self.waiting[owner]
            elif owner not in self.running and (best is None or jobs[0] < best):
                best = jobs[0]
        return best

    def _hand_out(self) -> None:
        while len(self.running) < self.workers:
            job = self._next_job()
            if job is None:
                return
            self.waiting[job.owner].popleft()
            self.virtual = job.start
            self.running.add(job.owner)
            self._forget_idle()
            try:
                future = asyncio.get_running_loop().run_in_executor(self.executor, job.function, *job.args)
            except Exception as error:  # a broken pool: this job fails, the queue goes on
                self.running.discard(job.owner)
                job.done.set_exception(error)
                continue
            future.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: _Job, result: asyncio.Future[Any]) -> None:
        self.running.discard(job.owner)
        if not job.done.done():
            if result.cancelled():
                job.done.cancel()
            elif (error := result.exception()) is not None:
                job.done.set_exception(error)
            else:
                job.done.set_result(result.result())
        self._hand_out()
        if not self.running and not self.pending:  # idle: a new busy period starts even
            self.virtual = max(self.end_tags.values(), default=self.virtual)
            self.end_tags.clear()

    def _forget_idle(self) -> None:
        """Drop end tags the virtual time has passed (they no longer change a start tag), so
        the queue does not grow with every table that ever asked."""
        if len(self.end_tags) > 2 * len(self.waiting) + 64:
            self.end_tags = {owner: tag for owner, tag in self.end_tags.items()
                             if tag > self.virtual or owner in self.waiting}
