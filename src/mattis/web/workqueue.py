"""The worker jobs of all tables (searching bots' moves and hints), shared fairly between
client addresses.

The workers are few (one per spare core) and a job holds one for up to a few seconds, so a
single queue would let one busy client (many hints, many tables of searching bots) make
everyone else wait behind it. Fairness per table is not enough either: a table has at most
one job waiting most of the time, so twenty tables of one client would be twenty turns to
one of anybody else's. Here each *owner* (the server passes a client address,
:func:`~.limits.client_key`: a bot's move is its table's, a hint the asking connection's)
has its own queue, and the workers are handed out one owner at a time, in turn by worker
time: start-time fair queuing. Each job gets a start tag, the later of the queue's virtual
time (the tag of the job last handed out) and the end tag of the owner's previous job; its
end tag is the start plus its cost (its time budget). The free worker takes the job with the
smallest start tag. An owner that asks again and again thus waits for its own earlier jobs,
while an owner that comes back after a quiet spell is next in line.

An owner holds one worker at a time while another owner waits for one; it may take a
second only when that still leaves a worker free, so a newcomer never waits for more than
the end of a running job, and a lone client is not kept to one worker of an idle server.
When the workers fall idle, the virtual time moves up to the last end tag: past use is
forgiven, and every owner starts even.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import os
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

MAX_DEFAULT_WORKERS = 8
MIN_DEFAULT_WORKERS = 2
"""Even on one or two cores: a job holds its worker for its whole time budget (an ``expert``
move 2.5 s), so with a single worker a hint would wait for the end of whatever search runs.
With two, a busy client holds one and leaves the other to everyone else (see
:class:`FairQueue`). The searches stop at their time budgets, so two workers sharing a core
make no one wait longer; each search just gets fewer iterations while the machine is busy."""
NO_ADDRESS = "(no address yet)"
"""The owner of the bots' jobs of a table whose client address is not known: one loaded
from the store (after a restart, or taken over from a dead server) that nobody has
connected to since. All such tables share one turn, so tables playing alone cannot crowd
out people."""


def default_workers() -> int:
    """Worker processes for searching bots and hints: one per core the server may use,
    leaving one for the server itself, at most :data:`MAX_DEFAULT_WORKERS`, and at least
    :data:`MIN_DEFAULT_WORKERS`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(MIN_DEFAULT_WORKERS, min(MAX_DEFAULT_WORKERS, cores - 1))


@dataclass(order=True)
class _Job:
    start: float
    order: int
    owner: str = field(compare=False)
    function: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    done: asyncio.Future[Any] = field(compare=False)


class FairQueue:
    """Runs jobs in ``executor`` (a thread when ``None``), at most ``workers`` at once, in
    fair turns between owners (see the module docstring)."""

    def __init__(self, executor: Executor | None, workers: int) -> None:
        self.executor = executor
        self.workers = max(1, workers)
        self.waiting: dict[str, deque[_Job]] = {}
        """Each owner's jobs not yet handed out, oldest first."""
        self.end_tags: dict[str, float] = {}
        self.running: Counter[str] = Counter()
        """Each owner's jobs in a worker now."""
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

    @property
    def busy(self) -> int:
        """Workers running a job now."""
        return sum(self.running.values())

    def _next_job(self) -> _Job | None:
        """The waiting job with the smallest start tag among owners without a running job;
        failing that, among the others, if a worker would still be free after it."""
        idle: _Job | None = None
        holding: _Job | None = None
        for owner, jobs in list(self.waiting.items()):
            while jobs and jobs[0].done.done():  # withdrawn while waiting
                jobs.popleft()
            if not jobs:
                del self.waiting[owner]
            elif not self.running[owner]:
                if idle is None or jobs[0] < idle:
                    idle = jobs[0]
            elif holding is None or jobs[0] < holding:
                holding = jobs[0]
        if idle is not None:
            return idle
        return holding if self.workers - self.busy >= 2 else None

    def _hand_out(self) -> None:
        while self.busy < self.workers:
            job = self._next_job()
            if job is None:
                return
            self.waiting[job.owner].popleft()
            self.virtual = max(self.virtual, job.start)
            self.running[job.owner] += 1
            self._forget_idle()
            try:
                future = asyncio.get_running_loop().run_in_executor(self.executor, job.function, *job.args)
            except Exception as error:  # a broken pool: this job fails, the queue goes on
                self._release(job.owner)
                job.done.set_exception(error)
                continue
            future.add_done_callback(functools.partial(self._finished, job))

    def _release(self, owner: str) -> None:
        self.running[owner] -= 1
        if self.running[owner] <= 0:
            del self.running[owner]

    def _finished(self, job: _Job, result: asyncio.Future[Any]) -> None:
        self._release(job.owner)
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
