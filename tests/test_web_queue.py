"""The worker jobs of all tables go through a fair queue (issue 13, item 3; per client
address since issue 29, item 3): each owner waits for its own jobs, not for another's flood;
hints come at most one at a time per seat, a cooldown apart, and the same point of a game
gets the same hint without a new search.

The queue is driven here by a fake executor whose jobs end when the test says so. Which
owner the server queues a job for is tested in ``tests/test_web_limits.py``."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mattis.web import create_app
from mattis.web.workqueue import FairQueue, default_workers

from .web_helpers import FAST, create_table, play_to_my_turn, receive, socket_url, with_tables


class HeldExecutor(Executor):
    """Records each job handed to it; a job ends when the test calls :meth:`finish`."""

    def __init__(self) -> None:
        self.started: list[tuple[str, Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.started.append((args[0], future))
        return future

    def order(self) -> list[str]:
        return [name for name, _ in self.started]

    async def finish(self, index: int = -1) -> None:
        """End a running job and let the loop hand out the next."""
        name, future = self.started[index]
        future.set_result(name)
        for _ in range(5):
            await asyncio.sleep(0)


def job(name: str) -> str:
    return name


def run(scenario: Callable[[], Any]) -> Any:
    return asyncio.run(scenario())


def test_a_flooding_table_waits_for_itself_and_a_quiet_one_goes_next() -> None:
    async def scenario() -> list[str]:
        pool = HeldExecutor()
        queue = FairQueue(pool, workers=1)
        flood = [asyncio.create_task(queue.run("flood", 0.5, job, f"flood{i}")) for i in range(6)]
        await asyncio.sleep(0)
        quiet = asyncio.create_task(queue.run("quiet", 0.5, job, "quiet0"))
        await asyncio.sleep(0)
        for _ in range(7):
            await pool.finish()
        assert await quiet == "quiet0"
        await asyncio.gather(*flood)
        return pool.order()

    assert run(scenario) == ["flood0", "quiet0", "flood1", "flood2", "flood3", "flood4", "flood5"]


def test_busy_tables_take_turns() -> None:
    async def scenario() -> list[str]:
        pool = HeldExecutor()
        queue = FairQueue(pool, workers=1)
        tasks = [asyncio.create_task(queue.run(table, 1.0, job, f"{table}{i}"))
                 for table in "abc" for i in range(3)]
        await asyncio.sleep(0)
        for _ in range(9):
            await pool.finish()
        await asyncio.gather(*tasks)
        return pool.order()

    assert run(scenario) == ["a0", "b0", "c0", "a1", "b1", "c1", "a2", "b2", "c2"]


def test_turns_are_shared_by_worker_time_not_by_job_count() -> None:
    """A hard bot's second of search counts twice a half-second hint."""
    async def scenario() -> list[str]:
        pool = HeldExecutor()
        queue = FairQueue(pool, workers=1)
        tasks = [asyncio.create_task(queue.run("hard", 1.0, job, f"hard{i}")) for i in range(3)]
        tasks += [asyncio.create_task(queue.run("hint", 0.5, job, f"hint{i}")) for i in range(6)]
        await asyncio.sleep(0)
        for _ in range(9):
            await pool.finish()
        await asyncio.gather(*tasks)
        return pool.order()

    order = run(scenario)
    assert order[:7] == ["hard0", "hint0", "hint1", "hard1", "hint2", "hint3", "hard2"]


def test_a_table_never_holds_two_workers() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        pool = HeldExecutor()
        queue = FairQueue(pool, workers=2)
        tasks = [asyncio.create_task(queue.run("a", 1.0, job, f"a{i}")) for i in range(3)]
        await asyncio.sleep(0)
        alone = pool.order()
        tasks.append(asyncio.create_task(queue.run("b", 1.0, job, "b0")))
        await asyncio.sleep(0)
        both = pool.order()
        for index in (0, 1, 2, 3):
            await pool.finish(index)
        await asyncio.gather(*tasks)
        return alone, both

    alone, both = run(scenario)
    assert alone == ["a0"] and both == ["a0", "b0"]


def test_a_withdrawn_job_is_never_started_and_a_broken_pool_fails_only_its_job() -> None:
    class Broken(HeldExecutor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            if args[0] == "boom":
                raise RuntimeError("worker died")
            return super().submit(fn, *args, **kwargs)

    async def scenario() -> list[str]:
        pool = Broken()
        queue = FairQueue(pool, workers=1)
        first = asyncio.create_task(queue.run("a", 1.0, job, "a0"))
        withdrawn = asyncio.create_task(queue.run("b", 1.0, job, "b0"))
        broken = asyncio.create_task(queue.run("c", 1.0, job, "boom"))
        last = asyncio.create_task(queue.run("d", 1.0, job, "d0"))
        await asyncio.sleep(0)
        withdrawn.cancel()
        await pool.finish()
        with pytest.raises(RuntimeError):
            await broken
        await pool.finish()
        assert await first == "a0" and await last == "d0" and queue.pending == 0
        return pool.order()

    assert run(scenario) == ["a0", "d0"]


def test_twenty_tables_of_one_address_are_one_turn_not_twenty() -> None:
    """The queue is fair per owner; the server's owners are client addresses, so an address
    with a job waiting at each of its twenty tables waits for itself, and a newcomer is next."""
    async def scenario() -> list[str]:
        pool = HeldExecutor()
        queue = FairQueue(pool, workers=1)
        crowd = [asyncio.create_task(queue.run("10.0.0.66", 2.5, job, f"expert{i}")) for i in range(20)]
        await asyncio.sleep(0)
        honest = asyncio.create_task(queue.run("10.0.0.1", 0.5, job, "hint"))
        await asyncio.sleep(0)
        for _ in range(21):
            await pool.finish()
        await asyncio.gather(honest, *crowd)
        return pool.order()

    assert run(scenario)[:3] == ["expert0", "hint", "expert1"]


def test_an_owner_takes_a_second_worker_only_while_another_stays_free() -> None:
    async def scenario(workers: int) -> tuple[list[str], list[str]]:
        pool = HeldExecutor()
        queue = FairQueue(pool, workers=workers)
        tasks = [asyncio.create_task(queue.run("a", 1.0, job, f"a{i}")) for i in range(4)]
        await asyncio.sleep(0)
        alone = pool.order()
        tasks.append(asyncio.create_task(queue.run("b", 1.0, job, "b0")))
        await asyncio.sleep(0)
        with_b = pool.order()
        while not all(task.done() for task in tasks):
            await pool.finish(next(index for index, (_, future) in enumerate(pool.started)
                                   if not future.done()))
        await asyncio.gather(*tasks)
        return alone, with_b

    assert asyncio.run(scenario(1)) == (["a0"], ["a0"])
    assert asyncio.run(scenario(2)) == (["a0"], ["a0", "b0"])  # a second would leave none free
    assert asyncio.run(scenario(4)) == (["a0", "a1", "a2"], ["a0", "a1", "a2", "b0"])


def test_the_default_worker_count_leaves_a_core_for_the_server_but_is_never_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert 2 <= default_workers() <= 8
    for cores, workers in ((1, 2), (2, 2), (4, 3), (64, 8)):
        monkeypatch.setattr(os, "sched_getaffinity", lambda _, cores=cores: set(range(cores)), raising=False)
        assert default_workers() == workers


# ------------------------------------------------------------------ hints at a table


def counting_app(tmp_path: Path, submitted: list[str], **changes: Any) -> TestClient:
    class CountingPool(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            submitted.append(fn.__name__)
            return super().submit(fn, *args, **kwargs)

    settings = with_tables(FAST, **changes)
    return TestClient(create_app(f"sqlite:///{tmp_path / 'hints.sqlite3'}", settings,
                                 executor_factory=lambda: CountingPool(1), workers=1))


def hint_reply(ws: Any) -> dict[str, Any]:
    while (message := receive(ws))["type"] not in ("hint", "error"):
        pass
    return message


def test_the_same_point_of_a_game_gets_the_same_hint_without_a_new_search(tmp_path: Path) -> None:
    submitted: list[str] = []
    with counting_app(tmp_path, submitted, hint_cooldown=60.0, hint_burst=2) as client:
        table = create_table(client, seed=4)
        with client.websocket_connect(socket_url(table)) as ws:
            state = play_to_my_turn(ws)
            answers = []
            for _ in range(5):
                ws.send_text(json.dumps({"type": "hint"}))
                answers.append(hint_reply(ws))
            assert {answer["type"] for answer in answers} == {"hint"}
            assert len({answer["action"] for answer in answers}) == 1
            assert submitted == ["suggest_move"]
            for searches in (2, 2):  # the second point is in the burst, the third is not
                ws.send_text(json.dumps({"type": "act", "action": state["legal"][0]}))
                ws.send_text(json.dumps({"type": "state"}))
                state = play_to_my_turn(ws)
                ws.send_text(json.dumps({"type": "hint"}))
                reply = hint_reply(ws)
                assert len(submitted) == searches
            assert reply["code"] == "hint_cooldown" and "seconds" in reply["message"]


def test_one_hint_at_a_time_per_seat(tmp_path: Path) -> None:
    submitted: list[str] = []
    with counting_app(tmp_path, submitted, hint_seconds=0.5) as client:
        table = create_table(client, seed=4)
        with client.websocket_connect(socket_url(table)) as ws:
            play_to_my_turn(ws)
            ws.send_text(json.dumps({"type": "hint"}))
            ws.send_text(json.dumps({"type": "hint"}))
            replies = [hint_reply(ws), hint_reply(ws)]
    assert sorted(reply.get("code", reply["type"]) for reply in replies) == ["hint", "hint_busy"]
    assert submitted == ["suggest_move"]
