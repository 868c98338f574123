"""The page's requests to the offline app: what the server answers over HTTP, answered on
the device (``{"op": "call", …}``; the list is in :mod:`mattis.offline.host`).

:class:`DeviceRequests` is the offline counterpart of the server's routes in ``web/app.py``:
it reads a call, asks the tables (:class:`~mattis.offline.DeviceHost`, which mixes it in) and
posts the body and status the server would give. Kept apart from the host, which is only the
table layer's adapter: rows saved to the device, messages posted to the page, jobs in line.
"""

from __future__ import annotations

import asyncio
import json
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any

from ..bots.review import REVIEW_SEED
from ..i18n import Lang, is_lang
from ..table.config import TableConfig
from ..table.errors import Refusal, error_message
from ..table.jobs import search_speed
from ..table.master import TableMaster
from ..table.memory import MemoryStore
from ..table.records import finished_record
from ..table.review import ReviewDesk, ReviewKey, review_answer
from .measure import limit_from, search_positions
from .network import MASTER_LEVEL, DeviceNetworks
from .stats import device_stats

REVIEW_PAUSE = 0.005
"""Seconds the worker waits before each piece of a review it works out
(:meth:`DeviceRequests._in_line`), so the page's asks for its progress are answered as it goes:
about one a choice in Chromium (at 0.001 s, or with every piece waiting at once, the page
heard nothing until the end), for under 2% of the review's time."""


def page_lang(value: object) -> Lang:
    """The language a page asked in; English for anything else."""
    return value if is_lang(value) else "en"


class DeviceRequests(ABC):
    """Answers the page's calls; the host that mixes it in keeps the tables."""

    post: Callable[[str], object]
    config: TableConfig
    stores: dict[str, MemoryStore]
    failures: list[str]
    reviews: ReviewDesk
    review_turn: asyncio.Lock
    networks: DeviceNetworks

    @abstractmethod
    async def create(self, body: object) -> tuple[TableMaster[str], int, str]:
        """A new table from a ``POST /api/tables`` body: it, the creator's seat and token."""

    @abstractmethod
    async def table(self, table_id: str) -> TableMaster[str]:
        """A table by id, brought back from the device if need be."""

    @abstractmethod
    async def saved_tables(self) -> list[dict[str, Any]]:
        """The public facts of every table saved on the device."""

    @abstractmethod
    def saved_results(self) -> Awaitable[object]:
        """Every finished game's saved result (JSON texts)."""

    @abstractmethod
    def report(self, table_id: str, error: BaseException) -> None:
        """Keep a failure outside any request."""

    async def _call(self, message: dict[str, Any]) -> None:
        lang = page_lang(message.get("lang"))
        reply: dict[str, Any] = {"reply": message.get("id")}
        try:
            status, data = await self._answer(str(message.get("name")), message)
            reply |= {"ok": True, "status": status, "data": data}
        except Exception as error:
            if not isinstance(error, Refusal):  # a bug: the page gets an answer, not a wait
                self.failures.append(f"{type(error).__name__}: {error}")
                error = Refusal("server_error")
            reply |= {"ok": False, "status": error.status, "data": error_message(error, lang)}
        self.post(json.dumps(reply, ensure_ascii=False, separators=(",", ":")))

    async def _answer(self, name: str, message: dict[str, Any]) -> tuple[int, Any]:
        if name == "createTable":
            table, seat, token = await self.create(message.get("body"))
            return 201, {"table": table.table_id, "seat": seat, "token": token, "invite": None}
        if name == "list":
            return 200, await self.saved_tables()
        if name == "myStats":
            return 200, device_stats(await self.saved_results())
        if name == "searchSpeed":
            return 200, search_speed(float(message.get("seconds") or 1.0))
        if name == "networkCheck":
            return 200, await self.networks.check(message)
        if name == "searchPositions":
            return 200, await self._search_positions(message)
        table = await self.table(str(message.get("tableId") or ""))
        if name == "record":  # as text: JavaScript's numbers cannot hold the 64-bit seed
            number = message.get("game")
            number = table.session.game_number if number is None else number
            if not isinstance(number, int) or isinstance(number, bool):
                raise Refusal("bad_request", "game must be a number")
            record = finished_record(self.stores[table.table_id].game(table.table_id, number))
            return 200, json.dumps(record, separators=(",", ":"))
        if name == "review":
            return await self._review(table, message)
        if name == "tableInfo":
            return 200, table.session.summary()
        if name == "joinTable":
            seat, token = await table.join(message.get("name"))
            return 200, {"seat": seat, "token": token}
        raise Refusal("bad_message", "unknown request (see mattis/offline/host.py)")

    async def _search_positions(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The benchmark's call: ``positions`` (``[view, legal]``) searched by ``level`` within
        ``seconds`` and/or ``iterations``, seeded by ``seed`` (:func:`.measure.search_positions`);
        ``master`` with the device's own network, as its bots play."""
        level = str(message.get("level"))
        evaluator = await self.networks.evaluator() if level == MASTER_LEVEL else None
        positions = [(dict(view), [str(text) for text in legal])
                     for view, legal in message.get("positions") or []]
        return search_positions(positions, level, limit_from(message), seed=str(message.get("seed") or ""),
                                evaluator=evaluator, early_stop=message.get("early_stop", True) is not False)

    async def _review(self, table: TableMaster[str], message: dict[str, Any]) -> tuple[int, Any]:
        number, token = message.get("game"), message.get("token")
        if not isinstance(number, int) or isinstance(number, bool):
            raise Refusal("bad_request", "game must be a number")
        seat = table.session.seat_of(token) if isinstance(token, str) else None
        if seat is None:
            raise Refusal("bad_token")
        table_id, store = table.table_id, self.stores[table.table_id]
        key = ReviewKey(table_id, number, seat, self.config.review_iterations, REVIEW_SEED)

        async def record() -> dict[str, Any]:
            return finished_record(store.game(table_id, number))

        run = await self.reviews.ask(key, record, self._in_line,
                                     report=lambda error: self.report(table_id, error))
        answer = review_answer(run, page_lang(message.get("lang")), device=True)
        return (200 if answer["status"] == "done" else 202), answer

    async def _in_line(self, cost: float, function: Callable[..., Any], *args: Any) -> Any:
        """One piece of a review, worked out here: one at a time, each after a short timer that
        lets the page's messages in first (its asks for the progress, a move at another table).
        On Pyodide a timer is what lets them in, and only if the pieces wait for it one by one:
        all of a review's pieces waiting on timers at once ran before any message."""
        async with self.review_turn:
            await asyncio.sleep(REVIEW_PAUSE)
            return function(*args)
