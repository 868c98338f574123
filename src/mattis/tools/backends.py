"""Where the games of a tournament, a simulation or a lab run: this process, a local
process pool, or a Ray cluster — behind one small interface.

Every tool cuts its work into picklable *tasks* (a batch of game numbers) whose results
depend on nothing but the task, so the backend changes how fast the results come, never
what they are. A backend yields ``(position, result)`` pairs *as tasks finish*, in
whatever order that is; :func:`run_in_order` puts them back in task order as soon as all
earlier ones are in, so the tools aggregate while the games are still being played
(progress counts every finished task at once) and still add up in one fixed order —
which is what makes floating-point sums and "first longest game" identical on every
backend.

Ray is optional (``pip install "mattis[ray]"``): :class:`RayBackend` imports it only when
it runs, connects to a cluster by address (``ray start --head`` prints it) or starts a
local instance, and leaves an instance it did not start running.
"""

from __future__ import annotations

import importlib
import logging
import socket
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, as_completed
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from ..extras import install_command
from ..pool import worker_pool

TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")

BACKEND_NAMES = ("local", "ray")
"""The names ``--backend`` accepts."""
RAY_MISSING = f"the ray backend needs Ray: {install_command('ray')}"
PROBE_SECONDS = 3.0
"""How long to wait for a cluster address to answer before saying nothing is there (Ray
itself keeps retrying an address that does not answer for minutes)."""


class BackendError(RuntimeError):
    """A backend could not start (Ray missing, no cluster at an address); one line."""


class Backend(Protocol):
    """Runs a function over tasks and yields ``(position, result)`` as each task finishes.

    ``function`` must be a module-level function and tasks and results picklable: they
    travel to other processes or machines.
    """

    @property
    def name(self) -> str:
        """``"local"`` or ``"ray"`` (recorded in results)."""
        ...

    @property
    def workers(self) -> int:
        """How many tasks may run at once (for a Ray cluster: the CPUs it reports)."""
        ...

    def run(self, function: Callable[[TaskT], ResultT],
            tasks: Sequence[TaskT]) -> Iterator[tuple[int, ResultT]]:
        """Run ``function`` on every task; yield each result with its task's position."""
        ...


@dataclass(frozen=True, slots=True)
class LocalBackend:
    """This process (``workers == 1``: no pickling, easy to debug) or a pool of spawned
    worker processes (:func:`mattis.pool.worker_pool`: they start clean, behave the same on
    every platform and end with this process)."""

    workers: int = 1

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers: must be at least 1, got {self.workers}")

    @property
    def name(self) -> str:
        """Always ``"local"``."""
        return "local"

    def run(self, function: Callable[[TaskT], ResultT],
            tasks: Sequence[TaskT]) -> Iterator[tuple[int, ResultT]]:
        """Run in this process or the pool, yielding results as they finish."""
        if self.workers == 1 or len(tasks) <= 1:
            for position, task in enumerate(tasks):
                yield position, function(task)
            return
        with worker_pool(min(self.workers, len(tasks))) as pool:
            futures: dict[Future[ResultT], int] = {
                pool.submit(function, task): position for position, task in enumerate(tasks)
            }
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise


@dataclass(slots=True)
class RayBackend:
    """Tasks as Ray remote calls, on an existing cluster (``address``, e.g. ``"auto"`` or
    ``"10.0.0.5:6379"``) or a local instance started with ``workers`` CPUs.

    Every node needs Mattis installed in the same Python version (``pip install
    "mattis[ray]"``): tasks name the function by module, they do not ship the code.
    An instance this backend started is shut down by :meth:`close`; one that was
    already running (a notebook's, or the cluster's) is left alone.
    """

    address: str | None = None
    requested_workers: int | None = None
    """CPUs for a local instance (``None``: all of this machine's)."""
    _started: bool = field(default=False, init=False)
    _ray: Any = field(default=None, init=False, repr=False)

    @property
    def name(self) -> str:
        """Always ``"ray"``."""
        return "ray"

    @property
    def workers(self) -> int:
        """The CPUs of the cluster (after :meth:`connect`), else the requested count."""
        if self._ray is not None and self._ray.is_initialized():
            return max(1, int(self._ray.cluster_resources().get("CPU", 1)))
        return self.requested_workers or 1

    def connect(self) -> None:
        """Join the cluster or start the local instance; :class:`BackendError` if that fails."""
        if self._ray is not None:
            return
        try:
            ray = importlib.import_module("ray")
        except ImportError:
            raise BackendError(RAY_MISSING) from None
        if not ray.is_initialized():
            if self.address is not None:
                probe_address(self.address)
            options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR,
                                       "log_to_driver": False}
            if self.address is None:
                options["num_cpus"] = self.requested_workers
            else:
                options["address"] = self.address
            try:
                ray.init(**options)
            except Exception as error:  # Ray raises ConnectionError, RuntimeError, ValueError …
                where = f"at {self.address!r}" if self.address else "on this machine"
                first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
                raise BackendError(f"could not start or join a Ray cluster {where}: {first_line}") from None
            self._started = True
        self._ray = ray

    def run(self, function: Callable[[TaskT], ResultT],
            tasks: Sequence[TaskT]) -> Iterator[tuple[int, ResultT]]:
        """Submit every task, then yield results as Ray reports them done."""
        self.connect()
        ray = self._ray
        remote = ray.remote(function)
        positions = {remote.remote(task): position for position, task in enumerate(tasks)}
        pending = list(positions)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for reference in done:
                    yield positions[reference], ray.get(reference)
        except BaseException:
            for reference in pending:
                ray.cancel(reference, force=True)
            raise

    def close(self) -> None:
        """Shut down the instance this backend started (nothing else)."""
        if self._started and self._ray is not None:
            self._ray.shutdown()
        self._started = False
        self._ray = None


def probe_address(address: str) -> None:
    """Raise :class:`BackendError` at once when ``host:port`` (or ``ray://host:port``) does
    not accept a connection; ``auto`` and addresses without a port are left to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS):
            pass
    except (OSError, ValueError, OverflowError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else "no answer"
        raise BackendError(f"no Ray cluster answers at {address!r}: {reason}") from None


def make_backend(name: str, workers: int = 1, address: str | None = None) -> LocalBackend | RayBackend:
    """The backend called ``name``; ``ValueError`` for an unknown name or an address given
    to the local backend."""
    key = name.strip().lower()
    if key == "local":
        if address is not None:
            raise ValueError("address: only the ray backend connects to an address")
        return LocalBackend(workers)
    if key == "ray":
        return RayBackend(address=address, requested_workers=workers)
    raise ValueError(f"backend: expected one of {', '.join(BACKEND_NAMES)}, got {name!r}")


def close_backend(backend: Backend) -> None:
    """Release what ``backend`` holds (a Ray instance it started); a no-op for local."""
    if isinstance(backend, RayBackend):
        backend.close()


def run_in_order(backend: Backend, function: Callable[[TaskT], ResultT], tasks: Sequence[TaskT],
                 finished: Callable[[ResultT], None] | None = None) -> Iterator[ResultT]:
    """Results in task order, each as soon as it and every earlier one are in.

    ``finished`` sees every result the moment its task finishes (any order), for a progress
    bar; only results that arrive ahead of an earlier one wait, so memory stays small.
    """
    waiting: dict[int, ResultT] = {}
    next_position = 0
    for position, result in backend.run(function, tasks):
        if finished is not None:
            finished(result)
        waiting[position] = result
        while next_position in waiting:
            yield waiting.pop(next_position)
            next_position += 1


def batches(total: int, workers: int, largest: int) -> list[range]:
    """``range(total)`` cut into consecutive batches: enough for every worker to have
    several (so a slow batch does not hold up the end), none larger than ``largest`` (so
    progress moves), and at least one game each."""
    if total < 1:
        return []
    size = max(1, min(largest, total // max(1, workers * 8)))
    return [range(start, min(start + size, total)) for start in range(0, total, size)]
